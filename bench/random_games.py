"""Seeded random games, fogdip and MILA's ``diplomacy`` side by side in one run.

    pip install ".[bench]"
    python bench/random_games.py [--seed 1] [--games 20] [--max-phases 100]

Both engines play the same loop: for every power, one random legal order per orderable unit
(location), until the game ends or 100 phases have been processed. Phases per second include
generating the legal orders, choosing, and adjudicating. The last line is the ratio.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from fogdip.bots.random_bot import play_random_game
from fogdip.engine.rules import get_rules

sys.path.insert(0, str(Path(__file__).parent))
from mila_loop import run_mila


def run_fogdip(seed: int, games: int, max_phases: int = 100, edition: str = "2000") -> tuple[int, float]:
    """Play ``games`` random games with fogdip. Return (phases processed, seconds)."""
    rules = get_rules(edition)
    phases = 0
    start = time.perf_counter()
    for game in range(games):
        for _ in play_random_game(seed * 1000 + game, rules, max_phases=max_phases, explain=False):
            phases += 1
    return phases, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--max-phases", type=int, default=100)
    args = parser.parse_args()
    ours, our_seconds = run_fogdip(args.seed, args.games, args.max_phases)
    fogdip_rate = ours / our_seconds
    print(f"fogdip: {ours} phases in {our_seconds:.2f} s = {fogdip_rate:.1f} phases/s")
    theirs, their_seconds = run_mila(args.seed, args.games, args.max_phases)
    mila_rate = theirs / their_seconds
    print(f"mila:   {theirs} phases in {their_seconds:.2f} s = {mila_rate:.1f} phases/s")
    print(f"ratio fogdip/mila phases-per-second: {fogdip_rate / mila_rate:.1f}")


if __name__ == "__main__":
    main()
