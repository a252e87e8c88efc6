"""One episode of fogdip's research environment, every power played by one of fogdip's bots.

    pip install ".[env]"
    python examples/env_bots.py [--bot heuristic] [--preset fog-of-war] [--max-year 1910] [--seed 1]

``fogdip.env.FogdipEnv`` is a PettingZoo parallel environment: each step, every live agent (a
power) files order lines for the turn. A bot plays in it unchanged, because the environment
hands each agent, in ``infos[agent]["bot_input"]``, the same :class:`fogdip.bots.base.BotInput`
the server and the tournament give it: the power's own reports and knowledge, nothing else.
A learning agent would read ``observations[agent]`` instead (its report and its legal orders,
as JSON text) and act with lines of its own; the bots here only show the loop.

The episode is scored with the environment's ``reward="score"``: nothing until the end, then
each power's share of the sum of squares of the centres (1 to a solo winner).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from fogdip.bots.base import bot_named, bot_names
from fogdip.env import FogdipEnv


def main(argv: Sequence[str] | None = None) -> dict[str, float]:
    """Play one episode; print each year's centres and the final scores; return the scores."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="heuristic", help="the bot that plays every power (default: heuristic)")
    parser.add_argument("--preset", default="fog-of-war")
    parser.add_argument("--max-year", type=int, default=1910, help="the episode is truncated after this year")
    parser.add_argument("--seed", type=int, default=1, help="seeds the environment and the bots' generator")
    args = parser.parse_args(argv)
    if args.bot not in bot_names():
        # The heuristic bot is registered with issue 22's other bots; until then, say so and
        # play the one bot there is.
        print(f"note: no bot named {args.bot!r} yet (the bots are {', '.join(bot_names())}); playing 'random'")
        args.bot = "random"
    bot = bot_named(args.bot)

    env = FogdipEnv(args.preset, max_year=args.max_year, reward="score")
    # A bot reads its BotInput from the infos; a learning agent would read the observations.
    _observations, infos = env.reset(seed=args.seed)
    # One generator for every bot's draws, seeded: the episode replays from its seed.
    rng = random.Random(args.seed)
    scores = dict.fromkeys(env.possible_agents, 0.0)
    print(f"{args.preset}, every power played by {bot.name!r}, to {args.max_year} at most")
    playing = env.game.position.state.phase.year
    while env.agents:
        actions = {agent: bot.orders(infos[agent]["bot_input"], rng) for agent in env.agents}
        # An agent whose power is eliminated, or all at the end, is terminated (or truncated
        # after max_year) and leaves env.agents: the loop ends when none is left.
        _observations, rewards, _terminated, _truncated, infos = env.step(actions)
        for agent, reward in rewards.items():
            scores[agent] += reward
        refused = sum(len(info["refused"]) for info in infos.values())
        year = env.game.position.state.phase.year
        if year != playing or not env.agents:
            # A year played (or the last turn): the centres each power holds now.
            centres = ", ".join(f"{agent[:3]} {info['centres']}" for agent, info in sorted(infos.items()))
            print(f"  {playing}: {centres}" + (f" ({refused} line(s) refused this turn)" if refused else ""))
            playing = year
    outcome = env.game.outcome()
    print("ended:", outcome if outcome is not None else f"truncated after {args.max_year}")
    for agent, score in sorted(scores.items(), key=lambda item: -item[1]):
        print(f"  {agent:8s} {score:.3f}")
    return scores


if __name__ == "__main__":
    main()
