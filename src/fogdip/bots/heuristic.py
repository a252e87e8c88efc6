"""The heuristic's choices: a fog-aware DumbBot, as a :class:`~fogdip.bots.tactics.Tactics`.

Values come from :mod:`fogdip.bots.heuristic_values` (base values, proximity, destination
values less the competition the belief's ``presence`` holds). Orders are then chosen unit by
unit, in an order drawn from ``rng``: each unit takes the best destination, sometimes one
nearly as good (so the bot is not predictable), never a province another of its units goes
to or stays in; a unit whose wanted province is taken by a fellow unit's contested move
supports that move instead, and units left holding support their fellows' contested moves
(supports only ever of the power's own units). A move into a place a rival's unit may also
enter bounces unless supported: a fellow able to support it gives up its own move for the
support when that move is worth less than :attr:`~Weights.reinforce` times what the bounce
would cost (its value over staying, by the competition believed there). A move into a province a fellow unit holds is
made only once that unit is ordered out (not swapping places with it). An army on a coast
also weighs the coastal provinces it cannot reach by land but the power's free fleets at sea
could carry it to (a chain of up to :data:`CONVOY_FLEETS`), each worth its value less what the
fleets give up and a little risk; armies with such a route choose first, and a convoy chosen
orders every fleet of the route to convoy (``A LON - BEL``, ``F NTH C A LON - BEL``).

Retreats go to the best-valued province the unit may reach that is not believed occupied,
avoiding the attack's origin and known stand-offs; builds go to the best free sites, each as
the unit type worth more there; removals take the worst-placed units.

:func:`state_orders` plays the same way with full information (the search bot's opponents).

>>> from fogdip.game import Game
>>> from fogdip.bots.base import BotInput
>>> from fogdip.bots.belief import believe
>>> picture = believe(BotInput.of(Game.create("standard"), "FRANCE"))
>>> orders = Heuristic().movement(picture, random.Random(1))
>>> sorted(str(order.unit) for order in orders)
['A MAR', 'A PAR', 'F BRE']
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from fogdip.bots.heuristic_values import Values, Weights, evaluate
from fogdip.bots.picture import Picture
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
)
from fogdip.engine.rules import Rules
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit

#: Competition (believed foreign units able to reach a province) above which a move is worth
#: supporting.
CONTESTED = 0.3
#: Believed foreign presence above which a province is taken to be occupied (for retreats).
OCCUPIED = 0.5
#: Fleets a convoy route may chain at most.
CONVOY_FLEETS = 3
#: What a convoyed landing loses against a move by land, as a share of its value: a convoy
#: ties fleets down and a dislodged fleet breaks it.
CONVOY_RISK = 0.05


@dataclass(frozen=True)
class Heuristic:
    """A fog-aware DumbBot: the :class:`~fogdip.bots.tactics.Tactics` of the ``heuristic`` bot."""

    weights: Weights = field(default_factory=Weights)

    def values(self, picture: Picture) -> Mapping[str, float]:
        return evaluate(picture, self.weights).province

    def movement(self, picture: Picture, rng: random.Random) -> list[Order]:
        return _Planner(picture, evaluate(picture, self.weights), self.weights, rng).plan()

    def retreats(self, picture: Picture, rng: random.Random) -> list[Order]:
        state = picture.state
        board = state.board
        # Where the unit will stand next: valued as for the coming movement phase.
        values = evaluate(picture, self.weights, fall=state.phase.season == "S")
        taken: set[str] = set()
        out: list[Order] = []
        for province in sorted(picture.dislodged):
            unit = picture.dislodged[province]
            ref = UnitRef(unit.kind, unit.location)
            scored: list[tuple[float, str]] = []
            for target in sorted(_retreat_places(picture, province, unit, board)):
                there = board.province_of(target)
                if there in taken:
                    continue
                value = values.of(unit.kind, target) - values.occupied.get(there, 0.0) * abs(
                    values.of(unit.kind, target)
                )
                scored.append((value + rng.random() * 1e-6, target))
            if not scored:
                out.append(Disband(ref))
                continue
            _, best = max(scored)
            taken.add(board.province_of(best))
            out.append(Retreat(ref, best))
        return out

    def adjustments(self, picture: Picture, due: int, sites: Sequence[str], rng: random.Random) -> list[Order]:
        state = picture.state
        board = state.board
        values = evaluate(picture, self.weights, fall=False)
        if due < 0:
            own = sorted(state.units_of(picture.power), key=lambda u: (values.of(u.kind, u.location), u.location))
            return [Disband(UnitRef(unit.kind, unit.location)) for unit in own[:-due]]
        options: list[tuple[float, str, UnitKind, str]] = []
        for site in sorted(set(sites)):
            if site in state.units:
                continue
            for kind, location in _build_spots(board, site):
                options.append((values.of(kind, location) + rng.random() * 1e-6, site, kind, location))
        options.sort(reverse=True)
        out: list[Order] = []
        used: set[str] = set()
        for _, site, kind, location in options:
            if len(out) >= due:
                break
            if site in used:
                continue
            used.add(site)
            out.append(Build(UnitRef(kind, location)))
        return out


def _build_spots(board: Map, site: str) -> list[tuple[UnitKind, str]]:
    spots: list[tuple[UnitKind, str]] = []
    if board.can_hold("A", site):
        spots.append(("A", site))
    coasts = board.coasts(site)
    for location in coasts or (site,):
        if board.can_hold("F", location):
            spots.append(("F", location))
    return spots


def _retreat_places(picture: Picture, province: str, unit: Unit, board: Map) -> list[str]:
    """Where the dislodged unit may retreat: as known exactly, or guessed (not occupied by a
    unit seen or own, not where the attack came from, not a known stand-off)."""
    known = picture.retreat_options.get(province)
    if known is not None:
        return list(known)
    occupied = set(picture.state.units)
    origin = picture.attacked_from.get(province)
    return [
        target
        for target in board.targets(unit.kind, unit.location)
        if (there := board.province_of(target)) not in occupied
        and there != origin
        and there not in picture.standoffs
        and max(picture.presence.get(there, {}).values(), default=0.0) < 1.0
    ]


class _Planner:
    """One movement phase's orders for the picture's power, unit by unit."""

    def __init__(self, picture: Picture, values: Values, weights: Weights, rng: random.Random) -> None:
        self.picture = picture
        self.board = picture.state.board
        self.values = values
        self.weights = weights
        self.rng = rng
        self.units = {unit.province: unit for unit in picture.state.units_of(picture.power)}
        #: Each ordered unit's order, by its province.
        self.orders: dict[str, Order] = {}
        #: Where each ordered unit will be (its target, or its own province): the provinces
        #: taken, with the unit taking each.
        self.claimed: dict[str, str] = {}
        self.deciding: set[str] = set()
        #: The convoy routes (fleets' provinces) of the army being decided, by landing.
        self.routes: dict[str, tuple[str, ...]] = {}

    def plan(self) -> list[Order]:
        provinces = sorted(self.units)
        self.rng.shuffle(provinces)
        # Armies a convoy could carry choose first, while the fleets are free: what a
        # convoy costs the fleets is weighed in its value.
        provinces.sort(key=lambda p: self.units[p].kind != "A" or not self.convoy_routes(self.units[p]))
        for province in provinces:
            self.decide(province)
        self.add_supports()
        if self.weights.reinforce > 0:
            self.reinforce()
        return [self.orders[province] for province in sorted(self.orders)]

    def candidates(self, unit: Unit) -> list[tuple[float, str]]:
        """The unit's destinations (its own location for a hold), best first."""
        scored = [(self.values.of(unit.kind, unit.location), unit.location)]
        for target in self.board.targets(unit.kind, unit.location):
            scored.append((self.values.of(unit.kind, target), target))
        if unit.kind == "A":
            self.routes = self.convoy_routes(unit)
            for landing, route in sorted(self.routes.items()):
                value = self.values.of("A", landing)
                cost = sum(self.fleet_cost(fleet) for fleet in route) + CONVOY_RISK * abs(value)
                scored.append((value - cost, landing))
        scored.sort(key=lambda pair: (-pair[0], pair[1]))
        return scored

    def usable_fleet(self, province: str) -> bool:
        """Whether the own unit in ``province`` is a fleet at sea free to convoy: not yet
        ordered (nor being decided), or left holding."""
        unit = self.units.get(province)
        if unit is None or unit.kind != "F" or province not in self.board.sea_provinces:
            return False
        if province in self.deciding:
            return False
        order = self.orders.get(province)
        return order is None or isinstance(order, Hold)

    def fleet_cost(self, province: str) -> float:
        """What convoying costs the fleet in ``province``: the best move it gives up."""
        if province in self.orders:
            return 0.0
        unit = self.units[province]
        here = self.values.of("F", unit.location)
        best = max((self.values.of("F", t) for t in self.board.targets("F", unit.location)), default=here)
        return max(0.0, best - here)

    def convoy_routes(self, army: Unit) -> dict[str, tuple[str, ...]]:
        """The coastal provinces the army could be convoyed to by the power's free fleets at
        sea (and not reach by land), each with its shortest route of fleets."""
        board = self.board
        by_land = {board.province_of(t) for t in board.targets("A", army.location)}
        first = [
            p
            for p in sorted(self.units)
            if self.usable_fleet(p) and army.province in board.reachable_provinces("F", self.units[p].location)
        ]
        routes: dict[str, tuple[str, ...]] = {}
        frontier: list[tuple[str, ...]] = [(p,) for p in first]
        seen = set(first)
        while frontier:
            after: list[tuple[str, ...]] = []
            for route in frontier:
                reach = board.reachable_provinces("F", self.units[route[-1]].location)
                for province in sorted(reach):
                    if province in board.sea_provinces:
                        if province not in seen and len(route) < CONVOY_FLEETS and self.usable_fleet(province):
                            seen.add(province)
                            after.append((*route, province))
                    elif (
                        province != army.province
                        and province not in by_land
                        and province not in routes
                        and board.can_hold("A", province)
                    ):
                        routes[province] = route
            frontier = after
        return routes

    def pick_order(self, scored: list[tuple[float, str]]) -> list[str]:
        """The destinations in the order they are tried: now and then a nearly-as-good one
        first, as DumbBot does, so the same position does not always give the same orders."""
        start = 0
        best = scored[0][0]
        margin = self.weights.closeness * max(abs(best), 1.0)
        while (
            start + 1 < len(scored)
            and best - scored[start + 1][0] <= margin
            and self.rng.random() < self.weights.alternative
        ):
            start += 1
        places = [place for _, place in scored]
        return [places[start], *places[:start], *places[start + 1 :]]

    def decide(self, province: str) -> None:
        if province in self.orders or province in self.deciding:
            return
        self.deciding.add(province)
        unit = self.units[province]
        ref = UnitRef(unit.kind, unit.location)
        scored = self.candidates(unit)
        routes = dict(self.routes) if unit.kind == "A" else {}
        for target in self.pick_order(scored):
            there = self.board.province_of(target)
            if there == province:
                if there in self.claimed:
                    continue
                self.orders[province] = Hold(ref)
                self.claimed[there] = province
                break
            if there in self.claimed:
                mover = self.claimed[there]
                order = self.orders[mover]
                if (
                    isinstance(order, Move)
                    and self.values.competition.get(there, 0.0) >= CONTESTED
                    and there in self.board.reachable_provinces(unit.kind, unit.location)
                ):
                    self.orders[province] = SupportMove(ref, order.unit, order.target)
                    self.claimed.setdefault(province, province)
                    break
                continue
            if there in self.units and there not in self.orders:
                # A fellow unit stands there: let it choose first, and follow it out.
                self.decide(there)
            if there in self.units:
                leaving = self.orders.get(there)
                if not isinstance(leaving, Move) or self.board.province_of(leaving.target) == province:
                    continue
            route = routes.get(target)
            if route is not None:
                if not all(self.usable_fleet(fleet) for fleet in route):
                    continue  # a fleet of the route was ordered elsewhere meanwhile
                for fleet in route:
                    ship = self.units[fleet]
                    self.orders[fleet] = Convoy(UnitRef("F", ship.location), ref, target)
                    self.claimed[fleet] = fleet
            # A landing the army cannot reach by land is written as a plain move, as the
            # engine's legal orders list it (``VIA`` only tells a convoy from a land move).
            self.orders[province] = Move(ref, target)
            self.claimed[there] = province
            break
        else:
            self.orders[province] = Hold(ref)
            self.claimed.setdefault(province, province)
        self.deciding.discard(province)

    def reinforce(self) -> None:
        """Turn a unit's move worth little into a support for a fellow's contested move worth
        more: a move that may meet a rival's unit bounces unless supported, and what the mover
        would lose is weighed against what the supporter gives up."""
        board = self.board
        values = self.values
        backing: dict[str, int] = {}
        for order in self.orders.values():
            if isinstance(order, SupportMove):
                there = board.province_of(order.target)
                backing[there] = backing.get(there, 0) + 1
        entered = {board.province_of(o.target) for o in self.orders.values() if isinstance(o, Move)}
        # Units whose moves a fellow supports or convoys: they must make them.
        relied = {
            o.supported.province if isinstance(o, SupportMove) else o.army.province
            for o in self.orders.values()
            if isinstance(o, (SupportMove, Convoy))
        }
        contested: list[tuple[float, str, Move]] = []
        for province, order in sorted(self.orders.items()):
            if not isinstance(order, Move):
                continue
            there = board.province_of(order.target)
            need = min(1.0, values.competition.get(there, 0.0)) - backing.get(there, 0)
            if need < CONTESTED:
                continue
            unit = self.units[province]
            stake = values.of(unit.kind, order.target) - values.of(unit.kind, unit.location)
            if stake <= 0:
                continue
            contested.append((need * stake, province, order))
        contested.sort(key=lambda item: (-item[0], item[1]))
        for gain, mover, move in contested:
            if self.orders[mover] != move:
                continue  # it was itself turned to a support meanwhile
            there = board.province_of(move.target)
            best: tuple[float, str] | None = None
            for province, order in sorted(self.orders.items()):
                if province == mover or isinstance(order, (Convoy, SupportMove, SupportHold)):
                    continue
                if province in relied or (province in entered and not isinstance(order, Hold)):
                    continue  # a fellow relies on its move, or follows it out
                unit = self.units[province]
                if there not in board.reachable_provinces(unit.kind, unit.location):
                    continue
                if values.competition.get(province, 0.0) >= 1.0:
                    continue  # its support would likely be cut
                loss = 0.0
                if isinstance(order, Move):
                    loss = values.of(unit.kind, order.target) - values.of(unit.kind, unit.location)
                if best is None or loss < best[0]:
                    best = (loss, province)
            if best is None or best[0] >= self.weights.reinforce * gain:
                continue
            province = best[1]
            unit = self.units[province]
            old = self.orders[province]
            if isinstance(old, Move):
                self.claimed.pop(board.province_of(old.target), None)
                entered.discard(board.province_of(old.target))
            self.orders[province] = SupportMove(UnitRef(unit.kind, unit.location), move.unit, move.target)
            self.claimed[province] = province
            relied.add(mover)

    def add_supports(self) -> None:
        """Units left holding support their fellows' contested moves (the most contested
        first), or a fellow holding under threat."""
        moves = [order for order in self.orders.values() if isinstance(order, Move)]
        backing: dict[str, int] = {}
        for order in self.orders.values():
            if isinstance(order, SupportMove):
                there = self.board.province_of(order.target)
                backing[there] = backing.get(there, 0) + 1
        for province in sorted(self.orders):
            if not isinstance(self.orders[province], Hold):
                continue
            unit = self.units[province]
            reach = self.board.reachable_provinces(unit.kind, unit.location)
            threat_here = self.values.competition.get(province, 0.0)
            best: tuple[float, SupportMove | SupportHold] | None = None
            for move in moves:
                there = self.board.province_of(move.target)
                need = self.values.competition.get(there, 0.0) - backing.get(there, 0)
                if there not in reach or need < CONTESTED:
                    continue
                if best is None or need > best[0]:
                    best = (need, SupportMove(UnitRef(unit.kind, unit.location), move.unit, move.target))
            if best is None:
                for other, order in sorted(self.orders.items()):
                    if other == province or other not in reach or not isinstance(order, Hold):
                        continue
                    need = self.values.competition.get(other, 0.0) - backing.get(other, 0)
                    if need >= 1.0 and (best is None or need > best[0]):
                        best = (need, SupportHold(UnitRef(unit.kind, unit.location), order.unit))
            # A unit under threat itself keeps holding: a support from it would be cut anyway.
            if best is not None and threat_here < 1.0:
                self.orders[province] = best[1]
                chosen = best[1]
                there = self.board.province_of(
                    chosen.target if isinstance(chosen, SupportMove) else chosen.supported.location
                )
                backing[there] = backing.get(there, 0) + 1


def full_picture(state: GameState, power: str) -> Picture:
    """The picture of ``power`` with every unit known (the search bot's sampled boards)."""
    presence = {province: {unit.power: 1.0} for province, unit in sorted(state.units.items()) if unit.power != power}
    fleets = {province: 1.0 if unit.kind == "F" else 0.0 for province, unit in state.units.items()}
    own_dislodged = {p: d for p, d in state.dislodged.items() if d.unit.power == power}
    return Picture(
        power,
        state,
        {p: d.unit for p, d in own_dislodged.items()},
        presence,
        fleets,
        {p: d.attacker_from for p, d in own_dislodged.items() if d.attacker_from is not None},
        frozenset(),
        {p: d.retreats for p, d in own_dislodged.items()},
    )


def state_orders(
    state: GameState, power: str, rules: Rules, rng: random.Random, tactics: Heuristic | None = None
) -> list[Order]:
    """The heuristic's orders for ``power`` with full information: the phase of ``state``
    (movement, retreats from ``state.dislodged``, or adjustments: builds in the power's free
    centres among ``state.homes``, removals of its worst-placed units). ``rules`` are the
    game's (kept for the caller's symmetry with :func:`~fogdip.bots.random_bot.random_orders`).

    >>> from fogdip.engine.rules import get_rules
    >>> orders = state_orders(GameState.initial(), "ENGLAND", get_rules(), random.Random(3))
    >>> sorted(str(order.unit) for order in orders)
    ['A LVP', 'F EDI', 'F LON']
    """
    del rules  # the orders are legal by the map; the adjudicator applies the rules
    tactics = tactics or Heuristic()
    picture = full_picture(state, power)
    kind = state.phase.kind
    if kind == "M":
        return tactics.movement(picture, rng)
    if kind == "R":
        return tactics.retreats(picture, rng)
    due = state.adjustment(power)
    if due == 0:
        return []
    own = {unit.province for unit in state.units.values()}
    sites = [c for c in state.homes.get(power, ()) if state.centers.get(c) == power and c not in own]
    return tactics.adjustments(picture, due, sites, rng)


__all__ = ["Heuristic", "full_picture", "state_orders"]
