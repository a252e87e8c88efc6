"""Orders drawn on a map: arrows for moves, supports, convoys and retreats, rings for holds,
badges for builds and the variants' orders, a fading stub where an end is in the fog.

Hidden ends of arrows leave, and arrive, in one fixed direction: an arrow into the fog must not
point at the province it went to.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from types import MappingProxyType
from typing import TYPE_CHECKING

from fogdip.fog.masked import HIDDEN, Hidden, MaskedUnit, OrderKind, Place
from fogdip.maps import style
from fogdip.maps.geometry import Point
from fogdip.maps.icons import _DISLODGED_OFFSET, _UNIT_R, _haloed, _unit_icon
from fogdip.maps.scene import DrawnOrder, DrawnUnit, Scene

if TYPE_CHECKING:
    from fogdip.maps.svg import Painter

_OUT = (math.sqrt(0.5), -math.sqrt(0.5))
_IN = (math.sqrt(0.5), math.sqrt(0.5))
_STUB = 44.0


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
