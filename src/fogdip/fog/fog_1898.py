"""Fog of War on the 1898 start (Mikko Saari): the ``fog-1898`` preset (seed 004).

"Each player sees only the following parts of the map: own supply centers and each province
around them; provinces occupied by own units and each province around them at the end of the
turn." Units in sight are seen with owner and type, and so are the owners of centres in sight.

A foreign order is learnt as far as the power watched it: a move by the province it left
(seen at the **beginning** of the turn) and the province it ended up in (seen at the **end**);
anything unseen is hidden (``???`` in the report). Supports and convoys in a province seen at the beginning
or the end are known, and what they support is known as far as the moving unit is seen.
A power whose move bounces learns that another unit tried to move there too, and how many
units defended the province it failed to enter. (The 1898 setup, the gunboat press and the
Winter centre totals belong to the variants layer, not to these rules.)

The seed's first example: Germany's lone ``A PRU H`` sees Austria's ``A GAL - SIL`` arrive
from somewhere it cannot see.

>>> from fogdip.documents import state_from_document
>>> from fogdip.engine import adjudicate, get_rules
>>> by_map = get_rules().with_options(legality="map")  # as in every fog game
>>> state, _, _ = state_from_document({"phase": "S1901M", "centers": {},
...     "units": {"GERMANY": ["A PRU"], "AUSTRIA": ["A GAL"]}})
>>> record = adjudicate(state, {"GERMANY": ["A PRU H"], "AUSTRIA": ["A GAL - SIL"]}, by_map)
>>> seen = Fog1898Rules().observe(record, "GERMANY")
>>> from fogdip.fog.report import order_line
>>> [order_line(order, "GERMANY") for order in seen.orders]
['A PRU H (ok)', 'AUSTRIA: A ??? - SIL (ok)']
>>> sorted(seen.visible)
['BAL', 'BER', 'LVN', 'PRU', 'SIL', 'WAR']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeAlias

from fogdip.engine.orders import Build, Convoy, Disband, Hold, Move, Retreat, SupportHold, SupportMove
from fogdip.engine.outcomes import OrderResult, Outcome, Resolution
from fogdip.engine.state import GameState
from fogdip.fog.masked import OrderKind
from fogdip.fog.observation import Notice, SeenOrder
from fogdip.fog.rules import FogOptions, FogRules, own_notices, own_orders
from fogdip.fog.sight import (
    KeptOn,
    province_sight,
    record_facts,
    seen_order,
    state_facts,
    success_or_failure,
    union,
    unit_order,
)

#: How much of an order a power sees: whether its origin and its target are shown.
View: TypeAlias = tuple[bool, bool]

#: Outcomes of a move that never got under way: an army with no convoy to carry it.
_STRANDED = (Outcome.NO_PATH, Outcome.DISRUPTED)


@dataclass(frozen=True)
class Fog1898Options(FogOptions):
    """Options of the ``fog-1898`` rules (each reading is argued in docs/variants/fog-1898.md).

    ``dislodged_units_see``: a dislodged unit awaiting its retreat still occupies the province
    it was driven from and sees around it, as the seed's "provinces occupied by own units".
    ``False`` takes its sight away until it has retreated.

    ``failed_move_target``: a move that fails ends up where it started, so it is seen whenever
    that province is seen at the beginning or the end of the turn. ``"if-visible"`` shows its
    target only where the target is seen at the end of the turn, as for a move that arrives;
    ``"always"`` reads "ends up in a province visible in the end ... the whole order is
    known" literally and shows the target of every failed move that is seen.

    ``show_holds``: list the hold (or voided order) of a foreign unit seen during the turn.
    It tells nothing the other rules do not already imply; ``False`` keeps to the seed's list.
    """

    dislodged_units_see: bool = True
    failed_move_target: Literal["if-visible", "always"] = "if-visible"
    show_holds: bool = True


@dataclass(frozen=True, slots=True)
class Watch:
    """The provinces a power saw at the beginning and at the end of one phase."""

    start: frozenset[str]
    end: frozenset[str]

    def during(self, province: str) -> bool:
        """Seen at the beginning or at the end of the turn."""
        return province in self.start or province in self.end


def sight_1898(state: GameState, power: str, *, dislodged_units_see: bool = True) -> frozenset[str]:
    """Every province the power sees in ``state``: its centres, the provinces its units
    occupy, and every province next to either, whatever the terrain.

    >>> from fogdip.engine import GameState
    >>> sorted(sight_1898(GameState.initial().with_changes(centers={"KIE": "GERMANY"}, units={}), "GERMANY"))
    ['BAL', 'BER', 'DEN', 'HEL', 'HOL', 'KIE', 'MUN', 'RUH']
    """
    facts = state_facts(state)
    key = ("fog-1898 sight", power, dislodged_units_see)
    seen = facts.memo.get(key)
    if seen is None:
        places = set(facts.centers.get(power, ()))
        places.update(unit.province for unit in facts.units.get(power, ()))
        if dislodged_units_see:
            places.update(unit.province for unit in facts.dislodged.get(power, ()))
        seen = facts.memo[key] = union(province_sight(state.board, place) for place in places)
    return seen


class Fog1898Rules(FogRules):
    """Sight around own centres and units; foreign orders with what was unseen hidden."""

    name = "fog-1898"
    seed = "004"
    title = "Fog of War on the 1898 start"
    summary = (
        "own centres and units see every neighbouring province; foreign moves are known by the "
        "province left (seen at the beginning) and the province reached (seen at the end)"
    )
    Options = Fog1898Options
    options: Fog1898Options
    sees_every_neighbour = True

    # --- hooks ------------------------------------------------------------------------------

    def visible_provinces(self, state: GameState, power: str) -> frozenset[str]:
        return sight_1898(state, power, dislodged_units_see=self.options.dislodged_units_see)

    def centers_known(self, state: GameState, power: str, visible: frozenset[str]) -> dict[str, str]:
        """Its own centres and the owner of every centre in sight. A centre in sight that is
        missing here is unowned."""
        return {center: owner for center, owner in state.centers.items() if owner == power or center in visible}

    def watch(self, resolution: Resolution, power: str) -> Watch:
        return Watch(self.visible_provinces(resolution.before, power), self.visible_provinces(resolution.after, power))

    def orders_seen(self, resolution: Resolution, power: str) -> list[SeenOrder]:
        watch = self.watch(resolution, power)
        seen = own_orders(resolution, power)
        orders, places = resolution.orders, _facts(resolution).places
        # Only an order whose unit's province or move's target is in sight can be seen at all
        # (see foreign_order): those are looked up instead of going through every order.
        candidates: set[int] = set()
        for province in watch.start | watch.end:
            candidates.update(places.get(province, ()))
        for i in sorted(candidates):
            result = orders[i]
            if result.power != power:
                order = self.foreign_order(resolution, result, watch)
                if order is not None:
                    seen.append(order)
        return seen

    def notices(self, resolution: Resolution, power: str) -> list[Notice]:
        """Its own affairs (a dislodgement does not say where the attack came from: the
        attacking move shows that if it was seen), and what its failed moves ran into."""
        watched = self.watch(resolution, power).start
        return own_notices(resolution, power, attack_origin=False) + clash_notices(resolution, power, watched)

    # --- foreign orders ---------------------------------------------------------------------

    def foreign_order(self, resolution: Resolution, result: OrderResult, watch: Watch) -> SeenOrder | None:
        """A foreign order as the power learns it, or ``None`` if it learns nothing of it."""
        unit, order = result.unit, result.order
        if unit is None:
            return None  # a waived build happens nowhere
        if resolution.before.phase.kind == "A" and not result.succeeded:
            return None  # only builds and removals that happened are there to be seen
        here = unit.province
        if not result.legal or isinstance(order, Hold):
            if not self.options.show_holds or not watch.during(here):
                return None
            # A voided order is reported as what the unit did: it held, or (retreating) disbanded.
            did = OrderKind.DISBAND if resolution.before.phase.kind == "R" else OrderKind.HOLD
            return SeenOrder(result.power, unit_order(did, unit), None)
        if isinstance(order, (Move, Retreat)):
            view = self.move_view(result, watch)
            if view is None:
                return None
            shown = {here: view[0], _province(order.target): view[1]}
            return seen_order(result, success_or_failure(result), _shown(shown))
        if not watch.during(here):
            return None
        if isinstance(order, (SupportMove, Convoy)):
            other = order.supported if isinstance(order, SupportMove) else order.army
            origin, target = self.named_view(resolution, other.province, _province(order.target), watch)
            shown = {here: True, other.province: origin, _province(order.target): target}
            return seen_order(result, None, _shown(shown))
        if isinstance(order, SupportHold):
            origin, _ = self.named_view(resolution, order.supported.province, None, watch)
            return seen_order(result, None, None if origin else _shown({here: True}))
        if isinstance(order, (Build, Disband)):
            return seen_order(result, None)
        return None  # pragma: no cover - every order with a unit is handled above

    def move_view(self, result: OrderResult, watch: Watch) -> View | None:
        """How much of a move or retreat the power sees, or ``None`` if it sees none of it.

        A move that arrives is seen from the province it left if that was in sight at the
        beginning, and at the province it reached if that is in sight at the end. A move that
        fails ends up where it started: it is seen (with its origin) if that province was in
        sight at the beginning or is at the end; its target shows by the option."""
        assert result.unit is not None and isinstance(result.order, (Move, Retreat))
        origin, target = result.unit.province, _province(result.order.target)
        if result.succeeded:
            if origin in watch.start or target in watch.end:
                return origin in watch.start, target in watch.end
            return None
        if watch.during(origin):
            return True, self.options.failed_move_target == "always" or target in watch.end
        return None

    def named_view(self, resolution: Resolution, province: str, target: str | None, watch: Watch) -> View:
        """How much of the move (``target``) or hold (``None``) that a support or convoy names
        the power sees: as much as it sees of the unit there doing it.

        When the named unit makes that very move, the support shows what the move shows.
        Otherwise (a void support or convoy) the named unit's province shows only if the power
        sees that unit's own order with its origin (or saw the province empty at the
        beginning), and the target only along with it, where the target is in sight."""
        named = record_facts(resolution).result_of(province)
        if named is None:
            origin = province in watch.start
        else:
            view = self.view_of(named, watch)
            if view is None:
                return False, False
            if (
                target is not None
                and isinstance(named.order, Move)
                and named.legal
                and _province(named.order.target) == target
            ):
                return view
            origin = view[0]
        return origin, origin and target is not None and target in watch.end

    def view_of(self, result: OrderResult, watch: Watch) -> View | None:
        """The view of any order: a move's, or ``(True, False)`` for a unit that stayed put
        in a province in sight during the turn."""
        if result.unit is None:
            return None
        if result.legal and isinstance(result.order, (Move, Retreat)):
            return self.move_view(result, watch)
        return (True, False) if watch.during(result.unit.province) else None


def clash_notices(resolution: Resolution, power: str, watched: frozenset[str] | None = None) -> list[Notice]:
    """What the power learns from its own moves and retreats that bounced.

    "If there is a bounce, both players will know that other unit tried to move to the target
    province, but won't know from where": told when a unit of another power tried too (not
    how many, nor from where). "If a province is defended by many units, player trying to
    enter it unsuccessfully will know how many units defend the province": the unit that
    stood its ground there and every support to hold it that counted.

    A retreat fails alike whether its place was taken or another unit retreated there too, and
    which it was is told only where the power sees the place (``watched``: the provinces it saw
    as the phase began; ``None``, every province)."""
    out: list[Notice] = []
    facts = _facts(resolution)
    for result in record_facts(resolution).orders_of(power):
        if result.outcome != Outcome.BOUNCED or not isinstance(result.order, (Move, Retreat)):
            continue
        target = _province(result.order.target)
        if isinstance(result.order, Retreat) and watched is not None and target not in watched:
            continue
        if any(other != power for other in facts.tried.get(target, ())):
            out.append(Notice.make("bounce", f"Another unit also tried to move to {target}", target=target))
        if isinstance(result.order, Move):
            count = facts.defenders(target)
            if count:
                units = "unit" if count == 1 else "units"
                out.append(
                    Notice.make("defended", f"{target} was defended by {count} {units}", target=target, defenders=count)
                )
    return out


def defenders(resolution: Resolution, province: str) -> int:
    """How many units defended ``province``: 0 if no unit stayed there through the turn
    undislodged, else that unit and each support to hold it that was given and not cut (its
    hold strength). A unit that tried to leave and failed defends alone: a support to hold
    a unit that is moving is void.

    >>> from fogdip.engine import GameState, adjudicate, get_rules
    >>> by_map = get_rules().with_options(legality="map")  # as in every fog game
    >>> record = adjudicate(GameState.initial(), {"FRANCE": ["A PAR - BUR"],
    ...     "GERMANY": ["A MUN - BUR"], "AUSTRIA": ["A VIE H", "A BUD S A VIE"]}, by_map)
    >>> defenders(record, "BUR"), defenders(record, "VIE"), defenders(record, "MUN")
    (0, 2, 1)
    """
    if province not in resolution.before.units or province in resolution.moves or province in resolution.dislodged:
        return 0
    holds = 0
    orders = record_facts(resolution)
    for supporter, supported in resolution.supports.items():
        if supported != province:
            continue
        given = orders.result_of(supporter)
        if given is not None and isinstance(given.order, SupportHold):
            holds += 1
    return 1 + holds


class _Record:
    """What every power's view of one record shares."""

    def __init__(self, resolution: Resolution) -> None:
        self.resolution = resolution
        #: Positions in ``resolution.orders`` of the orders whose unit stands in each province
        #: or whose move or retreat goes there.
        self.places: dict[str, list[int]] = {}
        #: The powers whose units set out for each province (:func:`_tried`).
        self.tried: dict[str, set[str]] = {}
        for i, result in enumerate(resolution.orders):
            order = result.order
            target = _province(order.target) if isinstance(order, (Move, Retreat)) else None
            if target is not None and _tried(result, target):
                self.tried.setdefault(target, set()).add(result.power)
            if result.unit is None:
                continue
            self.places.setdefault(result.unit.province, []).append(i)
            if target is not None and target != result.unit.province:
                self.places.setdefault(target, []).append(i)
        self._defenders: dict[str, int] = {}

    def defenders(self, province: str) -> int:
        count = self._defenders.get(province)
        if count is None:
            count = self._defenders[province] = defenders(self.resolution, province)
        return count


_facts: KeptOn[Resolution, _Record] = KeptOn(_Record)


def _tried(result: OrderResult, target: str) -> bool:
    """Whether a unit set out for ``target`` (an army with no convoy never left)."""
    order = result.order
    return (
        result.legal
        and isinstance(order, (Move, Retreat))
        and _province(order.target) == target
        and result.outcome not in _STRANDED
    )


def _shown(shown: dict[str, bool]) -> Callable[[str], bool]:
    """Whether a province is shown: only those ``shown`` says so."""
    return lambda province: shown.get(province, False)


def _province(location: str) -> str:
    return location.partition("/")[0]
