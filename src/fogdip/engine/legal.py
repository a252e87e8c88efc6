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

from random import Random

from fogdip.engine.convoys import convoy_fleet_provinces, route_exists
from fogdip.engine.map import Map, UnitKind
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


_DIRECT: dict[tuple[str, str, str], tuple[Move, ...]] = {}
_REACH: dict[tuple[str, str, str], tuple[str, ...]] = {}


def _direct_moves(board: Map, kind: UnitKind, location: str) -> tuple[Move, ...]:
    """Moves without convoy from a location; immutable, so shared between positions."""
    key = (board.name, kind, location)
    moves = _DIRECT.get(key)
    if moves is None:
        ref = UnitRef(kind, location)
        moves = tuple(Move(ref, t) for t in sorted(board.targets(kind, location)))
        _DIRECT[key] = moves
    return moves


def _sorted_reach(board: Map, kind: UnitKind, location: str) -> tuple[str, ...]:
    key = (board.name, kind, location)
    reach = _REACH.get(key)
    if reach is None:
        reach = tuple(sorted(board.reachable_provinces(kind, location)))
        _REACH[key] = reach
    return reach


class MovementOptions:
    """Legal movement orders for one position, with convoy routes computed once."""

    def __init__(self, state: GameState, rules: Rules) -> None:
        self.state = state
        self.board: Map = state.board
        self.rules = rules
        fleets = [p for p, u in state.units.items() if u.kind == "F"]
        self.convoyers = convoy_fleet_provinces(self.board, fleets)
        # army province -> destination -> fleets that may convoy it there
        self.routes: dict[str, dict[str, set[str]]] = {}
        if self.convoyers:
            for province, unit in state.units.items():
                if unit.kind == "A" and self.board.provinces[province].terrain == "coast":
                    found = self._convoy_routes(province, necessary=rules.convoy_fleet_must_be_needed)
                    if found:
                        self.routes[province] = found
        self.moves: dict[str, list[Move]] = {p: self._moves(u) for p, u in state.units.items()}
        # destination province -> (mover's province, move) for every legal move on the board
        # (``convoyed`` marks army moves that only a convoy makes possible)
        self.into: dict[str, list[tuple[str, str, bool]]] = {}
        for origin, moves in self.moves.items():
            mover = state.units[origin]
            overland = self.board.army_targets(mover.location) if mover.kind == "A" else frozenset()
            listed: set[str] = set()
            for move in moves:
                if move.target in listed:
                    continue  # the VIA twin of an overland move: one support covers both
                listed.add(move.target)
                target = move.target.partition("/")[0]
                convoyed = mover.kind == "A" and target not in overland
                self.into.setdefault(target, []).append((origin, move.target, convoyed))
        self._routes_without: dict[tuple[str, str, str], bool] = {}
        self.refs: dict[str, UnitRef] = {p: UnitRef(u.kind, u.location) for p, u in state.units.items()}

    def for_power(self, power: str) -> dict[str, list[Order]]:
        return {p: self._orders(u) for p, u in self.state.units.items() if u.power == power}

    def _moves(self, unit: Unit) -> list[Move]:
        moves = list(_direct_moves(self.board, unit.kind, unit.location))
        convoys = self.routes.get(unit.location)
        if not convoys:
            return moves
        ref = UnitRef(unit.kind, unit.location)
        adjacent = self.board.army_targets(unit.location)
        for target in sorted(convoys):
            moves.append(Move(ref, target, via_convoy=target in adjacent))
        return moves

    def _orders(self, unit: Unit) -> list[Order]:
        ref = self.refs[unit.location.partition("/")[0]]
        return [self.order(ref, spec) for spec in self.choices(unit)]

    def choices(self, unit: Unit) -> list[tuple[str, ...] | Move]:
        """The unit's legal orders in a cheap form: a :class:`Move`, or a tuple naming a hold
        ``("H",)``, a support ``("S", province)`` / ``("S", province, target)`` or a convoy
        ``("C", army province, target)``. :meth:`order` turns one into an :class:`Order`."""
        board = self.board
        units = self.state.units
        here = unit.location.partition("/")[0]
        convoyers = self.convoyers
        specs: list[tuple[str, ...] | Move] = [("H",)]
        specs.extend(self.moves[here])
        for province in _sorted_reach(board, unit.kind, unit.location):
            if province in units:
                specs.append(("S", province))
            for origin, target, convoyed in self.into.get(province, ()):
                if origin == here:
                    continue
                if convoyed and here in convoyers and not self._route_without(origin, province, here):
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
        if spec[0] == "H":
            return Hold(ref)
        if spec[0] == "C":
            return Convoy(ref, self.refs[spec[1]], spec[2])
        if len(spec) == 2:
            return SupportHold(ref, self.refs[spec[1]])
        return SupportMove(ref, self.refs[spec[1]], spec[2])

    def sample(self, unit: Unit, rng: Random) -> Order:
        """One legal order of ``unit``, chosen uniformly, building only that one."""
        return self.order(self.refs[unit.location.partition("/")[0]], rng.choice(self.choices(unit)))

    def _route_without(self, origin: str, destination: str, excluded: str) -> bool:
        key = (origin, destination, excluded)
        known = self._routes_without.get(key)
        if known is None:
            known = route_exists(self.board, self.convoyers, origin, destination, excluding=excluded)
            self._routes_without[key] = known
        return known

    def _convoy_routes(self, origin: str, necessary: bool) -> dict[str, set[str]]:
        """Destinations reachable by convoy from ``origin``, with the fleets on such routes.

        With ``necessary``, only chordless chains count, so every listed fleet is needed by
        some route (DATC 6.G.19)."""
        board = self.board
        neighbours = board.neighbours
        convoyers = self.convoyers
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
        return found
