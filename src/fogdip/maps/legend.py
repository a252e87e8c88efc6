"""A map's legend as values, for a page to lay out in its own flow (it wraps on a phone, and
its words stay the page's size whatever the map's zoom): the title, each power with the centres
the viewer knows it holds, the symbols, and the numbered notices. Each icon is a small SVG
fragment drawn as on the map.

>>> from fogdip.game import Game
>>> from fogdip.maps.views import power_scene_of
>>> legend = legend_of(power_scene_of(Game.create("fog-of-war"), "FRANCE"))
>>> [(p.name, p.centres, p.you) for p in legend.powers][2]
('France', 3, True)
>>> [symbol.caption for symbol in legend.symbols][:3]
['army', 'fleet', 'last seen (ghost)']
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from fogdip.maps import style
from fogdip.maps.arrows import _STROKES, _cross, _question
from fogdip.maps.icons import _unit_icon
from fogdip.maps.scene import DrawnUnit, Mark, Scene


@dataclass(frozen=True, slots=True)
class Icon:
    """A symbol of the map: its drawing (an SVG fragment in ``box``, a ``viewBox``) and words."""

    box: str
    drawing: str
    caption: str


@dataclass(frozen=True, slots=True)
class PowerKey:
    """A power as the legend lists it: its icon, its name, the centres known to be its."""

    icon: Icon
    name: str
    centres: int
    you: bool


@dataclass(frozen=True)
class Legend:
    """What the band under a map says."""

    title: str
    subtitle: str
    powers: tuple[PowerKey, ...]
    symbols: tuple[Icon, ...]
    marks: tuple[Mark, ...]


_UNIT_BOX = "-18 -19 36 36"


def legend_of(scene: Scene) -> Legend:
    """The legend of ``scene``: nothing in it but what the scene holds (the centre counts are
    of the centres the viewer knows)."""
    counts: dict[str | None, int] = {}
    for owner in scene.centres.values():
        counts[owner] = counts.get(owner, 0) + 1
    powers = tuple(
        PowerKey(
            Icon(_UNIT_BOX, _unit_icon(DrawnUnit("", power, "A"), 0, 0, scene.powers, title=False), power.title()),
            style.power_look(power, scene.powers).name,
            counts.get(power, 0),
            power == scene.viewer,
        )
        for power in scene.powers
    )
    title = scene.title if scene.viewer is not None else f"Game master · {scene.title}"
    return Legend(title, scene.subtitle, powers, symbols(), scene.marks)


@cache
def symbols() -> tuple[Icon, ...]:
    """The map's symbols, the same on every map."""
    unknown: tuple[str, ...] = ()
    out = [
        Icon(_UNIT_BOX, _unit_icon(DrawnUnit("", None, "A"), 0, 0, unknown, title=False), "army"),
        Icon(_UNIT_BOX, _unit_icon(DrawnUnit("", None, "F"), 0, 2, unknown, title=False), "fleet"),
        Icon(
            _UNIT_BOX,
            f'<g opacity="0.5">{_unit_icon(DrawnUnit("", None, "A"), 0, 0, unknown, title=False)}</g>',
            "last seen (ghost)",
        ),
        Icon(
            "-14 -11 28 22",
            f'<rect x="-12" y="-9" width="24" height="18" fill="{style.LAND}" stroke="{style.BORDER}"/>'
            '<rect x="-12" y="-9" width="24" height="18" fill="url(#fog)"/>',
            "fog: not seen",
        ),
    ]
    for name in ("move", "support", "convoy", "retreat"):
        width, dash = _STROKES[name]
        dashing = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            Icon(
                "-14 -10 40 20",
                f'<path d="M-10 0H22" stroke="{style.OUTLINE}" stroke-width="{width + 2.2:.1f}"{dashing} '
                'stroke-linecap="round"/>'
                f'<path d="M-10 0H22" stroke="#888888" stroke-width="{width}"{dashing} stroke-linecap="round"/>',
                name,
            )
        )
    out.append(Icon("-10 -10 20 20", _cross((0.0, 0.0)), "failed"))
    out.append(Icon("-10 -12 20 20", _question((0.0, -1.0), "#888888"), "not known"))
    return tuple(out)


__all__ = ["Icon", "Legend", "PowerKey", "legend_of", "symbols"]
