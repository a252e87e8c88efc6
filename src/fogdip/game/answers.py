"""What the table's turn rules answer: a turn played or still waiting, a ready mark's count of
units left without an order, and how many seats are ready.

>>> Played("S1901M", "F1901M", False).played
'S1901M'
>>> ReadyMarked(None, "S1901M", False, unordered=2, bots_thinking=True).bots_thinking
True
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Played:
    """What a ready mark, the game master or a deadline did: the turn played (``None``: it
    still waits), the turn now to play, and whether the game is over."""

    played: str | None
    next: str
    completed: bool


@dataclass(frozen=True)
class ReadyMarked(Played):
    """A ready mark's answer: as :class:`Played`, and how many of the power's units its
    orders leave without one (each will hold, or take the game's default)."""

    unordered: int = 0
    #: Every seat is ready but the bot's still think: the turn is played once they have filed.
    bots_thinking: bool = False


@dataclass(frozen=True)
class ReadyCount:
    ready: int
    of: int


__all__ = ["Played", "ReadyCount", "ReadyMarked"]
