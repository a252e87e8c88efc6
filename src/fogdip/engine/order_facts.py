"""What adjudication needs from a movement order, worked out once per distinct order.

Orders are immutable values, so their resolver view and their text never change. The
legal-order generator keeps one object per distinct order of a map and registers it here
(:func:`remember`), so that adjudicating a bot's orders finds these facts by identity, without
formatting, hashing or comparing the orders; other orders are looked up by value.
"""

from __future__ import annotations

from typing import NamedTuple, TypeVar

from fogdip.engine.errors import FogdipError
from fogdip.engine.movement import CONVOY, HOLD, MOVE, SUPPORT_HOLD, SUPPORT_MOVE
from fogdip.engine.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove, UnitRef
from fogdip.engine.units import Unit


class OrderInfo(NamedTuple):
    """What the resolver reads from a movement order, and the order's standard text."""

    kind: int
    province: str
    target: str
    target_location: str
    supported: str
    via: bool
    text: str


_INFO: dict[Order, OrderInfo] = {}
# The legal orders of a map are finitely many, but a long-running server should not keep
# every order it ever saw: past this size the cache starts again.
_INFO_LIMIT = 200_000


def order_info(order: Order) -> OrderInfo:
    """The resolver's view of a movement order (cached per distinct order)."""
    info = _INFO.get(order)
    if info is None:
        info = _describe(order)
        if len(_INFO) >= _INFO_LIMIT:
            _INFO.clear()
        _INFO[order] = info
    return info


def _describe(order: Order) -> OrderInfo:
    text = str(order)
    if isinstance(order, Hold):
        return OrderInfo(HOLD, order.unit.province, "", "", "", False, text)
    if isinstance(order, Move):
        target = order.target.partition("/")[0]
        return OrderInfo(MOVE, order.unit.province, target, order.target, "", order.via_convoy, text)
    if isinstance(order, SupportHold):
        supported = order.supported.province
        return OrderInfo(SUPPORT_HOLD, order.unit.province, supported, "", supported, False, text)
    if isinstance(order, SupportMove):
        target = order.target.partition("/")[0]
        return OrderInfo(SUPPORT_MOVE, order.unit.province, target, order.target, order.supported.province, False, text)
    if isinstance(order, Convoy):
        return OrderInfo(CONVOY, order.unit.province, order.target, "", order.army.province, False, text)
    raise FogdipError(f"{text!r} is not a movement order")


#: Registered orders by ``id()``. Each entry keeps its order alive, so an id is never reused
#: while it is registered.
KNOWN: dict[int, tuple[Order, OrderInfo]] = {}

_O = TypeVar("_O", bound=Order)


def remember(order: _O) -> _O:
    """Register an order that lives as long as the process (the legal-order generator keeps
    one object per distinct order of a map): adjudication then finds what it needs from it
    by identity, without hashing or comparing the order."""
    KNOWN[id(order)] = (order, _describe(order))
    return order


def known_info(order: Order) -> OrderInfo:
    known = KNOWN.get(id(order))
    return known[1] if known is not None else order_info(order)


_HOLDS: dict[tuple[str, str], Hold] = {}


def default_hold(unit: Unit) -> Hold:
    """The hold order of a unit without a (legal) order; shared, as orders are immutable."""
    key = (unit.kind, unit.location)
    order = _HOLDS.get(key)
    if order is None:
        order = _HOLDS[key] = Hold(UnitRef(unit.kind, unit.location))
    return order
