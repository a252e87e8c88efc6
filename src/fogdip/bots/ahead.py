"""Orders filed ahead in a combined turn: retreat guesses, adjustments, conditional lines.

Sighting (seed 001) files the Fall's retreats and the Winter's adjustments with the movement
orders, without knowing yet who will be dislodged or what the Fall will bring:

- **retreat guesses**: for each own unit a foreign unit stands next to (it may be dislodged),
  the places it could retreat to that no unit stands in now, the tactics' own choice first,
  then the best by worth (two guesses: the second is used if the first is taken);
- **builds** for the centres the power expects to gain: each is conditional on the move that
  would take the centre (``IF A BUR - BEL THEN A PAR B``: a power always knows its own moves),
  on a centre it may build in that will be free; builds beyond those due are skipped by the
  engine, so a build filed for a gain that does not happen costs nothing;
- **a removal** if it may lose a centre (an own centre a foreign unit stands next to and no
  own unit keeps): of the unit the tactics would remove, written where it will stand,
  ``IF A PAR - BUR THEN A BUR D`` and ``IF NOT A PAR - BUR THEN A PAR D``; a removal when none
  is owed is skipped by the engine.

>>> from fogdip.engine.orders import Build, UnitRef
>>> from fogdip.variants.lines import Movement
>>> str(Conditional((Movement(UnitRef("A", "BUR"), "BEL"),), Build(UnitRef("A", "PAR"))))
'IF A BUR - BEL THEN A PAR B'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from fogdip.bots.extras import MovementOrder, foreign_near, unit_moves
from fogdip.bots.picture import Picture
from fogdip.bots.tactics import Tactics
from fogdip.engine.orders import Build, Disband, Move, Order, Retreat, UnitRef
from fogdip.engine.units import Unit
from fogdip.variants.lines import Condition, Movement, Negation

#: Retreat guesses filed per unit that may be dislodged.
_GUESSES = 2
#: Foreign units believed next to a unit for it to be at risk (a unit seen counts 1), and
#: believed in a place for it to be no place to retreat to.
_AT_RISK = 0.5


@dataclass(frozen=True)
class Conditional:
    """``IF <condition> [AND <condition>]... THEN <order>``: an order filed ahead that is used
    only if its conditions hold when its sub-phase comes."""

    conditions: tuple[Condition, ...]
    order: Order

    def __str__(self) -> str:
        return f"IF {' AND '.join(str(condition) for condition in self.conditions)} THEN {self.order}"


#: A line filed ahead: a plain order of a later sub-phase, or a conditional one.
AheadOrder = Order | Conditional


def _own(picture: Picture) -> list[Unit]:
    return sorted(picture.state.units_of(picture.power), key=lambda unit: unit.province)


def retreat_guesses(picture: Picture, orders: Sequence[MovementOrder], worth: Mapping[str, float]) -> list[Retreat]:
    """Guesses for each own unit that may be dislodged (a foreign unit is believed next to
    it): the places no unit is believed in and no own unit is moving to, best first by worth
    (the tactics' values: asking the tactics for a retreat of each unit at risk would cost a
    whole evaluation more, for the same ranking)."""
    board, state = picture.state.board, picture.state
    taken = {board.province_of(move.target) for move in unit_moves(orders).values()}
    places: dict[str, list[str]] = {}
    for unit in _own(picture):
        if foreign_near(picture, unit.province) < _AT_RISK:
            continue
        free = [
            target
            for target in sorted(board.targets(unit.kind, unit.location))
            if (province := board.province_of(target)) not in state.units
            and province not in taken
            and sum(picture.presence.get(province, {}).values()) < _AT_RISK
        ]
        if free:
            places[unit.province] = free
    out: list[Retreat] = []
    for province, free in sorted(places.items()):
        unit = state.units[province]
        ranked = sorted(free, key=lambda p: (-worth.get(board.province_of(p), 0.0), p))
        ref = UnitRef(unit.kind, unit.location)
        out.extend(Retreat(ref, target) for target in ranked[:_GUESSES])
    return out


def adjustments_ahead(
    picture: Picture,
    orders: Sequence[MovementOrder],
    tactics: Tactics,
    any_owned_center: bool,
    rng: random.Random,
) -> list[AheadOrder]:
    """The Winter's builds and removals, filed with the Fall's movement orders."""
    state, board, power = picture.state, picture.state.board, picture.power
    moves = unit_moves(orders)
    own = _own(picture)
    centers = sorted(c for c, owner in state.centers.items() if owner == power)
    supply_centers = frozenset(board.supply_centers)
    gains = [
        move
        for _province, move in sorted(moves.items())
        if (target := board.province_of(move.target)) in supply_centers and state.centers.get(target) != power
    ]
    kept = {unit.province for unit in own if unit.province not in moves}
    at_risk = [c for c in centers if c not in kept and foreign_near(picture, c) >= _AT_RISK]
    out: list[AheadOrder] = []
    # Builds: those already due (centres left unbuilt), then one per gain, each conditional.
    allowed = centers if any_owned_center else [c for c in state.homes.get(power, ()) if c in centers]
    free = [c for c in allowed if c not in state.units] + [c for c in allowed if c in moves]
    already = max(0, len(centers) - len(own))
    wanted = already + len(gains)
    chosen = tactics.adjustments(picture, wanted, free, rng) if wanted and free else []
    builds = [order for order in chosen if isinstance(order, Build)]
    out.extend(builds[:already])
    for move, build in zip(gains, builds[already:], strict=False):
        out.append(Conditional((Movement(move.unit, move.target),), build))
    # Removals: those already owed (more units than centres), and one more if a centre may be lost.
    owed = max(len(own) - len(centers), 0) + (1 if at_risk else 0)
    if owed and own:
        removals = [order for order in tactics.adjustments(picture, -owed, (), rng) if isinstance(order, Disband)]
        for removal in removals[:owed]:
            out.extend(_removal_where_it_stands(removal.unit, moves.get(removal.unit.province)))
    return out


def _removal_where_it_stands(unit: UnitRef, move: Move | None) -> list[AheadOrder]:
    """A removal of ``unit`` written where it will be once the Fall is played."""
    if move is None:
        return [Disband(unit)]
    moved: Condition = Movement(move.unit, move.target)
    return [
        Conditional((moved,), Disband(UnitRef(unit.kind, move.target))),
        Conditional((Negation(moved),), Disband(unit)),
    ]


__all__ = ["AheadOrder", "Conditional", "adjustments_ahead", "retreat_guesses"]
