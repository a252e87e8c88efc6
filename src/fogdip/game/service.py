"""A game between turns: everything its variant lets be done with it, whoever asks.

:class:`Game` files and screens orders, adjudicates, and gives each power its view (its
reports, what it knows, the whole history once the variant reveals it) and the game master
his. It holds nothing but its record, so games never share a value and a process can run as
many as it likes. Who may ask for what, and when, is the table's (:mod:`fogdip.game.table`).

>>> game = Game.create("fog-of-war", end_year=1902)
>>> [check.ok for check in game.file("FRANCE", ["A PAR - BUR", "A PAR - NTH"])]
[True, False]
>>> game.filed
{}
>>> _ = game.file("FRANCE", ["A PAR - BUR"])
>>> game.adjudicate().turn
'S1901M'
>>> view = game.view("FRANCE")
>>> view.next_turn, len(view.reports)
('S1901R', 2)
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fogdip.codec.turns import options_of_document, record_document
from fogdip.engine.judge import solo_winner
from fogdip.fog.knowledge import Knowledge
from fogdip.fog.observation import Observation
from fogdip.game.refusals import Refusal, Refused
from fogdip.game.settings import power_named
from fogdip.variants import Position, TurnResult, Variant
from fogdip.variants.filing import LineCheck, check_lines
from fogdip.variants.lines import read_lines
from fogdip.variants.record import Ending, GameRecord, History, TurnRecord, filed_texts


class GameError(Refusal):
    """A request a game cannot satisfy: an unknown power, orders after the end, a game id
    already taken (a refusal: not now, or not so)."""

    def __init__(self, message: str, kind: Refused = Refused.CONFLICT) -> None:
        super().__init__(kind, message, kind.value)


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
    #: Every turn played, read as asked for (a long game's are not all read to show its board).
    turns: Sequence[TurnRecord]


class Game:
    """One game between turns."""

    def __init__(self, record: GameRecord | Callable[[], GameRecord], name: str = "the game") -> None:
        """A game of ``record``, or of the record ``record()`` reads when the game is first
        asked for it (a store listing games reads none of them)."""
        self._record: GameRecord | None = None
        self._read: Callable[[], GameRecord] | None = None
        if isinstance(record, GameRecord):
            self._record = record
        else:
            self._read = record
        #: How errors name this game (its file, its id).
        self.name = name

    @property
    def record(self) -> GameRecord:
        if self._record is None:
            assert self._read is not None
            self._record = self._read()
        return self._record

    @record.setter
    def record(self, record: GameRecord) -> None:
        self._record = record

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
                history=History(opening),
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
        """The lines filed for the next turn, by power (a copy of their words)."""
        return {power: filed_texts(lines) for power, lines in self.record.filed.items()}

    def power_named(self, name: str) -> str:
        """The power ``name`` stands for: its full name or at least its first three letters,
        in any case (:func:`fogdip.game.settings.power_named`)."""
        try:
            return power_named(name, self.powers)
        except Refusal as refusal:
            raise GameError(refusal.message, Refused.BAD_REQUEST) from None

    def still_in(self) -> tuple[str, ...]:
        """The powers still in the game: every power before the setup is played, then those
        not eliminated. The one rule for who votes for a draw, who shares one by default, and
        who is waited for.

        >>> Game.create("standard").still_in()[:2]
        ('AUSTRIA', 'ENGLAND')
        """
        position = self.record.position
        if position.setup_pending:
            return self.powers
        return tuple(power for power in self.powers if not position.state.is_eliminated(power))

    def status(self) -> dict[str, str]:
        """Per power: how many lines it has filed for the next turn, or that it has not."""
        still_in = self.still_in()
        out = {}
        for power in self.powers:
            if power in self.record.filed:
                out[power] = f"filed {len(filed_texts(self.record.filed[power]))} line(s)"
            elif power not in still_in:
                out[power] = "eliminated"
            else:
                out[power] = "not filed"
        return out

    def unordered(self, power: str, lines: Sequence[str] | None = None) -> int:
        """How many of ``power``'s units its filed lines (or ``lines``) leave without an
        order for the next turn's first phase: each will hold (or be disbanded, or take the
        game's default). In an adjustment phase, the builds or removals due that no line
        makes; in a setup, the units still to be placed.

        >>> game = Game.create("standard")
        >>> game.unordered("FRANCE"), game.unordered("FRANCE", ["A PAR - BUR"])
        (3, 2)
        """
        power = self._power(power)
        position = self.record.position
        given = filed_texts(self.record.filed.get(power, ())) if lines is None else list(lines)
        if position.completed:
            return 0
        state = position.state
        if position.setup_pending:
            from fogdip.variants import setup as setups

            return max(len(setups.default_units(power, self.variant.options.setup, state.board)) - len(given), 0)
        kinds = self.variant.turn_kinds(position)
        read = [line for line in read_lines(given, kinds, state.board, self.variant.options) if line.kind == kinds[0]]
        if kinds[0] == "A":
            due = abs(self.variant.build_sites(state).adjustment(power))
            return max(due - len([line for line in read if not line.conditional]), 0)
        commanded = set()
        for line in read:
            unit = getattr(line.order, "unit", None)
            if unit is not None and not line.conditional:
                commanded.add(state.board.province_of(unit.location))
        if kinds[0] == "R":
            mine = [province for province, gone in state.dislodged.items() if gone.unit.power == power]
        else:
            mine = [province for province, unit in state.units.items() if unit.power == power]
        return len([province for province in mine if province not in commanded])

    # --- orders and turns -----------------------------------------------------------------

    def screen(self, power: str, lines: list[str]) -> list[LineCheck]:
        """Every line's verdict, as filing would give it, without filing anything. Under fog a
        verdict depends only on what ``power`` may know."""
        if self.record.position.completed:
            raise GameError("the game is over; no more orders can be filed")
        return check_lines(self.record.variant, self.record.position, self._power(power), lines)

    def file(self, power: str, lines: Sequence[str], *, partial: bool = False) -> list[LineCheck]:
        """Screen ``power``'s lines and, if all are accepted (or ``partial``: the accepted
        ones), replace its earlier orders with them, kept as the values read (the turn plays
        them as they are). Returns every line's verdict."""
        record = self.record
        if record.position.completed:
            raise GameError("the game is over; no more orders can be filed")
        screening = record.variant.screen(record.position, self._power(power), list(lines))
        if screening.ok:
            record.filed[power] = screening
        elif partial:
            # The accepted lines alone, read again as the list they now make (a line's number
            # is its place in what was filed).
            record.filed[power] = record.variant.screen(record.position, power, list(screening.texts))
        return list(screening)

    def adjudicate(self) -> TurnResult:
        """Play the next turn with the orders filed (powers that filed nothing hold or get
        their defaults); keep the turn, each power's report and what each now knows."""
        record = self.record
        if record.position.completed:
            raise GameError("the game is over; there is no turn to adjudicate")
        played = record.variant.play(record.position, record.filed)
        for power, seen in played.observations.items():
            known = record.knowledge.get(power)
            if known is None:
                known = Knowledge.rebuild(power, record.history.reports(power))
            known.update(seen)
            record.knowledge[power] = known
        record.history.append(TurnRecord.of(played, record.filed))
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
        shared = tuple(sorted({self._power(power) for power in powers}))
        if not shared:
            raise GameError("a draw is shared by at least one power")
        record.ending = Ending(shared, self.turn)
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
            return {"result": "draw", "powers": list(record.ending.draw), "agreed": record.ending.turn}
        winner = solo_winner(record.position.state, record.variant.rules)
        if winner is not None:
            return {"result": "solo", "powers": [winner]}
        return {"result": "draw", "powers": list(self.still_in())}

    # --- views ----------------------------------------------------------------------------

    def reports(self, power: str) -> list[Observation]:
        """Every report ``power`` has received, the opening one first."""
        return self.record.history.reports(self._power(power))

    def latest_report(self, power: str) -> Observation:
        """The last report ``power`` received: what it knows the board to be now."""
        latest = self.record.history.latest(self._power(power))
        if latest is None:
            raise GameError(f"{power} has received no report yet")
        return latest

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
            tuple(filed_texts(self.record.filed.get(power, ()))),
            tuple(self.reports(power)),
            self.knowledge(power),
            None if history is None else tuple(history),
        )

    def master_view(self) -> MasterView:
        return MasterView(
            self.turn,
            self.record.position,
            self.status(),
            {power: tuple(filed_texts(lines)) for power, lines in self.record.filed.items()},
            self.record.history,  # type: ignore[arg-type]
        )

    def revealed_history(self) -> list[dict[str, Any]] | None:
        """Once the game is over, and if its variant reveals it then (``reveal_at_end``), every
        turn's orders and results for everyone; ``None`` before that."""
        if not (self.record.position.completed and self.record.variant.options.reveal_at_end):
            return None
        return [_revealed(turn, self.record.variant) for turn in self.record.history]

    def result_document(self, turn: TurnRecord) -> dict[str, Any]:
        """The game master's record of a played turn, as ``fogdip adjudicate`` prints it
        (without its reports and next state)."""
        return record_document(turn, self.record.variant)

    def _power(self, name: str) -> str:
        if name not in self.powers:
            raise GameError(f"{name} is not a power of {self.name}: use one of {', '.join(self.powers)}")
        return name


def _revealed(turn: TurnRecord, variant: Variant) -> dict[str, Any]:
    """Every order of a turn, whose it was and its result (the phases of a combined turn in
    order, the later ones' orders after the first's)."""
    result = record_document(turn, variant)
    orders: dict[str, dict[str, Any]] = {}
    for part in (result, *result.get("then", ())):
        for unit, order in part["orders"].items():
            orders.setdefault(
                unit, {"power": part["powers"].get(unit), "order": order, "result": part["results"].get(unit, [])}
            )
    return {"turn": turn.turn, "orders": orders}


__all__ = ["Game", "GameError", "MasterView", "PowerView"]
