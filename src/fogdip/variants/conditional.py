"""Orders filed ahead, and conditional orders (seed 001), for turns that play several phases.

A combined turn takes one order list per power: seed 001 files Fall's retreats and Winter's
adjustments with the Fall moves, seed 002 files Winter's builds with the next Spring's moves.
:func:`route_lines` splits the list by sub-phase (``"M"``, ``"R"``, ``"A"``);
:func:`check_filed_line` vets a line when it is filed; :func:`select_retreats` and
:func:`select_adjustments` pick, when a sub-phase comes, the lines to hand the engine.

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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import NamedTuple

from fogdip.engine.errors import FogdipError, InvalidOrder
from fogdip.engine.map import Map, UnitKind
from fogdip.engine.notation import parse_order
from fogdip.engine.orders import Build, Disband, Hold, Move, Order, Retreat, UnitRef, Waive
from fogdip.engine.outcomes import Resolution
from fogdip.engine.rules import Rules
from fogdip.engine.state import GameState
from fogdip.engine.units import Phase
from fogdip.engine.validate import OrderChecker
from fogdip.variants.options import VariantOptions


@dataclass(frozen=True)
class TurnContext:
    """What has happened so far in a turn, for evaluating conditions: every successful move
    and retreat (from province to the location arrived at), the provinces whose units were
    dislodged, and where each unit that moved or retreated stood (province to location, coast
    included)."""

    moves: Mapping[str, str] = field(default_factory=dict)
    dislodged: frozenset[str] = frozenset()
    origins: Mapping[str, str] = field(default_factory=dict)

    def then(self, resolution: Resolution) -> TurnContext:
        """This context with one more phase of the turn played."""
        before = resolution.before
        origins = {**self.origins}
        for province in resolution.moves:
            unit = before.units.get(province) or before.dislodged[province].unit
            origins.setdefault(province, unit.location)
        return TurnContext(
            {**self.moves, **resolution.moves},
            self.dislodged | frozenset(resolution.dislodged),
            origins,
        )


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
_KIND_WORDS = MappingProxyType({"M": "movement", "R": "retreat", "A": "adjustment"})


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


def holds(condition: Condition, state: GameState, power: str, context: TurnContext) -> bool:
    """Whether a condition holds, judged in ``state`` (the sub-phase being played)."""
    if isinstance(condition, Negation):
        return not holds(condition.condition, state, power, context)
    province = condition.unit.province
    if isinstance(condition, Dislodgement):
        waiting = state.dislodged.get(province)
        # Only the power's own dislodgements count (check_filed_line insists on it; this
        # keeps a line that slipped through from learning about a foreign unit).
        return province in context.dislodged and (waiting is None or waiting.unit.power == power)
    board = state.board
    arrived = context.moves.get(province)
    target = board.province_of(condition.target)
    if arrived is None or board.province_of(arrived) != target:
        return False
    if condition.target != target and arrived != condition.target:
        return False  # a coast was named, and the unit arrived on the other one
    if condition.unit.location != province and context.origins.get(province) != condition.unit.location:
        return False  # a coast was named, and the unit left from the other one
    mover = state.units.get(target)
    return condition.unit.kind is None or (mover is not None and mover.kind == condition.unit.kind)


# --- routing ----------------------------------------------------------------------------------


def turn_kinds(options: VariantOptions, phase: Phase) -> tuple[str, ...]:
    """The sub-phase kinds a turn starting at ``phase`` covers (as ``Variant.turn_kinds``).

    >>> from fogdip.variants.options import preset
    >>> turn_kinds(preset("sighting"), Phase("F", 1901, "M")), turn_kinds(preset("deadman"), Phase("W", 1901, "A"))
    (('M', 'R', 'A'), ('A', 'M'))
    """
    if options.fall_winter_combined and phase.kind == "M":
        return ("M", "R", "A") if phase.season == "F" else ("M", "R")
    if options.winter_spring_combined and phase.kind == "A":
        return ("A", "M")
    return (phase.kind,)


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


# --- checking at filing time ------------------------------------------------------------------


@dataclass(frozen=True)
class Sight:
    """What the filing power could see in the position its orders are filed in: whether it
    would see a foreign unit of a kind on a location, coast included
    (:meth:`fogdip.fog.rules.FogRules.sees_unit_at`), and the provinces where it would see
    some unit (asked for only to explain a refusal)."""

    sees: Callable[[UnitKind, str], bool]
    visible: Callable[[], frozenset[str]]


def check_filed_line(text: str, state: GameState, power: str, options: VariantOptions, sight: Sight) -> None:
    """Raise :class:`InvalidOrder` if a line, as filed for the turn starting at ``state``, is
    malformed, belongs to no sub-phase of the turn, is conditional where it may not be, or
    names a foreign unit's place the power could not see (``sight``): seed 001 allows
    conditions only on "those exact spaces where he could see the foreign unit". Plain lines of
    the turn's first sub-phase are left to the engine. Every reason depends only on the power's
    own units, the map and ``sight``.

    >>> from fogdip.variants.options import preset
    >>> from fogdip.engine.units import Unit
    >>> fall = GameState.initial().with_changes(phase=Phase("F", 1901, "M"), units={"GAS": Unit("FRANCE", "F", "GAS")})
    >>> def sees(kind, location):
    ...     return location in ("SPA/NC", "MAO", "BRE", "GAS") or (kind, location) == ("A", "SPA")
    >>> sight = Sight(sees, lambda: frozenset({"SPA", "MAO", "BRE", "GAS"}))
    >>> try:
    ...     check_filed_line("IF SPA - MAO THEN WAIVE", fall, "FRANCE", preset("sighting"), sight)
    ... except InvalidOrder as exc:
    ...     print(exc.reason)
    IF SPA - MAO: you could not see a fleet on SPA/SC; name the places exactly, as in IF F SPA/NC - MAO
    >>> check_filed_line("IF F SPA/NC - MAO THEN WAIVE", fall, "FRANCE", preset("sighting"), sight)
    """
    line = split_line(text)
    kinds = turn_kinds(options, state.phase)
    kind = kinds[0] if len(kinds) == 1 and line.section is None else line_kind(line, kinds)
    if kind not in kinds:
        raise InvalidOrder(text, _absent(kind, kinds, state.phase, options))
    if line.conditions is not None:
        if not options.conditional_orders:
            raise InvalidOrder(text, "conditional orders are not allowed in this variant")
        if kind == kinds[0] or kind == "M":
            raise InvalidOrder(
                text,
                (
                    f"only retreats and adjustments filed ahead may be conditional; "
                    f"{_KIND_WORDS[kind]} orders this turn are carried out as filed"
                ),
            )
        for condition in parse_conditions(line, state.board, text):
            _check_condition(condition, state, power, sight, text)
    if kind == kinds[0] or kind == "M":
        return  # read and checked by the engine (or a variant's extra orders) when played
    order = _parse(line.order, state.board, text)
    if kind == "R":
        _check_retreat(order, state, power, text)
    else:
        _check_adjustment(order, state, power, options, text)


def _absent(kind: str, kinds: tuple[str, ...], phase: Phase, options: VariantOptions) -> str:
    if kind == "A":
        when = "the Fall orders" if options.fall_winter_combined else "the Winter orders"
        return f"this turn ({phase}) has no adjustments: builds, removals and WAIVE are filed with {when}"
    if kind == "R":
        return f"this turn ({phase}) has no retreats to file ahead"
    return f"this turn ({phase}) has no movement: it plays {', '.join(_KIND_WORDS[k] for k in kinds)}"


def _check_condition(condition: Condition, state: GameState, power: str, sight: Sight, text: str) -> None:
    if isinstance(condition, Negation):
        _check_condition(condition.condition, state, power, sight, text)
        return
    ref, board = condition.unit, state.board
    own = state.units.get(ref.province)
    own = own if own is not None and own.power == power else None
    if own is not None and ref.kind not in (None, own.kind):
        raise InvalidOrder(text, f"IF {condition}: your unit in {ref.province} is {own}")
    if isinstance(condition, Dislodgement):
        if own is None:
            raise InvalidOrder(
                text,
                (
                    f"IF {condition}: you have no unit in {ref.province}; DISLODGED conditions may name only your own units"
                ),
            )
        return
    target = board.province_of(condition.target)
    if target == ref.province:
        raise InvalidOrder(text, f"IF {condition}: a move needs two different spaces")
    if own is not None:
        return  # a power always sees its own units and their moves
    movers = _possible_moves(board, ref, condition.target)
    if not movers:
        raise InvalidOrder(text, f"IF {condition}: no unit could move from {ref.location} to {condition.target}")
    unseen = [(k, a, b) for k, a, b in movers if not (sight.sees(k, a) and sight.sees(k, b))]
    if not unseen:
        return
    kind, start, end = unseen[0]
    where = start if not sight.sees(kind, start) else end
    what = "an army in" if kind == "A" else "a fleet on"
    # The same move named on coasts the power does see, if there are any.
    exact = [
        f"IF {k} {a} - {b}"
        for k, a, b in _possible_moves(board, UnitRef(ref.kind, ref.province), target)
        if sight.sees(k, a) and sight.sees(k, b)
    ]
    if exact:
        advice = f"name the places exactly, as in {', '.join(sorted(exact))}"
    else:
        seen = ", ".join(sorted(sight.visible())) or "none"
        advice = f"conditions may name only places where your units could see the foreign unit: {seen}"
    raise InvalidOrder(text, f"IF {condition}: you could not see {what} {where}; {advice}")


def _possible_moves(board: Map, ref: UnitRef, target: str) -> list[tuple[UnitKind, str, str]]:
    """Every (kind, from, to) move a unit could make that a condition ``ref - target`` would
    describe: units of the written kind (any, if none is written) on the written location (any
    coast of the province, if none is written), moving to the written location (any coast)."""
    out: list[tuple[UnitKind, str, str]] = []
    province, destination = ref.province, board.province_of(target)
    for kind in ("A", "F") if ref.kind is None else (ref.kind,):
        starts = [ref.location] if ref.location != province else list(board.coasts(province)) or [province]
        for start in starts:
            if kind == "A":
                start = province
            if not board.can_hold(kind, start):
                continue
            if kind == "A":
                coastal = (
                    board.provinces[province].terrain == "coast" and board.provinces[destination].terrain == "coast"
                )
                if destination in board.army_targets(start) or coastal:  # overland, or by convoy
                    out.append(("A", start, destination))
                continue
            out.extend(
                ("F", start, end)
                for end in sorted(board.fleet_targets(start))
                if board.province_of(end) == destination and (target == destination or end == target)
            )
    return sorted(set(out))


def _parse(order: str, board: Map, text: str) -> Order:
    try:
        return parse_order(_RETREAT_DISBAND.sub(" D", order), board)
    except InvalidOrder as exc:
        raise InvalidOrder(text, exc.reason) from None


def _check_retreat(order: Order, state: GameState, power: str, text: str) -> None:
    if not isinstance(order, (Retreat, Move, Disband)):
        raise InvalidOrder(text, "a retreat filed ahead is '<unit> R <province>' or '<unit> D'")
    # The unit dislodged this turn is one that stands where it stood at filing time.
    board, ref = state.board, order.unit
    unit = state.units.get(board.province_of(ref.location))
    if unit is None or unit.power != power:
        raise InvalidOrder(text, f"you have no unit in {board.province_of(ref.location)} to retreat")
    if ref.kind not in (None, unit.kind):
        raise InvalidOrder(text, f"your unit in {unit.province} is {unit}")
    reach = board.reachable_provinces(unit.kind, unit.location)
    if not isinstance(order, Disband) and board.province_of(order.target) not in reach:
        raise InvalidOrder(text, f"{unit} could never retreat to {order.target}: it is not one move away")


def _check_adjustment(order: Order, state: GameState, power: str, options: VariantOptions, text: str) -> None:
    # Who owns what, and where units stand, is only known once the turn is played: only what
    # the map and the power's own home centres settle is checked here.
    if isinstance(order, Waive):
        return
    if not isinstance(order, (Build, Disband)):
        raise InvalidOrder(text, "an adjustment is a build ('A PAR B'), a removal ('A PAR D') or WAIVE")
    board, ref = state.board, order.unit
    province = board.province_of(ref.location)
    if isinstance(order, Build):
        if province not in board.center_set:
            raise InvalidOrder(text, f"{province} is not a supply centre")
        if not options.build_in_any_owned_center and province not in state.homes.get(power, ()):
            raise InvalidOrder(text, f"{province} is not a home centre of {power}")
    coasts = board.coasts(province)
    if ref.kind == "F" and coasts and ref.location not in coasts and isinstance(order, Build):
        raise InvalidOrder(text, f"name the coast for a fleet in {province}: {' or '.join(coasts)}")
    where = coasts[0] if ref.kind == "F" and coasts else province  # a fleet stands on a coast
    if ref.kind is not None and not board.can_hold(ref.kind, where):
        what = "an army" if ref.kind == "A" else "a fleet"
        raise InvalidOrder(text, f"{what} cannot stand in {board.full_name(province)}")


# --- choosing at adjudication time ------------------------------------------------------------


def _usable(text: str, state: GameState, power: str, context: TurnContext) -> str | None:
    """The order text of a line whose conditions hold, or ``None``."""
    try:
        line = split_line(text)
        conditions = parse_conditions(line, state.board, text)
    except InvalidOrder:
        return None  # screened out at filing time; never guess at a broken condition
    if all(holds(c, state, power, context) for c in conditions):
        return _RETREAT_DISBAND.sub(" D", line.order)
    return None


def select_retreats(state: GameState, power: str, lines: list[str], context: TurnContext, rules: Rules) -> list[str]:
    """The retreat orders to use, for a retreat sub-phase: per dislodged unit, of the lines
    whose conditions hold and that are legal, the first whose target is free (the player's
    guesses, tried in the order filed), else the first of them, which then fails and the
    unit is disbanded. A unit with no such line gets no order, so the engine disbands it.
    Lines for units not dislodged are ignored."""
    checker = OrderChecker(state, rules)
    first: dict[str, str] = {}
    chosen: dict[str, str] = {}
    for text in lines:
        order_text = _usable(text, state, power, context)
        if order_text is None:
            continue
        try:
            checked = checker.check(power, parse_order(order_text, state.board), order_text)
        except FogdipError:
            continue  # not a dislodged unit of the power
        assert checked.unit is not None
        province = checked.unit.province
        if not checked.legal or province in chosen:
            continue
        first.setdefault(province, str(checked.order))
        target = getattr(checked.order, "target", None)
        if target is None or target in state.dislodged[province].retreats:
            chosen[province] = str(checked.order)
    return [chosen.get(province, order) for province, order in first.items()]


def select_adjustments(state: GameState, power: str, lines: list[str], context: TurnContext, rules: Rules) -> list[str]:
    """The adjustment orders to use: every line whose conditions hold, in the order filed.
    The engine carries them out first to last, skipping those that cannot be; with none, a
    power builds nothing and loses units by the civil-disorder rule."""
    return [order for order in (_usable(text, state, power, context) for text in lines) if order is not None]
