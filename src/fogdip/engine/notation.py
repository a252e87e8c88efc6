"""Reading orders written in standard notation.

Accepted: upper or lower case, three-letter codes, aliases or full names, ``-``, ``->`` or
``to`` for moves, the words ``holds``, ``supports``, ``convoys``, ``build``, ``disband``,
``retreat``, and coasts as ``/NC``, ``(nc)``, ``(north coast)``.

>>> from fogdip.engine.map import standard_map
>>> board = standard_map()
>>> str(parse_order("f north sea convoys army london to belgium", board))
'F NTH C A LON - BEL'
>>> str(parse_order("A Tyrolia supports A Venice -> Trieste", board))
'A TYR S A VEN - TRI'
>>> str(parse_order("F St Petersburg (north coast) build", board))
'F STP/NC B'
>>> parse_order("A PAR - XYZ", board)
Traceback (most recent call last):
...
fogdip.engine.errors.InvalidOrder: cannot read order 'A PAR - XYZ': unknown province 'XYZ'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

from fogdip.engine.errors import InvalidOrder
from fogdip.engine.map import Map, UnitKind
from fogdip.engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)

_KINDS: Mapping[str, UnitKind] = MappingProxyType({"A": "A", "ARMY": "A", "F": "F", "FLEET": "F"})
_VERBS = MappingProxyType(
    {
        "H": "hold",
        "HOLD": "hold",
        "HOLDS": "hold",
        "STAND": "hold",
        "STANDS": "hold",
        "-": "move",
        "TO": "move",
        "M": "move",
        "MOVE": "move",
        "MOVES": "move",
        "S": "support",
        "SUPPORT": "support",
        "SUPPORTS": "support",
        "C": "convoy",
        "CONVOY": "convoy",
        "CONVOYS": "convoy",
        "R": "retreat",
        "RETREAT": "retreat",
        "RETREATS": "retreat",
        "D": "disband",
        "DISBAND": "disband",
        "DISBANDS": "disband",
        "B": "build",
        "BUILD": "build",
        "BUILDS": "build",
    }
)
_COAST_WORDS = MappingProxyType({"NORTH": "NC", "SOUTH": "SC", "EAST": "EC", "WEST": "WC"})
_PAREN_COAST = re.compile(r"\s*\(\s*(NORTH|SOUTH|EAST|WEST|N|S|E|W|NC|SC|EC|WC)\s*(?:COAST)?\s*\)")
_WORD_COAST = re.compile(r"\s+(NORTH|SOUTH|EAST|WEST)\s+COAST\b")
_SLASH_COAST = re.compile(r"\s*/\s*(NC|SC|EC|WC|N|S|E|W)\b")
_MAX_NAME_WORDS = 4


def _coast_code(word: str) -> str:
    if word in _COAST_WORDS:
        return _COAST_WORDS[word]
    return word if len(word) == 2 else word + "C"


def _tokenise(text: str) -> list[str]:
    upper = text.upper().replace("->", " - ").replace("=>", " - ").replace(",", " ")
    upper = _PAREN_COAST.sub(lambda m: "/" + _coast_code(m.group(1)), upper)
    upper = _WORD_COAST.sub(lambda m: "/" + _COAST_WORDS[m.group(1)], upper)
    upper = _SLASH_COAST.sub(lambda m: "/" + _coast_code(m.group(1)), upper)
    upper = upper.replace("-", " - ")
    upper = upper.replace(".", " ").replace(":", " ")
    return upper.split()


class _Reader:
    def __init__(self, text: str, board: Map) -> None:
        self.text = text
        self.board = board
        self.tokens = _tokenise(text)
        self.pos = 0

    def fail(self, reason: str) -> InvalidOrder:
        return InvalidOrder(self.text, reason)

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def done(self) -> bool:
        return self.pos >= len(self.tokens)

    def location(self, what: str) -> str:
        if self.done():
            raise self.fail(f"{what} is missing")
        for words in range(min(_MAX_NAME_WORDS, len(self.tokens) - self.pos), 0, -1):
            span = self.tokens[self.pos : self.pos + words]
            if span[0] == "-" or span[-1] == "-":
                continue
            candidate = " ".join(span)
            code = self.board.resolve_name(candidate)
            if code is None and "/" in span[-1]:
                # An unknown or irrelevant coast is ignored (DATC 4.B.6): keep the province.
                base, _, coast = candidate.rpartition("/")
                base_code = self.board.resolve_name(base)
                if base_code is not None and coast.isalpha() and len(coast) <= 3:
                    code = self.board.province_of(base_code)
            if code is not None:
                self.pos += words
                return code
        raise self.fail(f"unknown province {self.tokens[self.pos]!r}")

    def unit(self, what: str) -> UnitRef:
        kind = _KINDS.get(self.peek() or "")
        if kind is not None:
            # "A" could also be a name in some map; only treat it as a kind if a place follows.
            self.pos += 1
            if self.done():
                raise self.fail(f"{what} has a unit type but no province")
        return UnitRef(kind, self.location(f"the province of {what}"))

    def verb(self, after: str) -> str:
        word = self.peek()
        if word is None:
            raise self.fail(f"nothing follows {after}: add H, -, S, C, R, D or B")
        verb = _VERBS.get(word)
        if verb is None:
            raise self.fail(f"{word!r} after {after} is not an order word: use H, -, S, C, R, D or B")
        self.pos += 1
        return verb

    def via(self) -> bool:
        word = self.peek()
        if word in ("VIA", "BY"):
            self.pos += 1
            if self.peek() == "CONVOY":
                self.pos += 1
            return True
        return False

    def finish(self) -> None:
        if not self.done():
            rest = " ".join(self.tokens[self.pos :])
            raise self.fail(f"unexpected {rest!r} at the end")


def parse_order(text: str, board: Map) -> Order:
    """Read one order in standard notation. Raises :class:`InvalidOrder` saying what is wrong."""
    reader = _Reader(text, board)
    if not reader.tokens:
        raise reader.fail("the order is empty")
    if reader.tokens == ["WAIVE"] or reader.tokens == ["WAIVE", "BUILD"]:
        return Waive()
    if reader.tokens[0] in ("BUILD", "DISBAND", "REMOVE"):
        # "build F STP/NC" and "disband A PAR" word orders.
        verb = reader.tokens[0]
        reader.pos = 1
        unit = reader.unit("the order")
        reader.finish()
        return Build(unit) if verb == "BUILD" else Disband(unit)
    unit = reader.unit("the order")
    described = str(unit)
    verb = reader.verb(described)
    order: Order
    if verb == "hold":
        order = Hold(unit)
    elif verb == "move":
        target = reader.location("the destination")
        order = Move(unit, target, reader.via())
    elif verb == "support":
        supported = reader.unit("the supported unit")
        if reader.peek() in ("H", "HOLD", "HOLDS"):
            reader.pos += 1
            order = SupportHold(unit, supported)
        elif reader.peek() in ("-", "TO", "M", "MOVE", "MOVES"):
            reader.pos += 1
            order = SupportMove(unit, supported, reader.location("the destination of the supported move"))
        else:
            order = SupportHold(unit, supported)
    elif verb == "convoy":
        army = reader.unit("the convoyed army")
        if army.kind == "F":
            raise reader.fail("only armies can be convoyed")
        if reader.peek() not in ("-", "TO", "M", "MOVE", "MOVES"):
            raise reader.fail("a convoy needs the army's destination: F NTH C A LON - BEL")
        reader.pos += 1
        order = Convoy(unit, army, reader.location("the destination of the convoy"))
    elif verb == "retreat":
        if reader.peek() in ("-", "TO"):
            reader.pos += 1
        order = Retreat(unit, reader.location("the retreat destination"))
    elif verb == "disband":
        order = Disband(unit)
    else:
        order = Build(unit)
    reader.finish()
    return order
