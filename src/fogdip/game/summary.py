"""What a game's page says of the game itself, in brief: the turn to play, the variant, and how
it ended. A table computes it from its game; a store that lists many games gives it from what it
keeps beside each game, without reading the game.

>>> Summary("S1901M", "fog-of-war", None).turn
'S1901M'
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Outcome:
    """How the game ended: ``solo`` and the winner, or ``draw`` and the powers sharing it
    (agreed by vote before the turn ``agreed``); ``revealed``: the variant shows everything
    now."""

    result: str
    powers: tuple[str, ...]
    agreed: str | None
    revealed: bool


@dataclass(frozen=True)
class Summary:
    turn: str
    variant: str
    outcome: Outcome | None


__all__ = ["Outcome", "Summary"]
