"""Adjudicating an adjustment phase: builds, waives, removals and civil disorder.

Orders are carried out from first to last, skipping those that cannot be (DATC 4.D.4-4.D.6).
A power that orders too few removals loses units by its edition's civil-disorder rule (4.D.8).
"""

from __future__ import annotations

from collections import deque

from fogdip.engine.map import Map
from fogdip.engine.orders import Build, Disband, UnitRef, Waive
from fogdip.engine.outcomes import OrderResult, Outcome
from fogdip.engine.reasons import Reason, Why
from fogdip.engine.rules import Rules
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit
from fogdip.engine.validate import CheckedOrder


def resolve_adjustments(
    state: GameState, checked: list[CheckedOrder], rules: Rules
) -> tuple[list[OrderResult], dict[str, Unit], list[Unit], list[Unit]]:
    """Return order results, units after the phase, units built and units removed."""
    units = dict(state.units)
    built: list[Unit] = []
    removed: list[Unit] = []
    results: list[OrderResult] = []
    remaining = {power: state.adjustment(power) for power in state.powers}
    for entry in checked:
        power = entry.power
        if not entry.legal:
            results.append(
                OrderResult(
                    power,
                    entry.unit,
                    entry.order,
                    entry.text,
                    False,
                    False,
                    Outcome.ILLEGAL,
                    ("void",),
                    entry.reason,
                    written=entry.written,
                )
            )
            continue
        due = remaining[power]
        order = entry.order
        if isinstance(order, (Build, Waive)) and due <= 0:
            results.append(_failed(entry, Reason(Why.NO_BUILDS_LEFT, power=power)))
        elif isinstance(order, Disband) and due >= 0:
            results.append(_failed(entry, Reason(Why.NO_REMOVALS_LEFT, power=power)))
        elif isinstance(order, Build):
            assert entry.unit is not None
            province = entry.unit.province
            if province in units:
                results.append(_failed(entry, Reason(Why.BUILT_THERE_ALREADY, entry.unit, places=(province,))))
                continue
            units[province] = entry.unit
            built.append(entry.unit)
            remaining[power] = due - 1
            results.append(_done(entry, Outcome.BUILT, Reason(Why.BUILT, entry.unit)))
        elif isinstance(order, Waive):
            remaining[power] = due - 1
            results.append(_done(entry, Outcome.WAIVED, Reason(Why.WAIVED, power=power)))
        else:
            assert entry.unit is not None
            if units.get(entry.unit.province) != entry.unit:
                results.append(_failed(entry, Reason(Why.REMOVED_ALREADY, entry.unit)))
                continue
            del units[entry.unit.province]
            removed.append(entry.unit)
            remaining[power] = due + 1
            results.append(_done(entry, Outcome.REMOVED, Reason(Why.REMOVED, entry.unit)))
    for power, due in remaining.items():
        if due >= 0:
            continue
        own = [u for u in units.values() if u.power == power]
        for unit in civil_disorder_removals(state, power, own, -due, rules):
            del units[unit.province]
            removed.append(unit)
            order = Disband(UnitRef(unit.kind, unit.location))
            results.append(
                OrderResult(
                    power,
                    unit,
                    order,
                    "",
                    True,
                    True,
                    Outcome.REMOVED,
                    (),
                    Reason(Why.REMOVED_IN_CIVIL_DISORDER, unit, power=power),
                )
            )
    return results, units, built, removed


def _failed(entry: CheckedOrder, reason: Reason) -> OrderResult:
    return _done(entry, Outcome.FAILED, reason, ("void",))


def _done(entry: CheckedOrder, outcome: Outcome, reason: Reason, results: tuple[str, ...] = ()) -> OrderResult:
    return OrderResult(
        entry.power, entry.unit, entry.order, entry.text, True, False, outcome, results, reason, written=entry.written
    )


def civil_disorder_removals(state: GameState, power: str, units: list[Unit], count: int, rules: Rules) -> list[Unit]:
    """The ``count`` units a power loses when it orders too few removals."""
    board = state.board
    if rules.civil_disorder == "owned-distance":
        # 2023 rulebook: units off supply centres first, then farthest from an owned centre
        # counting every adjacency, fleets before armies, then by the province's English name.
        owned = tuple(state.centers_of(power)) or state.homes.get(power, ())
        distance = board.distances_from(owned) if owned else {}

        def key(unit: Unit) -> tuple[int, int, int, str]:
            on_center = board.provinces[unit.province].supply_center
            return (on_center, -distance.get(unit.province, 99), unit.kind != "F", board.provinces[unit.province].name)
    else:
        # DATC v2 preference: farthest from a home centre of the map (owned or not), fleets
        # moving as fleets and armies over land and sea, fleets before armies, then by name.
        homes = board.home_centers(power) or state.homes.get(power, ())

        def key(unit: Unit) -> tuple[int, int, int, str]:
            steps = _home_distance(board, unit, homes)
            return (0, -steps, unit.kind != "F", board.provinces[unit.province].name)

    return sorted(units, key=key)[:count]


def _home_distance(board: Map, unit: Unit, homes: tuple[str, ...]) -> int:
    if not homes:
        return 99
    if unit.province in homes:
        return 0
    seen = {unit.location}
    queue = deque([(unit.location, 0)])
    while queue:
        here, steps = queue.popleft()
        targets = board.fleet_targets(here) if unit.kind == "F" else board.adjacent_provinces(board.province_of(here))
        for there in targets:
            if there in seen:
                continue
            if board.province_of(there) in homes:
                return steps + 1
            seen.add(there)
            queue.append((there, steps + 1))
    return 99
