"""Who sits at a table: its seats (a power, and who plays it: a person, the bot, or nobody
yet), who is acting, and what they are in the game.

>>> seat = Seat("FRANCE", player="alice")
>>> seat.taken, seat.bot
(True, False)
>>> Member(Role.PLAYER, "FRANCE").listener
'FRANCE'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fogdip.bots.base import DEFAULT_BOT
from fogdip.game.settings import Role

#: How an observer's stream is known among the listeners of a game: never the name of a
#: power, so events meant for some powers only never reach it.
OBSERVER = "+observer"


@dataclass(frozen=True)
class Actor:
    """Who is asking: an account (``None``: nobody signed in). A postal game's master
    acting for a power (``fogdip gm orders game.json FRANCE``) names it in ``for_power``."""

    account: str | None = None
    for_power: str | None = None

    @classmethod
    def nobody(cls) -> Actor:
        return cls(None)


@dataclass
class Seat:
    """A power of a game and who plays it (an account, the bot, or nobody yet), with its
    ready mark, its draw vote, and how many of its messages it has read. (What it filed for
    the next turn is the game's: :attr:`fogdip.game.service.Game.filed`.) ``bot_name`` is
    which bot plays it when the bot does (:func:`fogdip.bots.base.bot_named`)."""

    power: str
    player: str | None = None
    bot: bool = False
    ready: bool = False
    draw: bool = False
    read: int = 0
    bot_name: str = DEFAULT_BOT

    @property
    def taken(self) -> bool:
        return self.player is not None or self.bot


@dataclass(frozen=True)
class Member:
    """Someone's part in one game: its role, and its power if it plays one."""

    role: Role
    power: str | None = None

    @property
    def listener(self) -> str | None:
        """Whom the member's stream hears for: its power, every event (the game master:
        ``None``) or what every member may hear (an observer, anyone of an open game)."""
        if self.role is Role.MASTER:
            return None
        return self.power if self.role is Role.PLAYER else OBSERVER

    @property
    def is_player(self) -> bool:
        return self.role is Role.PLAYER and self.power is not None


NOBODY = Member(Role.NONE)


def seat_of(seats: Sequence[Seat], power: str) -> Seat:
    """The seat of ``power`` (which must be one of the game's)."""
    return next(seat for seat in seats if seat.power == power)


__all__ = ["NOBODY", "OBSERVER", "Actor", "Member", "Seat", "seat_of"]
