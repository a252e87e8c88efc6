"""Builds fogdip's geometry of the standard board (src/fogdip/maps/data/standard.json) from Natural Earth.

    python tools/mapbuild/build.py            # fetch (npm), build, write, check the written file
    python tools/mapbuild/build.py --check    # only check the file already written
    python tools/mapbuild/build.py --render /tmp/board.png   # also draw a debug picture (needs matplotlib)

See tools/mapbuild/README.md.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path
from typing import Any

from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry
from shapely.ops import polylabel

from fogdip.engine.map import standard_map

import board
import check
import layout
import regions
import topology
from source import load_countries

ROOT = Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "src/fogdip/maps/data/standard.json"
# Arcs are simplified to this tolerance (units of 250 m: 1.25 km).
SIMPLIFY_UNITS = 5.0


def region_kinds(shapes: dict[str, BaseGeometry], built: regions.Regions) -> dict[str, str]:
    engine = standard_map()
    kinds: dict[str, str] = {}
    for region in shapes:
        if region in built.lakes:
            kinds[region] = "lake"
        elif region in built.seas:
            kinds[region] = "sea"
        elif region == "SWI":
            kinds[region] = "impassable"
        elif region in engine.provinces:
            kinds[region] = "land"
        else:
            kinds[region] = "neutral"
    return kinds


def region_names(shapes: dict[str, BaseGeometry]) -> dict[str, str]:
    engine = standard_map()
    return {r: engine.provinces[r].name if r in engine.provinces else board.NEUTRAL_NAMES[r] for r in shapes}


def largest_part(shape: BaseGeometry) -> BaseGeometry:
    return max(getattr(shape, "geoms", [shape]), key=lambda p: p.area)


def label_point(shape: BaseGeometry) -> Point:
    """The pole of inaccessibility of the region's largest part (named regions' labels are then laid out)."""
    return polylabel(largest_part(shape), tolerance=2.0)


def unit_point(projector: regions.Projector, place: board.Place) -> Point:
    shape = topology.to_units({"p": Point(projector.point(place))})["p"]
    return Point(round(shape.x), round(shape.y))


def xy(point: Point) -> list[int]:
    return [round(point.x), round(point.y)]


def encode_arc(arc: topology.Arc) -> list[int]:
    """First point absolute, then deltas."""
    out = [arc[0][0], arc[0][1]]
    for (x0, y0), (x1, y1) in itertools.pairwise(arc):
        out.extend((x1 - x0, y1 - y0))
    return out


def build(cache: Path, render_to: Path | None) -> dict[str, Any]:
    countries, source = load_countries(cache)
    built = regions.build_regions(countries)
    partition = topology.planar_partition(topology.to_units(built.shapes))
    topo = topology.build_topology(partition, SIMPLIFY_UNITS)
    kinds = region_kinds(partition, built)
    names = region_names(partition)
    projector = regions.Projector()
    labels = {r: label_point(shape) for r, shape in partition.items()}
    engine = standard_map()
    # Every anchor starts at its region's label point (a coast's at its place); the layout pass moves them.
    anchors = {region: xy(labels[region]) for region in sorted(engine.provinces) if region != "SWI"}
    coasts = {coast: xy(unit_point(projector, place)) for coast, place in board.COAST_ANCHORS.items()}
    anchors.update(coasts)
    centres = {r: xy(unit_point(projector, place)) for r, place in board.SUPPLY_CENTRES.items()}
    if render_to is not None:
        import render

        render.render(partition, kinds, render_to, labels={r: (p.x, p.y) for r, p in labels.items()}, invert_y=True)
    doc: dict[str, Any] = {
        "format": "fogdip-map-geometry",
        "version": 1,
        "map": "standard",
        "source": source,
        "projection": board.PROJECTION,
        "unit_m": board.UNIT_M,
        "frame_origin_m": [board.FRAME_M[0], board.FRAME_M[3]],
        "size": [topo.width, topo.height],
        "arcs": [encode_arc(arc) for arc in topo.arcs],
        "sides": [list(pair) for pair in topo.sides],
        "regions": {
            r: {"kind": kinds[r], "name": names[r], "rings": topo.rings[r], "label": xy(labels[r])}
            for r in sorted(partition)
        },
        "anchors": anchors,
        "centres": centres,
    }
    focus = {region: xy(unit_point(projector, place)) for region, place in board.ANCHOR_FOCUS.items()}
    stuck = layout.lay_out(
        doc, {coast: (x, y) for coast, (x, y) in coasts.items()}, {r: (x, y) for r, (x, y) in focus.items()}
    )
    if stuck:
        print("warning: the layout leaves these in a collision:", ", ".join(stuck), file=sys.stderr)
    _check_points_inside(partition, anchors, centres)
    return doc


def _check_points_inside(
    partition: dict[str, BaseGeometry], anchors: dict[str, list[int]], centres: dict[str, list[int]]
) -> None:
    for name, (x, y) in [*anchors.items(), *centres.items()]:
        region = name.split("/")[0]
        if not partition[region].contains(Point(x, y)):
            print(f"warning: point of {name} ({x}, {y}) is not inside {region}", file=sys.stderr)


def write(doc: dict[str, Any], path: Path) -> None:
    """Compact JSON, one arc per line so diffs stay readable."""
    arcs = ",\n".join(json.dumps(arc, separators=(",", ":")) for arc in doc["arcs"])
    head = {k: v for k, v in doc.items() if k != "arcs"}
    text = json.dumps(head, separators=(",", ":"), ensure_ascii=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text[:-1] + ',\n"arcs":[\n' + arcs + "\n]}\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only check the written file")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/mapbuild"), help="where npm packs the source")
    parser.add_argument("--out", type=Path, default=OUTPUT)
    parser.add_argument("--render", type=Path, help="also draw the regions to this PNG (needs matplotlib)")
    args = parser.parse_args()
    if not args.check:
        write(build(args.cache, args.render), args.out)
        print(f"wrote {args.out} ({args.out.stat().st_size / 1024:.0f} KiB)")
    return check.check_file(args.out)


if __name__ == "__main__":
    sys.exit(main())
