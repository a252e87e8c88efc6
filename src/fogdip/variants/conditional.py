"""Orders filed ahead, and conditional orders (seed 001), for turns that play several phases.

A combined turn takes one order list per power: seed 001 files Fall's retreats and Winter's
adjustments with the Fall moves, seed 002 files Winter's builds with the next Spring's moves.
Each line is read once (:func:`fogdip.variants.lines.read_line`); :func:`check_line` vets it,
the first step of the one screening filing and playing share
(:mod:`fogdip.variants.screening`); :func:`select_retreats` and :func:`select_adjustments`
pick, when a sub-phase comes, the orders to hand the engine.

The syntax and every reading chosen are documented in docs/variants/sighting.md and deadman.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from fogdip.engine.errors import FogdipError, InvalidOrder
from fogdip.engine.map import Map, UnitKind
from fogdip.engine.orders import (
    Build,
    Disband,
    Move,
    Order,
    Retreat,
    UnitRef,
    Waive,
    Written,
)
from fogdip.engine.outcomes import Resolution
from fogdip.engine.rules import Rules, get_rules
from fogdip.engine.state import GameState
from fogdip.engine.units import Phase, Unit
from fogdip.engine.validate import OrderChecker, check_by_map
from fogdip.variants.espionage import DisbandNow, Espionage, Peek
from fogdip.variants.lines import (
    Condition,
    Dislodgement,
    Line,
    Negation,
    read_line,
)
from fogdip.variants.options import VariantOptions
from fogdip.variants.phase_words import named_kinds, not_of_kind, order_kinds, out_of_turn


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


_KIND_WORDS = MappingProxyType({"M": "movement", "R": "retreat", "A": "adjustment"})
#: Whether a unit could make a move at all, by the map alone: no edition's rules differ on it.
_MAP_RULES = get_rules().with_options(legality="map")
_ANY_MOVEMENT = Phase("S", 1901, "M")


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


# --- checking at filing time ------------------------------------------------------------------


@dataclass(frozen=True)
class Sight:
    """What the filing power could see in the position its orders are filed in: whether it
    would see a foreign unit of a kind on a location, coast included
    (:meth:`fogdip.fog.rules.FogRules.sees_unit_at`), and the provinces where it would see
    some unit (asked for only to explain a refusal)."""

    sees: Callable[[UnitKind, str], bool]
    visible: Callable[[], frozenset[str]]


def check_line(line: Line, state: GameState, power: str, options: VariantOptions, sight: Sight) -> None:
    """Raise :class:`InvalidOrder` if a line, as filed for the turn starting at ``state``, is
    malformed, belongs to no sub-phase of the turn, is conditional where it may not be, cannot
    be read, names a foreign unit's place the power could not see (``sight``: seed 001 allows
    conditions only on "those exact spaces where he could see the foreign unit"), or is an
    order of another kind than its sub-phase takes (:mod:`fogdip.variants.phase_words`). A line
    filed ahead for a retreat or an adjustment is checked against what the power's own units
    and the map settle now. These are the first checks of
    :func:`fogdip.variants.screening.screen`, which goes on with the unit, legality and counts.
    Every reason depends only on the power's own units, the map and ``sight``."""
    text = line.text
    if line.malformed:
        raise InvalidOrder(text, line.problem or "")
    kinds = turn_kinds(options, state.phase)
    turn = str(state.phase)
    kind = line.section if len(kinds) == 1 and line.section is not None else line.kind
    if kind not in kinds:
        raise InvalidOrder(text, out_of_turn((kind,), turn, kinds, options))
    if line.conditional:
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
    if line.problem is not None:
        raise InvalidOrder(text, line.problem)
    for condition in line.conditions:
        _check_condition(condition, state, power, sight, text)
    order = line.order
    assert order is not None
    belongs = order_kinds(order)
    if kind not in belongs:
        # A turn of one phase takes every line, so the order is out of its turn; in a turn of
        # several, a section prefix put it in a sub-phase it does not belong to.
        missing = [k for k in named_kinds(order) if k not in kinds]
        raise InvalidOrder(text, out_of_turn(missing, turn, kinds, options) if missing else not_of_kind(order, kind))
    if kind == kinds[0] or kind == "M":
        return
    if kind == "R":
        assert isinstance(order, (Retreat, Move, Disband))  # order_kinds says so
        _check_retreat(order, state, power, text)
    else:
        assert isinstance(order, (Build, Disband, Waive))
        _check_adjustment(order, state, power, options, text)


def check_filed_line(text: str, state: GameState, power: str, options: VariantOptions, sight: Sight) -> None:
    """:func:`check_line` for a line as the power wrote it.

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
    line = read_line(text, turn_kinds(options, state.phase), state.board, options)
    check_line(line, state, power, options, sight)


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
    coast of the province, if none is written), moving to the written location (any coast).
    A move is possible as the engine judges it by the map alone (an army overland or by any
    chain of seas): the same judgement fog games adjudicate by."""
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
                move = Move(UnitRef("A", start), destination)
                if check_by_map(board, _MAP_RULES, _ANY_MOVEMENT, Unit("", "A", start), move).legal:
                    out.append(("A", start, destination))
                continue
            out.extend(
                ("F", start, end)
                for end in sorted(board.fleet_targets(start))
                if board.province_of(end) == destination and (target == destination or end == target)
            )
    return sorted(set(out))


def _check_retreat(order: Retreat | Move | Disband, state: GameState, power: str, text: str) -> None:
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


def _check_adjustment(
    order: Build | Disband | Waive, state: GameState, power: str, options: VariantOptions, text: str
) -> None:
    # Who owns what, and where units stand, is only known once the turn is played: only what
    # the map and the power's own home centres settle is checked here.
    if isinstance(order, Waive):
        return
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


def _usable(line: Line, state: GameState, power: str, context: TurnContext) -> Order | None:
    """The order of a line whose conditions hold, or ``None``."""
    if line.order is None or isinstance(line.order, (Espionage, DisbandNow, Peek)):
        return None  # screened out when played; never guess at a broken line
    if all(holds(c, state, power, context) for c in line.conditions):
        return line.order
    return None


def select_retreats(
    state: GameState, power: str, lines: list[Line], context: TurnContext, rules: Rules
) -> list[Written]:
    """The retreat orders to use, for a retreat sub-phase: per dislodged unit, of the lines
    whose conditions hold and that are legal, the first whose target is free (the player's
    guesses, tried in the order filed), else the first of them, which then fails and the
    unit is disbanded. A unit with no such line gets no order, so the engine disbands it.
    Lines for units not dislodged are ignored."""
    checker = OrderChecker(state, rules)
    first: dict[str, Written] = {}
    chosen: dict[str, Written] = {}
    for line in lines:
        order = _usable(line, state, power, context)
        if order is None:
            continue
        try:
            checked = checker.check(power, order, line.order_text)
        except FogdipError:
            continue  # not a dislodged unit of the power
        assert checked.unit is not None
        province = checked.unit.province
        if not checked.legal or province in chosen:
            continue
        written = Written(line.order_text, checked.order)
        first.setdefault(province, written)
        target = getattr(checked.order, "target", None)
        if target is None or target in state.dislodged[province].retreats:
            chosen[province] = written
    return [chosen.get(province, order) for province, order in first.items()]


def select_adjustments(
    state: GameState, power: str, lines: list[Line], context: TurnContext, rules: Rules
) -> list[Written]:
    """The adjustment orders to use: every line whose conditions hold, in the order filed.
    The engine carries them out first to last, skipping those that cannot be; with none, a
    power builds nothing and loses units by the civil-disorder rule."""
    chosen = []
    for line in lines:
        order = _usable(line, state, power, context)
        if order is not None:
            chosen.append(Written(line.order_text, order))
    return chosen
