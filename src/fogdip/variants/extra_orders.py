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
    #: Units given an extra order and another order: (power, unit, the orders).
    void: list[tuple[str, Unit, tuple[Order | ExtraOrder, ...]]] = field(default_factory=list)
    rejected: list[RejectedOrder] = field(default_factory=list)
    #: Espionage orders accepted per power (carried out, failed or void alike).
    espionage_used: dict[str, int] = field(default_factory=dict)


@dataclass
class MovementExtras:
    """The extra orders filed for one movement phase, pulled out of the powers' order lists.

    Life cycle, driven by :mod:`fogdip.variants.turn`:
    1. :meth:`collect` reads every power's order texts, takes out the extra orders (checking
       each against the options and ``usage``), and returns the texts left for the engine (an
       espionage order becomes a hold of its unit) plus the rejected extra orders.
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
        """Take the extra orders out of each power's lines (read, and screened for what
        cannot be read); the rest go to the engine as they were read."""
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
                    filed.append(_check(state, power, line.order_text, order, options))
                except OrderRejected as exc:
                    plan.rejected.append(RejectedOrder.refused(power, line.order_text, exc.reason))
            engine[power] = _settle(state, power, normal, filed, options, usage, plan)
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
        for power, unit, given in plan.void:
            # In one order whatever order they were written in, as the engine's conflicts are.
            pairs = sorted(((_masked(order, unit), str(order)) for order in given), key=lambda p: p[0].sort_key())
            masked = [m for m, _text in pairs]
            orders.setdefault(power, []).append(SeenOrder(power, masked[0], FAILED, tuple(masked[1:])))
            texts = tuple(t for _m, t in pairs)
            listed = " and ".join(repr(t) for t in texts)
            tell(
                power,
                Notice.make(
                    "void",
                    f"{unit} was given two different orders ({listed}): it held, and neither was carried out",
                    unit=str(unit),
                    orders=texts,
                ),
            )
        for filed in plan.disbands:
            assert filed.unit is not None
            orders.setdefault(filed.power, []).append(
                SeenOrder(filed.power, _masked(filed.order, filed.unit), SUCCEEDED)
            )
        for filed in plan.peeks:
            assert isinstance(filed.order, Peek)
            orders.setdefault(filed.power, []).append(SeenOrder(filed.power, _masked(filed.order, None), SUCCEEDED))
            tell(filed.power, peek_notice(after, filed.order))
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


def _check(state: GameState, power: str, text: str, order: ExtraOrder, options: VariantOptions) -> Filed:
    """An extra order checked on its own. Every reason names only the map, the options and
    the power's own units and orders: never a foreign unit."""
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
        raise OrderRejected(f"{power} has no unit in {province}")
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
    state: GameState,
    power: str,
    normal: list[Written],
    filed: list[Filed],
    options: VariantOptions,
    usage: Mapping[str, Any],
    plan: Plan,
) -> list[Written]:
    """Apply the one-per-season and usage limits and the two-orders rule to one power's
    accepted extra orders; record them in ``plan``; return the power's lines for the engine."""
    by_unit: dict[str, list[Filed]] = {}
    peek: Filed | None = None
    for item in filed:
        if isinstance(item.order, Peek):
            if peek is None:
                peek = item
                plan.peeks.append(item)
            elif item.order != peek.order:
                plan.rejected.append(
                    RejectedOrder.refused(
                        power,
                        item.text,
                        f"only one peek-a-sneak per season: {str(peek.order)!r} is already given",
                    )
                )
            continue
        assert item.unit is not None
        same_unit = by_unit.setdefault(item.unit.province, [])
        if any(other.order == item.order for other in same_unit):
            continue  # the same order twice is one order, as in the engine
        if isinstance(item.order, Espionage):
            refusal = _espionage_limit(power, plan, usage, options)
            if refusal is not None:
                plan.rejected.append(RejectedOrder.refused(power, item.text, refusal))
                continue
            plan.espionage_used[power] = plan.espionage_used.get(power, 0) + 1
        same_unit.append(item)
    commanded = _commanded(state, power, normal)
    lines = list(normal)
    for province, items in by_unit.items():
        if not items:
            continue
        unit = items[0].unit
        assert unit is not None
        held = Hold(UnitRef(unit.kind, unit.location))
        hold = Written(str(held), held)
        if len(items) > 1 or province in commanded:
            # Two different orders for one unit: it holds and both are void (the engine's
            # rule, DATC 4.D.3). The engine gets the other orders too, so its record tells.
            given = tuple(i.order for i in items) + tuple(commanded.get(province, ()))
            plan.void.append((power, unit, given))
            lines.append(hold)
            continue
        item = items[0]
        if isinstance(item.order, Espionage):
            plan.espionage.append(item)
            lines.append(hold)
        else:
            plan.disbands.append(item)
            if options.disband_timing == "after":
                lines.append(hold)
    return lines


def _espionage_limit(power: str, plan: Plan, usage: Mapping[str, Any], options: VariantOptions) -> str | None:
    """Why one more espionage order of ``power`` is refused, or ``None``."""
    now = plan.espionage_used.get(power, 0)
    if options.espionage_limit == "season" and now >= 1:
        return "only one espionage order per season is allowed, and one is already given"
    if options.espionage_limit == "year":
        if _count(usage, power, str(plan.year)) >= 1:
            return f"{power} has already used its espionage order for {plan.year} (one per game year)"
        if now >= 1:
            return "only one espionage order per game year is allowed, and one is already given"
    return None


def _commanded(state: GameState, power: str, lines: list[Written]) -> dict[str, list[Order]]:
    """Provinces of the power's own units that ordinary lines command, with their orders as
    read (without the engine's checks, which look at foreign units too)."""
    out: dict[str, list[Order]] = {}
    for _text, order in lines:
        ref = getattr(order, "unit", None)
        if ref is None:
            continue
        province = state.board.province_of(ref.location)
        unit = state.units.get(province)
        if unit is not None and unit.power == power:
            out.setdefault(province, []).append(order)
    return out


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
