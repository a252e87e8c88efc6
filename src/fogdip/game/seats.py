"""Who sits at a table: its seats (a power, and who plays it: a person, the bot, or nobody
yet), who is acting, and what they are in the game.

>>> seat = Seat("FRANCE", player="alice")
>>> seat.taken, seat.bot
(True, False)
>>> Member(Role.PLAYER, "FRANCE").listener
'FRANCE'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from fogdip.bots.base import DEFAULT_BOT
from fogdip.game.settings import ObserverView, Role

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


def membership(
    account: str | None,
    seats: Iterable[tuple[str, str | None]],
    master: str | None,
    watching: bool,
    observers: ObserverView,
) -> Member:
    """What the account is in a game whose seats (power, player), master and observers are
    these: a player's seat comes first (someone who set up a game against bots and plays in it
    sees it as a player), then the game master, then an observer where the game takes them.
    The one rule, for a table and for the streams that follow who holds which seat."""
    if account is None:
        return NOBODY
    for power, player in seats:
        if player == account:
            return Member(Role.PLAYER, power)
    if account == master:
        return Member(Role.MASTER)
    if watching and observers is not ObserverView.NONE:
        return Member(Role.OBSERVER)
    return NOBODY


__all__ = ["NOBODY", "OBSERVER", "Actor", "Member", "Seat", "membership", "seat_of"]
