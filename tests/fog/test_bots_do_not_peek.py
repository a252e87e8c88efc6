"""No peeking, for bots: two worlds that differ only in what a power cannot see give its bot
the same input, and, with the same seed, the bot files the same orders there. Every bot, every
fog preset, on the turn-level no-leak harness's games (``test_no_leaks.py``): a game of one
turn (or two) played twice, the second time with one foreign unit the power cannot see changed
(added, removed, moved, retyped, ordered otherwise), kept only where the power's reports come
out equal, as the fog's own property shows they must.

A bot that read anything but its input (the game, the position, another power's report, a
global) could tell the two worlds apart; so could one whose choices hung on the order a
``set`` of strings iterates in, which differs between processes: that is checked by playing
the same inputs in a second process with another hash seed.
"""

from __future__ import annotations

import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from test_no_leaks import FOG_PRESETS, VARIANTS, contact_zone, discard_reason, revealed, turn_leak

from fogdip.bots.base import Bot, BotInput, bot_named, bot_names
from fogdip.bots.belief import believe
from fogdip.bots.planned import PlannedBot
from fogdip.bots.search import Search
from fogdip.game import Game
from fogdip.variants import PRESETS

from turn_strategies import TurnCase, hidden_changes

#: Fewer examples than the fog's own property: each plays every bot twice.
PEEKING = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)


def quick_bot(name: str) -> Bot:
    """The bot by its name; the search with few samples, so that an example stays quick (its
    inputs, not its settings, are what the property is about), and no time cap: a cap met on
    a busy machine, and not on a quiet one, would change its orders."""
    if name == "search":
        return PlannedBot("search", Search(samples=3, candidates=8, budget=600.0), believe)
    return bot_named(name)


def inputs(case: TurnCase) -> tuple[BotInput, BotInput] | None:
    """The power's input after each game's turns (the turns both games played, before a game
    over that reveals everything); ``None`` when the game is over for it."""
    played = min(len(case.first.turns), len(case.second.turns))
    while played and revealed(case, played - 1):
        played -= 1
    if not played:
        return None
    made = []
    for game in (case.first, case.second):
        reports = [turn.result.observations[case.power] for turn in game.turns[:played]]
        made.append(BotInput.from_reports(case.variant, case.power, reports))
    if made[0].over:
        return None
    return made[0], made[1]


def dumped(given: BotInput) -> str:
    """The input as bytes to compare: every report, field by field, and the knowledge."""
    return repr((given.power, given.reports, given.knowledge.ghosts(), given.knowledge.centers()))


@pytest.mark.slow
@pytest.mark.parametrize("preset", FOG_PRESETS)
@PEEKING
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_a_bot_files_the_same_orders_in_worlds_its_power_cannot_tell_apart(
    preset: str, data: st.DataObject, seed: int
) -> None:
    case = data.draw(hidden_changes(VARIANTS[preset], contact_zone), label="case")
    if case is None or discard_reason(case) is not None or turn_leak(case) is not None:
        event("discarded: no hidden change to compare")
        assume(False)
        return
    both = inputs(case)
    if both is None:
        assume(False)
        return
    one, two = both
    assert dumped(one) == dumped(two)  # the fog's property: the same reports, the same knowledge
    event(f"compared {one.kinds}")
    for name in bot_names():
        bot = quick_bot(name)
        first, second = bot.orders(one, random.Random(seed)), bot.orders(two, random.Random(seed))
        assert first == second, f"{name} tells the worlds apart ({case.change}): {first} against {second}"


def _played(preset: str, turns: int) -> list[BotInput]:
    """Every power's input at each of a game's first turns, seven random bots playing it."""
    game, rng, out = Game.create(preset), random.Random(preset), []
    for _ in range(turns):
        if game.position.completed:
            break
        for power in game.still_in():
            given = BotInput.of(game, power)
            out.append(given)
            game.file(power, bot_named("random").orders(given, rng), partial=True)
        game.adjudicate()
    return out


def _orders_of(inputs: list[BotInput], names: list[str]) -> list[list[str]]:
    return [quick_bot(name).orders(given, random.Random(index)) for name in names for index, given in enumerate(inputs)]


def test_a_bot_files_the_same_orders_whatever_order_sets_iterate_in(tmp_path: Path) -> None:
    """The same inputs played in this process and in another with its own hash seed (so every
    ``set`` of strings iterates in another order) give every bot the same orders."""
    inputs_ = [given for preset in sorted(PRESETS) for given in _played(preset, 4)]
    names = list(bot_names())
    here = _orders_of(inputs_, names)
    saved = tmp_path / "inputs.pickle"
    saved.write_bytes(pickle.dumps((inputs_, names)))
    script = (
        "import json, pickle, sys\n"
        "from test_bots_do_not_peek import _orders_of\n"
        "inputs, names = pickle.loads(open(sys.argv[1], 'rb').read())\n"
        "print(json.dumps(_orders_of(inputs, names)))\n"
    )
    paths = [str(Path(__file__).parent), str(Path(__file__).parents[1]), *sys.path]
    env = {**os.environ, "PYTHONHASHSEED": "12345" if os.environ.get("PYTHONHASHSEED") != "12345" else "54321"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    done = subprocess.run(
        [sys.executable, "-c", script, str(saved)], env=env, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout) == here
