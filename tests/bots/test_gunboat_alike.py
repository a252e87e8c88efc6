"""Issue 22, point 4: in a gunboat game the bot's seats are not told apart by what they file.

A gunboat player does not know which seats a bot plays; an outside review once told them
apart because the bot never filed some kinds of order (retreats, sighting's adjustments filed
ahead, deadman's Spring moves in the Winter and Spring turn). Here gunboat games of every
preset seat the planned bot beside stand-in people (the judge-side random player of
:mod:`fogdip.bots.variant_bot`, which files every kind of line each variant has), and the set
of kinds of order the bot's seats file must cover the people's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from fogdip.bots.base import SETUP, Bot, BotInput, bot_named
from fogdip.bots.variant_bot import random_turn_orders
from fogdip.engine.orders import Build, Convoy, Disband, Hold, Move, Retreat, SupportHold, SupportMove, Waive
from fogdip.game import Game
from fogdip.variants.espionage import DisbandNow, Espionage, Peek
from fogdip.variants.lines import read_line
from fogdip.variants.turn import Variant

PRESETS = ("standard", "fog-of-war", "sighting", "deadman", "diplomyopia", "fog-1898")
#: Games per preset, and the year they are played to (its last turn included).
GAMES, LAST_YEAR = 30, 1908

_EVERY_GAME = frozenset({"hold", "move", "support", "convoy"})
#: Kinds the stand-in people file in every preset's games, beside the movement orders.
VARIANT_KINDS = {
    "standard": _EVERY_GAME | {"build", "removal", "retreat", "disband"},
    "fog-of-war": _EVERY_GAME | {"build", "removal", "retreat", "disband"},
    "sighting": _EVERY_GAME | {"retreat-ahead", "build-ahead", "removal-ahead"},
    "deadman": _EVERY_GAME
    | {"setup", "build", "removal", "retreat", "espionage", "peek", "disband-in-movement", "spring-move"},
    "diplomyopia": _EVERY_GAME | {"build", "removal", "retreat"},
    "fog-1898": _EVERY_GAME | {"setup", "build", "removal", "retreat"},
}

_FIRST = {
    Hold: "hold",
    Move: "move",
    SupportHold: "support",
    SupportMove: "support",
    Convoy: "convoy",
    Retreat: "retreat",
    Build: "build",
    Waive: "waive",
}


def kinds_filed(variant: Variant, kinds: tuple[str, ...], lines: Sequence[str]) -> set[str]:
    """The kinds of order among ``lines`` filed for a turn playing ``kinds``: the first
    sub-phase's own (hold, move, support, convoy; retreat, disband; build, removal, waive),
    the variants' (setup, espionage, peek, disband-in-movement) and those filed ahead
    (retreat-ahead, build-ahead, removal-ahead, conditional, spring-move)."""
    if kinds == (SETUP,):
        return {"setup"} if lines else set()
    out: set[str] = set()
    for text in lines:
        line = read_line(text, kinds, variant.board, variant.options)
        order = line.order
        assert order is not None, (text, line.problem)
        if line.conditional:
            out.add("conditional")
        if isinstance(order, Espionage):
            out.add("espionage")
        elif isinstance(order, Peek):
            out.add("peek")
        elif isinstance(order, DisbandNow):
            out.add("disband-in-movement")
        elif line.kind == kinds[0]:
            if isinstance(order, Disband):
                out.add("removal" if line.kind == "A" else "disband")
            else:
                out.add(_FIRST[type(order)])
        elif line.kind == "R":
            out.add("retreat-ahead")
        elif line.kind == "A":
            out.add("removal-ahead" if isinstance(order, Disband) else "build-ahead")
        else:
            out.add("spring-move")
    return out


def play(preset: str, seed: int, bot: Bot) -> tuple[set[str], set[str]]:
    """One gunboat game of ``preset``: the planned bot on every other seat, people on the
    rest. At every seat and turn both are asked (so that each kind is compared in the same
    situations: a retreat needs a dislodged unit, a removal a centre lost), and the seat's
    own player's lines are filed. The kinds of order each had accepted."""
    game = Game.create(preset, press="gunboat")
    powers = sorted(game.powers)
    bots = {power for index, power in enumerate(powers) if (index + seed) % 2 == 0}
    rng, people_rng = random.Random(seed), random.Random(seed + 1000)
    by_bot: set[str] = set()
    by_people: set[str] = set()
    while not game.position.completed and int(game.turn[1:5]) <= LAST_YEAR:
        people = random_turn_orders(game.variant, game.position, people_rng)
        for power in game.still_in():
            given = BotInput.of(game, power)
            lines = bot.orders(given, rng)
            verdicts = game.screen(power, lines)
            assert [(v.text, v.error) for v in verdicts if v.error] == [], (preset, game.turn, power)
            by_bot |= kinds_filed(game.variant, given.kinds, lines)
            theirs = [v.text for v in game.screen(power, people.get(power, [])) if v.error is None]
            by_people |= kinds_filed(game.variant, given.kinds, theirs)
            game.file(power, lines if power in bots else theirs)
        game.adjudicate()
    return by_bot, by_people


@pytest.mark.slow
@pytest.mark.parametrize("name", ["random", "heuristic"])
@pytest.mark.parametrize("preset", PRESETS)
def test_the_bots_seats_file_every_kind_a_players_seat_does(preset: str, name: str) -> None:
    bot = bot_named(name)
    bots: set[str] = set()
    people: set[str] = set()
    for seed in range(GAMES):
        by_bots, by_people = play(preset, seed, bot)
        bots |= by_bots
        people |= by_people
    # The stand-in files what its variant has (else the comparison would prove nothing)...
    assert VARIANT_KINDS[preset] <= people, sorted(VARIANT_KINDS[preset] - people)
    # ...and so does every bot seat, in the same situations.
    assert people - bots == set(), (preset, sorted(bots), sorted(people))


def test_the_kinds_are_told_apart() -> None:
    """The classification itself: each kind of line is named as the test means it."""
    sighting, deadman = Variant.named("sighting"), Variant.named("deadman")
    assert kinds_filed(sighting, ("M", "R", "A"), ["A PAR - BUR", "A PAR R GAS", "IF A PAR - BUR THEN A PAR B"]) == {
        "move",
        "retreat-ahead",
        "build-ahead",
        "conditional",
    }
    assert kinds_filed(sighting, ("M", "R", "A"), ["F BRE C A PAR - LON", "A MAR D"]) == {"convoy", "removal-ahead"}
    assert kinds_filed(deadman, ("A", "M"), ["A PAR B", "A PAR - BUR", "F BRE E ENGLAND", "PAS RUH", "A MAR DB"]) == {
        "build",
        "spring-move",
        "espionage",
        "peek",
        "disband-in-movement",
    }
    assert kinds_filed(deadman, ("R",), ["A PAR R GAS", "F BRE D"]) == {"retreat", "disband"}
    assert kinds_filed(deadman, ("A",), ["A PAR D", "WAIVE"]) == {"removal", "waive"}
    assert kinds_filed(deadman, (SETUP,), ["F BRE"]) == {"setup"}
