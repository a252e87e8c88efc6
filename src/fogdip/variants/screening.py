"""Screening a power's lines for a turn, once: the one step filing and playing share.

:func:`screen` reads every line a power files for the next turn and gives each a
:class:`Verdict`: accepted, with the value read (a :class:`~fogdip.variants.lines.Line` with
its order, or the unit a setup line places), or refused with the reason, saying how to put it
right. Filing (:func:`fogdip.variants.filing.check_lines`, and through it the API, ``fogdip gm
orders`` and the web pages) shows these verdicts; :meth:`fogdip.variants.Variant.play` plays
them: accepted lines go to the engine as they were read, refused lines are set aside with the
same reason. A line is never read, nor judged, twice.

>>> from fogdip.variants import Variant
>>> variant = Variant.named("fog-of-war")
>>> screening = variant.screen(variant.start(), "FRANCE", ["F BRE - MAO", "F BRE H", "A PAR - NTH"])
>>> [(v.number, v.ok) for v in screening]
[(1, True), (2, False), (3, False)]
>>> print(screening[1].error)
F BRE already has an order, on line 1 ('F BRE - MAO'): give each unit one order; delete this line or line 1
>>> str(screening[0].read.order), screening[2].illegal
('F BRE - MAO', True)

The checks, in the order they are made for each line (:func:`check_lines` and play alike):

1. its shape (an ``IF`` needs ``THEN``), the sub-phase it is for (the turn must play it),
   whether it may be conditional, whether it can be read, whether its conditions name places
   the power could see, and whether its order is of the kind its sub-phase takes
   (:func:`fogdip.variants.conditional.check_line`; :mod:`fogdip.variants.phase_words`);
2. an extra order's own rules (allowed by the options, its year, the unit the power's own);
3. the unit: one of the power's own (dislodged, in a retreat phase);
4. legality, by the engine's own check under the variant's rules: judged by the map alone in a
   fog game. An illegal order is refused, and marked :attr:`Verdict.illegal`: the engine still
   takes it as the unit's order when the turn is played, so the unit holds (DATC 4.E.1), unless
   another line gives that unit an order that is accepted;
5. one order per unit (one peek per season; one build per centre, one removal per unit);
6. counts: the builds or removals due, the espionage allowance.

A line filed ahead for a later sub-phase of a combined turn is checked as far as the power
can know now: retreat guesses and conditional lines (seed 001) may be several for one unit;
an unconditional build or removal may not be repeated; a Spring order filed with Winter's
builds (seed 002) must order a unit the power has, or builds, and is judged by the map as it
will stand. Under fog every reason depends only on the power's own units and centres, its
sight and the map.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, overload

from fogdip.engine.errors import FogdipError, InvalidOrder, OrderRejected
from fogdip.engine.orders import Build, Disband, Order, Waive
from fogdip.engine.reasons import Reason, Why
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit
from fogdip.engine.validate import OrderChecker
from fogdip.variants import setup as setups
from fogdip.variants.conditional import check_line
from fogdip.variants.espionage import DisbandNow, Espionage, Peek
from fogdip.variants.extra_orders import check_extra, espionage_limit
from fogdip.variants.lines import Line, read_lines

if TYPE_CHECKING:
    from fogdip.variants.turn import Position, Variant

#: Where a line stood, for the messages that name it: its number and its words.
Place = tuple[int, str]


@dataclass(frozen=True, slots=True)
class Verdict:
    """One filed line and its verdict: its number (from 1) and words, the value read from it
    (a :class:`Line`, or in a setup turn the :class:`Unit` it places; ``None`` where nothing
    could be read), and the reason it is refused (``None``: accepted). ``illegal`` marks a
    refusal by the engine's legality check: such an order still commands its unit when the
    turn is played (the unit holds), unless another accepted line commands it."""

    number: int
    text: str
    read: Line | Unit | None
    reason: Reason | None = None
    illegal: bool = False

    @property
    def ok(self) -> bool:
        return self.reason is None

    @property
    def error(self) -> str | None:
        """The reason in words, or ``None`` when the line is accepted."""
        return None if self.reason is None else str(self.reason)

    @property
    def line(self) -> Line:
        """The line read (not a setup line)."""
        assert isinstance(self.read, Line), self
        return self.read


@dataclass(frozen=True)
class Screening:
    """Every line one power filed for one turn, each with its verdict, in the order filed.
    ``turn`` names the turn they were screened for: they are played in that turn only."""

    power: str
    turn: str
    verdicts: tuple[Verdict, ...] = field(default=())

    def __iter__(self) -> Iterator[Verdict]:
        return iter(self.verdicts)

    def __len__(self) -> int:
        return len(self.verdicts)

    @overload
    def __getitem__(self, index: int) -> Verdict: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Verdict, ...]: ...
    def __getitem__(self, index: int | slice) -> Verdict | tuple[Verdict, ...]:
        return self.verdicts[index]

    @property
    def ok(self) -> bool:
        """Whether every line is accepted."""
        return all(verdict.ok for verdict in self.verdicts)

    @property
    def accepted(self) -> tuple[Verdict, ...]:
        return tuple(verdict for verdict in self.verdicts if verdict.ok)

    @property
    def texts(self) -> tuple[str, ...]:
        """The accepted lines' words, as filed."""
        return tuple(verdict.text for verdict in self.verdicts if verdict.ok)


def screen(variant: Variant, position: Position, power: str, texts: Sequence[str]) -> Screening:
    """Every line ``power`` files for the next turn of ``position``, screened (see the module's
    text). Raises :class:`FogdipError` for a power not in the game, or a game that is over."""
    state = position.state
    if power not in state.powers:
        raise FogdipError(f"{power} is not a power of this game: use one of {', '.join(state.powers)}")
    if position.completed:
        raise FogdipError("the game is over; no more orders can be filed")
    if position.setup_pending:
        return _screen_setup(variant, position, power, texts)
    kinds = variant.turn_kinds(position)
    lines = read_lines(list(texts), kinds, state.board, variant.options)
    screener = _Screener(variant, position, power, kinds)
    # The sub-phases in the order they are played: a Spring order filed with Winter's builds
    # may order a unit one of them builds, whichever line comes first.
    ranks = {kind: rank for rank, kind in enumerate(kinds)}
    verdicts: dict[int, Verdict] = {}
    for index in sorted(range(len(lines)), key=lambda i: (ranks.get(lines[i].kind, len(kinds)), i)):
        verdicts[index] = screener.verdict(index + 1, lines[index])
    return Screening(power, position.name, tuple(verdicts[i] for i in range(len(lines))))


def _refused(words: str) -> Reason:
    return Reason(Why.REFUSED, words=(words,))


def _named(place: Place) -> str:
    return f"line {place[0]} ({place[1]!r})"


@dataclass
class _Ledger:
    """What the lines accepted so far give, for one sub-phase: the units they order, the peek,
    the espionage, the builds and removals."""

    units: dict[str, Place] = field(default_factory=dict)
    peek: Place | None = None
    espionage: int = 0
    sites: dict[str, Place] = field(default_factory=dict)
    removed: dict[str, Place] = field(default_factory=dict)
    builds: list[Place] = field(default_factory=list)
    removals: list[Place] = field(default_factory=list)
    built: dict[str, Unit] = field(default_factory=dict)


class _Screener:
    """The verdicts on one power's lines for one turn, line by line."""

    def __init__(self, variant: Variant, position: Position, power: str, kinds: tuple[str, ...]) -> None:
        self.variant = variant
        self.position = position
        self.power = power
        self.kinds = kinds
        self.state = position.state
        self.ledgers = {kind: _Ledger() for kind in kinds}
        self._sight = variant.sight(position, power)
        self._checkers: dict[str, OrderChecker] = {}
        self._first: GameState | None = None
        self._later: GameState | None = None

    # --- one line ---------------------------------------------------------------------------

    def verdict(self, number: int, line: Line) -> Verdict:
        try:
            check_line(line, self.state, self.power, self.variant.options, self._sight)
        except InvalidOrder as exc:
            unreadable = line.problem is not None and exc.reason == line.problem
            why = Why.UNREADABLE if unreadable else Why.REFUSED
            return Verdict(number, line.text, line, Reason(why, words=(exc.reason,)))
        kind = line.kind if len(self.kinds) > 1 else self.kinds[0]
        place = (number, line.text)
        if kind == self.kinds[0]:
            return self._now(place, line, kind)
        if line.conditional or kind == "R":
            # Retreat guesses and conditional lines are alternatives: several may name one unit.
            return Verdict(number, line.text, line)
        if kind == "A":
            return self._adjustment_ahead(place, line)
        return self._now(place, line, kind)

    def _now(self, place: Place, line: Line, kind: str) -> Verdict:
        """A line of the turn's first sub-phase, or a Spring order filed with Winter's builds,
        judged in the position it will be played in (as the power can know it)."""
        number, text = place
        order = line.order
        assert order is not None
        state = self._state_for(kind)
        ledger = self.ledgers[kind]
        if isinstance(order, (Espionage, DisbandNow, Peek)):
            try:
                filed = check_extra(state, self.power, line.order_text, order, self.variant.options)
            except OrderRejected as exc:
                return Verdict(number, text, line, exc.cause or _refused(exc.reason))
            refusal = self._extra_limits(place, ledger, filed.order, filed.unit, state)
            if refusal is not None:
                return Verdict(number, text, line, _refused(refusal))
            if filed.unit is not None:
                ledger.units[filed.unit.province] = place
            return Verdict(number, text, line)
        if kind != self.kinds[0] and self.variant.rules.legality != "map":
            # Judged on the whole board, the Spring is only known once Winter is played: only
            # that the unit will be there is checked now.
            assert not isinstance(order, Waive)  # check_line: a movement order
            province = state.board.province_of(order.unit.location)
            mine = state.units.get(province)
            if mine is None:
                missing = Reason(Why.NO_SUCH_UNIT, power=self.power, places=(province,))
                return Verdict(number, text, line, missing)
            return self._one_per_unit(place, line, ledger, mine) or Verdict(number, text, line)
        try:
            checked = self._checker(kind, state).check(self.power, order, line.order_text)
        except OrderRejected as exc:
            return Verdict(number, text, line, exc.cause or _refused(exc.reason))
        if not checked.legal:
            return Verdict(number, text, line, checked.reason, illegal=True)
        if kind == "A":
            return self._adjustment(place, line, checked.order, checked.unit)
        assert checked.unit is not None
        return self._one_per_unit(place, line, ledger, checked.unit) or Verdict(number, text, line)

    def _one_per_unit(self, place: Place, line: Line, ledger: _Ledger, unit: Unit) -> Verdict | None:
        first = ledger.units.get(unit.province)
        if first is not None:
            return Verdict(*place, line, _refused(_second_order(unit, first)))
        ledger.units[unit.province] = place
        return None

    def _extra_limits(
        self, place: Place, ledger: _Ledger, order: Espionage | DisbandNow | Peek, unit: Unit | None, state: GameState
    ) -> str | None:
        if isinstance(order, Peek):
            if ledger.peek is not None:
                return f"only one peek-a-sneak per season, and {_named(ledger.peek)} is one: delete this line or line {ledger.peek[0]}"
            ledger.peek = place
            return None
        assert unit is not None
        first = ledger.units.get(unit.province)
        if first is not None:
            return _second_order(unit, first)
        if isinstance(order, Espionage):
            year = state.phase.year
            refusal = espionage_limit(self.power, year, ledger.espionage, self.position.usage, self.variant.options)
            if refusal is not None:
                return refusal
            ledger.espionage += 1
        return None

    def _adjustment(self, place: Place, line: Line, order: Order, unit: Unit | None) -> Verdict:
        """A legal build, waive or removal of the turn's adjustments: one per centre and per
        unit, and no more than are due (the power knows its own centres and units)."""
        ledger = self.ledgers["A"]
        due = self.state.adjustment(self.power)
        power = self.power
        if isinstance(order, (Build, Waive)):
            if unit is not None:
                first = ledger.sites.get(unit.province)
                if first is not None:
                    return Verdict(
                        *place,
                        line,
                        _refused(
                            f"{unit.province} already has a build, on {_named(first)}: a centre takes one build; "
                            f"delete this line or line {first[0]}"
                        ),
                    )
            if len(ledger.builds) >= due:
                used = _lines(ledger.builds)
                return Verdict(
                    *place,
                    line,
                    _refused(
                        f"{power} may build {_units(due)} this Winter, and {used} already "
                        f"{'builds or waives' if len(ledger.builds) == 1 else 'build or waive'} "
                        f"{'it' if due == 1 else 'them'}: delete this line or one of those"
                    ),
                )
            ledger.builds.append(place)
            if unit is not None:
                ledger.sites[unit.province] = place
                ledger.built[unit.province] = unit
            return Verdict(*place, line)
        assert isinstance(order, Disband) and unit is not None
        first = ledger.removed.get(unit.province)
        if first is not None:
            return Verdict(*place, line, _refused(f"{unit} is already removed, on {_named(first)}: delete this line"))
        if len(ledger.removals) >= -due:
            used = _lines(ledger.removals)
            return Verdict(
                *place,
                line,
                _refused(
                    f"{power} must remove {_units(-due)} this Winter, and {used} already "
                    f"{'removes' if len(ledger.removals) == 1 else 'remove'} {'it' if due == -1 else 'them'}: "
                    "delete this line or one of those"
                ),
            )
        ledger.removals.append(place)
        ledger.removed[unit.province] = place
        return Verdict(*place, line)

    def _adjustment_ahead(self, place: Place, line: Line) -> Verdict:
        """An unconditional build or removal filed ahead (seed 001): how many are due is only
        known once the Fall is played, but a second one for the same place could never be
        carried out."""
        order = line.order
        if isinstance(order, Waive) or order is None:
            return Verdict(*place, line)
        assert isinstance(order, (Build, Disband))
        ledger = self.ledgers["A"]
        province = self.state.board.province_of(order.unit.location)
        taken = ledger.sites if isinstance(order, Build) else ledger.removed
        first = taken.get(province)
        if first is not None:
            what = "a build" if isinstance(order, Build) else "a removal"
            return Verdict(
                *place,
                line,
                _refused(
                    f"{province} already has {what}, on {_named(first)}: write other choices as conditional "
                    f"lines (IF ... THEN {order}); delete this line or line {first[0]}"
                ),
            )
        taken[province] = place
        return Verdict(*place, line)

    # --- the position a sub-phase is judged in ------------------------------------------------

    def _state_for(self, kind: str) -> GameState:
        """The first sub-phase is judged in the position the lines are filed in (as the variant
        judges builds); a movement filed after Winter's adjustments (seed 002) in that
        Spring as the power can know it: its own units, less the removals and with the builds
        its accepted adjustment lines make. No foreign unit is in it: under fog none decides
        what is legal, and a Spring order of the power commands only its own."""
        if kind == self.kinds[0]:
            if self._first is None:
                self._first = self.variant.build_sites(self.state) if kind == "A" else self.state
            return self._first
        if self._later is None:
            self._later = self._spring()
        return self._later

    def _spring(self) -> GameState:
        # Made once the first sub-phase's lines are all screened (screen() takes them first).
        winter = self.ledgers.get("A", _Ledger())
        power, state = self.power, self.state
        units = {
            province: unit
            for province, unit in state.units.items()
            if unit.power == power and province not in winter.removed
        }
        units.update(winter.built)
        return state.with_changes(
            phase=state.phase.next_season_phase("M"),
            units=units,
            dislodged={},
            centers={center: owner for center, owner in state.centers.items() if owner == power},
        )

    def _checker(self, kind: str, state: GameState) -> OrderChecker:
        checker = self._checkers.get(kind)
        if checker is None or checker.state is not state:
            checker = self._checkers[kind] = OrderChecker(state, self.variant.rules)
        return checker


def _second_order(unit: Unit, first: Place) -> str:
    return f"{unit} already has an order, on {_named(first)}: give each unit one order; delete this line or line {first[0]}"


def _units(count: int) -> str:
    return f"{count} unit{'s' if count != 1 else ''}"


def _lines(places: list[Place]) -> str:
    numbers = [str(number) for number, _text in places]
    if len(numbers) == 1:
        return f"line {numbers[0]}"
    return f"lines {', '.join(numbers[:-1])} and {numbers[-1]}"


# --- the setup turn -----------------------------------------------------------------------------


def _screen_setup(variant: Variant, position: Position, power: str, texts: Sequence[str]) -> Screening:
    """Each line of a setup choice on its own: a unit on one of the power's starting centres,
    one per centre. Centres no accepted line fills get the standard start's unit when the
    turn is played (:func:`fogdip.variants.setup.fill_by_default`)."""
    state, setup = position.state, variant.options.setup
    placed: dict[str, Place] = {}
    verdicts = []
    for number, text in enumerate(texts, start=1):
        try:
            unit = setups.read_placement(state, power, text, setup)
        except InvalidOrder as exc:
            verdicts.append(Verdict(number, text, None, _refused(exc.reason)))
            continue
        first = placed.get(unit.province)
        if first is not None:
            words = (
                f"only one unit may start in {unit.province}, and {_named(first)} places one there: "
                f"delete this line or line {first[0]}"
            )
            verdicts.append(Verdict(number, text, unit, _refused(words)))
            continue
        placed[unit.province] = (number, text)
        verdicts.append(Verdict(number, text, unit))
    return Screening(power, position.name, tuple(verdicts))
