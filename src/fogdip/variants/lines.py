"""Reading the lines a power files for a turn, once.

A line is an order, perhaps with a section prefix (``RETREAT: F NTH D``) and conditions
(``IF F NTH DISLODGED THEN F NTH R NWG``). :func:`read_line` reads one into a :class:`Line`:
the sub-phase it belongs to, its conditions and its order, as values (or why it cannot be
read). Everything after, screening, choosing and adjudicating, works on those values: a line
is parsed once on its way to the engine.

>>> from fogdip.engine.map import standard_map
>>> from fogdip.variants.options import preset
>>> line = read_line("retreat: IF A BEL - HOL THEN F NTH R NWG", ("M", "R", "A"), standard_map(), preset("sighting"))
>>> line.kind, [str(c) for c in line.conditions], str(line.order)
('R', ['A BEL - HOL'], 'F NTH R NWG')
>>> read_line("A PAR - MARS", ("M",), standard_map(), preset("standard")).problem
"unknown province 'MARS'"

:func:`route_lines` splits a power's order list by sub-phase (``"M"``, ``"R"``, ``"A"``):

>>> route_lines(["A PAR - BUR", "F NTH R NWG", "A PAR B", "RETREAT: A MUN D"], ("M", "R", "A"))
{'M': ['A PAR - BUR'], 'R': ['F NTH R NWG', 'A MUN D'], 'A': ['A PAR B']}

A conditional line is ``IF <condition> [AND <condition>]... THEN <order>`` (or ``: <order>``).
A condition is ``<own unit> DISLODGED``, ``[A|F] <from> - <to>`` (the unit that stood in
<from> when the orders were filed moved or retreated to <to> this turn) or ``NOT <condition>``:

>>> route_lines(["if f nth dislodged then f nth r nwg", "IF A BEL - HOL: WAIVE"], ("M", "R", "A"))
{'M': [], 'R': ['IF f nth dislodged THEN f nth r nwg'], 'A': ['IF A BEL - HOL THEN WAIVE']}

The syntax and every reading chosen are documented in docs/variants/sighting.md and deadman.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType
from typing import NamedTuple

from fogdip.engine.errors import InvalidOrder
from fogdip.engine.map import Map
from fogdip.engine.notation import parse_order
from fogdip.engine.orders import Hold, Move, Order, Retreat, UnitRef, Written
from fogdip.variants.espionage import DisbandNow, Espionage, ExtraOrder, Peek, parse_extra_order
from fogdip.variants.options import VariantOptions

# --- conditions -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Dislodgement:
    """``F NTH DISLODGED``: the power's own unit there was dislodged this turn."""

    unit: UnitRef

    def __str__(self) -> str:
        return f"{self.unit} DISLODGED"


@dataclass(frozen=True)
class Movement:
    """``A BEL - HOL``: the unit that stood in ``unit.province`` when the orders were filed
    moved or retreated to the province of ``target`` this turn. The kind is checked if
    written, and so is a coast, at either end: ``F SPA/NC - MAO`` does not hold for a fleet
    that left SPA/SC."""

    unit: UnitRef
    target: str

    def __str__(self) -> str:
        return f"{self.unit} - {self.target}"


@dataclass(frozen=True)
class Negation:
    condition: Condition

    def __str__(self) -> str:
        return f"NOT {self.condition}"


Condition = Dislodgement | Movement | Negation

_SECTION = re.compile(r"^\s*(MOVE|MOVES|MOVEMENT|RETREAT|RETREATS|ADJUST|ADJUSTMENT|ADJUSTMENTS)\s*:\s*", re.I)
_SECTION_KIND = MappingProxyType({"MOV": "M", "RET": "R", "ADJ": "A"})
_IF = re.compile(r"^\s*IF\b\s*(?P<conditions>.*?)\s*(?:\bTHEN\b|:)\s*(?P<order>.*?)\s*$", re.I | re.S)
_AND = re.compile(r"\s+AND\s+", re.I)
_NOT = re.compile(r"^NOT\s+", re.I)
_DISLODGED = re.compile(r"\s+(?:IS\s+)?DISLODGED$", re.I)
_MOVED = re.compile(r"\s+(?:MOVED|MOVES|MOVE|RETREATED|RETREATS|RETREAT|R)(?:\s+TO)?\s+", re.I)
_RETREAT_DISBAND = re.compile(r"\s+(?:R|RETREAT|RETREATS)\s+(?:D|DISBAND|DISBANDS)\s*$", re.I)
_VERB_KIND = MappingProxyType(
    {
        "R": "R",
        "RETREAT": "R",
        "RETREATS": "R",
        "B": "A",
        "BUILD": "A",
        "BUILDS": "A",
        "D": "D",
        "DISBAND": "D",
        "DISBANDS": "D",
        "H": "M",
        "HOLD": "M",
        "HOLDS": "M",
        "STAND": "M",
        "STANDS": "M",
        "-": "M",
        "TO": "M",
        "M": "M",
        "MOVE": "M",
        "MOVES": "M",
        "S": "M",
        "SUPPORT": "M",
        "SUPPORTS": "M",
        "C": "M",
        "CONVOY": "M",
        "CONVOYS": "M",
    }
)
_SYNTAX = "write IF <condition> [AND <condition>]... THEN <order>, e.g. IF F NTH DISLODGED THEN F NTH R NWG"


class FiledLine(NamedTuple):
    """A line split into its forced section (from a ``RETREAT:`` style prefix), its condition
    text (``None`` if unconditional) and its order text."""

    section: str | None
    conditions: str | None
    order: str

    def text(self) -> str:
        return self.order if self.conditions is None else f"IF {self.conditions} THEN {self.order}"


def split_line(text: str) -> FiledLine:
    """Split off a section prefix and the conditions; raise :class:`InvalidOrder` if the
    conditional syntax is broken.

    >>> split_line("adjust: IF NOT A BUR - MUN: A PAR B")
    FiledLine(section='A', conditions='NOT A BUR - MUN', order='A PAR B')
    """
    section, rest = _section(text)
    match = _IF.match(rest)
    if match is None:
        if re.match(r"^\s*IF\b", rest, re.I):
            raise InvalidOrder(text, f"a conditional order needs THEN (or ':') before its order: {_SYNTAX}")
        return FiledLine(section, None, rest.strip())
    conditions, order = match.group("conditions"), match.group("order")
    if not conditions:
        raise InvalidOrder(text, f"IF needs a condition: {_SYNTAX}")
    if not order:
        raise InvalidOrder(text, f"nothing follows THEN: {_SYNTAX}")
    inner, order = _section(order)
    return FiledLine(inner or section, conditions, order.strip())


def _section(text: str) -> tuple[str | None, str]:
    match = _SECTION.match(text)
    if match is None:
        return None, text
    return _SECTION_KIND[match.group(1).upper()[:3]], text[match.end() :]


def parse_conditions(line: FiledLine, board: Map, filed: str) -> tuple[Condition, ...]:
    """The conditions of a line, read with the map's names (``filed`` is quoted in errors).

    >>> from fogdip.engine.map import standard_map
    >>> line = split_line("IF NOT f north sea dislodged AND Bel to Hol THEN WAIVE")
    >>> [str(c) for c in parse_conditions(line, standard_map(), "")]
    ['NOT F NTH DISLODGED', 'BEL - HOL']
    """
    if line.conditions is None:
        return ()
    return tuple(_condition(part.strip(), board, filed) for part in _AND.split(line.conditions))


def _condition(text: str, board: Map, filed: str) -> Condition:
    negated = _NOT.match(text)
    if negated:
        return Negation(_condition(text[negated.end() :].strip(), board, filed))
    shape = "a condition is '<your unit> DISLODGED', '[A|F] <from> - <to>' (a unit moved there) or 'NOT <condition>'"
    try:
        dislodged = _DISLODGED.search(text)
        if dislodged:
            held = parse_order(text[: dislodged.start()] + " H", board)
            if isinstance(held, Hold):
                return Dislodgement(held.unit)
        order = parse_order(_MOVED.sub(" - ", " " + text + " ").strip(), board)
    except InvalidOrder as exc:
        raise InvalidOrder(filed, f"condition {text!r}: {exc.reason}; {shape}") from None
    if not isinstance(order, (Move, Retreat)):
        raise InvalidOrder(filed, f"condition {text!r} is not understood: {shape}")
    return Movement(UnitRef(order.unit.kind, order.unit.location), order.target)


# --- routing ----------------------------------------------------------------------------------


def line_kind(line: FiledLine, kinds: tuple[str, ...]) -> str:
    """The sub-phase a line belongs to: its section prefix, else what its order is. A plain
    disband is a Winter removal when the turn has adjustments, else a retreat disband. A line
    that is no standard order (``PAS NTH``, ``F NTH DB``) is a movement order."""
    if line.section is not None:
        return line.section
    words = _words(line.order)
    if words[:1] in (["WAIVE"], ["BUILD"]):
        return "A"
    if words[:1] in (["DISBAND"], ["REMOVE"]):
        verb = "D"
    else:  # the first order word after the unit: a supported unit's move comes later
        verb = next((_VERB_KIND[w] for w in words[1:] if w in _VERB_KIND), "M")
    if verb == "D":
        return next((k for k in ("A", "R") if k in kinds), "M")
    return verb


def _words(order: str) -> list[str]:
    text = re.sub(r"\([^)]*\)|/\s*\w+", " ", order.upper())
    # A hyphen inside a word is part of a name (Mid-Atlantic Ocean), or a move (PAR-BUR).
    text = re.sub(r"(?<![A-Z])-|-(?![A-Z])", " - ", text.replace("->", " - "))
    return re.sub(r"[.,:]", " ", text).split()


def route_lines(lines: list[str], kinds: tuple[str, ...]) -> dict[str, list[str]]:
    """Split one power's order list for a combined turn by the sub-phase kind ("M", "R", "A")
    each line belongs to, keeping their order. Section prefixes are removed. A line for a
    sub-phase the turn does not have is kept under its own key, which the turn ignores
    (:func:`check_filed_line` rejects it with a reason).

    >>> route_lines(["A PAR D", "F NTH DB", "F BRE B"], ("A", "M"))
    {'A': ['A PAR D', 'F BRE B'], 'M': ['F NTH DB']}
    >>> route_lines(["MOVE: A PAR D", "A PAR B"], ("M", "R"))
    {'M': ['A PAR D'], 'R': [], 'A': ['A PAR B']}
    """
    routed: dict[str, list[str]] = {kind: [] for kind in kinds}
    for text in lines:
        kind, handed_on = routed_line(text, kinds)
        routed.setdefault(kind, []).append(handed_on)
    return routed


def routed_line(text: str, kinds: tuple[str, ...]) -> tuple[str, str]:
    """One line's sub-phase, and its text as handed on (prefix removed): what
    :func:`route_lines` does to each line. An unreadable conditional line goes to the
    movement phase (else the first), whose engine reports it as unreadable.

    >>> routed_line("retreat: F NTH - NWG", ("M", "R", "A")), routed_line("IF F NTH DISLODGED", ("M", "R", "A"))
    (('R', 'F NTH - NWG'), ('M', 'IF F NTH DISLODGED'))
    """
    try:
        line = split_line(text)
    except InvalidOrder:
        return ("M" if "M" in kinds else kinds[0]), text
    return (kinds[0] if len(kinds) == 1 else line_kind(line, kinds)), line.text()


# --- one line, read --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Line:
    """One line a power filed, read: the sub-phase it belongs to (``kind``, perhaps one the
    turn does not have), the order part as handed on (``order_text``: the section prefix and
    the conditions taken off), whether it was conditional, its conditions, and its order (an
    engine order, or a variant's own: espionage, a peek, a disband in movement). ``problem``
    says why it cannot be read; then ``order`` is ``None``."""

    text: str
    kind: str
    order_text: str
    section: str | None = None
    conditional: bool = False
    conditions: tuple[Condition, ...] = ()
    order: Order | ExtraOrder | None = None
    problem: str | None = None
    #: The line's shape is broken (an IF without THEN, say): nothing in it could be read.
    malformed: bool = False

    @property
    def written(self) -> Written:
        """The engine's input for this line: its order with the words it was read from."""
        assert self.order is not None and not isinstance(self.order, (Espionage, DisbandNow, Peek)), self
        return Written(self.order_text, self.order)


def read_line(text: str, kinds: tuple[str, ...], board: Map, options: VariantOptions) -> Line:
    """Read one line filed for a turn that plays the sub-phases ``kinds``. Only a movement line
    of a variant with extra orders is read as one (``F NTH D`` is a retreat's disband
    elsewhere)."""
    try:
        filed = split_line(text)
    except InvalidOrder as exc:
        return Line(text, "M" if "M" in kinds else kinds[0], text, None, True, problem=exc.reason, malformed=True)
    # One sub-phase takes every line (routed_line); a section prefix still says what it was meant for.
    kind = kinds[0] if len(kinds) == 1 else line_kind(filed, kinds)
    section, conditional, handed_on = filed.section, filed.conditions is not None, filed.order
    try:
        conditions = parse_conditions(filed, board, text)
        extras = options.espionage or options.peek or options.disband_in_movement
        order: Order | ExtraOrder | None = parse_extra_order(handed_on, board) if kind == "M" and extras else None
        if order is None:
            order = parse_order(_RETREAT_DISBAND.sub(" D", handed_on), board)
    except InvalidOrder as exc:
        return Line(text, kind, handed_on, section, conditional, problem=exc.reason)
    return Line(text, kind, handed_on, section, conditional, conditions, order)


def read_lines(texts: list[str], kinds: tuple[str, ...], board: Map, options: VariantOptions) -> list[Line]:
    return [read_line(text, kinds, board, options) for text in texts]
