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

import threading
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from operator import itemgetter
from random import Random
from types import MappingProxyType
from typing import cast

from fogdip.engine.convoys import route_exists
from fogdip.engine.errors import FogdipError
from fogdip.engine.map import Map
from fogdip.engine.order_facts import OrderFacts, describe
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
from fogdip.engine.sites import OrderKey, Site, odd_site
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit
from fogdip.engine.vouched import Vouched


class VouchedOrders(dict[str, list[Order]]):
    """Lists of orders (each unit's, or each power's) handed out by the generator, as a plain
    dict, with the token that lets :func:`~fogdip.engine.judge.adjudicate` trust them:
    :attr:`vouched` (:class:`~fogdip.engine.vouched.Vouched`)."""

    __slots__ = ("vouched",)

    def __init__(self, orders: Mapping[str, list[Order]], vouched: Vouched) -> None:
        super().__init__(orders)
        self.vouched = vouched


class AllLegalOrders(dict[str, VouchedOrders]):
    """Every power's legal orders (:class:`VouchedOrders`), with one token for them all."""

    __slots__ = ("vouched",)

    def __init__(self, orders: Mapping[str, VouchedOrders], vouched: Vouched) -> None:
        super().__init__(orders)
        self.vouched = vouched


def legal_orders(state: GameState, power: str, rules: Rules, cache: ConvoyCache | None = None) -> VouchedOrders:
    """Legal orders of ``power``: per unit province in movement and retreat phases; under
    ``"BUILD"``, ``"WAIVE"`` and ``"DISBAND"`` in adjustment phases.

    The result's ``vouched`` token lets adjudication trust the movement orders listed (in
    retreats and adjustments it names none: those orders are always checked, which is
    cheap). ``cache``: a :class:`ConvoyCache` the caller keeps between positions of one map,
    if it lists many; each call makes its own otherwise."""
    kind = state.phase.kind
    if kind == "M":
        options = MovementOptions(state, rules, cache)
        return VouchedOrders(options.for_power(power), options.vouched())
    if kind == "R":
        listed: dict[str, list[Order]] = {}
        for province, dislodged in state.dislodged.items():
            if dislodged.unit.power == power:
                ref = UnitRef(dislodged.unit.kind, dislodged.unit.location)
                listed[province] = [Retreat(ref, t) for t in dislodged.retreats]
                listed[province].append(Disband(ref))
        return VouchedOrders(listed, Vouched(state, rules))
    return VouchedOrders(_adjustment_options(state, power), Vouched(state, rules))


def all_legal_orders(state: GameState, rules: Rules, cache: ConvoyCache | None = None) -> AllLegalOrders:
    """Legal orders of every power, sharing the work of finding convoy routes. The result's
    ``vouched`` token covers them all, and so does each power's (one token of the position:
    adjudication still trusts an order only from the power whose unit it commands)."""
    if state.phase.kind == "M":
        options = MovementOptions(state, rules, cache)
        by_power = {power: options.for_power(power) for power in state.powers}
        token = options.vouched()
        return AllLegalOrders({power: VouchedOrders(listed, token) for power, listed in by_power.items()}, token)
    return AllLegalOrders({power: legal_orders(state, power, rules) for power in state.powers}, Vouched(state, rules))


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


def _build(ref: UnitRef, key: OrderKey) -> Order:
    if len(key) == 2:
        return SupportHold(ref, key[1])
    verb, other, target = key
    return Convoy(ref, other, target) if verb == "C" else SupportMove(ref, other, target)


#: The order of an :class:`OrderFacts`.
_ORDER = itemgetter(0)

#: No supports to leave out (:meth:`MovementOptions.sample`, a unit not at sea).
_NO_SKIP: frozenset[tuple[str, str]] = frozenset()


class ConvoyCache:
    """Convoy routes, and the orders only a convoy makes legal, met while listing legal
    orders on one map. They depend on the map and a few fleets, and recur from one position to
    the next, so a caller that lists many positions (a bot's game loop) keeps one and passes it
    on; otherwise each listing makes its own.

    A cache is its caller's alone: it is refused on any thread but the one that made it, so
    no two threads ever write to it. It is bounded for long-running callers.

    >>> from fogdip.engine.state import GameState
    >>> from fogdip.engine.rules import get_rules
    >>> state = GameState.initial()
    >>> cache = ConvoyCache(state.board)
    >>> MovementOptions(state, get_rules(), cache).for_power("ENGLAND") == legal_orders(state, "ENGLAND", get_rules())
    True
    """

    __slots__ = ("board", "orders", "routes", "thread")

    #: Past this many routes, or orders, the store starts again.
    LIMIT = 50_000

    def __init__(self, board: Map) -> None:
        self.board = board
        self.thread = threading.get_ident()
        #: (army's province, the fleets chained to its coast, whether a fleet must be needed)
        #: to the routes found from there
        self.routes: dict[tuple[str, frozenset[str], bool], _Routes | None] = {}
        #: (unit, its order's key) to the order: convoys, and supports of moves only a convoy
        #: makes possible
        self.orders: dict[tuple[UnitRef, OrderKey], OrderFacts] = {}

    def check(self, board: Map) -> None:
        """Refuse use on another thread than the owner's, or for another map."""
        if self.thread != threading.get_ident():
            raise FogdipError("a ConvoyCache belongs to the thread that made it: make one per thread")
        if self.board is not board:
            raise FogdipError(f"this ConvoyCache is for the map {self.board.name!r}, not {board.name!r}")

    def order(self, site: Site, key: OrderKey) -> OrderFacts:
        """The order of ``site``'s unit that ``key`` names, built the first time it is asked."""
        store = self.orders
        found = store.get((site.ref, key))
        if found is None:
            if len(store) >= self.LIMIT:
                store.clear()
            found = store[site.ref, key] = describe(_build(site.ref, key))
        return found


class MovementOptions:
    """Legal movement orders for one position, with convoy routes computed once.

    It keeps every order it hands out (listed by :meth:`for_power`, drawn by :meth:`sample`):
    :meth:`vouched` gives them as a token that adjudication trusts for this position. It is a
    per-call object: made, used and dropped by one caller."""

    def __init__(self, state: GameState, rules: Rules, cache: ConvoyCache | None = None) -> None:
        self.state = state
        self.board: Map = state.board
        self.rules = rules
        board = self.board
        if cache is None:
            cache = ConvoyCache(board)
        else:
            cache.check(board)
        self._cache = cache
        #: each unit's orders handed out so far, for :meth:`vouched`
        self._handed: dict[UnitRef, list[OrderFacts]] = {}
        # Looked up for every unit of every position a bot plays: the map's sites, each unit's
        # by its kind and location.
        known = board.sites
        sites: dict[str, Site] = {}
        refs: dict[str, UnitRef] = {}
        at_sea: list[str] = []
        for p, u in state.units.items():
            site = known.get(u.kind + u.location)
            if site is None:
                site = odd_site(board, UnitRef(u.kind, u.location))
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
            routes = cache.routes
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
        move_facts: dict[str, tuple[OrderFacts, ...]] = {}
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
                move_facts[origin] = site.move_facts
                continue
            moves[origin] = found.moves
            move_facts[origin] = found.move_facts
            for target, entry in found.into:
                into.setdefault(target, []).append(entry)
                convoyed_into.setdefault(target, []).append(origin)
        self.moves = moves
        self._move_facts = move_facts
        self.into = into
        self._convoyed_into = convoyed_into
        self._slots: dict[str, int] | None = None
        self._convoy_choices: dict[str, list[tuple[str, str]]] | None = None

    def for_power(self, power: str) -> dict[str, list[Order]]:
        return {p: self._orders(u) for p, u in self.state.units.items() if u.power == power}

    def vouched(self) -> Vouched:
        """A token for the orders handed out so far: adjudication trusts them in this
        position under these rules."""
        orders = {ref: tuple(entries) for ref, entries in self._handed.items()}
        return Vouched(self.state, self.rules, MappingProxyType(orders))

    def _hand(self, site: Site, facts: OrderFacts) -> Order:
        handed = self._handed.get(site.ref)
        if handed is None:
            self._handed[site.ref] = [facts]
        else:
            handed.append(facts)
        return facts.order

    def _orders(self, unit: Unit) -> list[Order]:
        here = unit.location.partition("/")[0]
        site = self.sites[here]
        moves = self._move_facts[here]
        facts = [site.hold, *moves]
        refs = self.refs
        # Looked up for every order of every unit listed: the map's table first, then the cache.
        table = site.supports.get
        made = self._cache.order
        # choices() lists the hold and the moves first, then supports and convoys (tuples).
        for spec in cast("list[tuple[str, ...]]", self.choices(unit)[1 + len(moves) :]):
            key: OrderKey = (spec[0], refs[spec[1]]) if len(spec) == 2 else (spec[0], refs[spec[1]], spec[2])
            facts.append(table(key) or made(site, key))
        handed = self._handed.get(site.ref)
        if handed is None:
            self._handed[site.ref] = facts
        else:
            handed.extend(facts)
        return list(map(_ORDER, facts))

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
        if isinstance(spec, Move):
            return spec
        site = self.sites.get(ref.province)
        if site is not None and site.ref == ref:
            if spec[0] == "H":
                return site.hold.order
            if len(spec) == 2:
                return self._keyed(site, (spec[0], self.refs[spec[1]])).order
            return self._keyed(site, (spec[0], self.refs[spec[1]], spec[2])).order
        if spec[0] == "H":
            return Hold(ref)
        if len(spec) == 2:
            return _build(ref, (spec[0], self.refs[spec[1]]))
        return _build(ref, (spec[0], self.refs[spec[1]], spec[2]))

    def _keyed(self, site: Site, key: OrderKey) -> OrderFacts:
        """The site's order ``key`` names: from the map's table, or (a convoy, or a support of
        a move only a convoy makes possible) from the cache."""
        found = site.supports.get(key)
        if found is None:
            found = self._cache.order(site, key)
        return found

    def sample(self, unit: Unit, rng: Random) -> Order:
        """One legal order of ``unit``, chosen uniformly, building only that one.

        Draws exactly as ``rng.choice(self.choices(unit))`` would, so a seed plays the same
        game either way. The order is handed out (:meth:`vouched`) where it is drawn: this runs
        for every unit of every phase a bot plays."""
        here = unit.location.partition("/")[0]
        site = self.sites[here]
        slots = self._slots
        if slots is None:
            slots = self._slots = self._support_slots()
        moves = self._move_facts[here]
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
        if k == 0:
            return self._hand(site, site.hold)
        if k <= len(moves):
            return self._hand(site, moves[k - 1])
        k -= 1 + len(moves)
        refs = self.refs
        if k >= supports:
            army, target = convoys[k - supports]
            return self._hand(site, self._keyed(site, ("C", refs[army], target)))
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
                    return self._hand(site, self._keyed(site, ("S", refs[province])))
                k -= 1
            for origin, target, convoyed in self.into[province]:
                if origin == here or (convoyed and (origin, province) in skip):
                    continue
                if k == 0:
                    return self._hand(site, self._keyed(site, ("S", refs[origin], target)))
                k -= 1
        raise AssertionError("sample() and choices() disagree")  # pragma: no cover

    def _supports_through(self, here: str, site: Site) -> set[tuple[str, str]]:
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

    __slots__ = ("fleets", "into", "move_facts", "moves", "needed")

    def __init__(self, board: Map, origin: str, fleets: dict[str, frozenset[str]], convoyers: frozenset[str]) -> None:
        self.fleets = fleets
        # A fleet no route needs can be left out and some route (a chordless one within any
        # route) still works; only fleets on the routes found are worth trying.
        self.needed = {
            target: frozenset(f for f in on_route if not route_exists(board, convoyers, origin, target, excluding=f))
            for target, on_route in fleets.items()
        }
        site = board.sites["A" + origin]
        adjacent = board.army_targets(origin)
        targets = sorted(fleets)
        # Every coast an army may be convoyed to is in the map's table; the fallback is for
        # none that the map knows of.
        carried = tuple(
            site.convoy_moves.get(t) or describe(Move(site.ref, t, via_convoy=t in adjacent)) for t in targets
        )
        self.move_facts = site.move_facts + carried
        # The orders of convoy moves are moves (the map's table holds nothing else there).
        self.moves = site.moves + tuple(cast("Move", facts.order) for facts in carried)
        self.into = tuple((t, (origin, t, True)) for t in targets if t not in adjacent)


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
    routes: dict[tuple[str, frozenset[str], bool], _Routes | None],
    chain: frozenset[str],
) -> _Routes | None:
    """Destinations reachable by convoy from ``origin``, with the fleets on such routes
    (``routes``: the caller's store, :attr:`ConvoyCache.routes`; ``chain``: the fleets of
    ``convoyers`` linked to ``origin`` by a chain of them, what the routes depend on).

    With ``necessary``, only chordless chains count, so every listed fleet is needed by
    some route (DATC 6.G.19)."""
    key = (origin, chain, necessary)
    if key in routes:
        return routes[key]
    if len(routes) >= ConvoyCache.LIMIT:
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
