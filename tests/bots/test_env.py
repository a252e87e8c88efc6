"""fogdip.env: PettingZoo's own API test on every kind of turn, no hidden unit in an
observation, repeatable episodes, refused lines reported, bots playing unchanged."""

from __future__ import annotations

import json
import random
import re
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pettingzoo.test import parallel_api_test

from fogdip.bots.base import BotInput, bot_named
from fogdip.env import FogdipEnv, Observation, final_score, random_legal_lines

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

#: A unit named in an order line: its type and where it stands.
_UNIT_REF = re.compile(r"(?<![A-Z])([AF]) ([A-Z]{3}(?:/[A-Z]{2})?)(?![A-Z/])")


@pytest.mark.parametrize("preset", ["standard", "fog-of-war", "sighting", "deadman", "diplomyopia", "fog-1898"])
def test_passes_pettingzoos_parallel_api_test(preset: str) -> None:
    env = FogdipEnv(preset, max_year=1902)
    with warnings.catch_warnings():
        # The API test warns (does not fail) where an agent is not told of a step, or is told
        # though it left: those are failures here.
        warnings.simplefilter("error")
        parallel_api_test(env, num_cycles=12)


def _play(env: FogdipEnv, seed: int, steps: int) -> list[dict[str, Any]]:
    """Play ``steps`` steps of random legal filings drawn from the env's seeded rng, plus each
    agent's sampled text action; every step's outcome, for comparing two runs."""
    observations, infos = env.reset(seed=seed)
    played: list[dict[str, Any]] = [{"observations": observations}]
    for _ in range(steps):
        if not env.agents:
            break
        actions = {}
        for agent in env.agents:
            lines = random_legal_lines(observations[agent], env.rng)
            # A sampled line of noise too: refused, and reported so, the same way each run.
            lines.append(env.action_space(agent).sample()[:20].replace("\n", " "))
            actions[agent] = "\n".join(lines)
        observations, rewards, terminated, truncated, infos = env.step(actions)
        played.append(
            {
                "observations": observations,
                "rewards": rewards,
                "terminated": terminated,
                "truncated": truncated,
                "refused": {agent: info["refused"] for agent, info in infos.items()},
            }
        )
    return played


@pytest.mark.parametrize("preset", ["fog-of-war", "sighting", "deadman"])
def test_a_seeded_episode_repeats(preset: str) -> None:
    first = _play(FogdipEnv(preset, max_year=1903), seed=7, steps=8)
    again = _play(FogdipEnv(preset, max_year=1903), seed=7, steps=8)
    other = _play(FogdipEnv(preset, max_year=1903), seed=8, steps=8)
    assert first == again
    assert first != other


def _hidden_units(env: FogdipEnv, agent: str, observation: Observation) -> set[tuple[str, str]]:
    """The units on the master's board (standing or dislodged) in provinces the agent's report
    shows no unit in: the ones it must not be told of."""
    board = env.game.variant.board
    report = json.loads(observation["report"])
    shown = {board.province_of(text.lstrip("*").split()[1]) for texts in report["units"].values() for text in texts}
    state = env.game.position.state
    master = [*state.units.values(), *(gone.unit for gone in state.dislodged.values())]
    return {(unit.kind, unit.location) for unit in master if board.province_of(unit.location) not in shown}


def _legal_lines(observation: Observation) -> list[str]:
    legal = json.loads(observation["legal"])
    lines = []
    for unit in legal["units"]:
        lines += [unit["hold"] or "", unit["disband"] or ""]
        lines += [text for texts in (*unit["moves"].values(), *unit["guesses"].values()) for text in texts]
        lines += [each[-1] for each in (*unit["supports"], *unit["convoys"], *unit["extras"])]
    if legal["adjust"] is not None:
        lines += [text for texts in legal["adjust"]["sites"].values() for text in texts]
        lines += list(legal["adjust"]["removals"].values())
    lines += [text for texts in legal["setup"].values() for text in texts]
    return lines


@pytest.mark.parametrize("preset", ["fog-of-war", "sighting", "deadman", "diplomyopia", "fog-1898"])
def test_an_observation_never_shows_a_hidden_unit(preset: str) -> None:
    env = FogdipEnv(preset, max_year=1904)
    observations, _ = env.reset(seed=3)
    rng = random.Random(3)
    checked = 0
    while env.agents:
        for agent in env.agents:
            observation = observations[agent]
            hidden = _hidden_units(env, agent, observation)
            report = json.loads(observation["report"])
            listed = {text.lstrip("*") for texts in report["units"].values() for text in texts}
            named = {unit for line in _legal_lines(observation) for unit in _UNIT_REF.findall(line)}
            assert not {f"{kind} {where}" for kind, where in hidden} & listed
            assert not hidden & named, (agent, hidden & named)
            assert env.observation_space(agent).contains(observation)
            checked += len(hidden)
        actions = {agent: random_legal_lines(observations[agent], rng) for agent in env.agents}
        observations, *_ = env.step(actions)
    assert checked > 0  # fog hid something, so the check checked something


def test_refused_lines_come_back_with_their_reasons_and_the_rest_is_filed() -> None:
    env = FogdipEnv("fog-of-war", max_year=1901)
    env.reset(seed=1)
    _, _, _, _, infos = env.step({"FRANCE": ["A PAR - BUR", "A PAR - MOS", "hello"], "ITALY": "", "GERMANY": None})
    france = infos["FRANCE"]
    assert france["filed"] == ("A PAR - BUR",)
    assert [line for line, _ in france["refused"]] == ["A PAR - MOS", "hello"]
    assert all(reason for _, reason in france["refused"])
    assert infos["ITALY"]["filed"] == () and infos["ITALY"]["refused"] == ()
    assert infos["GERMANY"]["filed"] == () and infos["GERMANY"]["refused"] == ()
    assert "A BUR" in json.loads(env.observe("FRANCE")["report"])["units"]["FRANCE"]


def test_deadmans_first_step_places_the_units_its_action_names() -> None:
    env = FogdipEnv("deadman", max_year=1901)
    observations, _ = env.reset(seed=1)
    assert json.loads(observations["FRANCE"]["legal"])["setup"]["MAR"] == ["A MAR", "F MAR"]
    observations, _, _, _, infos = env.step({"FRANCE": "F MAR\nA PAR\nA PAR\nA MUN"})
    assert infos["FRANCE"]["filed"] == ("F MAR", "A PAR")
    assert [line for line, _ in infos["FRANCE"]["refused"]] == ["A PAR", "A MUN"]
    # BRE, left unnamed, gets the standard start's fleet.
    assert sorted(json.loads(observations["FRANCE"]["report"])["units"]["FRANCE"]) == ["A PAR", "F BRE", "F MAR"]


def test_observations_are_in_their_space_and_bots_play_from_the_infos() -> None:
    env = FogdipEnv("deadman", max_year=1903)
    observations, infos = env.reset(seed=5)
    bot, rng = bot_named("random"), random.Random(5)
    kinds_played = set()
    while env.agents:
        for agent in env.agents:
            given = infos[agent]["bot_input"]
            assert isinstance(given, BotInput) and given.power == agent
            assert observations[agent]["turn"] == given.turn
            assert env.observation_space(agent).contains(observations[agent])
            kinds_played.add(given.kinds)
        actions = {agent: bot.orders(infos[agent]["bot_input"], rng) for agent in env.agents}
        observations, rewards, terminated, truncated, infos = env.step(actions)
        assert set(observations) == set(rewards) == set(terminated) == set(truncated) == set(infos)
    assert {("setup",), ("M",), ("A", "M")} <= kinds_played
    assert all(truncated.values()) and not any(terminated.values())
    assert env.game.position.state.phase.year == 1904


def test_bot_inputs_can_be_left_out() -> None:
    env = FogdipEnv("fog-of-war", max_year=1901, bot_inputs=False)
    _, infos = env.reset(seed=1)
    assert "bot_input" not in infos["FRANCE"] and infos["FRANCE"]["centres"] == 3
    _, _, _, _, infos = env.step({"FRANCE": "A PAR - BUR"})
    assert "bot_input" not in infos["FRANCE"] and infos["FRANCE"]["filed"] == ("A PAR - BUR",)


def test_centre_rewards_add_up_to_the_centres_gained() -> None:
    env = FogdipEnv("standard", max_year=1903)
    observations, infos = env.reset(seed=2)
    start = {agent: infos[agent]["centres"] for agent in env.agents}
    total = dict.fromkeys(start, 0.0)
    rng = random.Random(2)
    while env.agents:
        actions = {agent: random_legal_lines(observations[agent], rng) for agent in env.agents}
        observations, rewards, _, _, infos = env.step(actions)
        for agent, reward in rewards.items():
            total[agent] += reward
    state = env.game.position.state
    assert total == {agent: float(state.center_count(agent) - start[agent]) for agent in start}
    assert any(total.values())


def test_score_rewards_come_at_the_end_and_sum_to_one() -> None:
    env = FogdipEnv("fog-of-war", max_year=1902, reward="score")
    observations, _ = env.reset(seed=4)
    rng = random.Random(4)
    while True:
        actions = {agent: random_legal_lines(observations[agent], rng) for agent in env.agents}
        observations, rewards, _, truncated, _ = env.step(actions)
        if not env.agents:
            break
        assert set(rewards.values()) == {0.0}
    assert all(truncated.values())
    assert sum(rewards.values()) == pytest.approx(1.0)
    assert rewards == {agent: final_score(env.game, agent) for agent in rewards}


def test_an_eliminated_power_leaves_and_a_solo_ends_the_game() -> None:
    # With a solo at 10 centres this seed's random play eliminates England and Austria first.
    env = FogdipEnv("standard", max_year=1930, victory_centers=10)
    observations, _ = env.reset(seed=2)
    rng = random.Random(2)
    ended: dict[str, str] = {}
    while env.agents:
        actions = {agent: random_legal_lines(observations[agent], rng) for agent in env.agents}
        observations, _, terminated, truncated, _ = env.step(actions)
        assert not any(truncated.values())
        for agent in terminated:
            assert agent not in ended  # told of its end once, then gone
            if terminated[agent]:
                ended[agent] = env.game.turn
                assert agent not in env.agents
        assert set(env.agents) == set(env.game.still_in()) - set(ended)
    outcome = env.game.outcome()
    assert outcome is not None and outcome["result"] == "solo"
    assert set(ended) == set(env.possible_agents)
    assert sorted(agent for agent, turn in ended.items() if turn != "COMPLETED") == ["AUSTRIA", "ENGLAND"]


def test_the_example_plays_an_episode_with_fogdips_bots(capsys: pytest.CaptureFixture[str]) -> None:
    sys.path.insert(0, str(EXAMPLES))
    try:
        from env_bots import main
    finally:
        sys.path.remove(str(EXAMPLES))
    result = main(["--bot", "random", "--preset", "fog-of-war", "--max-year", "1902", "--seed", "3"])
    printed = capsys.readouterr().out
    assert "FRANCE" in printed and "1902" in printed
    assert sum(result.values()) == pytest.approx(1.0)


def _master_units(env: FogdipEnv) -> set[str]:
    state = env.game.position.state
    return {f"{unit.power} {unit.kind} {unit.location}" for unit in state.units.values()}


@pytest.mark.parametrize("preset", ["fog-of-war", "sighting", "deadman", "diplomyopia", "fog-1898"])
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_what_the_power_is_offered_depends_on_its_report_alone(preset: str, seed: int) -> None:
    """Two games where only Turkey plays differently: as long as France's reports are equal,
    its whole observation is, however the boards differ where France cannot see."""
    one, two = FogdipEnv(preset, max_year=1904, bot_inputs=False), FogdipEnv(preset, max_year=1904, bot_inputs=False)
    seen = {id(one): one.reset(seed=seed)[0], id(two): two.reset(seed=seed)[0]}
    rngs = {
        id(env): {
            agent: random.Random(f"{seed} {agent} {tag if agent == 'TURKEY' else ''}") for agent in env.possible_agents
        }
        for env, tag in ((one, "one"), (two, "two"))
    }
    unseen_differences = 0
    while "FRANCE" in one.agents and "FRANCE" in two.agents:
        france = seen[id(one)]["FRANCE"], seen[id(two)]["FRANCE"]
        if france[0]["report"] != france[1]["report"]:
            break
        assert france[0] == france[1]
        unseen_differences += _master_units(one) != _master_units(two)
        for env in (one, two):
            actions = {agent: random_legal_lines(seen[id(env)][agent], rngs[id(env)][agent]) for agent in env.agents}
            seen[id(env)] = env.step(actions)[0]
    assume(unseen_differences > 0)
