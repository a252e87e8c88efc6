"""A finished or running game written out whole, for the game master or after the game: as
MILA's saved-game JSON (every engine phase, position and orders, as MILA's tools read them).

Each turn keeps the engine's record of every phase it played, with the position before it and
the orders given: those are MILA's phases.

>>> from fogdip.game import Game
>>> game = Game.create("standard")
>>> _ = game.file("FRANCE", ["A PAR - BUR"]); _ = game.adjudicate()
>>> saved = mila_saved_game(game, "g1")
>>> [phase["name"] for phase in saved["phases"]]
['S1901M', 'F1901M']
"""

from __future__ import annotations

from typing import Any

from fogdip.codec.positions import document_from_state
from fogdip.game.service import Game
from fogdip.interop.mila import saved_game_from_phases


def mila_saved_game(game: Game, game_id: str) -> dict[str, Any]:
    """The game as a MILA saved game: one phase per engine phase played, with its orders. Fog,
    variant orders (espionage, peeks) and reports have no place in MILA's format and are left out."""
    variant = game.variant
    rules = variant.rules
    phases: list[dict[str, Any]] = []
    for turn in game.record.history:
        for resolution in turn.resolutions:
            doc = document_from_state(resolution.before, rules)
            orders: dict[str, list[str]] = {}
            for result in resolution.orders:
                if result.unit is not None or result.order.kind != "waive":
                    orders.setdefault(result.power, []).append(str(result.order))
                else:
                    orders.setdefault(result.power, []).append("WAIVE")
            doc["orders"] = orders
            phases.append(doc)
    phases.append(document_from_state(game.position.state, rules))
    return saved_game_from_phases(phases, game_id=game_id, rules=rules, metadata={"variant": variant.name})
