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
from fogdip.engine.legal import ConvoyCache, MovementOptions, VouchedOrders, all_legal_orders
from fogdip.engine.orders import Order
from fogdip.engine.outcomes import Resolution
from fogdip.engine.rules import Rules
from fogdip.engine.state import GameState


def random_orders(
    state: GameState, rules: Rules, rng: random.Random, cache: ConvoyCache | None = None
) -> VouchedOrders:
    """Random legal orders for every power, in a fixed order so a seed replays exactly, with
    the token that lets adjudication trust them (``vouched``). ``cache``: the caller's
    :class:`~fogdip.engine.legal.ConvoyCache`, kept from one position to the next."""
    if state.phase.kind == "M":
        options = MovementOptions(state, rules, cache)
        by_power: dict[str, list[Order]] = {power: [] for power in state.powers}
        for province in sorted(state.units):
            unit = state.units[province]
            by_power[unit.power].append(options.sample(unit, rng))
        return VouchedOrders(by_power, options.vouched())
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
    return VouchedOrders(orders, all_options.vouched)


def play_random_game(
    seed: int,
    rules: Rules,
    max_phases: int = 100,
    start: GameState | None = None,
    explain: bool = True,
    cache: ConvoyCache | None = None,
) -> Iterator[Resolution]:
    """Play a seeded random game, yielding each phase's resolution until the game ends or
    ``max_phases`` phases have been played. Convoy routes are kept from one phase to the next
    in ``cache`` (:class:`~fogdip.engine.legal.ConvoyCache`): one of the game's own unless the
    caller, playing many games on one thread, passes its own to all of them."""
    rng = random.Random(seed)
    state = start or GameState.initial()
    if cache is None:
        cache = ConvoyCache(state.board)
    for _ in range(max_phases):
        if state.completed:
            return
        orders = random_orders(state, rules, rng, cache)
        record = adjudicate(state, orders, rules, explain=explain, vouched=orders.vouched)
        yield record
        state = record.after
