"""What a unit can do on a map, whatever the position: tables built once, when the map loads.

A *site* is a unit kind on a location (``"AMAR"``, ``"FSPA/NC"``). Its table holds the orders
that depend on the map alone: the hold, every direct move, every support of a unit that could
stand next to it (to hold, or to make a direct move), and, for an army on a coast, a move to
every coast a chain of seas reaches. Each order comes with what adjudication reads from it
(:class:`~fogdip.engine.order_facts.OrderFacts`). The tables are immutable and belong to the
map, so every game and every thread of a process reads the same ones and none writes them.

Orders that depend on where fleets stand (a convoy, a support of a move only a convoy makes
possible) are not in the tables: the legal-order generator builds them for the position it
lists (:class:`fogdip.engine.legal.ConvoyCache`).

>>> from fogdip.engine.map import standard_map
>>> site = standard_map().sites["APAR"]
>>> [str(move) for move in site.moves]
['A PAR - BRE', 'A PAR - BUR', 'A PAR - GAS', 'A PAR - PIC']
>>> str(site.supports[("S", UnitRef("F", "BRE"), "PIC")].order)
'A PAR S F BRE - PIC'
>>> str(standard_map().sites["ABRE"].convoy_moves["LON"].order)
'A BRE - LON'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from fogdip.engine.order_facts import OrderFacts, describe
from fogdip.engine.orders import Hold, Move, Order, SupportHold, SupportMove, UnitRef
from fogdip.engine.units import UnitKind

if TYPE_CHECKING:
    from fogdip.engine.map import Map

#: How a unit's order other than a hold or a move is named, as the generator writes it:
#: ``("S", supported)`` a support to hold, ``("S", supported, target)`` a support of a move,
#: ``("C", army, target)`` a convoy.
OrderKey = tuple[str, UnitRef] | tuple[str, UnitRef, str]

#: ``MovementOptions.into``'s entry for a move: mover's province, target location, and
#: whether only a convoy makes the move possible.
IntoEntry = tuple[str, str, bool]


@dataclass(frozen=True, slots=True)
class Site:
    """What a unit of one kind on one location can do on a map, whatever the position."""

    #: The unit's kind and location, as one key of :attr:`Map.sites`: ``"AMAR"``.
    key: str
    ref: UnitRef
    hold: OrderFacts
    #: Every direct move, by target.
    move_facts: tuple[OrderFacts, ...]
    moves: tuple[Move, ...]
    #: A fleet that may convoy; an army that may be convoyed.
    at_sea: bool
    on_coast: bool
    #: (destination province, entry of ``MovementOptions.into``) for each direct move.
    into: tuple[tuple[str, IntoEntry], ...]
    #: The provinces the unit can support into, sorted.
    reach: tuple[str, ...]
    #: Each province of :attr:`reach` with how many of the unit's own direct moves go there
    #: (pairs made once: zipping two tuples for every draw costs more).
    own_into: tuple[tuple[str, int], ...]
    #: Its supports of any unit that could stand in a province of :attr:`reach`, to hold or
    #: to move there directly, by :data:`OrderKey`.
    supports: Mapping[OrderKey, OrderFacts]
    #: An army on a coast: its move to every coast a chain of seas reaches, by target (ordered
    #: VIA where the target is also next to it, as the generator writes it).
    convoy_moves: Mapping[str, OrderFacts]
    #: Every order above, by value: what adjudication reads of an order checked as written.
    facts: Mapping[Order, OrderFacts]


def build_sites(board: Map) -> Mapping[str, Site]:
    """Every site of ``board``: each unit kind on each location where it may stand."""
    kinds: tuple[UnitKind, ...] = ("A", "F")
    refs = {
        kind + location: UnitRef(kind, location)
        for location in board.locations
        for kind in kinds
        if board.can_hold(kind, location)
    }
    # Per province: the units that could stand there, and the direct moves into it.
    standing: dict[str, list[UnitRef]] = {}
    arriving: dict[str, list[tuple[UnitRef, str]]] = {}
    for ref in refs.values():
        standing.setdefault(ref.province, []).append(ref)
        for target in sorted(board.targets(ref.kind, ref.location)):  # type: ignore[arg-type]
            arriving.setdefault(board.province_of(target), []).append((ref, target))
    carried = _convoy_targets(board)
    return MappingProxyType(
        {
            key: _site(board, key, ref, standing, arriving, carried.get(ref.province, ()) if ref.kind == "A" else ())
            for key, ref in refs.items()
        }
    )


def odd_site(board: Map, ref: UnitRef) -> Site:
    """The site of a unit placed where none may stand (a position built by hand): its hold and
    moves, and no supports kept (they are built as asked for, as convoys are)."""
    return _site(board, f"{ref.kind}{ref.location}", ref, {}, {}, ())


def _site(
    board: Map,
    key: str,
    ref: UnitRef,
    standing: dict[str, list[UnitRef]],
    arriving: dict[str, list[tuple[UnitRef, str]]],
    carried: tuple[str, ...],
) -> Site:
    kind: UnitKind = "A" if ref.kind == "A" else "F"
    location = ref.location
    origin = ref.province
    terrain = board.provinces[origin].terrain
    hold = describe(Hold(ref))
    moves = tuple(Move(ref, target) for target in sorted(board.targets(kind, location)))
    move_facts = tuple(map(describe, moves))
    into = tuple((board.province_of(m.target), (origin, m.target, False)) for m in moves)
    reach = tuple(sorted(board.reachable_provinces(kind, location)))
    supports: dict[OrderKey, OrderFacts] = {}
    for province in reach:
        for other in standing.get(province, ()):
            supports["S", other] = describe(SupportHold(ref, other))
        for other, target in arriving.get(province, ()):
            if other.province != origin:
                supports["S", other, target] = describe(SupportMove(ref, other, target))
    adjacent = board.army_targets(location)
    convoy_moves = {
        target: describe(Move(ref, target, via_convoy=target in adjacent)) for target in carried if target != origin
    }
    facts = {hold.order: hold}
    for table in (move_facts, supports.values(), convoy_moves.values()):
        facts.update((entry.order, entry) for entry in table)
    return Site(
        key=key,
        ref=ref,
        hold=hold,
        move_facts=move_facts,
        moves=moves,
        at_sea=kind == "F" and terrain == "sea",
        on_coast=kind == "A" and terrain == "coast",
        into=into,
        reach=reach,
        own_into=tuple((p, sum(1 for there, _ in into if there == p)) for p in reach),
        supports=MappingProxyType(supports),
        convoy_moves=MappingProxyType(convoy_moves),
        facts=MappingProxyType(facts),
    )


def _convoy_targets(board: Map) -> dict[str, tuple[str, ...]]:
    """Per coastal province, the coasts a chain of seas links it to (itself included when a
    sea touches it twice): the only places an army there can be convoyed to, on any board."""
    seas = board.sea_provinces
    group_of: dict[str, int] = {}
    groups: list[set[str]] = []
    for sea in sorted(seas):
        if sea in group_of:
            continue
        shores: set[str] = set()
        frontier = [sea]
        group_of[sea] = len(groups)
        while frontier:
            here = frontier.pop()
            for there in board.neighbours[here]:
                if there in seas and there not in group_of:
                    group_of[there] = len(groups)
                    frontier.append(there)
                elif board.provinces[there].terrain == "coast":
                    shores.add(there)
        groups.append(shores)
    out: dict[str, tuple[str, ...]] = {}
    for province, info in board.provinces.items():
        if info.terrain != "coast":
            continue
        reached: set[str] = set()
        for sea in board.neighbours[province] & seas:
            reached |= groups[group_of[sea]]
        out[province] = tuple(sorted(reached))
    return out
