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

import math
from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from html import escape
from types import MappingProxyType

from fogdip.engine.units import SEASON_NAMES, Phase
from fogdip.fog.masked import HIDDEN, Hidden, MaskedUnit, OrderKind, Place
from fogdip.maps import style
from fogdip.maps.geometry import MapGeometry, Point, load_geometry
from fogdip.maps.scene import DrawnOrder, DrawnUnit, Scene

#: The map's width in SVG units.
WIDTH = 1500.0
_FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
#: Hidden ends of arrows leave, and arrive, in one fixed direction: an arrow into the fog must
#: not point at the province it went to.
_OUT = (math.sqrt(0.5), -math.sqrt(0.5))
_IN = (math.sqrt(0.5), math.sqrt(0.5))
_STUB = 44.0
_UNIT_R = 12.0
_DISLODGED_OFFSET = (17.0, 13.0)


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
    """The part of the map the viewer knows: its provinces in sight, its ghosts and the places
    its orders name, with a margin; as ``x, y, width, height``."""
    geometry = paint.geometry
    points: list[Point] = []
    for code, region in geometry.regions.items():
        if region.kind in ("land", "sea") and code not in scene.fog:
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


def _haloed(at: str, look: str, fill: str, text: str, halo: str, width: float, title: str = "") -> str:
    """Text with a halo so it reads on any ground: drawn twice, the halo under the letters
    (``paint-order`` would do it in one, but not every renderer honours it)."""
    hint = f"<title>{escape(title)}</title>" if title else ""
    return (
        f'<text {at} {look} fill="none" stroke="{halo}" stroke-width="{width}" stroke-linejoin="round">{text}</text>'
        f'<text {at} {look} fill="{fill}">{hint}{text}</text>'
    )


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


def _unit_data(unit: DrawnUnit) -> str:
    """A drawn unit's attributes for a page's script: what the map draws of it, and no more
    (no power or type where the viewer does not know it).

    >>> _unit_data(DrawnUnit("STP/SC", "RUSSIA", "F"))
    'data-unit="STP/SC" data-power="RUSSIA" data-type="F"'
    >>> _unit_data(DrawnUnit("BUR", None, None, last_seen="S1902M"))
    'data-unit="BUR" data-ghost="S1902M"'
    """
    out = [f'data-unit="{escape(unit.location)}"']
    if unit.power is not None:
        out.append(f'data-power="{escape(unit.power)}"')
    if unit.kind is not None:
        out.append(f'data-type="{escape(unit.kind)}"')
    if unit.dislodged:
        out.append('data-dislodged="true"')
    if unit.last_seen is not None:
        out.append(f'data-ghost="{escape(unit.last_seen)}"')
    return " ".join(out)


def _unit_title(unit: DrawnUnit) -> str:
    owner = unit.power.title() if unit.power is not None else "owner unknown"
    what = f"{unit.kind or '?'} {unit.location} ({owner})"
    if unit.dislodged:
        what += ", dislodged"
    if unit.last_seen is not None:
        what += f", last seen here in {_season(unit.last_seen)}; it may have moved"
    return what


def _season(phase: str) -> str:
    """``S1902M`` as *Spring 1902*.

    >>> _season("F1901R"), _season("odd")
    ('Fall 1901', 'odd')
    """
    try:
        parsed = Phase.parse(phase)
    except ValueError:
        return phase
    return f"{SEASON_NAMES[parsed.season]} {parsed.year}"


def _unit_icon(unit: DrawnUnit, x: float, y: float, powers: tuple[str, ...], *, title: bool = True) -> str:
    look = style.power_look(unit.power, powers)
    ghost = unit.last_seen is not None
    dash = ' stroke-dasharray="3 2"' if ghost else ""
    stroke = f'stroke="{style.OUTLINE}" stroke-width="1.6"{dash}'
    parts = [f'<g transform="translate({x:.1f} {y:.1f})"' + (' opacity="0.5"' if ghost else "") + ">"]
    if title:
        parts.append(f"<title>{escape(_unit_title(unit))}</title>")
    if unit.dislodged:
        parts.append(f'<circle r="16" fill="none" stroke="{style.FAILED}" stroke-width="2.2" stroke-dasharray="4 2"/>')
    letter = escape(look.letter)
    if unit.kind == "A":
        parts.append(f'<circle r="{_UNIT_R:.0f}" fill="{look.fill}" {stroke}/>')
        parts.append(f'<text y="4.5" font-size="12" fill="{look.ink}">{letter}</text>')
    elif unit.kind == "F":
        parts.append(f'<path d="M-2 -17V-5M-0.5 -16L9 -6H-0.5Z" fill="{look.fill}" {stroke}/>')
        parts.append(f'<path d="M-16 -4H16L10 9H-10Z" fill="{look.fill}" {stroke} stroke-linejoin="round"/>')
        parts.append(f'<text y="6.5" font-size="11" fill="{look.ink}">{letter}</text>')
    else:
        parts.append(f'<path d="M0 -13L13 0L0 13L-13 0Z" fill="{look.fill}" {stroke}/>')
        parts.append(f'<text y="4.5" font-size="12" fill="{look.ink}">{letter}</text>')
    parts.append("</g>")
    if ghost and unit.last_seen is not None:
        # The caption is not faded: it is what says the icon is a memory.
        caption = f"last seen {escape(_short_phase(unit.last_seen))}"
        parts.append(
            _haloed(
                f'x="{x:.1f}" y="{y + 25:.1f}"',
                'font-size="10" font-style="italic"',
                "#111111",
                caption,
                "#FFFFFF",
                3,
            )
        )
    return "".join(parts)


def _short_phase(phase: str) -> str:
    """``F1902M`` as ``F1902``, ``W1902A`` as ``W1902``: the season's main phase goes without
    saying (a retreat phase keeps its ``R``)."""
    return phase[:-1] if len(phase) == 6 and phase.endswith(("M", "A")) else phase


# -- orders -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Curve:
    """A gently bent path between two anchors: start, control point, end."""

    start: Point
    control: Point
    end: Point

    @classmethod
    def between(cls, start: Point, end: Point) -> _Curve:
        dx, dy = end[0] - start[0], end[1] - start[1]
        bend = 0.12
        control = ((start[0] + end[0]) / 2 - dy * bend, (start[1] + end[1]) / 2 + dx * bend)
        return cls(start, control, end)

    def middle(self) -> Point:
        (x0, y0), (x1, y1), (x2, y2) = self.start, self.control, self.end
        return (0.25 * x0 + 0.5 * x1 + 0.25 * x2, 0.25 * y0 + 0.5 * y1 + 0.25 * y2)

    def trimmed(self, at_start: float, at_end: float) -> _Curve:
        return _Curve(
            _towards(self.start, self.control, at_start), self.control, _towards(self.end, self.control, at_end)
        )

    def path(self) -> str:
        (x0, y0), (x1, y1), (x2, y2) = self.start, self.control, self.end
        return f"M{x0:.1f} {y0:.1f}Q{x1:.1f} {y1:.1f} {x2:.1f} {y2:.1f}"


def _towards(point: Point, other: Point, distance: float) -> Point:
    dx, dy = other[0] - point[0], other[1] - point[1]
    length = math.hypot(dx, dy) or 1.0
    step = min(distance, length * 0.45)
    return (point[0] + dx / length * step, point[1] + dy / length * step)


def _head(tip: Point, before: Point, colour: str) -> str:
    """An arrowhead at ``tip``, pointing away from ``before``."""
    dx, dy = tip[0] - before[0], tip[1] - before[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    back = (tip[0] - ux * 12, tip[1] - uy * 12)
    left = (back[0] - uy * 6.5, back[1] + ux * 6.5)
    right = (back[0] + uy * 6.5, back[1] - ux * 6.5)
    return (
        f'<path d="M{tip[0]:.1f} {tip[1]:.1f}L{left[0]:.1f} {left[1]:.1f}L{right[0]:.1f} {right[1]:.1f}Z" '
        f'fill="{colour}" stroke="{style.OUTLINE}" stroke-width="1.2" stroke-linejoin="round"/>'
    )


def _cross(point: Point, size: float = 6.0) -> str:
    """The mark of an order that failed."""
    x, y = point
    d = f"M{x - size:.1f} {y - size:.1f}L{x + size:.1f} {y + size:.1f}M{x - size:.1f} {y + size:.1f}L{x + size:.1f} {y - size:.1f}"
    return (
        f'<path d="{d}" stroke="#ffffff" stroke-width="6" stroke-linecap="round"/>'
        f'<path d="{d}" stroke="{style.FAILED}" stroke-width="3.4" stroke-linecap="round"/>'
    )


def _question(point: Point, colour: str) -> str:
    x, y = point
    return _haloed(
        f'x="{x:.1f}" y="{y + 6:.1f}"',
        'font-size="17" font-weight="bold" text-anchor="middle"',
        colour,
        "?",
        style.OUTLINE,
        3.5,
    )


#: How each kind of arrow is stroked: width, dash pattern.
_STROKES: Mapping[str, tuple[float, str]] = MappingProxyType(
    {
        "move": (3.2, ""),
        "support": (2.6, "8 4"),
        "convoy": (3.4, "0.5 6"),
        "retreat": (3.0, "11 3 3 3"),
    }
)


class _Arrows:
    """Draws each order of a scene: arrows under the units, marks over them."""

    def __init__(self, paint: Painter, scene: Scene) -> None:
        self.paint = paint
        self.scene = scene
        self.under: list[str] = []
        self.over: list[str] = []
        self.drawn_units = {(unit.location, unit.dislodged) for unit in scene.units if unit.last_seen is None}

    def draw(self, drawn: DrawnOrder) -> None:
        order, look = drawn.order, style.power_look(drawn.power, self.scene.powers)
        failed = drawn.result is not None and not drawn.result.succeeded
        kind = order.kind
        unit = order.unit
        start = self._at(unit.location) if unit is not None else None
        if kind is OrderKind.HOLD and start is not None:
            self._ring(start, look.fill, failed)
        elif kind in (OrderKind.MOVE, OrderKind.RETREAT) and unit is not None:
            self._line(
                "move" if kind is OrderKind.MOVE else "retreat", start, self._at(order.target), look.fill, failed
            )
        elif kind in (OrderKind.SUPPORT, OrderKind.CONVOY):
            self._assist(drawn, start, look.fill, failed)
        elif kind in (OrderKind.BUILD, OrderKind.PLACE) and start is not None and unit is not None:
            self._badge(start, "+", look, failed)
        elif kind in (OrderKind.DISBAND, OrderKind.DISBAND_NOW) and start is not None and unit is not None:
            self._removed(drawn, start, failed)
        elif kind is OrderKind.ESPIONAGE and start is not None:
            self._badge(start, "E", look, failed)
        elif kind is OrderKind.PEEK and isinstance(order.target, str):
            self._badge(self._at(order.target) or (0.0, 0.0), "P", look, failed)

    def _at(self, place: Place | None) -> Point | None:
        """Where a place is drawn; ``None`` for a hidden one (or none)."""
        if place is None or isinstance(place, Hidden):
            return None
        anchors = self.paint.geometry.anchors
        location = place if place in anchors else place.partition("/")[0]
        if location not in anchors:
            return None
        x, y = self.paint.point(location)
        if (location, True) in self.drawn_units and (location, False) not in self.drawn_units:
            return (x + _DISLODGED_OFFSET[0], y + _DISLODGED_OFFSET[1])
        return (x, y)

    def _ring(self, at: Point, colour: str, failed: bool) -> None:
        x, y = at
        self.under.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="17" fill="none" stroke="{style.OUTLINE}" stroke-width="5.5"/>'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="17" fill="none" stroke="{colour}" stroke-width="3"/>'
        )
        if failed:
            self.over.append(_cross((x + 14, y - 14)))

    def _line(self, style_name: str, start: Point | None, end: Point | None, colour: str, failed: bool) -> None:
        width, dash = _STROKES[style_name]
        dashing = f' stroke-dasharray="{dash}"' if dash else ""
        fade = ' opacity="0.7"' if failed else ""
        if start is not None and end is not None:
            curve = _Curve.between(start, end).trimmed(_UNIT_R + 3, _UNIT_R + 6)
            tip_base = curve.end
            self.under.append(
                f'<g fill="none"{fade}><path d="{curve.path()}" stroke="{style.OUTLINE}" stroke-width="{width + 2.4:.1f}"'
                f'{dashing} stroke-linecap="round"/><path d="{curve.path()}" stroke="{colour}" stroke-width="{width}"'
                f'{dashing} stroke-linecap="round"/></g>'
            )
            self.under.append(_head(_towards(tip_base, curve.control, -4), curve.control, colour))
            if failed:
                self.over.append(_cross(curve.middle()))
        elif start is not None:
            self._stub_out(start, colour, width, dashing, failed)
        elif end is not None:
            self._stub_in(end, colour, width, dashing, failed, head=True)

    def _stub_out(self, start: Point, colour: str, width: float, dashing: str, failed: bool) -> Point:
        """A line into the fog: it leaves in the one fixed direction, fades, and ends in ``?``."""
        x0, y0 = start[0] + _OUT[0] * (_UNIT_R + 3), start[1] + _OUT[1] * (_UNIT_R + 3)
        x1, y1 = x0 + _OUT[0] * _STUB, y0 + _OUT[1] * _STUB
        key = colour.lstrip("#")
        self.under.append(
            f'<path d="M{x0:.1f} {y0:.1f}L{x1:.1f} {y1:.1f}" fill="none" stroke="url(#fo-{key})" '
            f'stroke-width="{width + 1:.1f}"{dashing} stroke-linecap="round"/>'
        )
        end = (x1 + _OUT[0] * 8, y1 + _OUT[1] * 8)
        self.over.append(_question(end, colour))
        if failed:
            self.over.append(_cross(((x0 + x1) / 2, (y0 + y1) / 2), 5))
        return end

    def _stub_in(self, end: Point, colour: str, width: float, dashing: str, failed: bool, *, head: bool) -> None:
        """A line out of the fog: it arrives from the one fixed direction, from a ``?``."""
        x1, y1 = end[0] - _IN[0] * (_UNIT_R + 5), end[1] - _IN[1] * (_UNIT_R + 5)
        x0, y0 = x1 - _IN[0] * _STUB, y1 - _IN[1] * _STUB
        key = colour.lstrip("#")
        self.under.append(
            f'<path d="M{x0:.1f} {y0:.1f}L{x1:.1f} {y1:.1f}" fill="none" stroke="url(#fi-{key})" '
            f'stroke-width="{width + 1:.1f}"{dashing} stroke-linecap="round"/>'
        )
        if head:
            self.under.append(_head((x1 + _IN[0] * 3, y1 + _IN[1] * 3), (x0, y0), colour))
        self.over.append(_question((x0 - _IN[0] * 8, y0 - _IN[1] * 8), colour))
        if failed:
            self.over.append(_cross(((x0 + x1) / 2, (y0 + y1) / 2), 5))

    def _assist(self, drawn: DrawnOrder, start: Point | None, colour: str, failed: bool) -> None:
        """A support or convoy: a line from the unit to the unit it helps, or to the middle of
        that unit's path."""
        order = drawn.order
        style_name = "support" if order.kind is OrderKind.SUPPORT else "convoy"
        width, dash = _STROKES[style_name]
        dashing = f' stroke-dasharray="{dash}"'
        other = order.other
        if other is None or other is HIDDEN or not isinstance(other, MaskedUnit):
            if start is not None:
                self._stub_out(start, colour, width, dashing, failed)
            return
        helped = self._at(other.location)
        target = self._at(order.target)
        if helped is not None and order.target is None:
            aim: Point | None = helped  # a supported hold: the line ends at the unit, in a ring
            ring = True
        elif helped is not None and target is not None:
            aim = _Curve.between(helped, target).middle()
            ring = False
        else:
            aim, ring = helped or target, False
        if start is None:
            if aim is not None:
                self._stub_in(aim, colour, width, dashing, failed, head=False)
            return
        if aim is None:
            self._stub_out(start, colour, width, dashing, failed)
            return
        curve = _Curve.between(start, aim).trimmed(_UNIT_R + 3, (_UNIT_R + 5) if ring else 3)
        fade = ' opacity="0.7"' if failed else ""
        self.under.append(
            f'<g fill="none"{fade}><path d="{curve.path()}" stroke="{style.OUTLINE}" stroke-width="{width + 2.2:.1f}"'
            f'{dashing} stroke-linecap="round"/><path d="{curve.path()}" stroke="{colour}" stroke-width="{width}"'
            f'{dashing} stroke-linecap="round"/></g>'
        )
        x, y = aim
        if ring:
            self.under.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="16" fill="none" stroke="{colour}" stroke-width="2.2" stroke-dasharray="4 3"/>'
            )
        else:
            self.under.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{colour}" stroke="{style.OUTLINE}" stroke-width="1.2"/>'
            )
        if (helped is None or (order.target is not None and target is None)) and order.target is not None:
            # The helped unit or its goal is in the fog: the line ends in what is known, marked.
            self.over.append(_question((x + 12, y - 10), colour))
        if failed:
            self.over.append(_cross(curve.middle()))

    def _badge(self, at: Point, sign: str, look: style.PowerLook, failed: bool) -> None:
        x, y = at[0] + 13, at[1] - 13
        self.over.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="7.5" fill="#ffffff" stroke="{look.fill}" stroke-width="2.5"/>'
            f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="11" font-weight="bold" text-anchor="middle" '
            f'fill="{style.OUTLINE}">{escape(sign)}</text>'
        )
        if failed:
            self.over.append(_cross((x, y), 5))

    def _removed(self, drawn: DrawnOrder, at: Point, failed: bool) -> None:
        """A disband or removal: the unit faded and struck through (or, where it failed and the
        unit is still drawn, a cross beside it)."""
        unit = drawn.order.unit
        assert unit is not None
        location = unit.location
        if failed or not isinstance(location, str):
            self._badge(at, "×", style.power_look(drawn.power, self.scene.powers), failed)
            return
        gone = DrawnUnit(location, drawn.power, unit.kind)
        self.under.append(f'<g opacity="0.35">{_unit_icon(gone, at[0], at[1], self.scene.powers, title=False)}</g>')
        self.over.append(_cross(at, 9))


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
