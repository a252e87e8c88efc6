"""The turn planner: what a bot files for each turn of each preset, as a player would.

:func:`plan` asks a :class:`~fogdip.bots.tactics.Tactics` for each engine phase the turn
covers (``given.kinds``) and writes the lines the variant wants. Lines are engine orders (or
typed placements) until the very end, where they are written with ``str``.

>>> import random
>>> from fogdip.game import Game
>>> from fogdip.bots.base import BotInput
>>> from fogdip.bots.picture import picture_of
>>> from fogdip.bots.tactics import RandomTactics
>>> given = BotInput.of(Game.create("standard"), "FRANCE")
>>> lines = plan(given, RandomTactics(), picture_of, random.Random(1))
>>> sorted(line.split()[1] for line in lines)
['BRE', 'MAR', 'PAR']
"""

from __future__ import annotations

import random
from collections.abc import Callable

from fogdip.bots.base import SETUP, BotInput
from fogdip.bots.picture import Picture
from fogdip.bots.tactics import Tactics
from fogdip.engine.orders import Order
from fogdip.variants import setup as setups

#: How a planner pictures the board from a bot's input (blind, or with a belief).
PictureFn = Callable[[BotInput], Picture]


def plan(given: BotInput, tactics: Tactics, picture_fn: PictureFn, rng: random.Random) -> list[str]:
    """The lines ``given.power`` files for ``given.turn``: every phase the turn covers."""
    kinds = given.kinds
    if not kinds:
        return []
    if kinds[0] == SETUP:
        return _default_setup(given)
    picture = picture_fn(given)
    orders: list[Order]
    if kinds[0] == "M":
        orders = tactics.movement(picture, rng)
    elif kinds[0] == "R":
        orders = tactics.retreats(picture, rng)
    else:
        due, sites = adjustment_due(given)
        orders = tactics.adjustments(picture, due, sites, rng) if due else []
    return [str(order) for order in orders]


def adjustment_due(given: BotInput) -> tuple[int, tuple[str, ...]]:
    """How many units ``given.power`` builds (positive) or removes (negative) this Winter,
    and the centres it may build in: from the report's ``adjustments`` notice, or else its
    own centres against its own units."""
    for notice in given.seen.notices_of("adjustments"):
        try:
            due, sites = notice.get("due"), notice.get("sites")
        except KeyError:
            continue
        if isinstance(due, int) and isinstance(sites, tuple):
            return due, tuple(str(site) for site in sites)
    return _own_due(given)


def _own_due(given: BotInput) -> tuple[int, tuple[str, ...]]:
    board = given.variant.board
    centers = given.own_centers
    units = [unit for unit in given.own_units if not unit.dislodged]
    due = len(centers) - len(units)
    occupied = {unit.province for unit in given.seen.units}
    allowed = centers if given.variant.options.build_in_any_owned_center else board.home_centers(given.power)
    sites = tuple(sorted(c for c in allowed if c in centers and c not in occupied))
    return due, sites


def _default_setup(given: BotInput) -> list[str]:
    setup = given.variant.options.setup
    return [
        str(unit.kind) + " " + unit.location for unit in setups.default_units(given.power, setup, given.variant.board)
    ]
