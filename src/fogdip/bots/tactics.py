"""How a bot chooses within one engine phase, on its :class:`~fogdip.bots.picture.Picture`.

A :class:`Tactics` is the part of a bot that knows Diplomacy: which provinces are worth what,
which moves to make, where to retreat, what to build or remove. The turn planner
(:mod:`fogdip.bots.turns`) asks it for each phase a turn covers and writes the lines each
variant wants (setups, extra orders, orders filed ahead). :class:`RandomTactics` is the
baseline: legal at random.

>>> from fogdip.game import Game
>>> from fogdip.bots.base import BotInput
>>> from fogdip.bots.picture import picture_of
>>> picture = picture_of(BotInput.of(Game.create("standard"), "FRANCE"))
>>> orders = RandomTactics().movement(picture, random.Random(2))
>>> sorted(str(order.unit) for order in orders)
['A MAR', 'A PAR', 'F BRE']
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from fogdip.bots.picture import Picture
from fogdip.bots.random_bot import random_orders
from fogdip.engine.map import UnitKind
from fogdip.engine.orders import Build, Disband, Order, Retreat, UnitRef
from fogdip.engine.rules import Rules


class Tactics(Protocol):
    """One phase's choices for ``picture.power``, as engine orders."""

    def values(self, picture: Picture) -> Mapping[str, float]:
        """How much each province is worth to the power now (higher: better to move to, or
        to hold): what the planner weighs extra orders by."""
        ...

    def movement(self, picture: Picture, rng: random.Random) -> list[Order]:
        """One order for each of the power's units in ``picture.state`` (a movement phase)."""
        ...

    def retreats(self, picture: Picture, rng: random.Random) -> list[Order]:
        """A retreat (or disband) for each unit of ``picture.dislodged``; where it may go is
        the picture's to guess (the variant's report may not list the options)."""
        ...

    def adjustments(self, picture: Picture, due: int, sites: Sequence[str], rng: random.Random) -> list[Order]:
        """``due`` builds on ``sites`` (free centres the power may build in), or ``-due``
        removals of its own units."""
        ...


@dataclass(frozen=True)
class RandomTactics:
    """Legal at random: the baseline, and the random bot's choices."""

    rules: Rules | None = None

    def values(self, picture: Picture) -> Mapping[str, float]:
        return dict.fromkeys(picture.state.board.provinces, 0.0)

    def movement(self, picture: Picture, rng: random.Random) -> list[Order]:
        rules = self.rules or _map_rules()
        return list(random_orders(picture.state, rules, rng).get(picture.power, []))

    def retreats(self, picture: Picture, rng: random.Random) -> list[Order]:
        board, occupied = picture.state.board, set(picture.state.units)
        out: list[Order] = []
        for province in sorted(picture.dislodged):
            unit = picture.dislodged[province]
            places = sorted(p for p in board.targets(unit.kind, unit.location) if board.province_of(p) not in occupied)
            ref = UnitRef(unit.kind, unit.location)
            out.append(Retreat(ref, rng.choice(places)) if places else Disband(ref))
        return out

    def adjustments(self, picture: Picture, due: int, sites: Sequence[str], rng: random.Random) -> list[Order]:
        state = picture.state
        if due < 0:
            own = sorted(state.units_of(picture.power), key=lambda unit: unit.province)
            return [Disband(UnitRef(unit.kind, unit.location)) for unit in rng.sample(own, min(-due, len(own)))]
        out: list[Order] = []
        for site in rng.sample(list(sites), min(due, len(sites))):
            kinds: list[UnitKind] = [kind for kind in ("A", "F") if state.board.can_hold(kind, site)]
            kind = rng.choice(kinds)
            coasts = state.board.coasts(site) if kind == "F" else ()
            out.append(Build(UnitRef(kind, rng.choice(coasts) if coasts else site)))
        return out


def _map_rules() -> Rules:
    from fogdip.engine.rules import get_rules

    # Judged by the map alone: a picture's unseen units must not decide what is legal.
    return get_rules().with_options(legality="map")


__all__ = ["RandomTactics", "Tactics"]
