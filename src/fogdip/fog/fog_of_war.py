"""Fog of War (Michael Sims, 2005; seed 000): the ``fog-of-war`` preset.

A unit sees its own space and the spaces it could move to (a fleet by water, an army by land);
an owned centre sees only itself. What a power learns of the orders depends on what its units
were ordered to do: a holding unit watches the spaces around it, a moving unit the spaces it
left and entered, a supporting or convoying unit is busy and watches only its own space, and a
city watches itself. Watching a space reveals every order involving it, in full, with ``(ok)``
or ``(fails)`` for moves ("If you observe a move that fails, you will know it failed, tho you
might not know why").

The seed's sample round, Spring 1901 (its order list says F Kie-Den, its adjudication and the
rest of the round F Kie-Hol, which is followed here):

>>> from fogdip.engine import GameState, adjudicate, get_rules
>>> by_map = get_rules().with_options(legality="map")  # as in every fog game
>>> spring = adjudicate(GameState.initial(), {
...     "GERMANY": ["F KIE - HOL", "A BER - KIE", "A MUN - RUH"],
...     "ENGLAND": ["F LON - NTH", "F EDI - NWG"], "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"]}, by_map)
>>> from fogdip.fog.report import order_line
>>> seen = FogOfWarRules().observe(spring, "GERMANY")
>>> [order_line(o, "GERMANY") for o in seen.orders]
['A BER - KIE (ok)', 'A MUN - RUH (ok)', 'F KIE - HOL (ok)']
>>> sorted(f"{u.owner} {u}" for u in seen.units if u.owner != "GERMANY")
['ENGLAND F NTH', 'FRANCE A BUR']

Had A Mun held, it would have watched Burgundy and learnt the French orders:

>>> spring = adjudicate(GameState.initial(), {
...     "GERMANY": ["F KIE - HOL", "A BER - KIE", "A MUN H"],
...     "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"]}, by_map)
>>> [order_line(o, "GERMANY") for o in FogOfWarRules().observe(spring, "GERMANY").orders if o.power == "FRANCE"]
['FRANCE: A MAR S A PAR - BUR', 'FRANCE: A PAR - BUR (ok)']
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from fogdip.engine.map import Map
from fogdip.engine.orders import Convoy, Hold, Move, Retreat, SupportHold, SupportMove
from fogdip.engine.outcomes import OrderResult, Resolution
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit
from fogdip.fog.masked import SUCCEEDED, OrderKind
from fogdip.fog.observation import Notice, Observation, SeenOrder, SeenUnit
from fogdip.fog.rules import NO_EVENTS, Events, FogOptions, FogRules, own_notices, own_orders
from fogdip.fog.sight import (
    KeptOn,
    SightMode,
    own_units,
    province_sight,
    record_facts,
    seen_order,
    seen_unit,
    state_facts,
    success_or_failure,
    unit_order,
    unit_sight,
)

#: How far a lit centre sees: not at all, only itself, or itself and every neighbour.
CenterSight = Literal["none", "self", "neighbours"]
#: Whether what a unit learns of the orders depends on its own order (the seed), or every
#: unit watches the spaces around it as a holding unit does.
OrderLearning = Literal["by-order", "as-hold"]


@dataclass(frozen=True)
class FogOfWarOptions(FogOptions):
    """The seed's readings are the defaults; DPjudge's FOG games expose the alternatives
    (its ``UNITS_SEE_SAME``/``UNITS_SEE_OTHER``, ``OWN_SCS_SEE`` and home-centre sight)."""

    #: ``"movement"``: a fleet sees by water, an army by land (the seed). ``"any"``: every
    #: unit sees every neighbouring space (DPjudge's default).
    unit_sight: SightMode = "movement"
    #: What a centre the power owns sees: only itself (the seed), nothing, or its neighbours.
    owned_center_sight: CenterSight = "self"
    #: What a home centre sees whoever owns it: nothing (the seed), itself, or its
    #: neighbours (DPjudge's default for FOG games).
    home_center_sight: CenterSight = "none"
    #: ``"by-order"``: hold watches the neighbours, move its two ends, support and convoy only
    #: its own space (the seed). ``"as-hold"``: every unit watches like a holding unit.
    order_learning: OrderLearning = "by-order"


class FogOfWarRules(FogRules):
    """Units see their neighbours as they move, cities themselves; orders are learnt by
    watching spaces, and which spaces a unit watches depends on its order."""

    name = "fog-of-war"
    seed = "000"
    title = "Fog of War (Michael Sims, 2005)"
    summary = (
        "units see adjacent spaces as they move, owned centres only themselves; a unit learns "
        "the orders around it when holding, at both ends when moving, none when supporting"
    )
    Options = FogOfWarOptions
    options: FogOfWarOptions

    # --- entry point -----------------------------------------------------------------------

    def observe(self, resolution: Resolution, power: str, events: Events = NO_EVENTS) -> Observation:
        self.check_record(resolution)
        record = settled(resolution)
        seen = super().observe(record, power, events)
        extra = [u for u in self.revealed_units(record, power, seen.visible) if seen.unit_at(u.province) is None]
        if not extra:
            return seen
        return Observation.build(
            variant=seen.variant,
            power=seen.power,
            phase=seen.phase,
            next_phase=seen.next_phase,
            visible=seen.visible,
            units=(*seen.units, *extra),
            orders=seen.orders,
            centers=seen.center_owners,
            notices=seen.notices,
        )

    # --- sight at the end of a phase ---------------------------------------------------------

    def visible_provinces(self, state: GameState, power: str) -> frozenset[str]:
        board = state.board
        out: set[str] = set()
        for unit in own_units(state, power):
            out |= unit_sight(board, unit, self.options.unit_sight)
        for spaces in self.lit_centers(state, power).values():
            out |= spaces
        return frozenset(out)

    def lit_centers(self, state: GameState, power: str) -> dict[str, frozenset[str]]:
        """The centres that see for ``power`` (owned ones, and home ones if the options say
        so), each with the spaces it sees and watches."""
        out: dict[str, frozenset[str]] = {}
        owned = state_facts(state).centers.get(power, ())
        for centers, reach in (
            (owned, self.options.owned_center_sight),
            (state.homes.get(power, ()), self.options.home_center_sight),
        ):
            for center in centers:
                spaces = _center_reach(state.board, center, reach)
                if spaces:
                    out[center] = out.get(center, frozenset()) | spaces
        return out

    def centers_known(self, state: GameState, power: str, visible: frozenset[str]) -> dict[str, str]:
        """Its own centres, and the owner of every centre in sight."""
        return {center: owner for center, owner in state.centers.items() if owner == power or center in visible}

    # --- what is learnt of the orders --------------------------------------------------------

    def watched(self, resolution: Resolution, power: str) -> frozenset[str]:
        """The spaces ``power`` watches during a movement phase: each unit's by its order,
        and each lit centre's (ownership at the start of the phase)."""
        before = resolution.before
        out: set[str] = set()
        for result in record_facts(resolution).orders_of(power):
            if result.unit is not None:
                out |= self._unit_watches(before.board, result)
        for spaces in self.lit_centers(before, power).values():
            out |= spaces
        return frozenset(out)

    def _unit_watches(self, board: Map, result: OrderResult) -> frozenset[str]:
        unit, order = result.unit, result.order
        assert unit is not None
        # An illegal order leaves the unit holding, so it watches as a holding unit does.
        if self.options.order_learning == "as-hold" or not result.legal or isinstance(order, Hold):
            return unit_sight(board, unit, self.options.unit_sight)
        if isinstance(order, Move):
            return frozenset({unit.province, _province(order.target)})
        return frozenset({unit.province})  # busy supporting or convoying

    def orders_seen(self, resolution: Resolution, power: str) -> list[SeenOrder]:
        out = own_orders(resolution, power)
        facts = _facts(resolution)
        out.extend(facts.seen_order(self, i) for i in self._revealed(resolution, power))
        return out

    def revealed(self, resolution: Resolution, power: str) -> list[OrderResult]:
        """The foreign orders ``power`` learns, as the engine recorded them."""
        orders = resolution.orders
        return [orders[i] for i in self._revealed(resolution, power)]

    def _revealed(self, resolution: Resolution, power: str) -> tuple[int, ...]:
        """The positions in ``resolution.orders`` of :meth:`revealed`: worked out once per
        observation, though both the orders and the units seen need them."""
        memo = _facts(resolution).revealed
        key = (type(self), self.options, power)
        found = memo.get(key)
        if found is None:
            found = memo[key] = self._find_revealed(resolution, power)
        return found

    def _find_revealed(self, resolution: Resolution, power: str) -> tuple[int, ...]:
        kind = resolution.before.phase.kind
        orders = resolution.orders
        if kind == "M":
            # Each watched space's orders, from the index of the spaces every order involves.
            involved = _facts(resolution).involved
            hits: set[int] = set()
            for province in self.watched(resolution, power):
                hits.update(involved.get(province, ()))
            return tuple(i for i in sorted(hits) if orders[i].power != power)
        if kind == "R":
            # A retreat out of a space seen when the phase began, or into one seen at its end.
            seen_before = self.visible_provinces(resolution.before, power)
            seen_after = self.visible_provinces(resolution.after, power)
            return tuple(
                i
                for i, r in enumerate(orders)
                if r.power != power
                and r.unit is not None
                and (_involves(r) & seen_before or _retreat_target(r) & seen_after)
            )
        return ()  # builds and removals are seen only as units appearing and vanishing

    def _seen(self, result: OrderResult, kind: str) -> SeenOrder:
        """A revealed order in full. Only a move's outcome is told, and only as success or
        failure; a unit whose order was illegal simply held (or, retreating, disbanded)."""
        unit, order = result.unit, result.order
        assert unit is not None
        if kind == "R":
            if isinstance(order, Retreat) and result.legal:
                return seen_order(result, success_or_failure(result))
            return SeenOrder(result.power, unit_order(OrderKind.DISBAND, unit), SUCCEEDED)
        if not result.legal:
            return SeenOrder(result.power, unit_order(OrderKind.HOLD, unit), None)
        if isinstance(order, Move):
            return seen_order(result, success_or_failure(result))
        return seen_order(result, None)

    def revealed_units(self, resolution: Resolution, power: str, visible: frozenset[str]) -> list[SeenUnit]:
        """The units of the revealed orders, where those orders leave them: a move that is
        known to have succeeded at its target, anything else where it stood. Dislodged only
        where a successful move into its space was itself revealed."""
        revealed = self.revealed(resolution, power)
        kind = resolution.before.phase.kind
        out: list[SeenUnit] = []
        if kind == "R":
            for r in revealed:
                if isinstance(r.order, Retreat) and r.legal and r.succeeded and r.unit is not None:
                    out.append(
                        seen_unit(Unit(r.power, r.unit.kind, resolution.moves.get(r.unit.province, r.order.target)))
                    )
            return [u for u in out if u.province not in visible]
        known = [*record_facts(resolution).orders_of(power), *revealed]
        entered = {_province(r.order.target) for r in known if isinstance(r.order, Move) and r.legal and r.succeeded}
        for r in revealed:
            unit = r.unit
            assert unit is not None
            if isinstance(r.order, Move) and r.legal and r.succeeded:
                location = resolution.moves.get(unit.province, r.order.target)
                out.append(seen_unit(Unit(r.power, unit.kind, location)))
            else:
                out.append(seen_unit(unit, unit.province in entered))
        return [u for u in out if u.province not in visible]

    # --- notices -----------------------------------------------------------------------------

    def notices(self, resolution: Resolution, power: str) -> list[Notice]:
        # The attack on a unit is a move into the space it watches, so its origin is known.
        return own_notices(resolution, power, attack_origin=True)


def settled(resolution: Resolution) -> Resolution:
    """The record as this variant's schedule has it: centres change hands only once the Fall
    retreat season (always held) is over, so a movement phase ends with the owners it began
    with, even where the engine skipped the retreats and took the centres at once."""
    return _settled(resolution)


def _settle(resolution: Resolution) -> Resolution:
    before, after = resolution.before, resolution.after
    if before.phase.kind != "M" or after.centers == before.centers:
        return resolution
    return dataclasses.replace(resolution, after=after.with_changes(centers=before.centers))


#: The same settled record for every power's observation, so what is worked out from it once
#: (:class:`_Record`) serves them all.
_settled: KeptOn[Resolution, Resolution] = KeptOn(_settle)


class _Record:
    """What every power's view of one settled record shares: which orders involve each space,
    each foreign order as revealed, and each power's revealed orders (by options)."""

    def __init__(self, resolution: Resolution) -> None:
        self.resolution = resolution
        #: Positions in ``resolution.orders`` of the orders of units involving each space.
        self.involved: dict[str, list[int]] = {}
        for i, result in enumerate(resolution.orders):
            if result.unit is not None:
                for province in _involves(result):
                    self.involved.setdefault(province, []).append(i)
        self.revealed: dict[tuple[type[FogOfWarRules], FogOfWarOptions, str], tuple[int, ...]] = {}
        self._seen: dict[tuple[type[FogOfWarRules], int], SeenOrder] = {}

    def seen_order(self, rules: FogOfWarRules, i: int) -> SeenOrder:
        """Order ``i`` as revealed (:meth:`FogOfWarRules._seen`): the same for every power."""
        key = (type(rules), i)
        seen = self._seen.get(key)
        if seen is None:
            seen = self._seen[key] = rules._seen(self.resolution.orders[i], self.resolution.before.phase.kind)
        return seen


_facts: KeptOn[Resolution, _Record] = KeptOn(_Record)


def _involves(result: OrderResult) -> frozenset[str]:
    """The spaces an order involves: the unit's own, a move's target, and the space a
    support or convoy goes into (a held unit's, a supported move's or convoy's target). An
    illegal order involves only the unit's space, since the unit just holds."""
    order, unit = result.order, result.unit
    assert unit is not None
    out = {unit.province}
    if not result.legal:
        return frozenset(out)
    if isinstance(order, (Move, SupportMove, Convoy)):
        out.add(_province(order.target))
    elif isinstance(order, SupportHold):
        out.add(order.supported.province)
    return frozenset(out)


def _retreat_target(result: OrderResult) -> frozenset[str]:
    order = result.order
    if isinstance(order, Retreat) and result.legal:
        return frozenset({_province(order.target)})
    return frozenset()


def _center_reach(board: Map, center: str, reach: CenterSight) -> frozenset[str]:
    if reach == "none":
        return frozenset()
    if reach == "self":
        return frozenset({center})
    return province_sight(board, center)


def _province(location: str) -> str:
    return location.partition("/")[0]
