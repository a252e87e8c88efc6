"""A debug picture of the regions and seeds (needs matplotlib, which the generator itself does not)."""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import shapely
from shapely.geometry.base import BaseGeometry

COLOURS = {"sea": "#a9c8e8", "lake": "#7fa6cc", "land": None, "neutral": "#cfcfcf", "impassable": "#8a7f70"}


def _colour(region: str) -> str:
    hue = zlib.crc32(region.encode()) & 0xFFFFFF
    r, g, b = 150 + (hue & 0x5F), 150 + ((hue >> 8) & 0x5F), 120 + ((hue >> 16) & 0x5F)
    return f"#{r:02x}{g:02x}{b:02x}"


def _sea_colour(region: str) -> str:
    hue = zlib.crc32(region.encode()) & 0xFFFFFF
    return f"#{120 + (hue & 0x3F):02x}{170 + ((hue >> 8) & 0x3F):02x}{200 + ((hue >> 16) & 0x37):02x}"


def render(
    shapes: dict[str, BaseGeometry],
    kinds: dict[str, str],
    out: Path,
    points: Sequence[tuple[float, float, str]] = (),
    labels: dict[str, tuple[float, float]] | None = None,
    window: tuple[float, float, float, float] | None = None,
    invert_y: bool = False,
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(20, 16))
    for region, geometry in shapes.items():
        kind = kinds.get(region, "land")
        colour = _sea_colour(region) if kind == "sea" else COLOURS.get(kind) or _colour(region)
        for polygon in getattr(geometry, "geoms", [geometry]):
            if polygon.geom_type != "Polygon":
                continue
            _patch(ax, polygon, colour)
    for x, y, colour in points:
        ax.plot(x, y, ".", color=colour, ms=2)
    for region, (x, y) in (labels or {}).items():
        ax.text(x, y, region, fontsize=7, ha="center", va="center")
    if window is None:
        window = shapely.union_all([shapely.envelope(g) for g in shapes.values()]).bounds
    ax.set_xlim(window[0], window[2])
    ax.set_ylim(window[1], window[3])
    ax.set_aspect("equal")
    if invert_y:
        ax.invert_yaxis()
    fig.savefig(out, dpi=80)
    plt.close(fig)


def _patch(ax: Any, polygon: BaseGeometry, colour: str) -> None:
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path as MplPath

    rings = [polygon.exterior, *polygon.interiors]
    vertices: list[tuple[float, float]] = []
    codes: list[Any] = []
    for ring in rings:
        coords = list(ring.coords)
        vertices.extend(coords)
        codes.extend([MplPath.MOVETO] + [MplPath.LINETO] * (len(coords) - 2) + [MplPath.CLOSEPOLY])
    ax.add_patch(PathPatch(MplPath(vertices, codes), facecolor=colour, edgecolor="#333333", lw=0.3))
