"""Adjudicating a retreat phase: retreats to the same province all fail; the rest disband."""

from __future__ import annotations

from fogdip.engine.orders import Disband, Order, Retreat, UnitRef
from fogdip.engine.outcomes import OrderResult
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit
from fogdip.engine.validate import CheckedOrder


def resolve_retreats(
    state: GameState, checked: dict[str, CheckedOrder]
) -> tuple[list[OrderResult], dict[str, Unit], dict[str, str]]:
    """Return the order results, the units after the phase, and the retreats made."""
    board = state.board
    wanted: dict[str, list[str]] = {}
    for province, candidate in checked.items():
        if candidate.legal and isinstance(candidate.order, Retreat):
            wanted.setdefault(board.province_of(candidate.order.target), []).append(province)
    units = dict(state.units)
    moves: dict[str, str] = {}
    results: list[OrderResult] = []
    for province, dislodged in state.dislodged.items():
        unit = dislodged.unit
        entry = checked.get(province)
        order: Order = entry.order if entry is not None else Disband(UnitRef(unit.kind, unit.location))
        text = entry.text if entry is not None else ""
        legal = entry is None or entry.legal
        words: tuple[str, ...]
        if entry is not None and not entry.legal:
            outcome, words, reason = "illegal", ("void", "disband"), f"{entry.reason}; {unit} is disbanded"
        elif isinstance(order, Retreat):
            target = board.province_of(order.target)
            rivals = wanted[target]
            if len(rivals) > 1:
                others = ", ".join(str(state.dislodged[p].unit) for p in rivals if p != province)
                outcome, words, reason = "bounced", ("bounce", "disband"), f"{unit} met {others} retreating to {target}; both disband"
            else:
                outcome, words, reason = "retreated", (), f"{unit} retreated to {order.target}"
                units[target] = Unit(unit.power, unit.kind, order.target)
                moves[province] = order.target
        else:
            outcome, words = "disbanded", ("disband",)
            reason = f"{unit} disbanded" if entry is not None else f"{unit} had no retreat order and is disbanded"
        results.append(OrderResult(unit.power, unit, order, text, legal, entry is None, outcome, words, reason))
    return results, units, moves
