"""A token that lets adjudication trust orders the legal-order generator made.

The generator (:mod:`fogdip.engine.legal`) knows every order it hands out is legal in the
position it was asked about. It says so with a :class:`Vouched` token: an immutable value
naming that position, the rules it was judged by, and each unit's orders handed out, by value.
``adjudicate(state, orders, rules, vouched=token)`` then skips checking an order given by the
power whose unit it commands, when the order is one of those the token names for that unit,
and the token was made for this very position (equal to ``state``) under these very rules. A
token made for any other position or rules is ignored: the phase is checked in full, exactly
as without a token. So is the whole phase when any one order is not in the token.

>>> from fogdip.engine import GameState, adjudicate, get_rules, legal_orders
>>> state, rules = GameState.initial(), get_rules()
>>> options = legal_orders(state, "FRANCE", rules)
>>> token = options.vouched
>>> token.trusts(state, rules), token.trusts(state, get_rules("2000"))
(True, False)
>>> record = adjudicate(state, {"FRANCE": [options["PAR"][2]]}, rules, vouched=token)
>>> record.result_of("PAR").text
'A PAR - BUR'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from fogdip.engine.errors import FogdipError
from fogdip.engine.order_facts import OrderFacts
from fogdip.engine.orders import UnitRef
from fogdip.engine.rules import Rules
from fogdip.engine.state import GameState


@dataclass(frozen=True)
class Vouched:
    """Orders handed out as legal in ``state`` under ``rules``: for each unit (by its
    reference as the orders name it), the orders, with what adjudication reads from each."""

    state: GameState
    rules: Rules
    orders: Mapping[UnitRef, tuple[OrderFacts, ...]] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        if not isinstance(self.orders, MappingProxyType):
            object.__setattr__(self, "orders", MappingProxyType(dict(self.orders)))

    def __deepcopy__(self, memo: dict[int, object]) -> Vouched:
        return self  # immutable: a copy of a game's orders shares their token

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return Vouched, (self.state, self.rules, dict(self.orders))

    def trusts(self, state: GameState, rules: Rules) -> bool:
        """Whether this token speaks for ``state`` judged by ``rules``: the position and the
        rules it was made for, equal by value (the very objects, most often)."""
        return (self.state is state or self.state == state) and (self.rules is rules or self.rules == rules)

    def __or__(self, other: Vouched) -> Vouched:
        """Both tokens' orders, for the position and rules they share (the legal orders of
        two powers, listed apart, given to one adjudication)."""
        if not other.trusts(self.state, self.rules):
            raise FogdipError("these tokens vouch for orders of different positions or rules: they cannot be joined")
        joined = dict(self.orders)
        for ref, entries in other.orders.items():
            mine = joined.get(ref, ())
            joined[ref] = mine + tuple(entry for entry in entries if entry not in mine)
        return Vouched(self.state, self.rules, MappingProxyType(joined))
