"""The game service: everything a game master, a player's client or a bot does with a game,
whatever keeps it.

:class:`Game` is one game between turns: file and screen orders, adjudicate, and give each
power its view (its reports, what it knows, the whole history once the variant reveals it)
and the game master his. It holds nothing but its record, so games never share a value and a
process can run as many as it likes. :class:`GameService` loads and saves games in a
:class:`fogdip.game.store.GameStore`.

>>> from fogdip.game.store import MemoryStore
>>> games = GameService(MemoryStore())
>>> game = games.create("g1", "fog-of-war", {"end_year": 1902})
>>> [check.ok for check in game.file("FRANCE", ["A PAR - BUR", "A PAR - NTH"])]
[True, False]
>>> game.filed
{}
>>> _ = game.file("FRANCE", ["A PAR - BUR"])
>>> game.adjudicate().turn
'S1901M'
>>> games.save("g1", game)
>>> view = games.open("g1").view("FRANCE")
>>> view.next_turn, len(view.reports)
('S1901R', 2)
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from fogdip.codec.errors import CodecError
from fogdip.codec.gamefiles import GameFileError
from fogdip.codec.observations import observation_from_json, observation_to_json
from fogdip.codec.turns import options_of_document, turn_document
from fogdip.engine.errors import FogdipError
from fogdip.engine.judge import solo_winner
from fogdip.fog.knowledge import Knowledge
from fogdip.fog.observation import Observation
from fogdip.game.store import GameStore
from fogdip.variants import Position, TurnResult, Variant
from fogdip.variants.filing import LineCheck, check_lines
from fogdip.variants.record import GameRecord, TurnRecord


class GameError(FogdipError):
    """A request a game cannot satisfy: an unknown power, orders after the end, a game id
    already taken."""


@dataclass(frozen=True)
class PowerView:
    """What one power may see of its game: its reports (as it received them, the opening one
    first), what it knows now, the lines it has filed for the next turn, and, once the game
    is over in a variant that reveals it, every turn's orders for everyone."""

    power: str
    next_turn: str
    filed: tuple[str, ...]
    reports: tuple[Observation, ...]
    knowledge: Knowledge
    revealed_history: tuple[dict[str, Any], ...] | None


@dataclass(frozen=True)
class MasterView:
    """The game master's view: the whole position, who has filed, everything filed, and every
    turn's result."""

    next_turn: str
    position: Position
    status: Mapping[str, str]
    filed: Mapping[str, tuple[str, ...]]
    results: tuple[dict[str, Any], ...]


class Game:
    """One game between turns."""

    def __init__(self, record: GameRecord, name: str = "the game") -> None:
        self.record = record
        #: How errors name this game (its file, its id).
        self.name = name

    @classmethod
    def create(cls, preset: str, /, **options: Any) -> Game:
        """A new game of ``preset`` with option overrides (as ``fogdip variants`` lists them);
        each power has its opening report and knows what it shows. ``preset`` is positional
        only, so that any option name, known or not, reaches the options' own check."""
        variant = Variant(options_of_document({"variant": preset, "options": options}))
        position = variant.start()
        opening = variant.opening_observations(position)
        return cls(
            GameRecord(
                variant,
                position,
                opening={power: observation_to_json(seen) for power, seen in opening.items()},
                knowledge={power: Knowledge.rebuild(power, [seen]) for power, seen in opening.items()},
            )
        )

    # --- what anyone may ask --------------------------------------------------------------

    @property
    def variant(self) -> Variant:
        return self.record.variant

    @property
    def position(self) -> Position:
        return self.record.position

    @property
    def turn(self) -> str:
        """The next turn's name, or ``COMPLETED``."""
        return self.record.position.name

    @property
    def powers(self) -> tuple[str, ...]:
        return self.record.position.state.powers

    @property
    def filed(self) -> dict[str, list[str]]:
        """The lines filed for the next turn, by power (a copy)."""
        return {power: list(lines) for power, lines in self.record.filed.items()}

    def power_named(self, name: str) -> str:
        """The power ``name`` stands for: its full name or at least its first three letters,
        in any case."""
        wanted = name.strip().upper()
        for power in self.powers:
            if power == wanted or (power.startswith(wanted) and len(wanted) >= 3):
                return power
        raise GameError(f"unknown power {name!r}: the powers are {', '.join(self.powers)}")

    def status(self) -> dict[str, str]:
        """Per power: how many lines it has filed for the next turn, or that it has not."""
        position = self.record.position
        out = {}
        for power in position.state.powers:
            if power in self.record.filed:
                out[power] = f"filed {len(self.record.filed[power])} line(s)"
            elif position.state.is_eliminated(power) and not position.setup_pending:
                out[power] = "eliminated"
            else:
                out[power] = "not filed"
        return out

    # --- orders and turns -----------------------------------------------------------------

    def screen(self, power: str, lines: list[str]) -> list[LineCheck]:
        """Every line's verdict, as filing would give it, without filing anything. Under fog a
        verdict depends only on what ``power`` may know."""
        if self.record.position.completed:
            raise GameError("the game is over; no more orders can be filed")
        return check_lines(self.record.variant, self.record.position, self._power(power), lines)

    def file(self, power: str, lines: list[str], *, partial: bool = False) -> list[LineCheck]:
        """Screen ``power``'s lines and, if all are accepted (or ``partial``: the accepted
        ones), replace its earlier orders with them. Returns every line's verdict."""
        checks = self.screen(power, lines)
        if partial or all(check.ok for check in checks):
            self.record.filed[power] = [check.text for check in checks if check.ok]
        return checks

    def adjudicate(self) -> TurnResult:
        """Play the next turn with the orders filed (powers that filed nothing hold or get
        their defaults); keep the result, each power's report and what each now knows."""
        record = self.record
        if record.position.completed:
            raise GameError("the game is over; there is no turn to adjudicate")
        played = record.variant.play(record.position, record.filed)
        result = turn_document(played, record.variant)
        reports = result.pop("reports")
        result.pop("state")
        for power, seen in played.observations.items():
            if power in record.knowledge:
                record.knowledge[power].update(seen)
        record.history.append(TurnRecord(played.turn, record.filed, result, reports))
        record.position = played.position
        record.filed = {}
        return played

    def agree_draw(self, powers: Iterable[str]) -> None:
        """End the game in a draw shared by ``powers``, agreed before the next turn is played.
        The game is then over as if its last turn had been played: nothing more is filed, and
        a variant that reveals the game at its end reveals it now.

        >>> game = Game.create("fog-of-war")
        >>> game.agree_draw(["FRANCE", "ENGLAND"])
        >>> game.turn, game.outcome()
        ('COMPLETED', {'result': 'draw', 'powers': ['ENGLAND', 'FRANCE'], 'agreed': 'S1901M'})
        """
        record = self.record
        if record.position.completed:
            raise GameError("the game is over already")
        shared = sorted({self._power(power) for power in powers})
        if not shared:
            raise GameError("a draw is shared by at least one power")
        record.ending = {"draw": shared, "turn": self.turn}
        ended = record.position.state.with_changes(completed=True)
        record.position = dataclasses.replace(record.position, state=ended, setup_pending=False)
        record.filed = {}

    def outcome(self) -> dict[str, Any] | None:
        """How the game ended, once it has: ``{"result": "solo", "powers": [winner]}``, or a
        draw among ``powers`` (agreed by vote, with the turn it was agreed before; or the
        survivors when the last year set for the game was played); ``None`` while it runs."""
        record = self.record
        if not record.position.completed:
            return None
        if record.ending is not None:
            return {"result": "draw", "powers": list(record.ending["draw"]), "agreed": record.ending["turn"]}
        state = record.position.state
        winner = solo_winner(state, record.variant.rules)
        if winner is not None:
            return {"result": "solo", "powers": [winner]}
        return {"result": "draw", "powers": [power for power in self.powers if not state.is_eliminated(power)]}

    # --- views ----------------------------------------------------------------------------

    def report_documents(self, power: str) -> list[dict[str, Any]]:
        """Every report ``power`` has received, as it was sent, the opening one first."""
        power = self._power(power)
        out = [self.record.opening[power]] if power in self.record.opening else []
        out.extend(turn.reports[power] for turn in self.record.history if power in turn.reports)
        return out

    def reports(self, power: str) -> list[Observation]:
        """Every report ``power`` has received, read back into values."""
        power = self._power(power)
        damaged = f"{self.name} has a damaged report of {power}"
        try:
            return [observation_from_json(report, damaged) for report in self.report_documents(power)]
        except CodecError as exc:
            raise GameFileError(f"{exc}; restore it from a backup") from None

    def knowledge(self, power: str) -> Knowledge:
        """What ``power`` knows now (a copy). Kept turn by turn; rebuilt from its reports when
        the record does not hold it."""
        power = self._power(power)
        known = self.record.knowledge.get(power)
        if known is None:
            known = self.record.knowledge[power] = Knowledge.rebuild(power, self.reports(power))
        return copy.deepcopy(known)

    def view(self, power: str) -> PowerView:
        power = self._power(power)
        history = self.revealed_history()
        return PowerView(
            power,
            self.turn,
            tuple(self.record.filed.get(power, ())),
            tuple(self.reports(power)),
            self.knowledge(power),
            None if history is None else tuple(history),
        )

    def master_view(self) -> MasterView:
        return MasterView(
            self.turn,
            self.record.position,
            self.status(),
            {power: tuple(lines) for power, lines in self.record.filed.items()},
            tuple({"turn": turn.turn, **turn.result} for turn in self.record.history),
        )

    def revealed_history(self) -> list[dict[str, Any]] | None:
        """Once the game is over, and if its variant reveals it then (``reveal_at_end``), every
        turn's orders and results for everyone; ``None`` before that."""
        if not (self.record.position.completed and self.record.variant.options.reveal_at_end):
            return None
        return [_revealed(turn) for turn in self.record.history]

    def _power(self, name: str) -> str:
        if name not in self.powers:
            raise GameError(f"{name} is not a power of {self.name}: use one of {', '.join(self.powers)}")
        return name


def _revealed(turn: TurnRecord) -> dict[str, Any]:
    result = turn.result
    powers = result.get("powers", {})
    results = result.get("results", {})
    return {
        "turn": turn.turn,
        "orders": {
            unit: {"power": powers.get(unit), "order": order, "result": results.get(unit, [])}
            for unit, order in result.get("orders", {}).items()
        },
    }


class GameService:
    """Games by id, in one store."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    def create(
        self, game_id: str, preset: str, options: Mapping[str, Any] | None = None, *, replace: bool = False
    ) -> Game:
        """Start a new game of ``preset`` with option overrides and keep it under ``game_id``
        (the options are a mapping, so no option's name can collide with these parameters)."""
        if not replace and self.store.exists(game_id):
            raise GameError(f"a game is already kept as {game_id}: choose another name, or replace it")
        game = Game(Game.create(preset, **dict(options or {})).record, game_id)
        self.store.save(game_id, game.record)
        return game

    def open(self, game_id: str) -> Game:
        return Game(self.store.load(game_id), game_id)

    def save(self, game_id: str, game: Game) -> None:
        self.store.save(game_id, game.record)

    @contextmanager
    def change(self, game_id: str) -> Iterator[Game]:
        """Open a game to change it; it is saved if the block ends without an error."""
        game = self.open(game_id)
        yield game
        self.save(game_id, game)


__all__ = ["Game", "GameError", "GameService", "MasterView", "PowerView"]
