"""The movement resolver: DATC-style decisions, resolved by guessing around cycles.

The resolver knows five order kinds and the rule edition's policies; it does not know how
orders were written or validated (see :mod:`fogdip.engine.validate`). Each order gets one
boolean decision: a move moves, a support is given (not cut), a convoy is not disrupted.
Strengths are derived from those decisions, as in the DATC's chapter 5. A decision that
depends on itself is guessed both ways; if exactly one guess is consistent it is taken,
otherwise a backup rule decides: circular movement succeeds, and in a convoy paradox the
convoys in the cycle fail (the Szykman rule).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from fogdip.engine.units import Unit

HOLD, MOVE, SUPPORT_HOLD, SUPPORT_MOVE, CONVOY = range(5)
# How a move travels: directly (over land or by sea), or carried by convoy.
DIRECT, BY_CONVOY = range(2)
_UNRESOLVED, _VISITED, _RESOLVED = range(3)


class Node:
    """One unit's order, as the resolver sees it. ``target`` is a province.

    The resolver only reads these fields; the phase that builds the nodes
    (:class:`fogdip.engine.movement_phase.UnitOrder`) sets every one of them, once per unit."""

    __slots__ = (
        "convoyers",
        "kind",
        "province",
        "route",
        "supported",
        "supporters",
        "target",
        "target_location",
        "unit",
        "via",
    )

    unit: Unit
    kind: int
    province: str
    target: str
    target_location: str
    supported: str
    via: bool
    route: int
    supporters: Sequence[int]
    convoyers: Sequence[int]


class MovementResolver:
    """Resolve one movement phase. Build with nodes, then call :meth:`run`.

    ``neighbours`` gives, for each province, the provinces adjacent to it (used for convoy
    chains); ``convoy_provinces`` are the provinces from which a fleet may convoy.
    """

    __slots__ = (
        "at",
        "cycle",
        "guess_based",
        "in_cycle",
        "moves_into",
        "neighbours",
        "nodes",
        "paradox",
        "recursion_hits",
        "result",
        "state",
    )

    def __init__(
        self,
        nodes: list[Node],
        neighbours: Mapping[str, frozenset[str]],
        at: dict[str, int] | None = None,
        moves_into: dict[str, list[int]] | None = None,
    ) -> None:
        """``at`` and ``moves_into``, when the caller has them already, must be what this
        would compute from ``nodes``: each node's index by province, and the moves into each
        province in node order."""
        self.nodes = nodes
        self.neighbours = neighbours
        if at is None:
            at = {n.province: i for i, n in enumerate(nodes)}
        if moves_into is None:
            moves_into = {}
            for i, node in enumerate(nodes):
                if node.kind == MOVE:
                    moves_into.setdefault(node.target, []).append(i)
        self.at = at
        self.moves_into = moves_into
        count = len(nodes)
        self.result = [False] * count
        self.state = [_UNRESOLVED] * count
        self.cycle: list[int] = []
        self.in_cycle: set[int] = set()
        self.guess_based = False
        self.recursion_hits = 0
        self.paradox: set[int] = set()

    def run(self) -> list[bool]:
        result = self.result
        state = self.state
        moves_into = self.moves_into
        # Holds, and supports or convoys nobody attacks, depend on no other decision: settling
        # them up front gives what resolving them would, without the cycle bookkeeping.
        for i, node in enumerate(self.nodes):
            kind = node.kind
            if kind == HOLD or (kind != MOVE and node.province not in moves_into):
                result[i] = True
                state[i] = _RESOLVED
        for i in range(len(result)):
            if state[i] != _RESOLVED:
                self.resolve(i)
        return result

    # --- the generic resolver ----------------------------------------------------------------

    def resolve(self, i: int) -> bool:
        state = self.state[i]
        if state == _RESOLVED:
            return self.result[i]
        if i in self.in_cycle:
            self.guess_based = True
            return self.result[i]
        if state == _VISITED:
            self.cycle.append(i)
            self.in_cycle.add(i)
            self.guess_based = True
            self.recursion_hits += 1
            return self.result[i]

        self.state[i] = _VISITED
        cycle_start = len(self.cycle)
        outer_guess_based = self.guess_based
        self.guess_based = False
        hits_before = self.recursion_hits
        self.result[i] = False
        first = self.adjudicate(i)

        if not self.guess_based:
            self.guess_based = outer_guess_based
            return self._settle(i, first)

        if i in self.in_cycle:
            self.recursion_hits -= 1
        if self.recursion_hits == hits_before:
            # This order heads the whole cycle: try the other guess.
            self._drop_cycle(cycle_start)
            self.result[i] = True
            second = self.adjudicate(i)
            self.recursion_hits = hits_before
            if first == second:
                self._drop_cycle(cycle_start)
                self.guess_based = outer_guess_based
                return self._settle(i, first)
            self._backup_rule(self.cycle[cycle_start:])
            self._drop_cycle(cycle_start)
            self.guess_based = outer_guess_based
            if self.state[i] != _RESOLVED:
                self.state[i] = _UNRESOLVED
            return self.resolve(i)

        # Inside a cycle headed further up: remember the guess-based result for now.
        if i not in self.in_cycle:
            self.cycle.append(i)
            self.in_cycle.add(i)
        self.result[i] = first
        self.state[i] = _UNRESOLVED
        return first

    def _settle(self, i: int, value: bool) -> bool:
        self.result[i] = value
        self.state[i] = _RESOLVED
        return value

    def _drop_cycle(self, start: int) -> None:
        for i in self.cycle[start:]:
            self.in_cycle.discard(i)
        del self.cycle[start:]

    def _backup_rule(self, cycle: list[int]) -> None:
        convoys = [i for i in cycle if self.nodes[i].kind == CONVOY]
        if convoys:
            # Szykman: the convoys in the paradox fail; the armies stay and cut nothing.
            for i in convoys:
                self.paradox.add(i)
                self._settle(i, False)
        elif all(self.nodes[i].kind == MOVE for i in cycle):
            for i in cycle:  # circular movement
                self._settle(i, True)
        else:
            for i in cycle:
                self._settle(i, False)

    # --- decisions ---------------------------------------------------------------------------

    def adjudicate(self, i: int) -> bool:
        kind = self.nodes[i].kind
        if kind == MOVE:
            return self.adjudicate_move(i)
        if kind in (SUPPORT_HOLD, SUPPORT_MOVE):
            return self.adjudicate_support(i)
        if kind == CONVOY:
            # Attacks on a convoying fleet are adjudicated, not resolved, so that every cycle
            # through a convoy is a single clean cycle (DATC 5.D).
            province = self.nodes[i].province
            for r in self.moves_into.get(province, ()):
                if self.adjudicate_move(r):
                    return False
            return True
        return True

    def adjudicate_move(self, i: int) -> bool:
        node = self.nodes[i]
        if node.route == DIRECT and node.target not in self.at:
            # Into an empty province, not by convoy (most moves): what the general case below
            # works out, in the same order, without asking again that nobody stands there.
            attack = 1 + self.support_count(i) if node.supporters else 1
            movers = self.moves_into[node.target]
            if len(movers) > 1:
                for r in movers:
                    if r != i and attack <= self.prevent_strength(r):
                        return False
            return True
        attack = self.attack_strength(i)
        if attack == 0:
            return False
        opponent = self.head_to_head_opponent(i)
        if opponent is not None:
            if attack <= self.defend_strength(opponent):
                return False
        elif attack <= self.hold_strength(node.target):
            return False
        movers = self.moves_into[node.target]
        if len(movers) > 1:
            for r in movers:
                if r != i and attack <= self.prevent_strength(r):
                    return False
        return True

    def adjudicate_support(self, i: int) -> bool:
        node = self.nodes[i]
        attackers = self.moves_into.get(node.province)
        if not attackers:
            return True
        for r in attackers:
            mover = self.nodes[r]
            if mover.unit.power == node.unit.power or mover.province == node.target:
                continue
            if mover.route == DIRECT or self.convoy_path(r):
                return False
        for r in attackers:
            if self.nodes[r].province == node.target and self.resolve(r):
                return False  # dislodged by the unit it supports against
        return True

    # --- paths and strengths -----------------------------------------------------------------

    def has_path(self, i: int) -> bool:
        return self.nodes[i].route == DIRECT or self.convoy_path(i)

    def is_convoyed(self, i: int) -> bool:
        return self.nodes[i].route == BY_CONVOY

    def convoy_path(self, i: int) -> bool:
        """A chain of fleets with matching, successful convoy orders links origin and target."""
        node = self.nodes[i]
        fleets = {self.nodes[f].province: f for f in node.convoyers}
        if not fleets:
            return False
        neighbours = self.neighbours
        frontier = [node.province]
        seen = {node.province}
        while frontier:
            here = frontier.pop()
            for there in neighbours[here]:
                if there in seen:
                    continue
                f = fleets.get(there)
                if f is None:
                    continue
                seen.add(there)
                if self.resolve(f):
                    if node.target in neighbours[there]:
                        return True
                    frontier.append(there)
        return False

    def head_to_head_opponent(self, i: int) -> int | None:
        node = self.nodes[i]
        j = self.at.get(node.target)
        if j is None:
            return None
        other = self.nodes[j]
        if other.kind != MOVE or other.target != node.province:
            return None
        if self.is_convoyed(i) or self.is_convoyed(j):
            return None
        return j

    def support_count(self, i: int, excluding_power: str | None = None) -> int:
        supporters = self.nodes[i].supporters
        if not supporters:
            return 0
        count = 0
        state = self.state
        for s in supporters:
            if excluding_power is not None and self.nodes[s].unit.power == excluding_power:
                continue
            if self.result[s] if state[s] == _RESOLVED else self.resolve(s):
                count += 1
        return count

    def attack_strength(self, i: int) -> int:
        node = self.nodes[i]
        if node.route != DIRECT and not self.convoy_path(i):
            return 0
        j = self.at.get(node.target)
        if j is None:
            return 1 + self.support_count(i)
        defender = self.nodes[j]
        if defender.kind == MOVE and self.head_to_head_opponent(i) is None and self.resolve(j):
            return 1 + self.support_count(i)
        if defender.unit.power == node.unit.power:
            return 0
        return 1 + self.support_count(i, defender.unit.power)

    def hold_strength(self, province: str) -> int:
        j = self.at.get(province)
        if j is None:
            return 0
        if self.nodes[j].kind == MOVE:
            return 0 if self.resolve(j) else 1
        return 1 + self.support_count(j)

    def defend_strength(self, i: int) -> int:
        return 1 + self.support_count(i)

    def prevent_strength(self, i: int) -> int:
        if self.nodes[i].route != DIRECT and not self.convoy_path(i):
            return 0
        opponent = self.head_to_head_opponent(i)
        if opponent is not None and self.resolve(opponent):
            return 0
        return 1 + self.support_count(i)
