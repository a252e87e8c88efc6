"""Convoy routes over the fleets on the board, independent of the orders they were given.

These searches decide whether an order is *legal* (DATC 4.E.1: possible not knowing the other
orders). Whether a convoy actually carries its army is the resolver's business.
"""

from __future__ import annotations

from collections.abc import Collection

from fogdip.engine.map import Map


def convoy_fleet_provinces(board: Map, fleet_provinces: Collection[str]) -> frozenset[str]:
    """Of the provinces holding fleets, those from which a fleet can convoy (sea provinces)."""
    return frozenset(p for p in fleet_provinces if board.provinces[p].terrain == "sea")


def route_exists(board: Map, convoyers: Collection[str], origin: str, destination: str, excluding: str = "") -> bool:
    """Whether a chain of the ``convoyers`` provinces links ``origin`` to ``destination``."""
    if not _coastal(board, origin) or not _coastal(board, destination) or origin == destination:
        return False
    neighbours = board.neighbours
    frontier = [origin]
    seen = {origin}
    while frontier:
        here = frontier.pop()
        for there in neighbours[here]:
            if there in seen or there not in convoyers or there == excluding:
                continue
            if destination in neighbours[there]:
                return True
            seen.add(there)
            frontier.append(there)
    return False


def fleet_on_route(
    board: Map, convoyers: Collection[str], origin: str, destination: str, fleet: str, *, necessary: bool
) -> bool:
    """Whether ``fleet`` lies on a convoy route from ``origin`` to ``destination``.

    With ``necessary``, the route must need every fleet on it (a chordless path), so a fleet that
    only lengthens a route that works without it does not count (DATC 6.G.19).
    """
    if fleet not in convoyers or not _coastal(board, origin) or not _coastal(board, destination):
        return False
    if origin == destination:
        return False
    neighbours = board.neighbours

    def extend(path: list[str]) -> bool:
        here = path[-1]
        if destination in neighbours[here]:
            if fleet in path:
                return True
            if necessary:
                return False  # any longer path through here would have a shortcut to the end
        for there in neighbours[here]:
            if there not in convoyers or there in path:
                continue
            if necessary and any(there in neighbours[p] for p in path[:-1]):
                continue  # a shortcut: the chain would not need every fleet
            if necessary and origin in neighbours[there] and len(path) > 1:
                continue
            path.append(there)
            if extend(path):
                return True
            path.pop()
        return False

    for first in neighbours[origin]:
        if first in convoyers and extend([first]):
            return True
    return False


def _coastal(board: Map, province: str) -> bool:
    return board.provinces[province].terrain == "coast"
