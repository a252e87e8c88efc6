"""The variants' extra movement orders, where the options allow them and they pay.

- **Espionage** (``F NTH E FRANCE``): the spying unit holds, so it is a unit the tactics left
  holding (or, on the year's last chance, one that only supports) that spies, on the power
  whose units matter most around it; within the allowance (``espionage_limit``), counted from
  the power's own reports.
- **Peek-a-sneak** (``PAS NTH``): free news, so one every season it is allowed (from
  ``peek_from_year``), on the most valuable province next to its own units that it cannot see.
- **Disband in movement** (``A MUN DB``): rarely: a unit off its own centres with no own unit
  that could support it is disbanded rather than left to be destroyed when it is hopelessly
  pressed (evidence of two foreign units around it: the belief, an espionage against the
  power that found it, its own move failing; and at most one way out) or stranded (two or
  more spaces from every own centre, and pressed at all).

Beside them, a **convoy** where the tactics left an army and a fleet at sea with nothing
better to do (:func:`add_convoys`): a player's order the tactics may not think of.

>>> from fogdip.engine.map import standard_map
>>> from fogdip.engine.orders import Hold
>>> str(Espionage(UnitRef("F", "NTH"), "FRANCE")), str(Peek("BUR")), str(DisbandNow(UnitRef("A", "MUN")))
('F NTH E FRANCE', 'PAS BUR', 'A MUN DB')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from fogdip.bots.base import BotInput
from fogdip.bots.picture import Picture
from fogdip.engine.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove, UnitRef
from fogdip.engine.units import Unit
from fogdip.fog.masked import OrderKind
from fogdip.fog.observation import Observation
from fogdip.variants.espionage import DisbandNow, Espionage, ExtraOrder, Peek

#: An order a movement phase may carry: the engine's, or a variant's extra one.
MovementOrder = Order | ExtraOrder

#: How much more than where it stands a convoyed army's landing must be worth.
_CONVOY_GAIN = 0.3
#: Espionage orders a power gives in one season at most when the allowance is unlimited.
_UNLIMITED_SPIES = 2
#: How much a foreign unit believed next to the spy counts, against a centre of that power
#: within two spaces.
_UNIT_NEAR, _CENTER_NEAR = 2.0, 0.5
#: Evidence of foreign units around a unit that makes it hopeless, with no own unit to
#: support it and at most this many ways out.
_HOPELESS, _FEW_EXITS = 2.0, 1
#: A unit this many spaces from every own centre is stranded: pressed at all, it is lost.
_STRANDED = 2


def report_year(report: Observation) -> int:
    """The year of the movement a report answers (a Winter and Spring turn's is the
    Spring's): the year of the phase it leads to, or of its own at the end of the game."""
    name = report.next_phase if report.next_phase[1:5].isdigit() else report.phase
    return int(name[1:5])


def espionage_used(given: BotInput, year: int) -> int:
    """Espionage orders the power's own reports show it gave for movements of ``year``."""
    return sum(
        1
        for report in given.reports
        if report_year(report) == year
        for seen in report.orders
        if seen.power == given.power and seen.order.kind == OrderKind.ESPIONAGE
    )


def add_extras(
    given: BotInput,
    picture: Picture,
    orders: Sequence[MovementOrder],
    worth: Mapping[str, float],
    rng: random.Random,
    *,
    last_chance: bool,
) -> list[MovementOrder]:
    """``orders`` (one per unit of ``picture.state``'s power, for the movement of
    ``picture.state.phase``) with the extra orders that pay put in. ``last_chance``: this is
    the last movement of the year in which an espionage may be given."""
    options = given.variant.options
    out = list(orders)
    year = picture.state.phase.year
    if options.disband_in_movement:
        out = _disband_hopeless(given, picture, out)
    if options.espionage:
        if options.espionage_limit == "year":
            allowance = 1 - espionage_used(given, year)
        else:
            allowance = 1 if options.espionage_limit == "season" else _UNLIMITED_SPIES
        out = _spy(picture, out, allowance, rng, last_chance=last_chance)
    if options.peek and year >= options.peek_from_year:
        peek = _peek(given, picture, worth, rng)
        if peek is not None:
            out.append(peek)
    return out


def add_convoys(
    picture: Picture, orders: Sequence[MovementOrder], worth_fn: Callable[[], Mapping[str, float]]
) -> list[MovementOrder]:
    """``orders`` with idle pairs put to work: an army the tactics left holding (or supporting
    a hold, or moving by land somewhere worth less) on a coast, beside a fleet at sea that the tactics left holding, supporting a hold
    or only repositioning (a move to a province that is no centre, that no other unit
    supports), is convoyed to the most valuable coastal province that fleet reaches and the
    army cannot reach by land, where that is worth clearly more than where the army stands
    or was going (a unit another order relies on stays). ``worth_fn`` is called only if there is such a pair.

    >>> from fogdip.engine.map import standard_map
    >>> from fogdip.engine.state import GameState
    >>> from fogdip.engine.units import Phase, Unit
    >>> state = GameState.initial().with_changes(
    ...     phase=Phase("S", 1901, "M"), units={"YOR": Unit("ENGLAND", "A", "YOR"), "NTH": Unit("ENGLAND", "F", "NTH")}
    ... )
    >>> holds = [Hold(UnitRef("A", "YOR")), Move(UnitRef("F", "NTH"), "SKA")]
    >>> worth = {"YOR": 0.1, "NWY": 1.0, "BEL": 0.9}
    >>> [str(o) for o in add_convoys(Picture("ENGLAND", state), holds, lambda: worth)]
    ['A YOR - NWY VIA', 'F NTH C A YOR - NWY']
    """
    board, state = picture.state.board, picture.state
    relied_on = _referenced(orders)
    centers = frozenset(board.supply_centers)
    idle: set[str] = set()
    #: Where each army would be at the end of the tactics' own order: what a landing must beat.
    aim: dict[str, str] = {}
    for order in orders:
        if isinstance(order, (Hold, SupportHold)) or (
            isinstance(order, Move) and order.unit.kind == "F" and board.province_of(order.target) not in centers
        ):
            idle.add(order.unit.province)
        if isinstance(order, Move) and order.unit.kind == "A" and not order.via_convoy:
            idle.add(order.unit.province)
            aim[order.unit.province] = board.province_of(order.target)
    own = [unit for unit in _own(picture) if unit.province in idle and unit.province not in relied_on]
    fleets = [unit for unit in own if unit.kind == "F" and unit.province in board.sea_provinces]
    armies = [unit for unit in own if unit.kind == "A"]
    if not fleets or not armies:
        return list(orders)
    bound = {board.province_of(move.target) for move in unit_moves(orders).values()}
    worth = worth_fn()
    out = list(orders)
    for army in armies:
        for fleet in fleets:
            shore = board.reachable_provinces("F", fleet.location)
            # A fleet another own unit is moving in behind must leave: it is not idle.
            if army.province not in shore or fleet.province in bound:
                continue
            landings = [
                province
                for province in sorted(shore)
                if province != army.province
                and board.can_hold("A", province)
                and province not in board.army_targets(army.location)
                and province not in state.units
                and province not in bound
            ]
            best = max(landings, key=lambda p: (worth.get(p, 0.0), p), default=None)
            stay = max(worth.get(army.province, 0.0), worth.get(aim.get(army.province, army.province), 0.0))
            if best is None or worth.get(best, 0.0) < stay + _CONVOY_GAIN:
                continue
            army_ref = UnitRef("A", army.location)
            out = _replace(out, army.province, Move(army_ref, best, via_convoy=True))
            out = _replace(out, fleet.province, Convoy(UnitRef("F", fleet.location), army_ref, best))
            fleets.remove(fleet)
            bound.add(best)
            break
    return out


def _own(picture: Picture) -> list[Unit]:
    return sorted(picture.state.units_of(picture.power), key=lambda unit: unit.province)


def _unit_of(order: MovementOrder) -> UnitRef | None:
    return None if isinstance(order, Peek) else getattr(order, "unit", None)


def _referenced(orders: Sequence[MovementOrder]) -> set[str]:
    """Provinces of own units another order relies on (supported, convoyed)."""
    out: set[str] = set()
    for order in orders:
        other = getattr(order, "supported", None) or getattr(order, "army", None)
        if isinstance(other, UnitRef):
            out.add(other.province)
    return out


def _replace(orders: Sequence[MovementOrder], province: str, new: MovementOrder) -> list[MovementOrder]:
    return [new if (unit := _unit_of(order)) is not None and unit.province == province else order for order in orders]


def foreign_near(picture: Picture, province: str) -> float:
    """Foreign units believed next to ``province`` (seen ones count 1)."""
    presence = picture.presence
    return sum(
        chance
        for near in sorted(picture.state.board.adjacent_provinces(province))
        for owner, chance in sorted(presence.get(near, {}).items())
        if owner != picture.power
    )


def pressure(given: BotInput, picture: Picture) -> tuple[dict[str, float], frozenset[str]]:
    """For each own unit's province, the evidence of foreign units next to it: the picture's
    belief, each espionage against the power that found the unit (a foreign unit stands
    within one space), a move of the unit that failed last season (something stood in the
    way); and the provinces such failed moves were kept out of."""
    out = {unit.province: foreign_near(picture, unit.province) for unit in _own(picture)}
    blocked: set[str] = set()
    # The last movement's report: a retreat's report (deadman holds every one) tells nothing.
    recent = [report for report in given.reports[-2:] if report.orders]
    for report in recent[-1:]:
        for notice in report.notices_of("spied"):
            groups = notice.get("near")
            for group in groups if isinstance(groups, tuple) else ():
                for province in group if isinstance(group, tuple) else ():
                    if isinstance(province, str) and province in out:
                        out[province] += 1.0
        for seen in report.orders:
            order, result = seen.order, seen.result
            if seen.power != given.power or order.kind != OrderKind.MOVE or result is None or result.succeeded:
                continue
            if order.unit is not None and order.unit.province in out:
                out[order.unit.province] += 1.0
            if order.target is not None:
                blocked.add(picture.state.board.province_of(str(order.target)))
    return out, frozenset(blocked)


def _disband_hopeless(given: BotInput, picture: Picture, orders: list[MovementOrder]) -> list[MovementOrder]:
    board, state = picture.state.board, picture.state
    own = _own(picture)
    if len(own) < 2:
        return orders  # the last unit is never given up
    evidence, blocked = pressure(given, picture)
    own_centers = {center for center, owner in state.centers.items() if owner == picture.power}
    distance_from_centers = board.distances_from(tuple(sorted(own_centers))) if own_centers else {}
    for unit in own:
        if evidence.get(unit.province, 0.0) < 1.0 or unit.province in own_centers:
            continue
        helpers = [
            other
            for other in own
            if other != unit and unit.province in board.reachable_provinces(other.kind, other.location)
        ]
        exits = [
            target
            for target in sorted(board.targets(unit.kind, unit.location))
            if (province := board.province_of(target)) not in state.units
            and province not in blocked
            and sum(picture.presence.get(province, {}).values()) < 0.5
        ]
        # Hopeless: pressed hard with few ways out, or pressed and stranded far from home.
        stranded = distance_from_centers.get(unit.province, 99) >= _STRANDED
        if not helpers and (
            (evidence[unit.province] >= _HOPELESS and len(exits) <= _FEW_EXITS)
            or (stranded and evidence[unit.province] >= 1.0)
        ):
            return _replace(orders, unit.province, DisbandNow(UnitRef(unit.kind, unit.location)))
    return orders


def _target_scores(picture: Picture, unit: Unit) -> dict[str, float]:
    """How much spying on each other power from ``unit`` is worth."""
    state = picture.state
    board = state.board
    near = board.adjacent_provinces(unit.province)
    distance = board.distances_from((unit.province,))
    scores = {power: 0.0 for power in state.powers if power != picture.power}
    for province in sorted(near):
        for owner, chance in sorted(picture.presence.get(province, {}).items()):
            if owner in scores:
                scores[owner] += _UNIT_NEAR * chance
    for center in board.supply_centers:
        if distance.get(center, 99) > 2:
            continue
        holder = state.centers.get(center)
        if holder in scores:
            scores[holder] += _CENTER_NEAR
        for power, homes in state.homes.items():
            if power in scores and center in homes:
                scores[power] += _CENTER_NEAR / 2
    return scores


def _spy(
    picture: Picture, orders: list[MovementOrder], allowance: int, rng: random.Random, *, last_chance: bool
) -> list[MovementOrder]:
    if allowance <= 0:
        return orders
    relied_on = _referenced(orders)
    idle: list[UnitRef] = [order.unit for order in orders if isinstance(order, Hold)]
    if not idle and last_chance:
        idle = [
            order.unit
            for order in orders
            if isinstance(order, (SupportHold, SupportMove)) and order.unit.province not in relied_on
        ]
    units = {unit.province: unit for unit in _own(picture)}
    choices: list[tuple[float, float, str, str]] = []
    for ref in sorted(idle, key=lambda ref: ref.province):
        unit = units.get(ref.province)
        if unit is None:
            continue
        for power, score in sorted(_target_scores(picture, unit).items()):
            if score > 0:
                choices.append((score, rng.random(), ref.province, power))
    out = orders
    for _score, _draw, province, power in sorted(choices, reverse=True):
        if allowance <= 0:
            break
        if any(isinstance(order, Espionage) and order.unit.province == province for order in out):
            continue
        unit = units[province]
        out = _replace(out, province, Espionage(UnitRef(unit.kind, unit.location), power))
        allowance -= 1
    return out


def _peek(given: BotInput, picture: Picture, worth: Mapping[str, float], rng: random.Random) -> Peek | None:
    board, state = picture.state.board, picture.state
    own = _own(picture)
    seen = given.seen.visible
    candidates = sorted(
        {
            province
            for unit in own
            for province in board.reachable_provinces(unit.kind, unit.location)
            if province not in seen and province not in state.units
        }
    )
    if not candidates:
        return None
    best = max(candidates, key=lambda province: (worth.get(province, 0.0), rng.random()))
    return Peek(best)


def unit_moves(orders: Sequence[MovementOrder]) -> dict[str, Move]:
    """The moves among ``orders``, by the province of the unit moving."""
    return {order.unit.province: order for order in orders if isinstance(order, Move)}


__all__ = ["MovementOrder", "add_convoys", "add_extras", "espionage_used", "foreign_near", "report_year", "unit_moves"]
