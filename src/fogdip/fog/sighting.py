"""Fog of War Diplomacy (1976 rules): the ``sighting`` preset (seed 001).

"A player sees a foreign unit only if one of his own units could make a single legal move
(without convoy) to the foreign unit's exact location. A player always sees his own units,
too." No order of another power is ever shown; a power knows its own centres and no others.

An army stands on all coasts of its province, so it sights a fleet on any of them, and any
fleet that can reach any coast of a province sights an army there. Between two fleets the
coast must match exactly. The seed's fourth example, England's A GAS and France's F SPA/SC:

>>> from fogdip.engine import GameState, Unit
>>> state = GameState.initial().with_changes(
...     units={"GAS": Unit("ENGLAND", "A", "GAS"), "SPA": Unit("FRANCE", "F", "SPA/SC")})
>>> rules = SightingRules()
>>> [str(u) for u in rules.initial(state, "ENGLAND").units]
['A GAS', 'F SPA/SC']
>>> [str(u) for u in rules.initial(state, "FRANCE").units]
['F SPA/SC']

A fleet in the Barents Sea reaches only the north coast of St Petersburg: it sights an army
there, but not a fleet on the south coast.

>>> board = state.board
>>> barents = Unit("ENGLAND", "F", "BAR")
>>> sights(board, barents, "A", "STP"), sights(board, barents, "F", "STP/SC")
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass

from fogdip.engine.map import Map, UnitKind
from fogdip.engine.outcomes import Resolution
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit
from fogdip.fog.observation import Notice, SeenUnit
from fogdip.fog.rules import FogOptions, FogRules, own_notices
from fogdip.fog.sight import KeptOn, own_units, state_facts


@dataclass(frozen=True)
class SightingOptions(FogOptions):
    """Options of the ``sighting`` rules.

    ``dislodged_units_see``: a dislodged unit awaiting its retreat sights from the province it
    was driven from, as it did before the attack ("for sighting purposes ... it is considered
    to be visible from the space from which it was dislodged"). ``False`` lets it sight only
    the attacker standing in its own province.
    """

    dislodged_units_see: bool = True


def sights(board: Map, unit: Unit, kind: UnitKind, location: str) -> bool:
    """Whether ``unit`` could make a single legal move, without a convoy, to the exact
    location of a unit of ``kind`` on ``location``.

    An army is at every coast of its province, whichever side the army is on: an army sights
    a fleet on any coast of a province it can march into, and a fleet sights an army in a
    province if it can sail to any coast of it. Only fleet against fleet needs the coast.

    >>> from fogdip.engine import standard_map
    >>> board = standard_map()
    >>> gascony, paris = Unit("ENGLAND", "F", "GAS"), Unit("FRANCE", "A", "PAR")
    >>> sights(board, gascony, "A", "PAR"), sights(board, paris, "F", "GAS")
    (False, True)
    >>> sights(board, gascony, "A", "SPA"), sights(board, gascony, "F", "SPA/SC")
    (True, False)
    """
    if unit.kind == "A" or kind == "A":
        return board.province_of(location) in board.reachable_provinces(unit.kind, unit.location)
    return location in board.fleet_targets(unit.location)


def sighting_units(state: GameState, power: str, *, dislodged_units_see: bool = True) -> list[Unit]:
    """The power's units that sight: those on the board, and (by the option) its dislodged
    units from the province they were driven from."""
    facts = state_facts(state)
    units = list(facts.units.get(power, ()))
    if dislodged_units_see:
        units.extend(facts.dislodged.get(power, ()))
    return units


@dataclass(frozen=True)
class _Sighting:
    """What one power sights in one position: :meth:`SightingRules.visible_provinces`, the
    foreign units it sights and :meth:`SightingRules.units_seen`."""

    visible: frozenset[str]
    sighted: tuple[tuple[Unit, bool], ...]
    seen: tuple[SeenUnit, ...]


class _Position:
    """The units of one position that can be sighted, with where they stand, and what each
    power sights there (by the option): worked out once for all the powers.

    A dislodged unit is sighted where it was dislodged from: under legality by the map it
    always waits for the retreat phase (whether it has anywhere to go is found out only when
    its retreat is tried), and a unit the engine disbanded at once is not there to be seen."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        board = state.board
        self.candidates: list[tuple[Unit, bool]] = [(unit, False) for unit in state.units.values()]
        self.candidates.extend((d.unit, True) for d in state.dislodged.values())
        #: Each candidate's province, and its location's province on the map (``None``: not a
        #: location of the map, left to ``province_of`` to complain about if it is asked).
        self.places = [
            (unit.province, board.province_of(unit.location) if board.is_location(unit.location) else None)
            for unit, _ in self.candidates
        ]
        self.sightings: dict[tuple[str, bool], _Sighting] = {}


_positions: KeptOn[GameState, _Position] = KeptOn(_Position)


def _sighting(state: GameState, power: str, dislodged_units_see: bool) -> _Sighting:
    position = _positions(state)
    key = (power, dislodged_units_see)
    found = position.sightings.get(key)
    if found is None:
        found = position.sightings[key] = _sight(position, power, dislodged_units_see)
    return found


def _sight(position: _Position, power: str, dislodged_units_see: bool) -> _Sighting:
    state = position.state
    board = state.board
    sighters = sighting_units(state, power, dislodged_units_see=dislodged_units_see)
    beside = {unit.province for unit in own_units(state, power)}
    # sights() for all sighters at once, split by what they are: an army is sighted in any
    # province a sighter can move to; a fleet in a province an army sighter can move to, or on
    # a location (coast included) a fleet sighter can move to.
    reach: set[str] = set()
    army_reach: set[str] = set()
    fleet_reach: set[str] = set()
    for own in sighters:
        provinces = board.reachable_provinces(own.kind, own.location)
        reach |= provinces
        if own.kind == "A":
            army_reach |= provinces
        else:
            fleet_reach |= board.fleet_targets(own.location)
    sighted: list[tuple[Unit, bool]] = []
    for (unit, dislodged), (province, where) in zip(position.candidates, position.places, strict=True):
        if unit.power == power:
            continue
        if province in beside:
            sighted.append((unit, dislodged))
        elif sighters:
            if where is None:
                where = board.province_of(unit.location)
            if unit.kind == "A":
                seen = where in reach
            else:
                seen = where in army_reach or unit.location in fleet_reach
            if seen:
                sighted.append((unit, dislodged))
    facts = state_facts(state)
    seen_as = facts.seen_as  # seen_unit() of each, made once for all the powers
    units = [seen_as[unit, False] for unit in facts.units.get(power, ())]
    units.extend(seen_as[unit, True] for unit in facts.dislodged.get(power, ()))
    units.extend(seen_as[unit, dislodged] for unit, dislodged in sighted)
    return _Sighting(frozenset(beside | reach), tuple(sighted), tuple(units))


class SightingRules(FogRules):
    """Sight by legal single moves, no foreign orders, own centres only.

    >>> from fogdip.engine import GameState, adjudicate, get_rules
    >>> by_map = get_rules().with_options(legality="map")  # as in every fog game
    >>> record = adjudicate(GameState.initial(), {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]}, by_map)
    >>> seen = SightingRules().observe(record, "FRANCE")
    >>> from fogdip.fog.report import order_line
    >>> [order_line(o, "FRANCE") for o in seen.orders if o.province == "PAR"]
    ['A PAR - BUR (fails)']
    >>> {o.power for o in seen.orders}, [str(u) for u in seen.units if u.owner != "FRANCE"]
    ({'FRANCE'}, [])
    >>> [f"{u.owner} {u}" for u in SightingRules().observe(record, "ITALY").units if u.owner != "ITALY"]
    ['AUSTRIA F TRI']
    """

    name = "sighting"
    seed = "001"
    title = "Fog of War Diplomacy (1976 rules)"
    summary = (
        "a foreign unit is seen only where one of your units could make a single legal move, "
        "without convoy, to its exact location; no foreign orders; own centres only"
    )
    Options = SightingOptions
    options: SightingOptions

    def visible_provinces(self, state: GameState, power: str) -> frozenset[str]:
        """Where a foreign unit would be seen: the provinces of the power's own units and every
        province one of its sighting units could move to without a convoy (any coast).

        In a two-coast province that the power's fleets reach on one coast only, a foreign
        fleet on the other coast is still unseen (see :func:`sights`)."""
        return _sighting(state, power, self.options.dislodged_units_see).visible

    def sees_unit_at(self, state: GameState, power: str, kind: UnitKind, location: str) -> bool:
        """Whether a foreign unit of ``kind`` on exactly ``location`` would be sighted: from a
        province the power's own unit stands in, or by one of its sighting units' single legal
        moves (:func:`sights`). A fleet on SPA/SC is not sighted by F GAS, an army in SPA is.

        >>> from fogdip.engine import GameState, Unit
        >>> state = GameState.initial().with_changes(units={"GAS": Unit("FRANCE", "F", "GAS")})
        >>> rules = SightingRules()
        >>> [rules.sees_unit_at(state, "FRANCE", k, loc) for k, loc in (("F", "SPA/NC"), ("F", "SPA/SC"), ("A", "SPA"))]
        [True, False, True]
        """
        board = state.board
        if board.province_of(location) in {unit.province for unit in own_units(state, power)}:
            return True
        sighters = sighting_units(state, power, dislodged_units_see=self.options.dislodged_units_see)
        return any(sights(board, unit, kind, location) for unit in sighters)

    def units_seen(self, state: GameState, power: str, visible: frozenset[str]) -> list[SeenUnit]:
        """The power's own units and the foreign units it sights, each with owner, type and
        coast. ``visible`` is not enough here: it cannot say which coast is in sight."""
        return list(_sighting(state, power, self.options.dislodged_units_see).seen)

    # Orders: the base's, the power's own with full results and nobody else's ("a player sees
    # neither every unit on the board, nor any player's orders"), as written: judged by the map
    # alone, a unit the power names is never completed with what it did not see.

    def centers_known(self, state: GameState, power: str, visible: frozenset[str]) -> dict[str, str]:
        """Its own centres only: "the GM provides each player with information about which
        supply centers he controls"."""
        return {center: owner for center, owner in state.centers.items() if owner == power}

    def notices(self, resolution: Resolution, power: str) -> list[Notice]:
        """Its rejected orders, centres gained and lost, and its dislodged units without the
        attack's origin: "the retreating player will see the attacking unit, but not
        necessarily know the space from which the attack came"."""
        return own_notices(resolution, power, attack_origin=False)
