"""What adjudication needs from a movement order: its kind, provinces and text, worked out
once per order a map's tables hold.

Orders are immutable values, so these facts never change. The map's tables
(:mod:`fogdip.engine.sites`) keep the facts of the orders they hold, built when the map is
loaded; the legal-order generator hands them to adjudication inside a
:class:`~fogdip.engine.vouched.Vouched` token, so that adjudicating a bot's orders neither
formats nor hashes them. Any other order is described when it is met (:func:`describe`).

>>> from fogdip.engine.orders import Move, UnitRef
>>> facts = describe(Move(UnitRef("F", "BRE"), "SPA/NC"))
>>> facts.province, facts.target, facts.target_location, facts.text
('BRE', 'SPA', 'SPA/NC', 'F BRE - SPA/NC')
"""

from __future__ import annotations

from typing import NamedTuple

from fogdip.engine.errors import FogdipError
from fogdip.engine.movement import CONVOY, HOLD, MOVE, SUPPORT_HOLD, SUPPORT_MOVE
from fogdip.engine.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove


class OrderFacts(NamedTuple):
    """A movement order with what the resolver reads from it, and its standard text."""

    order: Order
    kind: int
    province: str
    target: str
    target_location: str
    supported: str
    via: bool
    text: str


def describe(order: Order) -> OrderFacts:
    """The resolver's view of a movement order, worked out now."""
    text = str(order)
    if isinstance(order, Hold):
        return OrderFacts(order, HOLD, order.unit.province, "", "", "", False, text)
    if isinstance(order, Move):
        target = order.target.partition("/")[0]
        return OrderFacts(order, MOVE, order.unit.province, target, order.target, "", order.via_convoy, text)
    if isinstance(order, SupportHold):
        supported = order.supported.province
        return OrderFacts(order, SUPPORT_HOLD, order.unit.province, supported, "", supported, False, text)
    if isinstance(order, SupportMove):
        target = order.target.partition("/")[0]
        return OrderFacts(
            order, SUPPORT_MOVE, order.unit.province, target, order.target, order.supported.province, False, text
        )
    if isinstance(order, Convoy):
        return OrderFacts(order, CONVOY, order.unit.province, order.target, "", order.army.province, False, text)
    raise FogdipError(f"{text!r} is not a movement order")
