"""Adjudicating a movement phase: from orders to resolver nodes to a resolution record.

Bots adjudicate thousands of phases, so this path does per phase only what depends on the
phase: what the resolver needs from an order, and its text
(:class:`~fogdip.engine.order_facts.OrderFacts`), come with the orders the legal-order
generator vouched for, or from the map's tables (:mod:`fogdip.engine.sites`); reasons are
written only when asked for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

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
from fogdip.engine.order_facts import describe
from fogdip.engine.orders import Hold, Order, UnitRef, Written
from fogdip.engine.outcomes import OrderResult, Outcome
from fogdip.engine.reasons import Reason, Why
from fogdip.engine.rules import Rules
from fogdip.engine.state import Dislodged, GameState
from fogdip.engine.units import Unit
from fogdip.engine.validate import CheckedOrder
from fogdip.engine.vouched import Vouched

_EMPTY: frozenset[str] = frozenset()
_NONE: tuple[int, ...] = ()
_new_node = object.__new__
#: Unit(power, kind, location) without the generated __new__'s call (a unit per move).
_new_unit = tuple.__new__


class UnitOrder(Node):
    """A resolver node that also carries what the record reports: the order as given (an
    illegal one stays as written while the unit holds), its text, why it is illegal
    (``None`` if it is legal), whether the unit had no order at all, the order as written,
    and any other orders given to the unit.

    :func:`resolve_trusted` builds its nodes without calling ``__init__``: a field added here
    must be set there too."""

    __slots__ = ("conflicts", "defaulted", "illegal", "order", "text", "written")

    def __init__(
        self,
        unit: Unit,
        kind: int,
        province: str,
        target: str,
        target_location: str,
        supported: str,
        via: bool,
        order: Order,
        text: str,
        illegal: Reason | None = None,
        defaulted: bool = False,
        written: Order | None = None,
        conflicts: tuple[Order, ...] = (),
    ) -> None:
        self.unit = unit
        self.kind = kind
        self.province = province
        self.target = target
        self.target_location = target_location
        self.supported = supported
        self.via = via
        self.route = DIRECT
        # Most units get no support and no convoy: share one empty tuple until they do.
        self.supporters = _NONE
        self.convoyers = _NONE
        self.order = order
        self.text = text
        self.illegal = illegal
        self.defaulted = defaulted
        self.written = written
        self.conflicts = conflicts


class MovementOutcome(NamedTuple):
    results: list[OrderResult]
    units: dict[str, Unit]
    dislodged: dict[str, Dislodged]
    moves: dict[str, str]
    dislodged_from: dict[str, str]
    convoy_paths: dict[str, tuple[str, ...]]
    supports: dict[str, str]
    standoffs: tuple[str, ...]
    #: Dislodged units with nowhere to retreat, disbanded at once (``Rules.unretreatable``).
    disbanded: tuple[Unit, ...] = ()


def resolve_movement(
    state: GameState, checked: Mapping[str, CheckedOrder], rules: Rules, explain: bool = True
) -> MovementOutcome:
    """Resolve a movement phase. ``checked`` holds one order per unit, keyed by province.
    The results come sorted by power, then province."""
    given: dict[str, UnitOrder] = {}
    sites = state.board.sites
    for province, entry in checked.items():
        unit = state.units[province]
        if entry.legal:
            # The map's tables hold nearly every legal order (all but convoys and supports of
            # moves only a convoy makes possible): found by value, not described again.
            site = sites.get(unit.kind + unit.location)
            facts = site.facts.get(entry.order) if site is not None else None
            if facts is None:
                facts = describe(entry.order)
            _, kind, _, target, location, supported, via, _ = facts
            given[province] = UnitOrder(
                unit,
                kind,
                province,
                target,
                location,
                supported,
                via,
                entry.order,
                entry.text,
                None,
                False,
                entry.written,
            )
        else:
            given[province] = UnitOrder(
                unit,
                HOLD,
                province,
                "",
                "",
                "",
                False,
                entry.order,
                entry.text,
                entry.reason,
                False,
                entry.written,
                entry.conflicts,
            )
    return _resolve(state, given, rules, explain)


def resolve_trusted(
    state: GameState,
    orders: Mapping[str, Iterable[str | Order | Written]],
    rules: Rules,
    explain: bool,
    vouched: Vouched,
) -> MovementOutcome | None:
    """Resolve a movement phase whose orders (power to orders) were all handed out as legal
    in this very position by :mod:`fogdip.engine.legal`, as ``vouched`` says (the caller has
    checked that the token is for this position and these rules), each for a unit of the power
    that gives it: they are not checked again. Returns ``None`` when any order is not such an
    order (a text, an order the token does not name for its unit, another power's unit) or a
    unit was given two orders: only checking can settle those."""
    units = state.units
    by_unit = vouched.orders
    given: dict[str, UnitOrder] = {}
    # In any order of powers: the nodes are put in the position's order of units later.
    for power, items in orders.items():
        for order in items:
            try:
                entries = by_unit.get(order.unit)  # type: ignore[union-attr]
            except AttributeError:  # a text, an order read with its line, a waive
                return None
            if entries is None:
                return None
            # The very orders the generator handed out, most often, then any equal to one.
            for facts in entries:
                if facts[0] is order:
                    break
            else:
                for facts in entries:
                    if facts[0] == order:
                        break
                else:
                    return None
            value, kind, province, target, location, supported, via, text = facts
            unit = units.get(province)
            if unit is None or unit.power != power or province in given:
                return None
            # UnitOrder(unit, kind, province, target, location, supported, via, value, text,
            # None, False, value), its every field set here: this runs for every unit of every
            # phase a bot plays, and the call costs as much as the rest.
            node = given[province] = _new_node(UnitOrder)
            node.unit = unit
            node.kind = kind
            node.province = province
            node.target = target
            node.target_location = location
            node.supported = supported
            node.via = via
            node.route = DIRECT
            node.supporters = _NONE
            node.convoyers = _NONE
            node.order = value
            node.text = text
            node.illegal = None
            node.defaulted = False
            node.written = value
            node.conflicts = ()
    return _resolve(state, given, rules, explain)


def _resolve(state: GameState, given: dict[str, UnitOrder], rules: Rules, explain: bool) -> MovementOutcome:
    """``given`` holds the units' order nodes by province; units without one hold."""
    board = state.board
    sites = board.sites
    nodes: list[UnitOrder] = []
    index: dict[str, int] = {}
    moves_into: dict[str, list[int]] = {}
    movers: list[int] = []
    others: list[int] = []  # supports and convoys
    # By power, then province: one string per unit sorts faster than pairs ("\0" sorts first).
    sort_keys: list[str] = []
    for i, (province, unit) in enumerate(state.units.items()):
        node = given.get(province)
        if node is None:
            site = sites.get(unit.kind + unit.location)
            hold = site.hold.order if site is not None else Hold(UnitRef(unit.kind, unit.location))
            node = UnitOrder(unit, HOLD, province, "", "", "", False, hold, "", None, True)
        else:
            kind = node.kind
            if kind == MOVE:
                movers.append(i)
                into = moves_into.get(node.target)
                if into is None:
                    moves_into[node.target] = [i]
                else:
                    into.append(i)
            elif kind != HOLD:
                others.append(i)
        index[province] = i
        nodes.append(node)
        sort_keys.append(unit.power + "\0" + province)

    counted = _link(nodes, index, movers, others, board.army_adjacency, rules)
    resolver = MovementResolver(nodes, board.neighbours, index, moves_into)  # type: ignore[arg-type]
    decisions = resolver.run()

    moves: dict[str, str] = {}
    convoy_paths: dict[str, tuple[str, ...]] = {}
    victims: list[tuple[int, int]] = []
    for i in movers:
        if not decisions[i]:
            continue
        node = nodes[i]
        moves[node.province] = node.target_location
        if node.route != DIRECT:
            convoy_paths[node.province] = _used_route(resolver, i, board.neighbours)
        j = index.get(node.target)
        if j is not None and not (nodes[j].kind == MOVE and decisions[j]):
            victims.append((j, i))
    supports = {nodes[i].province: nodes[i].supported for i in sorted(counted) if decisions[i]}

    dislodged_from: dict[str, str] = {}
    if victims:
        victims.sort()
        for j, i in victims:
            dislodged_from[nodes[j].province] = nodes[i].province
    # The units that stay, in the position's order, then the ones that moved. (A dislodged
    # unit did not move, so no province is taken out twice.)
    units = dict(state.units)
    for origin in moves:
        del units[origin]
    for province in dislodged_from:
        del units[province]
    for origin, location in moves.items():
        node = nodes[index[origin]]
        unit = node.unit
        units[node.target] = _new_unit(Unit, (unit.power, unit.kind, location))

    standoffs = _standoffs(resolver, units)
    dislodged: dict[str, Dislodged] = {}
    disbanded: list[Unit] = []
    # Under map legality a unit may order a retreat anywhere it could move, so it always waits
    # for the retreat phase: being removed at once would tell its power that every place
    # around it was taken.
    at_once = bool(dislodged_from) and rules.unretreatable == "disband-at-once" and rules.legality == "board"
    for province, attacker_from in dislodged_from.items():
        unit = nodes[index[province]].unit
        convoyed = resolver.is_convoyed(index[attacker_from])
        blocked = None if convoyed and rules.retreat_to_convoy_origin else attacker_from
        options = tuple(
            sorted(
                t
                for t in board.targets(unit.kind, unit.location)
                if (p := board.province_of(t)) not in units and p != blocked and p not in standoffs
            )
        )
        if options or not at_once:
            dislodged[province] = Dislodged(unit, attacker_from, options)
        else:
            disbanded.append(unit)

    ordered = sorted(range(len(nodes)), key=sort_keys.__getitem__)
    results = _results(
        resolver,
        nodes,
        ordered,
        counted,
        dislodged_from,
        explain,
        frozenset(u.province for u in disbanded) if disbanded else _EMPTY,
    )
    return MovementOutcome(
        results,
        units,
        dislodged,
        moves,
        dislodged_from,
        convoy_paths,
        supports,
        standoffs,
        tuple(disbanded),
    )


def _link(
    nodes: list[UnitOrder],
    index: dict[str, int],
    movers: list[int],
    others: list[int],
    army_adjacency: Mapping[str, frozenset[str]],
    rules: Rules,
) -> set[int]:
    """Attach matching supports and convoys (``others``), and settle how each army move
    travels. Returns the supports that match the supported unit's order."""
    counted: set[int] = set()
    for s in others:
        node = nodes[s]
        kind = node.kind
        j = index.get(node.supported)
        if j is None:
            continue
        other = nodes[j]
        if kind == SUPPORT_HOLD:
            if other.kind != MOVE:
                other.supporters = [*other.supporters, s]
                counted.add(s)
        elif kind == SUPPORT_MOVE:
            if other.kind != MOVE or other.target != node.target:
                continue
            if "/" in node.target_location and other.unit.kind == "F" and node.target_location != other.target_location:
                continue  # DATC 4.B.4: a named coast must match
            other.supporters = [*other.supporters, s]
            counted.add(s)
        elif other.kind == MOVE and other.target == node.target and other.unit.kind == "A":
            other.convoyers = [*other.convoyers, s]
    for i in movers:
        node = nodes[i]
        if node.unit.kind != "A":
            continue
        if node.target not in army_adjacency.get(node.province, _EMPTY):
            node.route = BY_CONVOY
            continue
        intent = node.via or (
            rules.adjacent_convoy_intent == "rulebook"
            and any(nodes[f].unit.power == node.unit.power for f in node.convoyers)
        )
        if not intent or (not node.convoyers and rules.via_convoy_falls_back_to_land):
            node.route = DIRECT
            node.convoyers = _NONE
        else:
            node.route = BY_CONVOY
    return counted


def _used_route(resolver: MovementResolver, i: int, neighbours: Mapping[str, frozenset[str]]) -> tuple[str, ...]:
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


_new_result = tuple.__new__
_VOID = ("void",)
_BOUNCE = ("bounce",)
_CUT = ("cut",)
_DISRUPTED = ("disrupted",)
_NO_CONVOY = ("no convoy",)
#: MILA's words for a convoy of the army's very move that did not carry it.
_UNUSED = ("no convoy", "void")
# The outcomes, read once: an enum member is slower to look up than a module name, and these
# are read for every unit of every phase.
_HELD = Outcome.HELD
_MOVED = Outcome.MOVED
_BOUNCED = Outcome.BOUNCED
_NO_PATH = Outcome.NO_PATH
_SUPPORTED = Outcome.SUPPORTED
_CUT_OFF = Outcome.CUT
_VOIDED = Outcome.VOID
_CONVOYED = Outcome.CONVOYED
_CONVOY_UNUSED = Outcome.CONVOY_UNUSED
_DISRUPTED_OUTCOME = Outcome.DISRUPTED
_ILLEGAL = Outcome.ILLEGAL


def _results(
    resolver: MovementResolver,
    nodes: list[UnitOrder],
    ordered: list[int],
    counted: set[int],
    dislodged_from: dict[str, str],
    explain: bool,
    disbanded: frozenset[str] = frozenset(),
) -> list[OrderResult]:
    """Each unit's result, in the given order of nodes. ``disbanded`` are the provinces of
    dislodged units removed at once, for want of a place to retreat to."""
    decisions = resolver.result
    at = resolver.at
    results: list[OrderResult] = []
    carried: dict[int, frozenset[int]] = {}
    for i in ordered:
        node = nodes[i]
        kind = node.kind
        words: tuple[str, ...]
        why: Reason | None = None  # a reason other than the outcome's usual one
        if node.illegal is not None:
            outcome, words = _ILLEGAL, _VOID
        elif kind == HOLD:
            outcome, words = _HELD, ()
        elif kind == MOVE:
            if decisions[i]:
                outcome, words = _MOVED, ()
            elif resolver.has_path(i):
                outcome, words = _BOUNCED, _BOUNCE
            elif _disrupted(resolver, node):
                # MILA's word for the army too: "disrupted" belongs to the fleets.
                outcome, words = _DISRUPTED_OUTCOME, _NO_CONVOY
            else:
                outcome, words = _NO_PATH, _NO_CONVOY
        elif kind == CONVOY:
            army = at.get(node.supported)
            if army is None or not _convoys(node, nodes[army]):
                outcome, words = _VOIDED, _VOID
            elif i not in nodes[army].convoyers:  # the army went over land
                outcome, words = _CONVOY_UNUSED, _UNUSED
            elif i in resolver.paradox or not decisions[i]:
                # A fleet dislodged (attacked successfully, or caught in a paradox and then
                # dislodged): MILA says only that.
                outcome, words = _DISRUPTED_OUTCOME, () if node.province in dislodged_from else _DISRUPTED
            else:
                chain = carried.get(army)
                if chain is None:
                    chain = carried[army] = _carriers(resolver, army)
                if i in chain:
                    outcome, words = _CONVOYED, ()
                elif _disrupted(resolver, nodes[army]):
                    outcome, words = _CONVOY_UNUSED, _NO_CONVOY  # MILA: the rest of a disrupted convoy
                else:
                    outcome, words = _CONVOY_UNUSED, _UNUSED
        elif i not in counted:
            outcome, words = _VOIDED, _VOID
        elif not decisions[i]:
            outcome, words = _CUT_OFF, _CUT
        else:
            outcome, words = _SUPPORTED, ()
            if kind == SUPPORT_MOVE:
                # Most supports of a move are of an army that went over land into a province
                # empty, left, or held by another power: those are given in full, and only the
                # others need _support_words.
                mover = nodes[at[node.supported]]
                j = at.get(node.target)
                if mover.route == BY_CONVOY or (
                    j is not None and nodes[j] is not mover and nodes[j].unit.power == node.unit.power
                ):
                    words, why = _support_words(resolver, i)
        # Why an order is illegal is part of the record even unexplained: it was never carried out.
        reason = (why or _reason(resolver, i, node, outcome)) if explain else node.illegal
        attacker = dislodged_from.get(node.province) if dislodged_from else None
        if attacker is not None:
            words += ("dislodged",)
            if reason is not None:
                by = nodes[resolver.at[attacker]].unit
                reason = reason.then(Reason(Why.DISLODGED_BY, node.unit, (by,), (attacker,)))
                if node.province in disbanded:
                    reason = reason.then(Reason(Why.DISBANDED_AT_ONCE, node.unit))
        unit = node.unit
        # tuple.__new__ is what OrderResult(...) runs, minus the generated __new__'s call: this
        # runs for every unit of every phase.
        results.append(
            _new_result(
                OrderResult,
                (
                    unit.power,
                    unit,
                    node.order,
                    node.text,
                    node.illegal is None,
                    node.defaulted,
                    outcome,
                    words,
                    reason,
                    attacker,
                    node.written,
                    node.conflicts,
                ),
            )
        )
    return results


def _disrupted(resolver: MovementResolver, node: Node) -> bool:
    """Whether a convoyed move failed because a convoying fleet was dislodged or caught in a
    paradox (rather than having no chain of convoys at all)."""
    decisions = resolver.result
    return any(decisions[f] is False for f in node.convoyers) or bool(resolver.paradox.intersection(node.convoyers))


def _convoys(convoy: Node, army: Node) -> bool:
    """Whether a convoy order is for the move ``army`` is making."""
    return army.kind == MOVE and army.target == convoy.target and army.unit.kind == "A"


def _carriers(resolver: MovementResolver, army: int) -> frozenset[int]:
    """The convoying fleets of ``army`` that lie on a chain of successful convoys from its
    province to its target: the ones that carried it (it may still have bounced there). None
    if the army went over land."""
    node = resolver.nodes[army]
    if node.route != BY_CONVOY:
        return frozenset()
    decisions, nodes, neighbours = resolver.result, resolver.nodes, resolver.neighbours
    usable = {nodes[f].province: f for f in node.convoyers if decisions[f] and f not in resolver.paradox}

    def reached(start: str) -> set[str]:
        seen: set[str] = set()
        frontier = [p for p in neighbours[start] if p in usable]
        while frontier:
            here = frontier.pop()
            if here not in seen:
                seen.add(here)
                frontier.extend(p for p in neighbours[here] if p in usable and p not in seen)
        return seen

    on_chain = reached(node.province) & reached(node.target)
    return frozenset(usable[p] for p in on_chain)


def _support_words(resolver: MovementResolver, i: int) -> tuple[tuple[str, ...], Reason | None]:
    """MILA's word for a support of a move that was given and not cut, and why if it is not
    empty. It is ``void`` when it could not help: it would have decided a battle against the
    supporter's own unit (:func:`_deciding_against_own`; DATC: such a support never helps
    dislodge one's own unit), or the move was an army's by convoy that no chain of fleets
    carried (``no convoy`` when a convoying fleet was dislodged)."""
    nodes = resolver.nodes
    node = nodes[i]
    mover = resolver.at[node.supported]
    moving = nodes[mover]
    if moving.route == BY_CONVOY and not resolver.convoy_path(mover):
        if _disrupted(resolver, moving):
            return _NO_CONVOY, Reason(Why.SUPPORTED_ARMY_DISRUPTED, node.unit, (moving.unit,))
        return _VOID, Reason(Why.SUPPORTED_ARMY_NOT_CARRIED, node.unit, (moving.unit,))
    j = resolver.at.get(node.target)
    if j is None or j == mover:
        return (), None
    occupant = nodes[j]
    if occupant.unit.power != node.unit.power or not _deciding_against_own(resolver, mover, j):
        return (), None
    return _VOID, Reason(Why.SUPPORT_AGAINST_OWN_UNIT, node.unit, (occupant.unit,))


def _deciding_against_own(resolver: MovementResolver, mover: int, j: int) -> bool:
    """Whether the supporters of ``mover`` that share a power with the unit ``j`` it moves
    against would decide the battle if they counted: MILA calls their supports ``void``. That
    is so in a head-to-head battle, and where ``j`` stays when the move, with every support,
    is stronger than ``j`` holds and than every other move there."""
    if resolver.head_to_head_opponent(mover) == j:
        return True
    occupant = resolver.nodes[j]
    if occupant.kind == MOVE and resolver.result[j]:
        return False  # it left: nobody of its own is dislodged
    target = resolver.nodes[mover].target
    strength = 1 + resolver.support_count(mover)
    if strength <= resolver.hold_strength(target):
        return False
    return all(strength > resolver.prevent_strength(r) for r in resolver.moves_into[target] if r != mover)


def _reason(resolver: MovementResolver, i: int, node: UnitOrder, outcome: Outcome) -> Reason:
    """Why an order had its outcome, for the judge (no observation carries it)."""
    unit = node.unit
    # ``outcome`` is one of the module's names for the outcomes (see _results): compared by
    # identity.
    if outcome is _ILLEGAL:
        assert node.illegal is not None
        return node.illegal
    if outcome is _HELD:
        return Reason(Why.HELD_WITHOUT_ORDER if node.defaulted else Why.HELD, unit)
    if outcome is _MOVED:
        return Reason(Why.MOVED, unit, places=(node.target_location,))
    if outcome is _BOUNCED:
        return _bounce_reason(resolver, i)
    if outcome is _NO_PATH:
        return Reason(Why.NO_CONVOY, unit, places=(node.target,))
    if outcome is _SUPPORTED:
        return Reason(Why.SUPPORTED, unit)
    if outcome is _CUT_OFF:
        return _cut_reason(resolver, i)
    if outcome is _CONVOYED:
        return Reason(Why.CONVOYED, unit)
    if outcome is _CONVOY_UNUSED:
        return Reason(Why.CONVOY_UNUSED, unit)
    if node.kind == MOVE:  # disrupted
        return Reason(Why.CONVOY_DISRUPTED, unit)
    if outcome is _VOIDED:
        if node.kind == CONVOY:
            return Reason(Why.CONVOY_UNANSWERED, unit)
        return Reason(Why.SUPPORT_UNANSWERED, unit, words=("hold" if node.kind == SUPPORT_HOLD else "make that move",))
    if i in resolver.paradox:
        return Reason(Why.CONVOY_IN_PARADOX, unit)
    return Reason(Why.CONVOY_FLEET_DISLODGED, unit)


def _bounce_reason(resolver: MovementResolver, i: int) -> Reason:
    node = resolver.nodes[i]
    attack = resolver.attack_strength(i)
    opponent = resolver.head_to_head_opponent(i)
    nodes = resolver.nodes
    if attack == 0:
        j = resolver.at.get(node.target)
        if j is not None and nodes[j].unit.power == node.unit.power:
            return Reason(Why.BOUNCED_OWN_UNIT, node.unit, (nodes[j].unit,))
    if opponent is not None:
        defend = resolver.defend_strength(opponent)
        if attack <= defend:
            return Reason(
                Why.BOUNCED_HEAD_TO_HEAD, node.unit, (nodes[opponent].unit,), (node.province,), (attack, defend)
            )
    else:
        hold = resolver.hold_strength(node.target)
        if attack <= hold:
            j = resolver.at[node.target]
            return Reason(Why.BOUNCED_HELD, node.unit, (nodes[j].unit,), (node.target,), (attack, hold))
    for r in resolver.moves_into[node.target]:
        if r != i:
            prevent = resolver.prevent_strength(r)
            if attack <= prevent:
                return Reason(Why.BOUNCED_PREVENTED, node.unit, (nodes[r].unit,), (node.target,), (attack, prevent))
    return Reason(Why.BOUNCED, node.unit)


def _cut_reason(resolver: MovementResolver, i: int) -> Reason:
    node = resolver.nodes[i]
    for r in resolver.moves_into.get(node.province, ()):
        mover = resolver.nodes[r]
        if mover.unit.power != node.unit.power and (mover.province != node.target or resolver.result[r]):
            return Reason(Why.CUT_BY, node.unit, (mover.unit,), (node.province,))
    return Reason(Why.CUT, node.unit)
