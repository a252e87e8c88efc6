"""What a change to a table tells its members, as typed values: the table records them as its
rules run, and each front end delivers them its own way (the server as events on the live
streams, the e-mail judge as mail). Each says only what everyone it goes to may know.

>>> PhasePlayed("F1901M", played="S1901M").wire()
{'type': 'phase', 'turn': 'F1901M'}
>>> ReadyCounted("S1901M", ready=2, of=7).wire()
{'type': 'ready', 'turn': 'S1901M', 'ready': 2, 'of': 7}
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar


@dataclass(frozen=True)
class TableEvent:
    """Something that happened to a game. ``turn`` is the turn now to be played; ``audience``
    the powers it is for (and the game master), or ``None``: every member."""

    kind: ClassVar[str]
    turn: str
    audience: frozenset[str] | None = None

    def detail(self) -> dict[str, object]:
        """What the event says beyond its kind and turn."""
        return {}

    def wire(self) -> dict[str, object]:
        """The event as a stream sends it (without the game's id)."""
        return {"type": self.kind, "turn": self.turn, **self.detail()}


@dataclass(frozen=True)
class PhasePlayed(TableEvent):
    """A turn was played (or the game ended by a draw): ``turn`` is the next one."""

    kind: ClassVar[str] = "phase"
    played: str = ""
    #: How many seats are ready now (none, after a turn), where the game tells it.
    ready: int | None = None
    of: int | None = None

    def detail(self) -> dict[str, object]:
        return {} if self.ready is None else {"ready": self.ready, "of": self.of}


@dataclass(frozen=True)
class DeadlineSet(TableEvent):
    """The deadline was set, moved or stopped (``None``)."""

    kind: ClassVar[str] = "deadline"
    deadline: datetime | None = None

    def detail(self) -> dict[str, object]:
        return {"deadline": None if self.deadline is None else self.deadline.isoformat()}


@dataclass(frozen=True)
class ReadyCounted(TableEvent):
    """How many seats are ready, where the game tells it."""

    kind: ClassVar[str] = "ready"
    ready: int = 0
    of: int = 0

    def detail(self) -> dict[str, object]:
        return {"ready": self.ready, "of": self.of}


@dataclass(frozen=True)
class VotesCast(TableEvent):
    """The powers voting for a draw, where votes are open."""

    kind: ClassVar[str] = "votes"
    votes: tuple[str, ...] = ()

    def detail(self) -> dict[str, object]:
        return {"votes": list(self.votes)}


@dataclass(frozen=True)
class MessageSent(TableEvent):
    """A message came: to its sender and recipients (all members, if it went to all)."""

    kind: ClassVar[str] = "message"


@dataclass(frozen=True)
class SeatsSwapped(TableEvent):
    """Two seats changed hands before the start: what each seat held (its press, its read
    mark) goes with the player who held it. Told to no stream: a store moves the press."""

    kind: ClassVar[str] = ""
    first: str = ""
    second: str = ""


__all__ = [
    "DeadlineSet",
    "MessageSent",
    "PhasePlayed",
    "ReadyCounted",
    "SeatsSwapped",
    "TableEvent",
    "VotesCast",
]
