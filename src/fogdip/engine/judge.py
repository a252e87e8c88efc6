"""Adjudicating one phase: read and check the orders, resolve, and move the game on.

>>> from fogdip.engine.state import GameState
>>> state = GameState.initial()
>>> record = adjudicate(state, {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]})
>>> [r.results for r in record.orders if r.unit and r.unit.province in ("PAR", "MUN")]
[('bounce',), ('bounce',)]
>>> record.result_of("PAR").reason
'bounced: 1 against 1 with A MUN - BUR'
>>> str(record.after.phase)
'F1901M'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from fogdip.engine.adjustments import resolve_adjustments
from fogdip.engine.errors import FogdipError
from fogdip.engine.movement_phase import resolve_movement
from fogdip.engine.notation import parse_order
from fogdip.engine.orders import Order, Waive
from fogdip.engine.outcomes import OrderResult, RejectedOrder, Resolution
from fogdip.engine.retreats import resolve_retreats
from fogdip.engine.rules import Rules, get_rules
from fogdip.engine.state import GameState
from fogdip.engine.units import Phase
from fogdip.engine.validate import CheckedOrder, OrderChecker, Rejection

OrderInput = Mapping[str, Iterable["str | Order"]]


def check_orders(
    state: GameState, orders: OrderInput, rules: Rules, assume_legal: bool = False
) -> tuple[list[CheckedOrder], list[RejectedOrder]]:
    """Read and check every order, in a fixed order of powers; rejected ones are set apart."""
    if assume_legal and state.phase.kind == "M":
        units = state.units
        trusted: list[CheckedOrder] = []
        for power in sorted(orders):
            for order in orders[power]:
                if isinstance(order, str) or isinstance(order, Waive):
                    raise FogdipError("assume_legal takes Order values from legal_orders(), not texts")
                trusted.append(CheckedOrder(power, str(order), order, units[order.unit.province], True))
        return trusted, []
    checker = OrderChecker(state, rules)
    checked: list[CheckedOrder] = []
    rejected: list[RejectedOrder] = []
    for power in sorted(orders):
        if power not in state.board.power_info:
            for item in orders[power]:
                rejected.append(RejectedOrder(power, str(item), f"{power} is not a power of this game"))
            continue
        for item in orders[power]:
            text = item if isinstance(item, str) else str(item)
            try:
                order = parse_order(item, state.board) if isinstance(item, str) else item
                checked.append(checker.check(power, order, text))
            except (FogdipError, Rejection) as exc:
                reason = exc.reason if hasattr(exc, "reason") else str(exc)
                rejected.append(RejectedOrder(power, text, reason))
    return checked, rejected


def one_order_per_unit(checked: list[CheckedOrder]) -> dict[str, CheckedOrder]:
    """Each unit's order. Legal orders beat illegal ones; two different legal orders cancel
    each other and the unit holds (DATC 4.D.3, choice c)."""
    chosen: dict[str, CheckedOrder] = {}
    for entry in checked:
        assert entry.unit is not None
        province = entry.unit.province
        previous = chosen.get(province)
        if previous is None or (entry.legal and not previous.legal):
            chosen[province] = entry
        elif entry.legal and previous.legal and entry.order != previous.order:
            chosen[province] = CheckedOrder(
                entry.power, f"{previous.text}; {entry.text}", previous.order, entry.unit, False,
                f"{entry.unit} was given two different orders ({previous.text!r} and {entry.text!r})",
            )
    return chosen


def adjudicate(
    state: GameState,
    orders: OrderInput,
    rules: Rules | str | None = None,
    *,
    explain: bool = True,
    assume_legal: bool = False,
) -> Resolution:
    """Adjudicate the current phase of ``state`` with ``orders`` (power to order texts or
    :class:`Order` values). Units without orders hold, or disband in a retreat phase.

    ``explain=False`` skips the reason texts. ``assume_legal=True`` is for orders taken from
    :func:`fogdip.engine.legal.legal_orders` for this very state (bots): they are not checked
    again. Any other order passed that way is a programming error."""
    if state.completed:
        raise FogdipError("the game is over; there is no phase to adjudicate")
    if not isinstance(rules, Rules):
        rules = get_rules(rules)
    checked, rejected = check_orders(state, orders, rules, assume_legal)
    kind = state.phase.kind
    if kind == "M":
        outcome = resolve_movement(state, one_order_per_unit(checked), rules, explain)
        after = state.with_changes(units=outcome.units, dislodged=outcome.dislodged)
        results = outcome.results
        extra = dict(
            moves=outcome.moves, dislodged=outcome.dislodged_from, convoy_paths=outcome.convoy_paths,
            supports=outcome.supports, standoffs=outcome.standoffs,
        )
    elif kind == "R":
        results, units, moves = resolve_retreats(state, one_order_per_unit(checked))
        after = state.with_changes(units=units, dislodged={})
        extra = dict(moves=moves)
    else:
        results, units, built, removed = resolve_adjustments(state, checked, rules)
        after = state.with_changes(units=units)
        extra = dict(builds=tuple(built), removals=tuple(removed))
    after, skipped = advance(after, rules)
    return Resolution(
        before=state, after=after, orders=tuple(_sorted(results)), rejected=tuple(rejected),
        skipped=tuple(skipped), **extra,  # type: ignore[arg-type]
    )


def _sorted(results: list[OrderResult]) -> list[OrderResult]:
    return sorted(results, key=lambda r: (r.power, r.unit.province if r.unit else "~", r.text))


def advance(state: GameState, rules: Rules) -> tuple[GameState, list[str]]:
    """Move a just-resolved state to its next phase, skipping phases with nothing to do,
    taking centres after Fall, and ending the game on a solo victory."""
    skipped: list[str] = []
    phase = state.phase
    while True:
        if phase.kind == "M":
            if state.dislodged:
                return state.with_changes(phase=Phase(phase.season, phase.year, "R")), skipped
            skipped.append(str(Phase(phase.season, phase.year, "R")))
        if phase.season == "F" and phase.kind in ("M", "R"):
            state = take_centers(state)
            winner = solo_winner(state, rules)
            if winner is not None:
                return state.with_changes(phase=phase, completed=True), skipped
        if phase.season == "S":
            return state.with_changes(phase=Phase("F", phase.year, "M")), skipped
        if phase.season == "F":
            winter = Phase("W", phase.year, "A")
            if _any_adjustment_due(state):
                return state.with_changes(phase=winter), skipped
            skipped.append(str(winter))
            phase = winter
            continue
        return state.with_changes(phase=Phase("S", phase.year + 1, "M")), skipped


def take_centers(state: GameState) -> GameState:
    """Supply centres occupied at the end of Fall change hands."""
    centers = dict(state.centers)
    for province, unit in state.units.items():
        if state.board.provinces[province].supply_center:
            centers[province] = unit.power
    return state.with_changes(centers=centers)


def adjustment_due(state: GameState, power: str) -> bool:
    """Whether ``power`` has a removal to make, or a build it could actually place."""
    delta = state.adjustment(power)
    if delta < 0:
        return True
    if delta == 0:
        return False
    return any(
        state.centers.get(home) == power and home not in state.units for home in state.homes.get(power, ())
    )


def _any_adjustment_due(state: GameState) -> bool:
    units: dict[str, int] = {}
    for unit in state.units.values():
        units[unit.power] = units.get(unit.power, 0) + 1
    centers: dict[str, int] = {}
    for owner in state.centers.values():
        centers[owner] = centers.get(owner, 0) + 1
    for power in state.powers:
        delta = centers.get(power, 0) - units.get(power, 0)
        if delta < 0 or delta > 0 and adjustment_due(state, power):
            return True
    return False


def solo_winner(state: GameState, rules: Rules) -> str | None:
    needed = rules.victory_centers or state.board.victory_centers
    counts: dict[str, int] = {}
    for owner in state.centers.values():
        counts[owner] = counts.get(owner, 0) + 1
    leaders = [p for p, n in counts.items() if n >= needed]
    return leaders[0] if len(leaders) == 1 else None

