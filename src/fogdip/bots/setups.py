"""A setup turn's choice: which unit type stands on which starting centre.

Deadman's free setup (``setup="free"``) lets each power choose the type of the unit on every
home centre, and nobody learns the choice; the 1898 start gives one centre and the type is the
power's choice. A player makes the choice that covers the most worth: fleets where the seas
and coastal centres matter, armies where the land does, units that reach different places
rather than the same ones. Under free setup the standard start is never chosen: the standard
start is exactly what the other powers would assume, and a blind game rewards not being
where one is assumed to be.

The worth of a province comes from the tactics' ``values`` on a picture of the opening board
(only public facts: the map and the starting centres' owners), with a base every province has
(a centre not yet owned counts most), so that even tactics that value nothing choose sensibly.

>>> import random
>>> from fogdip.game import Game
>>> from fogdip.bots.base import BotInput
>>> from fogdip.bots.tactics import RandomTactics
>>> given = BotInput.of(Game.create("deadman"), "ENGLAND")
>>> placed = choose_setup(given, RandomTactics(), random.Random(1))
>>> sorted(str(unit) for unit in placed) != ["A LVP", "F EDI", "F LON"]
True
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence

from fogdip.bots.base import BotInput
from fogdip.bots.picture import Picture
from fogdip.bots.tactics import Tactics
from fogdip.engine.map import Map, UnitKind
from fogdip.engine.orders import UnitRef
from fogdip.engine.units import Phase
from fogdip.variants import setup as setups

#: The base worth of a supply centre the power does not hold, of one it holds, of any other
#: province: what a province is worth before the tactics say more.
_FOREIGN_CENTER, _OWN_CENTER, _PROVINCE = 1.0, 0.3, 0.15
#: How much a foreign centre counts in a season that does not capture it.
_NOT_YET = 0.7
#: How much a province two moves away counts against one move away.
_SECOND_RING = 0.5
#: How much a second unit reaching a province adds (it may support the first).
_SUPPORT = 0.3


def opening_picture(given: BotInput) -> Picture:
    """The board before anyone places a unit, as everyone knows it: no units, the starting
    centres' owners, the first movement phase to come."""
    board = given.variant.board
    start = setups.setup_start(given.variant.options.setup, board)
    state = start.with_changes(phase=Phase("S", board.first_year, "M"))
    return Picture(given.power, state)


def unit_choices(board: Map, center: str) -> list[UnitRef]:
    """Every unit that may start on ``center``: an army, a fleet on each coast.

    >>> from fogdip.engine.map import standard_map
    >>> [str(unit) for unit in unit_choices(standard_map(), "STP")]
    ['A STP', 'F STP/NC', 'F STP/SC']
    """
    out: list[UnitRef] = []
    if board.can_hold("A", center):
        out.append(UnitRef("A", center))
    for coast in board.coasts(center) or (center,):
        if board.can_hold("F", coast):
            out.append(UnitRef("F", coast))
    return out


def choose_setup(given: BotInput, tactics: Tactics, rng: random.Random) -> list[UnitRef]:
    """The units ``given.power`` places, one per starting centre it must fill."""
    board, setup = given.variant.board, given.variant.options.setup
    picture = opening_picture(given)
    centers = sorted(setups.start_centers(picture.state, given.power, setup))
    wanted = len(setups.default_units(given.power, setup, board))
    centers = centers[:wanted] if setup == "1898" else centers
    worth = worth_of(picture, tactics)
    standard = frozenset((unit.kind, unit.location) for unit in setups.default_units(given.power, setup, board))
    scored: list[tuple[float, tuple[UnitRef, ...]]] = []
    for combo in itertools.product(*(unit_choices(board, center) for center in centers)):
        if setup == "free" and frozenset((u.kind, u.location) for u in combo) == standard:
            continue
        # A little noise: equally good setups are drawn, not always the same one.
        scored.append((_coverage(board, combo, worth) * (1.0 + 0.12 * rng.random()), combo))
    if not scored:  # one centre with one possible unit: nothing to choose
        return [UnitRef(unit.kind, unit.location) for unit in setups.default_units(given.power, setup, board)]
    best = max(scored, key=lambda item: item[0])
    return list(best[1])


def worth_of(picture: Picture, tactics: Tactics, *, captures_now: bool = True) -> Mapping[str, float]:
    """What each province is worth to ``picture.power``: a base (a centre it does not hold
    most, one it holds less, any other province a little) plus the tactics' values scaled to
    at most 1, so that tactics that value nothing still rank sensibly. ``captures_now``: a
    centre entered this season changes hands (a Fall, or any season where the variant's
    ``captures_any_season`` says so); otherwise a foreign centre counts a little less, as it
    must still be held into the Fall."""
    state = picture.state
    values = tactics.values(picture)
    top = max((abs(value) for value in values.values()), default=0.0) or 1.0
    worth: dict[str, float] = {}
    centers = frozenset(state.board.supply_centers)
    for province in sorted(state.board.provinces):
        if province in centers:
            foreign = _FOREIGN_CENTER if captures_now else _FOREIGN_CENTER * _NOT_YET
            base = _OWN_CENTER if state.centers.get(province) == picture.power else foreign
        else:
            base = _PROVINCE
        worth[province] = base + values.get(province, 0.0) / top
    return worth


def _reach(board: Map, kind: UnitKind, location: str) -> dict[str, float]:
    """Province -> how well a unit there reaches it (1 in one move, ``_SECOND_RING`` in two)."""
    first = board.reachable_provinces(kind, location)
    out = dict.fromkeys(first, 1.0)
    for target in sorted(board.targets(kind, location)):
        for province in board.reachable_provinces(kind, target):
            out.setdefault(province, _SECOND_RING)
    return out


def _coverage(board: Map, combo: Sequence[UnitRef], worth: Mapping[str, float]) -> float:
    best: dict[str, float] = {}
    extra: dict[str, float] = {}
    for unit in combo:
        assert unit.kind is not None
        for province, factor in _reach(board, unit.kind, unit.location).items():
            low, high = sorted((best.get(province, 0.0), factor))
            best[province] = high
            extra[province] = extra.get(province, 0.0) + low
    return sum(worth.get(p, 0.0) * (best[p] + _SUPPORT * min(extra[p], 1.0)) for p in sorted(best))


__all__ = ["choose_setup", "opening_picture", "unit_choices", "worth_of"]
