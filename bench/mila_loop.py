"""MILA's half of the side-by-side benchmark: a seeded loop of random games.

Needs MILA's ``diplomacy`` package (``pip install diplomacy==1.1.2``, the ``bench`` extra).
It is imported only when :func:`run_mila` is called, so importing this module does not need it.

    python bench/mila_loop.py [--seed N] [--games N] [--max-phases N]
"""

from __future__ import annotations

import random
import time
from typing import NamedTuple


class Timed(NamedTuple):
    """Phases processed, and the seconds they took: by the clock, and of the process's CPU
    time (which other processes loading the machine do not add to)."""

    phases: int
    seconds: float
    cpu_seconds: float


def run_mila(seed: int, games: int, max_phases: int = 100) -> Timed:
    """Play ``games`` random games with MILA's engine. Return the phases processed and the
    seconds they took (:class:`Timed`).

    Each game runs until it is done or ``max_phases`` phases have been processed. In each
    phase, every power orders every orderable location with one order picked at random
    from MILA's possible orders for that location. All games share one
    ``random.Random(seed)``.

    MILA returns its possible orders and orderable locations in set-iteration order, which
    changes from one process to the next (string hash randomisation). They are sorted here,
    so that a seed always gives the same games.
    """
    from diplomacy import Game  # lazy: MILA is a bench-only dependency

    rng = random.Random(seed)
    phases = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    for _ in range(games):
        game = Game()
        played = 0
        while not game.is_game_done and played < max_phases:
            possible = game.get_all_possible_orders()
            for power in sorted(game.powers):
                orders = []
                for loc in sorted(game.get_orderable_locations(power)):
                    choices = possible.get(loc)
                    if choices:
                        orders.append(rng.choice(sorted(choices)))
                game.set_orders(power, orders)
            game.process()
            played += 1
        phases += played
    return Timed(phases, time.perf_counter() - start, time.process_time() - start_cpu)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--max-phases", type=int, default=100)
    args = parser.parse_args(argv)
    phases, seconds, cpu = run_mila(args.seed, args.games, args.max_phases)
    print(f"MILA: {phases} phases in {seconds:.2f} s = {phases / seconds:.1f} phases/s (CPU time {cpu:.2f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
