"""Tournaments: many games of one preset between bots, the candidate rotated through the
powers, and the figures that tell how well each bot played (:mod:`fogdip.bots.tournament_stats`).

Game ``i`` seats the candidate (the first entry of the seats) on the ``i mod 7``-th power, the
other bots on the other powers in a shuffle seeded by the game; each power still in the game
is played by its bot from its own :class:`~fogdip.bots.base.BotInput` with a generator drawn
from the run's seed, the game's index and the power. A game ends at a solo or after the last
phase of the year set, and is scored as it stands. The same settings give the same games and
the same figures whether the games are played in one process, in several or on a Ray cluster.

>>> settings = TournamentSettings(seats=parse_seats("random:1,random:6"), games=2, to_year=1901, jobs=1)
>>> result = run_tournament(settings)
>>> [game.candidate_power for game in result.games]
['AUSTRIA', 'ENGLAND']
>>> result.standings.bots["random"].seats
14
"""

from __future__ import annotations

import hashlib
import importlib
import multiprocessing
import os
import random
import traceback
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fogdip.bots.base import Bot, BotInput, bot_named
from fogdip.bots.tournament_stats import GameResult, Standings, standings
from fogdip.engine.errors import FogdipError
from fogdip.game import Game

#: How ``--seats`` is written, for error messages.
SEATS_EXAMPLE = "heuristic:1,random:6"

#: The Ray extra's install command, for the error when Ray is missing.
RAY_INSTALL = "pip install 'fogdip[ray]'"


class SeatsError(FogdipError):
    """A ``--seats`` specification that cannot be played."""


class RayUnavailable(FogdipError):
    """``--ray`` was given but Ray is not installed."""


class BotFailed(RuntimeError):
    """A bot raised while choosing its orders: a bug in the bot. The message names the game's
    index and seed, the power and the turn, to replay it (:func:`replay_game`); ``trace`` is
    the bot's traceback, as text, since it crosses processes."""

    def __init__(self, message: str, trace: str = "") -> None:
        super().__init__(message, trace)
        self.message = message
        self.trace = trace

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class Seat:
    """``count`` powers played by the bot ``bot``."""

    bot: str
    count: int

    def __str__(self) -> str:
        return f"{self.bot}:{self.count}"


def parse_seats(spec: str, powers: int = 7) -> tuple[Seat, ...]:
    """The seats ``spec`` names (``bot:count`` entries separated by commas; the first entry's
    bot is the candidate), checked: every bot known, every count positive, ``powers`` in all.

    >>> parse_seats("Random:1, random:6")
    (Seat(bot='random', count=1), Seat(bot='random', count=6))
    >>> parse_seats("random:3")
    Traceback (most recent call last):
    ...
    fogdip.bots.tournament.SeatsError: the seats 'random:3' fill 3 powers but a game has 7: make the counts sum to 7, e.g. heuristic:1,random:6
    """
    entries = [entry.strip() for entry in spec.split(",")]
    if not spec.strip() or not all(entries):
        raise SeatsError(f"the seats {spec!r} have an empty entry: write bot:count entries, e.g. {SEATS_EXAMPLE}")
    seats = []
    for entry in entries:
        name, colon, count_text = entry.partition(":")
        if not colon:
            raise SeatsError(
                f"the seat entry {entry!r} has no count: write bot:count, e.g. {name.strip()}:1 (as in {SEATS_EXAMPLE})"
            )
        try:
            bot = bot_named(name).name
        except ValueError as exc:
            raise SeatsError(f"in the seats {spec!r}, {exc}") from None
        try:
            count = int(count_text.strip())
        except ValueError:
            count = 0
        if count < 1:
            raise SeatsError(
                f"the seat entry {entry!r} needs a count of powers of at least 1 after the colon, e.g. {bot}:1"
            )
        seats.append(Seat(bot, count))
    filled = sum(seat.count for seat in seats)
    if filled != powers:
        raise SeatsError(
            f"the seats {spec!r} fill {filled} powers but a game has {powers}: make the counts sum to {powers}, "
            f"e.g. {SEATS_EXAMPLE}"
        )
    return tuple(seats)


@dataclass(frozen=True)
class TournamentSettings:
    """What a tournament plays: ``games`` games of ``preset`` (with option ``options``, as
    ``fogdip variants`` lists them) between ``seats``, each to the end of ``to_year`` or a solo.
    ``seed`` makes the run repeatable; ``jobs`` (default: every CPU) and ``ray_address`` say
    only where the games are played, never what they give."""

    seats: tuple[Seat, ...]
    preset: str = "fog-of-war"
    options: Mapping[str, Any] = field(default_factory=dict)
    games: int = 70
    to_year: int = 1920
    seed: int = 0
    jobs: int | None = None
    ray_address: str | None = None

    @property
    def candidate(self) -> str:
        return self.seats[0].bot

    def to_json(self) -> dict[str, Any]:
        """The settings that decide the games (not where they were played)."""
        return {
            "preset": self.preset,
            "options": dict(self.options),
            "seats": ",".join(str(seat) for seat in self.seats),
            "candidate": self.candidate,
            "games": self.games,
            "to_year": self.to_year,
            "seed": self.seed,
        }


@dataclass(frozen=True)
class GamePlan:
    """One game to play, in names and numbers only (it crosses process and machine bounds):
    the preset and options, the bot of each power, and the game's seed."""

    index: int
    seed: int
    preset: str
    options: tuple[tuple[str, Any], ...]
    candidate_power: str
    bots: tuple[tuple[str, str], ...]


def derived_seed(*parts: object) -> int:
    """A 63-bit seed from ``parts``, the same in every process and on every machine (unlike
    ``hash``).

    >>> derived_seed(1, 2) == derived_seed(1, 2) != derived_seed(2, 1)
    True
    """
    digest = hashlib.sha256(":".join(str(part) for part in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def game_options(settings: TournamentSettings) -> dict[str, Any]:
    """The options every game of the tournament is created with: the settings' own, and the
    year it stops after."""
    if "end_year" in settings.options:
        raise FogdipError("the year the games stop after is set by --to, not by an end_year option")
    return {**settings.options, "end_year": settings.to_year}


def plans(settings: TournamentSettings) -> list[GamePlan]:
    """Every game of the tournament, the candidate rotated through the powers in order."""
    if settings.games < 1:
        raise FogdipError(f"a tournament plays at least one game, not {settings.games}")
    options = game_options(settings)
    first = Game.create(settings.preset, **options)  # checks the preset and options
    powers = first.powers
    opening = first.position.state.board.first_year
    if settings.to_year < opening:
        raise FogdipError(f"the games start in {opening}: --to must be {opening} or later, not {settings.to_year}")
    filled = sum(seat.count for seat in settings.seats)
    if filled != len(powers):
        spec = ",".join(str(seat) for seat in settings.seats)
        raise SeatsError(f"the seats {spec!r} fill {filled} powers but {settings.preset} has {len(powers)}")
    others = [seat.bot for seat in settings.seats for _ in range(seat.count)][1:]
    out = []
    for index in range(settings.games):
        seed = derived_seed("fogdip-tournament", settings.seed, index)
        candidate = powers[index % len(powers)]
        shuffled = list(others)
        random.Random(derived_seed(seed, "seats")).shuffle(shuffled)
        rest = [power for power in powers if power != candidate]
        bots = {candidate: settings.candidate, **dict(zip(rest, shuffled, strict=True))}
        out.append(
            GamePlan(
                index=index,
                seed=seed,
                preset=settings.preset,
                options=tuple(sorted(options.items())),
                candidate_power=candidate,
                bots=tuple((power, bots[power]) for power in powers),
            )
        )
    return out


def play_game(plan: GamePlan, bot_of: Callable[[str], Bot] = bot_named) -> GameResult:
    """Play one planned game to its end (a solo, or the last phase of the year set), each
    seat's bot made by ``bot_of`` from its name (a fresh one each game)."""
    game = Game.create(plan.preset, **dict(plan.options))
    seated = {power: bot_of(name) for power, name in plan.bots}
    rngs = {power: random.Random(derived_seed(plan.seed, power)) for power in seated}
    last = game.turn
    while not game.position.completed:
        last = game.turn
        for power in game.still_in():
            bot = seated[power]
            try:
                lines = bot.orders(BotInput.of(game, power), rngs[power])
            except Exception as exc:
                raise BotFailed(
                    f"the bot {bot.name!r} playing {power} raised {type(exc).__name__}: {exc} in {last} of game "
                    f"{plan.index} (game seed {plan.seed}, {plan.preset}); replay it with "
                    f"fogdip.bots.tournament.replay_game(settings, {plan.index})",
                    traceback.format_exc(),
                ) from exc
            game.file(power, lines, partial=True)
        game.adjudicate()
    outcome = game.outcome()
    winner = outcome["powers"][0] if outcome is not None and outcome["result"] == "solo" else None
    state = game.position.state
    return GameResult(
        index=plan.index,
        seed=plan.seed,
        candidate_power=plan.candidate_power,
        bots=dict(plan.bots),
        centers={power: state.center_count(power) for power in game.powers},
        winner=winner,
        last_turn=last,
    )


def replay_game(settings: TournamentSettings, index: int) -> GameResult:
    """Play again game ``index`` of a tournament with ``settings`` (to debug a bot)."""
    return play_game(plans(settings)[index])


@dataclass(frozen=True)
class TournamentResult:
    """The settings, every game (in index order) and the figures."""

    settings: TournamentSettings
    games: tuple[GameResult, ...]
    standings: Standings

    def to_json(self) -> dict[str, Any]:
        return {
            "settings": self.settings.to_json(),
            "games": [game.to_json() for game in self.games],
            "bots": {name: figures.to_json() for name, figures in self.standings.bots.items()},
            "candidate": self.standings.candidate.to_json(),
        }


#: Called after each game is played (in the order they finish).
OnGame = Callable[[GameResult], None]


def run_tournament(settings: TournamentSettings, on_game: OnGame | None = None) -> TournamentResult:
    """Play every game of ``settings`` and compute the figures. A bot that raises stops the
    run with :class:`BotFailed`."""
    planned = plans(settings)
    if settings.ray_address is not None:
        played = _on_ray(planned, settings.ray_address, on_game)
    else:
        played = _in_processes(planned, settings.jobs or os.cpu_count() or 1, on_game)
    games = tuple(sorted(played, key=lambda game: game.index))
    return TournamentResult(settings, games, standings(games, settings.seed))


def _in_processes(planned: Sequence[GamePlan], jobs: int, on_game: OnGame | None) -> list[GameResult]:
    if jobs < 1:
        raise FogdipError(f"--jobs must be at least 1, not {jobs}")
    played = []
    if jobs == 1 or len(planned) == 1:
        for plan in planned:
            played.append(_reported(play_game(plan), on_game))
        return played
    # Spawned workers import fogdip afresh: nothing but the plans crosses over.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(jobs, len(planned)), mp_context=context) as pool:
        futures = [pool.submit(play_game, plan) for plan in planned]
        try:
            for future in as_completed(futures):
                played.append(_reported(future.result(), on_game))
        except BaseException:
            for future in futures:
                future.cancel()
            raise
    return played


def _on_ray(planned: Sequence[GamePlan], address: str, on_game: OnGame | None) -> list[GameResult]:
    ray = ray_module()
    connected = not ray.is_initialized()
    if connected:
        # The workers run this very fogdip, shipped with the tasks (a few MB), whatever their
        # nodes have installed; its dependencies they must have.
        here = str(Path(__file__).resolve().parents[1])
        ray.init(address=address, logging_level="ERROR", runtime_env={"py_modules": [here]})
    try:
        remote = ray.remote(play_game)
        pending = [remote.remote(plan) for plan in planned]
        played = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                # A task's error comes back as an instance of its own class too (a BotFailed).
                played.append(_reported(ray.get(ref), on_game))
        return played
    finally:
        if connected:  # a caller that connected itself stays connected
            ray.shutdown()


def ray_module() -> Any:
    """Ray, imported only when a tournament is spread over a cluster; a clear error naming the
    extra to install when it is missing."""
    try:
        ray = importlib.import_module("ray")
    except ImportError:
        raise RayUnavailable(f"--ray needs Ray, which is not installed: install it with {RAY_INSTALL}") from None
    return ray


def _reported(result: GameResult, on_game: OnGame | None) -> GameResult:
    if on_game is not None:
        on_game(result)
    return result


__all__ = [
    "RAY_INSTALL",
    "SEATS_EXAMPLE",
    "BotFailed",
    "GamePlan",
    "RayUnavailable",
    "Seat",
    "SeatsError",
    "TournamentResult",
    "TournamentSettings",
    "derived_seed",
    "parse_seats",
    "plans",
    "play_game",
    "replay_game",
    "run_tournament",
]
