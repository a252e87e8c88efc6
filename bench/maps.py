"""Milliseconds to draw one power's map: the scene, the SVG, and the PNG, on a fog-of-war game
after five turns of seeded random play; and, side by side with MILA's own SVG renderer,
the whole standard board at the start with the same seeded random orders.

    python bench/maps.py [--repeat 50]

The targets: one power's SVG in at most 20 ms, its PNG in at most 300 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tools"))

from fogdip.bots.random_bot import random_orders
from fogdip.codec.gamefiles import game_from_json, game_to_json
from fogdip.codec.positions import document_from_state
from fogdip.engine import GameState, get_rules
from fogdip.game import Game
from fogdip.maps.png import svg_to_png
from fogdip.maps.svg import painter, render_svg
from fogdip.maps.views import master_scene_of, power_scene_of, scene_of_phase

from gallery import played


def median_ms(action: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def start_with_orders() -> tuple[dict[str, list[str]], Callable[[], object]]:
    """Seeded random orders for the standard start, and fogdip drawing that board with them."""
    rng = random.Random(11)
    state = GameState.initial()
    orders = {
        power: [str(order) for order in chosen] for power, chosen in random_orders(state, get_rules(), rng).items()
    }
    doc = {**document_from_state(state), "orders": orders}
    return orders, lambda: render_svg(scene_of_phase(doc))


def mila_ms(orders: dict[str, list[str]], repeat: int) -> float | None:
    """MILA's renderer drawing the standard start with ``orders``, or ``None`` if MILA is not
    installed (``pip install .[bench]``)."""
    try:
        from diplomacy import Game as MilaGame
        from diplomacy.engine.renderer import Renderer
    except ImportError:
        return None
    mila = MilaGame()
    for power, lines in orders.items():
        mila.set_orders(power, lines)
    renderer = Renderer(mila)
    return median_ms(lambda: renderer.render(incl_orders=True, incl_abbrev=True), repeat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    start = time.perf_counter()
    painter("standard")
    print(
        f"first use: geometry read and board drawn in {(time.perf_counter() - start) * 1000:.1f} ms (once per process)"
    )
    game = played("fog-of-war", 5, 11)
    power = "FRANCE"
    scene = power_scene_of(game, power)
    svg = render_svg(scene)
    print(
        f"fog-of-war after {len(game.record.history)} turns, {power}'s map: {len(scene.units)} units, "
        f"{len(scene.orders)} orders, {len(scene.fog)} provinces in fog; SVG {len(svg) / 1024:.0f} KiB"
    )
    saved = json.dumps(game_to_json(game.record))

    def from_file() -> str:
        """What drawing a map from a stored game costs: the game read afresh, then drawn."""
        return render_svg(power_scene_of(Game(game_from_json(json.loads(saved))), power))

    figures = {
        "game read from its JSON, scene and SVG": median_ms(from_file, args.repeat),
        "scene from the game (view, knowledge)": median_ms(lambda: power_scene_of(game, power), args.repeat),
        "SVG of the scene": median_ms(lambda: render_svg(scene), args.repeat),
        "PNG of the SVG (cairosvg, 1500 px)": median_ms(lambda: svg_to_png(svg), max(5, args.repeat // 5)),
        "game master's SVG, scene included": median_ms(lambda: render_svg(master_scene_of(game)), args.repeat),
    }
    for name, ms in figures.items():
        print(f"  {name:<40} {ms:8.2f} ms")
    total = figures["game read from its JSON, scene and SVG"]
    png = total + figures["PNG of the SVG (cairosvg, 1500 px)"]
    print(f"  {'one power SVG, game read afresh':<40} {total:8.2f} ms (target 20)")
    print(f"  {'one power PNG, game read afresh':<40} {png:8.2f} ms (target 300)")
    orders, ours = start_with_orders()
    print(f"side by side: the standard start with {sum(map(len, orders.values()))} seeded random orders, whole board")
    print(f"  {'fogdip: scene and SVG':<40} {median_ms(ours, args.repeat):8.2f} ms")
    mila = mila_ms(orders, args.repeat)
    if mila is not None:
        print(f"  {'MILA diplomacy 1.1.2: Renderer.render':<40} {mila:8.2f} ms (SVG only; it has no PNG)")


if __name__ == "__main__":
    main()
