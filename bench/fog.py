"""Median microseconds to compute the observations of all seven powers, for every fog rule set,
on a mid-game position (the record of one movement phase of the 34-unit position, every unit
with a seeded random legal order).

    python bench/fog.py [--repeat 1000]

The target is at most 1000 microseconds (1 ms) per rule set for all seven powers, report
objects included (``--json`` adds rendering every report to JSON and text).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))

from fogdip.bots.random_bot import random_orders
from fogdip.engine.judge import adjudicate
from fogdip.engine.outcomes import Resolution
from fogdip.engine.rules import get_rules
from fogdip.fog import FOG_RULES, FogRules, get_fog_rules

from micro import thirty_four_units


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=1000)
    parser.add_argument("--json", action="store_true", help="also render every report as JSON and text")
    args = parser.parse_args()
    # Every fog game judges orders by the map alone; fog rule sets observe only such records.
    rules = get_rules().with_options(legality="map")
    state = thirty_four_units()
    orders = random_orders(state, rules, random.Random(7))
    record = adjudicate(state, orders, rules)
    powers = state.powers
    print(
        f"position: {len(state.units)} units, {sum(1 for r in record.orders if r.outcome != 'moved')} orders not moving, "
        f"{len(record.dislodged)} dislodged; {args.repeat} repeats"
    )
    for name in sorted(FOG_RULES):
        fog = get_fog_rules(name)

        def observe_all(fresh: Resolution, fog: FogRules = fog) -> None:
            for power in powers:
                seen = fog.observe(fresh, power)
                if args.json:
                    seen.as_json()

        samples = []
        for _ in range(args.repeat):
            # A new record object each time: what is shared between powers is worked out again,
            # as it would be for a new phase; nothing carries over from the last repeat.
            fresh = dataclasses.replace(record, orders=tuple(record.orders))
            begin = time.perf_counter_ns()
            observe_all(fresh)
            samples.append((time.perf_counter_ns() - begin) / 1000)
        print(f"{name:12s} all 7 powers: median {statistics.median(samples):7.1f} us")


if __name__ == "__main__":
    main()
