"""Maps: each viewer's picture of the board, drawn from what it knows.

A map is made in two steps. A :class:`Scene` holds what one viewer may see, as values: built
from a power's observation and knowledge (:func:`power_scene`, :func:`power_scene_of`) or from
the whole position for the game master (:func:`master_scene`, :func:`master_scene_of`). The
renderer draws a scene, and only a scene, as SVG (:func:`render_svg`); :func:`svg_to_png`
makes a PNG of it. The board's geography is read from the committed geometry file
(:func:`load_geometry`).

>>> from fogdip.game import Game
>>> svg = render_svg(power_scene_of(Game.create("fog-of-war"), "FRANCE"))
>>> svg.startswith("<svg") and "A PAR (France)" in svg and "A MUN (Germany)" not in svg
True
"""

from fogdip.maps.geometry import GeometryError, MapGeometry, Region, load_geometry
from fogdip.maps.png import PngUnavailable, svg_to_png
from fogdip.maps.scene import DrawnOrder, DrawnUnit, Mark, Scene, master_scene, power_scene
from fogdip.maps.svg import render_svg
from fogdip.maps.views import master_scene_of, power_scene_of, power_scenes, scene_of_phase, scene_of_result

__all__ = [
    "DrawnOrder",
    "DrawnUnit",
    "GeometryError",
    "MapGeometry",
    "Mark",
    "PngUnavailable",
    "Region",
    "Scene",
    "load_geometry",
    "master_scene",
    "master_scene_of",
    "power_scene",
    "power_scene_of",
    "power_scenes",
    "render_svg",
    "scene_of_phase",
    "scene_of_result",
    "svg_to_png",
]
