"""Orders as the fog shows them: as their power wrote them, judged only by the map.

The engine decides legality from the whole board. A move between two coasts that are not
adjacent is legal, and gets ``VIA``, only if some chain of fleets, anyone's, could carry the
army; a support is legal only if the unit it names is there and can reach the target. Shown to
a power, either decision tells it about units it may not see. So everything the fog shows of
an order (its text, what it involves, its result words) is worked out here from the order as
written, the ordering unit and the map, never from the engine's completion of it.

>>> from fogdip.engine import GameState, adjudicate
>>> record = adjudicate(GameState.initial(), {"FRANCE": ["A MAR - TUS"]})
>>> result = record.result_of("MAR")
>>> result.legal, result.results            # no fleet could carry it: the engine voids it
(False, ('void',))
>>> str(written_order(result, record.before.board)), fog_results(result, record.before.board)
('A MAR - TUS VIA', ('no convoy',))
"""

from __future__ import annotations

import dataclasses

from fogdip.engine.map import Map
from fogdip.engine.orders import Convoy, Move, Order, SupportHold, SupportMove, UnitRef
from fogdip.engine.outcomes import OrderResult, Resolution
from fogdip.fog.sight import read_order

def needs_convoy(board: Map, kind: str | None, location: str, target: str) -> bool:
    """Whether an army's move can only go by sea: both ends on the coast, not adjacent by land."""
    if kind != "A":
        return False
    origin, destination = board.province_of(location), board.province_of(target)
    return (
        destination not in board.army_targets(location)
        and board.provinces[origin].terrain == "coast"
        and board.provinces[destination].terrain == "coast"
    )


def written_order(result: OrderResult, board: Map) -> Order:
    """The order as its power wrote it, for the unit that really received it, with ``VIA``
    wherever the map says only a convoy could make the move."""
    order, unit = result.order, result.unit
    if unit is None or "; " in result.text:
        return order
    written = read_order(result.text, board) if result.text else None
    if written is None or type(written) is not type(order):
        written = order
    ref = UnitRef(unit.kind, unit.location)
    if isinstance(written, Move):
        assert isinstance(order, Move)
        target = order.target if result.legal else written.target
        via = written.via_convoy or needs_convoy(board, unit.kind, unit.location, target)
        return Move(ref, target, via)
    if isinstance(written, SupportHold):
        return SupportHold(ref, written.supported)
    if isinstance(written, SupportMove):
        return SupportMove(ref, written.supported, written.target)
    if isinstance(written, Convoy):
        return Convoy(ref, written.army, written.target)
    return order


def fog_results(result: OrderResult, board: Map, written: Order | None = None) -> tuple[str, ...]:
    """Result words that do not depend on hidden units.

    An army move that only a convoy could make, and that did not arrive other than by a
    bounce, is ``no convoy`` whether the engine found no fleets at all (void), no convoy
    ordered, or a convoy disrupted: which of those it was depends on fleets the power may not
    see."""
    order, unit = result.order, result.unit
    words = result.results
    if unit is not None and isinstance(order, Move) and unit.kind == "A":
        target = written if written is not None else written_order(result, board)
        assert isinstance(target, Move)
        if needs_convoy(board, unit.kind, unit.location, target.target) and not result.succeeded:
            if "bounce" not in words:
                return ("no convoy",) + tuple(w for w in words if w == "dislodged")
    return words


def map_legal(result: OrderResult, board: Map, written: Order | None = None) -> bool:
    """Whether an order is legal judged by the map and the ordering unit alone.

    The engine also voids a move no fleets could carry, and a support or convoy naming a unit
    that is not there or cannot make the move; those depend on other units, so the fog treats
    such orders as legal orders that failed."""
    if result.legal or result.unit is None or "; " in result.text:
        return result.legal
    unit, order = result.unit, written if written is not None else written_order(result, board)
    province = unit.province
    if isinstance(order, Move):
        target = board.province_of(order.target)
        if unit.kind != "A" or target == province or board.provinces[target].terrain == "sea":
            return False
        return board.provinces[target].passable and (
            target in board.army_targets(unit.location) or needs_convoy(board, unit.kind, unit.location, target)
        )
    if isinstance(order, (SupportHold, SupportMove)):
        target = board.province_of(order.supported.location if isinstance(order, SupportHold) else order.target)
        if target == province or target not in board.reachable_provinces(unit.kind, unit.location):
            return False
        return not (isinstance(order, SupportMove) and board.province_of(order.supported.location) == target)
    if isinstance(order, Convoy):
        ends = (board.province_of(order.army.location), board.province_of(order.target))
        return (
            unit.kind == "F" and board.provinces[province].terrain == "sea"
            and all(board.provinces[end].terrain == "coast" for end in ends) and ends[0] != ends[1]
        )
    return False


_LAST: list[tuple[Resolution, Resolution]] = []


def fog_view(resolution: Resolution) -> Resolution:
    """The record as the fog reads it: every order as written (:func:`written_order`), legal
    by the map (:func:`map_legal`), with result words that hide which unseen units decided it
    (:func:`fog_results`). Outcomes, moves and positions are the engine's own."""
    for seen, view in _LAST:
        if seen is resolution or view is resolution:
            return view
    board = resolution.before.board
    orders = []
    for result in resolution.orders:
        if result.unit is None:
            orders.append(result)
            continue
        order = written_order(result, board)
        legal = map_legal(result, board, order)
        outcome = result.outcome
        if legal and not result.legal:
            outcome = "no-path" if isinstance(order, Move) else "void"
        orders.append(result._replace(order=order, legal=legal, outcome=outcome, results=fog_results(result, board, order)))
    view = dataclasses.replace(resolution, orders=tuple(orders))
    # A few records at once: a turn's phases, each observed power after power.
    _LAST[:] = [(resolution, view), *_LAST[:7]]
    return view
