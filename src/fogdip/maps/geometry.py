"""A board's geography as fogdip draws it: the committed geometry file, read once and typed.

The file (``fogdip/maps/data/<map>.json``) is made by ``tools/mapbuild`` from Natural Earth and
is all that runtime reads: no GIS library is needed to draw a map. It is a planar partition of
a rectangular frame stored as a topology: every border is one **arc**, shared by the two
regions either side of it, so shared borders (and coastlines) are read off the arcs rather
than computed by geometry.

>>> geometry = load_geometry("standard")
>>> geometry.regions["PAR"].kind, geometry.regions["NTH"].kind, geometry.regions["SWI"].kind
('land', 'sea', 'impassable')
>>> ("BUR", "PAR") in geometry.shared_borders()
True
>>> ("BUR", "LON") in geometry.shared_borders()
False
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from types import MappingProxyType
from typing import Any, Literal

from fogdip.engine.errors import FogdipError

FORMAT = "fogdip-map-geometry"
VERSION = 1

RegionKind = Literal["land", "sea", "impassable", "neutral", "lake"]
_KINDS: frozenset[str] = frozenset({"land", "sea", "impassable", "neutral", "lake"})
_WATER: frozenset[str] = frozenset({"sea", "lake"})

Point = tuple[float, float]


class GeometryError(FogdipError):
    """A geometry file that cannot be read, or a map with none: what is wrong, and where."""


@dataclass(frozen=True, slots=True)
class Region:
    """One region of the partition: a province (``land``, ``sea``, ``impassable``) or a part of
    the frame that is not one (``neutral`` land, a ``lake``).

    ``rings`` are closed rings of arc references: ``i`` walks arc ``i`` forwards, ``~i`` backwards.
    """

    id: str
    kind: RegionKind
    name: str
    rings: tuple[tuple[int, ...], ...]
    label: Point

    @property
    def water(self) -> bool:
        return self.kind in _WATER


@dataclass(frozen=True, eq=False)
class MapGeometry:
    """A map's regions, arcs, unit anchors and supply-centre points, in frame units.

    Coordinates are in units of ``unit_m`` metres of the projection, ``x`` to the right and
    ``y`` down, the frame being ``(0, 0, width, height)``."""

    map: str
    source: str
    projection: str
    unit_m: float
    width: float
    height: float
    arcs: tuple[tuple[Point, ...], ...]
    sides: tuple[tuple[str, str], ...]
    regions: Mapping[str, Region]
    anchors: Mapping[str, Point]
    centres: Mapping[str, Point]

    def ring_points(self, ring: tuple[int, ...]) -> list[Point]:
        """A ring's points in order, each arc's shared end point once."""
        points: list[Point] = []
        for ref in ring:
            arc = self.arcs[ref] if ref >= 0 else self.arcs[~ref][::-1]
            points.extend(arc if not points else arc[1:])
        return points

    def outline(self, regions: Iterable[str]) -> list[list[Point]]:
        """The outline of a set of regions as closed rings: the arcs with the set on one side
        only, each once, chained end to end. Filled by the even-odd rule the rings cover
        exactly the set, with about half the points of its regions' own rings (borders inside
        the set are left out).

        >>> geometry = load_geometry("standard")
        >>> len(geometry.outline(["PAR"])) == len(geometry.regions["PAR"].rings)
        True
        """
        inside = frozenset(regions)
        pieces: dict[Point, list[tuple[Point, ...]]] = {}
        for index, (left, right) in enumerate(self.sides):
            if (left in inside) == (right in inside):
                continue
            arc = self.arcs[index] if left in inside else self.arcs[index][::-1]
            pieces.setdefault(arc[0], []).append(arc)
        rings: list[list[Point]] = []
        while pieces:
            start = next(iter(pieces))
            ring: list[Point] = [start]
            point = start
            while True:
                waiting = pieces.get(point)
                if not waiting:
                    break
                arc = waiting.pop()
                if not waiting:
                    del pieces[point]
                ring.extend(arc[1:])
                point = arc[-1]
                if point == start:
                    break
            rings.append(ring)
        return rings

    def arc_length_km(self, index: int) -> float:
        arc = self.arcs[index]
        metres = sum(math.dist(a, b) for a, b in itertools.pairwise(arc)) * self.unit_m
        return metres / 1000

    def shared_borders(self) -> dict[tuple[str, str], float]:
        """Every pair of regions that share a border line, with its length in kilometres,
        the pair sorted by name."""
        return dict(self._shared_borders)

    @cached_property
    def _shared_borders(self) -> Mapping[tuple[str, str], float]:
        lengths: dict[tuple[str, str], float] = {}
        for index, (left, right) in enumerate(self.sides):
            if not left or not right or left == right:
                continue
            pair = (left, right) if left < right else (right, left)
            lengths[pair] = lengths.get(pair, 0.0) + self.arc_length_km(index)
        return MappingProxyType(dict(sorted(lengths.items())))

    @cached_property
    def coast_arcs(self) -> tuple[int, ...]:
        """The arcs between water and land: the coastline."""
        return self._arcs_between(lambda one, two: one.water != two.water)

    @cached_property
    def border_arcs(self) -> tuple[int, ...]:
        """The arcs between two land regions: borders drawn on land."""
        return self._arcs_between(lambda one, two: not one.water and not two.water)

    @cached_property
    def sea_arcs(self) -> tuple[int, ...]:
        """The arcs between two bodies of water: sea borders."""
        return self._arcs_between(lambda one, two: one.water and two.water)

    def _arcs_between(self, wanted: Callable[[Region, Region], bool]) -> tuple[int, ...]:
        """The arcs between two different regions of the frame that ``wanted`` accepts."""
        regions = self.regions
        return tuple(
            index
            for index, (left, right) in enumerate(self.sides)
            if left and right and left != right and wanted(regions[left], regions[right])
        )


@cache
def load_geometry(name: str) -> MapGeometry:
    """The geometry of map ``name``, read from the package's data (once per process: it is
    immutable)."""
    try:
        text = resources.files("fogdip.maps").joinpath("data", f"{name}.json").read_text(encoding="utf-8")
    except FileNotFoundError:
        raise GeometryError(f"no geometry for map {name!r}: fogdip draws the standard map only") from None
    return geometry_from_json(json.loads(text), where=f"{name}.json")


def geometry_from_json(data: Any, where: str = "geometry") -> MapGeometry:
    """Read a geometry document, checking it is one and that its references hold."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise GeometryError(f"{where}: not a {FORMAT} document")
    if data.get("version") != VERSION:
        raise GeometryError(f"{where}: version {data.get('version')!r}; this fogdip reads version {VERSION}")
    arcs = tuple(_decode_arc(arc) for arc in data["arcs"])
    sides = tuple((str(left), str(right)) for left, right in data["sides"])
    if len(sides) != len(arcs):
        raise GeometryError(f"{where}: {len(arcs)} arcs but {len(sides)} side pairs")
    regions: dict[str, Region] = {}
    for region_id, spec in data["regions"].items():
        if spec["kind"] not in _KINDS:
            raise GeometryError(f"{where}: region {region_id} has unknown kind {spec['kind']!r}")
        rings = tuple(tuple(int(ref) for ref in ring) for ring in spec["rings"])
        for ring in rings:
            for ref in ring:
                if not -len(arcs) <= ref < len(arcs):
                    raise GeometryError(f"{where}: region {region_id} names arc {ref}, which does not exist")
        label = spec["label"]
        regions[region_id] = Region(region_id, spec["kind"], spec.get("name", region_id), rings, (label[0], label[1]))
    for left, right in sides:
        for side in (left, right):
            if side and side not in regions:
                raise GeometryError(f"{where}: an arc borders region {side!r}, which is not defined")
    width, height = data["size"]
    return MapGeometry(
        map=str(data["map"]),
        source=str(data.get("source", "")),
        projection=str(data.get("projection", "")),
        unit_m=float(data["unit_m"]),
        width=float(width),
        height=float(height),
        arcs=arcs,
        sides=sides,
        regions=MappingProxyType(regions),
        anchors=MappingProxyType({key: (value[0], value[1]) for key, value in data["anchors"].items()}),
        centres=MappingProxyType({key: (value[0], value[1]) for key, value in data["centres"].items()}),
    )


def _decode_arc(flat: list[int]) -> tuple[Point, ...]:
    """An arc from its first point and the deltas that follow."""
    x, y = flat[0], flat[1]
    points = [(float(x), float(y))]
    for index in range(2, len(flat), 2):
        x += flat[index]
        y += flat[index + 1]
        points.append((float(x), float(y)))
    return tuple(points)
