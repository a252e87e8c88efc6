"""Adjudicating a retreat phase: retreats to the same province all fail; the rest disband.

A retreat can only succeed into one of the unit's options (:attr:`Dislodged.retreats`): a
place it could move to that is empty, was not left empty by a stand-off, and is not where the
attack came from. Under ``legality="board"`` any other target makes the order illegal. Under
``legality="map"`` the order is legal wherever the unit could move, and a retreat to a place
that is not free fails like a bounce; the unit is disbanded either way, but which of the two
it was no longer tells its power what stands there. Only retreats that could succeed contest
a province, so the positions that follow are the same under both.
"""

from __future__ import annotations

from fogdip.engine.orders import Disband, Order, Retreat, UnitRef
from fogdip.engine.outcomes import OrderResult, Outcome
from fogdip.engine.reasons import Reason, Why
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit
from fogdip.engine.validate import CheckedOrder

_BOUNCE_DISBAND = ("bounce", "disband")


def resolve_retreats(
    state: GameState, checked: dict[str, CheckedOrder]
) -> tuple[list[OrderResult], dict[str, Unit], dict[str, str]]:
    """Return the order results, the units after the phase, and the retreats made."""
    board = state.board
    wanted: dict[str, list[str]] = {}
    for province, candidate in checked.items():
        given = candidate.order
        if candidate.legal and isinstance(given, Retreat) and given.target in state.dislodged[province].retreats:
            wanted.setdefault(board.province_of(given.target), []).append(province)
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
        reason: Reason
        if entry is not None and not entry.legal:
            assert entry.reason is not None
            outcome, words = Outcome.ILLEGAL, ("void", "disband")
            reason = entry.reason.then(Reason(Why.DISBANDED_AFTER_ILLEGAL, unit))
        elif isinstance(order, Retreat):
            target = board.province_of(order.target)
            rivals = wanted.get(target, ())
            if province not in rivals:
                outcome, words = Outcome.BOUNCED, _BOUNCE_DISBAND
                reason = _blocked(state, unit, order.target, dislodged.attacker_from)
            elif len(rivals) > 1:
                others = tuple(state.dislodged[p].unit for p in rivals if p != province)
                outcome, words = Outcome.BOUNCED, _BOUNCE_DISBAND
                reason = Reason(Why.RETREAT_MET, unit, others, (target,))
            else:
                outcome, words = Outcome.RETREATED, ()
                reason = Reason(Why.RETREATED, unit, places=(order.target,))
                units[target] = Unit(unit.power, unit.kind, order.target)
                moves[province] = order.target
        else:
            outcome, words = Outcome.DISBANDED, ("disband",)
            reason = Reason(Why.DISBANDED if entry is not None else Why.DISBANDED_WITHOUT_ORDER, unit)
        written = entry.written if entry is not None else None
        results.append(
            OrderResult(unit.power, unit, order, text, legal, entry is None, outcome, words, reason, None, written)
        )
    return results, units, moves


def _blocked(state: GameState, unit: Unit, target: str, attacker_from: str | None) -> Reason:
    """Why a retreat's place is not free (for the judge: it names what stands there)."""
    province = state.board.province_of(target)
    occupant = state.units.get(province)
    if occupant is not None:
        return Reason(Why.RETREAT_BLOCKED, unit, (occupant,), (target,))
    return Reason(Why.RETREAT_BLOCKED, unit, places=(target,), words=("origin",) if province == attacker_from else ())
