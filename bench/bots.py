"""How long each bot takes to choose one power's orders, over positions from played games.

    python bench/bots.py [--quick] [--games N] [--seed N] [--bots random,search] [--presets standard,deadman]
    python bench/bots.py --versus 14 [--preset fog-of-war] [--until 1910] [--samples K] [--candidates M]

The positions are every movement turn of a few seeded games of ``standard``, ``fog-of-war``
and ``deadman`` played by ``heuristic`` in every seat, each as every power still in sees it
(its :class:`~fogdip.bots.base.BotInput`). Each bot is timed on each of them: from the input
to the order lines, the picture built from the reports included. ``search`` plays with the
settings the bot plays each preset with (:func:`~fogdip.bots.search.search_for`: twice the
boards in deadman, a blind game), unless ``--samples`` or ``--candidates`` change them. A table
per preset gives the median, 95th percentile and maximum in milliseconds, and orders (lines) a
second. MILA's ``diplomacy``
random player is timed beside them, on positions of its own seeded random games: each power
asks for its possible orders and picks one per orderable location, as its random player does.

``--versus N`` measures strength instead, until ``fogdip tournament`` does it in full: N games
of one ``search`` seat against six ``heuristic`` ones (the search's seat going round the seven
powers), to the end of ``--until`` or a solo, and prints the search seat's mean
sum-of-squares score (a solo scores 1, a loss to another's solo 0; else its centres squared
over the sum of every power's squares) with a 95% interval, and its time per call. It plays
the plain presets only (one phase a turn: ``standard``, ``fog-of-war``, ``diplomyopia``).

Targets (issue 22): ``heuristic`` at most 10 ms, ``search`` at most 1 s with its defaults, on
a 2-core machine.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from fogdip.bots.base import THINKING_SECONDS, BotInput, bot_named
from fogdip.bots.belief import believe
from fogdip.bots.heuristic import Heuristic
from fogdip.bots.search import Search, search_for
from fogdip.bots.tactics import Tactics
from fogdip.game import Game
from fogdip.variants import Variant

#: A bot as timed here: an input and a generator to order lines.
Chooser = Callable[[BotInput, random.Random], list[str]]


@dataclass(frozen=True)
class Timing:
    """One bot's calls: the seconds each took, and the lines it gave in all."""

    name: str
    seconds: tuple[float, ...]
    lines: int

    def milliseconds(self) -> tuple[float, float, float]:
        """Median, 95th percentile and maximum of the calls, in milliseconds."""
        ms = sorted(1000 * s for s in self.seconds)
        return statistics.median(ms), ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))], ms[-1]

    def row(self) -> str:
        median, p95, top = self.milliseconds()
        rate = self.lines / sum(self.seconds) if sum(self.seconds) else float("inf")
        # The server files a bot's orders this long after a turn begins (fogdip.server.bot_seats).
        bound = THINKING_SECONDS.get(self.name)
        allowed = f"{1000 * bound:10.0f}" if bound is not None else f"{'-':>10s}"
        return f"{self.name:12s} {len(self.seconds):6d} {median:10.2f} {p95:10.2f} {top:10.2f} {rate:12.0f} {allowed}"


def positions(preset: str, games: int, seed: int, max_turns: int) -> list[BotInput]:
    """Each power's input at every movement turn of ``games`` seeded games of ``preset``,
    played by the heuristic bot in every seat (so that powers grow, shrink and meet as in a
    real game)."""
    out: list[BotInput] = []
    rng = random.Random(seed)
    seat = bot_named("heuristic").orders
    for _ in range(games):
        game = Game.create(preset)
        for _turn in range(max_turns):
            if game.position.completed:
                break
            for power in game.still_in():
                given = BotInput.of(game, power)
                if given.kinds == ("M",) and given.own_units:
                    out.append(given)
                game.file(power, seat(given, rng), partial=True)
            game.adjudicate()
    return out


def search_settings(variant: Variant, samples: int | None, candidates: int | None) -> Search:
    """The search as the bot plays ``variant``, with ``samples`` and ``candidates`` where
    given."""
    settings = search_for(variant)
    if samples is not None:
        settings = dataclasses.replace(settings, samples=samples)
    if candidates is not None:
        settings = dataclasses.replace(settings, candidates=candidates)
    return settings


def tactics_chooser(tactics: Tactics) -> Chooser:
    """The movement orders of ``tactics`` as lines, from the input's picture."""

    def choose(given: BotInput, rng: random.Random) -> list[str]:
        return [str(order) for order in tactics.movement(believe(given), rng)]

    return choose


def choosers(names: list[str], samples: int | None, candidates: int | None) -> dict[str, Chooser]:
    """The bots named: ``heuristic`` and ``search`` by their tactics' movement (from the
    belief's picture, as their bots play it), any other from the registry."""
    out: dict[str, Chooser] = {}
    for name in names:
        if name == "search":
            out[name] = lambda given, rng: [
                str(order)
                for order in search_settings(given.variant, samples, candidates).movement(believe(given), rng)
            ]
            continue
        if name == "heuristic":
            out[name] = tactics_chooser(Heuristic())
            continue
        out[name] = bot_named(name).orders
    return out


def time_bot(name: str, choose: Chooser, inputs: list[BotInput], seed: int) -> Timing:
    rng = random.Random(seed)
    seconds: list[float] = []
    lines = 0
    for given in inputs:
        start = time.perf_counter()
        chosen = choose(given, rng)
        seconds.append(time.perf_counter() - start)
        lines += len(chosen)
    return Timing(name, tuple(seconds), lines)


def time_mila(games: int, seed: int, max_phases: int) -> Timing | None:
    """MILA's random player: per movement phase and power, its possible orders and a choice."""
    try:
        from diplomacy import Game as MilaGame
    except ImportError:
        return None
    rng = random.Random(seed)
    seconds: list[float] = []
    lines = 0
    for _ in range(games):
        game = MilaGame()
        for _phase in range(max_phases):
            if game.is_game_done:
                break
            movement = game.get_current_phase().endswith("M")
            for power in sorted(game.powers):
                start = time.perf_counter()
                possible = game.get_all_possible_orders()
                orders = [
                    rng.choice(sorted(possible[loc]))
                    for loc in sorted(game.get_orderable_locations(power))
                    if possible.get(loc)
                ]
                if movement and orders:
                    seconds.append(time.perf_counter() - start)
                    lines += len(orders)
                game.set_orders(power, orders)
            game.process()
    return Timing("mila-random", tuple(seconds), lines) if seconds else None


def tactics_seat(tactics: Tactics) -> Chooser:
    """A plain-turn seat playing ``tactics`` in every phase, from the belief's picture."""

    def choose(given: BotInput, rng: random.Random) -> list[str]:
        kinds, picture = given.kinds, believe(given)
        if kinds == ("M",):
            return [str(order) for order in tactics.movement(picture, rng)]
        if kinds == ("R",):
            return [str(order) for order in tactics.retreats(picture, rng)]
        for notice in given.seen.notices_of("adjustments"):
            due, sites = notice.get("due"), notice.get("sites")
            if isinstance(due, int) and isinstance(sites, tuple):
                return [str(order) for order in tactics.adjustments(picture, due, [str(s) for s in sites], rng)]
        return []

    return choose


def sum_of_squares(centers: dict[str, int], power: str) -> float:
    """``power``'s sum-of-squares score: 1 for its solo, 0 for another's, else its share of
    the squares."""
    leader = max(centers, key=lambda p: centers[p])
    if centers[leader] >= 18:
        return 1.0 if leader == power else 0.0
    squares = sum(count * count for count in centers.values())
    return centers[power] ** 2 / squares if squares else 0.0


def versus(preset: str, games: int, until: int, seed: int, samples: int | None, candidates: int | None) -> None:
    """``games`` games of one search seat (as the bot plays ``preset``, with ``samples`` and
    ``candidates`` where given) against six heuristic ones; the search's score."""
    search = tactics_seat(search_settings(Game.create(preset).variant, samples, candidates))
    heuristic = tactics_seat(Heuristic())
    scores: list[float] = []
    seconds: list[float] = []
    for number in range(games):
        game = Game.create(preset)
        hero = game.powers[number % len(game.powers)]
        rng = random.Random(seed * 1000 + number)
        while not game.position.completed and game.position.state.phase.year <= until:
            for power in game.still_in():
                given = BotInput.of(game, power)
                start = time.perf_counter()
                lines = (search if power == hero else heuristic)(given, rng)
                if power == hero and given.kinds == ("M",):
                    seconds.append(time.perf_counter() - start)
                game.file(power, lines, partial=True)
            game.adjudicate()
            state = game.position.state
            if any(state.center_count(p) >= 18 for p in state.powers):
                break
        state = game.position.state
        centers = {p: state.center_count(p) for p in state.powers}
        scores.append(sum_of_squares(centers, hero))
        print(f"game {number}: search as {hero}: {centers[hero]} centres, score {scores[-1]:.3f}", flush=True)
    mean = statistics.mean(scores)
    half = 1.96 * statistics.stdev(scores) / len(scores) ** 0.5 if len(scores) > 1 else float("nan")
    median, p95, top = Timing("search", tuple(seconds), 0).milliseconds()
    print(
        f"1 search vs 6 heuristic, {preset} to {until}, {games} games: score {mean:.3f} "
        f"[{mean - half:.3f}, {mean + half:.3f}] (1/7 = {1 / 7:.3f}); search's movement orders "
        f"median {median:.0f} ms, p95 {p95:.0f} ms, max {top:.0f} ms over {len(seconds)} calls"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="one short game per preset")
    parser.add_argument("--games", type=int, default=2, help="games per preset")
    parser.add_argument("--turns", type=int, default=30, help="turns per game (three a year)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="random,heuristic,search")
    parser.add_argument("--versus", type=int, default=0, metavar="N", help="N games of 1 search vs 6 heuristic")
    parser.add_argument("--preset", default="standard", help="the preset --versus plays")
    parser.add_argument("--until", type=int, default=1910, help="the last year --versus plays")
    parser.add_argument(
        "--presets", default="standard,fog-of-war,deadman", help="the presets whose positions are timed"
    )
    parser.add_argument("--samples", type=int, default=None, help="the search's boards (K; default: as the bot plays)")
    parser.add_argument(
        "--candidates", type=int, default=None, help="the search's order sets (M; default: as the bot plays)"
    )
    args = parser.parse_args(argv)
    if args.versus:
        versus(args.preset, args.versus, args.until, args.seed, args.samples, args.candidates)
        return 0
    games, turns = (1, 8) if args.quick else (args.games, args.turns)
    bots = choosers(args.bots.split(","), args.samples, args.candidates)
    for preset in args.presets.split(","):
        inputs = positions(preset, games, args.seed, turns)
        print(f"{preset}: {len(inputs)} positions (one power's movement turn each) from {games} game(s)")
        print(
            f"{'bot':12s} {'calls':>6s} {'median ms':>10s} {'p95 ms':>10s} {'max ms':>10s} {'orders/s':>12s} {'bound ms':>10s}"
        )
        for name, choose in bots.items():
            print(time_bot(name, choose, inputs, args.seed).row(), flush=True)
    mila = time_mila(games, args.seed, 2 * turns)
    if mila is not None:
        print(f"standard, MILA's diplomacy: positions of {games} random game(s) of its own")
        print(mila.row())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
