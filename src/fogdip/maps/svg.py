"""A scene drawn as SVG: one self-contained document, no external assets or fonts.

The map is 1,500 units wide (a pixel each on a large screen) and scales to any width through
its ``viewBox``. The board (land, sea, borders, names) is drawn once per map and kept; each
scene adds its fog, centres, orders, units and legend. Everything drawn comes from the
:class:`~fogdip.maps.scene.Scene`, and nothing names a unit the scene does not hold.

>>> from fogdip.engine.state import GameState
>>> from fogdip.maps.scene import master_scene
>>> text = render_svg(master_scene(GameState.initial()))
>>> text.startswith("<svg") and text.rstrip().endswith("</svg>")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from html import escape
from types import MappingProxyType

from fogdip.maps import style
from fogdip.maps.arrows import _STROKES, _Arrows, _cross, _question
from fogdip.maps.geometry import MapGeometry, Point, load_geometry
from fogdip.maps.icons import _DISLODGED_OFFSET, _haloed, _unit_data, _unit_icon
from fogdip.maps.scene import DrawnUnit, Scene

#: The map's width in SVG units.
WIDTH = 1500.0
_FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"


@dataclass(frozen=True, eq=False)
class Painter:
    """One map's geometry with its board already drawn: kept per map and shared (immutable)."""

    geometry: MapGeometry
    scale: float
    height: float
    region_paths: Mapping[str, str] = field(repr=False)
    board: str = field(repr=False)
    names: str = field(repr=False)
    hits: str = field(repr=False)

    def point(self, location: str) -> Point:
        """The unit anchor of ``location`` (a province or coast), in SVG units."""
        x, y = self.geometry.anchors[location]
        return (x * self.scale, y * self.scale)

    def fog_path(self, fog: frozenset[str], drawn: FogOutlines | None = None) -> str:
        """The outline of the provinces of ``fog`` (those this map has), as a path's data;
        kept in ``drawn``, if given, by the set.

        The painter keeps none itself: it serves every game and every viewer of a process,
        and a fog is the viewer's own (where its units stand), so whether a fog were drawn
        already would tell, by the time it takes, whether someone else's units stood so.
        Whoever keeps ``drawn`` scopes it to one viewer (the server: one power in one game)."""
        path = drawn.get(fog) if drawn is not None else None
        if path is None:
            fogged = [province for province in fog if province in self.geometry.regions]
            path = _rings_path(self.geometry.outline(fogged), self.scale) if fogged else ""
            if drawn is not None:
                if len(drawn) >= 64:
                    drawn.clear()
                drawn[fog] = path
        return path


#: Fog outlines by the set of provinces fogged, kept for one viewer (:meth:`Painter.fog_path`).
FogOutlines = MutableMapping[frozenset[str], str]


@cache
def painter(map_name: str) -> Painter:
    """The painter of ``map_name``, made once per process (immutable)."""
    geometry = load_geometry(map_name)
    scale = WIDTH / geometry.width
    paths = {region_id: _region_path(geometry, region_id, scale) for region_id in geometry.regions}
    return Painter(
        geometry,
        scale,
        geometry.height * scale,
        MappingProxyType(paths),
        _board(geometry, paths, scale),
        _names(geometry, scale),
        _hits(geometry, scale),
    )


def render_svg(scene: Scene, *, crop: bool = False, drawn: FogOutlines | None = None, hits: bool = False) -> str:
    """The SVG document of ``scene``. With ``crop``, the map shows only the part of the board
    the viewer knows (what it sees, its ghosts, the places its orders name), enlarged to the
    full width: on a phone's screen its names and units read without zooming. ``drawn``: the
    viewer's fog outlines drawn before (:meth:`Painter.fog_path`), kept by the caller for that
    viewer alone. With ``hits``, every province has a transparent target a page can click
    (``data-province``), under the units."""
    paint = painter(scene.map)
    legend = _Legend(scene)
    box = _known_box(paint, scene) if crop else (0.0, 0.0, WIDTH, paint.height)
    map_height = box[3] * WIDTH / box[2]
    height = map_height + legend.height
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH:.0f} {height:.0f}" '
        f'width="{WIDTH:.0f}" height="{height:.0f}" font-family="{_FONT}" role="img">',
        f"<title>{escape(_heading(scene))}</title>",
        _DEFS,
    ]
    if crop:
        x, y, w, h = box
        out.append(
            f'<svg x="0" y="0" width="{WIDTH:.0f}" height="{map_height:.1f}" viewBox="{x:.1f} {y:.1f} {w:.1f} {h:.1f}">'
        )
    out.extend([paint.board, _fog(paint, scene.fog, drawn), paint.names, _centres(paint, scene)])
    arrows = _Arrows(paint, scene)
    for order in scene.orders:
        arrows.draw(order)
    out.append("".join(arrows.under))
    if hits:
        out.append(paint.hits)
    out.append(_units(paint, scene))
    out.append(f'<g pointer-events="none">{"".join(arrows.over)}{_marks(paint, scene)}</g>')
    if crop:
        out.append("</svg>")
    out.append(legend.draw(map_height))
    out.append("</svg>\n")
    return "".join(out)


#: A cropped map shows at least this much of the board, in map units (about 1,800 km), and
#: keeps a shape between these proportions (width to height).
_SMALLEST_CROP = 500.0
_CROP_SHAPE = (1.0, 1.6)
_CROP_MARGIN = 70.0


def _known_box(paint: Painter, scene: Scene) -> tuple[float, float, float, float]:
    """The part of the map the viewer knows: its provinces in sight, its own centres (all it
    knows before a free setup), its ghosts and the places its orders name, with a margin; as
    ``x, y, width, height``."""
    geometry = paint.geometry
    points: list[Point] = []
    for code, region in geometry.regions.items():
        mine = scene.viewer is not None and scene.centres.get(code) == scene.viewer
        if region.kind in ("land", "sea") and (code not in scene.fog or mine):
            points.append((region.label[0] * paint.scale, region.label[1] * paint.scale))
    for unit in scene.units:
        if unit.location in geometry.anchors:
            points.append(paint.point(unit.location))
    for drawn in scene.orders:
        for place in drawn.order.places:
            if isinstance(place, str) and place in geometry.anchors:
                points.append(paint.point(place))
    if not points or not scene.fog:
        return (0.0, 0.0, WIDTH, paint.height)
    left, right = min(p[0] for p in points) - _CROP_MARGIN, max(p[0] for p in points) + _CROP_MARGIN
    top, bottom = min(p[1] for p in points) - _CROP_MARGIN, max(p[1] for p in points) + _CROP_MARGIN
    width, height = max(right - left, _SMALLEST_CROP), max(bottom - top, _SMALLEST_CROP / _CROP_SHAPE[1])
    width, height = max(width, height * _CROP_SHAPE[0]), max(height, width / _CROP_SHAPE[1])
    width, height = min(width, WIDTH), min(height, paint.height)
    x = min(max((left + right - width) / 2, 0.0), WIDTH - width)
    y = min(max((top + bottom - height) / 2, 0.0), paint.height - height)
    return (x, y, width, height)


# -- the board, drawn once per map ---------------------------------------------------------


def _region_path(geometry: MapGeometry, region_id: str, scale: float) -> str:
    parts = []
    for ring in geometry.regions[region_id].rings:
        points = geometry.ring_points(ring)
        parts.append("M" + "L".join(f"{x * scale:.1f} {y * scale:.1f}" for x, y in points) + "Z")
    return "".join(parts)


def _arc_path(geometry: MapGeometry, indexes: Iterable[int], scale: float) -> str:
    return "".join(
        "M" + "L".join(f"{x * scale:.1f} {y * scale:.1f}" for x, y in geometry.arcs[index]) for index in indexes
    )


def _rings_path(rings: Iterable[list[Point]], scale: float) -> str:
    return "".join("M" + "L".join(f"{x * scale:.1f} {y * scale:.1f}" for x, y in ring) + "Z" for ring in rings)


def compact_path(rings: Iterable[Sequence[Point]], scale: float) -> str:
    """Closed rings as path data in whole units, each point a step from the last (points that
    round to the same one are dropped).

    >>> compact_path([[(0.0, 0.0), (10.2, 0.0), (10.0, 5.4), (10.1, 5.3)]], 1.0)
    'M0 0l10 0 0 5z'
    """
    parts: list[str] = []
    for ring in rings:
        last: tuple[int, int] | None = None
        steps: list[str] = []
        for x, y in ring:
            point = (round(x * scale), round(y * scale))
            if last is None:
                parts.append(f"M{point[0]} {point[1]}")
            elif point != last:
                steps.append(f"{point[0] - last[0]} {point[1] - last[1]}")
            last = point
        parts.append(("l" + " ".join(steps) if steps else "") + "z")
    return "".join(parts)


def _board(geometry: MapGeometry, paths: Mapping[str, str], scale: float) -> str:
    out = [f'<rect width="{WIDTH:.0f}" height="{geometry.height * scale:.1f}" fill="{style.WATER}"/>']
    # All land at once, by its outline (borders inside it drawn once, as lines, below); then
    # the land that is not a province's over it.
    land = [region.id for region in geometry.regions.values() if not region.water]
    out.append(f'<path d="{_rings_path(geometry.outline(land), scale)}" fill="{style.LAND}" fill-rule="evenodd"/>')
    for kind, fill in (("neutral", style.NEUTRAL_LAND), ("impassable", style.IMPASSABLE)):
        d = "".join(paths[r.id] for r in geometry.regions.values() if r.kind == kind)
        if d:
            out.append(f'<path d="{d}" fill="{fill}" fill-rule="evenodd"/>')
    impassable = "".join(paths[r.id] for r in geometry.regions.values() if r.kind == "impassable")
    if impassable:
        out.append(f'<path d="{impassable}" fill="url(#impassable)" fill-rule="evenodd"/>')
    kinds = {region_id: region.kind for region_id, region in geometry.regions.items()}
    province_borders = [
        i for i in geometry.border_arcs if "neutral" not in (kinds[geometry.sides[i][0]], kinds[geometry.sides[i][1]])
    ]
    neutral_borders = [i for i in geometry.border_arcs if i not in set(province_borders)]
    sea_borders = [
        i for i in geometry.sea_arcs if "lake" not in (kinds[geometry.sides[i][0]], kinds[geometry.sides[i][1]])
    ]
    out.append(
        f'<path d="{_arc_path(geometry, sea_borders, scale)}" fill="none" stroke="{style.SEA_BORDER}" '
        'stroke-width="1.1" stroke-dasharray="5 3"/>'
    )
    out.append(
        f'<path d="{_arc_path(geometry, neutral_borders, scale)}" fill="none" stroke="{style.BORDER}" '
        'stroke-width="0.6" stroke-opacity="0.6"/>'
    )
    out.append(
        f'<path d="{_arc_path(geometry, province_borders, scale)}" fill="none" stroke="{style.BORDER}" '
        'stroke-width="1.2" stroke-linejoin="round"/>'
    )
    out.append(
        f'<path d="{_arc_path(geometry, geometry.coast_arcs, scale)}" fill="none" stroke="{style.COAST}" '
        'stroke-width="1.3" stroke-linejoin="round"/>'
    )
    return "".join(out)


def _names(geometry: MapGeometry, scale: float) -> str:
    out = ['<g font-weight="bold" text-anchor="middle">']
    for region in geometry.regions.values():
        if region.kind in ("neutral", "lake"):
            continue
        x, y = region.label
        at = f'x="{x * scale:.1f}" y="{y * scale + 4:.1f}"'
        if region.kind == "sea":
            look, fill, halo = 'font-size="12" font-style="italic"', style.SEA_LABEL, style.WATER
        elif region.kind == "impassable":
            look, fill, halo = 'font-size="10"', "#5E584B", style.IMPASSABLE
        else:
            look, fill, halo = 'font-size="12"', style.LAND_LABEL, "#FFFFFF"
        out.append(_haloed(at, look, fill, escape(region.id), halo, 3, region.name))
    out.append("</g>")
    return "".join(out)


#: The provinces' kinds of region (the rest of the frame, neutral land and lakes, is none).
_PROVINCES = ("land", "sea", "impassable")


def _hits(geometry: MapGeometry, scale: float) -> str:
    """A transparent, clickable target per province (``data-province``, its id as the geometry
    writes it; a coast is part of its province), with its name for a pointer's hover.
    Whole units are precise enough to click on and keep the layer small."""
    out = ['<g class="hits" fill="none" pointer-events="all">']
    for region in geometry.regions.values():
        if region.kind not in _PROVINCES:
            continue
        d = compact_path((geometry.ring_points(ring) for ring in region.rings), scale)
        out.append(f'<path data-province="{escape(region.id)}" d="{d}"><title>{escape(region.name)}</title></path>')
    out.append("</g>")
    return "".join(out)


def _fades() -> str:
    """A fading stroke per colour a power can have, leaving (``fo-``) and arriving (``fi-``):
    all of them, whatever the scene, so the definitions say nothing of it."""
    colours = sorted(
        {style.power_look(power, style.STANDARD_POWERS).fill for power in style.STANDARD_POWERS}
        | {fill for fill, _ink in style.MORE_COLOURS}
        | {style.UNKNOWN.fill}
    )
    out = []
    for colour in colours:
        key = colour.lstrip("#")
        out.append(
            f'<linearGradient id="fo-{key}" x1="0" y1="1" x2="1" y2="0">'
            f'<stop offset="0" stop-color="{colour}"/><stop offset="1" stop-color="{colour}" stop-opacity="0"/>'
            "</linearGradient>"
            f'<linearGradient id="fi-{key}" x1="0" y1="0" x2="1" y2="1">'
            f'<stop offset="0" stop-color="{colour}" stop-opacity="0"/><stop offset="1" stop-color="{colour}"/>'
            "</linearGradient>"
        )
    return "".join(out)


FOG_PATTERN = (
    '<pattern id="fog" width="10" height="10" patternUnits="userSpaceOnUse">'
    '<rect width="10" height="10" fill="#7E848A" fill-opacity="0.55"/>'
    '<path d="M-1 11L11 -1M-1 1L1 -1M9 11L11 9" stroke="#5F656B" stroke-opacity="0.5" stroke-width="2.2"/></pattern>'
)
IMPASSABLE_PATTERN = (
    '<pattern id="impassable" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)">'
    '<rect width="1.5" height="6" fill="#9C937E" fill-opacity="0.6"/></pattern>'
)
_DEFS = "<defs>" + FOG_PATTERN + IMPASSABLE_PATTERN + _fades() + "</defs>"


# -- what the scene adds --------------------------------------------------------------------


def _fog(paint: Painter, fog: frozenset[str], drawn: FogOutlines | None) -> str:
    """The fog over the provinces not seen, as one outline of them all."""
    path = paint.fog_path(fog, drawn)
    return f'<path d="{path}" fill="url(#fog)" fill-rule="evenodd"/>' if path else ""


def _centres(paint: Painter, scene: Scene) -> str:
    out = ['<g font-size="8" font-weight="bold" text-anchor="middle">']
    for centre, owner in scene.centres.items():
        point = paint.geometry.centres.get(centre)
        if point is None:
            continue
        x, y = point[0] * paint.scale, point[1] * paint.scale
        if owner is None:
            out.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="#ffffff" stroke="{style.OUTLINE}" stroke-width="1.3"/>'
            )
            continue
        look = style.power_look(owner, scene.powers)
        out.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6.5" fill="{look.fill}" stroke="{style.OUTLINE}" stroke-width="1.2"/>'
            f'<text x="{x:.1f}" y="{y + 3:.1f}" fill="{look.ink}">{escape(look.letter)}</text>'
        )
    out.append("</g>")
    return "".join(out)


def _units(paint: Painter, scene: Scene) -> str:
    out = ['<g text-anchor="middle" font-weight="bold">']
    # Ghosts first, so that a unit seen now is never under one.
    for unit in sorted(scene.units, key=lambda u: (u.last_seen is None, u.dislodged)):
        x, y = paint.point(unit.location)
        if unit.dislodged:
            x, y = x + _DISLODGED_OFFSET[0], y + _DISLODGED_OFFSET[1]
        out.append(f"<g {_unit_data(unit)}>{_unit_icon(unit, x, y, scene.powers)}</g>")
    out.append("</g>")
    return "".join(out)


# -- marks, title and legend ------------------------------------------------------------------


def _marks(paint: Painter, scene: Scene) -> str:
    out = ['<g font-size="11" font-weight="bold" text-anchor="middle">']
    placed: dict[str, int] = {}
    for mark in scene.marks:
        for province in mark.provinces:
            region = paint.geometry.regions.get(province)
            if region is None:
                continue
            count = placed.get(province, 0)
            placed[province] = count + 1
            x = region.label[0] * paint.scale - 16 - 19 * count
            y = region.label[1] * paint.scale - 16
            out.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="9" fill="#FFE98A" stroke="#6B5200" stroke-width="1.6"/>'
                f'<text x="{x:.1f}" y="{y + 4:.1f}" fill="#3A2C00">{mark.number}</text>'
            )
    out.append("</g>")
    return "".join(out)


def _heading(scene: Scene) -> str:
    who = scene.title if scene.viewer is not None else f"Game master: {scene.title}"
    return f"{who} — {scene.subtitle}" if scene.subtitle else who


def _title_row(scene: Scene, top: float) -> str:
    """The map's title and when it stands, over the legend: nothing is drawn over the board."""
    title = scene.title if scene.viewer is not None else f"Game master · {scene.title}"
    y = top + 24
    out = [f'<text x="14" y="{y:.1f}" font-size="18" font-weight="bold" fill="{style.OUTLINE}">{escape(title)}</text>']
    if scene.subtitle:
        x = 14 + 12.4 * len(title) + 18
        out.append(f'<text x="{x:.1f}" y="{y:.1f}" font-size="14" fill="#333333">{escape(scene.subtitle)}</text>')
    return "".join(out)


class _Legend:
    """The band under the map: the powers (with the centres the viewer knows each holds), the
    symbols, and the numbered notices."""

    TITLE = 32.0
    ROW = 30.0
    NOTE = 17.0

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        self.height = 12 + self.TITLE + 2 * self.ROW + self.NOTE * len(scene.marks) + (8 if scene.marks else 0)

    def draw(self, top: float) -> str:
        scene = self.scene
        out = [f'<g><rect x="0" y="{top:.1f}" width="{WIDTH:.0f}" height="{self.height:.1f}" fill="#F7F5EF"/>']
        out.append(
            f'<line x1="0" y1="{top:.1f}" x2="{WIDTH:.0f}" y2="{top:.1f}" stroke="{style.OUTLINE}" stroke-width="1"/>'
        )
        counts: dict[str | None, int] = {}
        for owner in scene.centres.values():
            counts[owner] = counts.get(owner, 0) + 1
        out.append(_title_row(scene, top))
        y = top + self.TITLE + 8 + self.ROW / 2
        x = 22.0
        for power in scene.powers:
            look = style.power_look(power, scene.powers)
            icon = DrawnUnit("", power, "A")
            out.append(_unit_icon(icon, x, y, scene.powers, title=False))
            label = f"{look.name} {counts.get(power, 0)}"
            if power == scene.viewer:
                label += " (you)"
            out.append(
                f'<text x="{x + 17:.1f}" y="{y + 5:.1f}" font-size="13" fill="{style.OUTLINE}">{escape(label)}</text>'
            )
            x += 30 + 8.2 * len(label)
        out.append(
            f'<text x="{WIDTH - 14:.0f}" y="{y + 5:.1f}" font-size="12" text-anchor="end" fill="#555555">'
            "numbers: supply centres as known</text>"
        )
        y += self.ROW
        out.append(self._symbols(y))
        y += self.ROW / 2 + 6
        for mark in scene.marks:
            y += self.NOTE
            out.append(
                f'<circle cx="22" cy="{y - 4:.1f}" r="7.5" fill="#FFE98A" stroke="#6B5200" stroke-width="1.4"/>'
                f'<text x="22" y="{y:.1f}" font-size="10" font-weight="bold" text-anchor="middle">{mark.number}</text>'
                f'<text x="36" y="{y:.1f}" font-size="12.5" fill="{style.OUTLINE}">{escape(mark.text)}</text>'
            )
        out.append("</g>")
        return "".join(out)

    def _symbols(self, y: float) -> str:
        powers = self.scene.powers
        out: list[str] = []
        x = 22.0

        def caption(text: str, at: float) -> float:
            out.append(
                f'<text x="{at:.1f}" y="{y + 5:.1f}" font-size="12.5" fill="{style.OUTLINE}">{escape(text)}</text>'
            )
            return at + 7.3 * len(text) + 26

        out.append(_unit_icon(DrawnUnit("", None, "A"), x, y, powers, title=False))
        x = caption("army", x + 17)
        out.append(_unit_icon(DrawnUnit("", None, "F"), x, y + 2, powers, title=False))
        x = caption("fleet", x + 20)
        out.append(f'<g opacity="0.5">{_unit_icon(DrawnUnit("", None, "A"), x, y, powers, title=False)}</g>')
        x = caption("last seen (ghost)", x + 17)
        out.append(
            f'<rect x="{x - 10:.1f}" y="{y - 9:.1f}" width="24" height="18" fill="{style.LAND}" stroke="{style.BORDER}"/>'
        )
        out.append(f'<rect x="{x - 10:.1f}" y="{y - 9:.1f}" width="24" height="18" fill="url(#fog)"/>')
        x = caption("fog: not seen", x + 20)
        for name, text in (("move", "move"), ("support", "support"), ("convoy", "convoy"), ("retreat", "retreat")):
            width, dash = _STROKES[name]
            dashing = f' stroke-dasharray="{dash}"' if dash else ""
            out.append(
                f'<path d="M{x - 10:.1f} {y:.1f}H{x + 22:.1f}" stroke="{style.OUTLINE}" stroke-width="{width + 2.2:.1f}"{dashing} stroke-linecap="round"/>'
                f'<path d="M{x - 10:.1f} {y:.1f}H{x + 22:.1f}" stroke="#888888" stroke-width="{width}"{dashing} stroke-linecap="round"/>'
            )
            x = caption(text, x + 30)
        out.append(_cross((x, y)))
        x = caption("failed", x + 12)
        out.append(_question((x, y - 1), "#888888"))
        x = caption("not known", x + 12)
        return "".join(out)
