"""Adjudicating one phase: read and check the orders, resolve, and move the game on.

>>> from fogdip.engine.state import GameState
>>> state = GameState.initial()
>>> record = adjudicate(state, {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]})
>>> [r.results for r in record.orders if r.unit and r.unit.province in ("PAR", "MUN")]
[('bounce',), ('bounce',)]
>>> str(record.result_of("PAR").reason)
'bounced: 1 against 1 with A MUN - BUR'
>>> str(record.after.phase)
'F1901M'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from fogdip.engine.adjustments import resolve_adjustments
from fogdip.engine.errors import FogdipError, OrderRejected
from fogdip.engine.map import Map
from fogdip.engine.movement_phase import MovementOutcome, resolve_movement, resolve_trusted
from fogdip.engine.notation import parse_order
from fogdip.engine.orders import Order, Written
from fogdip.engine.outcomes import OrderResult, RejectedOrder, Resolution
from fogdip.engine.reasons import Reason, Why
from fogdip.engine.retreats import resolve_retreats
from fogdip.engine.rules import Rules, get_rules
from fogdip.engine.state import Dislodged, GameState
from fogdip.engine.units import Phase, Unit
from fogdip.engine.validate import CheckedOrder, OrderChecker
from fogdip.engine.vouched import Vouched

#: Each power's orders: lines to read, orders already read, or both (:class:`Written`).
OrderInput = Mapping[str, Iterable["str | Order | Written"]]


def check_orders(state: GameState, orders: OrderInput, rules: Rules) -> tuple[list[CheckedOrder], list[RejectedOrder]]:
    """Read and check every order, in a fixed order of powers; rejected ones are set apart."""
    checker = OrderChecker(state, rules)
    checked: list[CheckedOrder] = []
    rejected: list[RejectedOrder] = []
    for power in sorted(orders):
        if power not in state.board.power_info:
            for item in orders[power]:
                rejected.append(RejectedOrder(power, str(item), Reason(Why.NOT_A_POWER, power=power)))
            continue
        for item in orders[power]:
            given: Order | None
            if isinstance(item, Written):
                text, given = item
            elif isinstance(item, str):
                text, given = item, None
            else:
                text, given = str(item), item
            try:
                order = parse_order(text, state.board) if given is None else given
                checked.append(checker.check(power, order, text))
            except OrderRejected as exc:
                rejected.append(RejectedOrder(power, text, exc.cause or Reason(Why.REFUSED, words=(exc.reason,))))
            except FogdipError as exc:
                rejected.append(RejectedOrder(power, text, Reason(Why.UNREADABLE, words=(exc.reason,))))
    return checked, rejected


def one_order_per_unit(checked: list[CheckedOrder]) -> dict[str, CheckedOrder]:
    """Each unit's order. Legal orders beat illegal ones; different legal orders cancel
    each other and the unit holds (DATC 4.D.3, choice c): its entry is then illegal, with the
    first of them as its order and the others as its ``conflicts``."""
    chosen: dict[str, CheckedOrder] = {}
    for entry in checked:
        assert entry.unit is not None
        province = entry.unit.province
        previous = chosen.get(province)
        if previous is None or (entry.legal and not previous.legal and not previous.conflicts):
            chosen[province] = entry
        elif entry.legal and (previous.legal or previous.conflicts):
            if entry.order == previous.order or entry.order in previous.conflicts:
                continue
            texts = previous.reason.words if previous.conflicts and previous.reason else (previous.text,)
            chosen[province] = previous._replace(
                legal=False,
                reason=Reason(Why.TWO_ORDERS, entry.unit, words=(*texts, entry.text)),
                conflicts=(*previous.conflicts, entry.order),
            )
    return chosen


def adjudicate(
    state: GameState,
    orders: OrderInput,
    rules: Rules | str | None = None,
    *,
    explain: bool = True,
    vouched: Vouched | None = None,
) -> Resolution:
    """Adjudicate the current phase of ``state`` with ``orders`` (power to order texts or
    :class:`Order` values). Units without orders hold, or disband in a retreat phase.

    ``explain=False`` skips the reason texts. ``vouched`` is the token that came with orders
    taken from :func:`fogdip.engine.legal.legal_orders` (or the random bot): in a movement
    phase, orders it names, each given by the power whose unit it commands, are not checked
    again. A token made for another position or other rules is ignored, and if any order is
    not one it names, the phase is checked in full: as without a token, with the same result.

    >>> from fogdip.engine.legal import legal_orders
    >>> state, rules = GameState.initial(), get_rules()
    >>> options = legal_orders(state, "ITALY", rules)
    >>> orders = {"ITALY": [options["VEN"][1]]}
    >>> str(orders["ITALY"][0])
    'A VEN - APU'
    >>> adjudicate(state, orders, rules, vouched=options.vouched) == adjudicate(state, orders, rules)
    True
    """
    if state.completed:
        raise FogdipError("the game is over; there is no phase to adjudicate")
    if not isinstance(rules, Rules):
        rules = get_rules(rules)
    kind = state.phase.kind
    if kind == "M" and vouched is not None and vouched.trusts(state, rules):
        trusted = resolve_trusted(state, orders, rules, explain, vouched)
        if trusted is not None:
            return _movement_resolution(state, trusted, (), rules)
    checked, rejected = check_orders(state, orders, rules)
    if kind == "M":
        outcome = resolve_movement(state, one_order_per_unit(checked), rules, explain)
        return _movement_resolution(state, outcome, tuple(rejected), rules)
    extra: dict[str, object]
    if kind == "R":
        results, units, moves = resolve_retreats(state, one_order_per_unit(checked))
        after = state.with_changes(units=units, dislodged={})
        extra = dict(moves=moves)
    else:
        results, units, built, removed = resolve_adjustments(state, checked, rules)
        after = state.with_changes(units=units)
        extra = dict(builds=tuple(built), removals=tuple(removed))
    after, skipped = advance(after, rules)
    return Resolution(
        before=state,
        after=after,
        orders=tuple(_sorted(results)),
        rejected=tuple(rejected),
        skipped=tuple(skipped),
        rules=rules,
        **extra,  # type: ignore[arg-type]
    )


def _movement_resolution(
    state: GameState, outcome: MovementOutcome, rejected: tuple[RejectedOrder, ...], rules: Rules
) -> Resolution:
    after, skipped = _advance(
        state.board, state.phase, outcome.units, state.centers, state.homes, outcome.dislodged, rules
    )
    return Resolution(
        before=state,
        after=after,
        orders=tuple(outcome.results),
        rejected=rejected,
        moves=outcome.moves,
        dislodged=outcome.dislodged_from,
        convoy_paths=outcome.convoy_paths,
        supports=outcome.supports,
        standoffs=outcome.standoffs,
        skipped=tuple(skipped),
        disbanded=outcome.disbanded,
        rules=rules,
    )


def _sorted(results: list[OrderResult]) -> list[OrderResult]:
    return sorted(results, key=lambda r: (r.power, r.unit.province if r.unit else "~", r.text))


def advance(state: GameState, rules: Rules) -> tuple[GameState, list[str]]:
    """Move a just-resolved state to its next phase, skipping phases with nothing to do,
    taking centres after Fall, and ending the game on a solo victory."""
    return _advance(
        state.board, state.phase, state.units, state.centers, state.homes, state.dislodged, rules, state.completed
    )


def _advance(
    board: Map,
    phase: Phase,
    units: Mapping[str, Unit],
    centers: Mapping[str, str],
    homes: Mapping[str, tuple[str, ...]],
    dislodged: Mapping[str, Dislodged],
    rules: Rules,
    completed: bool = False,
) -> tuple[GameState, list[str]]:
    # Works on the parts of the state and builds the next state once: this runs after every
    # phase of every bot game.
    skipped: list[str] = []
    while True:
        if phase.kind == "M":
            if dislodged:
                next_phase = Phase(phase.season, phase.year, "R")
                break
            skipped.append(str(Phase(phase.season, phase.year, "R")))
        if phase.season == "F" and phase.kind in ("M", "R"):
            centers = _centers_taken(board, units, centers)
            owned = _count(centers.values())
            if _solo_leader(owned, rules.victory_centers or board.victory_centers) is not None:
                next_phase, completed = phase, True
                break
        if phase.season == "S":
            next_phase = Phase("F", phase.year, "M")
            break
        if phase.season == "F":
            winter = Phase("W", phase.year, "A")
            if _adjustment_due_in(board, units, centers, homes, owned):
                next_phase = winter
                break
            skipped.append(str(winter))
            phase = winter
            continue
        next_phase = Phase("S", phase.year + 1, "M")
        break
    return GameState(board, next_phase, units, centers, homes, dislodged, completed), skipped


def take_centers(state: GameState) -> GameState:
    """Supply centres occupied at the end of Fall change hands."""
    return state.with_changes(centers=_centers_taken(state.board, state.units, state.centers))


def _centers_taken(board: Map, units: Mapping[str, Unit], centers: Mapping[str, str]) -> dict[str, str]:
    taken = dict(centers)
    center_set = board.center_set
    for province, unit in units.items():
        if province in center_set:
            taken[province] = unit.power
    return taken


def _count(owners: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for owner in owners:
        counts[owner] = counts.get(owner, 0) + 1
    return counts


def _adjustment_due_in(
    board: Map,
    units: Mapping[str, Unit],
    centers: Mapping[str, str],
    homes: Mapping[str, tuple[str, ...]],
    owned: dict[str, int],
) -> bool:
    """Whether any power has a removal to make or a build it could place (``owned`` counts
    each power's centres)."""
    due = owned.copy()
    for unit in units.values():
        due[unit.power] = due.get(unit.power, 0) - 1
    for power in board.powers:
        delta = due.get(power, 0)
        if delta < 0:
            return True
        if delta > 0 and any(centers.get(home) == power and home not in units for home in homes.get(power, ())):
            return True
    return False


def solo_winner(state: GameState, rules: Rules) -> str | None:
    return _solo_leader(_count(state.centers.values()), rules.victory_centers or state.board.victory_centers)


def _solo_leader(owned: dict[str, int], needed: int) -> str | None:
    leaders = [p for p, n in owned.items() if n >= needed]
    return leaders[0] if len(leaders) == 1 else None
