"""The table's press rules: who reads a game's press, keeps count of what it read, and writes,
to whom (:class:`PressRules`, part of :class:`fogdip.game.Table`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from fogdip.game.events import MessageSent, TableEvent
from fogdip.game.press import Message, address
from fogdip.game.refusals import Refusal
from fogdip.game.seats import Actor, Member, Seat
from fogdip.game.settings import PressMode, PressRange, Role, Status, TableSettings

if TYPE_CHECKING:
    from fogdip.game.service import Game


class PressRules:
    """The press rules of a table (mixed into :class:`fogdip.game.Table`, which holds what
    they read and change)."""

    game: Game
    settings: TableSettings
    status: Status
    seats: list[Seat]
    events: list[TableEvent]
    sent: list[Message]

    if TYPE_CHECKING:

        @property
        def turn(self) -> str: ...

        def visible(self, actor: Actor, invite: str | None = None) -> Member: ...

        def seat(self, power: str) -> Seat: ...

    @property
    def press_box(self) -> bool:
        """Whether players write press in this game, on its pages or by mail: not in a game
        without press, nor in gunboat (whose API still takes anonymous messages, as a client
        may send them, but where no page and no mail offers to write one).

        >>> from fogdip.game import Actor, Table
        >>> Table.create("g", "fog-of-war", {}, master=Actor("gm"), press="gunboat").press_box
        False
        >>> Table.create("g", "fog-of-war", {}, master=Actor("gm"), press="grey").press_box
        True
        """
        return self.settings.press not in (PressMode.NONE, PressMode.GUNBOAT)

    def reader(self, actor: Actor) -> Member:
        """Who may read the game's press: its members (observers, the messages to all)."""
        member = self.visible(actor)
        if member.role is Role.NONE:
            raise Refusal.forbidden("only the game's members read its press: join it, or watch it")
        return member

    def mark_read(self, actor: Actor, up_to: int, listed: int) -> Seat:
        """The acting player has read its messages up to ``up_to`` (of the ``listed`` in its
        list): a read mark never goes back, nor past the list."""
        member = self.reader(actor)
        if member.power is None:
            raise Refusal.forbidden("only players keep count of what they have read")
        seat = self.seat(member.power)
        seat.read = max(seat.read, min(up_to, listed))
        return seat

    def in_range(self, power: str) -> list[str]:
        """The powers ``power`` may write to under adjacency-limited press: those whose units
        its latest report shows next to one of its own units. Only what ``power`` knows decides
        it, so a refusal tells it nothing it did not know."""
        latest = self.game.latest_report(power)
        board = self.game.variant.board
        own = [unit.province for unit in latest.units if unit.owner == power and not unit.dislodged]
        near = set().union(*(board.adjacent_provinces(province) for province in own)) if own else set()
        return sorted(
            {
                unit.owner
                for unit in latest.units
                if unit.owner is not None and unit.owner != power and not unit.dislodged and unit.province in near
            }
        )

    def send(self, actor: Actor, to: Sequence[str] | str, body: str, claim: str | None = None) -> Message:
        """Send a message from the acting player's power, under the game's press."""
        member = self.reader(actor)
        if member.power is None:
            raise Refusal.forbidden("only players write press")
        if self.settings.press is PressMode.NONE:
            raise Refusal.forbidden("this game has no press")
        if self.status is Status.FINISHED:
            raise Refusal.conflict("the game is over")
        powers = [seat.power for seat in self.seats]
        others = [power for power in powers if power != member.power]
        reach = self.in_range(member.power) if self.settings.press_range is PressRange.ADJACENT else others
        recipients, claimed = address(
            member.power,
            to,
            claim,
            powers=powers,
            press=self.settings.press,
            press_range=self.settings.press_range,
            reach=reach,
        )
        message = Message(self.turn, member.power, recipients, body, claimed)
        self.sent.append(message)
        self.events.append(MessageSent(self.turn, audience=message.audience))
        return message


__all__ = ["PressRules"]
