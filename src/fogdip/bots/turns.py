"""The turn planner: what a bot files for each turn of each preset, as a player would.

:func:`plan` asks a :class:`~fogdip.bots.tactics.Tactics` for each engine phase the turn
covers (``given.kinds``) and writes the lines the variant wants. Lines are engine orders (or
typed placements) until the very end, where they are written with ``str``.

- ``("setup",)``: :mod:`fogdip.bots.setups` (deadman's free setup, the 1898 start);
- ``("M",)``: the tactics' moves, an idle army and fleet put to a convoy where it pays, and
  the variant's extra orders (:mod:`fogdip.bots.extras`);
- ``("R",)``: the tactics' retreats, kept off the places the report rules out (the attack's
  origin where told, stand-offs seen), a dislodged unit disbanded where a removal is owed
  anyway or, after a Fall, where it would retreat far from home and can be built again;
- ``("A",)``: the tactics' builds or removals, as many as the report's ``adjustments``
  notice says are due, on the sites it names;
- sighting's ``("M", "R")``/``("M", "R", "A")``: the movement, then retreat guesses and the
  Winter's builds and removals filed ahead, conditional on the power's own moves
  (:mod:`fogdip.bots.ahead`);
- deadman's ``("A", "M")``: the Winter's adjustments, then the Spring's movement for every
  unit the power will have, those just built included (the preset allows ordering them).

Readings chosen: the Spring's espionage allowance is the Spring's year's; an espionage is
given by a unit the tactics left holding, except on the year's last movement, where a unit
only supporting may spy instead; a centre entered in a season that does not capture it
counts a little less than in one that does.

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
from collections.abc import Callable, Mapping, Sequence

from fogdip.bots.ahead import AheadOrder, adjustments_ahead, retreat_guesses
from fogdip.bots.base import SETUP, BotInput
from fogdip.bots.extras import MovementOrder, add_convoys, add_extras
from fogdip.bots.picture import Picture
from fogdip.bots.setups import choose_setup, worth_of
from fogdip.bots.tactics import Tactics
from fogdip.engine.orders import Build, Disband, Order, Retreat, UnitRef
from fogdip.engine.units import Phase, Unit
from fogdip.fog.masked import OrderKind

#: Provinces from the nearest home centre at which a retreat is worth less than a new build.
_FAR_FROM_HOME = 3
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
        retreats = _within_bars(given, picture, tactics.retreats(picture, rng), tactics)
        any_owned = given.variant.options.build_in_any_owned_center
        return list(_surplus_disbanded(picture, retreats, any_owned_center=any_owned))
    if kinds[0] == "A":
        due, sites = adjustment_due(given)
        winter = list(tactics.adjustments(picture, due, sites, rng)) if due else []
        if kinds[1:] != ("M",):
            return list(winter)
        spring = _spring_after(picture, winter)
        return [*winter, *_movement(given, spring, tactics, _worth_if_asked(given, spring, tactics), rng)]
    out: list[PlannedOrder] = []
    worth = _worth_if_asked(given, picture, tactics)
    moves = _movement(given, picture, tactics, worth, rng)
    out.extend(moves)
    if "R" in kinds[1:]:
        out.extend(retreat_guesses(picture, moves, worth))
    if "A" in kinds[1:]:
        any_owned = given.variant.options.build_in_any_owned_center
        out.extend(adjustments_ahead(picture, moves, tactics, any_owned, rng))
    return out


def _has_extras(given: BotInput) -> bool:
    options = given.variant.options
    return options.espionage or options.peek or options.disband_in_movement


def _worth_if_asked(given: BotInput, picture: Picture, tactics: Tactics) -> Mapping[str, float]:
    """The provinces' worth, where the turn has a use for it (extra orders, orders filed
    ahead): the tactics' values are asked for once a turn, and only then."""
    if _has_extras(given) or len(given.kinds) > 1:
        return worth_of(picture, tactics, captures_now=captures_now(given, picture))
    return {}


def captures_now(given: BotInput, picture: Picture) -> bool:
    """Whether a centre entered in the picture's season changes hands at its end: in a Fall,
    and in a Spring where the variant's ``captures_any_season`` says so (diplomyopia)."""
    return picture.state.phase.season == "F" or given.variant.options.captures_any_season


def _movement(
    given: BotInput, picture: Picture, tactics: Tactics, worth: Mapping[str, float], rng: random.Random
) -> list[MovementOrder]:
    """One movement's orders, with the extra orders the variant allows where they pay."""
    orders: list[MovementOrder] = list(tactics.movement(picture, rng))
    orders = add_convoys(
        picture, orders, lambda: worth or worth_of(picture, tactics, captures_now=captures_now(given, picture))
    )
    if not _has_extras(given):
        return orders
    last_chance = picture.state.phase.season == "F"
    return add_extras(given, picture, orders, worth, rng, last_chance=last_chance)


def expected_centers(picture: Picture) -> int:
    """How many centres the power will hold once the season is over: those it holds and
    those its units stand in, less its own that a foreign unit stands in (seen, or known to
    be there: the one that dislodged its unit, blind as the game may be)."""
    state, power = picture.state, picture.power
    held = {center for center, owner in state.centers.items() if owner == power}
    standing = {unit.province for unit in state.units_of(power)} & set(state.board.supply_centers)
    occupied = {p for p, unit in state.units.items() if unit.power != power and p in held}
    occupied |= held & set(picture.dislodged)
    return len((held | standing) - occupied)


def retreat_bars(given: BotInput, picture: Picture) -> dict[str, frozenset[str]]:
    """For each own dislodged unit's province, the provinces its report says it may not
    retreat to: where the attack came from (where the variant tells it), and every province
    a move it sees failed to enter that no unit stands in now (a stand-off)."""
    board = picture.state.board
    standing = {unit.province for unit in given.seen.units}
    stand_offs = {
        board.province_of(str(seen.order.target))
        for seen in given.seen.orders
        if seen.order.kind == OrderKind.MOVE
        and seen.result is not None
        and not seen.result.succeeded
        and isinstance(seen.order.target, str)
    } - standing
    origins: dict[str, set[str]] = {}
    for notice in given.seen.notices_of("dislodged"):
        data = dict(notice.data)
        province, origin = data.get("province"), data.get("attacked_from")
        if isinstance(province, str) and isinstance(origin, str):
            origins.setdefault(province, set()).add(board.province_of(origin))
    return {province: frozenset(stand_offs | origins.get(province, set())) for province in picture.dislodged}


def _within_bars(given: BotInput, picture: Picture, retreats: Sequence[Order], tactics: Tactics) -> list[Order]:
    """The tactics' retreats, each moved to the best place left (or disbanded) where it names
    a place the report rules out."""
    board, occupied = picture.state.board, set(picture.state.units)
    bars = retreat_bars(given, picture)
    worth: Mapping[str, float] = {}
    out: list[Order] = []
    for order in retreats:
        barred = bars.get(order.unit.province, frozenset()) if isinstance(order, Retreat) else frozenset()
        if not isinstance(order, Retreat) or board.province_of(order.target) not in barred:
            out.append(order)
            continue
        unit = picture.dislodged.get(order.unit.province)
        if unit is None:  # not a unit the picture knows to be dislodged: left to the game
            out.append(order)
            continue
        worth = worth or worth_of(picture, tactics, captures_now=captures_now(given, picture))
        places = [
            target
            for target in sorted(board.targets(unit.kind, unit.location))
            if (province := board.province_of(target)) not in occupied and province not in barred
        ]
        best = max(places, key=lambda target: worth.get(board.province_of(target), 0.0), default=None)
        out.append(Disband(order.unit) if best is None else Retreat(order.unit, best))
    return out


def _surplus_disbanded(picture: Picture, retreats: Sequence[Order], *, any_owned_center: bool) -> list[Order]:
    """Dislodged units disbanded rather than retreated, as a player would:

    - a unit the power could not keep through the next Winter (more units than the centres it
      expects to hold): a removal would be owed anyway, and the unit just thrown out is the
      worst placed;
    - after a Fall, a unit whose retreat leaves it far from home while a centre it may build
      in stands free and the build would be its own (no more units than centres): disbanded
      and built again at home in the Winter."""
    if not picture.dislodged:
        return list(retreats)
    state, board = picture.state, picture.state.board
    units = len(state.units_of(picture.power)) + len(picture.dislodged)
    centers = expected_centers(picture)
    surplus = units - centers
    held = sorted(c for c, owner in state.centers.items() if owner == picture.power)
    homes = held if any_owned_center else [c for c in state.homes.get(picture.power, ()) if c in held]
    free_sites = [c for c in homes if c not in state.units]
    near_home = board.distances_from(tuple(homes)) if homes else {}
    # A retreat into a centre the power does not hold takes it after a Fall: never given up.
    gains = frozenset(board.supply_centers) - set(held)
    out: list[Order] = []
    for order in retreats:
        if isinstance(order, Retreat) and surplus > 0:
            out.append(Disband(order.unit))
            surplus -= 1
        elif (
            isinstance(order, Retreat)
            and state.phase.season == "F"
            and free_sites
            and units <= centers
            and near_home.get(board.province_of(order.target), 99) >= _FAR_FROM_HOME
            and board.province_of(order.target) not in gains
        ):
            out.append(Disband(order.unit))
            free_sites.pop()
        else:
            out.append(order)
    return out


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


__all__ = [
    "PictureFn",
    "PlannedOrder",
    "adjustment_due",
    "captures_now",
    "expected_centers",
    "plan",
    "plan_orders",
    "retreat_bars",
]
