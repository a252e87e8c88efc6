"""A research environment: any preset as a PettingZoo parallel environment, one agent a power.

:class:`FogdipEnv` plays a :class:`fogdip.game.Game` in-process. Every live agent acts at once,
one action per game turn (a combined turn — sighting's Movement-Retreat-Adjustment, deadman's
Winter-Spring — is one step; so is deadman's setup, whose action places the first units).

**Observation** (per agent, a dict of three JSON-safe strings, :meth:`FogdipEnv.observation_space`):

- ``turn``: the turn to be played, as the power's latest report names it (``S1901M``,
  ``COMPLETED`` at the end);
- ``report``: the power's latest report as JSON text, exactly as the codec writes it for the
  API (:func:`fogdip.codec.observations.observation_to_json`);
- ``legal``: the power's choices for that turn as JSON text, the data the game page offers
  (:func:`fogdip.web.choices.build_choices`): per unit its hold, moves, supports, convoys and
  the variant's extra orders, a Winter's build sites and removals, a setup's placements. They
  are worked out on the board as the power knows it (its own units and centres, the foreign
  units its report shows, the map), so no hidden unit shows in them.

**Action** (per agent): order lines, one a line, as a player types them (a ``str``; a list of
lines is taken too, as a bot returns them). The game screens them as a player's filing: a line
it refuses is not filed, and comes back in ``infos[agent]["refused"]`` as ``(line, reason)``.
An empty action files nothing: units hold, or take the variant's defaults.

**Rewards** (``reward=``): ``"centres"`` (the default) gives each step the change in the power's
supply-centre count; ``"score"`` gives nothing until the episode ends, then the power's share
of the sum of squares of the survivors' centres (a solo: 1 to the winner, 0 to the others).

**Ends**: an agent is *terminated* when its power is eliminated (and leaves ``agents``), every
live agent when the game ends (a solo, or the variant's own ``end_year``); every live agent is
*truncated* before the first turn whose year is after ``max_year``.

``infos[agent]`` holds ``filed`` (the lines filed), ``refused``, ``centres`` (the power's
supply-centre count) and ``bot_input``: the :class:`fogdip.bots.base.BotInput` of that power,
so a fogdip bot plays unchanged: ``env.step({a: bot.orders(infos[a]["bot_input"], rng) ...})``.
A bot input holds a copy of what the power knows, about a third of a step's time in the
standard game: ``bot_inputs=False`` leaves it out, for agents that read the observations only.

>>> env = FogdipEnv("fog-of-war", max_year=1901)
>>> observations, infos = env.reset(seed=1)
>>> observations["FRANCE"]["turn"], json.loads(observations["FRANCE"]["report"])["power"]
('S1901M', 'FRANCE')
>>> observations, rewards, terminated, truncated, infos = env.step({"FRANCE": "A PAR - BUR\\nA PAR - NTH"})
>>> infos["FRANCE"]["filed"], infos["FRANCE"]["refused"][0][0]
(('A PAR - BUR',), 'A PAR - NTH')
>>> sorted(json.loads(observations["FRANCE"]["report"])["units"]["FRANCE"])
['A BUR', 'A MAR', 'F BRE']
"""

from __future__ import annotations

import json
import random
import string
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from gymnasium import spaces
from pettingzoo import ParallelEnv

from fogdip.bots.base import BotInput
from fogdip.codec.observations import observation_to_json
from fogdip.engine.judge import solo_winner
from fogdip.game.refusals import Refusal
from fogdip.game.service import Game
from fogdip.web.choices import build_choices

#: What a step gives an agent for its turn.
Observation = dict[str, str]
#: What an agent files: its order lines (one a line), or a list of lines.
Action = str | Sequence[str]
Reward = Literal["centres", "score"]

#: Every character the observation's JSON may hold: printable ASCII (it is written with
#: ``ensure_ascii``, so anything else is escaped, and newlines are ``\\n`` inside strings).
JSON_CHARSET = "".join(chr(code) for code in range(32, 127))
#: Every character an action may hold: printable ASCII and the newline between lines.
ORDER_CHARSET = JSON_CHARSET + "\n"
#: Generous bounds: a report or a choices document is a few kilobytes (the largest seen in
#: random games of every preset is about 10 KB).
MAX_OBSERVATION_CHARS = 1 << 20
#: An action space's bound; a longer action is still filed (the bound is what sampling draws).
MAX_ACTION_CHARS = 4096


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=True, separators=(",", ":"))


class FogdipEnv(ParallelEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """A game of ``preset`` (with ``options`` overriding the preset's, as ``fogdip variants``
    lists them) as a parallel environment; see the module's text for its spaces and rules.

    ``reset``'s ``options`` are accepted and unused: the game's options are the constructor's,
    so every episode of one environment plays the same variant."""

    def __init__(
        self,
        preset: str = "fog-of-war",
        max_year: int = 1920,
        *,
        reward: Reward = "centres",
        bot_inputs: bool = True,
        **options: Any,
    ) -> None:
        if reward not in ("centres", "score"):
            raise ValueError(f"reward must be 'centres' or 'score', not {reward!r}")
        # An instance's own dict: a class attribute would be one mutable value every game shares.
        self.metadata: dict[str, Any] = {"name": "fogdip_v0", "render_modes": [], "is_parallelizable": True}
        self.preset = preset
        self.max_year = max_year
        self.reward_kind: Reward = reward
        self.bot_inputs = bot_inputs
        self.options = dict(options)
        self.game = Game.create(preset, **self.options)
        self.possible_agents: list[str] = list(self.game.powers)
        self.agents: list[str] = []
        self.render_mode = None
        self.rng = random.Random()
        self._centres: dict[str, int] = {}
        observation = spaces.Dict(
            {
                "turn": spaces.Text(16, min_length=1, charset=string.ascii_uppercase + string.digits),
                "report": spaces.Text(MAX_OBSERVATION_CHARS, min_length=2, charset=JSON_CHARSET),
                "legal": spaces.Text(MAX_OBSERVATION_CHARS, min_length=2, charset=JSON_CHARSET),
            }
        )
        # One space object per agent, kept: the API test asks for the same object every time,
        # and seeding an agent's action space must not seed another's.
        self.observation_spaces = {agent: observation for agent in self.possible_agents}
        self.action_spaces = {
            agent: spaces.Text(MAX_ACTION_CHARS, min_length=0, charset=ORDER_CHARSET) for agent in self.possible_agents
        }

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- episodes -----------------------------------------------------------------------------

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """A new game. ``seed`` seeds :attr:`rng` and each agent's action space (the game
        itself draws nothing at random), so an episode played from them repeats."""
        self.game = Game.create(self.preset, **self.options)
        self.agents = list(self.game.still_in())
        if seed is not None:
            self.rng.seed(seed)
            for number, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + number)
        self._centres = {agent: self._centre_count(agent) for agent in self.possible_agents}
        observations = {agent: self.observe(agent) for agent in self.agents}
        infos = {agent: self._info(agent, (), ()) for agent in self.agents}
        return observations, infos

    def step(
        self, actions: Mapping[str, Action]
    ) -> tuple[
        dict[str, Observation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """File each live agent's action, play the turn, and tell each agent that was live
        what came of it (an agent ended by this step is told once, then leaves ``agents``)."""
        if not self.agents:
            raise RuntimeError("the episode is over: reset the environment")
        filings: dict[str, tuple[tuple[str, ...], tuple[tuple[str, str], ...]]] = {}
        for agent in self.agents:
            filings[agent] = self._file(agent, actions.get(agent, ""))
        self.game.adjudicate()
        live = list(self.agents)
        completed = self.game.position.completed
        still_in = set(self.game.still_in())
        truncated_now = not completed and self.game.position.state.phase.year > self.max_year
        terminated = {agent: completed or agent not in still_in for agent in live}
        truncated = {agent: truncated_now and not terminated[agent] for agent in live}
        ended = completed or truncated_now
        rewards = {agent: self._reward(agent, ended) for agent in live}
        for agent in self.possible_agents:
            self._centres[agent] = self._centre_count(agent)
        observations = {agent: self.observe(agent) for agent in live}
        infos = {agent: self._info(agent, *filings[agent]) for agent in live}
        self.agents = [agent for agent in live if not (terminated[agent] or truncated[agent])]
        return observations, rewards, terminated, truncated, infos

    def observe(self, agent: str) -> Observation:
        """What ``agent`` is told now: see the module's text."""
        report = self.game.latest_report(agent)
        choices = build_choices(self.game.variant, self.game.position, agent, report)
        return {
            "turn": report.next_phase,
            "report": _dumps(observation_to_json(report)),
            "legal": _dumps(choices.as_json()),
        }

    def close(self) -> None:
        """Nothing to release: the game lives in this process's memory."""

    # --- the parts of a step ------------------------------------------------------------------

    def _file(self, agent: str, action: Action | None) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
        """File ``action`` for ``agent`` as a player's filing (the lines the game accepts);
        return the lines filed and the ``(line, reason)`` of each line refused."""
        if action is None:  # an agent given None files nothing, as one given no action
            return (), ()
        texts = action.splitlines() if isinstance(action, str) else list(action)
        lines = [text.strip() for text in texts if text.strip()]
        if not lines:
            return (), ()
        try:
            checks = self.game.file(agent, lines, partial=True)
        except Refusal as refusal:
            # The game refuses a whole filing only for a power it does not know or after its
            # end, neither of which a live agent meets; should it, the agent is told, not raised at.
            return (), tuple((line, refusal.message) for line in lines)
        refused = tuple((check.text, check.error or "") for check in checks if not check.ok)
        return tuple(self.game.filed.get(agent, ())), refused

    def _info(self, agent: str, filed: tuple[str, ...], refused: tuple[tuple[str, str], ...]) -> dict[str, Any]:
        info: dict[str, Any] = {"filed": filed, "refused": refused, "centres": self._centre_count(agent)}
        if self.bot_inputs:
            info["bot_input"] = BotInput.of(self.game, agent)
        return info

    def _centre_count(self, agent: str) -> int:
        return self.game.position.state.center_count(agent)

    def _reward(self, agent: str, ended: bool) -> float:
        if self.reward_kind == "centres":
            return float(self._centre_count(agent) - self._centres[agent])
        return final_score(self.game, agent) if ended else 0.0


def final_score(game: Game, power: str) -> float:
    """``power``'s score if ``game`` stopped now: 1 for a solo winner (0 for the others), else
    its share of the sum of the squares of every power's centres (Russia's 4 of 22 at the
    start: 16 / 70).

    >>> round(final_score(Game.create("standard"), "RUSSIA"), 4)
    0.2286
    """
    state = game.position.state
    winner = solo_winner(state, game.variant.rules)
    if winner is not None:
        return 1.0 if winner == power else 0.0
    squares = {each: state.center_count(each) ** 2 for each in game.powers}
    total = sum(squares.values())
    return squares[power] / total if total else 0.0


def random_legal_lines(observation: Observation, rng: random.Random) -> list[str]:
    """A random filing drawn from an observation's ``legal`` choices alone: one order for
    each unit (hold, move, support, convoy or an extra order), the builds or removals due, one
    placement per centre of a setup. A baseline, and what ``bench/env.py`` plays.

    >>> env = FogdipEnv("fog-of-war")
    >>> observations, _ = env.reset(seed=1)
    >>> lines = random_legal_lines(observations["ENGLAND"], random.Random(2))
    >>> sorted(line.split()[1] for line in lines)
    ['EDI', 'LON', 'LVP']
    """
    legal = json.loads(observation["legal"])
    lines: list[str] = []
    for unit in legal["units"]:
        options = [unit["hold"]] if unit["hold"] else []
        options += [text for texts in unit["moves"].values() for text in texts]
        options += [support[2] for support in unit["supports"]]
        options += [convoy[2] for convoy in unit["convoys"]]
        options += [extra[1] for extra in unit["extras"]]
        if unit["disband"]:
            options.append(unit["disband"])
        if options:
            lines.append(rng.choice(options))
    adjust = legal["adjust"]
    if adjust is not None and adjust["due"] > 0:
        sites = sorted(adjust["sites"])
        for site in rng.sample(sites, min(adjust["due"], len(sites))):
            lines.append(rng.choice(adjust["sites"][site]))
    elif adjust is not None and adjust["due"] < 0:
        removals = sorted(adjust["removals"])
        for province in rng.sample(removals, min(-adjust["due"], len(removals))):
            lines.append(adjust["removals"][province])
    for centre in sorted(legal["setup"]):
        if legal["setup"][centre]:
            lines.append(rng.choice(legal["setup"][centre]))
    return lines


__all__ = [
    "JSON_CHARSET",
    "MAX_ACTION_CHARS",
    "MAX_OBSERVATION_CHARS",
    "ORDER_CHARSET",
    "Action",
    "FogdipEnv",
    "Observation",
    "Reward",
    "final_score",
    "random_legal_lines",
]
