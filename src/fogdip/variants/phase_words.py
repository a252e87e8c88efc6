"""Which sub-phase an order belongs to, and the one message for an order filed out of it.

Every phase kind takes its own orders: movement holds, moves, supports and convoys (and a
variant's espionage, disbands and peeks), retreats retreat or disband, adjustments build,
remove or waive. An order of another kind is refused with one message, whatever the phase and
whether or not the power has a unit there: it names the turn, what the turn plays and what it
takes.

>>> from fogdip.engine.orders import Build, UnitRef
>>> from fogdip.variants.options import preset
>>> print(out_of_turn(order_kinds(Build(UnitRef("A", "PAR"))), "S1901R", ("R",), preset("fog-of-war")))
this turn (S1901R) has no adjustments: it plays retreats only, where a dislodged unit retreats (R) or disbands (D); builds, removals and WAIVE are filed in the Winter turn
>>> print(out_of_turn(("A",), "S1901M", ("M", "R"), preset("sighting")))
this turn (S1901M) has no adjustments: it plays movement and retreats; builds, removals and WAIVE are filed with the Fall orders
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from fogdip.engine.orders import Build, Convoy, Disband, Hold, Move, Order, Retreat, SupportHold, SupportMove, Waive
from fogdip.variants.espionage import DisbandNow, Espionage, ExtraOrder, Peek
from fogdip.variants.options import VariantOptions

#: What each phase kind is called when a turn plays it.
PLAYED = MappingProxyType({"M": "movement", "R": "retreats", "A": "adjustments"})
#: An order of each phase kind.
_ORDER_OF = MappingProxyType({"M": "a movement order", "R": "a retreat", "A": "an adjustment"})
#: What a line of each kind is, written out.
_FORM = MappingProxyType(
    {
        "M": "a movement order is a hold (H), a move (-), a support (S) or a convoy (C)",
        "R": "a retreat is '<unit> R <province>' or '<unit> D'",
        "A": "an adjustment is a build ('A PAR B'), a removal ('A PAR D') or WAIVE",
    }
)


def order_kinds(order: Order | ExtraOrder) -> tuple[str, ...]:
    """The phase kinds an order belongs to. A move is also a retreat (``A PAR - BUR`` in a
    retreat phase retreats, as in MILA); a disband is a retreat's or a removal.

    >>> from fogdip.engine.orders import Disband, UnitRef
    >>> order_kinds(Disband(UnitRef("A", "PAR")))
    ('R', 'A')
    """
    if isinstance(order, (Hold, SupportHold, SupportMove, Convoy, Espionage, DisbandNow, Peek)):
        return ("M",)
    if isinstance(order, Move):
        return ("M", "R")
    if isinstance(order, Retreat):
        return ("R",)
    if isinstance(order, Disband):
        return ("R", "A")
    assert isinstance(order, (Build, Waive)), order
    return ("A",)


def named_kinds(order: Order | ExtraOrder) -> tuple[str, ...]:
    """The phase kinds an order is named for when it is out of its phase: a move is a movement
    order (a retreat is written with R), whatever else it may stand for."""
    return ("M",) if isinstance(order, Move) else order_kinds(order)


def out_of_turn(missing: Sequence[str], turn: str, kinds: tuple[str, ...], options: VariantOptions) -> str:
    """Why a line of the phase kinds ``missing`` cannot be filed for the turn ``turn``, which
    plays ``kinds``: it names the turn, what the turn plays and, where it plays one phase,
    what that phase takes; and where builds go, if the line is one."""
    plays = _listed([PLAYED[k] for k in kinds], "and")
    text = f"this turn ({turn}) has no {_listed([PLAYED[k] for k in missing], 'or')}: it plays {plays}"
    if len(kinds) == 1:
        text += f" only, where {_takes(kinds[0], options)}"
    if "A" in missing:
        when = "with the Fall orders" if options.fall_winter_combined else "in the Winter turn"
        text += f"; builds, removals and WAIVE are filed {when}"
    return text


def not_of_kind(order: Order | ExtraOrder, kind: str) -> str:
    """Why an order put in a sub-phase it does not belong to (by a section prefix such as
    ``RETREAT:``) cannot be filed there.

    >>> from fogdip.engine.orders import Hold, UnitRef
    >>> not_of_kind(Hold(UnitRef("A", "PAR")), "R")
    "A PAR H is a movement order, not a retreat: a retreat is '<unit> R <province>' or '<unit> D'"
    """
    belongs = " or ".join(_ORDER_OF[k] for k in named_kinds(order))
    return f"{order} is {belongs}, not {_ORDER_OF[kind]}: {_FORM[kind]}"


def _takes(kind: str, options: VariantOptions) -> str:
    if kind == "R":
        return "a dislodged unit retreats (R) or disbands (D)"
    if kind == "A":
        return "a power builds (B), removes (D) or waives a build (WAIVE)"
    extras = [
        words
        for enabled, words in (
            (options.espionage, "spy (E)"),
            (options.disband_in_movement, "disband (DB)"),
            (options.peek, "peek (PAS)"),
        )
        if enabled
    ]
    more = f"; they may also {_listed(extras, 'or')}" if extras else ""
    return f"units hold (H), move (-), support (S) or convoy (C){more}"


def _listed(words: Sequence[str], last: str) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(words) < 3:
        return f" {last} ".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"
