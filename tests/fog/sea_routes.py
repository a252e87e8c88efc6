"""The map facts the turn-level no-leak strategies build around: shores and seas, the sea
routes an order's legality could hang on, and the seas where one fleet decides a route."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from fogdip.engine import GameState, Unit

from strategies import BOARD, PROVINCES

CENTERS = tuple(sorted(BOARD.supply_centers))
SEAS = frozenset(p for p in PROVINCES if BOARD.provinces[p].terrain == "sea")
COASTAL = frozenset(p for p in PROVINCES if BOARD.provinces[p].terrain == "coast")
LAND = frozenset(p for p in PROVINCES if BOARD.provinces[p].terrain in ("land", "coast"))


def text(unit: Unit) -> str:
    return f"{unit.kind} {unit.location}"


@cache
def convoy_reach(province: str, depth: int = 4) -> tuple[str, ...]:
    """Coastal provinces an army on ``province`` could only reach by sea, through at most
    ``depth`` sea provinces: by the map alone, whoever's fleets stand there."""
    if province not in COASTAL:
        return ()
    seas = {s for s in BOARD.neighbours[province] if s in SEAS}
    frontier = set(seas)
    for _ in range(depth - 1):
        frontier = {n for s in frontier for n in BOARD.neighbours[s] if n in SEAS} - seas
        seas |= frontier
    shores = {c for s in seas for c in BOARD.neighbours[s] if c in COASTAL}
    land = BOARD.army_targets(province)
    return tuple(sorted(shores - land - {province}))


@cache
def via_targets(province: str) -> tuple[str, ...]:
    """Adjacent coastal provinces an army on ``province`` could also be convoyed to: both
    shores touch a common sea (``A BRE - PIC VIA``)."""
    if province not in COASTAL:
        return ()
    seas = {s for s in BOARD.neighbours[province] if s in SEAS}
    return tuple(sorted(t for t in BOARD.army_targets(province) if t in COASTAL and seas & BOARD.neighbours[t]))


@cache
def sea_distances(province: str) -> dict[str, int]:
    """Steps over sea provinces from the seas next to ``province`` (those are at 1)."""
    out = {s: 1 for s in BOARD.neighbours[province] if s in SEAS}
    frontier = list(out)
    while frontier:
        step = []
        for sea in frontier:
            for nxt in BOARD.neighbours[sea]:
                if nxt in SEAS and nxt not in out:
                    out[nxt] = out[sea] + 1
                    step.append(nxt)
        frontier = step
    return out


@cache
def route_seas(origin: str, target: str) -> frozenset[str]:
    """The seas on the shortest sea routes between two shores (and those one step longer):
    where fleets, anyone's, decide whether an army could be convoyed from one to the other."""
    if origin not in COASTAL or target not in COASTAL:
        return frozenset()
    there, back = sea_distances(origin), sea_distances(target)
    totals = {s: there[s] + back[s] for s in there if s in back}
    if not totals:
        return frozenset()
    best = min(totals.values())
    return frozenset(s for s, total in totals.items() if total <= best + 1)


def sea_pairs(lines: Iterable[str]) -> set[tuple[str, str, str | None]]:
    """The sea routes whose existence the engine's judgement of ``lines`` hangs on, as
    (origin, target, convoying fleet's province or ``None``): a ``VIA`` move is legal only if
    fleets (anyone's) could carry it; a support of a move between two shores only if fleets
    could carry the supported army; a convoy only if its fleet is on such a route (and an
    army ordered to move to a neighbour that a fleet of its own power convoys may then go by
    sea)."""
    out: set[tuple[str, str, str | None]] = set()
    for line in lines:
        if " - " not in line:
            continue
        before, after = line.rsplit(" - ", 1)
        words, rest = before.split(), after.split()
        if not (words and rest and BOARD.is_location(words[-1]) and BOARD.is_location(rest[0])):
            continue
        origin, target = BOARD.province_of(words[-1]), BOARD.province_of(rest[0])
        if origin not in COASTAL or target not in COASTAL or origin == target:
            continue
        if len(words) >= 4 and words[2] == "C" and BOARD.is_location(words[1]):
            out.add((origin, target, BOARD.province_of(words[1])))
        elif ("VIA" in rest and target in BOARD.army_targets(origin)) or (
            len(words) >= 4 and words[2] == "S" and words[3] != "F"
        ):
            out.add((origin, target, None))
    return out


def supported_moves(lines: Iterable[str]) -> set[tuple[str, str]]:
    """(origin, target) of the moves between two shores that ``lines`` support
    (``A BUR S A LON - BEL``): an army there may go by sea."""
    out = set()
    for origin, target, through in sea_pairs(lines):
        if through is None and any(
            f" S {w}{origin} - " in f" {line} " or f" S {origin}" in line for line in lines for w in ("A ", "")
        ):
            out.add((origin, target))
    return out


def sea_path(starts: Iterable[str], goals: frozenset[str]) -> list[str]:
    """The seas of one shortest chain of seas from one of ``starts`` to one of ``goals``."""
    back: dict[str, str | None] = {s: None for s in sorted(starts)}
    frontier = list(back)
    while frontier:
        step = []
        for sea in frontier:
            if sea in goals:
                path = [sea]
                while back[path[-1]] is not None:
                    path.append(back[path[-1]])  # type: ignore[arg-type]
                return path[::-1]
            for nxt in sorted(BOARD.neighbours[sea]):
                if nxt in SEAS and nxt not in back:
                    back[nxt] = sea
                    step.append(nxt)
        frontier = step
    return []


@cache
def shortest_sea_path(origin: str, target: str, through: str | None = None) -> tuple[str, ...]:
    """The seas of one shortest sea route from shore to shore, through the sea ``through``
    if given (none if there is none)."""

    def shore(province: str) -> frozenset[str]:
        return frozenset(s for s in BOARD.neighbours[province] if s in SEAS)

    if through is None:
        return tuple(sea_path(shore(origin), shore(target)))
    first = sea_path(shore(origin), frozenset({through}))
    second = sea_path([through], shore(target))
    return tuple(dict.fromkeys(first + second)) if first and second else ()


def sea_route(fleets: frozenset[str], origin: str, target: str, through: str | None = None) -> bool:
    """Whether fleets in the seas ``fleets`` make a chain (each sea once) from a sea next to
    ``origin`` to a sea next to ``target``, passing the fleet in ``through`` if given: by the
    map and the fleets' places alone."""
    if through is not None and through not in fleets:
        return False

    def walk(sea: str, visited: frozenset[str]) -> bool:
        if target in BOARD.neighbours[sea] and (through is None or through in visited):
            return True
        return any(walk(nxt, visited | {nxt}) for nxt in BOARD.neighbours[sea] if nxt in fleets and nxt not in visited)

    return any(walk(s, frozenset({s})) for s in sorted(fleets) if origin in BOARD.neighbours[s])


def critical_seas(state: GameState, lines: Iterable[str]) -> tuple[frozenset[str], frozenset[str]]:
    """Seas where one fleet decides whether a route of :func:`sea_pairs` exists, for an army
    that stands at its origin: empty seas where a fleet would complete one, and fleets
    without which one breaks."""
    fleets = frozenset(p for p, u in state.units.items() if p in SEAS)
    empty = [s for s in SEAS if s not in state.units]
    adding: set[str] = set()
    removing: set[str] = set()
    for origin, target, through in sea_pairs(lines):
        army = state.units.get(origin)
        if army is None or army.kind != "A":
            continue
        if sea_route(fleets, origin, target, through):
            removing |= {f for f in fleets if f != through and not sea_route(fleets - {f}, origin, target, through)}
        else:
            adding |= {s for s in empty if sea_route(fleets | {s}, origin, target, through)}
    return frozenset(adding), frozenset(removing)


def completed_routes(state: GameState, lines: Iterable[str], sea: str) -> list[tuple[str, str]]:
    """(origin, target) of the sea routes of ``lines`` (:func:`sea_pairs`) that a fleet in
    ``sea`` would complete, for an army that stands at the origin."""
    fleets = frozenset(p for p in state.units if p in SEAS)
    out = []
    for origin, target, through in sorted(sea_pairs(lines), key=str):
        army = state.units.get(origin)
        if (
            army is not None
            and army.kind == "A"
            and not sea_route(fleets, origin, target, through)
            and sea_route(fleets | {sea}, origin, target, through)
        ):
            out.append((origin, target))
    return out


def route_seas_of(lines: Iterable[str]) -> frozenset[str]:
    """The seas on the sea routes of the moves, supports and convoys among ``lines`` between
    two shores (``A BRE - EDI``, ``A BRE - PIC VIA``, ``S A GAS - MAR``, ``C A BRE - EDI``)."""
    out: set[str] = set()
    for line in lines:
        if " - " not in line:
            continue
        before, after = line.rsplit(" - ", 1)
        words = before.split()
        if words and BOARD.is_location(words[-1]) and after.split() and BOARD.is_location(after.split()[0]):
            out |= route_seas(BOARD.province_of(words[-1]), BOARD.province_of(after.split()[0]))
    return frozenset(out)


def reach(unit: Unit) -> tuple[str, ...]:
    """Provinces the unit could move into without a convoy (where it may support or retreat)."""
    return tuple(sorted(BOARD.reachable_provinces(unit.kind, unit.location)))


def retreat_line(unit: Unit, target: str) -> str:
    """``F NTH R NWG``, naming the coast a fleet would arrive on where the map leaves one."""
    if unit.kind == "F":
        coasts = [c for c in BOARD.coasts(target) if c in BOARD.fleet_targets(unit.location)]
        if coasts:
            target = coasts[0]
    return f"{text(unit)} R {target}"
