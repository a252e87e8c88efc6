"""Game files: one JSON document per game, as ``fogdip gm`` keeps it.

A game file holds the variant and the position to play next (a phase document), the orders
filed for it, every turn played (the lines filed, the game master's result, each power's
report), each power's opening report, and each power's knowledge after the last turn. It
carries ``"schema": N``; files of an older schema are brought up to date as they are read
(:mod:`fogdip.codec.migrations`), files of a newer one are refused with a request to upgrade.

Reports are kept as each power received them and are read only when that power's view is
asked for, so a damaged report is refused then, naming its power, and the other powers' views
still show.

>>> from fogdip.variants import Variant
>>> from fogdip.variants.record import GameRecord
>>> variant = Variant.named("fog-of-war", end_year=1902)
>>> data = game_to_json(GameRecord(variant, variant.start()))
>>> data["format"], data["schema"], data["position"]["phase"]
('fogdip-game', 2, 'S1901M')
>>> game_from_json(data).position.name
'S1901M'
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, WithJsonSchema

from fogdip.codec.errors import CodecError
from fogdip.codec.migrations import schema_1_to_2
from fogdip.codec.observations import knowledge_from_json, knowledge_to_json
from fogdip.codec.turns import position_document, position_from_document
from fogdip.engine.errors import FogdipError
from fogdip.fog.knowledge import Knowledge
from fogdip.variants.record import GameRecord, TurnRecord

FORMAT = "fogdip-game"

# Reports, knowledge and the position are read only when needed (a damaged report is refused
# when its power's view is asked for); their schemas are their own files in docs/schema/,
# referred to by name (codec.schemas turns each x-document into a $ref).
_Report = Annotated[dict[str, Any], WithJsonSchema({"x-document": "report.json"})]
_Knowledge = Annotated[dict[str, Any], WithJsonSchema({"x-document": "knowledge.json"})]
_Position = Annotated[dict[str, Any], WithJsonSchema({"x-document": "phase-document.json"})]
_Result = Annotated[dict[str, Any], WithJsonSchema({"x-document": "turn-document.json"})]
#: The schema this fogdip writes. 1: reports held only their lines; 2: their values too, and
#: each power's knowledge is kept.
SCHEMA = 2


class GameFileError(CodecError):
    """A game file that cannot be read."""


class TurnJSON(BaseModel):
    """One played turn: the lines each power filed, the game master's result (as ``fogdip
    adjudicate`` prints it, without ``reports`` and ``state``) and each power's report."""

    model_config = ConfigDict(extra="ignore")

    turn: str
    orders: dict[str, list[str]] = {}
    result: _Result = {}
    reports: dict[str, _Report]


class Ending(BaseModel):
    """A game ended by agreement: the powers that shared the draw, agreed before ``turn``."""

    model_config = ConfigDict(extra="ignore")

    draw: list[str]
    turn: str


class GameFileJSON(BaseModel):
    """A game file: the next turn's phase document, the lines filed for it, every turn
    played, each power's opening report and each power's knowledge after the last turn."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    format: Literal["fogdip-game"]
    schema_: int = Field(alias="schema", ge=1)
    position: _Position
    filed: dict[str, list[str]] = {}
    history: list[TurnJSON] = []
    opening: dict[str, _Report] = {}
    knowledge: dict[str, _Knowledge] = {}
    ending: Ending | None = None


#: What each part of a game file must be, in the words a game master needs to find the damage.
_PARTS = MappingProxyType(
    {
        "position": '"position" must be the phase document of the next turn',
        "filed": '"filed" must map each power to a list of order lines',
        "history": '"history" must be a list of turns, each with "turn" and "reports"',
        "opening": '"opening" must map each power to its opening report',
        "knowledge": '"knowledge" must map each power to what it knows',
        "ending": '"ending" must name the powers of an agreed draw ("draw") and its "turn"',
        "schema": '"schema" must be a whole number',
    }
)


def game_to_json(record: GameRecord) -> dict[str, Any]:
    """The game file of ``record``."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "schema": SCHEMA,
        "position": position_document(record.position, record.variant),
        "filed": record.filed,
        "history": [
            {"turn": turn.turn, "orders": turn.orders, "result": turn.result, "reports": turn.reports}
            for turn in record.history
        ],
        "opening": record.opening,
        "knowledge": {power: knowledge_to_json(known) for power, known in sorted(record.knowledge.items())},
    }
    if record.ending is not None:
        data["ending"] = record.ending
    return data


def game_from_json(data: object, where: str = "the game file") -> GameRecord:
    """Read a game file of this or an earlier schema. Knowledge that cannot be read is left
    out, to be rebuilt from that power's reports when it is asked for: the reports are what
    the power was told, and its knowledge is made from them alone."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise GameFileError(f'{where} is not a fogdip game file (it has no "format": "{FORMAT}")')
    data = _current(data, where)
    try:
        wire = GameFileJSON.model_validate(data)
    except ValidationError as exc:
        part = str(exc.errors(include_url=False)[0]["loc"][0])
        what = _PARTS.get(part, f'"{part}" is not as fogdip writes it')
        raise GameFileError(f"{where} is damaged: {what}; restore it from a backup") from None
    try:
        variant, position = position_from_document(wire.position)
    except FogdipError as exc:
        raise GameFileError(f"{where} has a damaged position: {exc}; restore it from a backup") from None
    knowledge: dict[str, Knowledge] = {}
    for power, known in wire.knowledge.items():
        try:
            read = knowledge_from_json(known)
        except CodecError:
            continue
        if read.power == power:  # another power's knowledge under this one's name is damage too
            knowledge[power] = read
    return GameRecord(
        variant,
        position,
        {power: list(lines) for power, lines in wire.filed.items()},
        [TurnRecord(turn.turn, turn.orders, turn.result, turn.reports) for turn in wire.history],
        wire.opening,
        knowledge,
        None if wire.ending is None else wire.ending.model_dump(),
    )


def _current(data: dict[str, Any], where: str) -> dict[str, Any]:
    schema = data.get("schema", 1 if data.get("version") == 1 else None)
    if schema == 1:
        return schema_1_to_2(data)
    if isinstance(schema, int) and schema > SCHEMA:
        raise GameFileError(
            f"{where} was written with schema {schema} by a later fogdip; this one reads up to "
            f"schema {SCHEMA}: upgrade fogdip (pip install -U fogdip)"
        )
    if schema is None:
        raise GameFileError(f'{where} is damaged: it has no "schema"; restore it from a backup')
    return data


__all__ = ["FORMAT", "SCHEMA", "GameFileError", "GameFileJSON", "TurnJSON", "game_from_json", "game_to_json"]
