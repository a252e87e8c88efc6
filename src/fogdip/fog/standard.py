"""Full information: the ``standard`` preset, where every power sees everything.

Its reports are the complete picture other rule sets cut down; the fog tests use it as the
upper bound of what any observation may contain.
"""

from __future__ import annotations

from fogdip.engine.outcomes import Resolution
from fogdip.engine.state import GameState
from fogdip.fog.observation import Notice, SeenOrder
from fogdip.fog.rules import FogRules, own_notices
from fogdip.fog.sight import full_text


class StandardRules(FogRules):
    """Everyone sees the whole board, every order and every result."""

    name = "standard"
    title = "Standard Diplomacy"
    summary = "no fog: every power sees every unit, order, result and centre"

    def visible_provinces(self, state: GameState, power: str) -> frozenset[str]:
        return frozenset(code for code, province in state.board.provinces.items() if province.passable)

    def orders_seen(self, resolution: Resolution, power: str) -> list[SeenOrder]:
        return [SeenOrder(result.power, full_text(result, resolution.before.board), result.results) for result in resolution.orders]

    def centers_known(self, state: GameState, power: str, visible: frozenset[str]) -> dict[str, str]:
        return dict(state.centers)

    def notices(self, resolution: Resolution, power: str) -> list[Notice]:
        return own_notices(resolution, power, attack_origin=True)
