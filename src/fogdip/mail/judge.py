"""The judge: one mail in, its commands carried out against the table in ONE transaction,
through the table's own rules (as the web's routes call them), and ONE answer queued in the
same transaction, with the mail's Message-ID kept so that the same mail delivered twice acts
once. Who is writing is decided by a seat's secret (the address the mail was sent to, or a
first line ``SIGNON <POWER> <GAME> <SECRET>`` to the judge's own address), never by the
``From:`` header; the answer goes to the seat's own address, kept when it was seated.

A mail that names no seat's secret changes nothing and gets one short answer, to its sender,
at most once in :attr:`MailSettings.refusal_every` per sender (kept in the database).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.utils import parseaddr

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from fogdip.game import Actor, Refusal, Table
from fogdip.game.settings import Role
from fogdip.mail.answers import Answer, carry_out
from fogdip.mail.commands import SignOn, Step, parse
from fogdip.mail.config import MailSettings
from fogdip.mail.letters import outgoing
from fogdip.mail.outbox import queue
from fogdip.mail.reading import Letter, read_letter
from fogdip.mail.turns import seat_address
from fogdip.server.db import Database
from fogdip.server.models import MAIL_MASTER, MailPlayer, MailRefusal, MailSeen
from fogdip.server.security import same
from fogdip.server.store import ReadCache, SqlStore, now

_LOCAL = re.compile(r"^(?P<game>[a-z0-9]+)-(?P<power>[a-z0-9+-]+)-(?P<secret>[0-9a-f]{16,64})$")

REFUSED = """This mail was not read, and nothing was changed.

It was sent to no seat's address at this judge, or its secret is not the seat's. Write to the
address your welcome mail gave you (answering the judge's mails does), or to {judge} with a
first line SIGNON <POWER> <GAME> <SECRET>. HELP, sent to your seat's address, lists the
commands. (This answer is sent at most once in a while to one sender.)
"""


@dataclass(frozen=True)
class Handled:
    """What became of a mail: ``acted`` (else it had been acted on already, or named no seat:
    ``seat`` says whose it was, ``None`` for none)."""

    acted: bool
    seat: str | None = None


def mail_key(letter: Letter) -> str | None:
    """What a mail is known by, once acted on: its Message-ID (none: it is acted on each time
    it comes; the same words may be sent again on purpose, a READY each turn).

    >>> mail_key(Letter("a1@x.example", "p@x.example", (), "", ("READY",), ()))
    'a1@x.example'
    """
    return letter.message_id[:255] if letter.message_id else None


def _parts(address: str, settings: MailSettings) -> tuple[str, str, str] | None:
    """The game, power and secret of a seat's address at this judge (lowercase).

    >>> settings = MailSettings(domain="judge.example")
    >>> _parts("Ab12-France-0f0f0f0f0f0f0f0f@JUDGE.example", settings)
    ('ab12', 'france', '0f0f0f0f0f0f0f0f')
    >>> _parts("ab12-france-0f0f0f0f0f0f0f0f@elsewhere.example", settings) is None
    True
    """
    local, at, domain = address.strip().lower().rpartition("@")
    if not at or domain != settings.domain.lower():
        return None
    found = _LOCAL.match(local)
    if found is None:
        return None
    return found["game"], found["power"], found["secret"]


def _seat(session: Session, game: str, power: str, secret: str) -> MailPlayer | None:
    """The mail row of ``game``'s seat ``power`` if ``secret`` is its own (compared in constant
    time; the same answer whether the game, the seat or the secret is wrong)."""
    power = power.strip().lower()
    # Not locked here: the game's row is locked first (``SqlStore.find``), then its mail rows
    # are written, in the judge as in a web request that plays a turn, so that the two never
    # wait on each other in turn.
    for row in session.execute(select(MailPlayer).where(MailPlayer.game_key == game.strip().lower())).scalars():
        if row.power.lower().lstrip("+") == power and same(row.secret, secret.strip().lower()):
            return row
    return None


def identify(session: Session, letter: Letter, steps: list[Step], settings: MailSettings) -> MailPlayer | None:
    """The seat writing: the first recipient that is a seat's address with its secret, else a
    first line SIGNON sent to the judge's address."""
    for recipient in letter.recipients:
        parts = _parts(recipient, settings)
        if parts is not None:
            row = _seat(session, *parts)
            if row is not None:
                return row
    to_judge = any(recipient.strip().lower() == settings.judge.lower() for recipient in letter.recipients)
    if to_judge and steps and isinstance(steps[0].command, SignOn):
        sign = steps[0].command
        return _seat(session, sign.game, sign.power, sign.secret)
    return None


def _refuse(session: Session, letter: Letter, settings: MailSettings, moment: datetime) -> None:
    """One short answer to a sender that named no seat, unless it had one lately."""
    sender = letter.sender.strip().lower()[:254]
    if not sender or "@" not in sender or sender == settings.judge.lower():
        return
    last = session.execute(
        select(MailRefusal).where(MailRefusal.sender == sender).with_for_update()
    ).scalar_one_or_none()
    if last is not None and last.answered_at > moment - timedelta(seconds=settings.refusal_every):
        return
    if last is None:
        session.add(MailRefusal(sender=sender, answered_at=moment))
    else:
        last.answered_at = moment
    mail = outgoing(
        sender,
        "fogdip: your mail was not read",
        REFUSED.format(judge=settings.judge),
        sender=settings.judge,
        in_reply_to=letter.message_id,
        moment=moment.replace(microsecond=0),
        auto_submitted="auto-replied",
    )
    queue(session, mail, moment)


def _answer_mail(
    table: Table, row: MailPlayer, letter: Letter, answer: Answer, settings: MailSettings, moment: datetime
) -> EmailMessage:
    """The answer to ``letter``, dated when it arrived (``moment``, whole seconds): not when
    its answer was built, which would tell how long the judge took over it."""
    who = "the game master" if row.power == MAIL_MASTER else row.power
    head = f"The judge's answer for {who} in {table.settings.name} ({table.id}); the next turn is {table.turn}."
    problems = [f"Note: {problem}" for problem in letter.problems]
    body = "\n".join([head, *problems, "", *answer.lines, ""])
    subject = letter.subject.strip()
    subject = subject if subject.lower().startswith("re:") else f"Re: {subject or 'your mail'}"
    return outgoing(
        row.address,
        subject[:200],
        body,
        sender=settings.judge,
        reply_to=seat_address(row, settings),
        in_reply_to=letter.message_id,
        attachments=answer.attachments,
        moment=moment.replace(microsecond=0),
        auto_submitted="auto-replied",
    )


class Judge:
    """The judge over one database: :meth:`handle_raw` for each mail that comes in (the SMTP
    server's, the IMAP poller's)."""

    def __init__(self, db: Database, reads: ReadCache, settings: MailSettings) -> None:
        self.db = db
        self.reads = reads
        self.settings = settings

    def handle_raw(
        self, raw: bytes, *, envelope_sender: str | None = None, envelope_recipients: tuple[str, ...] = ()
    ) -> Handled:
        """Act on one mail: all it changes, its answer and its Message-ID committed together,
        or (an error) nothing. Acting on it again does nothing."""
        moment = now()  # when it arrived: what its answer is dated
        letter = _readable(raw, envelope_sender, envelope_recipients, self.settings.max_size)
        key = mail_key(letter)
        try:
            return self._handle(letter, key, moment, _from_header(raw))
        except IntegrityError:
            # The same mail, acted on meanwhile for its seat by another process (unique per
            # seat and Message-ID): found acted on, it is done.
            if key is None:
                raise
            with self.db.reading() as session:
                steps = parse(letter.lines)
                row = identify(session, letter, steps, self.settings)
                seen = select(MailSeen.id).where(
                    MailSeen.mail_player_id == (row.id if row else -1), MailSeen.message_id == key
                )
                if session.execute(seen).first() is not None:
                    return Handled(False)
            raise

    def _handle(self, letter: Letter, key: str | None, moment: datetime, raw_from: str) -> Handled:
        if _own(letter, raw_from, self.settings):
            return Handled(False)  # the judge's own mail come back (a bounce, a loop): never answered
        if letter.automatic:
            return Handled(False)  # a machine's (a bounce, an out-of-office reply): nothing done, no answer
        with self.db.transaction() as session:
            steps = parse(letter.lines)
            row = identify(session, letter, steps, self.settings)
            if row is not None and key is not None:
                # Known per seat, once the seat is known: another's mail with the same
                # Message-ID (a wrong secret, another seat's) never stands in for this one.
                seen = select(MailSeen.id).where(MailSeen.mail_player_id == row.id, MailSeen.message_id == key)
                if session.execute(seen).first() is not None:
                    return Handled(False, f"{row.game_id}/{row.power}")
                session.add(MailSeen(mail_player_id=row.id, message_id=key, received_at=moment))
                session.flush()
            store = SqlStore(session, self.reads)
            table = None
            if row is not None:
                try:
                    table = store.find(row.game_id, row.user_id, lock=True)
                except Refusal:
                    table = None
            actor = Actor(None if row is None else str(row.user_id))
            if row is None or table is None or not _holds(table, actor, row):
                _refuse(session, letter, self.settings, moment)
                return Handled(False)
            answer = carry_out(table, actor, row, steps, moment, store, self.settings)
            store.save(table, moment)
            queue(session, _answer_mail(table, row, letter, answer, self.settings, moment), moment)
            return Handled(True, f"{row.game_id}/{row.power}")


def _readable(raw: bytes, sender: str | None, recipients: tuple[str, ...], max_size: int) -> Letter:
    """The letter of ``raw``; a mail over ``max_size`` (as IMAP hands it, where no SMTP server
    refused it first) or one whose structure defeats reading (MIME nested past all reason) is
    read for its headers only, with the problem noted: it is answered once, and done with."""
    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0][:65536] + b"\r\n\r\n"
    if len(raw) > max_size:
        letter = read_letter(head, envelope_sender=sender, envelope_recipients=recipients)
        return replace(letter, problems=(f"the mail is over {max_size // (1024 * 1024)} MB: it was not read",))
    deep = "the mail's structure could not be read (nested too deep?): it was not read"
    try:
        letter = read_letter(raw, envelope_sender=sender, envelope_recipients=recipients)
    except (RecursionError, ValueError, LookupError, TypeError, AttributeError):
        return replace(read_letter(head, envelope_sender=sender, envelope_recipients=recipients), problems=(deep,))
    if letter.problems and not letter.recipients and not letter.lines:
        # Unreadable as a whole: its headers still say whose it is, to answer it.
        return replace(read_letter(head, envelope_sender=sender, envelope_recipients=recipients), problems=(deep,))
    return letter


def _from_header(raw: bytes) -> str:
    """The address of a mail's ``From`` header ('' if none can be read)."""
    try:
        headers = BytesHeaderParser(policy=policy.compat32).parsebytes(raw[:65536])
        return parseaddr(str(headers.get("From", "")))[1]
    except Exception:  # a header past reading: not the judge's own
        return ""


def _own(letter: Letter, raw_from: str, settings: MailSettings) -> bool:
    """Whether a mail is the judge's own come back (a bounce, a loop through a player's
    forwarding): its envelope sender the judge's, or its From or Message-ID at the judge's
    domain (a mail the judge wrote; nobody plays from the judge's domain).

    >>> settings = MailSettings(domain="judge.example")
    >>> mine = Letter("ab12@judge.example", "ann@players.example", (), "", (), ())
    >>> _own(mine, "ann@players.example", settings), _own(mine, "", settings)
    (True, True)
    >>> theirs = Letter("x1@players.example", "ann@players.example", (), "", (), ())
    >>> _own(theirs, "judge@Judge.Example", settings), _own(theirs, "ann@players.example", settings)
    (True, False)
    """
    domain = settings.domain.strip().lower()
    if letter.sender.strip().lower() == settings.judge.lower():
        return True
    if raw_from.strip().lower().rpartition("@")[2] == domain:
        return True
    return (letter.message_id or "").strip().strip("<>").lower().rpartition("@")[2] == domain


def _holds(table: Table, actor: Actor, row: MailPlayer) -> bool:
    """Whether the mail row's account still holds what the row is for (its seat; the game
    master's place)."""
    member = table.member(actor)
    if row.power == MAIL_MASTER:
        return member.role is Role.MASTER
    return member.power == row.power


__all__ = ["REFUSED", "Handled", "Judge", "identify", "mail_key"]
