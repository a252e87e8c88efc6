"""``fogdip tournament``: the games it plays (the candidate on every power in turn, seeded, the
same in one process or several), the figures it computes, and its command."""

from __future__ import annotations

import json
import os
import pickle
import random
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fogdip.bots.base import BotInput, bot_named, bot_names
from fogdip.bots.tournament import (
    RAY_INSTALL,
    BotFailed,
    SeatsError,
    TournamentSettings,
    parse_seats,
    plans,
    play_game,
    replay_game,
    run_tournament,
)
from fogdip.bots.tournament_stats import (
    GameResult,
    bootstrap_mean,
    figures_of,
    ratings,
    standings,
    sum_of_squares,
    wilson,
)
from fogdip.engine.errors import FogdipError

from cli_runner import run

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
SRC = Path(__file__).resolve().parents[2] / "src"


def tiny(
    seed: int = 1,
    jobs: int = 1,
    seats: str = "random:1,random:6",
    options: dict[str, object] | None = None,
    ray_address: str | None = None,
) -> TournamentSettings:
    """Seven games of fog-of-war to 1902: about a twentieth of a second each."""
    return TournamentSettings(
        seats=parse_seats(seats),
        preset="fog-of-war",
        options=options or {},
        games=7,
        to_year=1902,
        seed=seed,
        jobs=jobs,
        ray_address=ray_address,
    )


# --- the games --------------------------------------------------------------------------------


def test_seven_games_seat_the_candidate_once_on_every_power() -> None:
    result = run_tournament(tiny())
    assert [game.candidate_power for game in result.games] == list(POWERS)
    assert [game.index for game in result.games] == list(range(7))
    for game in result.games:
        assert sorted(game.bots) == sorted(POWERS)
        assert game.last_turn == "W1902A"  # stopped after the last phase of the year set
        assert game.winner is None
        assert sum(game.centers.values()) <= 34
    assert result.standings.bots["random"].seats == 49
    assert result.standings.candidate.seats == 7


def test_every_game_seats_each_bot_as_often_as_the_seats_say() -> None:
    first, second = bot_names()[:2]
    settings = tiny(seats=f"{first}:2,{second}:5")
    planned = plans(settings)
    for plan in planned:
        bots = dict(plan.bots)
        assert bots[plan.candidate_power] == first
        assert Counter(bots.values()) == {first: 2, second: 5}
    # The other seats are shuffled: the second seat of the candidate's bot is not always the
    # same number of powers after the candidate.
    offsets = set()
    for plan in planned:
        candidate = POWERS.index(plan.candidate_power)
        (other,) = [POWERS.index(p) for p, bot in plan.bots if bot == first and p != plan.candidate_power]
        offsets.add((other - candidate) % 7)
    assert len(offsets) > 1


def test_the_same_seed_gives_the_same_json_and_another_seed_other_games() -> None:
    first = run_tournament(tiny(seed=5)).to_json()
    again = run_tournament(tiny(seed=5)).to_json()
    assert json.dumps(first) == json.dumps(again)
    other = run_tournament(tiny(seed=6)).to_json()
    assert [g["seed"] for g in other["games"]] != [g["seed"] for g in first["games"]]
    assert [g["centers"] for g in other["games"]] != [g["centers"] for g in first["games"]]


def test_two_processes_give_what_one_gives() -> None:
    one = run_tournament(tiny(seed=3, jobs=1)).to_json()
    two = run_tournament(tiny(seed=3, jobs=2)).to_json()
    assert json.dumps(one) == json.dumps(two)


def test_a_game_replays_from_the_settings_and_its_index() -> None:
    settings = tiny(seed=9)
    result = run_tournament(settings)
    assert replay_game(settings, 4) == result.games[4]


def test_progress_is_told_of_every_game() -> None:
    told: list[int] = []
    run_tournament(tiny(), on_game=lambda game: told.append(game.index))
    assert sorted(told) == list(range(7))


def test_the_year_set_comes_from_to_not_from_the_options() -> None:
    with pytest.raises(FogdipError, match="--to"):
        plans(tiny(options={"end_year": 1905}))


def test_composed_options_reach_the_games() -> None:
    result = run_tournament(tiny(options={"hold_empty_winters": False}))
    assert result.to_json()["settings"]["options"] == {"hold_empty_winters": False}
    with pytest.raises(FogdipError, match="unknown option"):
        plans(tiny(options={"no_such_option": 1}))


@dataclass(frozen=True)
class FailsInItaly:
    """A bot with a bug: it plays at random, but raises for Italy's orders in Fall 1901."""

    name: str = "fails-in-italy"

    def orders(self, given: BotInput, rng: random.Random) -> list[str]:
        if given.power == "ITALY" and given.turn == "F1901M":
            raise KeyError("NAP")
        return bot_named("random").orders(given, rng)


def test_a_bot_that_raises_stops_the_game_naming_what_replays_it() -> None:
    plan = plans(tiny(seed=4))[2]
    with pytest.raises(BotFailed) as caught:
        play_game(plan, bot_of=lambda name: FailsInItaly())
    message = str(caught.value)
    for words in ("'fails-in-italy' playing ITALY", "KeyError", "F1901M", "game 2", f"game seed {plan.seed}"):
        assert words in message
    assert "replay_game(settings, 2)" in message
    assert "raise KeyError" in caught.value.trace


def test_a_bot_failure_keeps_its_message_and_trace_across_processes() -> None:
    failed = BotFailed("the bot 'x' playing FRANCE raised in game 3 (game seed 12)", "Traceback: ...")
    back = pickle.loads(pickle.dumps(failed))
    assert str(back) == str(failed) and back.trace == "Traceback: ..."


# --- the seats ----------------------------------------------------------------------------------


def test_seats_are_read_with_the_candidate_first() -> None:
    seats = parse_seats(" Random:1 , random:6 ")
    assert [(seat.bot, seat.count) for seat in seats] == [("random", 1), ("random", 6)]


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("nobot:1,random:6", ["'nobot'", "the bots are", "random"]),
        ("random:1,random:5", ["fill 6 powers", "sum to 7", "heuristic:1,random:6"]),
        ("random:8", ["fill 8 powers", "sum to 7"]),
        ("random,random:6", ["'random' has no count", "bot:count"]),
        ("random:0,random:7", ["at least 1"]),
        ("random:x,random:6", ["at least 1"]),
        ("random:1,,random:6", ["empty entry"]),
        ("", ["empty entry"]),
    ],
)
def test_a_bad_seats_spec_says_what_is_wrong_and_how_to_fix_it(spec: str, says: list[str]) -> None:
    with pytest.raises(SeatsError) as caught:
        parse_seats(spec)
    for words in says:
        assert words in str(caught.value)


# --- the figures --------------------------------------------------------------------------------


def result(index: int, centers: dict[str, int], bots: dict[str, str], winner: str | None = None) -> GameResult:
    return GameResult(index, index, sorted(bots)[0], bots, centers, winner, "W1910A")


def test_sum_of_squares_on_known_numbers() -> None:
    scores = sum_of_squares({"A": 4, "B": 2, "C": 0})
    assert scores == pytest.approx({"A": 0.8, "B": 0.2, "C": 0.0})
    assert sum_of_squares({"A": 18, "B": 10, "C": 6}, winner="A") == {"A": 1.0, "B": 0.0, "C": 0.0}


@given(st.lists(st.integers(0, 34), min_size=2, max_size=7))
def test_the_scores_of_a_game_add_up_to_one(counts: list[int]) -> None:
    scores = sum_of_squares({f"P{i}": count for i, count in enumerate(counts)})
    assert sum(scores.values()) == pytest.approx(1.0)


def test_wilson_on_known_numbers() -> None:
    # Wilson's interval at 95%: 8 of 10 -> 0.4902..0.9433; 0 of 10 -> 0..0.2775; 50 of 100.
    eight = wilson(8, 10)
    assert (eight.value, eight.low, eight.high) == pytest.approx((0.8, 0.4902, 0.9433), abs=1e-4)
    none = wilson(0, 10)
    assert (none.low, none.high) == pytest.approx((0.0, 0.2775), abs=1e-4)
    half = wilson(50, 100)
    assert (half.low, half.high) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    with pytest.raises(ValueError, match="not a rate"):
        wilson(3, 2)


@given(st.integers(0, 200), st.integers(0, 200))
def test_a_wilson_interval_holds_its_rate(a: int, b: int) -> None:
    successes, trials = min(a, b), max(a, b)
    interval = wilson(successes, trials)
    assert 0.0 <= interval.low <= interval.value <= interval.high <= 1.0


def test_the_bootstrap_draws_whole_games_and_replays_from_its_seed() -> None:
    groups = [[1.0, 1.0, 1.0], [4.0], [2.0, 3.0]]
    first = bootstrap_mean(groups, random.Random(3))
    assert first == bootstrap_mean(groups, random.Random(3))
    assert first.value == pytest.approx(12 / 6)
    assert 1.0 <= first.low < first.value < first.high <= 4.0
    assert bootstrap_mean([[2.0], [2.0, 2.0]], random.Random(1)).high == 2.0


def test_figures_on_hand_made_games() -> None:
    bots = {power: "b" for power in POWERS} | {"AUSTRIA": "a"}
    won = result(0, {power: 2 for power in POWERS} | {"AUSTRIA": 18, "TURKEY": 0}, bots, winner="AUSTRIA")
    drawn = result(1, {power: 5 for power in POWERS} | {"AUSTRIA": 4, "TURKEY": 0}, bots)
    games = [won, drawn]
    got = standings(games, seed=1)
    a, b = got.bots["a"], got.bots["b"]
    assert (a.seats, a.games, b.seats, b.games) == (2, 2, 12, 2)
    assert a.solo_rate.value == 0.5 and b.solo_rate.value == 0.0
    # The draw share counts a seat in a game without a solo that still held a centre.
    assert a.draw_share.value == 0.5 and b.draw_share.value == pytest.approx(5 / 12)
    assert b.survival.value == pytest.approx(10 / 12) and a.survival.value == 1.0
    assert a.mean_centers.value == 11.0
    assert a.score.value == pytest.approx((1.0 + 16 / (16 + 5 * 25)) / 2)
    assert b.score.value == pytest.approx((0.0 + 5 * 25 / (16 + 5 * 25)) / 12)
    # The candidate's seat alone: AUSTRIA in both (the first power of each game's seats).
    assert got.candidate.seats == 2 and got.candidate.mean_centers.value == 11.0
    only_b = figures_of(games, {1: ["TURKEY"]}, "b on TURKEY", got.bots["b"].rating, random.Random(1))
    assert only_b.survival.value == 0.0 and only_b.draw_share.value == 0.0


def test_a_bot_that_always_holds_more_centres_is_rated_higher() -> None:
    games = []
    for index in range(10):
        bots = {power: ("strong" if i % 2 else "weak") for i, power in enumerate(POWERS)}
        centers = {power: (6 if bots[power] == "strong" else 2) + index % 2 for power in POWERS}
        games.append(result(index, centers, bots))
    rated = ratings(games)
    assert rated["strong"].mu > 25 > rated["weak"].mu
    assert rated["strong"].ordinal > rated["weak"].ordinal
    assert rated["strong"].sigma < 25 / 3


def test_equal_centres_tie_and_one_bot_alone_rates_nothing() -> None:
    bots = {power: ("x" if i < 3 else "y") for i, power in enumerate(POWERS)}
    tied = ratings([result(0, dict.fromkeys(POWERS, 4), bots)])
    assert tied["x"].mu == pytest.approx(tied["y"].mu)
    alone = ratings([result(0, {"A": 9, "B": 1}, {"A": "z", "B": "z"})])
    assert (alone["z"].mu, alone["z"].sigma) == pytest.approx((25.0, 25 / 3))


# --- the command --------------------------------------------------------------------------------


def test_the_command_prints_the_figures_and_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    got = run("tournament", "--seats", "random:1,random:6", "--games", 7, "--to", 1902, "--seed", 1, "--jobs", 1,
              "--out", out)  # fmt: skip
    assert got.exit_code == 0, got.stderr
    assert "score" in got.stdout and "random (candidate seat)" in got.stdout
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["settings"] == {
        "preset": "fog-of-war",
        "options": {},
        "seats": "random:1,random:6",
        "candidate": "random",
        "games": 7,
        "to_year": 1902,
        "seed": 1,
    }
    assert [game["candidate_power"] for game in data["games"]] == list(POWERS)
    assert data == run_tournament(tiny(seed=1)).to_json()
    assert set(data["bots"]["random"]) >= {"score", "solo_rate", "draw_share", "survival", "mean_centers", "rating"}
    assert "played 7/7 games" in got.stderr


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--seats", "heuristic-x:1,random:6"], "no bot named 'heuristic-x'"),
        (["--seats", "random:1,random:5"], "make the counts sum to 7"),
        (["--seats", "random:7", "--preset", "nowhere"], "unknown variant 'nowhere'"),
        (["--seats", "random:7", "--option", "espionage"], "KEY=VALUE"),
        (["--seats", "random:7", "--to", "1900"], "--to must be 1901 or later"),
    ],
)
def test_the_command_refuses_bad_input_in_one_line(args: list[str], says: str) -> None:
    got = run("tournament", "--games", 1, "--to", 1901, "--jobs", 1, *args)
    assert got.exit_code == 2
    assert got.stderr.startswith("fogdip: error: ") and says in got.stderr
    assert got.stderr.count("\n") == 1


def test_without_ray_the_ray_option_names_the_extra_to_install() -> None:
    # Ray may be installed here: the child process is made to find none.
    code = (
        "import sys; sys.modules['ray'] = None; from fogdip.cli.main import app; "
        "app(['tournament', '--seats', 'random:7', '--games', '1', '--to', '1901', '--ray', 'auto'])"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2
    assert RAY_INSTALL in done.stderr and "--ray" in done.stderr


@pytest.mark.slow
def test_a_local_ray_cluster_plays_the_games_one_process_plays() -> None:
    # Ray is an optional extra (fogdip[ray]); CI installs it, so this runs there.
    pytest.importorskip("ray")
    on_ray = run_tournament(tiny(seed=2, ray_address="local")).to_json()
    assert json.dumps(on_ray) == json.dumps(run_tournament(tiny(seed=2)).to_json())
