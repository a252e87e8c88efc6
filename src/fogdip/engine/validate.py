"""Deciding whether an order is legal, and binding it to the unit it commands.

Legal means possible in this position and phase, not knowing any other order (DATC 4.E.1).
An illegal order is kept with its reason and the unit holds (or, in retreats, disbands).
An order naming a unit the power does not have is *rejected*: it commands nothing.

Legality is judged on the full position, as the DATC defines it, so a reason may reveal what
stands where ("there is no unit in BUR", "only armies can be convoyed"). Reasons are written
for the judge; the fog layer must redact them before a power sees them (docs/rules.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from fogdip.engine.convoys import convoy_fleet_provinces, fleet_on_route, route_exists
from fogdip.engine.map import Map
from fogdip.engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from fogdip.engine.rules import Rules
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit

_KIND_NAMES = {"A": "an army", "F": "a fleet"}


class CheckedOrder(NamedTuple):
    """An order after checking: ``order`` is normalised when legal, as written otherwise."""

    power: str
    text: str
    order: Order
    unit: Unit | None
    legal: bool
    reason: str = ""


class Rejection(Exception):
    """The order commands no unit of the power; it is dropped with this reason."""


class _Illegal(Exception):
    pass


class OrderChecker:
    """Checks orders against one position under one set of rules."""

    def __init__(self, state: GameState, rules: Rules) -> None:
        self.state = state
        self.board: Map = state.board
        self.rules = rules
        self.phase = str(state.phase)
        fleets = [p for p, u in state.units.items() if u.kind == "F"]
        self.convoyers = convoy_fleet_provinces(self.board, fleets)

    # --- entry point -------------------------------------------------------------------------

    def check(self, power: str, order: Order, text: str | None = None) -> CheckedOrder:
        """Check one order of ``power``. Raises :class:`Rejection` if it commands no unit."""
        written = str(order) if text is None else text
        kind = self.state.phase.kind

        if isinstance(order, Waive):
            if kind != "A":
                raise Rejection(f"WAIVE is an adjustment order; {self.phase} is a {self.state.phase.long_name.split()[-1]} phase")
            return self._adjustment(power, order, written)
        if kind == "M":
            unit = self._own_unit(power, order.unit, self.state.units)
            return self._wrap(power, order, written, unit, self._movement)
        if kind == "R":
            dislodged = {p: d.unit for p, d in self.state.dislodged.items()}
            unit = self._own_unit(power, order.unit, dislodged, retreat=True)
            return self._wrap(power, order, written, unit, self._retreat)
        return self._adjustment(power, order, written)

    def _wrap(self, power: str, order: Order, written: str, unit: Unit, check: object) -> CheckedOrder:
        try:
            normalised = check(unit, order)  # type: ignore[operator]
        except _Illegal as exc:
            return CheckedOrder(power, written, order, unit, False, str(exc))
        return CheckedOrder(power, written, normalised, unit, True)

    def _own_unit(self, power: str, ref: UnitRef, units: Mapping[str, Unit], retreat: bool = False) -> Unit:
        province = self.board.province_of(ref.location)
        unit = units.get(province)
        if unit is None or unit.power != power:
            what = "dislodged unit" if retreat else "unit"
            raise Rejection(f"{power} has no {what} in {province}")
        return unit

    # --- movement ----------------------------------------------------------------------------

    def _movement(self, unit: Unit, order: Order) -> Order:
        written = order.unit  # type: ignore[union-attr]
        if written.kind is not None and written.kind != unit.kind:
            self._check_designation(unit, written)
        ref = written if written.location == unit.location and written.kind is not None else UnitRef(unit.kind, unit.location)
        kind = order.kind
        if kind == "hold":
            return order if ref is written else Hold(ref)
        if kind == "move":
            assert isinstance(order, Move)
            target, via = self._move_target(unit, order.target, order.via_convoy)
            if ref is written and target == order.target and via == order.via_convoy:
                return order
            return Move(ref, target, via)
        if kind == "support_hold":
            assert isinstance(order, SupportHold)
            supported = self._other_unit(order.supported, unit)
            if supported.province not in self.board.reachable_provinces(unit.kind, unit.location):
                raise _Illegal(f"{unit} cannot reach {supported.province}, so it cannot support a unit there")
            if ref is written and order.supported == (supported.kind, supported.location):
                return order
            return SupportHold(ref, UnitRef(supported.kind, supported.location))
        if kind == "support_move":
            assert isinstance(order, SupportMove)
            return self._support_move(unit, ref, order)
        if kind == "convoy":
            assert isinstance(order, Convoy)
            return self._convoy(unit, ref, order)
        raise _Illegal(f"{order.kind} orders belong to another phase; {self.phase} is a movement phase: use H, -, S or C")

    def _check_designation(self, unit: Unit, ref: UnitRef) -> None:
        if ref.kind is not None and ref.kind != unit.kind:
            raise _Illegal(f"wrong unit type: the unit in {unit.province} is {_KIND_NAMES[unit.kind]}, write {unit.kind} {unit.location}")

    def _other_unit(self, ref: UnitRef, supporter: Unit) -> Unit:
        province = self.board.province_of(ref.location)
        if province == supporter.province:
            raise _Illegal(f"{supporter} cannot support itself")
        other = self.state.units.get(province)
        if other is None:
            raise _Illegal(f"there is no unit in {province}")
        return other

    def _move_target(self, unit: Unit, written: str, via: bool) -> tuple[str, bool]:
        board = self.board
        province = board.province_of(written)
        if not board.provinces[province].passable:
            raise _Illegal(f"{board.provinces[province].name} is impassable")
        if province == unit.province:
            raise _Illegal(f"{unit} cannot move to the province it is in")
        if unit.kind == "F":
            if via:
                raise _Illegal("only armies can be convoyed; remove VIA")
            return self.fleet_destination(unit.location, written), False
        if board.provinces[province].terrain == "sea":
            raise _Illegal(f"an army cannot move to {board.provinces[province].name}, a sea")
        adjacent = province in board.army_targets(unit.location)
        if adjacent and not via:
            return province, False
        if route_exists(board, self.convoyers, unit.province, province):
            return province, True
        if adjacent and self.rules.via_convoy_falls_back_to_land:
            return province, True
        if adjacent:
            raise _Illegal(f"no fleets could convoy {unit} to {province}; drop VIA to move over land")
        raise _Illegal(f"{unit} cannot reach {province}: not adjacent, and no chain of fleets could convoy it")

    def fleet_destination(self, location: str, written: str) -> str:
        """The exact location a fleet on ``location`` moves to when ordered to ``written``."""
        board = self.board
        province = board.province_of(written)
        reachable = board.fleet_targets(location)
        coasts = board.coasts(province)
        if coasts and written in coasts:
            if written not in reachable:
                raise _Illegal(f"F {location} cannot reach {written}")
            return written
        if coasts:
            options = [c for c in coasts if c in reachable]
            if len(options) == 1:
                return options[0]
            if options:
                raise _Illegal(f"name the coast: {' or '.join(options)}")
            raise _Illegal(f"F {location} cannot reach {province}")
        if province not in reachable:
            raise _Illegal(f"F {location} cannot reach {province}")
        return province

    def _support_move(self, unit: Unit, ref: UnitRef, order: SupportMove) -> Order:
        board = self.board
        supported = self._other_unit(order.supported, unit)
        target = board.province_of(order.target)
        if target == unit.province:
            raise _Illegal(f"{unit} cannot support a move into its own province")
        if target not in board.reachable_provinces(unit.kind, unit.location):
            raise _Illegal(f"{unit} cannot reach {target}, so it cannot support a move there")
        if target == supported.province:
            raise _Illegal(f"{supported.province} - {target} is not a move")
        written_target = target
        if supported.kind == "F":
            coast_named = order.target in board.coasts(target)
            if coast_named and self.rules.support_coast_must_match:
                if order.target not in board.fleet_targets(supported.location):
                    raise _Illegal(f"the fleet in {supported.province} cannot reach {order.target}")
                written_target = order.target
            elif target not in board.reachable_provinces("F", supported.location):
                raise _Illegal(f"the unit in {supported.province} cannot reach {target}")
        elif target not in board.army_targets(supported.location):
            if not route_exists(board, self.convoyers, supported.province, target, excluding=unit.province):
                raise _Illegal(f"the unit in {supported.province} cannot reach {target}")
        if ref is order.unit and order.target == written_target and order.supported == (supported.kind, supported.location):
            return order
        return SupportMove(ref, UnitRef(supported.kind, supported.location), written_target)

    def _convoy(self, unit: Unit, ref: UnitRef, order: Convoy) -> Order:
        board = self.board
        if unit.kind != "F":
            raise _Illegal("only fleets can convoy")
        if unit.province not in self.convoyers:
            raise _Illegal(f"a fleet in {board.provinces[unit.province].name} cannot convoy: only fleets at sea can")
        origin = board.province_of(order.army.location)
        army = self.state.units.get(origin)
        if army is None:
            raise _Illegal(f"there is no unit in {origin}")
        if army.kind != "A":
            raise _Illegal("only armies can be convoyed")
        target = board.province_of(order.target)
        if board.provinces[target].terrain != "coast" or target == origin:
            raise _Illegal(f"an army cannot be convoyed from {origin} to {target}")
        necessary = self.rules.convoy_fleet_must_be_needed
        if not fleet_on_route(board, self.convoyers, origin, target, unit.province, necessary=necessary):
            raise _Illegal(f"{unit} is not on any convoy route from {origin} to {target}")
        return Convoy(ref, UnitRef("A", army.location), target)

    # --- retreats ----------------------------------------------------------------------------

    def _retreat(self, unit: Unit, order: Order) -> Order:
        self._check_designation(unit, order.unit)  # type: ignore[union-attr]
        ref = UnitRef(unit.kind, unit.location)
        if isinstance(order, Disband):
            return Disband(ref)
        if not isinstance(order, Retreat):
            if isinstance(order, Move):
                order = Retreat(order.unit, order.target)
            else:
                raise _Illegal(f"{self.phase} is a retreat phase: a dislodged unit may only retreat (R) or disband (D)")
        options = self.state.dislodged[unit.province].retreats
        province = self.board.province_of(order.target)
        if unit.kind == "F":
            try:
                target = self.fleet_destination(unit.location, order.target)
            except _Illegal:
                target = order.target
        else:
            target = province
        if target not in options:
            listed = ", ".join(options) if options else "none: it must disband"
            raise _Illegal(f"{unit} cannot retreat to {order.target}; it may retreat to {listed}")
        return Retreat(ref, target)

    # --- adjustments -------------------------------------------------------------------------

    def _adjustment(self, power: str, order: Order, written: str) -> CheckedOrder:
        if isinstance(order, Waive):
            if self.state.adjustment(power) <= 0:
                return CheckedOrder(power, written, order, None, False, f"{power} has no build to waive")
            return CheckedOrder(power, written, order, None, True)
        if isinstance(order, Disband):
            unit = self._own_unit(power, order.unit, self.state.units)
            try:
                self._check_designation(unit, order.unit)
            except _Illegal as exc:
                return CheckedOrder(power, written, order, unit, False, str(exc))
            if self.state.adjustment(power) >= 0:
                return CheckedOrder(power, written, order, unit, False, f"{power} has no unit to remove")
            return CheckedOrder(power, written, Disband(UnitRef(unit.kind, unit.location)), unit, True)
        if isinstance(order, Build):
            try:
                unit = self._build(power, order.unit)
            except _Illegal as exc:
                return CheckedOrder(power, written, order, None, False, str(exc))
            return CheckedOrder(power, written, Build(UnitRef(unit.kind, unit.location)), unit, True)
        raise Rejection(f"{self.phase} is an adjustment phase: order builds (B), disbands (D) or WAIVE")

    def _build(self, power: str, ref: UnitRef) -> Unit:
        board = self.board
        province = board.province_of(ref.location)
        if self.state.adjustment(power) <= 0:
            raise _Illegal(f"{power} has no builds this winter")
        if province not in self.state.homes.get(power, ()):
            raise _Illegal(f"{province} is not a home centre of {power}")
        if self.state.centers.get(province) != power:
            raise _Illegal(f"{power} does not own {province}")
        if province in self.state.units:
            raise _Illegal(f"{province} is occupied")
        kind = ref.kind
        coasts = board.coasts(province)
        location = ref.location if ref.location in coasts else province
        if kind is None:
            # DATC 4.C.3: an army inland, a fleet where a coast is named, otherwise ambiguous.
            if board.provinces[province].terrain == "land":
                kind = "A"
            elif location in coasts:
                kind = "F"
            else:
                raise _Illegal(f"say which unit to build in {province}: A {province} or F {province}")
        if kind == "A":
            location = province
        elif coasts and location not in coasts:
            raise _Illegal(f"name the coast for a fleet in {province}: {' or '.join(coasts)}")
        if not board.can_hold(kind, location):
            raise _Illegal(f"{_KIND_NAMES[kind]} cannot be built in {board.provinces[province].name}")
        return Unit(power, kind, location)
