"""The e-mail judge running: the SMTP server that takes mail in, and a loop that queues the
mails of turns played elsewhere, the reminders due, and sends what the outbox holds. One
object, started and stopped; ``fogdip mail`` runs it on its own, ``fogdip serve --mail`` in the
server's process (on the server's own database object, so that every turn the server plays
wakes the loop, which builds and queues its mails right after, off the turn's request).
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.exc import SQLAlchemyError

from fogdip.mail import imap
from fogdip.mail.config import MailSettings
from fogdip.mail.inbound import JudgeController
from fogdip.mail.judge import Judge
from fogdip.mail.outbox import retry_now, send_due
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
    starts the SMTP server (if ``settings.smtp_listen``) and the sending loop."""

    def __init__(self, db: Database, reads: ReadCache, settings: MailSettings) -> None:
        self.db = db
        self.reads = reads
        self.settings = settings
        self.judge = Judge(db, reads, settings)
        self.smtp: JudgeController | None = None
        self._stop = threading.Event()
        #: Set when a transaction of this process played a turn: the loop runs at once.
        self._wake = threading.Event()
        self._loop: threading.Thread | None = None
        self._imap: imap.ImapPoller | None = None
        #: When the loop last pruned old rows (``None``: not yet).
        self._pruned_at: datetime | None = None

    @property
    def smtp_port(self) -> int | None:
        return None if self.smtp is None else int(self.smtp.port)

    def round(self, moment: datetime | None = None) -> Round:
        """One round: queue what is due, send what is queued, prune old rows (once an hour)."""
        moment = moment or now()
        queued = catch_up(self.db, self.reads, self.settings)
        reminded = remind(self.db, self.reads, self.settings, moment)
        sent = send_due(self.db, self.settings, max(moment, now()))  # what was just queued too
        pruned = prune_due(self.db, self.settings, moment, self._pruned_at)
        if pruned:
            self._pruned_at = moment
        return Round(queued, reminded, sent, pruned)

    def start(self, *, loop: bool = True) -> None:
        install(self.db, self.settings, self._wake)
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
            self._loop = threading.Thread(target=self._run, name="fogdip-mail", daemon=True)
            self._loop.start()

    def _run(self) -> None:
        while True:
            self._wake.wait(self.settings.send_every)
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                self.round()
            except Exception:  # the loop outlives a bad moment of the database or the relay
                log().exception("the mail loop failed; it tries again")

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._imap is not None:
            self._imap.stop()
            self._imap = None
        if self._loop is not None:
            self._loop.join(timeout=30)
        if self.smtp is not None:
            self.smtp.stop()
            self.smtp = None


__all__ = ["MailService", "Round"]
