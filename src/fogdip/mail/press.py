"""Press to mail players: each message delivered to the power of a mail player is one mail to
it, queued in the transaction that sent the message (the web's or the judge's own, where the
judge runs in that process: :func:`fogdip.mail.turns.install`), else at the judge's next look
(:func:`fogdip.mail.turns.catch_up`). Each mail row counts the messages of its power's list
that are mailed (``mailed_press``: the last one's id), moved on in the transaction that queues
them: each message is mailed once.

A message shows its sender exactly as the web's message list shows it to that power
(:func:`fogdip.game.press.shown`): in white press the sender; in grey press nobody; in black
press the sender it claims; never the real sender where the press mode hides it, in no header
either (the mail is from the judge, to the player, its Reply-To the seat's own address).
"""

from __future__ import annotations

import random
from datetime import datetime
from email.message import EmailMessage

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from fogdip.game.press import Message, Shown, shown
from fogdip.game.seats import Member
from fogdip.game.settings import PressMode, Role
from fogdip.mail.config import MailSettings
from fogdip.mail.letters import outgoing
from fogdip.mail.outbox import held_from, held_until, queue
from fogdip.server.models import MAIL_MASTER, Delivery, GameRow, MailPlayer
from fogdip.server.models import Message as MessageRow

#: How a message to all is kept (:attr:`MessageRow.recipients`).
_ALL = "*"


def press_letter(
    shown_to: Shown,
    power: str,
    game_name: str,
    *,
    to: str,
    sender: str,
    reply_to: str,
    moment: datetime | None = None,
) -> EmailMessage:
    """The mail of one message, as ``power`` is shown it, dated ``moment`` (when it was sent).

    >>> item = Shown(3, "S1901M", ("FRANCE",), None, False, "Meet me in Burgundy.")
    >>> mail = press_letter(item, "FRANCE", "Friday", to="ann@example.org", sender="judge@j.example",
    ...                     reply_to="g1-france-00@j.example")
    >>> mail["Subject"]
    'fogdip Friday: a message to FRANCE from an anonymous power'
    >>> print(mail.get_content().split("\\n\\n")[0])
    A message (S1901M) from an anonymous power, to you:
    """
    who = shown_to.sender or "an anonymous power"
    to_whom = (
        "to all" if shown_to.to is None else ("to you" if shown_to.to == (power,) else "to " + ", ".join(shown_to.to))
    )
    # The message's own lines are quoted, so that a reply quoting this mail without marks
    # (as some mail programs do) can never carry them as the reader's commands.
    quoted = "\n".join(f"> {line}" if line.strip() else ">" for line in shown_to.body.splitlines())
    body = (
        f"A message ({shown_to.turn}) from {who}, {to_whom}:\n\n{quoted}\n\n-- \n"
        "To answer, reply with PRESS TO <POWER> ... ENDPRESS (BROADCAST ... ENDPRESS to all); HELP lists "
        "every command."
    )
    subject = f"fogdip {game_name}: a message to {power} from {who}"
    return outgoing(to, subject, body, sender=sender, reply_to=reply_to, moment=moment)


def last_message(session: Session, game_id: str, power: str) -> int:
    """The id of the last message in ``power``'s list (0: none): a seat taken by mail now is
    mailed what comes after it."""
    last = session.execute(
        select(func.max(Delivery.message_id)).where(Delivery.game_id == game_id, Delivery.reader == power)
    ).scalar_one_or_none()
    return int(last or 0)


def queue_press(
    session: Session,
    settings: MailSettings,
    game_id: str,
    moment: datetime,
    chance: random.Random | None = None,
    *,
    noticed: datetime | None = None,
) -> int:
    """Queue, in this transaction, one mail for each message delivered to a mail player's
    power of ``game_id`` since its last (not those it sent itself), and count them as
    mailed; each held after the message's moment (:func:`~fogdip.mail.outbox.held_until`:
    the hold, and a spread drawn from ``chance``, default the OS's randomness), or after
    ``noticed``, when the judge's loop saw it, if later (:func:`~fogdip.mail.outbox.held_from`:
    another process's clock behind the judge's). How many were queued."""
    game = session.get(GameRow, game_id)
    if game is None:
        return 0
    rows = list(
        session.execute(
            select(MailPlayer)
            .where(MailPlayer.game_id == game_id, MailPlayer.power != MAIL_MASTER)
            .order_by(MailPlayer.id)
            .with_for_update()
        ).scalars()
    )
    press = PressMode(game.press)
    count = 0
    for row in rows:
        kept = session.execute(
            select(MessageRow)
            .join(Delivery, Delivery.message_id == MessageRow.id)
            .where(Delivery.game_id == game_id, Delivery.reader == row.power, MessageRow.id > row.mailed_press)
            .order_by(MessageRow.id)
        ).scalars()
        for message_row in kept:
            row.mailed_press = max(row.mailed_press, message_row.id)
            if message_row.sender == row.power:
                continue
            message = Message(
                message_row.turn,
                message_row.sender,
                None if message_row.recipients == _ALL else tuple(message_row.recipients.split(",")),
                message_row.body,
                message_row.shown_as,
            )
            item = shown(message, 0, Member(Role.PLAYER, row.power), press)
            sent = message_row.created_at.replace(microsecond=0)
            mail = press_letter(
                item,
                row.power,
                " ".join(game.name.split()) or game.id,
                to=row.address,
                sender=settings.judge,
                reply_to=settings.seat_address(row.game_id, row.power, row.secret),
                moment=sent,
            )
            # Held after the message's moment, like a turn's mails: whom else it reaches by
            # mail is not told by when it comes.
            queue(session, mail, moment, held_until(held_from(sent, noticed), settings, chance))
            count += 1
    return count


__all__ = ["last_message", "press_letter", "queue_press"]
