"""The hold (N3): a turn's mails, the end's and press go out no sooner than the event's moment
plus ``MailSettings.hold``, all at once, in random order, so that when a mail comes tells no
player how many seats play by mail (each needs its map drawn before any is sent)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from judges import MOMENT, Received, World
from sqlalchemy import select
from test_mail_games import POWERS, _turn_with_web_seats

from fogdip.cli.mail_options import mail_settings
from fogdip.game import Actor
from fogdip.mail.config import MailSettings
from fogdip.mail.outbox import due, queue, retry_now, send_due
from fogdip.server.config import SettingError
from fogdip.server.models import OutboxMail
from fogdip.server.store import SqlStore

HOLD = 600.0


def _rows_to(world: World, address: str, start: str) -> list[OutboxMail]:
    """The outbox's rows to ``address`` whose text starts with ``start``."""
    with world.db.reading() as session:
        rows = session.execute(select(OutboxMail).where(OutboxMail.recipient == address)).scalars().all()
    return [row for row in rows if Received("", (), bytes(row.message)).text.startswith(start)]


def test_the_hold_is_a_setting_flag_and_variable() -> None:
    assert MailSettings().hold == 30.0
    assert MailSettings.from_env({"FOGDIP_MAIL_HOLD": "12.5"}).hold == 12.5
    assert mail_settings(None, None, None, None, None, None, mail_hold=0).hold == 0
    with pytest.raises(SettingError, match="FOGDIP_MAIL_HOLD"):
        MailSettings.from_env({"FOGDIP_MAIL_HOLD": "soon"})
    with pytest.raises(SettingError, match="--mail-hold"):
        MailSettings(hold=-1)


@pytest.mark.slow
def test_france_s_turn_mail_is_held_alike_with_one_or_five_seats_by_mail(tmp_path: Path) -> None:
    # The turn is played at MOMENT in both worlds: FRANCE alone by mail, or with four others.
    one = World.start(tmp_path / "one", hold=HOLD)
    other = World.start(tmp_path / "other", hold=HOLD)
    try:
        _turn_with_web_seats(one, by_mail=("FRANCE",))
        _turn_with_web_seats(other, by_mail=POWERS[:5])
        # The turn was played at MOMENT, long before the loop saw it (as if the server's clock
        # were behind): held from when the loop saw it, before building any mail.
        for world in (one, other):
            (row,) = _rows_to(world, "france@players.test", "FRANCE, ")
            seen = row.next_attempt_at - timedelta(seconds=HOLD)
            assert MOMENT < seen <= row.created_at
        # Every turn mail of the five is due at one same moment; France's answers were not held.
        others = [
            row.next_attempt_at
            for power in POWERS[:5]
            for row in _rows_to(other, f"{power.lower()}@players.test", power + ", ")
        ]
        assert len(others) == 5 and len(set(others)) == 1
        answers = _rows_to(one, "france@players.test", "The judge's answer for FRANCE")
        assert answers and all(row.next_attempt_at == row.created_at for row in answers)
    finally:
        one.stop()
        other.stop()


def _play(world: World, game: str, moment: datetime) -> None:
    """The game master plays the next turn at ``moment``."""
    with world.db.transaction() as session:
        store = SqlStore(session, world.reads)
        table = store.find(game, world.master, lock=True)
        table.adjudicate(Actor(str(world.master)), turn=None, moment=moment)
        store.save(table, moment)


def test_a_turn_mail_and_press_are_sent_only_once_the_hold_is_over(tmp_path: Path) -> None:
    world = World.start(tmp_path, hold=HOLD, maps=False)
    try:
        game = world.new_game("held")
        world.invite(game, "FRANCE", "ann@players.test")
        world.invite(game, "ENGLAND", "bob@players.test")
        world.start_game(game)
        assert sorted(m.recipients[0] for m in world.deliver()) == ["ann@players.test", "bob@players.test"]
        played = datetime.now(UTC)
        _play(world, game, played)
        assert world.deliver() == []  # queued, and held
        (row,) = _rows_to(world, "ann@players.test", "FRANCE, ")
        until = played.replace(microsecond=0) + timedelta(seconds=HOLD)
        assert row.next_attempt_at == until
        assert row.id not in {mail.id for mail in due(world.db, until - timedelta(seconds=1))}
        assert row.id in {mail.id for mail in due(world.db, until)}
        # A judge started again keeps the hold (it retries at once only mails that failed).
        retry_now(world.db, datetime.now(UTC))
        assert row.id not in {mail.id for mail in due(world.db, datetime.now(UTC))}
        # Press by mail: England's answer comes at once, France's mail of it only after the hold.
        world.send(world.address(game, "ENGLAND"), "PRESS TO FRANCE\nmeet me in Burgundy\nENDPRESS\n")
        (answer,) = world.deliver()
        assert answer.recipients == ("bob@players.test",) and "answer for ENGLAND" in answer.text
        (press,) = _rows_to(world, "ann@players.test", "A message")
        assert press.sent_at is None and press.next_attempt_at > datetime.now(UTC) + timedelta(seconds=HOLD - 60)
        assert send_due(world.db, world.settings, until - timedelta(seconds=1)) == 0
        assert send_due(world.db, world.settings, max(until, press.next_attempt_at)) == 3
        with world.relay.lock:
            kept = {(m.recipients[0], m.text.split("\n")[0][:12]) for m in world.relay.received[world.seen :]}
        assert ("ann@players.test", "FRANCE, Spri") in kept and ("bob@players.test", "ENGLAND, Spr") in kept
        assert any(to == "ann@players.test" and first.startswith("A message") for to, first in kept)
    finally:
        world.stop()


def test_mails_built_after_their_hold_go_out_at_once_and_the_log_names_no_seat(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # A hold far too short for the maps drawn: the mails go out once built, and the log says so.
    world = World.start(tmp_path, hold=0.001)
    try:
        game = world.new_game("slow")
        world.invite(game, "FRANCE", "ann@players.test")
        world.start_game(game)
        world.deliver()
        _play(world, game, datetime.now(UTC))
        with caplog.at_level(logging.WARNING, logger="fogdip.mail"):
            (mail,) = world.deliver()
        assert mail.text.startswith("FRANCE, ")
        (warning,) = [r.getMessage() for r in caplog.records if "hold" in r.getMessage()]
        assert "slow" in warning and "too short" in warning
        for secret in ("FRANCE", "france", "ann@", "judge.test"):
            assert secret not in warning
    finally:
        world.stop()


def test_due_mails_come_in_random_order_each_recipient_s_in_its_own(tmp_path: Path) -> None:
    world = World.start(tmp_path)
    try:
        with world.db.transaction() as session:
            for round_ in range(2):  # each of twelve recipients two mails: ids 1-12, then 13-24
                for index in range(12):
                    mail = EmailMessage()
                    mail["To"], mail["Message-ID"] = f"p{index}@players.test", f"<m{round_}-{index}@judge.test>"
                    mail.set_content(f"mail {round_}")
                    queue(session, mail, MOMENT)
        draws = [due(world.db, MOMENT) for _ in range(10)]
        orders = {tuple(mail.id for mail in draw) for draw in draws}
        assert len(orders) > 1  # (ten draws of 24 mails all alike: next to impossible)
        for draw in [*draws, *(due(world.db, MOMENT, limit=5) for _ in range(20))]:
            sent: dict[str, list[bytes]] = {}
            for mail in draw:
                sent.setdefault(mail.recipient, []).append(mail.message)
            # A recipient's second mail never before (or without) its first, in a batch of 5 too.
            for messages in sent.values():
                assert [b"mail 0" in message for message in messages] == [True, False][: len(messages)]
        assert len(due(world.db, MOMENT, limit=5)) == 5
    finally:
        world.stop()
