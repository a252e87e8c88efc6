"""The board as one power pictures it, from its :class:`~fogdip.bots.base.BotInput` alone.

A :class:`Picture` is what a bot reasons on: an engine :class:`~fogdip.engine.state.GameState`
holding the power's own units and the foreign units it sees now, the centres' owners as last
known, the engine phase to play; and ``presence``, a belief over where foreign units stand
(:mod:`fogdip.bots.belief` fills it from ghosts, learned orders and centre counts; a blind
picture holds only what is seen now). ``sample`` draws a whole board consistent with it, for
the search bot.

>>> from fogdip.game import Game
>>> from fogdip.bots.base import BotInput
>>> picture = picture_of(BotInput.of(Game.create("fog-of-war"), "FRANCE"))
>>> str(picture.state.phase), sorted(str(u) for u in picture.state.units_of("FRANCE"))
('S1901M', ['A MAR', 'A PAR', 'F BRE'])
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from fogdip.bots.base import BotInput
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit


@dataclass(frozen=True)
class Picture:
    """The board as ``power`` pictures it now.

    ``state``: the power's own units and the foreign units it sees (owner and type known), the
    centres' last-known owners, the phase to play (``None``-free: a setup turn has no picture).
    ``dislodged``: the power's own units awaiting a retreat, by province (the report's
    ``dislodged`` notices say where the attack came from, where the variant tells it).
    ``presence``: for each province, the expected number of foreign units of each power there
    now (1.0 for a unit seen now), as the belief estimates it; an owner of ``"?"`` is unknown.
    """

    power: str
    state: GameState
    dislodged: Mapping[str, Unit] = field(default_factory=dict)
    presence: Mapping[str, Mapping[str, float]] = field(default_factory=dict)

    def sample(self, rng: random.Random) -> GameState:
        """A whole board consistent with the picture: each believed foreign unit placed with
        its probability (none over a seen or own unit). The blind picture's sample is itself."""
        units = dict(self.state.units)
        for province, owners in sorted(self.presence.items()):
            if province in units:
                continue
            draw = rng.random()
            for owner, chance in sorted(owners.items()):
                if owner != "?" and draw < chance:
                    kind = "A" if self.state.board.can_hold("A", province) else "F"
                    units[province] = Unit(owner, kind, province)  # type: ignore[arg-type]
                    break
                draw -= chance
        return self.state.with_changes(units=units)


def picture_of(given: BotInput) -> Picture:
    """The picture of the power of ``given``: what it sees now, and the centres as last known.
    (The belief over what it does not see is added by :mod:`fogdip.bots.belief`.)"""
    phase = given.phase
    if phase is None:
        raise ValueError(f"{given.turn} has no board to picture: it is a setup turn, or the game is over")
    board = given.variant.board
    units: dict[str, Unit] = {}
    dislodged: dict[str, Unit] = {}
    for seen in given.seen.units:
        if seen.owner is None or seen.kind is None:
            continue
        unit = Unit(seen.owner, seen.kind, seen.location)
        if seen.dislodged:
            if seen.owner == given.power:
                dislodged[seen.province] = unit
            continue
        units[seen.province] = unit
    # The knowledge holds the latest report's centres too: the last owner known of each.
    centers = {center: known.owner for center, known in given.knowledge.centers().items() if known.owner is not None}
    homes = {power: board.home_centers(power) for power in board.powers}
    state = GameState(board, phase, units, centers, homes)
    presence = {
        unit.province: {str(unit.owner): 1.0}
        for unit in given.seen.units
        if unit.owner != given.power and not unit.dislodged
    }
    return Picture(given.power, state, dislodged, presence)


__all__ = ["Picture", "picture_of"]
