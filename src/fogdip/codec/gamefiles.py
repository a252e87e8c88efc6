"""Game files: one JSON document per game, as ``fogdip gm`` keeps it.

A game file holds the variant and the position to play next (a phase document), the orders
filed for it, every turn played (the lines filed, the engine's record of each phase, the lines
set aside, each power's report and the position reached), each power's opening report, each
power's knowledge after the last turn and, for a game run at a table (``fogdip gm``'s and the
server's), its seats, settings, status and deadline (``"table"``). It carries ``"schema": N``;
files of an older schema are brought up to date as they are read
(:mod:`fogdip.codec.migrations`), files of a newer one are refused with a request to upgrade.

>>> from fogdip.variants import Variant
>>> from fogdip.variants.record import GameRecord
>>> variant = Variant.named("fog-of-war", end_year=1902)
>>> data = game_to_json(GameRecord(variant, variant.start()))
>>> data["format"], data["schema"], data["position"]["phase"]
('fogdip-game', 3, 'S1901M')
>>> game_from_json(data).position.name
'S1901M'
"""

from __future__ import annotations

from datetime import datetime
from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, WithJsonSchema

from fogdip.bots.base import DEFAULT_BOT
from fogdip.codec.errors import CodecError
from fogdip.codec.migrations import schema_1_to_2, schema_2_to_3
from fogdip.codec.observations import knowledge_from_json, knowledge_to_json, observation_from_json, observation_to_json
from fogdip.codec.results import ReasonJSON, reason_from_json, reason_to_json, resolution_from_json, resolution_to_json
from fogdip.codec.turns import position_document, position_from_document
from fogdip.engine.errors import FogdipError
from fogdip.engine.outcomes import RejectedOrder
from fogdip.fog.knowledge import Knowledge
from fogdip.fog.observation import Observation
from fogdip.variants import Variant
from fogdip.variants.record import Ending, GameRecord, History, TurnRecord, filed_texts

FORMAT = "fogdip-game"

# Reports, knowledge, records and positions have schemas of their own, in their own files in
# docs/schema/, referred to by name (codec.schemas turns each x-document into a $ref).
_Report = Annotated[dict[str, Any], WithJsonSchema({"x-document": "report.json"})]
_Knowledge = Annotated[dict[str, Any], WithJsonSchema({"x-document": "knowledge.json"})]
_Position = Annotated[dict[str, Any], WithJsonSchema({"x-document": "phase-document.json"})]
_Record = Annotated[dict[str, Any], WithJsonSchema({"x-document": "record.json"})]
#: The schema this fogdip writes. 1: reports held only their lines; 2: their values too, and
#: each power's knowledge is kept; 3: each turn keeps the engine's records and the position
#: reached (not a summary of the result), and a game run at a table keeps its seats and
#: settings.
SCHEMA = 3


class GameFileError(CodecError):
    """A game file that cannot be read."""


class RejectedJSON(BaseModel):
    """A line set aside before the engine saw it (unreadable, or against the variant's
    rules), with why."""

    model_config = ConfigDict(extra="ignore")

    power: str
    text: str
    reason: ReasonJSON


class TurnJSON(BaseModel):
    """One played turn: the lines each power filed, the engine's record of each phase it
    played, the lines set aside, each power's report and the position reached."""

    model_config = ConfigDict(extra="ignore")

    turn: str
    orders: dict[str, list[str]] = {}
    resolutions: list[_Record] = []
    rejected: list[RejectedJSON] = []
    reports: dict[str, _Report]
    position: _Position


class EndingJSON(BaseModel):
    """A game ended by agreement: the powers that shared the draw, agreed before ``turn``."""

    model_config = ConfigDict(extra="ignore")

    draw: list[str]
    turn: str


class SeatJSON(BaseModel):
    """A seat at the table: its power, who plays it (an account, the bot, or nobody yet), its
    ready mark and draw vote, and how many of its messages it has read."""

    model_config = ConfigDict(extra="ignore")

    power: str
    player: str | None = None
    bot: bool = False
    #: Which bot plays it, when the bot does (a file of an earlier fogdip: the default bot).
    bot_name: str = DEFAULT_BOT
    ready: bool = False
    draw: bool = False
    read: int = Field(default=0, ge=0)


class MessageJSON(BaseModel):
    """A message of the game's press, as sent: its turn, its real sender, its recipients
    (``null``: all), its text and the sender it claims (black press)."""

    model_config = ConfigDict(extra="ignore")

    turn: str
    sender: str
    recipients: list[str] | None = None
    body: str
    claim: str | None = None
    #: The powers whose lists hold it, where seats swapped before the start took it with their
    #: players (``null``: its sender and recipients).
    readers: list[str] | None = None


class TableJSON(BaseModel):
    """How the game is run, beside its variant: its status, settings, game master, seats,
    observers and the deadline of the next turn."""

    model_config = ConfigDict(extra="ignore")

    status: Literal["forming", "active", "paused", "finished"] = "active"
    name: str = ""
    preset: str = ""
    private: bool = True
    invite: str | None = None
    master: str | None = None
    press: Literal["none", "public", "white", "grey", "black", "gunboat"] = "white"
    press_range: Literal["any", "adjacent"] = "any"
    observers: Literal["none", "press", "board"] = "press"
    draw_votes: Literal["open", "secret"] = "secret"
    ready_counts: bool = False
    #: Seconds per phase type: movement, retreats, adjustments.
    deadlines: dict[Literal["movement", "retreats", "adjustments"], int] = {}
    postal: bool = False
    seats: list[SeatJSON] = []
    watching: list[str] = []
    #: When the next turn is played at the latest (none: no deadline runs).
    deadline: datetime | None = None
    #: Seconds that were left of the deadline when the game was paused.
    paused_left: float | None = None
    #: The game's press, in the order it was sent.
    messages: list[MessageJSON] = []


class GameFileJSON(BaseModel):
    """A game file: the next turn's phase document, the lines filed for it, every turn
    played, each power's opening report and knowledge after the last turn, and the table."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    format: Literal["fogdip-game"]
    schema_: int = Field(alias="schema", ge=1)
    position: _Position
    filed: dict[str, list[str]] = {}
    history: list[TurnJSON] = []
    opening: dict[str, _Report] = {}
    knowledge: dict[str, _Knowledge] = {}
    ending: EndingJSON | None = None
    table: TableJSON | None = None


#: What each part of a game file must be, in the words a game master needs to find the damage.
_PARTS = MappingProxyType(
    {
        "position": '"position" must be the phase document of the next turn',
        "filed": '"filed" must map each power to a list of order lines',
        "history": '"history" must be a list of turns, each with "turn", "resolutions", "reports" and "position"',
        "opening": '"opening" must map each power to its opening report',
        "knowledge": '"knowledge" must map each power to what it knows',
        "ending": '"ending" must name the powers of an agreed draw ("draw") and its "turn"',
        "schema": '"schema" must be a whole number',
        "table": '"table" must hold the status, settings and seats of the game as fogdip writes them',
    }
)


def turn_to_json(turn: TurnRecord, variant: Variant) -> dict[str, Any]:
    """One played turn, as a game file (and the server's database) keeps it."""
    return {
        "turn": turn.turn,
        "orders": {power: list(lines) for power, lines in turn.orders.items()},
        "resolutions": [resolution_to_json(resolution) for resolution in turn.resolutions],
        "rejected": [{"power": r.power, "text": r.text, "reason": reason_to_json(r.reason)} for r in turn.rejected],
        "reports": {power: observation_to_json(seen) for power, seen in sorted(turn.reports.items())},
        "position": position_document(turn.position, variant),
    }


def game_to_json(record: GameRecord, table: TableJSON | None = None) -> dict[str, Any]:
    """The game file of ``record`` (and of its table, if it is run at one)."""
    variant = record.variant
    data: dict[str, Any] = {
        "format": FORMAT,
        "schema": SCHEMA,
        "position": position_document(record.position, variant),
        "filed": {power: filed_texts(lines) for power, lines in record.filed.items()},
        "history": [turn_to_json(turn, variant) for turn in record.history],
        "opening": {power: observation_to_json(seen) for power, seen in sorted(record.opening.items())},
        "knowledge": {
            power: knowledge_to_json(known)
            for power in sorted(record.position.state.powers)
            if (known := record.knowledge.get(power)) is not None
        },
    }
    if record.ending is not None:
        data["ending"] = {"draw": list(record.ending.draw), "turn": record.ending.turn}
    if table is not None:
        data["table"] = table.model_dump(mode="json", exclude_defaults=False)
    return data


def game_from_json(data: object, where: str = "the game file") -> GameRecord:
    """Read a game file of this or an earlier schema (its table, if any: :func:`table_of`).
    Knowledge that cannot be read is left out, to be rebuilt from that power's reports when
    it is asked for: the reports are what the power was told, and its knowledge is made from
    them alone."""
    return read_game_file(data, where)[0]


def read_game_file(data: object, where: str = "the game file") -> tuple[GameRecord, TableJSON | None]:
    """A game file's record, and its table if the game is run at one."""
    wire = _wire(data, where)
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
        if read.power == power:
            knowledge[power] = read
    opening = {
        power: _report(report, f"{where} has a damaged report of {power} (its opening one)")
        for power, report in wire.opening.items()
    }
    turns = [turn_from_wire(turn, where) for turn in wire.history]
    ending = None if wire.ending is None else Ending(tuple(wire.ending.draw), wire.ending.turn)
    record = GameRecord(
        variant,
        position,
        {power: list(lines) for power, lines in wire.filed.items()},
        History(opening, turns),
        knowledge,
        ending,
    )
    return record, wire.table


def turn_from_json(data: object, where: str = "a turn") -> TurnRecord:
    """A turn as :func:`turn_to_json` wrote it."""
    try:
        wire = TurnJSON.model_validate(data)
    except ValidationError as exc:
        raise GameFileError(f"{where} is damaged: {exc.errors(include_url=False)[0]['msg']}") from None
    return turn_from_wire(wire, where)


def turn_from_wire(wire: TurnJSON, where: str) -> TurnRecord:
    at = f"{where}, turn {wire.turn}"
    try:
        resolutions = tuple(
            resolution_from_json(resolution, f"{at}: record {index + 1}")
            for index, resolution in enumerate(wire.resolutions)
        )
        rejected = tuple(RejectedOrder(r.power, r.text, reason_from_json(r.reason)) for r in wire.rejected)
        _variant, position = position_from_document(wire.position)
    except (CodecError, FogdipError) as exc:
        raise GameFileError(f"{at} is damaged: {exc}; restore it from a backup") from None
    reports = {
        power: _report(report, f"{where} has a damaged report of {power} (after {wire.turn})")
        for power, report in wire.reports.items()
    }
    return TurnRecord(
        wire.turn,
        MappingProxyType({power: tuple(lines) for power, lines in wire.orders.items()}),
        resolutions,
        rejected,
        MappingProxyType(reports),
        position,
    )


def _report(data: dict[str, Any], where: str) -> Observation:
    try:
        return observation_from_json(data, where)
    except CodecError as exc:
        raise GameFileError(f"{exc}; restore it from a backup") from None


def _wire(data: object, where: str) -> GameFileJSON:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise GameFileError(f'{where} is not a fogdip game file (it has no "format": "{FORMAT}")')
    data = _current(data, where)
    try:
        return GameFileJSON.model_validate(data)
    except ValidationError as exc:
        part = str(exc.errors(include_url=False)[0]["loc"][0])
        what = _PARTS.get(part, f'"{part}" is not as fogdip writes it')
        raise GameFileError(f"{where} is damaged: {what}; restore it from a backup") from None


def _current(data: dict[str, Any], where: str) -> dict[str, Any]:
    schema = data.get("schema", 1 if data.get("version") == 1 else None)
    if schema == 1:
        data, schema = schema_1_to_2(data), 2
    if schema == 2:
        try:
            return schema_2_to_3(data)
        except (CodecError, FogdipError, KeyError, TypeError, ValueError) as exc:
            raise GameFileError(
                f"{where} was written by an earlier fogdip (schema 2) and cannot be brought up to date: {exc}"
            ) from None
    if isinstance(schema, int) and schema > SCHEMA:
        raise GameFileError(
            f"{where} was written with schema {schema} by a later fogdip; this one reads up to "
            f"schema {SCHEMA}: upgrade fogdip (pip install -U fogdip)"
        )
    if schema is None:
        raise GameFileError(f'{where} is damaged: it has no "schema"; restore it from a backup')
    return data


__all__ = [
    "FORMAT",
    "SCHEMA",
    "GameFileError",
    "GameFileJSON",
    "MessageJSON",
    "SeatJSON",
    "TableJSON",
    "TurnJSON",
    "game_from_json",
    "game_to_json",
    "read_game_file",
    "turn_from_json",
    "turn_to_json",
]
