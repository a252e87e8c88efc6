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

from fogdip.engine.map import standard_map

MIN_BORDER_KM = 25.0
# Unit anchors this far from their region's label at least, so icons and names do not collide.
MIN_LABEL_KM = 40.0
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
    return problems + check_points(doc)


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
    """Anchors for every engine location, centres for every supply centre, all inside, anchors clear of labels."""
    m = standard_map()
    problems: list[str] = []
    locations = {p for p in m.provinces if p != "SWI"} | {c for p in m.provinces.values() for c in p.coasts}
    centres = {p.code for p in m.provinces.values() if p.supply_center}
    problems += [f"no anchor for {loc}" for loc in sorted(locations - set(doc["anchors"]))]
    problems += [f"no centre for {code}" for code in sorted(centres - set(doc["centres"]))]
    unit_km = doc["unit_m"] / 1000
    for kind, points in (("anchor", doc["anchors"]), ("centre", doc["centres"])):
        for loc, (x, y) in points.items():
            region = loc.split("/")[0]
            if not inside(doc, region, x, y):
                problems.append(f"{kind} of {loc} is not inside {region}")
            label = doc["regions"][region]["label"]
            if kind == "anchor" and math.dist(label, (x, y)) * unit_km < MIN_LABEL_KM:
                problems.append(f"anchor of {loc} is {math.dist(label, (x, y)) * unit_km:.0f} km from the label")
    for region, value in doc["regions"].items():
        if not inside(doc, region, *value["label"]):
            problems.append(f"label of {region} is not inside it")
    return problems


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
    problems = check(doc)
    for line in problems:
        print(line)
    print(f"{len(problems)} problems; {summary(doc)}")
    return 1 if problems else 0
