"""A bot made of a :class:`~fogdip.bots.tactics.Tactics` and a way to picture the board,
played through the turn planner (:mod:`fogdip.bots.turns`) so that it files every phase of
every preset as a player would. ``PlannedBot("random", RandomTactics(), picture_of)`` is the
random baseline that plays every phase; a stronger bot brings its own tactics and picture
(its belief over what it cannot see).

>>> import random
>>> from fogdip.game import Game
>>> from fogdip.bots.base import BotInput
>>> from fogdip.bots.picture import picture_of
>>> from fogdip.bots.tactics import RandomTactics
>>> bot = PlannedBot("planned-random", RandomTactics(), picture_of)
>>> lines = bot.orders(BotInput.of(Game.create("fog-of-war"), "ENGLAND"), random.Random(4))
>>> sorted(line.split()[1] for line in lines)
['EDI', 'LON', 'LVP']
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from fogdip.bots.base import BotInput
from fogdip.bots.tactics import Tactics
from fogdip.bots.turns import PictureFn, plan

#: Tactics chosen for each input, from the variant's public options (the search's seasons).
TacticsFor = Callable[[BotInput], Tactics]


@dataclass(frozen=True)
class PlannedBot:
    """A :class:`~fogdip.bots.base.Bot` that plans each turn with ``tactics`` (or the tactics
    ``tactics`` chooses for the input) on the board ``picture`` draws from its input."""

    name: str
    tactics: Tactics | TacticsFor
    picture: PictureFn

    def orders(self, given: BotInput, rng: random.Random) -> list[str]:
        tactics = self.tactics(given) if callable(self.tactics) else self.tactics
        return plan(given, tactics, self.picture, rng)


__all__ = ["PlannedBot", "TacticsFor"]
