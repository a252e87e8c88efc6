"""The engine shares nothing it writes between threads: a server adjudicates many games at once
on worker threads, all on one map per name (``get_map``), often on the same positions (a game
read once is shared by every request that reads it). Whatever runs at once, every result is
the one the same work gives done alone, one piece after another.

Python switches threads every few milliseconds; these tests switch them as often as it can,
so that any state two threads write is written by both in the middle of each other's work.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TypeVar

import pytest

from fogdip.bots.random_bot import play_random_game
from fogdip.engine.judge import adjudicate
from fogdip.engine.legal import legal_orders
from fogdip.engine.orders import Order
from fogdip.engine.outcomes import Resolution
from fogdip.engine.rules import Rules, get_rules
from fogdip.engine.state import GameState
from fogdip.engine.vouched import Vouched

THREADS = 8
RULES = get_rules("2000")

_T = TypeVar("_T")


@contextmanager
def switching_often() -> Iterator[None]:
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def on_threads(work: Callable[[int], _T], count: int) -> list[_T]:
    """``work(i)`` for each ``i`` below ``count``, spread over :data:`THREADS` threads."""
    with switching_often(), ThreadPoolExecutor(THREADS) as pool:
        return list(pool.map(work, range(count)))


def game(seed: int) -> list[Resolution]:
    return list(play_random_game(seed, RULES, max_phases=60, explain=seed % 2 == 0))


@pytest.mark.slow
def test_random_games_played_on_eight_threads_at_once_are_the_games_played_one_by_one() -> None:
    seeds = 24
    assert on_threads(game, seeds) == [game(seed) for seed in range(seeds)]


def positions() -> list[GameState]:
    """Movement positions of a few random games: fleets at sea, convoys, crowded boards."""
    return [
        record.before
        for seed in range(100, 104)
        for record in play_random_game(seed, RULES, max_phases=50, explain=False)
        if record.before.phase.kind == "M"
    ]


def chosen(state: GameState, rules: Rules, seed: int) -> tuple[dict[str, list[Order]], Vouched]:
    """One seeded legal order per unit of every power, listed afresh, with the token of the
    listing: the same orders (by value) for the same seed, whichever thread lists them."""
    rng = random.Random(seed)
    orders: dict[str, list[Order]] = {}
    token: Vouched | None = None
    for power in state.powers:
        listed = legal_orders(state, power, rules)
        orders[power] = [rng.choice(listed[province]) for province in sorted(listed)]
        token = listed.vouched if token is None else token | listed.vouched
    assert token is not None
    return orders, token


@pytest.mark.slow
def test_the_same_positions_adjudicated_by_eight_threads_at_once_give_the_results_of_one() -> None:
    """Every thread lists the legal orders of the same position objects, and adjudicates them
    trusting its own token: what one thread lists or trusts never reaches another's results."""
    states = positions()
    assert len(states) > 100

    def every_position(states: list[GameState]) -> list[Resolution]:
        out = []
        for i, state in enumerate(states):
            orders, token = chosen(state, RULES, i)
            out.append(adjudicate(state, orders, RULES, explain=False, vouched=token))
        return out

    # The threads first, on positions no thread has met yet; then the same positions, made
    # again, alone.
    at_once = on_threads(lambda _: every_position(states), THREADS)
    alone = every_position(positions())
    for results in at_once:
        assert results == alone
