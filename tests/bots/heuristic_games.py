"""A plain-turn game loop for the heuristic's tests and measurements (until the turn planner
``fogdip.bots.turns`` is merged): in the plain presets each turn is one phase.

Run as a script to measure strength: preset, last year, games, and the seats (``1v6``: one
heuristic against six random players, the default; ``6v1``: six against one random;
``blind``: one against six of its fog-ignorant twins), the candidate rotated through the
powers, seeded by the game's number; it prints each game and the candidate's solos, mean
sum-of-squares score and the heuristic's mean time per power's orders::

    PYTHONPATH=src:tests/bots nice -n 10 python -m heuristic_games standard 1920 21
    PYTHONPATH=src:tests/bots nice -n 10 python -m heuristic_games fog-of-war 1920 21 blind
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from fogdip.bots.base import BotInput, bot_named
from fogdip.bots.belief import believe
from fogdip.bots.heuristic import Heuristic
from fogdip.engine.orders import Order
from fogdip.game import Game

#: A seat: the power's input and a generator give the lines it files.
Seat = Callable[[BotInput, random.Random], list[str]]


def heuristic_orders(
    given: BotInput, rng: random.Random, *, blind: bool = False, tactics: Heuristic | None = None
) -> list[Order]:
    """The heuristic's orders for a plain turn (one phase: movement, retreats or adjustments)."""
    kinds = given.kinds
    if not kinds:
        return []
    picture = believe(given, blind=blind)
    tactics = tactics or Heuristic()
    if kinds[0] == "M":
        return tactics.movement(picture, rng)
    if kinds[0] == "R":
        return tactics.retreats(picture, rng)
    for notice in given.seen.notices_of("adjustments"):
        due, sites = notice.get("due"), notice.get("sites")
        if isinstance(due, int) and isinstance(sites, tuple):
            return tactics.adjustments(picture, due, [str(site) for site in sites], rng)
    return []


def heuristic_seat(given: BotInput, rng: random.Random) -> list[str]:
    return [str(order) for order in heuristic_orders(given, rng)]


def blind_seat(given: BotInput, rng: random.Random) -> list[str]:
    return [str(order) for order in heuristic_orders(given, rng, blind=True)]


def random_seat(given: BotInput, rng: random.Random) -> list[str]:
    return bot_named("random").orders(given, rng)


@dataclass
class Played:
    """How a game ended: each power's centres, the winner if any, and the time seats took."""

    centers: dict[str, int]
    winner: str | None
    seconds: dict[str, float]
    calls: dict[str, int]


def play(preset: str, seats: Mapping[str, Seat], seed: int, end_year: int) -> Played:
    """Play ``preset`` to the end of ``end_year`` (or a solo), each power by its seat."""
    game = Game.create(preset)
    rng = random.Random(seed)
    seconds = dict.fromkeys(game.powers, 0.0)
    calls = dict.fromkeys(game.powers, 0)
    winner = None
    while not game.position.completed:
        state = game.position.state
        if state.phase.year > end_year:
            break
        for power in game.still_in():
            given = BotInput.of(game, power)
            started = time.perf_counter()
            lines = seats[power](given, rng)
            seconds[power] += time.perf_counter() - started
            calls[power] += 1
            game.file(power, lines, partial=True)
        game.adjudicate()
        state = game.position.state
        winner = next((p for p in state.powers if state.center_count(p) >= 18), None)
        if winner is not None:
            break
    state = game.position.state
    return Played({p: state.center_count(p) for p in state.powers}, winner, seconds, calls)


def main(argv: list[str]) -> None:
    preset, end_year, games = argv[0], int(argv[1]), int(argv[2])
    mode = argv[3] if len(argv) > 3 else "1v6"
    powers = Game.create(preset).powers
    solos, hero_share, ms = 0, 0.0, []
    for number in range(games):
        hero = powers[number % len(powers)]
        if mode == "1v6":
            seats = {p: heuristic_seat if p == hero else random_seat for p in powers}
        elif mode == "6v1":
            seats = {p: random_seat if p == hero else heuristic_seat for p in powers}
        else:  # 1 heuristic vs 6 blind twins
            seats = {p: heuristic_seat if p == hero else blind_seat for p in powers}
        played = play(preset, seats, seed=number, end_year=end_year)
        solos += played.winner == hero
        # Sum-of-squares scoring: a solo takes all, else each power's centres squared, shared.
        squares = sum(count * count for count in played.centers.values()) or 1
        share = 1.0 if played.winner == hero else (0.0 if played.winner else played.centers[hero] ** 2 / squares)
        hero_share += share
        own = [p for p in powers if seats[p] is heuristic_seat]
        ms.append(1000 * sum(played.seconds[p] for p in own) / max(1, sum(played.calls[p] for p in own)))
        print(f"game {number} {hero}: {played.centers} winner={played.winner} ({ms[-1]:.1f} ms/orders)", flush=True)
    print(
        f"{mode} {preset} to {end_year}: hero solo {solos}/{games}, mean sum-of-squares score {hero_share / games:.2f}, "
        f"heuristic {sum(ms) / len(ms):.1f} ms per power's orders"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
