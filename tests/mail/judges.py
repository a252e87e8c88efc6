"""A judge for the tests, for real: its database (SQLite in a temporary directory), its SMTP
server on a free loopback port, and a relay (aiosmtpd, on another) that receives every mail
it sends; mails go in over SMTP and come out through the relay, parsed back."""

from __future__ import annotations

import smtplib
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import make_msgid, parseaddr
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from sqlalchemy import select

from fogdip.game import Actor, Table
from fogdip.mail.config import MailSettings
from fogdip.mail.service import MailService
from fogdip.server.db import Database
from fogdip.server.mail_seats import invite_by_mail, switch_to_mail
from fogdip.server.models import MailPlayer, User
from fogdip.server.store import ReadCache, SqlStore

MOMENT = datetime(2026, 1, 1, tzinfo=UTC)


@dataclass
class Received:
    sender: str
    recipients: tuple[str, ...]
    raw: bytes

    @property
    def mail(self) -> EmailMessage:
        parsed = BytesParser(policy=policy.default).parsebytes(self.raw)
        assert isinstance(parsed, EmailMessage)
        return parsed

    @property
    def text(self) -> str:
        body = self.mail.get_body(preferencelist=("plain",))
        assert body is not None
        return str(body.get_content()).replace("\r\n", "\n")

    def attachments(self) -> list[tuple[str, str, bytes]]:
        return [
            (str(part.get_filename()), part.get_content_type(), bytes(part.get_content()))
            for part in self.mail.iter_attachments()
        ]


class _Keep:
    def __init__(self, kept: list[Received], lock: threading.Lock) -> None:
        self.kept = kept
        self.lock = lock

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or envelope.content
        assert isinstance(raw, bytes)
        with self.lock:
            self.kept.append(Received(str(envelope.mail_from), tuple(envelope.rcpt_tos), raw))
        return "250 OK"


class Relay(Controller):
    """An SMTP relay on a free loopback port that keeps every mail it is sent."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.lock = threading.Lock()
        super().__init__(_Keep(self.received, self.lock), hostname="127.0.0.1", port=0)

    def _trigger_server(self) -> None:
        if self.server is not None and self.port == 0:
            self.port = int(self.server.sockets[0].getsockname()[1])
        super()._trigger_server()


@dataclass
class World:
    """A judge, its relay, and a game master's account."""

    db: Database
    reads: ReadCache
    settings: MailSettings
    service: MailService
    relay: Relay
    master: int
    seen: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def start(cls, folder: Path, database: str | None = None, **settings: Any) -> World:
        """A judge on a fresh SQLite database in ``folder`` (or on ``database``, a URL); its
        mails held for no time and not spread (``hold=...``, ``spread=...``: as given)."""
        relay = Relay()
        relay.start()
        db = Database(database or f"sqlite:///{folder / 'judge.sqlite3'}")
        db.upgrade()
        reads = ReadCache()
        db.on_commit(reads.committed)
        chosen = MailSettings(
            domain="judge.test", smtp_listen=("127.0.0.1", 0), relay=("127.0.0.1", relay.port), hold=0, spread=0
        )
        chosen = chosen.with_overrides(**settings)
        service = MailService(db, reads, chosen)
        service.start(loop=False)
        with db.transaction() as session:
            user = User(name="gm", name_key="gm", password_hash="!", is_admin=False, created_at=MOMENT)
            session.add(user)
            session.flush()
            master = user.id
        return cls(db, reads, chosen, service, relay, master)

    def stop(self) -> None:
        self.service.stop()
        self.relay.stop()
        self.db.dispose()

    # --- games -----------------------------------------------------------------------------

    def new_game(
        self, game_id: str, preset: str = "fog-of-war", options: dict[str, Any] | None = None, **settings: Any
    ) -> str:
        table = Table.create(game_id, preset, options or {}, master=Actor(str(self.master)), invite="inv", **settings)
        with self.db.transaction() as session:
            SqlStore(session, self.reads).add(table, MOMENT)
        return game_id

    def invite(self, game_id: str, power: str, address: str, *, secret: str | None = None) -> None:
        """The game master invites ``address`` to ``power`` (a fixed ``secret``: a test's)."""
        with self.db.transaction() as session:
            store = SqlStore(session, self.reads)
            table = store.find(game_id, self.master, lock=True)
            row = invite_by_mail(session, table, Actor(str(self.master)), power, address, MOMENT)
            if secret is not None:
                row.secret = secret
            store.save(table)

    def master_by_mail(self, game_id: str, address: str, *, secret: str | None = None) -> None:
        with self.db.transaction() as session:
            store = SqlStore(session, self.reads)
            table = store.find(game_id, self.master, lock=True)
            row = switch_to_mail(session, table, Actor(str(self.master)), address, MOMENT)
            if secret is not None:
                row.secret = secret
            store.save(table)

    def start_game(self, game_id: str) -> None:
        with self.db.transaction() as session:
            store = SqlStore(session, self.reads)
            table = store.find(game_id, self.master, lock=True)
            table.start(Actor(str(self.master)), MOMENT)
            store.save(table)

    def table(self, game_id: str) -> Table:
        with self.db.reading() as session:
            table = SqlStore(session, self.reads).find(game_id, self.master)
            table.game.record  # noqa: B018
            return table

    def address(self, game_id: str, power: str) -> str:
        with self.db.reading() as session:
            row = session.execute(
                select(MailPlayer).where(MailPlayer.game_id == game_id, MailPlayer.power == power)
            ).scalar_one()
            return self.settings.seat_address(row.game_id, row.power, row.secret)

    # --- mail ------------------------------------------------------------------------------

    def send(
        self,
        to: str,
        body: str,
        *,
        sender: str = "someone@players.test",
        message_id: str | None = None,
        subject: str = "orders",
        raw: bytes | None = None,
    ) -> None:
        """A mail to the judge over SMTP, as a mail server forwards it (raises if refused)."""
        if raw is None:
            mail = EmailMessage()
            mail["From"] = sender
            mail["To"] = to
            mail["Subject"] = subject
            mail["Message-ID"] = f"<{message_id}>" if message_id is not None else make_msgid(domain="players.test")
            mail.set_content(body)
            raw = mail.as_bytes(policy=policy.SMTP)
        port = self.service.smtp_port
        assert port is not None
        with smtplib.SMTP("127.0.0.1", port, timeout=60) as client:
            client.sendmail(sender, [to], raw)

    def deliver(self) -> list[Received]:
        """Send what the outbox holds; the mails the relay received since the last call."""
        self.service.round()
        with self.relay.lock:
            new = self.relay.received[self.seen :]
            self.seen = len(self.relay.received)
        return new

    def to(self, address: str, mails: list[Received]) -> list[Received]:
        return [mail for mail in mails if parseaddr(str(mail.mail["To"]))[1] == address]


@pytest.fixture(name="world")
def world_fixture(tmp_path: Path) -> Iterator[World]:
    """A judge with its SMTP server and a relay, on loopback, on a fresh database. (A fixture
    here, imported by the modules that use it as ``world_fixture``, not in a ``conftest.py``: ``tests/server`` has
    one, and two modules named ``conftest`` cannot both be collected for their doctests.)"""
    running = World.start(tmp_path)
    yield running
    running.stop()
