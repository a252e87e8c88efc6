"""Checks the written geometry file against the engine: read back, adjacency from the arcs' sides and lengths.

Two regions are adjacent when they share a border line; its length is the sum of the lengths of the arcs with
one on each side. Pairs with SWI, a neutral region or a lake are not the engine's business and are skipped.
"""

from __future__ import annotations

import itertools
import json
import math
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from fogdip.engine.map import standard_map

import sizes

MIN_BORDER_KM = 25.0
IGNORED_KINDS = {"neutral", "lake", "impassable"}


def engine_pairs() -> set[tuple[str, str]]:
    """The engine's adjacent province pairs (a coast counts as its province)."""
    m = standard_map()
    pairs: set[tuple[str, str]] = set()
    for loc, targets in list(m.army_adjacency.items()) + list(m.fleet_adjacency.items()):
        for target in targets:
            a, b = m.province_of(loc), m.province_of(target)
            if a != b:
                pairs.add((min(a, b), max(a, b)))
    return pairs


def decode_arc(encoded: list[int]) -> list[tuple[int, int]]:
    x, y = encoded[0], encoded[1]
    points = [(x, y)]
    for i in range(2, len(encoded), 2):
        x, y = x + encoded[i], y + encoded[i + 1]
        points.append((x, y))
    return points


def border_lengths(doc: dict[str, Any]) -> dict[tuple[str, str], float]:
    """Shared border length in km per pair of regions, from the arcs' sides."""
    unit_km = doc["unit_m"] / 1000
    lengths: dict[tuple[str, str], float] = defaultdict(float)
    for encoded, (left, right) in zip(doc["arcs"], doc["sides"], strict=True):
        if not left or not right:
            continue
        points = decode_arc(encoded)
        length = sum(math.dist(p, q) for p, q in itertools.pairwise(points))
        lengths[(min(left, right), max(left, right))] += length * unit_km
    return lengths


def ring_area(doc: dict[str, Any], ring: list[int]) -> float:
    """Signed area of a ring (positive when the region is on the screen-left, y down)."""
    points: list[tuple[int, int]] = []
    for ref in ring:
        arc = decode_arc(doc["arcs"][ref if ref >= 0 else ~ref])
        points.extend(arc if ref >= 0 else arc[::-1])
    twice = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True))
    # With y down, walking with the region on the screen-left makes the shoelace sum negative.
    return -twice / 2


def check(doc: dict[str, Any]) -> list[str]:
    """Every problem found, as lines to print (none: the file is right)."""
    problems: list[str] = []
    kinds = {r: v["kind"] for r, v in doc["regions"].items()}
    lengths = border_lengths(doc)
    found = {
        pair for pair, km in lengths.items() if not (kinds[pair[0]] in IGNORED_KINDS or kinds[pair[1]] in IGNORED_KINDS)
    }
    wanted = engine_pairs()
    for pair in sorted(wanted - found):
        problems.append(f"missing {pair[0]}-{pair[1]}")
    for pair in sorted(found - wanted):
        problems.append(f"extra {pair[0]}-{pair[1]} ({lengths[pair]:.1f} km)")
    for pair in sorted(wanted & found):
        if lengths[pair] < MIN_BORDER_KM:
            problems.append(f"short {pair[0]}-{pair[1]} ({lengths[pair]:.1f} km)")
    width, height = doc["size"]
    areas = {r: sum(ring_area(doc, ring) for ring in v["rings"]) for r, v in doc["regions"].items()}
    total = sum(areas.values())
    if abs(total - width * height) > 1:
        problems.append(f"regions cover {total} units², the frame {width * height}")
    problems.extend(f"region {r} has area {a}" for r, a in areas.items() if a <= 0)
    layout_problems, _ = check_layout(doc)
    return problems + check_points(doc) + layout_problems


def ring_points(doc: dict[str, Any], ring: list[int]) -> list[tuple[int, int]]:
    points: list[tuple[int, int]] = []
    for ref in ring:
        arc = decode_arc(doc["arcs"][ref if ref >= 0 else ~ref])
        points.extend(arc if ref >= 0 else arc[::-1])
    return points


def inside(doc: dict[str, Any], region: str, x: float, y: float) -> bool:
    """Even-odd point-in-region over all the region's rings (as an SVG renderer fills them)."""
    crossings = 0
    for ring in doc["regions"][region]["rings"]:
        points = ring_points(doc, ring)
        for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True):
            if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
                crossings += 1
    return crossings % 2 == 1


def check_points(doc: dict[str, Any]) -> list[str]:
    """Anchors for every engine location, centres for every supply centre, all inside."""
    m = standard_map()
    problems: list[str] = []
    locations = {p for p in m.provinces if p != "SWI"} | {c for p in m.provinces.values() for c in p.coasts}
    centres = {p.code for p in m.provinces.values() if p.supply_center}
    problems += [f"no anchor for {loc}" for loc in sorted(locations - set(doc["anchors"]))]
    problems += [f"no centre for {code}" for code in sorted(centres - set(doc["centres"]))]
    for kind, points in (("anchor", doc["anchors"]), ("centre", doc["centres"])):
        for loc, (x, y) in points.items():
            region = loc.split("/")[0]
            if not inside(doc, region, x, y):
                problems.append(f"{kind} of {loc} is not inside {region}")
    for region, value in doc["regions"].items():
        if not inside(doc, region, *value["label"]):
            problems.append(f"label of {region} is not inside it")
    return problems


# -- the layout: names, units and centres as the renderer draws them at 1,500 px ---------------------------


def px_scale(doc: dict[str, Any]) -> float:
    """Pixels per board unit on the 1,500 px map."""
    return sizes.MAP_PX / float(doc["size"][0])


def region_shapes(doc: dict[str, Any]) -> dict[str, BaseGeometry]:
    """Every region as a shapely geometry in pixels, from its rings by the even-odd rule (as drawn)."""
    scale = px_scale(doc)
    shapes: dict[str, BaseGeometry] = {}
    for region, value in doc["regions"].items():
        shape: BaseGeometry = Polygon()
        for ring in value["rings"]:
            points = np.array(ring_points(doc, ring), dtype=float) * scale
            shape = shape.symmetric_difference(shapely.make_valid(Polygon(points)))
        shapes[region] = shape
    return shapes


def label_box(code: str, x: float, y: float) -> BaseGeometry:
    half = sizes.label_half_width(code)
    return box(x - half, y + sizes.LABEL_TOP_PX, x + half, y + sizes.LABEL_BOTTOM_PX)


def box_gap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """How far apart two boxes (x0, y0, x1, y1) are: negative when they overlap (by the smaller overlap)."""
    gap_x = max(a[0] - b[2], b[0] - a[2])
    gap_y = max(a[1] - b[3], b[1] - a[3])
    return max(gap_x, gap_y)


def coast_seas(location: str) -> tuple[set[str], set[str]]:
    """A coast's seas, and the seas only the province's other coasts reach."""
    m = standard_map()
    province = m.province_of(location)

    def seas(loc: str) -> set[str]:
        return {t for t in m.fleet_adjacency[loc] if m.provinces[m.province_of(t)].terrain == "sea"}

    others = set().union(*(seas(c) for c in m.provinces[province].coasts if c != location))
    return seas(location), others - seas(location)


class Clearances:
    """The smallest clearance (px, negative: a collision) met per hard rule, and where."""

    def __init__(self) -> None:
        self.worst: dict[str, tuple[float, str, str]] = {}
        self.problems: list[str] = []

    def add(self, rule: str, clearance: float, where: str, unit: str = "px") -> None:
        if rule not in self.worst or clearance < self.worst[rule][0]:
            self.worst[rule] = (clearance, where, unit)
        if clearance < -1e-9:
            self.problems.append(f"{rule}: {where} ({clearance:+.1f} {unit})")


def check_layout(doc: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The hard layout rules on the written file: problems, and one line per rule with its smallest clearance.

    1. no name's box meets a unit's circle (r=18), a centre's (r=8) or another name's box;
    2. unit circles of different locations (coasts included) do not overlap (36 px apart);
    3. no unit circle meets a centre's (26 px apart);
    4. anchors 8 px inside their region (a coast's within 25 px of its seas, and not within 25 px of seas only
       the other coasts reach); label points inside their region with 85% of the name's box.
    """
    scale = px_scale(doc)
    shapes = region_shapes(doc)
    found = Clearances()
    anchors = {loc: (x * scale, y * scale) for loc, (x, y) in doc["anchors"].items()}
    centres = {c: (x * scale, y * scale) for c, (x, y) in doc["centres"].items()}
    labels = {
        r: (v["label"][0] * scale, v["label"][1] * scale)
        for r, v in doc["regions"].items()
        if v["kind"] not in sizes.UNLABELLED
    }
    boxes = {r: label_box(r, x, y).bounds for r, (x, y) in labels.items()}
    for region, bounds in boxes.items():
        for loc, point in anchors.items():
            gap = Point(point).distance(box(*bounds)) - sizes.UNIT_PX
            found.add("name/unit", gap, f"name {region}, unit of {loc}")
        for centre, point in centres.items():
            gap = Point(point).distance(box(*bounds)) - sizes.CENTRE_PX
            found.add("name/centre", gap, f"name {region}, centre of {centre}")
    for (one, a), (two, b) in itertools.combinations(sorted(boxes.items()), 2):
        found.add("name/name", box_gap(a, b), f"names {one}, {two}")
    for (one, a), (two, b) in itertools.combinations(sorted(anchors.items()), 2):
        found.add("unit/unit", math.dist(a, b) - 2 * sizes.UNIT_PX, f"units of {one}, {two}")
    for loc, a in anchors.items():
        for centre, c in centres.items():
            found.add(
                "unit/centre", math.dist(a, c) - sizes.UNIT_PX - sizes.CENTRE_PX, f"unit of {loc}, centre {centre}"
            )
    for loc, a in anchors.items():
        province = loc.split("/")[0]
        shape = shapes[province]
        point = Point(a)
        depth = shape.boundary.distance(point) if shape.contains(point) else -shape.boundary.distance(point)
        found.add("anchor depth", depth - sizes.ANCHOR_DEPTH_PX, f"anchor of {loc} is {depth:.1f} px inside")
        if "/" in loc:
            own, others = coast_seas(loc)
            reach = min(shapes[s].distance(point) for s in own)
            found.add("coast reach", sizes.COAST_REACH_PX - reach, f"{loc} is {reach:.1f} px from its seas")
            if others:
                wrong = min(shapes[s].distance(point) for s in others)
                found.add(
                    "coast side", wrong - sizes.COAST_REACH_PX, f"{loc} is {wrong:.1f} px from another coast's sea"
                )
    for region, (x, y) in labels.items():
        shape = shapes[region]
        if not shape.contains(Point(x, y)):
            found.add("name inside", -100.0, f"label point of {region} is not inside it", "%")
        name = label_box(region, x, y)
        share = shape.intersection(name).area / name.area
        found.add(
            "name inside", 100 * (share - sizes.LABEL_INSIDE), f"{share:.1%} of the name {region} is inside it", "%"
        )
    lines = [
        f"{rule}: smallest clearance {gap:+.1f} {unit} ({where})" for rule, (gap, where, unit) in found.worst.items()
    ]
    return found.problems, lines


def soft_report(doc: dict[str, Any]) -> list[str]:
    """What the layout only tries for (not problems): names far from or beside their unit, dislodged rings and
    ghost captions on other names or centres."""
    scale = px_scale(doc)
    anchors = {loc: (x * scale, y * scale) for loc, (x, y) in doc["anchors"].items()}
    centres = {c: Point(x * scale, y * scale) for c, (x, y) in doc["centres"].items()}
    names = {
        r: label_box(r, v["label"][0] * scale, v["label"][1] * scale)
        for r, v in doc["regions"].items()
        if v["kind"] not in sizes.UNLABELLED
    }
    far, beside, ringed, captioned = [], [], [], []
    for loc, (x, y) in anchors.items():
        if loc in names:
            lx, ly = names[loc].centroid.x, names[loc].centroid.y + 0.5
            if math.dist((lx, ly), (x, y)) > 50:
                far.append(f"{loc} {math.dist((lx, ly), (x, y)):.0f} px")
            elif abs(lx - x) > 10:
                beside.append(f"{loc} {lx - x:+.0f},{ly - y:+.0f}")
        dx, dy, r = sizes.DISLODGED
        ring = Point(x + dx, y + dy).buffer(r, 16)
        x0, x1, y0, y1 = sizes.GHOST_CAPTION
        caption = box(x + x0, y + y0, x + x1, y + y1)
        others = {k: v for k, v in names.items() if k != loc.split("/")[0]}
        ringed += [f"{loc}/{k}" for k, v in [*others.items(), *centres.items()] if ring.intersects(v)]
        captioned += [f"{loc}/{k}" for k, v in others.items() if caption.intersects(v)]
        captioned += [f"{loc}/{k}" for k, v in centres.items() if caption.distance(v) < sizes.CENTRE_PX]
    return [
        f"soft: names over 50 px from their unit: {', '.join(far) or 'none'}",
        f"soft: names not above or below their unit (dx, dy): {', '.join(beside) or 'none'}",
        f"soft: dislodged rings on another name or a centre: {', '.join(ringed) or 'none'}",
        f"soft: ghost captions on another name or a centre: {', '.join(captioned) or 'none'}",
    ]


def summary(doc: dict[str, Any]) -> str:
    kinds = {r: v["kind"] for r, v in doc["regions"].items()}
    lengths = border_lengths(doc)
    wanted = engine_pairs()
    shortest = min((km, pair) for pair, km in lengths.items() if pair in wanted)
    return (
        f"{len(wanted)} engine pairs, {len(kinds)} regions, {len(doc['arcs'])} arcs; "
        f"shortest engine border {shortest[1][0]}-{shortest[1][1]} {shortest[0]:.1f} km"
    )


def shortest(doc: dict[str, Any], count: int) -> list[str]:
    lengths = border_lengths(doc)
    wanted = engine_pairs()
    return [
        f"{a}-{b} {km:.1f} km" for km, (a, b) in sorted((km, p) for p, km in lengths.items() if p in wanted)[:count]
    ]


def check_file(path: Path) -> int:
    doc = json.loads(path.read_text())
    print("shortest borders:", ", ".join(shortest(doc, 12)))
    for line in check_layout(doc)[1] + soft_report(doc):
        print(line)
    problems = check(doc)
    for line in problems:
        print(line)
    print(f"{len(problems)} problems; {summary(doc)}")
    return 1 if problems else 0
