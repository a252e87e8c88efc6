"""Checking orders when a player files them, before the turn is adjudicated.

Each line gets a verdict: accepted, or the reason it cannot be, saying how to fix it. In a fog
game the check uses only what the filing power may know (its own units and centres, and the
map), so the reasons never reveal a foreign unit: a support of a unit that is not there is
filed, and fails at adjudication like any other order. Without fog, the engine's full check is
used.

>>> from fogdip.variants import Variant
>>> variant = Variant.named("fog-of-war")
>>> position = variant.start()
>>> [(c.text, c.error) for c in check_lines(variant, position, "FRANCE", ["A PAR - BUR", "A PAR - NTH", "F KIE H"])]
[('A PAR - BUR', None), ('A PAR - NTH', 'an army cannot move to North Sea, a sea'), ('F KIE H', 'FRANCE has no unit in KIE')]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from fogdip.engine.errors import FogdipError
from fogdip.engine.map import Map
from fogdip.engine.notation import parse_order
from fogdip.engine.orders import Build, Convoy, Disband, Hold, Move, Order, Retreat, SupportHold, SupportMove, Waive
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit
from fogdip.engine.validate import OrderChecker, Rejection
from fogdip.variants import setup as setups
from fogdip.variants.conditional import check_filed_line, routed_line
from fogdip.variants.extra_orders import MovementExtras
from fogdip.variants.turn import Position, Variant


@dataclass(frozen=True, slots=True)
class LineCheck:
    """One filed line and its verdict (``error`` is ``None`` when accepted)."""

    number: int
    text: str
    error: str | None

    @property
    def ok(self) -> bool:
        return self.error is None


def check_lines(variant: Variant, position: Position, power: str, lines: list[str]) -> list[LineCheck]:
    """Check every line ``power`` files for the next turn of ``position``."""
    state = position.state
    if power not in state.powers:
        raise FogdipError(f"{power} is not a power of this game: use one of {', '.join(state.powers)}")
    if position.completed:
        raise FogdipError("the game is over; no more orders can be filed")
    if position.setup_pending:
        try:
            setups.choose_units(state, power, lines, variant.options.setup)
        except FogdipError as exc:
            reason = getattr(exc, "reason", str(exc))
            return [LineCheck(i + 1, text, reason) for i, text in enumerate(lines)] or [LineCheck(0, "", reason)]
        return [LineCheck(i + 1, text, None) for i, text in enumerate(lines)]
    kinds = variant.turn_kinds(position)
    out = []
    for index, text in enumerate(lines):
        kind, handed_on = routed_line(text, kinds)
        ahead = kind != kinds[0]
        error = _check_line(variant, position, power, text if ahead else handed_on, kind, filed_ahead=ahead)
        out.append(LineCheck(index + 1, text, error))
    return out


def _check_line(variant: Variant, position: Position, power: str, text: str, kind: str, filed_ahead: bool) -> str | None:
    state, options = position.state, variant.options
    try:
        if filed_ahead or text.strip().upper().startswith("IF "):
            check_filed_line(text, state, power, options, variant.sight(position, power))
            return None
        if kind == "M" and (options.espionage or options.peek or options.disband_in_movement):
            _extras, remaining, refused = MovementExtras.collect(state, {power: [text]}, options, position.usage)
            if refused:
                return refused[0].reason
            if not remaining.get(power):
                return None
            text = remaining[power][0]
        order = parse_order(text, state.board)
        if not options.fog_enabled:
            return _engine_check(variant, state, power, order, text)
        return _blind_check(state, power, order, options.build_in_any_owned_center)
    except FogdipError as exc:
        return getattr(exc, "reason", str(exc))


def _engine_check(variant: Variant, state: GameState, power: str, order: Order, text: str) -> str | None:
    try:
        checked = OrderChecker(state, variant.rules).check(power, order, text)
    except Rejection as exc:
        return exc.reason if hasattr(exc, "reason") else str(exc)
    return None if checked.legal else checked.reason


# --- the blind check: the power's own units and centres, and the map -------------------------

def _blind_check(state: GameState, power: str, order: Order, build_anywhere: bool) -> str | None:
    board, phase = state.board, state.phase.kind
    if isinstance(order, (Build, Waive)) or (isinstance(order, Disband) and phase == "A"):
        if phase != "A":
            return f"{state.phase} is not an adjustment phase: builds, removals and WAIVE are ordered in Winter"
        return _blind_adjustment(state, power, order, build_anywhere)
    province = board.province_of(order.unit.location)
    own = _own_unit(state, power, province, retreat=phase == "R")
    if own is None:
        what = "dislodged unit" if phase == "R" else "unit"
        return f"{power} has no {what} in {province}"
    if order.unit.kind is not None and order.unit.kind != own.kind:
        return f"wrong unit type: the unit in {province} is {'an army' if own.kind == 'A' else 'a fleet'}, write {own}"
    if phase == "R":
        if isinstance(order, Disband):
            return None
        if not isinstance(order, Retreat):
            return f"{state.phase} is a retreat phase: a dislodged unit may only retreat (R) or disband (D)"
        return _reach_error(board, own, order.target, "retreat to")
    if isinstance(order, Hold):
        return None
    if isinstance(order, Move):
        return _move_error(board, own, order.target)
    if isinstance(order, SupportHold):
        target = board.province_of(order.supported.location)
        if target == province:
            return f"{own} cannot support itself"
        return _reach_error(board, own, target, "support a unit in")
    if isinstance(order, SupportMove):
        target = board.province_of(order.target)
        if target == province:
            return f"{own} cannot support a move into its own province"
        if board.province_of(order.supported.location) == target:
            return f"{order.supported.location} - {order.target} is not a move"
        return _reach_error(board, own, target, "support a move to")
    if isinstance(order, Convoy):
        if own.kind != "F" or board.provinces[province].terrain != "sea":
            return "only fleets at sea can convoy"
        for end in (order.army.location, order.target):
            if board.provinces[board.province_of(end)].terrain != "coast":
                return f"an army can be convoyed only between coastal provinces; {board.province_of(end)} is not one"
        return None
    return f"{order.kind} orders belong to another phase; {state.phase} is a movement phase: use H, -, S or C"


def _own_unit(state: GameState, power: str, province: str, retreat: bool) -> Unit | None:
    if retreat:
        dislodged = state.dislodged.get(province)
        unit = dislodged.unit if dislodged is not None else None
    else:
        unit = state.units.get(province)
    return unit if unit is not None and unit.power == power else None


def _move_error(board: Map, unit: Unit, target_location: str) -> str | None:
    target = board.province_of(target_location)
    if not board.provinces[target].passable:
        return f"{board.provinces[target].name} is impassable"
    if target == unit.province:
        return f"{unit} cannot move to the province it is in"
    if unit.kind == "A":
        if board.provinces[target].terrain == "sea":
            return f"an army cannot move to {board.provinces[target].name}, a sea"
        coastal = board.provinces[unit.province].terrain == "coast" and board.provinces[target].terrain == "coast"
        if target in board.army_targets(unit.location) or coastal:
            return None
        return f"{unit} cannot reach {target}: not adjacent, and not a coast a convoy could carry it to"
    return _reach_error(board, unit, target_location, "move to")


def _reach_error(board: Map, unit: Unit, target_location: str, doing: str) -> str | None:
    target = board.province_of(target_location)
    if target in board.reachable_provinces(unit.kind, unit.location):
        if unit.kind == "F" and target_location != target and target_location not in board.fleet_targets(unit.location):
            return f"{unit} cannot reach {target_location}"
        return None
    return f"{unit} cannot {doing} {target}"


def _blind_adjustment(state: GameState, power: str, order: Order, build_anywhere: bool) -> str | None:
    board = state.board
    delta = state.adjustment(power)
    if isinstance(order, Disband):
        province = board.province_of(order.unit.location)
        if _own_unit(state, power, province, retreat=False) is None:
            return f"{power} has no unit in {province}"
        return None if delta < 0 else f"{power} has no removals to make this winter"
    if delta <= 0:
        return f"{power} has no builds this winter"
    if isinstance(order, Waive):
        return None
    assert isinstance(order, Build)
    location = order.unit.location
    province = board.province_of(location)
    allowed: Callable[[str], bool] = (
        (lambda c: True) if build_anywhere else (lambda c: c in state.homes.get(power, ()))
    )
    if not allowed(province):
        return f"{province} is not a home centre of {power}"
    if state.centers.get(province) != power:
        return f"{power} does not own {province}"
    if _own_unit(state, power, province, retreat=False) is not None:
        return f"{province} already has one of your units"
    kind = order.unit.kind
    if kind is None:
        return f"say which unit to build in {province}: A {province} or F {province}"
    if kind == "F" and location == province and board.coasts(province):
        return f"name the coast for a fleet in {province}: {' or '.join(board.coasts(province))}"
    if not board.can_hold(kind, location):
        return f"{'an army' if kind == 'A' else 'a fleet'} cannot be built in {board.provinces[province].name}"
    return None
