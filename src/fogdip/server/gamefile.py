"""Game files for game masters of postal and e-mail games: one JSON file per game.

The file holds the variant, the position to play next, the orders filed for it, and the
history of every turn with each power's report. Writes are atomic (a temporary file in the
same directory, flushed to disk, then renamed over the old one), so a crash leaves either the
old game or the new one, never a torn file.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "game.json"
>>> game = GameFile.new("fog-of-war")
>>> game.save(path)
>>> GameFile.load(path).turn
'S1901M'
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fogdip.codec.errors import CodecError
from fogdip.codec.observations import observation_from_json, observation_to_json
from fogdip.engine.errors import FogdipError
from fogdip.fog.knowledge import Knowledge
from fogdip.play import options_of_document, position_document, position_from_document, turn_document
from fogdip.variants import Position, TurnResult, Variant
from fogdip.variants.filing import LineCheck, check_lines

FORMAT = "fogdip-game"
VERSION = 1


class GameFileError(FogdipError):
    """A game file that cannot be read, or a request it cannot satisfy."""


@dataclass
class GameFile:
    """A game in progress, as kept in its file."""

    position_doc: dict[str, Any]
    filed: dict[str, list[str]] = field(default_factory=dict)
    history: list[dict[str, Any]] = field(default_factory=list)
    opening: dict[str, Any] = field(default_factory=dict)
    #: Where the game was loaded from, for error messages.
    source: Path | None = field(default=None, compare=False)
    _read: tuple[dict[str, Any], tuple[Variant, Position]] | None = field(default=None, compare=False, repr=False)

    # --- making, reading, writing ------------------------------------------------------------

    @classmethod
    def new(cls, preset: str, **options: Any) -> GameFile:
        variant = Variant(options_of_document({"variant": preset, "options": options}))
        position = variant.start()
        opening = {p: observation_to_json(seen) for p, seen in variant.opening_observations(position).items()}
        return cls(position_document(position, variant), {}, [], opening)

    @classmethod
    def load(cls, path: Path) -> GameFile:
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise GameFileError(
                f"no game file at {path}: start one with 'fogdip gm new --variant NAME {path}'"
            ) from None
        except OSError as exc:
            raise GameFileError(f"cannot read {path}: {exc.strerror}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise GameFileError(
                f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}"
            ) from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise GameFileError(f'{path} is not a fogdip game file (it has no "format": "{FORMAT}")')
        if data.get("version") != VERSION:
            raise GameFileError(
                f"{path} is a version {data.get('version')} game file; this fogdip reads version {VERSION}"
            )
        _check_structure(data, path)
        game = cls(
            data["position"], dict(data.get("filed", {})), list(data.get("history", [])), dict(data.get("opening", {}))
        )
        game.variant_and_position()  # check the position now, with a clear error
        game.source = path
        return game

    def save(self, path: Path) -> None:
        payload = json.dumps(self.as_json(), indent=1, sort_keys=True) + "\n"
        directory = path.parent if str(path.parent) else Path(".")
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(payload)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        try:
            descriptor = os.open(directory, os.O_RDONLY)
        except OSError:  # pragma: no cover - some systems cannot open directories
            return
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)

    def as_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "position": self.position_doc,
            "filed": self.filed,
            "history": self.history,
            "opening": self.opening,
        }

    # --- queries -----------------------------------------------------------------------------

    def variant_and_position(self) -> tuple[Variant, Position]:
        """The game's variant and its next position, read once per position document."""
        if self._read is not None and self._read[0] is self.position_doc:
            return self._read[1]
        try:
            read = position_from_document(self.position_doc)
        except FogdipError as exc:
            raise GameFileError(f"the game file's position is damaged: {exc}") from None
        self._read = (self.position_doc, read)
        return read

    @property
    def turn(self) -> str:
        return self.variant_and_position()[1].name

    @property
    def powers(self) -> tuple[str, ...]:
        return self.variant_and_position()[1].state.powers

    def power_named(self, name: str) -> str:
        wanted = name.strip().upper()
        for power in self.powers:
            if power == wanted or (power.startswith(wanted) and len(wanted) >= 3):
                return power
        raise GameFileError(f"unknown power {name!r}: the powers are {', '.join(self.powers)}")

    def status(self) -> dict[str, str]:
        """Per power: how many lines it has filed for the next turn, or that it has not."""
        _variant, position = self.variant_and_position()
        out = {}
        for power in position.state.powers:
            if power in self.filed:
                out[power] = f"filed {len(self.filed[power])} line(s)"
            elif position.state.is_eliminated(power) and not position.setup_pending:
                out[power] = "eliminated"
            else:
                out[power] = "not filed"
        return out

    # --- changes -----------------------------------------------------------------------------

    def file_orders(self, power: str, lines: list[str], *, partial: bool = False) -> list[LineCheck]:
        """Check ``power``'s lines and, if all are accepted (or ``partial``: the accepted ones),
        replace its earlier orders with them. Returns every line's verdict."""
        variant, position = self.variant_and_position()
        if position.completed:
            raise GameFileError("the game is over; no more orders can be filed")
        checks = check_lines(variant, position, power, lines)
        if all(c.ok for c in checks) or partial:
            self.filed[power] = [c.text for c in checks if c.ok]
        return checks

    def adjudicate(self) -> TurnResult:
        variant, position = self.variant_and_position()
        played = variant.play(position, self.filed)
        result = turn_document(played, variant)
        reports = result.pop("reports")
        result.pop("state")
        self.history.append({"turn": played.turn, "orders": self.filed, "result": result, "reports": reports})
        self.position_doc = position_document(played.position, variant)
        self.filed = {}
        return played

    # --- what a power sees ---------------------------------------------------------------------

    def reports_of(self, power: str) -> list[dict[str, Any]]:
        """Every report ``power`` has received, the opening one first."""
        out = [self.opening[power]] if power in self.opening else []
        out.extend(entry["reports"][power] for entry in self.history if power in entry["reports"])
        return out

    def revealed_history(self) -> list[dict[str, Any]] | None:
        """Once the game is over, and if its variant reveals it then (``reveal_at_end``), every
        turn's orders and results for everyone; ``None`` before that."""
        variant, position = self.variant_and_position()
        if not (position.completed and variant.options.reveal_at_end):
            return None
        out = []
        for entry in self.history:
            result = entry.get("result", {})
            orders = result.get("orders", {})
            out.append(
                {
                    "turn": entry["turn"],
                    "orders": {
                        unit: {
                            "power": result.get("powers", {}).get(unit),
                            "order": order,
                            "result": result.get("results", {}).get(unit, []),
                        }
                        for unit, order in orders.items()
                    },
                }
            )
        return out

    def knowledge_of(self, power: str) -> Knowledge:
        """What ``power`` has learned, rebuilt from its reports. Reports are read only here, so
        commands that do not show a power's view never pay for the whole history."""
        where = self.source or "the game file"
        try:
            return Knowledge.rebuild(
                power,
                [observation_from_json(r, f"{where} has a damaged report of {power}") for r in self.reports_of(power)],
            )
        except CodecError as exc:
            raise GameFileError(f"{exc}; restore it from a backup") from None


def _check_structure(data: dict[str, Any], path: Path) -> None:
    def fail(what: str) -> GameFileError:
        return GameFileError(f"{path} is damaged: {what}; restore it from a backup")

    if not isinstance(data.get("position"), dict):
        raise fail('"position" must be the phase document of the next turn')
    filed = data.get("filed", {})
    if not isinstance(filed, dict) or not all(
        isinstance(lines, list) and all(isinstance(line, str) for line in lines) for lines in filed.values()
    ):
        raise fail('"filed" must map each power to a list of order lines')
    history = data.get("history", [])
    if not isinstance(history, list) or not all(
        isinstance(entry, dict) and isinstance(entry.get("turn"), str) and isinstance(entry.get("reports"), dict)
        for entry in history
    ):
        raise fail('"history" must be a list of turns, each with "turn" and "reports"')
    opening = data.get("opening", {})
    if not isinstance(opening, dict) or not all(isinstance(report, dict) for report in opening.values()):
        raise fail('"opening" must map each power to its opening report')
