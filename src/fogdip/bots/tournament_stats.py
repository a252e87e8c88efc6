"""A tournament's figures: what each game ended with, and per bot the score, solo rate, draw
share, survival and mean centres, each with a 95% confidence interval, and an openskill rating.

Every figure pools all the seats a bot played (a bot on six seats of seventy games played 420
seats). The figures, as ``docs/bots.md`` states them:

- **score**: sum of squares. In a game that ends without a solo a power scores its centres²
  over the sum of every power's centres²; in a solo the winner scores 1 and the others 0. The
  seven scores of a game add up to 1, so 1/7 is an equal share.
- **solo rate**: the share of its seats that won outright.
- **draw share**: the share of its seats in a game that ended without a solo (the year set
  was played out) in which it still held a centre: a seat in the draw.
- **survival**: the share of its seats that held a centre at the end.
- **mean centres**: the centres a seat held at the end, on average.

Rates get Wilson's score interval (:func:`wilson`), over seats. Means get a percentile bootstrap
over games (:func:`bootstrap_mean`): whole games are drawn again, with all the bot's seats in
each, since seats in one game are not independent of each other.

The rating is openskill's Plackett-Luce model, the games rated in order. Each game is a match
between the bots in it, a bot placed by its seats' mean centres at the end (equal means tie);
a game of one bot alone rates nothing.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054

#: How many times a bootstrap draws the games again.
RESAMPLES = 2000


@dataclass(frozen=True)
class GameResult:
    """How one tournament game ended: which bot played each power, the centres each held at
    the end, and the winner of a solo (``None`` if the game was stopped at the year set)."""

    index: int
    seed: int
    candidate_power: str
    bots: Mapping[str, str]
    centers: Mapping[str, int]
    winner: str | None
    last_turn: str

    def scores(self) -> dict[str, float]:
        """Each power's sum-of-squares score (:func:`sum_of_squares`)."""
        return sum_of_squares(self.centers, self.winner)

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seed": self.seed,
            "candidate_power": self.candidate_power,
            "powers": dict(self.bots),
            "centers": dict(self.centers),
            "result": "draw" if self.winner is None else "solo",
            "winner": self.winner,
            "last_turn": self.last_turn,
        }


def sum_of_squares(centers: Mapping[str, int], winner: str | None = None) -> dict[str, float]:
    """Each power's share of the game: centres² over the sum of all centres², or 1 for the
    winner of a solo and 0 for the rest.

    >>> sum_of_squares({"A": 3, "B": 1, "C": 0})
    {'A': 0.9, 'B': 0.1, 'C': 0.0}
    >>> sum_of_squares({"A": 18, "B": 16}, winner="A")
    {'A': 1.0, 'B': 0.0}
    """
    if winner is not None:
        return {power: 1.0 if power == winner else 0.0 for power in centers}
    total = sum(count * count for count in centers.values())
    if total == 0:  # no centre held at all: nothing tells the powers apart
        return {power: 1 / len(centers) for power in centers}
    return {power: count * count / total for power, count in centers.items()}


@dataclass(frozen=True)
class Interval:
    """A figure and its 95% confidence interval."""

    value: float
    low: float
    high: float

    def to_json(self) -> dict[str, float]:
        return {"value": self.value, "low": self.low, "high": self.high}

    def __str__(self) -> str:
        return f"{self.value:.3f} [{self.low:.3f}, {self.high:.3f}]"


def wilson(successes: int, trials: int, z: float = Z95) -> Interval:
    """The rate ``successes / trials`` with Wilson's score interval.

    >>> str(wilson(8, 10))
    '0.800 [0.490, 0.943]'
    >>> wilson(0, 0)
    Interval(value=0.0, low=0.0, high=1.0)
    """
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes in {trials} trials is not a rate")
    if trials == 0:
        return Interval(0.0, 0.0, 1.0)
    rate = successes / trials
    z2 = z * z
    centre = (rate + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(rate * (1 - rate) / trials + z2 / (4 * trials * trials))
    # At 0 or 1 successes in all, rounding may leave the bound a hair on the wrong side.
    return Interval(rate, min(rate, max(0.0, centre - half)), max(rate, min(1.0, centre + half)))


def bootstrap_mean(groups: Sequence[Sequence[float]], rng: random.Random, resamples: int = RESAMPLES) -> Interval:
    """The mean of all values in ``groups`` (one group per game), with a percentile bootstrap
    interval that draws whole groups again (``resamples`` times, from ``rng``).

    >>> bootstrap_mean([[1.0, 3.0], [2.0]], random.Random(1)).value
    2.0
    >>> bootstrap_mean([[5.0], [5.0]], random.Random(1))
    Interval(value=5.0, low=5.0, high=5.0)
    """
    kept = [(sum(group), len(group)) for group in groups if group]
    if not kept:
        return Interval(0.0, 0.0, 0.0)
    value = sum(total for total, _ in kept) / sum(count for _, count in kept)
    means = []
    for _ in range(resamples):
        drawn = [kept[rng.randrange(len(kept))] for _ in kept]
        means.append(sum(total for total, _ in drawn) / sum(count for _, count in drawn))
    means.sort()
    low = means[int(0.025 * resamples)]
    high = means[max(math.ceil(0.975 * resamples) - 1, 0)]
    # A sum of floats drawn in another order may differ in its last bit: keep the figure inside.
    return Interval(value, min(low, value), max(high, value))


@dataclass(frozen=True)
class SkillRating:
    """An openskill rating: ``mu`` the estimate, ``sigma`` its uncertainty, and ``ordinal``
    (mu - 3 sigma) the conservative figure to rank by."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, float]:
        return {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}


@dataclass(frozen=True)
class BotFigures:
    """One bot's figures over every seat it played (or over one seat, for the candidate)."""

    bot: str
    seats: int
    games: int
    score: Interval
    solo_rate: Interval
    draw_share: Interval
    survival: Interval
    mean_centers: Interval
    rating: SkillRating

    def to_json(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "seats": self.seats,
            "games": self.games,
            "score": self.score.to_json(),
            "solo_rate": self.solo_rate.to_json(),
            "draw_share": self.draw_share.to_json(),
            "survival": self.survival.to_json(),
            "mean_centers": self.mean_centers.to_json(),
            "rating": self.rating.to_json(),
        }


def ratings(games: Sequence[GameResult]) -> dict[str, SkillRating]:
    """Every bot's openskill (Plackett-Luce) rating after ``games``, rated in index order: in
    each, the bots placed by their seats' mean centres at the end, equal means tied.

    >>> one = GameResult(0, 1, "A", {"A": "x", "B": "y"}, {"A": 5, "B": 2}, None, "W1901A")
    >>> rated = ratings([one, one])
    >>> rated["x"].mu > 25 > rated["y"].mu
    True
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    names = sorted({bot for game in games for bot in game.bots.values()})
    current = {name: model.rating(name=name) for name in names}
    for game in sorted(games, key=lambda g: g.index):
        playing = sorted(set(game.bots.values()))
        if len(playing) < 2:
            continue
        means = []
        for bot in playing:
            held = [game.centers[power] for power, seated in game.bots.items() if seated == bot]
            means.append(sum(held) / len(held))
        rated = model.rate([[current[bot]] for bot in playing], scores=means)
        for bot, team in zip(playing, rated, strict=True):
            current[bot] = team[0]
    return {name: SkillRating(float(rating.mu), float(rating.sigma)) for name, rating in current.items()}


def figures_of(
    games: Sequence[GameResult],
    seats: Mapping[int, Sequence[str]],
    label: str,
    rating: SkillRating,
    rng: random.Random,
) -> BotFigures:
    """The figures of the seats ``seats`` names (game index -> the powers), as ``label``."""
    by_index = {game.index: game for game in games}
    solos = drawn = survived = total = 0
    score_groups: list[list[float]] = []
    center_groups: list[list[float]] = []
    for index in sorted(seats):
        game = by_index[index]
        scores = game.scores()
        powers = sorted(seats[index])
        score_groups.append([scores[power] for power in powers])
        center_groups.append([float(game.centers[power]) for power in powers])
        for power in powers:
            total += 1
            alive = game.centers[power] > 0
            survived += alive
            solos += game.winner == power
            drawn += game.winner is None and alive
    return BotFigures(
        bot=label,
        seats=total,
        games=len(score_groups),
        score=bootstrap_mean(score_groups, rng),
        solo_rate=wilson(solos, total),
        draw_share=wilson(drawn, total),
        survival=wilson(survived, total),
        mean_centers=bootstrap_mean(center_groups, rng),
        rating=rating,
    )


@dataclass(frozen=True)
class Standings:
    """Every bot's figures, and the candidate seat's alone."""

    bots: Mapping[str, BotFigures]
    candidate: BotFigures


def standings(games: Sequence[GameResult], seed: int) -> Standings:
    """The figures of every bot over all its seats, and of the candidate's seat alone; the
    bootstraps draw from a generator seeded with ``seed``, so a run's figures replay."""
    rated = ratings(games)
    rng = random.Random(f"fogdip-tournament-stats:{seed}")
    names = sorted({bot for game in games for bot in game.bots.values()})
    bots = {}
    for name in names:
        seats = {g.index: [p for p, bot in g.bots.items() if bot == name] for g in games}
        bots[name] = figures_of(games, {i: s for i, s in seats.items() if s}, name, rated[name], rng)
    candidate_bot = games[0].bots[games[0].candidate_power] if games else ""
    candidate = figures_of(
        games,
        {g.index: [g.candidate_power] for g in games},
        candidate_bot,
        rated.get(candidate_bot, SkillRating(25.0, 25 / 3)),
        rng,
    )
    return Standings(bots, candidate)


__all__ = [
    "RESAMPLES",
    "BotFigures",
    "GameResult",
    "Interval",
    "SkillRating",
    "Standings",
    "bootstrap_mean",
    "figures_of",
    "ratings",
    "standings",
    "sum_of_squares",
    "wilson",
]
