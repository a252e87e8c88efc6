"""What a game keeps between turns, whatever stores it: the next position, the orders filed
for it, every turn played with each power's report, and each power's knowledge.

Reports are kept in the form each power received them (:func:`fogdip.codec.observation_to_json`):
that is what was sent, and reading one back is needed only to show that power's view.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fogdip.fog.knowledge import Knowledge
from fogdip.variants.turn import Position, Variant


@dataclass
class TurnRecord:
    """One played turn: the lines each power filed, the result (the game master's record, as
    ``fogdip adjudicate`` prints it) and each power's report."""

    turn: str
    orders: dict[str, list[str]]
    result: dict[str, Any]
    reports: dict[str, dict[str, Any]]


@dataclass
class GameRecord:
    """A game between turns. ``knowledge`` holds each power's knowledge after the last turn;
    a power missing from it (a game file from before it was kept) has it rebuilt from its
    reports when it is first asked for."""

    variant: Variant
    position: Position
    filed: dict[str, list[str]] = field(default_factory=dict)
    history: list[TurnRecord] = field(default_factory=list)
    opening: dict[str, dict[str, Any]] = field(default_factory=dict)
    knowledge: dict[str, Knowledge] = field(default_factory=dict)
    #: How a game ended other than by playing its last turn: ``{"draw": [powers], "turn": T}``
    #: for a draw the powers agreed before turn ``T``.
    ending: dict[str, Any] | None = None
