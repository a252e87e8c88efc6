"""From region polygons to a topology: noded arcs with a region on each side, and rings of arc references.

Coordinates here are board units (``board.UNIT_M`` metres), y down, origin at the frame's top-left corner,
so "left" and "right" are as drawn on screen.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry

import board

OUTSIDE = ""
Arc = list[tuple[int, int]]


@dataclass
class Topology:
    arcs: list[Arc]
    sides: list[tuple[str, str]]
    rings: dict[str, list[list[int]]]
    width: int
    height: int


def to_units(shapes: dict[str, BaseGeometry]) -> dict[str, BaseGeometry]:
    """Every shape in board units, y down from the frame's top edge."""
    x_min, _, _, y_max = board.FRAME_M

    def convert(xy: np.ndarray) -> np.ndarray:
        return np.column_stack(((xy[:, 0] - x_min) / board.UNIT_M, (y_max - xy[:, 1]) / board.UNIT_M))

    return {region: shapely.transform(shape, convert) for region, shape in shapes.items()}


def frame_size() -> tuple[int, int]:
    x_min, y_min, x_max, y_max = board.FRAME_M
    return round((x_max - x_min) / board.UNIT_M), round((y_max - y_min) / board.UNIT_M)


def planar_partition(shapes: dict[str, BaseGeometry]) -> dict[str, BaseGeometry]:
    """The shapes snapped to the unit grid as an exact partition: faces of the noded boundaries, each given to
    the shape that covers most of it (which settles the slivers floating-point cuts leave)."""
    width, height = frame_size()
    frame = box(0, 0, width, height)
    lines = [shape.boundary for shape in shapes.values()] + [frame.boundary]
    noded = shapely.union_all(lines, grid_size=1)
    faces = list(shapely.polygonize(list(getattr(noded, "geoms", [noded]))).geoms)
    names = list(shapes)
    tree = shapely.STRtree([shapes[n] for n in names])
    owned: dict[str, list[BaseGeometry]] = defaultdict(list)
    for face in faces:
        candidates = tree.query(face, predicate="intersects")
        owner = max(candidates, key=lambda i: shapes[names[i]].intersection(face).area)
        owned[names[owner]].append(face)
    # The faces' corners are on the grid already; snapping their union again could drop slivers and open gaps.
    return {name: shapely.union_all(parts) for name, parts in owned.items()}


def _edges(partition: dict[str, BaseGeometry]) -> list[LineString]:
    """The partition's borders merged into arcs running between nodes (where three or more regions meet)."""
    lines = [shape.boundary for shape in partition.values()]
    noded = shapely.union_all(lines)
    merged = shapely.line_merge(noded)
    return list(getattr(merged, "geoms", [merged]))


class Locator:
    """Which region holds a point."""

    def __init__(self, partition: dict[str, BaseGeometry]) -> None:
        self.names = list(partition)
        self.shapes = [partition[n] for n in self.names]
        self.tree = shapely.STRtree(self.shapes)

    def region(self, x: float, y: float) -> str:
        point = Point(x, y)
        for index in self.tree.query(point, predicate="within"):
            return self.names[int(index)]
        return OUTSIDE


def arc_sides(line: LineString, locator: Locator) -> tuple[str, str]:
    """The regions on the screen-left and screen-right of the arc, probed beside its longest segment."""
    coords = np.asarray(line.coords)
    deltas = np.diff(coords, axis=0)
    longest = int(np.argmax(np.hypot(deltas[:, 0], deltas[:, 1])))
    (x0, y0), (dx, dy) = coords[longest], deltas[longest]
    length = float(np.hypot(dx, dy))
    mx, my = x0 + dx / 2, y0 + dy / 2
    # y is down: the screen-left normal of (dx, dy) is (dy, -dx).
    nx, ny = dy / length * 0.25, -dx / length * 0.25
    return locator.region(mx + nx, my + ny), locator.region(mx - nx, my - ny)


def simplify_arcs(lines: list[LineString], tolerance: float) -> list[LineString]:
    """Douglas-Peucker per arc (ends kept), undone for arcs that would then cross another or collapse."""
    simple = [_simplified(line, tolerance) for line in lines]
    for _ in range(10):
        bad = _crossing(simple)
        if not bad:
            return simple
        for index in bad:
            simple[index] = lines[index]
    raise SystemExit("simplified arcs still cross")


def _simplified(line: LineString, tolerance: float) -> LineString:
    simple = shapely.simplify(line, tolerance, preserve_topology=False)
    if line.is_ring and (len(simple.coords) < 4 or Polygon(simple.coords).area < 0.5 * Polygon(line.coords).area):
        return line
    return simple


def _crossing(lines: list[LineString]) -> set[int]:
    """Arcs that cross or touch another arc anywhere but at shared end points, or are not simple."""
    bad = {i for i, line in enumerate(lines) if not line.is_simple}
    tree = shapely.STRtree(lines)
    left, right = tree.query(lines, predicate="intersects")
    for i, j in zip(left.tolist(), right.tolist(), strict=True):
        if i >= j:
            continue
        ends = {lines[i].coords[0], lines[i].coords[-1]} & {lines[j].coords[0], lines[j].coords[-1]}
        touching = lines[i].intersection(lines[j])
        points = [(p.x, p.y) for p in getattr(touching, "geoms", [touching]) if p.geom_type == "Point"]
        if touching.geom_type not in ("Point", "MultiPoint") or not set(points) <= ends:
            bad.update((i, j))
    return bad


def rings_of(arcs: list[Arc], sides: list[tuple[str, str]]) -> dict[str, list[list[int]]]:
    """Each region's rings of arc references, walked with the region on the left (~i: arc i reversed)."""
    outgoing: dict[str, dict[tuple[int, int], list[int]]] = defaultdict(lambda: defaultdict(list))
    for index, (left, right) in enumerate(sides):
        start, end = arcs[index][0], arcs[index][-1]
        if left != OUTSIDE:
            outgoing[left][start].append(index)
        if right != OUTSIDE:
            outgoing[right][end].append(~index)
    rings: dict[str, list[list[int]]] = {}
    for region, by_start in outgoing.items():
        rings[region] = []
        while any(by_start.values()):
            start = next(node for node, refs in by_start.items() if refs)
            ring: list[int] = []
            node = start
            while True:
                ref = by_start[node].pop()
                ring.append(ref)
                arc = arcs[ref] if ref >= 0 else arcs[~ref][::-1]
                node = arc[-1]
                if node == start:
                    break
            rings[region].append(ring)
    return rings


def build_topology(partition: dict[str, BaseGeometry], tolerance: float) -> Topology:
    locator = Locator(partition)
    raw = _edges(partition)
    # Sides are probed on the exact borders: simplification moves a border, never swaps its sides.
    sides = [arc_sides(line, locator) for line in raw]
    lines = simplify_arcs(raw, tolerance)
    arcs: list[Arc] = [[(round(x), round(y)) for x, y in line.coords] for line in lines]
    width, height = frame_size()
    return Topology(arcs, sides, rings_of(arcs, sides), width, height)
