"""The turn planner files, for every preset, lines the game accepts, an order for every unit."""

from __future__ import annotations

import random

import pytest

from fogdip.bots.base import BotInput
from fogdip.bots.picture import picture_of
from fogdip.bots.planned import PlannedBot
from fogdip.bots.tactics import RandomTactics
from fogdip.game import Game

PRESETS = ("standard", "fog-of-war", "sighting", "deadman", "diplomyopia", "fog-1898")


@pytest.mark.parametrize("preset", PRESETS)
def test_every_line_passes_the_filing_check(preset: str) -> None:
    bot = PlannedBot("planned-random", RandomTactics(), picture_of)
    game, rng = Game.create(preset), random.Random(7)
    while not game.position.completed and int(game.turn[1:5]) < 1904:
        for power in game.still_in():
            lines = bot.orders(BotInput.of(game, power), rng)
            refused = [(v.text, v.error) for v in game.screen(power, lines) if v.error]
            assert refused == [], (preset, game.turn, power)
            game.file(power, lines)
        game.adjudicate()
