"""Full information: the ``standard`` preset, where every power sees everything.

Its reports are the complete picture other rule sets cut down; the fog tests use it as the
upper bound of what any observation may contain.
"""

from __future__ import annotations

from fogdip.engine.outcomes import Resolution
from fogdip.engine.state import GameState
from fogdip.fog.observation import Notice, SeenOrder
from fogdip.fog.rules import FogRules, own_notices
from fogdip.fog.sight import record_facts


class StandardRules(FogRules):
    """Everyone sees the whole board, every order and every result."""

    name = "standard"
    title = "Standard Diplomacy"
    summary = "no fog: every power sees every unit, order, result and centre"
    needs_map_legality = False
    sees_every_neighbour = True

    def visible_provinces(self, state: GameState, power: str) -> frozenset[str]:
        return state.board.passable_provinces

    def orders_seen(self, resolution: Resolution, power: str) -> list[SeenOrder]:
        return list(record_facts(resolution).full_orders)

    def centers_known(self, state: GameState, power: str, visible: frozenset[str]) -> dict[str, str]:
        return dict(state.centers)

    def notices(self, resolution: Resolution, power: str) -> list[Notice]:
        return own_notices(resolution, power, attack_origin=True)
