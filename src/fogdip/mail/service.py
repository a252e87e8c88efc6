"""The e-mail judge running: the SMTP server that takes mail in; a loop that builds and
queues the mails of turns played (a map drawn for each mail seat), press, the reminders due;
and a sender, a thread of its own that sends what the outbox holds and never builds anything,
so that an answer to a player's own mail, or a held mail falling due, never waits while
another game's (or the same game's) maps are drawn. One object, started and stopped; ``fogdip
mail`` runs it on its own, ``fogdip serve --mail`` in the server's process (on the server's own
database object, so that every turn the server plays wakes the loop, which builds and queues
its mails right after, off the turn's request).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from fogdip.mail import imap
from fogdip.mail.config import MailSettings
from fogdip.mail.inbound import JudgeController
from fogdip.mail.judge import Judge
from fogdip.mail.outbox import QUEUED, retry_now, send_due
from fogdip.mail.prune import prune_due
from fogdip.mail.turns import catch_up, install, remind
from fogdip.server.db import Database
from fogdip.server.store import ReadCache, now


def log() -> logging.Logger:
    """The judge's log (looked up when used: nothing is kept at module level)."""
    return logging.getLogger("fogdip.mail")


@dataclass(frozen=True)
class Round:
    """What one round of the loop did: mails queued for turns played elsewhere (and
    welcomes), reminders queued, mails sent, old rows pruned."""

    queued: int
    reminded: int
    sent: int
    #: Whether old rows were pruned (:mod:`fogdip.mail.prune`: at most once an hour).
    pruned: bool = False


def imap_poller(settings: MailSettings, judge: Judge) -> imap.ImapPoller:
    """A poller of the IMAP mailbox (``fogdip.mail.imap``: its ``ImapPoller``) that
    hands each message to the judge: done with it once the judge's transaction committed
    (acted on, or already, or no seat's), left for the next poll on an error."""

    def handle(raw: bytes) -> bool:
        try:
            judge.handle_raw(raw)
        except Exception:
            log().exception("a mail from the IMAP mailbox could not be acted on; it is tried again")
            return False
        return True

    chosen = imap.ImapSettings(
        settings.imap_host or "",
        settings.imap_user or "",
        settings.imap_password or "",
        imap.ImapSecurity(settings.imap_tls),
        port=settings.imap_port,
        folder=settings.imap_folder,
        done_folder=settings.imap_done_folder,
        every=settings.imap_every,
    )
    return imap.ImapPoller(chosen, handle, log=log())


class MailService:
    """The judge on ``db``: :meth:`start` installs its hook on the database's transactions,
    starts the SMTP server (if ``settings.smtp_listen``), the building loop and the sender.

    ``before_build``, if given, is called at the start of each round of building (a test's
    way to make building slow on purpose: never called by the sender).

    Exactly one sender: while the threads run, only the sender thread calls
    :func:`~fogdip.mail.outbox.send_due`, and :meth:`round` (building and sending in the
    caller's thread, as the tests do) takes the same lock (``_sending``): two ``send_due`` at
    once could both read a mail as due and send it twice (a mail is marked sent only once the
    relay took it: no claim on it between)."""

    def __init__(
        self,
        db: Database,
        reads: ReadCache,
        settings: MailSettings,
        *,
        before_build: Callable[[], None] | None = None,
    ) -> None:
        self.db = db
        self.reads = reads
        self.settings = settings
        self.judge = Judge(db, reads, settings)
        self.smtp: JudgeController | None = None
        self.before_build = before_build
        self._stop = threading.Event()
        #: Set when a transaction of this process played a turn: the loop builds at once.
        self._wake = threading.Event()
        #: Set when a transaction of this process queued a mail: the sender sends at once.
        self._send_wake = threading.Event()
        #: Held by whoever sends: one ``send_due`` at a time in the process.
        self._sending = threading.Lock()
        self._loop: threading.Thread | None = None
        self._sender: threading.Thread | None = None
        self._imap: imap.ImapPoller | None = None
        #: When the loop last pruned old rows (``None``: not yet).
        self._pruned_at: datetime | None = None

    @property
    def smtp_port(self) -> int | None:
        return None if self.smtp is None else int(self.smtp.port)

    def build(self, moment: datetime | None = None) -> Round:
        """One round of building: queue what is due (turns, press, reminders), prune old rows
        (once an hour). Sends nothing (:attr:`Round.sent` is 0)."""
        moment = moment or now()
        if self.before_build is not None:
            self.before_build()
        queued = catch_up(self.db, self.reads, self.settings, noticed=now())
        reminded = remind(self.db, self.reads, self.settings, moment)
        pruned = prune_due(self.db, self.settings, moment, self._pruned_at)
        if pruned:
            self._pruned_at = moment
        return Round(queued, reminded, 0, pruned)

    def send(self, moment: datetime | None = None) -> int:
        """Send what is due at ``moment`` (default: now), the only sender of the process
        while it does (the lock ``_sending``). How many were sent."""
        with self._sending:
            return send_due(self.db, self.settings, moment or now())

    def round(self, moment: datetime | None = None) -> Round:
        """One round in the caller's thread: build (:meth:`build`), then send what is due
        (what was just queued too). The tests' loop, step by step."""
        moment = moment or now()
        built = self.build(moment)
        sent = self.send(max(moment, now()))
        return Round(built.queued, built.reminded, sent, built.pruned)

    def start(self, *, loop: bool = True) -> None:
        install(self.db, self.settings, self._wake)
        self.db.on_commit(self._queued)
        try:
            retry_now(self.db, now())
        except SQLAlchemyError:  # a database not yet brought up to date holds no mail
            log().info("no outbox to look at yet")
        if self.settings.smtp_listen is not None:
            host, port = self.settings.smtp_listen
            self.smtp = JudgeController(
                self.judge, host, port, domain=self.settings.domain, max_size=self.settings.max_size
            )
            self.smtp.start()
        if self.settings.imap_host:
            self._imap = imap_poller(self.settings, self.judge)
            self._imap.start()
        if loop:
            self.run()

    def run(self) -> None:
        """Start the building loop and the sender, each a thread of its own."""
        self._loop = threading.Thread(target=self._run, name="fogdip-mail", daemon=True)
        self._sender = threading.Thread(target=self._run_sender, name="fogdip-mail-sender", daemon=True)
        self._sender.start()
        self._loop.start()

    def _queued(self, session: Session) -> None:
        """After each commit: a transaction that queued a mail wakes the sender. Not at a
        savepoint's (the welcomes' in :func:`~fogdip.mail.turns.install`, where the outer
        transaction is still open, and SQLAlchemy calls this for the savepoint too): the mail
        would not be seen yet, and the wake lost."""
        if not session.in_nested_transaction() and session.info.pop(QUEUED, False):
            self._send_wake.set()

    def _run(self) -> None:
        """The building loop: woken by a turn played in the process, else every
        :attr:`MailSettings.send_every` seconds (turns played by another process)."""
        self._keep_doing(self._wake, self.build, "the mail loop")

    def _run_sender(self) -> None:
        """The sender: woken by a mail queued in the process, else every
        :attr:`MailSettings.send_every` seconds (held mails falling due, retries, mails
        queued by another process). It never builds anything."""
        self._keep_doing(self._send_wake, self.send, "the mail sender")

    def _keep_doing(self, wake: threading.Event, work: Callable[[], object], what: str) -> None:
        """Do ``work`` each time ``wake`` is set, or :attr:`MailSettings.send_every` seconds
        went by, until :meth:`stop`; outliving a bad moment of the database or the relay."""
        while True:
            wake.wait(self.settings.send_every)
            wake.clear()
            if self._stop.is_set():
                return
            try:
                work()
            except Exception:
                log().exception("%s failed; it tries again", what)

    def stop(self) -> None:
        """Stop taking mail in, and both threads (each ends its round first)."""
        self._stop.set()
        self._wake.set()
        self._send_wake.set()
        if self._imap is not None:
            self._imap.stop()
            self._imap = None
        for thread in (self._loop, self._sender):
            if thread is not None:
                thread.join(timeout=30)
        self._loop = self._sender = None
        if self.smtp is not None:
            self.smtp.stop()
            self.smtp = None


__all__ = ["MailService", "Round"]
