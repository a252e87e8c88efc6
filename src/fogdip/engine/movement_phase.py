"""Adjudicating a movement phase: from checked orders to resolver nodes to a resolution record."""

from __future__ import annotations

from dataclasses import dataclass

from fogdip.engine.movement import (
    BY_CONVOY,
    CONVOY,
    DIRECT,
    HOLD,
    MOVE,
    SUPPORT_HOLD,
    SUPPORT_MOVE,
    MovementResolver,
    Node,
)
from fogdip.engine.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove, UnitRef
from fogdip.engine.outcomes import OrderResult
from fogdip.engine.rules import Rules
from fogdip.engine.state import Dislodged, GameState
from fogdip.engine.units import Unit
from fogdip.engine.validate import CheckedOrder

_KIND_OF = {"hold": HOLD, "move": MOVE, "support_hold": SUPPORT_HOLD, "support_move": SUPPORT_MOVE, "convoy": CONVOY}


@dataclass(frozen=True, slots=True)
class MovementOutcome:
    results: list[OrderResult]
    units: dict[str, Unit]
    dislodged: dict[str, Dislodged]
    moves: dict[str, str]
    dislodged_from: dict[str, str]
    convoy_paths: dict[str, tuple[str, ...]]
    supports: dict[str, str]
    standoffs: tuple[str, ...]


def resolve_movement(
    state: GameState, checked: dict[str, CheckedOrder], rules: Rules, explain: bool = True
) -> MovementOutcome:
    """Resolve a movement phase. ``checked`` holds one order per unit, keyed by province."""
    board = state.board
    nodes: list[Node] = []
    index: dict[str, int] = {}
    for province, unit in state.units.items():
        entry = checked.get(province)
        order: Order = entry.order if entry is not None and entry.legal else Hold(UnitRef(unit.kind, unit.location))
        index[province] = len(nodes)
        nodes.append(_node(unit, order))

    _link(nodes, index, state, checked, rules)
    resolver = MovementResolver(nodes, board.neighbours)
    decisions = resolver.run()

    counted = {s for node in nodes for s in node.supporters}
    units: dict[str, Unit] = {}
    moves: dict[str, str] = {}
    dislodged_from: dict[str, str] = {}
    convoy_paths: dict[str, tuple[str, ...]] = {}
    supports: dict[str, str] = {}
    for i, node in enumerate(nodes):
        if node.kind == MOVE and decisions[i]:
            moves[node.province] = node.target_location
            if resolver.is_convoyed(i):
                convoy_paths[node.province] = _used_route(resolver, i, board.neighbours)
        elif node.kind in (SUPPORT_HOLD, SUPPORT_MOVE) and decisions[i] and i in counted:
            supports[node.province] = node.supported
    for i, node in enumerate(nodes):
        if node.province in moves:
            continue
        attacker = resolver.dislodger(i)
        if attacker is not None:
            dislodged_from[node.province] = nodes[attacker].province
        else:
            units[node.province] = node.unit
    for origin, location in moves.items():
        unit = nodes[index[origin]].unit
        units[board.province_of(location)] = Unit(unit.power, unit.kind, location)

    standoffs = _standoffs(resolver, units)
    dislodged: dict[str, Dislodged] = {}
    for province, attacker_from in dislodged_from.items():
        unit = nodes[index[province]].unit
        convoyed = resolver.is_convoyed(index[attacker_from])
        blocked = None if convoyed and rules.retreat_to_convoy_origin else attacker_from
        options = tuple(
            sorted(
                t for t in board.targets(unit.kind, unit.location)
                if (p := board.province_of(t)) not in units and p != blocked and p not in standoffs
            )
        )
        dislodged[province] = Dislodged(unit, attacker_from, options)

    results = [
        _result(resolver, i, node, checked.get(node.province), counted, dislodged_from, explain)
        for i, node in enumerate(nodes)
    ]
    return MovementOutcome(results, units, dislodged, moves, dislodged_from, convoy_paths, supports, standoffs)


def _node(unit: Unit, order: Order) -> Node:
    kind = _KIND_OF[order.kind]
    node = Node(unit=unit, kind=kind, province=unit.province)
    if isinstance(order, Move):
        node.target_location = order.target
        node.target = order.target.partition("/")[0]
    elif isinstance(order, SupportHold):
        node.supported = order.supported.province
        node.target = node.supported
    elif isinstance(order, SupportMove):
        node.supported = order.supported.province
        node.target = order.target.partition("/")[0]
        node.target_location = order.target
    elif isinstance(order, Convoy):
        node.supported = order.army.province
        node.target = order.target
    return node


def _link(nodes: list[Node], index: dict[str, int], state: GameState, checked: dict[str, CheckedOrder], rules: Rules) -> None:
    """Attach matching supports and convoys, and settle how each army move travels."""
    board = state.board
    for s, node in enumerate(nodes):
        if node.kind == SUPPORT_HOLD:
            j = index.get(node.supported)
            if j is not None and nodes[j].kind != MOVE:
                nodes[j].supporters.append(s)
        elif node.kind == SUPPORT_MOVE:
            j = index.get(node.supported)
            if j is None:
                continue
            mover = nodes[j]
            if mover.kind != MOVE or mover.target != node.target:
                continue
            if "/" in node.target_location and mover.unit.kind == "F" and node.target_location != mover.target_location:
                continue  # DATC 4.B.4: a named coast must match
            mover.supporters.append(s)
        elif node.kind == CONVOY:
            j = index.get(node.supported)
            if j is not None and nodes[j].kind == MOVE and nodes[j].target == node.target and nodes[j].unit.kind == "A":
                nodes[j].convoyers.append(s)
    for i, node in enumerate(nodes):
        if node.kind != MOVE or node.unit.kind != "A":
            continue
        adjacent = node.target in board.army_targets(node.unit.location)
        if not adjacent:
            node.route = BY_CONVOY
            continue
        entry = checked.get(node.province)
        via = bool(entry and isinstance(entry.order, Move) and entry.order.via_convoy)
        intent = via or (
            rules.adjacent_convoy_intent == "rulebook"
            and any(nodes[f].unit.power == node.unit.power for f in node.convoyers)
        )
        if not intent or (not node.convoyers and rules.via_convoy_falls_back_to_land):
            node.route = DIRECT
            node.convoyers.clear()
        else:
            node.route = BY_CONVOY


def _used_route(resolver: MovementResolver, i: int, neighbours: dict[str, frozenset[str]]) -> tuple[str, ...]:
    """The shortest chain of successful convoying fleets that carried army ``i``."""
    node = resolver.nodes[i]
    usable = {resolver.nodes[f].province for f in node.convoyers if resolver.result[f]}
    paths: dict[str, tuple[str, ...]] = {node.province: ()}
    frontier = [node.province]
    while frontier:
        following: list[str] = []
        for here in frontier:
            for there in sorted(neighbours[here]):
                if there in usable and there not in paths:
                    paths[there] = paths[here] + (there,)
                    if node.target in neighbours[there]:
                        return paths[there]
                    following.append(there)
        frontier = following
    return ()


def _standoffs(resolver: MovementResolver, units: dict[str, Unit]) -> tuple[str, ...]:
    contested = set()
    for province, movers in resolver.moves_into.items():
        if province in units:
            continue
        for r in movers:
            if not resolver.result[r] and resolver.prevent_strength(r) > 0:
                contested.add(province)
                break
    return tuple(sorted(contested))


def _result(
    resolver: MovementResolver,
    i: int,
    node: Node,
    entry: CheckedOrder | None,
    counted: set[int],
    dislodged_from: dict[str, str],
    explain: bool,
) -> OrderResult:
    unit = node.unit
    nodes = resolver.nodes
    ok = resolver.result[i]
    defaulted = entry is None
    legal = entry is None or entry.legal
    order: Order = entry.order if entry is not None else Hold(UnitRef(unit.kind, unit.location))
    text = entry.text if entry is not None else ""
    words: list[str] = []
    reason = ""
    if not legal:
        outcome, reason = "illegal", entry.reason if entry else ""
        words.append("void")
    elif node.kind == MOVE:
        if ok:
            outcome = "moved"
            reason = f"{unit} moved to {node.target_location}" if explain else ""
        elif not resolver.has_path(i):
            if any(resolver.result[f] is False for f in node.convoyers) or resolver.paradox & set(node.convoyers):
                outcome, words = "disrupted", ["disrupted"]
                reason = f"{unit} was not convoyed: the convoy was disrupted" if explain else ""
            else:
                outcome, words = "no-path", ["no convoy"]
                reason = f"{unit} found no convoy to {node.target}" if explain else ""
        else:
            outcome, words = "bounced", ["bounce"]
            reason = _bounce_reason(resolver, i) if explain else ""
    elif node.kind in (SUPPORT_HOLD, SUPPORT_MOVE):
        if i not in counted:
            outcome, words = "void", ["void"]
            reason = f"{unit}: the supported unit did not {'hold' if node.kind == SUPPORT_HOLD else 'make that move'}" if explain else ""
        elif ok:
            outcome = "supported"
            reason = f"{unit} gave its support" if explain else ""
        else:
            outcome, words = "cut", ["cut"]
            reason = _cut_reason(resolver, i) if explain else ""
    elif node.kind == CONVOY:
        army = resolver.at.get(node.supported)
        if army is None or i not in nodes[army].convoyers:
            outcome, words = "void", ["void"]
            reason = f"{unit}: the army did not make that move" if explain else ""
        elif i in resolver.paradox:
            outcome, words = "disrupted", ["disrupted"]
            reason = f"{unit}: the convoy is part of a paradox and fails (Szykman rule)" if explain else ""
        elif not ok:
            outcome, words = "disrupted", ["disrupted"]
            reason = f"{unit} was dislodged and its convoy disrupted" if explain else ""
        else:
            outcome = "convoyed" if resolver.result[army] else "convoy-unused"
            reason = f"{unit} convoyed" if explain else ""
    else:
        outcome = "held"
        reason = f"{unit} held" if explain and not defaulted else (f"{unit} had no order and held" if explain else "")
    attacker = dislodged_from.get(node.province)
    if attacker is not None:
        words.append("dislodged")
        if explain:
            reason = (reason + "; " if reason else "") + f"dislodged by {nodes[resolver.at[attacker]].unit} from {attacker}"
    return OrderResult(unit.power, unit, order, text, legal, defaulted, outcome, tuple(words), reason, attacker)


def _bounce_reason(resolver: MovementResolver, i: int) -> str:
    node = resolver.nodes[i]
    attack = resolver.attack_strength(i)
    opponent = resolver.head_to_head_opponent(i)
    nodes = resolver.nodes
    if attack == 0:
        j = resolver.at.get(node.target)
        if j is not None and nodes[j].unit.power == node.unit.power:
            return f"bounced: {node.unit} may not dislodge its own {nodes[j].unit}"
    if opponent is not None:
        defend = resolver.defend_strength(opponent)
        if attack <= defend:
            return f"bounced: {attack} against {defend} in a head-to-head battle with {nodes[opponent].unit} - {node.province}"
    else:
        hold = resolver.hold_strength(node.target)
        if attack <= hold:
            j = resolver.at[node.target]
            return f"bounced: {attack} against {hold} held by {nodes[j].unit}"
    for r in resolver.moves_into[node.target]:
        if r != i:
            prevent = resolver.prevent_strength(r)
            if attack <= prevent:
                return f"bounced: {attack} against {prevent} with {nodes[r].unit} - {node.target}"
    return "bounced"


def _cut_reason(resolver: MovementResolver, i: int) -> str:
    node = resolver.nodes[i]
    for r in resolver.moves_into.get(node.province, ()):
        mover = resolver.nodes[r]
        if mover.unit.power != node.unit.power and (mover.province != node.target or resolver.result[r]):
            return f"support cut by {mover.unit} - {node.province}"
    return "support cut"
