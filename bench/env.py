"""Steps a second of the research environment (``fogdip.env.FogdipEnv``) with random actions
drawn from each agent's legal orders, for several presets.

    pip install ".[env]"
    python bench/env.py [--presets standard,fog-of-war,...] [--episodes 3] [--max-year 1910] [--quick]

A step is one game turn for every live agent: filing each agent's lines (the game screens
them as a player's), adjudicating, and building each agent's observation (its report and its
legal choices as JSON text) and infos (its ``BotInput``; the last column is without it,
``FogdipEnv(bot_inputs=False)``, the same episodes). The random policy's own time (reading
the legal choices back and drawing from them) is not counted in a step's. Rates are by the
clock and, in the ``(CPU)`` columns, by this process's CPU time (steadier on a machine other
work shares). ``--quick`` plays one short episode of each preset, for a look.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass

from fogdip.env import FogdipEnv, random_legal_lines

PRESETS = ("standard", "fog-of-war", "sighting", "deadman", "diplomyopia", "fog-1898")


@dataclass(frozen=True)
class Run:
    """One preset's episodes: steps played, agent-steps (one live agent's turn), the seconds
    spent in ``reset`` and ``step``, and in choosing the actions."""

    preset: str
    episodes: int
    steps: int
    agent_steps: int
    env_seconds: float
    env_cpu_seconds: float
    policy_seconds: float
    step_ms: tuple[float, ...]


def run(preset: str, episodes: int, max_year: int, seed: int, bot_inputs: bool = True) -> Run:
    env = FogdipEnv(preset, max_year=max_year, bot_inputs=bot_inputs)
    steps = agent_steps = 0
    env_seconds = env_cpu_seconds = policy_seconds = 0.0
    step_ms: list[float] = []
    for episode in range(episodes):
        rng = random.Random(seed * 1000 + episode)
        start = time.perf_counter()
        observations, _ = env.reset(seed=seed * 1000 + episode)
        env_seconds += time.perf_counter() - start
        while env.agents:
            start = time.perf_counter()
            actions = {agent: random_legal_lines(observations[agent], rng) for agent in env.agents}
            chosen, chosen_cpu = time.perf_counter(), time.process_time()
            observations, *_ = env.step(actions)
            done, done_cpu = time.perf_counter(), time.process_time()
            env_cpu_seconds += done_cpu - chosen_cpu
            policy_seconds += chosen - start
            env_seconds += done - chosen
            step_ms.append((done - chosen) * 1000)
            steps += 1
            agent_steps += len(actions)
    return Run(preset, episodes, steps, agent_steps, env_seconds, env_cpu_seconds, policy_seconds, tuple(step_ms))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--presets", default=",".join(PRESETS), help="comma-separated presets")
    parser.add_argument("--episodes", type=int, default=3)
    parser.add_argument("--max-year", type=int, default=1910, help="each episode is truncated after this year")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="one episode to 1903 per preset")
    args = parser.parse_args()
    episodes, max_year = (1, 1903) if args.quick else (args.episodes, args.max_year)
    print(f"{episodes} episode(s) per preset to {max_year}, random legal actions, seed {args.seed}")
    print(
        f"{'preset':12s} {'steps':>6s} {'steps/s':>8s} {'(CPU)':>6s} {'agent-steps/s':>14s} {'median ms':>10s}"
        f" {'p95 ms':>7s} {'policy s':>9s} {'steps/s, no bot_input':>22s} {'(CPU)':>6s}"
    )
    for preset in args.presets.split(","):
        # Untimed first: the map's tables and the first games' caches are built once a process.
        run(preset.strip(), 1, 1901, args.seed + 1)
        made = run(preset.strip(), episodes, max_year, args.seed)
        bare = run(preset.strip(), episodes, max_year, args.seed, bot_inputs=False)
        ordered = sorted(made.step_ms)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        print(
            f"{made.preset:12s} {made.steps:6d} {made.steps / made.env_seconds:8.1f}"
            f" {made.steps / made.env_cpu_seconds:6.1f} {made.agent_steps / made.env_seconds:14.1f}"
            f" {statistics.median(made.step_ms):10.2f} {p95:7.2f} {made.policy_seconds:9.2f}"
            f" {bare.steps / bare.env_seconds:22.1f} {bare.steps / bare.env_cpu_seconds:6.1f}"
        )


if __name__ == "__main__":
    main()
