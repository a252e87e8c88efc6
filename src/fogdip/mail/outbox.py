"""The outbox: every mail the judge sends is first a row of ``mail_outbox``, written in the
transaction that caused it (an answer with the changes its commands made, a turn's mails with
the turn), then sent through the relay by :func:`send_due`, retried with backoff, and marked
sent as soon as the relay has taken it. A crash between the commit and the sending loses
nothing: the row is still unsent, and is sent on the next start. A crash between the relay's
taking it and the mark sends it again, with the same ``Message-ID`` (at least once, to the
relay; a resend is known for what it is).

>>> from fogdip.mail.letters import outgoing
>>> mail = outgoing("p@x.example", "hi", "body", sender="judge@j.example",
...                 attachments=[("m.png", "image/png", b"png")])
>>> canonical(mail).get_boundary() == canonical(mail).get_boundary()
True
"""

from __future__ import annotations

import hashlib
import logging
import random
import smtplib
import ssl
from dataclasses import dataclass
from datetime import datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.utils import parseaddr

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from fogdip.mail.config import MailSettings
from fogdip.server.db import Database
from fogdip.server.models import OutboxMail


def log() -> logging.Logger:
    """The judge's log (looked up when used: nothing is kept at module level)."""
    return logging.getLogger("fogdip.mail")


#: The longest wait between two attempts at a mail.
LONGEST_RETRY = 3600.0

#: Set in a session's ``info`` by :func:`queue`: its transaction queued a mail (once it
#: commits, the judge's sender, where it runs in the process, is woken to send it).
QUEUED = "fogdip.mail.queued"


def canonical(mail: EmailMessage) -> EmailMessage:
    """``mail`` with MIME boundaries that follow from its content (the library's are random):
    two mails that say the same are the same bytes, but for their Date and Message-ID."""
    if mail.is_multipart():
        for part in mail.iter_parts():
            if isinstance(part, EmailMessage):
                canonical(part)
        digest = hashlib.sha256()
        for part in mail.iter_parts():
            digest.update(part.as_bytes(policy=policy.SMTP))
        mail.set_boundary(f"fogdip-{digest.hexdigest()[:32]}")
    return mail


def held_until(event: datetime, settings: MailSettings, chance: random.Random | None = None) -> datetime:
    """When a mail that follows from an event shared by several seats (a turn, the game's end,
    a message of press, a round of reminders) at ``event`` may go out: the event's moment plus
    :attr:`MailSettings.hold`, plus a draw of this mail's own, uniform in 0 to
    :attr:`MailSettings.spread` seconds, from ``chance`` (default: the OS's randomness). The
    one place such a moment is drawn: one draw per mail, made knowing nothing of the other
    mails of the event (how many there are, which is which), so that when a mail goes out
    depends on nothing of other seats; not even on how many went ahead of it through the
    relay, since the mails of an event go out spread over ``spread``, a few at a time.

    >>> from datetime import UTC
    >>> event = datetime(2026, 1, 1, tzinfo=UTC)
    >>> held_until(event, MailSettings(hold=30, spread=0)).isoformat()
    '2026-01-01T00:00:30+00:00'
    >>> moments = {held_until(event, MailSettings(hold=30, spread=60)) for _ in range(50)}
    >>> len(moments) > 1, all(event.replace(second=30) <= m <= event.replace(minute=1, second=30) for m in moments)
    (True, True)
    """
    if settings.spread <= 0:
        return event + timedelta(seconds=settings.hold)
    drawn = (chance or random.SystemRandom()).uniform(0.0, settings.spread)
    return event + timedelta(seconds=settings.hold + min(drawn, settings.spread))


def held_from(event: datetime, noticed: datetime | None) -> datetime:
    """The moment a held mail's hold counts from: the later of its event's moment (as written
    by the process that played it, on its clock) and ``noticed``, when the judge's loop first
    saw the event, in whole seconds (on the judge's clock: taken before anything is built, so
    the same whatever the seat count). Where ``fogdip serve`` and ``fogdip mail`` run with clocks
    apart by more than the hold, the mails are still held the hold's length.

    >>> from datetime import UTC
    >>> event = datetime(2026, 1, 1, 12, tzinfo=UTC)
    >>> held_from(event, event - timedelta(minutes=5)) == event, held_from(event, None) == event
    (True, True)
    >>> held_from(event, event + timedelta(minutes=5, microseconds=7)).isoformat()
    '2026-01-01T12:05:00+00:00'
    """
    if noticed is None:
        return event
    return max(event, noticed.replace(microsecond=0))


def queue(session: Session, mail: EmailMessage, moment: datetime, not_before: datetime | None = None) -> OutboxMail:
    """Queue ``mail`` (one recipient, its ``To``) in this transaction, to be sent from
    ``not_before`` on (default: ``moment``, at once). A mail that follows from an event
    shared by several seats is held to :func:`held_until` the event's moment: the hold, so
    that however long building each mail took none goes out before the others are queued,
    and a spread of its own. A recipient's mails still go out in the order queued
    (:func:`due`), whatever moments they drew."""
    recipient = parseaddr(str(mail["To"]))[1]
    if not recipient:
        raise ValueError("a queued mail names its one recipient in To")
    identifier = str(mail["Message-ID"] or "").strip().strip("<>")
    if not identifier:
        raise ValueError("a queued mail has its own Message-ID")
    row = OutboxMail(
        recipient=recipient,
        message_id=identifier,
        message=canonical(mail).as_bytes(policy=policy.SMTP),
        attempts=0,
        next_attempt_at=moment if not_before is None else not_before,
        sent_at=None,
        last_error=None,
        created_at=moment,
    )
    session.add(row)
    session.info[QUEUED] = True  # (the sender is woken once it commits: ``MailService``)
    return row


@dataclass(frozen=True)
class Due:
    id: int
    recipient: str
    message: bytes
    attempts: int


def due(db: Database, moment: datetime, limit: int = 50) -> list[Due]:
    """The mails to send now (at most ``limit``), in random order (the OS's randomness): the
    order they go out in says nothing of the order they were queued in, which follows the
    seats' ids (which seats play by mail, and how many). One recipient's own mails keep
    their order among themselves (an answer before the turn it played, each turn before the
    next): that order tells it only of its own mails (:func:`shuffled`). So a mail is not due
    while a mail queued before it to the same recipient waits:

    - for a retry (the relay refused it, or could not be reached): no later mail of the
      recipient goes out before it (a mail given up on, after :attr:`MailSettings.attempts`
      or refused for good, is done, and holds up nothing more);
    - for its moment, never yet tried (:func:`held_until`), if the later mail is held too: a
      later mail of a recipient may have drawn an earlier moment than its earlier one, and
      waits for it. A mail never held (an answer to the recipient's own mail) does not wait
      for the recipient's held mails: it goes at once, as it always did.
    """
    chance = random.SystemRandom()
    with db.reading() as session:
        # Each recipient's first mail waiting for a retry, and its first waiting for its
        # moment, never tried: none of its mails after them (held ones, for the second) is due.
        # (Three queries on the unsent rows, whatever the outbox holds.)
        first_failed, first_held = (
            {
                str(recipient): int(first)
                for recipient, first in session.execute(
                    select(OutboxMail.recipient, func.min(OutboxMail.id))
                    .where(OutboxMail.sent_at.is_(None), OutboxMail.next_attempt_at > moment, tried)
                    .group_by(OutboxMail.recipient)
                ).all()
            }
            for tried in (OutboxMail.attempts > 0, OutboxMail.attempts == 0)
        )
        ready = []
        for ident, recipient, held in session.execute(
            select(
                OutboxMail.id,
                OutboxMail.recipient,
                (OutboxMail.attempts == 0) & (OutboxMail.next_attempt_at != OutboxMail.created_at),
            )
            .where(OutboxMail.sent_at.is_(None), OutboxMail.next_attempt_at <= moment)
            .order_by(OutboxMail.id)
        ).all():
            key, number = str(recipient), int(ident)
            if number > first_failed.get(key, number) or (held and number > first_held.get(key, number)):
                continue
            ready.append(Due(number, key, b"", 0))
        # The first ``limit`` of a random interleaving: each recipient's first mails, in order.
        chosen = [mail.id for mail in shuffled(ready, chance)[:limit]]
        rows = {
            int(i): Due(int(i), str(r), bytes(m), int(a))
            for i, r, m, a in session.execute(
                select(OutboxMail.id, OutboxMail.recipient, OutboxMail.message, OutboxMail.attempts).where(
                    OutboxMail.id.in_(chosen)
                )
            ).all()
        }
    return [rows[ident] for ident in chosen if ident in rows]


def shuffled(mails: list[Due], chance: random.Random) -> list[Due]:
    """``mails`` (in id order) interleaved at random, each recipient's in its own order.

    >>> mails = [Due(i, to, b"", 0) for i, to in enumerate("abab")]
    >>> order = [mail.id for mail in shuffled(mails, random.Random(1))]
    >>> sorted(order), order.index(0) < order.index(2), order.index(1) < order.index(3)
    ([0, 1, 2, 3], True, True)
    """
    kept: dict[str, list[Due]] = {}
    for mail in mails:
        kept.setdefault(mail.recipient, []).append(mail)
    slots = [mail.recipient for mail in mails]
    chance.shuffle(slots)
    return [kept[recipient].pop(0) for recipient in slots]


def _connect(settings: MailSettings) -> smtplib.SMTP:
    """A connection to the relay, its certificate checked (TLS, STARTTLS), logged in if asked."""
    host, port = settings.relay
    context = ssl.create_default_context(cafile=settings.relay_cafile)
    if settings.relay_tls == "tls":
        relay: smtplib.SMTP = smtplib.SMTP_SSL(host, port, timeout=30, context=context)
    else:
        relay = smtplib.SMTP(host, port, timeout=30)
        if settings.relay_tls == "starttls":
            relay.starttls(context=context)
    if settings.relay_user:
        relay.login(settings.relay_user, settings.relay_password or "")
    return relay


def _mark(db: Database, mail: Due, moment: datetime, error: str | None, settings: MailSettings) -> None:
    with db.transaction() as session:
        row = session.get_one(OutboxMail, mail.id)
        if row.sent_at is not None:
            return
        if error is None:
            row.sent_at = moment
        else:
            row.attempts = mail.attempts + 1
            wait = min(LONGEST_RETRY, settings.retry_first * 2**mail.attempts)
            row.next_attempt_at = moment + timedelta(seconds=wait)
            row.last_error = error[:500]


def _give_up(db: Database, mail: Due, moment: datetime, why: str) -> None:
    """``mail`` is never to be sent: kept as done (``sent_at``), with why it was not."""
    with db.transaction() as session:
        row = session.get_one(OutboxMail, mail.id)
        if row.sent_at is None:
            row.sent_at = moment
            row.last_error = why


def retry_now(db: Database, moment: datetime) -> int:
    """Every mail waiting for a retry is due at ``moment``: a judge started again tries them
    all at once (its relay may be mended). A mail never yet tried keeps its time: one held
    (:attr:`MailSettings.hold`) is still held. How many were waiting."""
    with db.transaction() as session:
        waiting = session.execute(
            update(OutboxMail)
            .where(OutboxMail.sent_at.is_(None), OutboxMail.attempts > 0, OutboxMail.next_attempt_at > moment)
            .values(next_attempt_at=moment)
        )
        return int(getattr(waiting, "rowcount", 0) or 0)


#: The most mails sent through one connection to the relay.
BATCH = 50


def send_due(db: Database, settings: MailSettings, moment: datetime) -> int:
    """Send the mails due, through the relay, each marked sent as soon as the relay took it
    (a mail it refused, or a relay that cannot be reached: tried again later, waiting twice as
    long each time, the recipient's later mails waiting behind it): in batches of
    :data:`BATCH`, each drawn at random from all that are due, until none is left (at most a
    hundred batches a call). How many were sent.

    One sender at a time on a database: a mail is read as due (:func:`due`), sent, then
    marked sent, with no claim on it between, so two calls at once could both send it.
    ``MailService`` makes this hold: its sender thread is the only caller while it runs, and
    :meth:`MailService.round` (the tests', without that thread) takes the same lock; and one
    judge runs on a database (``fogdip mail`` beside ``fogdip serve``, or ``serve --mail``).
    A crash between the relay's taking a mail and its mark sends it again, with the same
    Message-ID (at least once)."""
    sent = 0
    for _batch in range(100):
        mails = due(db, moment, BATCH)
        if not mails:
            break
        done = _send(db, settings, moment, mails)
        sent += done
        if done == 0 or len(mails) < BATCH:
            break
    return sent


def refused_for_good(exc: Exception) -> bool:
    """Whether the relay refused every recipient of a mail for good (5xx: no such address):
    tried again, it would be refused again.

    >>> refused_for_good(smtplib.SMTPRecipientsRefused({"a@x.example": (550, b"no such user")}))
    True
    >>> refused_for_good(smtplib.SMTPRecipientsRefused({"a@x.example": (451, b"greylisted")}))
    False
    >>> refused_for_good(smtplib.SMTPSenderRefused(530, b"log in first", "judge@j.example"))
    False
    """
    if not isinstance(exc, smtplib.SMTPRecipientsRefused):
        return False  # (a sender refused, 530 "log in first": the judge's relay set up wrong)
    codes = [int(code) for code, _message in exc.recipients.values()]
    return bool(codes) and all(500 <= code < 600 for code in codes)


def _send(db: Database, settings: MailSettings, moment: datetime, mails: list[Due]) -> int:
    """Send ``mails`` through one connection to the relay. How many were sent. Once a mail of
    a recipient failed, the recipient's later mails in the batch are left (unsent, untried):
    they wait behind it (:func:`due`)."""
    sent = 0
    try:
        relay = _connect(settings)
    except (OSError, smtplib.SMTPException) as exc:
        log().warning("the relay %s:%s cannot be reached: %s", *settings.relay, exc)
        for mail in mails:
            _mark(db, mail, moment, f"relay unreachable: {exc}", settings)
        return 0
    failed: set[str] = set()
    try:
        for mail in mails:
            if mail.recipient in failed:
                continue
            if mail.recipient.rpartition("@")[2].strip().lower() == settings.domain.strip().lower():
                # An address at the judge's own domain (a seat's, given as a player's): never
                # sent, so that the judge never mails itself in a loop; done with, not retried.
                _give_up(db, mail, moment, "not sent: an address at the judge's own domain")
                continue
            try:
                relay.sendmail(settings.judge, [mail.recipient], mail.message)
            except smtplib.SMTPServerDisconnected as exc:
                _mark(db, mail, moment, str(exc), settings)
                break
            except (OSError, smtplib.SMTPException) as exc:
                log().warning("mail %s was not taken by the relay: %s", mail.id, exc)
                if refused_for_good(exc) or mail.attempts + 1 >= settings.attempts:
                    _give_up(db, mail, moment, f"given up after {mail.attempts + 1} attempts: {exc}"[:500])
                else:
                    _mark(db, mail, moment, str(exc), settings)
                    failed.add(mail.recipient)
                continue
            _mark(db, mail, moment, None, settings)
            sent += 1
    finally:
        try:
            relay.quit()
        except (OSError, smtplib.SMTPException):
            relay.close()
    return sent


__all__ = [
    "BATCH",
    "QUEUED",
    "Due",
    "canonical",
    "due",
    "held_from",
    "held_until",
    "queue",
    "refused_for_good",
    "retry_now",
    "send_due",
    "shuffled",
]
