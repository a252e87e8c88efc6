"""Press: messages between the powers of a game, and what each member is shown of one.

What a player is shown of a message is what the press mode lets it know: in ``white`` and
``public`` press the sending power and every recipient; in ``grey`` and ``gunboat`` press
nobody; in ``black`` press the sender the message claims (only the game master sees the real
one). In the anonymous modes a recipient of a message not sent to all is told only that it
was sent to it: the other recipients would name the sender by elimination. No message
carries an account name or a moment, and a member's messages are numbered in its own list,
so it cannot count the messages it was not sent.

>>> message = Message("S1901M", "FRANCE", ("ENGLAND", "GERMANY"), "Hello")
>>> shown(message, 1, Member(Role.PLAYER, "ENGLAND"), PressMode.GREY)
Shown(index=1, turn='S1901M', to=('ENGLAND',), sender=None, yours=False, body='Hello')
>>> shown(message, 1, Member(Role.PLAYER, "ENGLAND"), PressMode.WHITE).to
('ENGLAND', 'GERMANY')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from fogdip.game.refusals import Refusal
from fogdip.game.seats import Member
from fogdip.game.settings import PressMode, PressRange, Role, power_named

#: What a message to every power is addressed to.
ALL = "all"


@dataclass(frozen=True)
class Message:
    """A message as sent: the turn it was sent in, the power that really sent it, the powers
    it went to (``None``: all), its text and, in black press, the sender it claims."""

    turn: str
    sender: str
    recipients: tuple[str, ...] | None
    body: str
    claim: str | None = None
    #: The powers whose lists hold it, where they are no longer its sender and recipients as
    #: addressed: seats swapped before the start took their press with their players, and a
    #: message stays addressed as it was written (so that nobody else's messages change).
    readers: frozenset[str] | None = None

    @property
    def to_all(self) -> bool:
        return self.recipients is None

    @property
    def audience(self) -> frozenset[str] | None:
        """The powers whose streams hear of it (and the game master's); ``None``: all."""
        return None if self.recipients is None else frozenset((self.sender, *self.recipients))

    def reaches(self, power: str) -> bool:
        """Whether ``power`` may read it: its sender, a recipient, or anyone if sent to all
        (or, after a swap, the powers whose lists hold it)."""
        if self.readers is not None:
            return power in self.readers
        return self.recipients is None or power == self.sender or power in self.recipients

    def swapped(self, first: str, second: str, powers: Sequence[str]) -> Message:
        """The message after seats ``first`` and ``second`` changed hands before the start:
        it is in the lists of the players who wrote and received it, wherever they now sit,
        its sender is its writer's seat now, and it stays addressed as it was written.

        >>> message = Message("S1901M", "FRANCE", ("ENGLAND",), "hi")
        >>> moved = message.swapped("FRANCE", "GERMANY", ["ENGLAND", "FRANCE", "GERMANY"])
        >>> moved.sender, moved.recipients, moved.reaches("GERMANY"), moved.reaches("FRANCE")
        ('GERMANY', ('ENGLAND',), True, False)
        """
        names = {first: second, second: first}
        readers = self.readers
        if readers is None:
            readers = frozenset(powers) if self.recipients is None else frozenset((self.sender, *self.recipients))
        return replace(
            self,
            sender=names.get(self.sender, self.sender),
            readers=frozenset(names.get(power, power) for power in readers),
        )


@dataclass(frozen=True)
class Shown:
    """A message as one member is shown it: its place in the member's own list (from 1), the
    turn, whom it went to as far as the member may know, the sender it shows (``None``:
    anonymous), whether the member sent it, and its text."""

    index: int
    turn: str
    to: tuple[str, ...] | None
    sender: str | None
    yours: bool
    body: str


def shown(message: Message, index: int, member: Member, press: PressMode) -> Shown:
    """``message`` as ``member`` is shown it, at ``index`` in its list."""
    power = member.power
    to = message.recipients
    if power is not None and message.sender != power and not press.signed and to is not None:
        # Who else a message went to would name its sender by elimination (the sender is never
        # among its recipients): in anonymous press a recipient is told only that it got it.
        to = (power,)
    sender: str | None
    if member.role is Role.MASTER or message.sender == power or press.signed:
        sender = message.sender
    elif press is PressMode.BLACK:
        sender = message.claim
    else:
        sender = None
    return Shown(index, message.turn, to, sender, message.sender == power, message.body)


def unread(listed: Sequence[Shown], read: int) -> int:
    """How many of a member's messages are past its read mark (``read``: how many of its list
    it has read), not counting those it sent itself.

    >>> mine = Shown(1, "S1901M", None, "FRANCE", True, "hello")
    >>> theirs = Shown(2, "S1901M", None, "ENGLAND", False, "hi")
    >>> unread([mine, theirs], 0)
    1
    """
    return sum(1 for item in listed if item.index > read and not item.yours)


def address(
    sender: str,
    to: Sequence[str] | str,
    claim: str | None,
    *,
    powers: Sequence[str],
    press: PressMode,
    press_range: PressRange,
    reach: Sequence[str],
) -> tuple[tuple[str, ...] | None, str | None]:
    """The recipients (``None``: all) and claimed sender of a message ``sender`` writes to
    ``to`` (``"all"`` or power names, read leniently), or why it may not be sent. ``reach``
    is whom ``sender`` may write to (under adjacency-limited press: the powers it sees next
    to its units; else every other power)."""
    if press is PressMode.NONE:
        raise Refusal.forbidden("this game has no press")
    recipients: tuple[str, ...] | None
    if isinstance(to, str):
        if to.strip().lower() != ALL:
            raise Refusal.bad_request(
                f"send to 'all' or to a list of powers of this game ({', '.join(p for p in powers if p != sender)})",
                "bad-recipients",
            )
        if press_range is PressRange.ADJACENT:
            raise Refusal.forbidden(
                "press is limited to powers whose units you see next to yours: name them "
                f"({', '.join(reach) or 'none now'})"
            )
        recipients = None
    else:
        wanted = sorted({_recipient(name, powers, sender) for name in to} - {sender})
        if not wanted:
            raise Refusal.bad_request(
                f"send to 'all' or to other powers of this game ({', '.join(p for p in powers if p != sender)}), "
                "not yourself",
                "bad-recipients",
            )
        if press is PressMode.PUBLIC:
            raise Refusal.forbidden("this game's press is public: send to 'all'")
        beyond = [name for name in wanted if name not in reach]
        if beyond:
            raise Refusal.forbidden(
                f"press is limited to powers whose units you see next to yours; not {', '.join(beyond)} "
                f"(you may write to {', '.join(reach) or 'nobody now'})"
            )
        recipients = tuple(wanted)
    claimed = None
    if claim is not None:
        if press is not PressMode.BLACK:
            raise Refusal.bad_request("only black press lets a message claim a sender", "no-claim")
        try:
            claimed = power_named(claim, powers)
        except Refusal:
            raise Refusal.bad_request(
                f"a message can claim to come from a power of this game ({', '.join(powers)}), not {claim.strip()!r}",
                "no-claim",
            ) from None
    return recipients, claimed


def _recipient(name: str, powers: Sequence[str], sender: str) -> str:
    try:
        return power_named(name, powers)
    except Refusal:
        raise Refusal.bad_request(
            f"send to 'all' or to other powers of this game ({', '.join(p for p in powers if p != sender)}), "
            f"not {name.strip()!r}",
            "bad-recipients",
        ) from None


__all__ = ["ALL", "Message", "Shown", "address", "shown", "unread"]
