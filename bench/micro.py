"""Median microseconds for the engine's two hot paths, on a 34-unit position.

    python bench/micro.py [--repeat 2000]

1. Adjudicating one movement phase: every unit has a seeded random legal order (fast path:
   trusted by the token that came with them, no reason texts; every order checked; and the
   explained path that the fog layer reads).
2. Generating every legal order of every unit of every power.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from fogdip.engine.judge import adjudicate
from fogdip.engine.legal import all_legal_orders
from fogdip.engine.rules import get_rules
from fogdip.engine.state import GameState
from fogdip.engine.units import Phase, Unit


def thirty_four_units() -> GameState:
    """Every supply centre occupied: armies on land centres, fleets on coastal ones where the
    owner is a naval power, owners by home country and neutral centres shared round-robin."""
    start = GameState.initial()
    board = start.board
    powers = list(board.powers)
    units: dict[str, Unit] = {}
    neutral = 0
    for center in board.supply_centers:
        province = board.provinces[center]
        owner = province.home
        if owner is None:
            owner = powers[neutral % len(powers)]
            neutral += 1
        if province.terrain == "coast" and owner in ("ENGLAND", "TURKEY", "ITALY") and not province.coasts:
            units[center] = Unit(owner, "F", center)
        else:
            units[center] = Unit(owner, "A", center)
    centers = {u.province: u.power for u in units.values()}
    return start.with_changes(phase=Phase("F", 1905, "M"), units=units, centers=centers)


def median_us(action: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        begin = time.perf_counter_ns()
        action()
        samples.append(time.perf_counter_ns() - begin)
    return statistics.median(samples) / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rules = get_rules()
    state = thirty_four_units()
    options = all_legal_orders(state, rules)
    rng = random.Random(args.seed)
    orders = {power: [rng.choice(choices) for choices in units.values()] for power, units in options.items()}
    count = sum(len(choices) for units in options.values() for choices in units.values())
    print(f"position: {len(state.units)} units, {count} legal orders")
    vouched = options.vouched
    trusted = median_us(lambda: adjudicate(state, orders, rules, explain=False, vouched=vouched), args.repeat)
    checked = median_us(lambda: adjudicate(state, orders, rules, explain=False), args.repeat)
    explained = median_us(lambda: adjudicate(state, orders, rules, explain=True), args.repeat)
    legal = median_us(lambda: all_legal_orders(state, rules), args.repeat)
    print(f"movement adjudication, 34 units, legal orders from legal_orders (bot path): {trusted:.1f} us median")
    print(f"movement adjudication, 34 units, every order checked: {checked:.1f} us median")
    print(f"movement adjudication, 34 units, checked and explained (reasons): {explained:.1f} us median")
    print(f"all legal orders of every unit, 34 units: {legal:.1f} us median")


if __name__ == "__main__":
    main()
