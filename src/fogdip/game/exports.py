"""A finished or running game written out whole, for the game master or after the game: as
MILA's saved-game JSON (every engine phase, position and orders, as MILA's tools read them).

The game file keeps each turn's result, not each position, so the game is played again from
its start with the orders filed each turn; the positions reached are checked against the game's
own record on the way.

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
from fogdip.game.service import Game, GameError
from fogdip.interop.mila import saved_game_from_phases


def mila_saved_game(game: Game, game_id: str) -> dict[str, Any]:
    """The game as a MILA saved game: one phase per engine phase played, with its orders. Fog,
    variant orders (espionage, peeks) and reports have no place in MILA's format and are left out."""
    variant = game.variant
    rules = variant.rules
    position = variant.start()
    phases: list[dict[str, Any]] = []
    for turn in game.record.history:
        played = variant.play(position, turn.orders)
        if played.turn != turn.turn:
            raise GameError(f"the game cannot be played again: turn {turn.turn} replays as {played.turn}")
        for resolution in played.resolutions:
            doc = document_from_state(resolution.before, rules)
            orders: dict[str, list[str]] = {}
            for result in resolution.orders:
                if result.unit is not None or result.order.kind != "waive":
                    orders.setdefault(result.power, []).append(str(result.order))
                else:
                    orders.setdefault(result.power, []).append("WAIVE")
            doc["orders"] = orders
            phases.append(doc)
        position = played.position
    phases.append(document_from_state(position.state, rules))
    return saved_game_from_phases(phases, game_id=game_id, rules=rules, metadata={"variant": variant.name})
