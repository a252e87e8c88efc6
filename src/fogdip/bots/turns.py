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
from collections.abc import Callable, Sequence

from fogdip.bots.ahead import AheadOrder, adjustments_ahead, retreat_guesses
from fogdip.bots.base import SETUP, BotInput
from fogdip.bots.extras import MovementOrder, add_extras
from fogdip.bots.picture import Picture
from fogdip.bots.setups import choose_setup, worth_of
from fogdip.bots.tactics import Tactics
from fogdip.engine.orders import Build, Disband, Order, UnitRef
from fogdip.engine.units import Phase, Unit

#: How a planner pictures the board from a bot's input (blind, or with a belief).
PictureFn = Callable[[BotInput], Picture]
#: Anything a turn's list may hold, written with ``str`` only at the end.
PlannedOrder = MovementOrder | AheadOrder | UnitRef


def plan(given: BotInput, tactics: Tactics, picture_fn: PictureFn, rng: random.Random) -> list[str]:
    """The lines ``given.power`` files for ``given.turn``: every phase the turn covers."""
    return [str(order) for order in plan_orders(given, tactics, picture_fn, rng)]


def plan_orders(given: BotInput, tactics: Tactics, picture_fn: PictureFn, rng: random.Random) -> list[PlannedOrder]:
    """:func:`plan`'s orders as values: setup placements (:class:`UnitRef`), engine orders,
    the variants' extra orders and conditional lines filed ahead."""
    kinds = given.kinds
    if not kinds:
        return []
    if kinds[0] == SETUP:
        return list(choose_setup(given, tactics, rng))
    picture = picture_fn(given)
    if kinds[0] == "R":
        return list(tactics.retreats(picture, rng))
    if kinds[0] == "A":
        due, sites = adjustment_due(given)
        winter = list(tactics.adjustments(picture, due, sites, rng)) if due else []
        if kinds[1:] != ("M",):
            return list(winter)
        spring = _spring_after(picture, winter)
        return [*winter, *_movement(given, spring, tactics, rng)]
    out: list[PlannedOrder] = []
    moves = _movement(given, picture, tactics, rng)
    out.extend(moves)
    worth = worth_of(picture, tactics)
    if "R" in kinds[1:]:
        out.extend(retreat_guesses(picture, moves, tactics, worth, rng))
    if "A" in kinds[1:]:
        any_owned = given.variant.options.build_in_any_owned_center
        out.extend(adjustments_ahead(picture, moves, tactics, any_owned, rng))
    return out


def _movement(given: BotInput, picture: Picture, tactics: Tactics, rng: random.Random) -> list[MovementOrder]:
    """One movement's orders, with the extra orders the variant allows where they pay."""
    orders: list[MovementOrder] = list(tactics.movement(picture, rng))
    options = given.variant.options
    if not (options.espionage or options.peek or options.disband_in_movement):
        return orders
    worth = worth_of(picture, tactics)
    last_chance = picture.state.phase.season == "F"
    return add_extras(given, picture, orders, worth, rng, last_chance=last_chance)


def _spring_after(picture: Picture, winter: Sequence[Order]) -> Picture:
    """The picture of the Spring after ``winter``'s builds and removals (deadman's Winter and
    Spring turn: a unit built may be ordered in the same list)."""
    state = picture.state
    units = dict(state.units)
    for order in winter:
        if isinstance(order, Build) and order.unit.kind is not None:
            units[order.unit.province] = Unit(picture.power, order.unit.kind, order.unit.location)
        elif isinstance(order, Disband):
            units.pop(order.unit.province, None)
    spring = Phase("S", state.phase.year + 1, "M")
    return Picture(picture.power, state.with_changes(units=units, phase=spring), {}, picture.presence)


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


__all__ = ["PictureFn", "PlannedOrder", "adjustment_due", "plan", "plan_orders"]
