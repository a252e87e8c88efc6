"""The JSON form of a power's view of its game (:class:`fogdip.game.PowerView`): what
``fogdip gm show --json`` prints and, next, what the server sends a player.

>>> from fogdip.game import Game
>>> game = Game.create("fog-of-war")
>>> data = power_view_to_json(game.view("FRANCE"))
>>> sorted(data)
['filed', 'knowledge', 'next_turn', 'power', 'reports', 'revealed_history']
>>> PowerViewJSON.model_validate(data).reports[0].phase
'S1901M'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from fogdip.codec.observations import KnowledgeJSON, ObservationJSON, knowledge_to_json, observation_to_json

if TYPE_CHECKING:
    from fogdip.game.service import PowerView


class RevealedOrderJSON(BaseModel):
    """One unit's order in a revealed turn: its power, the order and the result words."""

    model_config = ConfigDict(extra="ignore")

    power: str | None
    order: str
    result: list[str]


class RevealedTurnJSON(BaseModel):
    model_config = ConfigDict(extra="ignore")

    turn: str
    orders: dict[str, RevealedOrderJSON]


class PowerViewJSON(BaseModel):
    """A power's view: its reports (the opening one first), what it knows, the lines it has
    filed for the next turn, and every turn's orders once the game is over in a variant that
    reveals them (``null`` before)."""

    model_config = ConfigDict(extra="ignore")

    power: str
    next_turn: str
    filed: list[str]
    reports: list[ObservationJSON]
    knowledge: KnowledgeJSON
    revealed_history: list[RevealedTurnJSON] | None


def power_view_to_json(view: PowerView) -> dict[str, Any]:
    return {
        "power": view.power,
        "next_turn": view.next_turn,
        "filed": list(view.filed),
        "reports": [observation_to_json(seen) for seen in view.reports],
        "knowledge": knowledge_to_json(view.knowledge),
        "revealed_history": None if view.revealed_history is None else list(view.revealed_history),
    }


__all__ = ["PowerViewJSON", "RevealedOrderJSON", "RevealedTurnJSON", "power_view_to_json"]
