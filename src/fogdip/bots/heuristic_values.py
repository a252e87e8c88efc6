"""What each place on the board is worth to a power: the heuristic's evaluation, after the
idea of DumbBot (David Norman's published algorithm), written afresh and fed by a belief.

1. **Base values.** A supply centre another power owns is worth that power's size (bigger
   powers are better to take from, as DumbBot does: ``a*c² + b*c + k`` for ``c`` centres;
   here ``a = 0`` by default: measured, a size growing gently leaves fewer centres to a weak
   power than DumbBot's square, and takes as many from random players); a centre nobody is
   known to own, a fixed amount; one of the power's own centres, the size of the strongest
   enemy believed next to it (what it would lose). Other provinces start at 0.
2. **Proximity.** The base values flow over several levels to neighbours: level ``i`` of a
   place is the mean of level ``i-1`` over the place and its neighbours, by the adjacency of
   the unit type standing there (an army's and a fleet's reach differ, and a fleet's coast
   matters), so a place near many valuable places is valuable.
3. **Destination value.** The levels weighted (Spring favours the places next to centres,
   Fall the centres themselves, as centres change hands after Fall), plus the power's own
   strength that can reach the province (supports), minus the competition: the most units of
   any one foreign power believed able to reach it — from the belief's ``presence``, not an
   empty board.

What the belief says of foreign units counts where it decides something: a foreign unit
competes fully for (and threatens) the places it is likely to go, the centres its power does
not hold and the centre it stands on, and a third as much elsewhere (``aim``); a centre to
take that no foreign unit is believed able to reach or hold is worth several times one that
is guarded (``unguarded``), so units go where the rivals are not.

>>> from fogdip.game import Game
>>> from fogdip.bots.base import BotInput
>>> from fogdip.bots.picture import picture_of
>>> values = evaluate(picture_of(BotInput.of(Game.create("standard"), "FRANCE")), Weights())
>>> values.province["BUR"] > values.province["NAO"], values.province["SPA"] > values.province["SYR"]
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from fogdip.bots.picture import UNKNOWN, Picture
from fogdip.engine.map import Map, UnitKind, get_map


@dataclass(frozen=True)
class Weights:
    """The heuristic's settings: how strongly each part of the evaluation counts."""

    #: Proximity levels' weights in Spring (before a Fall: be next to centres) and in Fall.
    spring_levels: tuple[float, ...] = (100.0, 1000.0, 30.0, 10.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0)
    fall_levels: tuple[float, ...] = (1000.0, 100.0, 30.0, 10.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0)
    #: How much taking (attack) and keeping (defence) count, by season.
    spring_attack: float = 0.7
    spring_defence: float = 0.2
    fall_attack: float = 0.6
    fall_defence: float = 0.5
    #: A power's size for ``c`` centres: ``size_a*c² + size_b*c + size_k``.
    size_a: float = 0.0
    size_b: float = 2.0
    size_k: float = 16.0
    #: What a centre nobody is known to own is worth, as the size of a power of this many.
    neutral_as: float = 3.0
    #: Own strength and foreign competition, as shares of the typical value around.
    strength: float = 0.1
    competition: float = 0.05
    #: A foreign unit believed in the province itself (it would bounce a lone attack), as a
    #: share of the typical value.
    occupation: float = 0.3
    #: How much a foreign unit only believed in (not seen) counts in the competition for a
    #: province and in its occupation, against a seen one: a guess should not stop a move as
    #: a seen unit does (own centres are still defended against the whole belief).
    believed: float = 0.5
    #: How much more likely a foreign unit is taken to go to a centre it can take than
    #: elsewhere, in the competition and danger it makes (0: alike everywhere).
    aim: float = 2.0
    #: How much more a centre to take is worth where no foreign unit is believed able to
    #: reach or hold it (0: no more).
    unguarded: float = 6.0
    #: The pull toward the nearest centre the power does not own, per step of distance, as a
    #: share of the typical value: units far behind the front march to it rather than hold.
    march: float = 0.05
    #: Supports for contested moves: a unit's move is given up for a support of a fellow's
    #: move into a province a rival may also enter when what it gives up is less than this
    #: share of what the fellow would lose by a bounce (0: never).
    reinforce: float = 8.0
    #: The chance of passing over the best destination for the next, where it is nearly as good.
    alternative: float = 0.3
    #: How close "nearly as good" is, as a share of the best value.
    closeness: float = 0.1

    def size(self, centers: float) -> float:
        return self.size_a * centers * centers + self.size_b * centers + self.size_k


@dataclass(frozen=True)
class Graph:
    """One unit type's places on a map (locations it may stand on) and their neighbours."""

    kind: UnitKind
    locations: tuple[str, ...]
    provinces: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]
    index: Mapping[str, int]


@lru_cache(maxsize=32)
def graph(map_name: str, kind: UnitKind) -> Graph:
    """The places a unit of ``kind`` may stand on in the named map, with their neighbours."""
    board = get_map(map_name)
    locations = tuple(sorted(loc for loc in board.locations if board.can_hold(kind, loc)))
    index = {loc: i for i, loc in enumerate(locations)}
    neighbours = tuple(tuple(sorted(index[t] for t in board.targets(kind, loc) if t in index)) for loc in locations)
    provinces = tuple(board.province_of(loc) for loc in locations)
    return Graph(kind, locations, provinces, neighbours, MappingProxyType(index))


@dataclass(frozen=True)
class Values:
    """The evaluation of a picture: destination values by unit type and location, the best by
    province, and each province's own strength and foreign competition."""

    by_site: dict[UnitKind, dict[str, float]]
    province: dict[str, float]
    strength: dict[str, float]
    competition: dict[str, float]
    #: The largest foreign presence believed in each province (a unit that would bounce us).
    occupied: dict[str, float]

    def of(self, kind: UnitKind, location: str) -> float:
        """The value of a unit of ``kind`` on (or moving to) ``location``."""
        site = self.by_site[kind].get(location)
        if site is not None:
            return site
        return self.province.get(location.partition("/")[0], 0.0)


def evaluate(picture: Picture, weights: Weights, *, fall: bool | None = None) -> Values:
    """The destination values of ``picture`` for its power; ``fall``: weigh as for a Fall
    movement (default: by the picture's phase; a Fall retreat or an adjustment weighs as Spring)."""
    state, power = picture.state, picture.power
    board = state.board
    if fall is None:
        fall = state.phase.season == "F" and state.phase.kind == "M"
    counts: dict[str, int] = {}
    for owner in state.centers.values():
        counts[owner] = counts.get(owner, 0) + 1
    # Foreign units believed next to (or in) each province, per power.
    threat = _threat(board, picture.presence, power, weights.aim, state.centers)
    sure = _discounted(picture.presence, frozenset(state.units), weights.believed)
    competition_all = _threat(board, sure, power, weights.aim, state.centers)
    competition = {province: max(by_power.values(), default=0.0) for province, by_power in competition_all.items()}
    strength: dict[str, float] = {}
    for unit in sorted(state.units_of(power), key=lambda u: u.location):
        for province in board.reachable_provinces(unit.kind, unit.location):
            strength[province] = strength.get(province, 0.0) + 1.0
    attack_w = weights.fall_attack if fall else weights.spring_attack
    defence_w = weights.fall_defence if fall else weights.spring_defence
    neutral = weights.size(weights.neutral_as)
    base: dict[str, float] = {}
    for center in sorted(board.center_set):
        owner = state.centers.get(center, "")
        if owner == power:
            near = threat.get(center, {})
            danger = max((weights.size(counts.get(q, 3)) * min(1.0, mass) for q, mass in near.items()), default=0.0)
            base[center] = defence_w * danger
        else:
            worth = attack_w * (weights.size(counts.get(owner, 0)) if owner else neutral)
            if weights.unguarded:
                guard = min(1.0, sum(competition_all.get(center, {}).values()))
                worth *= 1.0 + weights.unguarded * (1.0 - guard)
            base[center] = worth
    levels = weights.fall_levels if fall else weights.spring_levels
    by_site: dict[UnitKind, dict[str, float]] = {}
    province_best: dict[str, float] = {}
    raw: dict[UnitKind, list[float]] = {}
    occupied = {
        province: sum(mass for owner, mass in owners.items() if owner != power) for province, owners in sure.items()
    }
    kinds: tuple[UnitKind, ...] = ("A", "F")
    for kind in kinds:
        g = graph(board.name, kind)
        current = [base.get(p, 0.0) for p in g.provinces]
        total = [levels[0] * value for value in current]
        for weight in levels[1:]:
            current = [
                (current[i] + sum(current[j] for j in near)) / (1 + len(near)) for i, near in enumerate(g.neighbours)
            ]
            for i, value in enumerate(current):
                total[i] += weight * value
        raw[kind] = total
    typical = _typical(raw)
    goals = frozenset(center for center in board.center_set if state.centers.get(center) != power)
    for kind, total in raw.items():
        g = graph(board.name, kind)
        distance = _distances(g, goals)
        sites: dict[str, float] = {}
        for i, location in enumerate(g.locations):
            province = g.provinces[i]
            value = total[i] + typical * (
                weights.strength * strength.get(province, 0.0)
                - weights.competition * competition.get(province, 0.0)
                - weights.occupation * occupied.get(province, 0.0)
                - weights.march * distance[i]
            )
            sites[location] = value
            if value > province_best.get(province, float("-inf")):
                province_best[province] = value
        by_site[kind] = sites
    for province in board.provinces:
        province_best.setdefault(province, 0.0)
    return Values(by_site, province_best, strength, competition, occupied)


def _distances(g: Graph, goals: frozenset[str]) -> list[int]:
    """Steps from each place of ``g`` to the nearest place in a province of ``goals``
    (a place that reaches none: as far as the graph is large)."""
    far = len(g.locations)
    distance = [far] * far
    frontier = [i for i, province in enumerate(g.provinces) if province in goals]
    for i in frontier:
        distance[i] = 0
    while frontier:
        after: list[int] = []
        for i in frontier:
            for j in g.neighbours[i]:
                if distance[j] == far:
                    distance[j] = distance[i] + 1
                    after.append(j)
        frontier = after
    return [min(d, 8) for d in distance]


def _typical(raw: dict[UnitKind, list[float]]) -> float:
    """The typical size of a destination value: the scale strength and competition count in."""
    values = sorted(value for total in raw.values() for value in total)
    if not values:
        return 0.0
    # The upper quartile: the places units are drawn to, not the empty seas.
    return max(1.0, values[(3 * len(values)) // 4])


def _discounted(
    presence: Mapping[str, Mapping[str, float]], seen: frozenset[str], weight: float
) -> dict[str, dict[str, float]]:
    """``presence`` with the mass of provinces where no unit is seen scaled by ``weight``."""
    if weight == 1.0:
        return {province: dict(owners) for province, owners in presence.items()}
    return {
        province: {owner: mass * (1.0 if province in seen else weight) for owner, mass in owners.items()}
        for province, owners in presence.items()
    }


def _threat(
    board: Map,
    presence: Mapping[str, Mapping[str, float]],
    power: str,
    aim: float = 0.0,
    centers: Mapping[str, str] | None = None,
) -> dict[str, dict[str, float]]:
    """For each province, the foreign units believed able to move into (or hold) it, per
    power; units of an unknown owner count with each power's, as the worst case.

    ``aim`` above 0: a unit counts fully only where it is likely to go, a centre its owner
    does not hold (or the centre it stands on); elsewhere by how its other choices compare
    (a unit next to a centre it can take goes there more often than to an empty sea)."""
    out: dict[str, dict[str, float]] = {}
    owned = centers or {}
    for province, owners in sorted(presence.items()):
        around = board.around[province]
        for owner, mass in owners.items():
            if owner == power:
                continue
            shares = _aims(board, province, around, owner, owned, aim)
            for target in around:
                here = out.setdefault(target, {})
                here[owner] = here.get(owner, 0.0) + mass * shares.get(target, 1.0)
    for here in out.values():
        unknown = here.pop(UNKNOWN, 0.0)
        if unknown:
            if here:
                for owner in here:
                    here[owner] += unknown
            else:
                here[UNKNOWN] = unknown
    return out


def _aims(
    board: Map, province: str, around: frozenset[str], owner: str, centers: Mapping[str, str], aim: float
) -> dict[str, float]:
    """How much a unit of ``owner`` in ``province`` counts in the competition for each place
    it may reach: 1 for its likeliest, less for the rest (``aim`` 0: 1 everywhere)."""
    if aim <= 0.0:
        return {}
    weight: dict[str, float] = {}
    for target in around:
        if target == province:
            lure = target in board.center_set
        else:
            lure = target in board.center_set and (owner == UNKNOWN or centers.get(target) != owner)
        weight[target] = 1.0 + aim * lure
    top = max(weight.values())
    return {target: w / top for target, w in weight.items()}


__all__ = ["Graph", "Values", "Weights", "evaluate", "graph"]
