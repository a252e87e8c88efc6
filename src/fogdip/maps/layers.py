"""A map in two layers, for a page: the **board** (land, sea, borders, names and a clickable
target per province), the same for every viewer of a map and so served once and kept, and the
**overlay** of one scene (its fog, centres, orders, units and marks, and the legend under the
map), which is all a new phase changes.

The board is a document of its own, named by its content's hash (:attr:`Board.key`); the
overlay is drawn in the same coordinates (the map is :data:`~fogdip.maps.svg.WIDTH` units wide),
so a page stacks the two. Everything in the overlay comes from the scene, as in
:func:`~fogdip.maps.svg.render_svg`, which draws the same things in one document.

>>> from fogdip.game import Game
>>> from fogdip.maps.views import power_scene_of
>>> board = board_of("standard")
>>> board.url == f"/maps/standard.{board.key}.svg" and 'data-province="PAR"' in board.document
True
>>> layers = layers_of(power_scene_of(Game.create("fog-of-war"), "FRANCE"), framed=True)
>>> 'data-unit="PAR"' in layers.overlay and 'data-unit="MUN"' not in layers.overlay
True
>>> layers.frame[2] < board.width  # framed on what France knows
True
"""

from __future__ import annotations

import gzip
import hashlib
from dataclasses import dataclass, field
from functools import cache

from fogdip.maps.arrows import _Arrows
from fogdip.maps.legend import Legend, legend_of
from fogdip.maps.scene import Scene
from fogdip.maps.svg import (
    _FONT,
    FOG_PATTERN,
    IMPASSABLE_PATTERN,
    WIDTH,
    Painter,
    _centres,
    _fades,
    _heading,
    _known_box,
    _marks,
    _units,
    compact_path,
    painter,
)

#: A view of the map: ``x, y, width, height`` in map units.
Box = tuple[float, float, float, float]


@dataclass(frozen=True, eq=False)
class Board:
    """A map's static geography as one SVG document, with its hash and its gzipped bytes."""

    map: str
    document: str = field(repr=False)
    key: str
    width: float
    height: float
    gzipped: bytes = field(repr=False)

    @property
    def url(self) -> str:
        """Where the board is served: the URL changes when the board does, so it is kept for good."""
        return f"/maps/{self.map}.{self.key}.svg"


@cache
def board_of(map_name: str) -> Board:
    """The board of ``map_name``, drawn once per process (immutable).

    Its layers, bottom up: the ground (``g.ground``: sea, land, borders), the names
    (``g.names``), and the targets (``g.hits``: one transparent ``data-province`` path per
    province). A page that draws it inline puts the fog between the ground and the names."""
    paint = painter(map_name)
    document = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH:.0f} {paint.height:.1f}" '
        f'width="{WIDTH:.0f}" height="{paint.height:.1f}" font-family="{_FONT}">'
        f"<defs>{IMPASSABLE_PATTERN}</defs>"
        f'<g class="ground">{paint.board}</g>'
        f'<g class="names" pointer-events="none">{paint.names}</g>'
        f"{paint.hits}</svg>\n"
    )
    data = document.encode()
    return Board(
        map_name,
        document,
        hashlib.sha256(data).hexdigest()[:12],
        WIDTH,
        paint.height,
        gzip.compress(data, compresslevel=9, mtime=0),
    )


@dataclass(frozen=True)
class Layers:
    """One scene's layers over its board: ``frame`` is the view a page opens on; ``defs``,
    ``fog`` and ``overlay`` are SVG fragments in the board's coordinates; ``legend`` is what the
    band under the map says (a page lays it out in its own flow: it does not pan or zoom)."""

    board: Board
    frame: Box
    heading: str
    defs: str
    fog: str
    overlay: str
    legend: Legend


def layers_of(scene: Scene, *, framed: bool = False) -> Layers:
    """The layers of ``scene``. With ``framed``, the view opens on the part of the board the
    viewer knows (as :func:`~fogdip.maps.svg.render_svg`'s ``crop``), else on the whole board."""
    paint = painter(scene.map)
    board = board_of(scene.map)
    frame = _known_box(paint, scene) if framed else (0.0, 0.0, WIDTH, paint.height)
    arrows = _Arrows(paint, scene)
    for order in scene.orders:
        arrows.draw(order)
    # Only the units take the pointer: a click anywhere else falls through to the province.
    overlay = (
        f'<g pointer-events="none">{_centres(paint, scene)}{"".join(arrows.under)}</g>'
        f"{_units(paint, scene)}"
        f'<g pointer-events="none">{"".join(arrows.over)}{_marks(paint, scene)}</g>'
    )
    return Layers(
        board=board,
        frame=frame,
        heading=_heading(scene),
        defs=f"<defs>{FOG_PATTERN}{_fades()}</defs>",
        fog=_fog_layer(paint, scene),
        overlay=overlay,
        legend=legend_of(scene),
    )


def _fog_layer(paint: Painter, scene: Scene) -> str:
    """The fog as one outline of the provinces not seen, in whole units and relative steps:
    it is most of what a new phase sends, and a unit is a pixel at the map's full width."""
    fogged = [province for province in scene.fog if province in paint.geometry.regions]
    if not fogged:
        return ""
    d = compact_path(paint.geometry.outline(fogged), paint.scale)
    return f'<path d="{d}" fill="url(#fog)" fill-rule="evenodd" pointer-events="none"/>'


__all__ = ["Board", "Box", "Layers", "board_of", "layers_of"]
