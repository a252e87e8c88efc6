"""The random bot: one uniformly chosen legal order per orderable unit.

In adjustment phases it builds (or removes) as many units as it must, at random sites, never
two builds in one province. Seeded, it always plays the same game.

>>> from fogdip.engine.rules import get_rules
>>> record = next(play_random_game(seed=1, rules=get_rules()))
>>> str(record.before.phase), str(record.after.phase)
('S1901M', 'F1901M')
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from fogdip.engine.judge import adjudicate
from fogdip.engine.legal import MovementOptions, all_legal_orders
from fogdip.engine.orders import Order
from fogdip.engine.outcomes import Resolution
from fogdip.engine.rules import Rules
from fogdip.engine.state import GameState


def random_orders(state: GameState, rules: Rules, rng: random.Random) -> dict[str, list[Order]]:
    """Random legal orders for every power, in a fixed order so a seed replays exactly."""
    if state.phase.kind == "M":
        options = MovementOptions(state, rules)
        by_power: dict[str, list[Order]] = {power: [] for power in state.powers}
        for province in sorted(state.units):
            unit = state.units[province]
            by_power[unit.power].append(options.sample(unit, rng))
        return by_power
    all_options = all_legal_orders(state, rules)
    orders: dict[str, list[Order]] = {}
    for power in sorted(all_options):
        choices = all_options[power]
        if state.phase.kind != "A":
            orders[power] = [rng.choice(choices[key]) for key in sorted(choices)]
            continue
        due = state.adjustment(power)
        if due < 0:
            orders[power] = rng.sample(choices["DISBAND"], -due)
            continue
        builds = list(choices.get("BUILD", []))
        rng.shuffle(builds)
        chosen: list[Order] = []
        used: set[str] = set()
        for build in builds:
            province = build.unit.province  # type: ignore[union-attr]
            if len(chosen) < due and province not in used:
                used.add(province)
                chosen.append(build)
        orders[power] = chosen
    return orders


def play_random_game(
    seed: int, rules: Rules, max_phases: int = 100, start: GameState | None = None, explain: bool = True
) -> Iterator[Resolution]:
    """Play a seeded random game, yielding each phase's resolution until the game ends or
    ``max_phases`` phases have been played."""
    rng = random.Random(seed)
    state = start or GameState.initial()
    for _ in range(max_phases):
        if state.completed:
            return
        record = adjudicate(state, random_orders(state, rules, rng), rules, explain=explain, assume_legal=True)
        yield record
        state = record.after
