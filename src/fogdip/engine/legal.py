"""Every legal order of every unit: what bots, the UI and random play choose from.

The orders listed are exactly those :mod:`fogdip.engine.validate` accepts, written in their
clearest form: supports to a split-coast province name the coast (DATC 6.B.7: web play should
not offer coastless supports), and no support is offered that only a convoy through the
supporting fleet could make possible (DATC 6.D.31).

>>> from fogdip.engine.state import GameState
>>> from fogdip.engine.rules import get_rules
>>> options = legal_orders(GameState.initial(), "FRANCE", get_rules())
>>> sorted(str(o) for o in options["PAR"])[:4]
['A PAR - BRE', 'A PAR - BUR', 'A PAR - GAS', 'A PAR - PIC']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from random import Random
from typing import cast

from fogdip.engine.convoys import route_exists
from fogdip.engine.map import Map, UnitKind
from fogdip.engine.order_facts import remember
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


def legal_orders(state: GameState, power: str, rules: Rules) -> dict[str, list[Order]]:
    """Legal orders of ``power``: per unit province in movement and retreat phases; under
    ``"BUILD"``, ``"WAIVE"`` and ``"DISBAND"`` in adjustment phases."""
    kind = state.phase.kind
    if kind == "M":
        return MovementOptions(state, rules).for_power(power)
    if kind == "R":
        options: dict[str, list[Order]] = {}
        for province, dislodged in state.dislodged.items():
            if dislodged.unit.power == power:
                ref = UnitRef(dislodged.unit.kind, dislodged.unit.location)
                options[province] = [Retreat(ref, t) for t in dislodged.retreats]
                options[province].append(Disband(ref))
        return options
    return _adjustment_options(state, power)


def all_legal_orders(state: GameState, rules: Rules) -> dict[str, dict[str, list[Order]]]:
    """Legal orders of every power, sharing the work of finding convoy routes."""
    if state.phase.kind == "M":
        options = MovementOptions(state, rules)
        return {power: options.for_power(power) for power in state.powers}
    return {power: legal_orders(state, power, rules) for power in state.powers}


def _adjustment_options(state: GameState, power: str) -> dict[str, list[Order]]:
    delta = state.adjustment(power)
    board = state.board
    if delta < 0:
        return {"DISBAND": [Disband(UnitRef(u.kind, u.location)) for u in state.units_of(power)]}
    if delta == 0:
        return {}
    builds: list[Order] = []
    for home in state.homes.get(power, ()):
        if state.centers.get(home) != power or home in state.units:
            continue
        if board.can_hold("A", home):
            builds.append(Build(UnitRef("A", home)))
        for location in board.coasts(home) or (home,):
            if board.can_hold("F", location):
                builds.append(Build(UnitRef("F", location)))
    return {"BUILD": builds, "WAIVE": [Waive()]}


class _Site:
    """What a unit of one kind on one location can do on a map, whatever the position:
    shared by every position, as orders and references are immutable."""

    __slots__ = ("at_sea", "convoy_moves", "hold", "into", "moves", "on_coast", "orders", "own_into", "reach", "ref")

    def __init__(self, board: Map, kind: UnitKind, location: str) -> None:
        self.ref = UnitRef(kind, location)
        self.hold = remember(Hold(self.ref))
        self.moves = tuple(remember(Move(self.ref, t)) for t in sorted(board.targets(kind, location)))
        #: the unit's other orders met so far, by the key :meth:`order` gives them
        self.orders: dict[tuple[str | UnitRef, ...], Order] = {}
        self.convoy_moves: dict[tuple[str, bool], Move] = {}
        origin = board.province_of(location)
        terrain = board.provinces[origin].terrain
        #: a fleet that may convoy; an army that may be convoyed
        self.at_sea = kind == "F" and terrain == "sea"
        self.on_coast = kind == "A" and terrain == "coast"
        #: (destination province, entry of MovementOptions.into) for each direct move
        self.into = tuple((board.province_of(m.target), (origin, m.target, False)) for m in self.moves)
        #: the provinces the unit can support into, sorted
        self.reach = tuple(sorted(board.reachable_provinces(kind, location)))
        #: each province of ``reach`` with how many of the unit's own direct moves go there
        #: (pairs made once: zipping two tuples for every draw costs more)
        self.own_into = tuple((province, sum(1 for p, _ in self.into if p == province)) for province in self.reach)

    def order(self, key: tuple[str | UnitRef, ...]) -> Order:
        """The unit's order for a key ``("S", supported ref)``, ``("S", supported ref,
        target)`` or ``("C", army ref, target)``: built once, so that adjudication knows it
        by identity (:func:`fogdip.engine.order_facts.remember`)."""
        order = self.orders.get(key)
        if order is None:
            order = self.orders[key] = remember(_build(self.ref, key))
        return order

    def convoy_move(self, target: str, via: bool) -> Move:
        move = self.convoy_moves.get((target, via))
        if move is None:
            move = self.convoy_moves[target, via] = remember(Move(self.ref, target, via_convoy=via))
        return move


def _build(ref: UnitRef, key: tuple[str | UnitRef, ...]) -> Order:
    verb, other = key[0], key[1]
    assert isinstance(other, UnitRef)
    if verb == "C":
        return Convoy(ref, other, str(key[2]))
    if len(key) == 2:
        return SupportHold(ref, other)
    return SupportMove(ref, other, str(key[2]))


def _sites(board: Map) -> dict[str, _Site]:
    """The map's sites met so far, by unit kind and location (``"AMAR"``): kept with the map
    (``Map.memo``), as a site depends on the map alone."""
    sites = board.memo.get(_sites)
    if sites is None:
        sites = board.memo.setdefault(_sites, {})
    return cast("dict[str, _Site]", sites)


def _site(board: Map, kind: UnitKind, location: str) -> _Site:
    sites = _sites(board)
    site = sites.get(kind + location)
    if site is None:
        site = sites[kind + location] = _Site(board, kind, location)
    return site


#: No supports to leave out (:meth:`MovementOptions.sample`, a unit not at sea).
_NO_SKIP: frozenset[tuple[str, str]] = frozenset()


class MovementOptions:
    """Legal movement orders for one position, with convoy routes computed once."""

    def __init__(self, state: GameState, rules: Rules) -> None:
        self.state = state
        self.board: Map = state.board
        self.rules = rules
        #: the orders handed out, which adjudication may then trust (``GameState.vouched``)
        self._vouched = state.vouched
        self._listed = state.listed
        board = self.board
        # Looked up for every unit of every position a bot plays: the map's sites once, then
        # each unit's by its kind and location.
        known = _sites(board)
        sites: dict[str, _Site] = {}
        refs: dict[str, UnitRef] = {}
        at_sea: list[str] = []
        for p, u in state.units.items():
            site = known.get(u.kind + u.location)
            if site is None:
                site = known[u.kind + u.location] = _Site(board, u.kind, u.location)
            sites[p] = site
            refs[p] = site.ref
            if site.at_sea:
                at_sea.append(p)
        self.sites = sites
        self.refs = refs
        self.convoyers = frozenset(at_sea)
        # army province -> destination -> fleets that may convoy it there
        self.routes: dict[str, Mapping[str, AbstractSet[str]]] = {}
        # army province -> destination -> fleets that every route there needs
        self._needed: dict[str, Mapping[str, AbstractSet[str]]] = {}
        self._found: dict[str, _Routes] = {}
        if self.convoyers:
            necessary = rules.convoy_fleet_must_be_needed
            routes = _routes_of(board)
            neighbours = board.neighbours
            groups = _fleet_groups(neighbours, self.convoyers)
            for province, site in self.sites.items():
                if site.on_coast:
                    # The fleets linked to the army's coast by a chain of fleets: the groups
                    # of fleets next to it (one group, most often, shared by its neighbours).
                    chain: frozenset[str] | None = None
                    for there in neighbours[province]:
                        group = groups.get(there)
                        if group is not None and group is not chain:
                            chain = group if chain is None else chain | group
                    if chain is None:
                        continue
                    found = _convoy_routes(board, self.convoyers, province, necessary, routes, chain)
                    if found is not None:
                        self._found[province] = found
                        self.routes[province] = found.fleets
                        self._needed[province] = found.needed
        moves: dict[str, tuple[Move, ...]] = {}
        # destination province -> (mover's province, move) for every legal move on the board
        # (``convoyed`` marks army moves that only a convoy makes possible)
        into: dict[str, list[tuple[str, str, bool]]] = {}
        # destination province -> armies that only a convoy can carry there
        convoyed_into: dict[str, list[str]] = {}
        carried = self._found
        for origin, site in sites.items():
            for target, entry in site.into:
                listed = into.get(target)
                if listed is None:
                    into[target] = [entry]
                else:
                    listed.append(entry)
            found = carried.get(origin) if carried else None
            if found is None:
                moves[origin] = site.moves
                continue
            moves[origin] = found.moves
            for target, entry in found.into:
                into.setdefault(target, []).append(entry)
                convoyed_into.setdefault(target, []).append(origin)
        self.moves = moves
        self.into = into
        self._convoyed_into = convoyed_into
        self._slots: dict[str, int] | None = None
        self._convoy_choices: dict[str, list[tuple[str, str]]] | None = None

    def for_power(self, power: str) -> dict[str, list[Order]]:
        return {p: self._orders(u) for p, u in self.state.units.items() if u.power == power}

    def _orders(self, unit: Unit) -> list[Order]:
        site = self.sites[unit.location.partition("/")[0]]
        orders = [self._order(site, spec) for spec in self.choices(unit)]
        # Vouched for when adjudication first asks (GameState.listed): listing every order of
        # every unit, say for a player to choose from, need not register each one.
        self._listed[unit.location.partition("/")[0]] = tuple(orders)
        return orders

    def choices(self, unit: Unit) -> list[tuple[str, ...] | Move]:
        """The unit's legal orders in a cheap form: a :class:`Move`, or a tuple naming a hold
        ``("H",)``, a support ``("S", province)`` / ``("S", province, target)`` or a convoy
        ``("C", army province, target)``. :meth:`order` turns one into an :class:`Order`."""
        units = self.state.units
        here = unit.location.partition("/")[0]
        convoyers = self.convoyers
        specs: list[tuple[str, ...] | Move] = [("H",)]
        specs.extend(self.moves[here])
        for province in self.sites[here].reach:
            if province in units:
                specs.append(("S", province))
            for origin, target, convoyed in self.into.get(province, ()):
                if origin == here:
                    continue
                if convoyed and here in convoyers and here in self._needed[origin][province]:
                    continue  # only a convoy through this very unit could carry it (6.D.31)
                specs.append(("S", origin, target))
        if unit.kind == "F" and here in self.convoyers:
            for army, destinations in self.routes.items():
                for target in sorted(destinations):
                    if here in destinations[target]:
                        specs.append(("C", army, target))
        return specs

    def order(self, ref: UnitRef, spec: tuple[str, ...] | Move) -> Order:
        """Turn one entry of :meth:`choices` for the unit ``ref`` into an :class:`Order`."""
        site = self.sites.get(ref.province)
        if site is not None and site.ref == ref:
            return self._order(site, spec)
        if isinstance(spec, Move):
            return spec
        if spec[0] == "H":
            return Hold(ref)
        return _build(ref, (spec[0], self.refs[spec[1]], *spec[2:]))

    def _order(self, site: _Site, spec: tuple[str, ...] | Move) -> Order:
        if isinstance(spec, Move):
            return spec
        if spec[0] == "H":
            return site.hold
        if len(spec) == 2:
            return site.order((spec[0], self.refs[spec[1]]))
        return site.order((spec[0], self.refs[spec[1]], spec[2]))

    def sample(self, unit: Unit, rng: Random) -> Order:
        """One legal order of ``unit``, chosen uniformly, building only that one.

        Draws exactly as ``rng.choice(self.choices(unit))`` would, so a seed plays the same
        game either way. The order is vouched for in this position (``GameState.vouched``)
        where it is drawn: this runs for every unit of every phase a bot plays."""
        here = unit.location.partition("/")[0]
        site = self.sites[here]
        slots = self._slots
        if slots is None:
            slots = self._slots = self._support_slots()
        moves = self.moves[here]
        # choices() lists the hold, the moves, then per province of reach a support to hold
        # (if occupied) and one per move into it, other than the unit's own direct moves;
        # a fleet at sea then leaves out supports only a convoy through it could make
        # possible, and ends with its convoys.
        skip: AbstractSet[tuple[str, str]] = _NO_SKIP
        convoys: Sequence[tuple[str, str]] = ()
        if site.at_sea:
            skip = self._supports_through(here, site)
            if self._convoy_choices is None:
                self._convoy_choices = self._convoys_by_fleet()
            convoys = self._convoy_choices.get(here, ())
        supports = sum(map(slots.__getitem__, site.reach)) - len(site.moves) - len(skip)
        k = rng.choice(range(1 + len(moves) + supports + len(convoys)))
        order: Order
        if k == 0:
            order = site.hold
            self._vouched.add(id(order))
            return order
        if k <= len(moves):
            order = moves[k - 1]
            self._vouched.add(id(order))
            return order
        k -= 1 + len(moves)
        if k >= supports:
            army, target = convoys[k - supports]
            order = site.order(("C", self.refs[army], target))
            self._vouched.add(id(order))
            return order
        units = self.state.units
        for province, own in site.own_into:
            size = slots[province] - own
            if skip:
                size -= sum(1 for origin, there in skip if there == province)
            if k >= size:
                k -= size
                continue
            if province in units:
                if k == 0:
                    order = site.order(("S", self.refs[province]))
                    self._vouched.add(id(order))
                    return order
                k -= 1
            for origin, target, convoyed in self.into[province]:
                if origin == here or (convoyed and (origin, province) in skip):
                    continue
                if k == 0:
                    order = site.order(("S", self.refs[origin], target))
                    self._vouched.add(id(order))
                    return order
                k -= 1
        raise AssertionError("sample() and choices() disagree")  # pragma: no cover

    def _supports_through(self, here: str, site: _Site) -> set[tuple[str, str]]:
        """(army, destination) of the convoyed moves that only a convoy through the fleet in
        ``here`` could carry: the fleet may not support them (6.D.31)."""
        skip: set[tuple[str, str]] = set()
        for province in site.reach:
            for origin in self._convoyed_into.get(province, ()):
                if here in self._needed[origin][province]:
                    skip.add((origin, province))
        return skip

    def _convoys_by_fleet(self) -> dict[str, list[tuple[str, str]]]:
        """Per fleet, (army, destination) of every convoy it may order, in choices() order."""
        by_fleet: dict[str, list[tuple[str, str]]] = {}
        for army, destinations in self.routes.items():
            for target in sorted(destinations):
                for fleet in destinations[target]:
                    by_fleet.setdefault(fleet, []).append((army, target))
        return by_fleet

    def _support_slots(self) -> dict[str, int]:
        """Per province: 1 if a unit stands there, plus the moves into it."""
        slots = dict.fromkeys(self.board.provinces, 0)
        for province in self.state.units:
            slots[province] = 1
        for province, entries in self.into.items():
            slots[province] += len(entries)
        return slots


class _Routes:
    """Convoy routes from one army's province, by destination: the fleets on some route, and
    the fleets on every route (without which the army cannot get there); and what follows
    for the army: all its moves, and the ``MovementOptions.into`` entries of the moves only
    a convoy makes possible (a VIA twin of an overland move adds none: one support covers
    both)."""

    __slots__ = ("fleets", "into", "moves", "needed")

    def __init__(self, board: Map, origin: str, fleets: dict[str, frozenset[str]], convoyers: frozenset[str]) -> None:
        self.fleets = fleets
        # A fleet no route needs can be left out and some route (a chordless one within any
        # route) still works; only fleets on the routes found are worth trying.
        self.needed = {
            target: frozenset(f for f in on_route if not route_exists(board, convoyers, origin, target, excluding=f))
            for target, on_route in fleets.items()
        }
        site = _site(board, "A", origin)
        adjacent = board.army_targets(origin)
        targets = sorted(fleets)
        self.moves = site.moves + tuple(site.convoy_move(t, t in adjacent) for t in targets)
        self.into = tuple((t, (origin, t, True)) for t in targets if t not in adjacent)


# Routes depend on the map and few fleets, and recur from one position to the next: they are
# kept with the map (``Map.memo``), and the store is bounded for long-running processes.
_ROUTES_LIMIT = 50_000


_RouteStore = dict[tuple[str, frozenset[str], bool], "_Routes | None"]


def _routes_of(board: Map) -> _RouteStore:
    """The map's convoy routes found so far, kept with the map (``Map.memo``)."""
    routes = board.memo.get(_convoy_routes)
    if routes is None:
        routes = board.memo.setdefault(_convoy_routes, {})
    return cast("_RouteStore", routes)


def _fleet_groups(neighbours: Mapping[str, frozenset[str]], convoyers: frozenset[str]) -> dict[str, frozenset[str]]:
    """Each fleet of ``convoyers`` with every fleet linked to it by a chain of them (its group:
    one frozenset object per group)."""
    groups: dict[str, frozenset[str]] = {}
    for fleet in convoyers:
        if fleet in groups:
            continue
        group = {fleet}
        frontier = [fleet]
        while frontier:
            here = frontier.pop()
            for there in neighbours[here]:
                if there in convoyers and there not in group:
                    group.add(there)
                    frontier.append(there)
        frozen = frozenset(group)
        for member in group:
            groups[member] = frozen
    return groups


def _convoy_routes(
    board: Map,
    convoyers: frozenset[str],
    origin: str,
    necessary: bool,
    routes: _RouteStore | None = None,
    chain: frozenset[str] | None = None,
) -> _Routes | None:
    """Destinations reachable by convoy from ``origin``, with the fleets on such routes
    (``routes``: the map's store, :func:`_routes_of`; ``chain``: the fleets of ``convoyers``
    linked to ``origin`` by a chain of them; each worked out here unless the caller has it).

    With ``necessary``, only chordless chains count, so every listed fleet is needed by
    some route (DATC 6.G.19)."""
    neighbours = board.neighbours
    # Only the fleets linked to ``origin`` by a chain of fleets matter: cache on those.
    if chain is None:
        linked = {f for f in neighbours[origin] if f in convoyers}
        frontier = list(linked)
        while frontier:
            here = frontier.pop()
            for there in neighbours[here]:
                if there in convoyers and there not in linked:
                    linked.add(there)
                    frontier.append(there)
        chain = frozenset(linked)
    if not chain:
        return None
    if routes is None:
        routes = _routes_of(board)
    key = (origin, chain, necessary)
    if key in routes:
        return routes[key]
    if len(routes) >= _ROUTES_LIMIT:
        routes.clear()
    fleets = _search_routes(board, convoyers, origin, necessary)
    found = routes[key] = _Routes(board, origin, fleets, convoyers) if fleets else None
    return found


def _search_routes(board: Map, convoyers: frozenset[str], origin: str, necessary: bool) -> dict[str, frozenset[str]]:
    neighbours = board.neighbours
    found: dict[str, set[str]] = {}
    path: list[str] = []

    def visit(here: str) -> None:
        path.append(here)
        for target in neighbours[here]:
            if target == origin or board.provinces[target].terrain != "coast":
                continue
            if necessary and any(target in neighbours[p] for p in path[:-1]):
                continue
            found.setdefault(target, set()).update(path)
        for there in neighbours[here]:
            if there not in convoyers or there in path:
                continue
            if necessary and (origin in neighbours[there] or any(there in neighbours[p] for p in path[:-1])):
                continue
            visit(there)
        path.pop()

    for first in neighbours[origin]:
        if first in convoyers:
            visit(first)
    return {target: frozenset(fleets) for target, fleets in found.items()}
