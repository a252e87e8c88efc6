"""Seeded random games, fogdip and MILA's ``diplomacy`` side by side in one run.

    pip install ".[bench]"
    python bench/random_games.py [--seed 1] [--games 20] [--max-phases 100]

Both engines play the same loop: for every power, one random legal order per orderable unit
(location), until the game ends or 100 phases have been processed. Phases per second include
generating the legal orders, choosing, and adjudicating. The last line is the ratio, by the
clock and by each engine's CPU time: on a machine other work shares, a burst of it slows
fogdip's short run more than MILA's long one, and only the clock counts it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from fogdip.bots.random_bot import play_random_game
from fogdip.engine.legal import ConvoyCache
from fogdip.engine.map import standard_map
from fogdip.engine.rules import get_rules

sys.path.insert(0, str(Path(__file__).parent))
from mila_loop import Timed, run_mila


def run_fogdip(seed: int, games: int, max_phases: int = 100, edition: str = "2000") -> Timed:
    """Play ``games`` random games with fogdip. Return the phases processed and the seconds
    they took (:class:`mila_loop.Timed`)."""
    rules = get_rules(edition)
    phases = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    # The games are played one after another on this thread: they share one store of convoy
    # routes, as a bot runner playing many games on a thread would.
    cache = ConvoyCache(standard_map())
    for game in range(games):
        for _ in play_random_game(seed * 1000 + game, rules, max_phases=max_phases, explain=False, cache=cache):
            phases += 1
    return Timed(phases, time.perf_counter() - start, time.process_time() - start_cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--max-phases", type=int, default=100)
    args = parser.parse_args()
    ours = run_fogdip(args.seed, args.games, args.max_phases)
    theirs = run_mila(args.seed, args.games, args.max_phases)
    for name, run in (("fogdip", ours), ("mila", theirs)):
        print(
            f"{name + ':':7s} {run.phases} phases in {run.seconds:.2f} s = {run.phases / run.seconds:.1f} phases/s"
            f" (CPU time {run.cpu_seconds:.2f} s = {run.phases / run.cpu_seconds:.1f} phases/s)"
        )
    ratio = (ours.phases / ours.seconds) / (theirs.phases / theirs.seconds)
    cpu_ratio = (ours.phases / ours.cpu_seconds) / (theirs.phases / theirs.cpu_seconds)
    print(f"ratio fogdip/mila phases-per-second: {ratio:.1f} (CPU time: {cpu_ratio:.1f})")


if __name__ == "__main__":
    main()
