"""The committed map geometry against the rules: the borders drawn are exactly the board's
adjacencies, every one long enough to see, and every unit and centre sits in its province."""

from __future__ import annotations

import itertools
import math

import pytest

from fogdip.engine.map import standard_map
from fogdip.maps.geometry import GeometryError, MapGeometry, Point, geometry_from_json, load_geometry

BOARD = standard_map()
GEOMETRY = load_geometry("standard")
SHORTEST_KM = 25.0


def engine_pairs() -> set[tuple[str, str]]:
    """Every pair of provinces a unit can move between, coasts counted as their province."""
    pairs = set()
    for location, targets in [*BOARD.army_adjacency.items(), *BOARD.fleet_adjacency.items()]:
        for target in targets:
            one, two = BOARD.province_of(location), BOARD.province_of(target)
            if one != two:
                pairs.add((min(one, two), max(one, two)))
    return pairs


def drawn_pairs() -> dict[tuple[str, str], float]:
    """The shared borders of the geometry between two of the board's provinces, in km."""
    return {pair: km for pair, km in GEOMETRY.shared_borders().items() if all(p in BOARD.provinces for p in pair)}


def test_the_board_has_206_adjacent_pairs() -> None:
    assert len(engine_pairs()) == 206


def test_every_adjacency_of_the_board_is_a_drawn_border() -> None:
    missing = sorted(engine_pairs() - set(drawn_pairs()))
    assert missing == []


def test_no_border_is_drawn_between_provinces_that_are_not_adjacent() -> None:
    # Switzerland is a province of the board, impassable and adjacent to nothing, yet it has
    # borders on the map: its own, drawn as the edge of an impassable region.
    extra = sorted(pair for pair in set(drawn_pairs()) - engine_pairs() if "SWI" not in pair)
    assert extra == []


def test_every_border_is_long_enough_to_see() -> None:
    short = {pair: round(km, 1) for pair, km in drawn_pairs().items() if pair in engine_pairs() and km < SHORTEST_KM}
    assert short == {}


def test_every_province_of_the_board_is_a_region_of_its_kind() -> None:
    for code, province in BOARD.provinces.items():
        region = GEOMETRY.regions[code]
        expected = {"sea": "sea", "impassable": "impassable"}.get(province.terrain, "land")
        assert region.kind == expected, code
    others = {r.kind for r in GEOMETRY.regions.values() if r.id not in BOARD.provinces}
    assert others <= {"neutral", "lake"}


def test_rings_close_and_arcs_are_used_by_the_regions_on_their_sides() -> None:
    used: dict[int, set[str]] = {}
    for region in GEOMETRY.regions.values():
        assert region.rings, region.id
        for ring in region.rings:
            points = GEOMETRY.ring_points(ring)
            assert math.dist(points[0], points[-1]) == 0, f"{region.id}: a ring does not close"
            for ref in ring:
                used.setdefault(ref if ref >= 0 else ~ref, set()).add(region.id)
    for index, (left, right) in enumerate(GEOMETRY.sides):
        assert used.get(index, set()) == {side for side in (left, right) if side}, f"arc {index}"


def inside(geometry: MapGeometry, region_id: str, point: Point) -> bool:
    """Whether ``point`` lies in the region (even-odd rule over all its rings)."""
    x, y = point
    crossings = 0
    for ring in geometry.regions[region_id].rings:
        points = geometry.ring_points(ring)
        for (x1, y1), (x2, y2) in itertools.pairwise(points):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                crossings += 1
    return crossings % 2 == 1


def test_every_location_has_a_unit_anchor_in_its_province() -> None:
    locations = {code for code, p in BOARD.provinces.items() if p.passable}
    locations |= {coast for p in BOARD.provinces.values() for coast in p.coasts}
    assert set(GEOMETRY.anchors) >= locations
    for location in sorted(locations):
        province = BOARD.province_of(location)
        if "/" in location:
            # A coast's fleet is drawn by that coast: on its land, or just off it at sea.
            seas = [
                t for t in BOARD.fleet_adjacency[location] if BOARD.provinces[BOARD.province_of(t)].terrain == "sea"
            ]
            assert inside(GEOMETRY, province, GEOMETRY.anchors[location]) or any(
                inside(GEOMETRY, sea, GEOMETRY.anchors[location]) for sea in seas
            ), location
        else:
            assert inside(GEOMETRY, province, GEOMETRY.anchors[location]), location


def test_every_supply_centre_is_a_city_in_its_province() -> None:
    centres = {code for code, p in BOARD.provinces.items() if p.supply_center}
    assert set(GEOMETRY.centres) == centres
    for centre in sorted(centres):
        assert inside(GEOMETRY, centre, GEOMETRY.centres[centre]), centre


def test_labels_lie_in_their_regions() -> None:
    for region in GEOMETRY.regions.values():
        if region.id in BOARD.provinces:
            assert inside(GEOMETRY, region.id, region.label), region.id


def test_a_damaged_geometry_file_is_refused_with_its_reason() -> None:
    with pytest.raises(GeometryError, match="not a fogdip-map-geometry document"):
        geometry_from_json({"format": "other"})
    with pytest.raises(GeometryError, match="version 9"):
        geometry_from_json({"format": "fogdip-map-geometry", "version": 9})
    with pytest.raises(GeometryError, match="no geometry for map 'atlantis'"):
        load_geometry("atlantis")
