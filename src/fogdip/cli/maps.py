"""``fogdip map``: draw a map as SVG or PNG, of a phase or result document, or of a game file's
turn as one power or the game master sees it.

fogdip map position.json -o board.svg
fogdip map game.json --as FRANCE -o france.png
fogdip map game.json --gm --phase F1901M -o master.svg
fogdip map game.json --as ITALY --crop -o italy.png
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from fogdip.cli.common import die, errors, read_input
from fogdip.codec.gamefiles import FORMAT as GAME_FORMAT
from fogdip.codec.gamefiles import game_from_json
from fogdip.game import Game
from fogdip.maps.png import svg_to_png
from fogdip.maps.scene import Scene
from fogdip.maps.svg import render_svg
from fogdip.maps.views import master_scene_of, power_scene_of, scene_of_phase, scene_of_result

SUFFIXES = (".svg", ".png")


def write_map(scene: Scene, path: Path, *, crop: bool = False) -> Path:
    """Draw ``scene`` into ``path``, as PNG if it ends in ``.png`` and SVG otherwise."""
    svg = render_svg(scene, crop=crop)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix.lower() == ".png":
        path.write_bytes(svg_to_png(svg))
    else:
        path.write_text(svg, encoding="utf-8")
    return path


def map_command(
    source: Annotated[str, typer.Argument(help="A phase document, a result document, or a game file ('-': stdin).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Where to draw it: a .svg or .png file.")],
    as_power: Annotated[
        str | None, typer.Option("--as", help="With a game file: draw the map this power sees.")
    ] = None,
    master: Annotated[bool, typer.Option("--gm", help="With a game file: draw the game master's map.")] = False,
    phase: Annotated[
        str | None,
        typer.Option(
            "--phase",
            help="With a game file: the turn to draw, as after it (default: the latest; 'start': the opening).",
        ),
    ] = None,
    crop: Annotated[
        bool,
        typer.Option("--crop", help="Show only the part of the board the viewer knows, enlarged (for small screens)."),
    ] = False,
) -> None:
    """Draw a map. A game file is drawn as one power sees it (--as) or whole (--gm); a phase
    document shows its position and any orders it holds; a result document (what 'fogdip
    adjudicate' prints) the position reached, with every order and whether it succeeded."""
    if output.suffix.lower() not in SUFFIXES:
        die(f"the output must end in .svg or .png, not {output.name!r}")
    with errors():
        doc: Any = json.loads(read_input(source))
        scene = _scene(doc, source, as_power, master, phase)
        write_map(scene, output, crop=crop)
    Console(highlight=False).print(f"Drew {scene.title} into {output}.")


def _scene(doc: Any, source: str, as_power: str | None, master: bool, phase: str | None) -> Scene:
    if isinstance(doc, dict) and doc.get("format") == GAME_FORMAT:
        if (as_power is None) == (not master):
            die("a game file is drawn --as POWER or --gm: say which")
        game = Game(game_from_json(doc, source), source)
        if as_power is not None:
            return power_scene_of(game, as_power, phase)
        return master_scene_of(game, phase)
    if as_power is not None or master or phase is not None:
        die("--as, --gm and --phase choose what to draw of a game file; this is a single document")
    if isinstance(doc, dict) and "results" in doc and "state" in doc:
        return scene_of_result(doc)
    return scene_of_phase(doc)
