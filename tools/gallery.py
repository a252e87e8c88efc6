"""Draw the maps shown in the README: for each preset, one power's fogged map after a few turns
of a seeded game played by the random bot.

    python tools/gallery.py [--out docs/maps] [--turns 5] [--seed 11]

Each preset's map is written as ``<preset>.png`` (and ``.svg``); the power drawn is the one whose
map after the last turn shows the most ghosts and learned orders, so the picture shows what a
fogged map is for.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from fogdip.bots.variant_bot import random_turn_orders
from fogdip.game import Game
from fogdip.maps.png import svg_to_png
from fogdip.maps.scene import Scene
from fogdip.maps.svg import render_svg
from fogdip.maps.views import master_scene_of, power_scene_of
from fogdip.variants import PRESETS


def played(preset: str, turns: int, seed: int) -> Game:
    """A game of ``preset`` after ``turns`` turns of random play."""
    game = Game.create(preset)
    rng = random.Random(seed)
    for _ in range(turns):
        if game.position.completed:
            break
        for power, lines in random_turn_orders(game.variant, game.position, rng).items():
            game.file(power, lines, partial=True)
        game.adjudicate()
    return game


def interest(scene: Scene) -> tuple[int, int]:
    """How much a map shows of what fog is about: ghosts, orders learned of other powers."""
    ghosts = sum(1 for unit in scene.units if unit.last_seen is not None)
    learned = sum(1 for order in scene.orders if order.power != scene.viewer)
    return (min(ghosts, 4) + min(learned, 6), ghosts + learned)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("docs/maps"))
    parser.add_argument("--turns", type=int, default=5)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for preset in sorted(PRESETS):
        game = played(preset, args.turns, args.seed)
        if preset == "standard":
            scene = master_scene_of(game)
        else:
            scene = max((power_scene_of(game, power) for power in game.powers), key=interest)
        svg = render_svg(scene)
        (args.out / f"{preset}.svg").write_text(svg, encoding="utf-8")
        (args.out / f"{preset}.png").write_bytes(svg_to_png(svg))
        print(f"{preset}: {scene.title}, {scene.subtitle} -> {args.out / preset}.png")


if __name__ == "__main__":
    main()
