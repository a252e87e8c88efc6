"""Seed 002's extra orders in a movement phase: espionage (``F NTH E FRANCE``), peek-a-sneak
(``PAS NTH``) and disband in movement (``F NTH DB``).

:class:`MovementExtras` takes them out of the powers' order lists, checks them, hands the
engine what it must adjudicate (an espionage order is a hold; a unit disbanded "before" is
not on the board), and afterwards turns the record into what each power learns. Notation and
what espionage reveals are in :mod:`fogdip.variants.espionage`; the rules as implemented,
with every reading chosen, are in ``docs/variants/deadman.md``.

>>> from fogdip.engine import GameState, Phase, adjudicate, get_rules
>>> by_map = get_rules().with_options(legality="map")  # as in every fog game
>>> from fogdip.variants.options import compose
>>> options = compose("standard", espionage=True, peek=True, disband_in_movement=True, fog="deadman")
>>> state = GameState.initial().with_changes(phase=Phase("S", 1902, "M"))
>>> from fogdip.variants.lines import read_lines
>>> orders = {"ENGLAND": ["F LON - NTH", "F EDI E FRANCE", "PAS BEL"], "FRANCE": ["F BRE - ENG", "A PAR DB"]}
>>> lines = {power: read_lines(texts, ("M",), state.board, options) for power, texts in orders.items()}
>>> extras, engine_orders, rejected = MovementExtras.collect(state, lines, options, {})
>>> {power: [text for text, _order in given] for power, given in engine_orders.items()}, rejected
({'ENGLAND': ['F LON - NTH', 'F EDI H'], 'FRANCE': ['F BRE - ENG']}, [])
>>> record, events = extras.after_resolution(adjudicate(extras.before_resolution(state), engine_orders, by_map))
>>> from fogdip.fog.report import order_line
>>> sorted(order_line(o, "ENGLAND") for o in events.orders["ENGLAND"])
['F EDI E FRANCE (ok)', 'PAS BEL (ok)']
>>> sorted(n.text for n in events.notices["ENGLAND"])
['F EDI E FRANCE: no French units within one space of EDI', 'PAS BEL: empty']
>>> "PAR" in record.after.units, extras.usage_after({}, state)
(False, {'espionage': {'ENGLAND': {'1902': 1}}})
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from fogdip.engine.errors import FogdipError, OrderRejected
from fogdip.engine.judge import advance
from fogdip.engine.orders import Hold, Move, Order, UnitRef, Written
from fogdip.engine.outcomes import Outcome, RejectedOrder, Resolution
from fogdip.engine.reasons import Reason, Why
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit
from fogdip.fog.masked import FAILED, SUCCEEDED, MaskedOrder, MaskedUnit, OrderKind
from fogdip.fog.observation import Notice, SeenOrder, SeenUnit
from fogdip.fog.rules import Events, rejected_notice
from fogdip.fog.sight import masked_order
from fogdip.variants.espionage import (
    DisbandNow,
    Espionage,
    ExtraOrder,
    Peek,
    SpyReport,
    peek_notice,
    spied_notices,
    spy,
    spy_notice,
    spy_sightings,
)
from fogdip.variants.lines import Line
from fogdip.variants.options import VariantOptions

_KIND_NAMES = MappingProxyType({"A": "an army", "F": "a fleet"})
#: Outcomes of a legal move that reached its target's province: an attack. A convoyed army
#: whose convoy failed never arrived (as for cutting support, DATC 6.F).
_ATTACKED = (Outcome.MOVED, Outcome.BOUNCED)


@dataclass(frozen=True, slots=True)
class Filed:
    """An accepted extra order: the power, the text as written, the order (with the unit as
    it stands, type and coast), and the unit it commands (``None`` for a peek)."""

    power: str
    text: str
    order: ExtraOrder
    unit: Unit | None


@dataclass
class Plan:
    """What :meth:`MovementExtras.collect` settled for one movement phase."""

    year: int
    espionage: list[Filed] = field(default_factory=list)
    disbands: list[Filed] = field(default_factory=list)
    peeks: list[Filed] = field(default_factory=list)
    rejected: list[RejectedOrder] = field(default_factory=list)
    #: Espionage orders accepted per power (carried out, failed or void alike).
    espionage_used: dict[str, int] = field(default_factory=dict)


@dataclass
class MovementExtras:
    """The extra orders filed for one movement phase, pulled out of the powers' order lists.

    Life cycle, driven by :mod:`fogdip.variants.turn`:
    1. :meth:`collect` takes every power's lines, as screened (:mod:`fogdip.variants.screening`
       judged each against the options, the limits and ``usage``, and kept one order per
       unit), takes out the extra orders (checking again that each unit is still there: a
       turn filed ahead may have lost it), and returns the orders left for the engine (an
       espionage order becomes a hold of its unit) plus the extra orders refused.
    2. :meth:`before_resolution` returns the state the engine adjudicates (units disbanded
       "before" are gone).
    3. :meth:`after_resolution` takes the engine's record and returns it adjusted (units
       disbanded "after" removed from ``after``) with the :class:`Events` for each power:
       own order lines for the extra orders with their results, espionage sightings,
       spied-on notices, peek answers.
    4. :meth:`usage_after` returns the updated usage counters (e.g. espionage per year).
    """

    options: VariantOptions
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def plan(self) -> Plan:
        plan = self.data.get("plan")
        if not isinstance(plan, Plan):
            raise FogdipError("MovementExtras was not made by MovementExtras.collect")
        return plan

    # --- 1. collect -------------------------------------------------------------------------

    @classmethod
    def collect(
        cls, state: GameState, lines: Mapping[str, list[Line]], options: VariantOptions, usage: Mapping[str, Any]
    ) -> tuple[MovementExtras, dict[str, list[Written]], list[RejectedOrder]]:
        """Take the extra orders out of each power's lines (read and screened: one order per
        unit, every limit kept); the rest go to the engine as they were read."""
        plan = Plan(state.phase.year)
        engine: dict[str, list[Written]] = {}
        for power in sorted(lines):
            normal: list[Written] = []
            filed: list[Filed] = []
            for line in lines[power]:
                order = line.order
                if order is None:
                    continue  # refused when the turn's lines were screened
                if not isinstance(order, (Espionage, DisbandNow, Peek)):
                    normal.append(line.written)
                    continue
                try:
                    filed.append(check_extra(state, power, line.order_text, order, options))
                except OrderRejected as exc:
                    reason = exc.cause or Reason(Why.REFUSED, words=(exc.reason,))
                    plan.rejected.append(RejectedOrder(power, line.order_text, reason))
            engine[power] = _settle(power, normal, filed, options, plan)
        return cls(options, {"plan": plan}), engine, list(plan.rejected)

    # --- 2. before --------------------------------------------------------------------------

    def before_resolution(self, state: GameState) -> GameState:
        if self.options.disband_timing != "before" or not self.plan.disbands:
            return state
        gone = {f.unit.province for f in self.plan.disbands if f.unit is not None}
        return state.with_changes(units={p: u for p, u in state.units.items() if p not in gone})

    # --- 3. after ---------------------------------------------------------------------------

    def after_resolution(self, resolution: Resolution) -> tuple[Resolution, Events]:
        plan = self.plan
        if self.options.disband_timing == "after" and plan.disbands:
            resolution = self._disband_after(resolution)
        after, board = resolution.after, resolution.after.board
        orders: dict[str, list[SeenOrder]] = {}
        units: dict[str, list[SeenUnit]] = {}
        notices: dict[str, list[Notice]] = {}

        def tell(power: str, notice: Notice) -> None:
            notices.setdefault(power, []).append(notice)

        for refused in plan.rejected:
            tell(refused.power, rejected_notice(refused))
        for filed in plan.disbands:
            assert filed.unit is not None
            orders.setdefault(filed.power, []).append(
                SeenOrder(filed.power, _masked(filed.order, filed.unit), SUCCEEDED)
            )
        for filed in plan.peeks:
            assert isinstance(filed.order, Peek)
            orders.setdefault(filed.power, []).append(SeenOrder(filed.power, _masked(filed.order, None), SUCCEEDED))
            tell(filed.power, peek_notice(after, filed.order, filed.power))
        reports: list[SpyReport] = []
        for filed in plan.espionage:
            assert filed.unit is not None and isinstance(filed.order, Espionage)
            target = filed.order.target
            report = None if _attacked(resolution, filed.unit) else spy(after, filed.unit, target)
            result = FAILED if report is None else SUCCEEDED
            orders.setdefault(filed.power, []).append(SeenOrder(filed.power, _masked(filed.order, filed.unit), result))
            tell(filed.power, spy_notice(board, report, filed.unit, target))
            if report is not None:
                units.setdefault(filed.power, []).extend(spy_sightings(report))
                reports.append(report)
        for target, notice in spied_notices(after, reports).items():
            tell(target, notice)
        events = Events(
            orders={p: tuple(seen) for p, seen in orders.items()},
            units={p: tuple(seen) for p, seen in units.items()},
            notices={p: tuple(told) for p, told in notices.items()},
        )
        return resolution, events

    def _disband_after(self, resolution: Resolution) -> Resolution:
        """Remove the units disbanded "after": they held through the moves. A dislodged one is
        simply gone (no retreat). The next phase is worked out again without them, as the
        engine would have: they take no centre and count for no adjustment."""
        before, after = resolution.before, resolution.after
        gone = {f.unit.province: f.unit for f in self.plan.disbands if f.unit is not None}
        units = {p: u for p, u in after.units.items() if gone.get(p) != u}
        dislodged = {p: d for p, d in after.dislodged.items() if gone.get(p) != d.unit}
        played = before.with_changes(units=units, dislodged=dislodged)
        state, skipped = advance(played, resolution.rules)
        return replace(resolution, after=state, skipped=tuple(skipped))

    # --- 4. usage ---------------------------------------------------------------------------

    def usage_after(self, usage: Mapping[str, Any], state: GameState) -> dict[str, Any]:
        out: dict[str, Any] = copy.deepcopy(dict(usage))
        year = str(state.phase.year)
        for power, count in sorted(self.plan.espionage_used.items()):
            section = out.setdefault("espionage", {})
            per_year = section.setdefault(power, {})
            per_year[year] = _count(usage, power, year) + count
        return out


# --- checking ---------------------------------------------------------------------------------


def check_extra(state: GameState, power: str, text: str, order: ExtraOrder, options: VariantOptions) -> Filed:
    """An extra order checked on its own, in ``state`` (the movement phase it is for), or
    :class:`OrderRejected`. Every reason names only the map, the options and the power's own
    units and orders: never a foreign unit.

    >>> from fogdip.engine import GameState, Phase
    >>> from fogdip.variants.options import preset
    >>> spring = GameState.initial().with_changes(phase=Phase("S", 1902, "M"))
    >>> check_extra(spring, "FRANCE", "A PAR E GERMANY", Espionage(UnitRef(None, "PAR"), "GERMANY"), preset("deadman")).order
    Espionage(unit=UnitRef(kind='A', location='PAR'), target='GERMANY')
    >>> check_extra(spring, "FRANCE", "A BEL DB", DisbandNow(UnitRef("A", "BEL")), preset("deadman"))
    Traceback (most recent call last):
    ...
    fogdip.engine.errors.OrderRejected: FRANCE has no unit in BEL
    """
    if power not in state.board.power_info:
        raise OrderRejected(f"{power} is not a power of this game")
    if isinstance(order, Peek):
        if not options.peek:
            raise OrderRejected("peek-a-sneak (PAS) is not allowed in this variant")
        if state.phase.year < options.peek_from_year:
            raise OrderRejected(f"peek-a-sneak may be used from {options.peek_from_year} on, not in {state.phase.year}")
        if state.is_eliminated(power):
            raise OrderRejected(f"{power} has been eliminated and gives no orders")
        if not state.board.provinces[order.province].passable:
            raise OrderRejected(f"{order.province} is impassable: no unit can ever stand there")
        return Filed(power, text, order, None)
    if isinstance(order, Espionage) and not options.espionage:
        raise OrderRejected("espionage is not allowed in this variant")
    if isinstance(order, DisbandNow) and not options.disband_in_movement:
        raise OrderRejected("disbanding in a movement phase is not allowed in this variant")
    province = order.unit.province
    unit = state.units.get(province)
    if unit is None or unit.power != power:
        # The engine's own reason, so that a line filed ahead for a unit lost meanwhile is
        # told the same whichever kind of order it was.
        missing = Reason(Why.NO_SUCH_UNIT, power=power, places=(province,))
        raise OrderRejected(str(missing), cause=missing)
    if order.unit.kind is not None and order.unit.kind != unit.kind:
        raise OrderRejected(
            f"wrong unit type: the unit in {province} is {_KIND_NAMES[unit.kind]}, write {unit.kind} {unit.location}"
        )
    ref = UnitRef(unit.kind, unit.location)
    if isinstance(order, Espionage):
        if order.target == power:
            raise OrderRejected(f"{power} cannot spy on itself: name another power")
        return Filed(power, text, Espionage(ref, order.target), unit)
    return Filed(power, text, DisbandNow(ref), unit)


def _settle(
    power: str, normal: list[Written], filed: list[Filed], options: VariantOptions, plan: Plan
) -> list[Written]:
    """Record one power's accepted extra orders in ``plan`` and return the power's lines for
    the engine. The screening kept one order per unit, one peek and the espionage allowance
    (:mod:`fogdip.variants.screening`), so every order here is carried out."""
    lines = list(normal)
    for item in filed:
        if isinstance(item.order, Peek):
            plan.peeks.append(item)
            continue
        unit = item.unit
        assert unit is not None
        held = Hold(UnitRef(unit.kind, unit.location))
        if isinstance(item.order, Espionage):
            plan.espionage.append(item)
            plan.espionage_used[power] = plan.espionage_used.get(power, 0) + 1
            lines.append(Written(str(held), held))
        else:
            plan.disbands.append(item)
            if options.disband_timing == "after":
                lines.append(Written(str(held), held))
    return lines


def espionage_limit(power: str, year: int, given: int, usage: Mapping[str, Any], options: VariantOptions) -> str | None:
    """Why one more espionage order of ``power`` for a movement phase of ``year`` is refused,
    when ``given`` are already accepted for it, or ``None``.

    >>> from fogdip.variants.options import preset
    >>> espionage_limit("ENGLAND", 1902, 0, {"espionage": {"ENGLAND": {"1902": 1}}}, preset("deadman"))
    'ENGLAND has already used its espionage order for 1902 (one per game year)'
    """
    if options.espionage_limit == "season" and given >= 1:
        return "only one espionage order per season is allowed, and one is already given"
    if options.espionage_limit == "year":
        if _count(usage, power, str(year)) >= 1:
            return f"{power} has already used its espionage order for {year} (one per game year)"
        if given >= 1:
            return "only one espionage order per game year is allowed, and one is already given"
    return None


def _masked(order: Order | ExtraOrder, unit: Unit | None) -> MaskedOrder:
    """An order of the power's own as it learns it: in full."""
    if isinstance(order, Peek):
        return MaskedOrder(OrderKind.PEEK, target=order.province)
    assert unit is not None
    head = MaskedUnit(unit.kind, unit.location)
    if isinstance(order, Espionage):
        return MaskedOrder(OrderKind.ESPIONAGE, head, spied=order.target)
    if isinstance(order, DisbandNow):
        return MaskedOrder(OrderKind.DISBAND_NOW, head)
    return masked_order(order, unit)


def _count(usage: Mapping[str, Any], power: str, year: str) -> int:
    """Espionage orders ``power`` used in ``year`` so far, from ``usage`` (which comes from
    saved documents, so it is checked)."""
    section = usage.get("espionage", {})
    per_year = section.get(power, {}) if isinstance(section, Mapping) else None
    count = per_year.get(year, 0) if isinstance(per_year, Mapping) else None
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        # Only this power's own entry is quoted: the message reaches its player.
        found = per_year if isinstance(section, Mapping) else type(section).__name__
        raise FogdipError(
            'usage "espionage" must map each power to {year: count}, e.g. {"espionage": {"FRANCE": {"1902": 1}}}; '
            f"found {found!r} for {power}: the game master must restore the game from a backup"
        )
    return count


def _attacked(resolution: Resolution, spy_unit: Unit) -> bool:
    """Whether a unit of another power made a legal move into the spying unit's province
    that reached it (whether it succeeded or bounced). A move of the spy's own power does not
    count, as it would not cut a support."""
    for result in resolution.orders:
        order = result.order
        if (
            result.power != spy_unit.power
            and result.legal
            and isinstance(order, Move)
            and result.outcome in _ATTACKED
            and order.target.partition("/")[0] == spy_unit.province
        ):
            return True
    return spy_unit.province in resolution.dislodged
