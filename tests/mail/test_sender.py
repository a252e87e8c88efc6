"""The sender (issue 23, the last attacker review): sending runs in a thread of its own that
never builds, so an answer to a player's own mail (and a held mail falling due) never waits
while turn mails are built (F1); one recipient's mails never overtake each other after a
relay's refusal (F5); the hold counts from when the loop saw the event if the clock of the
process that played it is behind; ``FOGDIP_MAIL_KEEP_DAYS`` is at least a week."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from judges import Relay, World
from sqlalchemy import select
from test_hold import _play
from test_mail_games import POWERS

from fogdip.mail.config import MailSettings
from fogdip.mail.letters import outgoing
from fogdip.mail.outbox import queue, send_due
from fogdip.server.config import SettingError
from fogdip.server.db import Database
from fogdip.server.models import OutboxMail

#: How long building a turn's mails is made to take (on purpose): the old loop, which sent
#: only once building was done, kept an answer back at least this long.
BUILD = 5.0


def _answer_to(world: World, address: str, since: int, within: float) -> float | None:
    """Seconds until the relay has received (after its ``since``-th mail) the judge's answer to
    ``address``, polled for ``within`` seconds (``None``: not in that time)."""
    start = time.monotonic()
    while time.monotonic() - start < within:
        with world.relay.lock:
            new = world.relay.received[since:]
        if any(m.recipients == (address,) and m.text.startswith("The judge's answer") for m in new):
            return time.monotonic() - start
        time.sleep(0.01)
    return None


def test_an_answer_and_a_held_mail_go_out_while_a_turn_s_mails_are_built(tmp_path: Path) -> None:
    world = World.start(tmp_path, maps=False, send_every=0.25)
    slow, building, built = threading.Event(), threading.Event(), threading.Event()

    def before_build() -> None:  # building this turn's mails takes BUILD seconds, on purpose
        if slow.is_set():
            slow.clear()
            building.set()
            time.sleep(BUILD)
            built.set()

    world.service.before_build = before_build
    try:
        game = world.new_game("slow")
        world.invite(game, "FRANCE", "ann@players.test")
        world.invite(game, "ENGLAND", "bob@players.test")
        world.start_game(game)
        assert len(world.deliver()) == 2  # the welcomes
        world.service.run()
        slow.set()
        _play(world, game, datetime.now(UTC))  # wakes the loop: it builds, slowly
        assert building.wait(10)
        # Another game's held mail falls due while the turn's mails are built.
        with world.db.transaction() as session:
            other = outgoing("cat@players.test", "held", "a held mail", sender=world.settings.judge)
            queue(session, other, datetime.now(UTC), datetime.now(UTC) + timedelta(seconds=1))
        with world.relay.lock:
            before = len(world.relay.received)
        world.send(world.address(game, "FRANCE"), "STATUS\n")
        waited = _answer_to(world, "ann@players.test", before, BUILD + 5)
        assert waited is not None and waited < 2.0, waited
        assert not built.is_set()  # (the answer came while the build still went on)
        deadline = time.monotonic() + 3.0
        while time.monotonic() < deadline:
            with world.relay.lock:
                if any(m.recipients == ("cat@players.test",) for m in world.relay.received[before:]):
                    break
            time.sleep(0.01)
        assert not built.is_set()
        with world.relay.lock:
            assert any(m.recipients == ("cat@players.test",) for m in world.relay.received[before:])
        # Once built, the turn's mails go out too (held for no time here).
        assert built.wait(BUILD + 5)
        deadline = time.monotonic() + 10.0
        while time.monotonic() < deadline:
            with world.relay.lock:
                turns = [m for m in world.relay.received[before:] if m.text.startswith(("FRANCE, ", "ENGLAND, "))]
            if len(turns) == 2:
                break
            time.sleep(0.05)
        assert sorted(m.recipients[0] for m in turns) == ["ann@players.test", "bob@players.test"]
    finally:
        world.stop()
    # Both threads are stopped, and stop again without harm.
    assert world.service._loop is None and world.service._sender is None
    assert not [t for t in threading.enumerate() if t.name.startswith("fogdip-mail") and t.is_alive()]


def test_the_answer_to_the_ready_that_plays_a_turn_is_not_kept_back_by_its_build(tmp_path: Path) -> None:
    # The sender looks on its own only every minute: the answer goes out because its commit
    # woke the sender (the one that plays the turn, whose welcomes' savepoint comes first).
    world = World.start(tmp_path, maps=False, send_every=60.0)
    building, built = threading.Event(), threading.Event()

    def before_build() -> None:  # every build takes BUILD seconds, on purpose
        building.set()
        time.sleep(BUILD)
        built.set()

    try:
        game = world.new_game("ready")
        for power in POWERS:
            world.invite(game, power, "ann@players.test" if power == "FRANCE" else f"{power}@players.test")
        world.start_game(game)
        for power in POWERS:
            if power != "FRANCE":
                world.send(world.address(game, power), "READY\n")
        world.deliver()
        world.service.before_build = before_build
        world.service.run()
        with world.relay.lock:
            before = len(world.relay.received)
        world.send(world.address(game, "FRANCE"), "READY\n")  # the last: it plays the turn
        waited = _answer_to(world, "ann@players.test", before, BUILD + 5)
        assert waited is not None and waited < 2.0, waited
        assert building.is_set() and not built.is_set()
        assert world.table(game).turn != "S1901M"
    finally:
        world.stop()


class _Refusing:
    """A relay that refuses, with ``code``, every mail whose text holds ``word``, ``times``
    times; keeps the first line of each mail it takes, with its recipient."""

    def __init__(self, word: str, code: str, times: int) -> None:
        self.word, self.code, self.times = word, code, times
        self.got: list[tuple[str, str]] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        body = bytes(envelope.content or b"").decode()
        with self.lock:
            if self.word in body and self.times > 0:
                self.times -= 1
                return self.code
            text = body.split("\r\n\r\n", 1)[1].strip().splitlines()[0]
            self.got.append((str(envelope.rcpt_tos[0]), text))
        return "250 OK"


class _RefusingRelay(Relay):
    def __init__(self, handler: _Refusing) -> None:
        Controller.__init__(self, handler, hostname="127.0.0.1", port=0)


def _outbox(folder: Path, handler: _Refusing, **settings: object) -> tuple[Database, MailSettings, Relay]:
    relay = _RefusingRelay(handler)
    relay.start()
    db = Database(f"sqlite:///{folder / 'outbox.sqlite3'}")
    db.upgrade()
    chosen = MailSettings(domain="judge.test", relay=("127.0.0.1", relay.port), smtp_listen=None)
    return db, chosen.with_overrides(**settings), relay


def _queue_now(db: Database, settings: MailSettings, mails: list[tuple[str, str]]) -> datetime:
    """Queue ``mails`` (recipient, text), in that order, not held; when they were queued."""
    start = datetime.now(UTC)
    with db.transaction() as session:
        for to, text in mails:
            queue(session, outgoing(to, "turn", text, sender=settings.judge), start)
    return start


def test_a_recipient_s_mails_keep_their_order_after_a_refusal(tmp_path: Path) -> None:
    # The relay refuses France's spring report once (451: greylisting, a busy moment).
    handler = _Refusing("report of turn S1901M", "451 4.7.1 try again later", 1)
    db, settings, relay = _outbox(tmp_path, handler)
    try:
        start = _queue_now(
            db,
            settings,
            [
                ("fr@p.test", "report of turn S1901M"),
                ("fr@p.test", "report of turn F1901M"),
                ("en@p.test", "England's spring report"),
            ],
        )
        assert send_due(db, settings, start) == 1  # England's; France's autumn waits behind its spring
        assert handler.got == [("en@p.test", "England's spring report")]
        assert send_due(db, settings, start + timedelta(seconds=5)) == 0  # spring's retry not yet due
        assert send_due(db, settings, start + timedelta(seconds=60)) == 2
        assert [text for to, text in handler.got if to == "fr@p.test"] == [
            "report of turn S1901M",
            "report of turn F1901M",
        ]
    finally:
        relay.stop()
        db.dispose()


def test_a_mail_given_up_on_holds_up_no_later_mail(tmp_path: Path) -> None:
    # Refused every time, given up after two attempts: France's next mail then goes.
    handler = _Refusing("report of turn S1901M", "451 4.7.1 try again later", 99)
    db, settings, relay = _outbox(tmp_path, handler, attempts=2)
    try:
        start = _queue_now(
            db, settings, [("fr@p.test", "report of turn S1901M"), ("fr@p.test", "report of turn F1901M")]
        )
        assert send_due(db, settings, start) == 0 and handler.got == []
        assert send_due(db, settings, start + timedelta(seconds=60)) == 1
        assert handler.got == [("fr@p.test", "report of turn F1901M")]
        with db.reading() as session:
            first = session.execute(select(OutboxMail).order_by(OutboxMail.id)).scalars().first()
            assert first is not None and first.sent_at is not None and first.attempts == 1
            assert str(first.last_error).startswith("given up after 2 attempts")
    finally:
        relay.stop()
        db.dispose()


class _NoSuchUser(_Refusing):
    """A relay that refuses the address ``gone@p.test`` for good (550), and takes the rest."""

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, rcpt_options: list[str]
    ) -> str:
        if address == "gone@p.test":
            return "550 5.1.1 no such user"
        envelope.rcpt_tos.append(address)
        return "250 OK"


def test_an_address_refused_for_good_is_given_up_at_once(tmp_path: Path) -> None:
    handler = _NoSuchUser("nothing refused here", "451 never", 0)
    db, settings, relay = _outbox(tmp_path, handler)
    try:
        start = _queue_now(db, settings, [("gone@p.test", "first"), ("gone@p.test", "second"), ("fr@p.test", "hello")])
        assert send_due(db, settings, start) == 1 and handler.got == [("fr@p.test", "hello")]
        assert send_due(db, settings, start) == 0  # the second was given up on too, not retried
        with db.reading() as session:
            rows = session.execute(select(OutboxMail).where(OutboxMail.recipient == "gone@p.test")).scalars().all()
        assert len(rows) == 2 and all(row.sent_at is not None and row.attempts == 0 for row in rows)
        assert all("550" in str(row.last_error) and "given up" in str(row.last_error) for row in rows)
    finally:
        relay.stop()
        db.dispose()


def test_the_hold_counts_from_when_the_loop_saw_a_turn_played_on_a_clock_behind(tmp_path: Path) -> None:
    hold = 600.0
    world = World.start(tmp_path, hold=hold, maps=False)
    try:
        behind, ahead = world.new_game("behind"), world.new_game("ahead")
        for game in (behind, ahead):
            world.invite(game, "FRANCE", f"{game}@players.test")
            world.start_game(game)
        world.deliver()
        played_ahead = (datetime.now(UTC) + timedelta(hours=1)).replace(microsecond=0)
        _play(world, behind, datetime.now(UTC) - timedelta(hours=1))  # the server's clock an hour behind
        _play(world, ahead, played_ahead)  # an hour ahead
        seen = datetime.now(UTC).replace(microsecond=0)
        assert world.deliver() == []  # neither goes out as soon as built
        done = datetime.now(UTC)
        with world.db.reading() as session:
            held = {
                str(row.recipient): row.next_attempt_at
                for row in session.execute(select(OutboxMail).where(OutboxMail.sent_at.is_(None))).scalars()
            }
        hold_for = timedelta(seconds=hold)
        assert seen + hold_for <= held["behind@players.test"] <= done + hold_for
        assert held["ahead@players.test"] == played_ahead + hold_for
    finally:
        world.stop()


def test_mail_keep_days_is_at_least_a_week() -> None:
    assert MailSettings(keep_days=7).keep_days == 7
    assert MailSettings.from_env({"FOGDIP_MAIL_KEEP_DAYS": "10"}).keep_days == 10
    for wrong in ("6.9", "1", "0", "-3", "nan"):
        with pytest.raises(SettingError, match=r"FOGDIP_MAIL_KEEP_DAYS is days, at least 7 \(mail servers retry"):
            MailSettings.from_env({"FOGDIP_MAIL_KEEP_DAYS": wrong})
