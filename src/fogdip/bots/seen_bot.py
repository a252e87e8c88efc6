"""A fair random bot: it plays one power from that power's own latest report, and nothing else.

It rebuilds the board as the power knows it (the units it sees, the centres it knows it holds)
and draws a random legal order for each of its own units. Under fog every order is judged by
the map alone, so the units it cannot see would not change what is legal; in the standard game
it sees everything anyway. Its lines are filed like a player's (``Game.file``), and a line the
game refuses is simply not filed: the power then holds, or gets the game's defaults.

>>> from fogdip.game import Game
>>> game = Game.create("fog-of-war")
>>> lines = bot_lines(game.variant, game.view("FRANCE").reports[-1], random.Random(1))
>>> len(lines), sorted(line.split()[1] for line in lines)
(3, ['BRE', 'MAR', 'PAR'])
"""

from __future__ import annotations

import random

from fogdip.bots.random_bot import random_orders
from fogdip.engine.state import GameState
from fogdip.engine.units import Phase, Unit
from fogdip.fog.observation import Observation
from fogdip.variants import Variant


def known_state(variant: Variant, seen: Observation) -> GameState | None:
    """The position as the power knows it before its next phase: the units it sees (with owner
    and type known) and the centres it knows it holds; ``None`` where there is no phase to play."""
    if seen.next_phase == "COMPLETED":
        return None
    try:
        phase = Phase.parse(seen.next_phase)
    except ValueError:
        return None  # a setup before the first phase: the variant's defaults choose
    board = variant.board
    units: dict[str, Unit] = {}
    for unit in seen.units:
        if unit.owner is not None and unit.kind is not None and not unit.dislodged:
            units[unit.province] = Unit(unit.owner, unit.kind, unit.location)
    centers = {center: owner for center, owner in seen.centers if owner == seen.power}
    homes = {power: board.home_centers(power) for power in board.powers}
    return GameState(board, phase, units, centers, homes)


def bot_lines(variant: Variant, seen: Observation, rng: random.Random) -> list[str]:
    """Random legal order lines for the power of ``seen``, from ``seen`` alone. Retreats are
    left to the game's defaults: the retreat options are the game's to compute."""
    state = known_state(variant, seen)
    if state is None or state.phase.kind == "R":
        return []
    chosen = random_orders(state, variant.rules, rng).get(seen.power, [])
    return [str(order) for order in chosen]
