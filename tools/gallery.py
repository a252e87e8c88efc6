"""Draw the maps shown in the README: for each preset, one power's fogged map after a few turns
of a seeded game played by the random bot.

    python tools/gallery.py [--out docs/maps] [--turns 5] [--seed 11]

Each preset's map is written as ``<preset>.png``: the map, after a movement turn,
of the power that has both ghosts and learned orders to show, so the picture shows what a
fogged map is for (:func:`showcase`).
"""

from __future__ import annotations

import argparse
import io
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
    """A game of ``preset`` after ``turns`` turns of random play, and on to the end of the
    next movement turn (whose map has the most orders to show)."""
    game = Game.create(preset)
    rng = random.Random(seed)
    for count in range(turns + 4):
        if game.position.completed or (count >= turns and game.record.history[-1].turn.endswith("M")):
            break
        play_one(game, rng)
    return game


def play_one(game: Game, rng: random.Random) -> None:
    for power, lines in random_turn_orders(game.variant, game.position, rng).items():
        game.file(power, lines, partial=True)
    game.adjudicate()


def ghosts_and_learned(scene: Scene) -> tuple[int, int]:
    """The ghosts a map shows, and what it shows learned of other powers: their orders, and
    the notices that name a province."""
    ghosts = sum(1 for unit in scene.units if unit.last_seen is not None)
    learned = sum(1 for order in scene.orders if order.power != scene.viewer) + len(scene.marks)
    return ghosts, learned


def interest(scene: Scene) -> tuple[int, int, int]:
    """How much a map shows of what fog is about: ghosts and things learned, both wanted; then
    the orders it draws at all."""
    ghosts, learned = ghosts_and_learned(scene)
    return (min(ghosts, 3) + min(learned, 3), min(ghosts, 6) + min(learned, 10), len(scene.orders))


def showcase(preset: str, turns: int, seed: int) -> Scene:
    """The map to show for ``preset``: the first map, after at least ``turns`` turns and after
    a movement turn, of a power with ghosts and at least two things learned of others (or the
    best seen in 30 turns more); the game master's map for the standard game, which has no fog."""
    game = played(preset, turns, seed)
    if preset == "standard":
        return master_scene_of(game)
    rng = random.Random(seed + 1)
    best: Scene | None = None
    for _ in range(30):
        if game.record.history[-1].turn.endswith("M"):
            here = max((power_scene_of(game, power) for power in game.powers), key=interest)
            best = here if best is None or interest(here) > interest(best) else best
            ghosts, learned = ghosts_and_learned(here)
            if ghosts >= 1 and learned >= 2:
                return here
        if game.position.completed:
            break
        play_one(game, rng)
    assert best is not None
    return best


def compact(png: bytes) -> bytes:
    """The PNG in 256 colours, a fifth of the size for the repository (with Pillow, where it is
    installed; as drawn otherwise)."""
    try:
        from PIL import Image
    except ImportError:
        return png
    out = io.BytesIO()
    Image.open(io.BytesIO(png)).convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(
        out, "PNG", optimize=True
    )
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("docs/maps"))
    parser.add_argument("--turns", type=int, default=5)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for preset in sorted(PRESETS):
        scene = showcase(preset, args.turns, args.seed)
        (args.out / f"{preset}.png").write_bytes(compact(svg_to_png(render_svg(scene))))
        print(f"{preset}: {scene.title}, {scene.subtitle} -> {args.out / preset}.png")


if __name__ == "__main__":
    main()
