"""Region polygons in projected metres: land split per country group, water split into seas and lakes."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeGuard, cast

import numpy as np
import shapely
from pyproj import Transformer
from shapely.geometry import MultiPoint, Point, Polygon, box
from shapely.geometry.base import BaseGeometry

import board
from source import Country

# Seed polylines are cut into points this far apart (metres) before the Voronoi split.
SEED_STEP_M = 15_000.0
# Lon/lat outlines are densified to this step (degrees) so straight cuts stay straight once projected.
DENSIFY_DEG = 0.2


@dataclass
class Regions:
    """Every region's geometry in projected metres, and which ones are seas and lakes."""

    shapes: dict[str, BaseGeometry]
    seas: set[str]
    lakes: set[str]
    frame: Polygon


class Projector:
    """lon/lat to the board's projection."""

    def __init__(self) -> None:
        self._forward = Transformer.from_crs("EPSG:4326", board.PROJECTION, always_xy=True)
        self._inverse = Transformer.from_crs(board.PROJECTION, "EPSG:4326", always_xy=True)

    def place(self, x: float, y: float) -> board.Place:
        lon, lat = self._inverse.transform(x, y)
        return float(lon), float(lat)

    def point(self, place: board.Place) -> tuple[float, float]:
        x, y = self._forward.transform(*place)
        return float(x), float(y)

    def geometry(self, geometry: BaseGeometry) -> BaseGeometry:
        dense = shapely.segmentize(geometry, DENSIFY_DEG)
        return shapely.transform(dense, lambda xy: np.column_stack(self._forward.transform(xy[:, 0], xy[:, 1])))


def _polygons(geometry: BaseGeometry) -> list[Polygon]:
    if isinstance(geometry, Polygon):
        return [] if geometry.is_empty else [geometry]
    return [part for g in getattr(geometry, "geoms", []) for part in _polygons(g)]


def _in_box(geometry: BaseGeometry) -> BaseGeometry:
    """The country's parts inside LONLAT_BOX; parts reaching out of it (Russia across 180°) are cut to it."""
    lon_min, lat_min, lon_max, lat_max = board.LONLAT_BOX
    cut = box(*board.LONLAT_BOX)
    parts: list[BaseGeometry] = []
    for part in _polygons(geometry):
        x0, y0, x1, y1 = part.bounds
        if x1 < lon_min or x0 > lon_max or y1 < lat_min or y0 > lat_max:
            continue
        if x1 - x0 > 180:
            # A ring across the antimeridian (Russia's): unwrap its western longitudes to beyond 180°.
            part = shapely.transform(
                part, lambda xy: np.column_stack((np.where(xy[:, 0] < 0, xy[:, 0] + 360, xy[:, 0]), xy[:, 1]))
            )
        if x0 < lon_min or x1 > lon_max or y0 < lat_min or y1 > lat_max:
            part = shapely.make_valid(part).intersection(cut)
        parts.extend(_polygons(part))
    return shapely.union_all(parts) if parts else Polygon()


def _is_polyline(seed: board.Seed) -> TypeGuard[tuple[board.Place, ...]]:
    return isinstance(seed[0], tuple)


def seed_points(projector: Projector, seeds: Iterable[board.Seed]) -> list[tuple[float, float]]:
    """Projected seed points; polylines are cut into points SEED_STEP_M apart."""
    points: list[tuple[float, float]] = []
    for seed in seeds:
        if _is_polyline(seed):
            line = shapely.LineString([projector.point(p) for p in seed])
            steps = max(1, int(line.length // SEED_STEP_M))
            points.extend(
                (pt.x, pt.y) for pt in (line.interpolate(i / steps, normalized=True) for i in range(steps + 1))
            )
        else:
            points.append(projector.point(cast(board.Place, seed)))
    return points


def voronoi_split(
    area: BaseGeometry, seeds: dict[str, list[tuple[float, float]]], frame: Polygon
) -> dict[str, BaseGeometry]:
    """``area`` cut into the union of each label's Voronoi cells (cells computed over the whole frame)."""
    labelled = [(label, pt) for label, pts in seeds.items() for pt in pts]
    if len(seeds) == 1:
        return {next(iter(seeds)): area}
    cells = shapely.voronoi_polygons(MultiPoint([pt for _, pt in labelled]), extend_to=frame.buffer(1e6))
    by_label: dict[str, list[BaseGeometry]] = {label: [] for label in seeds}
    tree = shapely.STRtree(list(cells.geoms))
    for label, pt in labelled:
        for index in tree.query(Point(pt), predicate="intersects"):
            by_label[label].append(cells.geoms[index])
    return {label: area.intersection(shapely.union_all(parts)) for label, parts in by_label.items()}


def _merge(shapes: dict[str, BaseGeometry], region: str, geometry: BaseGeometry) -> None:
    if geometry.is_empty:
        return
    shapes[region] = shapely.union_all([shapes[region], geometry]) if region in shapes else geometry


def _island_target(piece: Polygon, projector: Projector, default: str) -> str | None:
    """The region of a land piece: its ISLANDS entry (a region id, or None for water), else ``default``."""
    lon, lat = projector.place(*piece.representative_point().coords[0])
    for lon0, lat0, lon1, lat1, region in board.ISLANDS:
        if lon0 <= lon <= lon1 and lat0 <= lat <= lat1:
            return region
    return default


def build_land(countries: list[Country], projector: Projector, frame: Polygon) -> dict[str, BaseGeometry]:
    """Land regions: each group's land split among its seeds, then islands reassigned and bridges added."""
    by_name = {c.name: c for c in countries}
    grouped = {name for group in board.GROUPS for name in group.countries}
    for country in countries:
        if country.name not in grouped:
            projected = projector.geometry(_in_box(country.geometry))
            if projected.intersects(frame):
                raise SystemExit(f"country {country.name!r} is inside the frame but in no group")
    shapes: dict[str, BaseGeometry] = {}
    for group in board.GROUPS:
        area = shapely.union_all([projector.geometry(_in_box(by_name[n].geometry)) for n in group.countries])
        area = shapely.make_valid(area).intersection(frame)
        seeds = {region: seed_points(projector, s) for region, s in group.seeds.items()}
        for region, part in voronoi_split(area, seeds, frame).items():
            for piece in _polygons(part):
                target = _island_target(piece, projector, region)
                if target is None or piece.area < board.MIN_ISLAND_KM2 * 1e6:
                    continue
                _merge(shapes, target, piece)
    all_land = shapely.union_all(list(shapes.values()))
    for region, outline in board.BRIDGES:
        bridge = projector.geometry(Polygon(outline)).difference(all_land)
        _merge(shapes, region, bridge)
    return shapes


def build_water(shapes: dict[str, BaseGeometry], projector: Projector, frame: Polygon) -> Regions:
    """The water: lakes (cut off from the ocean), then the ocean split among the seas' seeds."""
    water = frame.difference(shapely.union_all(list(shapes.values())))
    pieces = sorted(_polygons(water), key=lambda p: p.area, reverse=True)
    # The bridges cut the Black Sea off from the Mediterranean: it is still seas' water, not a lake.
    ocean, cut_off = [pieces[0]], pieces[1:]
    lakes: set[str] = set()
    named = {region: (Point(projector.point(place)), kind) for region, place, kind in board.LAKES}
    for piece in cut_off:
        name = next((region for region, (pt, _) in named.items() if piece.contains(pt)), None)
        if name is not None and named[name][1] == "lake":
            _merge(shapes, name, piece)
            lakes.add(name)
        elif name is not None:
            _merge(shapes, named[name][1], piece)
        elif piece.area < board.MIN_LAKE_KM2 * 1e6:
            _merge(shapes, _longest_neighbour(piece, shapes), piece)
        else:
            ocean.append(piece)
    seeds = {sea: seed_points(projector, s) for sea, s in board.SEAS.items()}
    seas = voronoi_split(shapely.union_all(ocean), seeds, frame)
    shapes.update(_without_strays(seas, seeds))
    return Regions(shapes, set(board.SEAS), lakes, frame)


def _without_strays(
    seas: dict[str, BaseGeometry], seeds: dict[str, list[tuple[float, float]]]
) -> dict[str, BaseGeometry]:
    """Each sea keeps the pieces of water that hold one of its seeds; a Voronoi cell reaching across land
    (the Kattegat's cell into the Baltic, say) leaves strays, which go to the bordering sea they share most with."""
    kept: dict[str, BaseGeometry] = {}
    strays: list[Polygon] = []
    for sea, shape in seas.items():
        points = MultiPoint(seeds[sea]).buffer(5_000)
        parts = _polygons(shape)
        kept[sea] = shapely.union_all([p for p in parts if p.intersects(points)])
        strays.extend(p for p in parts if not p.intersects(points))
    while strays:
        # A stray may border only other strays until those have found their sea.
        waiting = [p for p in strays if not any(p.distance(shape) < 1.0 for shape in kept.values())]
        if len(waiting) == len(strays):
            raise SystemExit(f"{len(strays)} pieces of water touch no sea, e.g. at {strays[0].representative_point()}")
        for stray in strays:
            if stray not in waiting:
                _merge(kept, _longest_neighbour(stray, kept), stray)
        strays = waiting
    return kept


def _longest_neighbour(piece: BaseGeometry, shapes: dict[str, BaseGeometry]) -> str:
    """The region sharing the longest border with ``piece``."""
    boundary = piece.boundary
    shared = {r: boundary.intersection(shape.buffer(1.0)).length for r, shape in shapes.items()}
    best = max(shared, key=lambda r: shared[r])
    if shared[best] == 0:
        raise SystemExit(f"a piece at {piece.representative_point()} touches none of {sorted(shapes)}")
    return best


def build_regions(countries: list[Country]) -> Regions:
    projector = Projector()
    frame = box(*board.FRAME_M)
    shapes = build_land(countries, projector, frame)
    return build_water(shapes, projector, frame)
