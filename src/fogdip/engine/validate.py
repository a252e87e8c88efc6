"""Deciding whether an order is legal, and binding it to the unit it commands.

Legal means possible in this position and phase, not knowing any other order (DATC 4.E.1).
An illegal order is kept with its reason and the unit holds (or, in retreats, disbands).
An order naming a unit the power does not have is *rejected*: it commands nothing.

Under ``Rules.legality="board"`` legality is judged on the full position, as the DATC defines
it, so a reason may reveal what stands where ("there is no unit in BUR", "only armies can be
convoyed"). Reasons are written for the judge; the fog layer must redact them before a power
sees them (docs/rules.md).

Under ``Rules.legality="map"`` (every fog game) an order is judged from the map, the unit it
commands and nothing else: a convoy route is a chain of sea provinces, not of fleets; a
support or convoy names a place, not a unit, and is legal if some unit there could make the
move; a retreat may go anywhere its unit could move, and fails if the place is taken. No
other unit decides whether an order is legal, nor how it is normalised, nor its reason:

>>> from fogdip.engine.rules import get_rules
>>> from fogdip.engine.orders import Move, UnitRef
>>> state = GameState.initial().with_changes(units={"BRE": Unit("FRANCE", "A", "BRE")})
>>> move = Move(UnitRef("A", "BRE"), "LON")
>>> str(OrderChecker(state, get_rules()).check("FRANCE", move).reason)
'A BRE cannot reach LON: not adjacent, and no chain of fleets could convoy it'
>>> str(OrderChecker(state, get_rules().with_options(legality="map")).check("FRANCE", move).order)
'A BRE - LON VIA'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from fogdip.engine.convoys import convoy_fleet_provinces, fleet_on_route, route_exists
from fogdip.engine.errors import OrderRejected
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
from fogdip.engine.reasons import Reason, Why
from fogdip.engine.rules import Rules
from fogdip.engine.state import GameState
from fogdip.engine.units import Phase, Unit


class CheckedOrder(NamedTuple):
    """An order after checking: ``order`` is normalised when legal, as written otherwise;
    ``written`` is the order as its power wrote it (parsed), ``text`` its line."""

    power: str
    text: str
    order: Order
    unit: Unit | None
    legal: bool
    reason: Reason | None = None
    written: Order | None = None
    conflicts: tuple[Order, ...] = ()


class _Illegal(Exception):
    def __init__(self, reason: Reason) -> None:
        super().__init__(str(reason))
        self.reason = reason


def _reject(why: Why, power: str, places: tuple[str, ...] = (), words: tuple[str, ...] = ()) -> OrderRejected:
    reason = Reason(why, power=power, places=places, words=words)
    return OrderRejected(str(reason), cause=reason)


class OrderChecker:
    """Checks orders against one position under one set of rules."""

    def __init__(self, state: GameState, rules: Rules) -> None:
        self.state = state
        self.board: Map = state.board
        self.rules = rules
        self.phase = str(state.phase)
        self.by_map = rules.legality == "map"
        if self.by_map:
            # Any chain of seas could carry an army: which of them hold fleets is not asked.
            self.convoyers: frozenset[str] = self.board.sea_provinces
        else:
            fleets = [p for p, u in state.units.items() if u.kind == "F"]
            self.convoyers = convoy_fleet_provinces(self.board, fleets)

    # --- entry point -------------------------------------------------------------------------

    def check(self, power: str, order: Order, text: str | None = None) -> CheckedOrder:
        """Check one order of ``power``. Raises :class:`OrderRejected` if it commands no unit."""
        written = str(order) if text is None else text
        kind = self.state.phase.kind

        if isinstance(order, Waive):
            if kind != "A":
                raise _reject(Why.WAIVE_OUT_OF_PHASE, power, words=(self.phase, self.state.phase.long_name.split()[-1]))
            return self._adjustment(power, order, written)
        if kind == "M":
            unit = self._own_unit(power, order.unit, self.state.units)
            return self._wrap(power, order, written, unit, self._movement)
        if kind == "R":
            dislodged = {p: d.unit for p, d in self.state.dislodged.items()}
            unit = self._own_unit(power, order.unit, dislodged, retreat=True)
            return self._wrap(power, order, written, unit, self._retreat)
        return self._adjustment(power, order, written)

    def check_unit(self, unit: Unit, order: Order, text: str | None = None) -> CheckedOrder:
        """Check an order of a movement or retreat phase for ``unit`` (found by the caller)."""
        written = str(order) if text is None else text
        check = self._movement if self.state.phase.kind == "M" else self._retreat
        return self._wrap(unit.power, order, written, unit, check)

    def _wrap(self, power: str, order: Order, written: str, unit: Unit, check: object) -> CheckedOrder:
        try:
            normalised = check(unit, order)  # type: ignore[operator]
        except _Illegal as exc:
            return CheckedOrder(power, written, order, unit, False, exc.reason, order)
        return CheckedOrder(power, written, normalised, unit, True, None, order)

    def _own_unit(self, power: str, ref: UnitRef, units: Mapping[str, Unit], retreat: bool = False) -> Unit:
        province = self.board.province_of(ref.location)
        unit = units.get(province)
        if unit is None or unit.power != power:
            raise _reject(Why.NO_SUCH_DISLODGED_UNIT if retreat else Why.NO_SUCH_UNIT, power, (province,))
        return unit

    # --- movement ----------------------------------------------------------------------------

    def _movement(self, unit: Unit, order: Order) -> Order:
        written = order.unit  # type: ignore[union-attr]
        if written.kind is not None and written.kind != unit.kind:
            self._check_designation(unit, written)
        ref = (
            written
            if written.location == unit.location and written.kind is not None
            else UnitRef(unit.kind, unit.location)
        )
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
                raise _Illegal(Reason(Why.CANNOT_SUPPORT_HOLD_THERE, unit, places=(supported.province,)))
            if ref is written and order.supported == (supported.kind, supported.location):
                return order
            return SupportHold(ref, UnitRef(supported.kind, supported.location))
        if kind == "support_move":
            assert isinstance(order, SupportMove)
            return self._support_move(unit, ref, order)
        if kind == "convoy":
            assert isinstance(order, Convoy)
            return self._convoy(unit, ref, order)
        raise _Illegal(Reason(Why.NOT_A_MOVEMENT_ORDER, unit, words=(order.kind, self.phase)))

    def _check_designation(self, unit: Unit, ref: UnitRef) -> None:
        if ref.kind is not None and ref.kind != unit.kind:
            raise _Illegal(Reason(Why.WRONG_UNIT_TYPE, unit))

    def _other_unit(self, ref: UnitRef, supporter: Unit) -> Unit | UnitRef:
        """The unit a support names: the one standing there, or, judged by the map alone, the
        place as written (whatever stands there, if anything, is not asked)."""
        province = self.board.province_of(ref.location)
        if province == supporter.province:
            raise _Illegal(Reason(Why.SUPPORTS_ITSELF, supporter))
        if self.by_map:
            return ref
        other = self.state.units.get(province)
        if other is None:
            raise _Illegal(Reason(Why.NO_UNIT_THERE, supporter, places=(province,)))
        return other

    def _move_target(self, unit: Unit, written: str, via: bool) -> tuple[str, bool]:
        board = self.board
        province = board.province_of(written)
        if not board.provinces[province].passable:
            raise _Illegal(Reason(Why.IMPASSABLE, unit, places=(province,), words=(board.provinces[province].name,)))
        if province == unit.province:
            raise _Illegal(Reason(Why.MOVE_TO_OWN_PROVINCE, unit))
        if unit.kind == "F":
            if via:
                raise _Illegal(Reason(Why.FLEET_VIA, unit))
            return self.fleet_destination(unit.location, written), False
        if board.provinces[province].terrain == "sea":
            raise _Illegal(Reason(Why.ARMY_TO_SEA, unit, places=(province,), words=(board.provinces[province].name,)))
        adjacent = province in board.army_targets(unit.location)
        if adjacent and not via:
            return province, False
        if route_exists(board, self.convoyers, unit.province, province):
            return province, True
        if adjacent and self.rules.via_convoy_falls_back_to_land:
            return province, True
        carriers = "seas" if self.by_map else "fleets"
        why = Why.NO_ROUTE_FOR_VIA if adjacent else Why.UNREACHABLE
        raise _Illegal(Reason(why, unit, places=(province,), words=(carriers,)))

    def fleet_destination(self, location: str, written: str) -> str:
        """The exact location a fleet on ``location`` moves to when ordered to ``written``."""
        board = self.board
        province = board.province_of(written)
        reachable = board.fleet_targets(location)
        coasts = board.coasts(province)
        if coasts and written in coasts:
            if written not in reachable:
                raise _Illegal(Reason(Why.FLEET_CANNOT_REACH, places=(location, written)))
            return written
        if coasts:
            options = tuple(c for c in coasts if c in reachable)
            if len(options) == 1:
                return options[0]
            if options:
                raise _Illegal(Reason(Why.NAME_THE_COAST, places=options))
            raise _Illegal(Reason(Why.FLEET_CANNOT_REACH, places=(location, province)))
        if province not in reachable:
            raise _Illegal(Reason(Why.FLEET_CANNOT_REACH, places=(location, province)))
        return province

    def _support_move(self, unit: Unit, ref: UnitRef, order: SupportMove) -> Order:
        board = self.board
        supported = self._other_unit(order.supported, unit)
        target = board.province_of(order.target)
        if target == unit.province:
            raise _Illegal(Reason(Why.SUPPORT_INTO_OWN_PROVINCE, unit))
        if target not in board.reachable_provinces(unit.kind, unit.location):
            raise _Illegal(Reason(Why.CANNOT_SUPPORT_MOVE_THERE, unit, places=(target,)))
        if target == supported.province:
            raise _Illegal(Reason(Why.NOT_A_MOVE, unit, places=(supported.province, target)))
        # DATC 4.B.4: a coast named for the move must be one the supported fleet can reach.
        coast = order.target if order.target in board.coasts(target) and self.rules.support_coast_must_match else None
        # Judged by the map alone, the supported unit is whatever could stand where the order
        # says (its written type is ignored, DATC 4.C.2): the support is legal if one of them
        # could make the move.
        if self.by_map:
            if not any(self._could_move(c, target, coast, unit) for c in _standing(board, supported.province)):
                raise _Illegal(Reason(Why.NO_UNIT_COULD_REACH, unit, places=(supported.province, coast or target)))
        elif not self._could_move(supported, target, coast, unit):
            raise _Illegal(
                Reason(Why.SUPPORTED_CANNOT_REACH, unit, (supported,), places=(supported.province, coast or target))
            )
        keep_coast = coast is not None and (self.by_map or supported.kind == "F")
        written_target = order.target if keep_coast else target
        named = (supported.kind, supported.location)
        if ref is order.unit and order.target == written_target and order.supported == named:
            return order
        return SupportMove(ref, UnitRef(*named), written_target)

    def _could_move(self, mover: Unit | UnitRef, target: str, coast: str | None, supporter: Unit) -> bool:
        """Whether ``mover`` could move to ``target`` (a fleet to ``coast``, if one is named):
        directly, or as an army by a convoy route that does not need the supporting unit's own
        province (DATC 6.D.31)."""
        board = self.board
        if mover.kind == "F":
            if coast is not None:
                return coast in board.fleet_targets(mover.location)
            return target in board.reachable_provinces("F", mover.location)
        if target in board.army_targets(mover.location):
            return True
        return route_exists(board, self.convoyers, mover.province, target, excluding=supporter.province)

    def _convoy(self, unit: Unit, ref: UnitRef, order: Convoy) -> Order:
        board = self.board
        if unit.kind != "F":
            raise _Illegal(Reason(Why.ONLY_FLEETS_CONVOY, unit))
        if unit.province not in self.convoyers:
            raise _Illegal(Reason(Why.CONVOY_NOT_AT_SEA, unit, words=(board.provinces[unit.province].name,)))
        origin = board.province_of(order.army.location)
        if self.by_map:
            # The army is named by its place; whatever stands there is not asked.
            army = UnitRef("A", origin)
        else:
            found = self.state.units.get(origin)
            if found is None:
                raise _Illegal(Reason(Why.NO_UNIT_THERE, unit, places=(origin,)))
            if found.kind != "A":
                raise _Illegal(Reason(Why.ONLY_ARMIES_CONVOYED, unit, (found,)))
            army = UnitRef("A", found.location)
        target = board.province_of(order.target)
        if board.provinces[target].terrain != "coast" or target == origin:
            raise _Illegal(Reason(Why.CANNOT_BE_CONVOYED, unit, places=(origin, target)))
        necessary = self.rules.convoy_fleet_must_be_needed
        if not fleet_on_route(board, self.convoyers, origin, target, unit.province, necessary=necessary):
            carriers = "seas" if self.by_map else "fleets"
            raise _Illegal(Reason(Why.NOT_ON_A_ROUTE, unit, places=(origin, target), words=(carriers,)))
        return Convoy(ref, army, target)

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
                raise _Illegal(Reason(Why.NOT_A_RETREAT_ORDER, unit, words=(self.phase,)))
        province = self.board.province_of(order.target)
        if unit.kind == "F":
            try:
                target = self.fleet_destination(unit.location, order.target)
            except _Illegal:
                target = order.target
        else:
            target = province
        if self.by_map:
            # Anywhere the unit could move: whether the place is free is found out when the
            # retreat is carried out (a retreat there fails like a bounce).
            if target == unit.location or target not in self.board.targets(unit.kind, unit.location):
                raise _Illegal(Reason(Why.RETREAT_OUT_OF_REACH, unit, places=(order.target,)))
            return Retreat(ref, target)
        options = self.state.dislodged[unit.province].retreats
        if target not in options:
            raise _Illegal(Reason(Why.RETREAT_NOT_AN_OPTION, unit, places=(order.target, *options)))
        return Retreat(ref, target)

    # --- adjustments -------------------------------------------------------------------------

    def _adjustment(self, power: str, order: Order, written: str) -> CheckedOrder:
        if isinstance(order, Waive):
            if self.state.adjustment(power) <= 0:
                return CheckedOrder(
                    power, written, order, None, False, Reason(Why.NO_BUILD_TO_WAIVE, power=power), order
                )
            return CheckedOrder(power, written, order, None, True, None, order)
        if isinstance(order, Disband):
            unit = self._own_unit(power, order.unit, self.state.units)
            try:
                self._check_designation(unit, order.unit)
            except _Illegal as exc:
                return CheckedOrder(power, written, order, unit, False, exc.reason, order)
            if self.state.adjustment(power) >= 0:
                return CheckedOrder(
                    power, written, order, unit, False, Reason(Why.NO_REMOVAL_DUE, unit, power=power), order
                )
            return CheckedOrder(power, written, Disband(UnitRef(unit.kind, unit.location)), unit, True, None, order)
        if isinstance(order, Build):
            try:
                unit = self._build(power, order.unit)
            except _Illegal as exc:
                return CheckedOrder(power, written, order, None, False, exc.reason, order)
            return CheckedOrder(power, written, Build(UnitRef(unit.kind, unit.location)), unit, True, None, order)
        raise _reject(Why.NOT_AN_ADJUSTMENT, power, words=(self.phase,))

    def _build(self, power: str, ref: UnitRef) -> Unit:
        board = self.board
        province = board.province_of(ref.location)
        if self.state.adjustment(power) <= 0:
            raise _Illegal(Reason(Why.NO_BUILDS, power=power))
        if province not in self.state.homes.get(power, ()):
            raise _Illegal(Reason(Why.NOT_A_HOME_CENTRE, power=power, places=(province,)))
        if self.state.centers.get(province) != power:
            raise _Illegal(Reason(Why.CENTRE_NOT_OWNED, power=power, places=(province,)))
        occupant = self.state.units.get(province)
        if occupant is not None and (occupant.power == power or not self.by_map):
            # By the map alone only one's own units are asked about (a foreign unit never
            # stands on a centre one owns in Winter; if it did, the build would fail).
            why = Why.CENTRE_HOLDS_OWN_UNIT if self.by_map else Why.CENTRE_OCCUPIED
            raise _Illegal(Reason(why, power=power, places=(province,)))
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
                raise _Illegal(Reason(Why.NAME_THE_UNIT_TO_BUILD, power=power, places=(province,)))
        if kind == "A":
            location = province
        elif coasts and location not in coasts:
            raise _Illegal(Reason(Why.NAME_THE_COAST_TO_BUILD, power=power, places=(province, *coasts)))
        if not board.can_hold(kind, location):
            raise _Illegal(
                Reason(
                    Why.CANNOT_BUILD_THERE,
                    power=power,
                    places=(province,),
                    words=(kind, board.provinces[province].name),
                )
            )
        return Unit(power, kind, location)


def _standing(board: Map, province: str) -> tuple[UnitRef, ...]:
    """Every unit that could stand in ``province``: an army, and a fleet on each coast."""
    out = [UnitRef("A", province)] if board.can_hold("A", province) else []
    out.extend(
        UnitRef("F", location) for location in board.coasts(province) or (province,) if board.can_hold("F", location)
    )
    return tuple(out)


def check_by_map(board: Map, rules: Rules, phase: Phase, unit: Unit, order: Order) -> CheckedOrder:
    """Judge ``unit``'s order of a movement or retreat phase by the map alone
    (``legality="map"``): from the order as written, the unit's own type and place, and the
    map, whatever else stands anywhere. This is the very check adjudication runs in every fog
    game, and what filing and the fog layer ask: one judgement, not three.

    >>> from fogdip.engine.map import standard_map
    >>> from fogdip.engine.notation import parse_order
    >>> from fogdip.engine.rules import get_rules
    >>> board = standard_map()
    >>> checked = check_by_map(board, get_rules(), Phase("S", 1901, "M"), Unit("FRANCE", "A", "BRE"), parse_order("A BRE - LON", board))
    >>> checked.legal, str(checked.order)
    (True, 'A BRE - LON VIA')
    """
    # A checker of an empty position costs a few microseconds: made for each call, it is
    # never shared.
    empty = GameState(board, phase, {}, {}, {})
    return OrderChecker(empty, rules.with_options(legality="map")).check_unit(unit, order)
