"""The spread (issue 23): each held mail goes out at its own moment, the event's moment plus the
hold plus a draw of its own in 0 to ``MailSettings.spread``, so that how many mails of other
seats went ahead of it through the relay (each costs a send) does not delay it; a recipient's
held mails still go out in the order queued; answers are neither held nor spread."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from judges import MOMENT, Received, World
from sqlalchemy import select
from test_hold import _play
from test_mail_games import POWERS

from fogdip.cli.mail_options import mail_settings
from fogdip.mail.config import MailSettings
from fogdip.mail.outbox import due, held_until, queue, send_due
from fogdip.mail.turns import catch_up, remind
from fogdip.server.config import SettingError
from fogdip.server.models import GameRow, OutboxMail

HOLD = 600.0
SPREAD = 60.0


class Fixed(random.Random):
    """A chance whose every draw is ``fraction`` of the way between its bounds (``uniform``
    draws through :meth:`random`), counting its draws: a mail's moment drawn from it says
    whether the mail's offset came from its own draw, or from anything else (its place among
    the event's mails, how many there are)."""

    def __init__(self, fraction: float) -> None:
        super().__init__(0)
        self.fraction = fraction
        self.draws = 0

    def random(self) -> float:
        self.draws += 1
        return self.fraction


def _rows_to(world: World, address: str, start: str) -> list[OutboxMail]:
    """The outbox's rows to ``address`` whose text starts with ``start``, in id order."""
    with world.db.reading() as session:
        rows = (
            session.execute(select(OutboxMail).where(OutboxMail.recipient == address).order_by(OutboxMail.id))
            .scalars()
            .all()
        )
    return [row for row in rows if Received("", (), bytes(row.message)).text.startswith(start)]


def _world_played(folder: Path, by_mail: tuple[str, ...], spread: float = SPREAD) -> tuple[World, str, datetime]:
    """A judge (held :data:`HOLD`, spread ``spread``) whose game has ``by_mail`` seats by mail,
    welcomed; its first turn played now (when: the third value, in whole seconds, as the
    turn keeps it), its mails not yet queued."""
    world = World.start(folder, hold=HOLD, spread=spread, maps=False)
    game = world.new_game("spread")
    for power in by_mail:
        world.invite(game, power, f"{power.lower()}@players.test")
    world.start_game(game)
    assert len(world.deliver()) == len(by_mail)  # the welcomes: neither held nor spread
    played = datetime.now(UTC)
    _play(world, game, played)
    return world, game, played.replace(microsecond=0)


def test_the_spread_is_a_setting_flag_and_variable() -> None:
    assert MailSettings().spread == 60.0
    assert MailSettings.from_env({"FOGDIP_MAIL_SPREAD": "12.5"}).spread == 12.5
    assert mail_settings(None, None, None, None, None, None, mail_spread=0).spread == 0
    with pytest.raises(SettingError, match="FOGDIP_MAIL_SPREAD"):
        MailSettings.from_env({"FOGDIP_MAIL_SPREAD": "a minute"})
    for wrong in (-1.0, 86401.0, float("nan")):
        with pytest.raises(SettingError, match="--mail-spread"):
            MailSettings(spread=wrong)


def test_a_held_moment_is_the_hold_plus_a_draw_of_its_own_within_the_spread() -> None:
    event = datetime(2026, 3, 1, 12, 0, 0)
    settings = MailSettings(hold=HOLD, spread=SPREAD)
    drawn = [held_until(event, settings) - event - timedelta(seconds=HOLD) for _ in range(1000)]
    assert all(timedelta(0) <= offset <= timedelta(seconds=SPREAD) for offset in drawn)
    # Spread over the whole span (a thousand draws all in one quarter of it: next to impossible).
    assert min(drawn) < timedelta(seconds=SPREAD / 4) and max(drawn) > timedelta(seconds=SPREAD * 3 / 4)
    # One draw per mail, from the chance given, and nothing else.
    chance = Fixed(0.25)
    assert held_until(event, settings, chance) == event + timedelta(seconds=HOLD + SPREAD / 4)
    assert chance.draws == 1
    # No spread: exactly the hold, and no draw at all.
    assert held_until(event, MailSettings(hold=HOLD, spread=0), chance) == event + timedelta(seconds=HOLD)
    assert chance.draws == 1


def test_a_turn_s_held_mails_each_have_their_own_moment_within_the_spread(tmp_path: Path) -> None:
    world, _game, played = _world_played(tmp_path, POWERS[:5])
    try:
        assert world.deliver() == []  # queued (the OS's randomness), and held
        moments = [
            row.next_attempt_at
            for power in POWERS[:5]
            for row in _rows_to(world, f"{power.lower()}@players.test", power + ", ")
        ]
        assert len(moments) == 5
        start = played + timedelta(seconds=HOLD)
        assert all(start <= moment <= start + timedelta(seconds=SPREAD) for moment in moments)
        assert len(set(moments)) == 5  # five draws of a minute, to the microsecond: never alike
    finally:
        world.stop()


def test_france_s_moment_is_its_own_draw_with_one_or_five_seats_by_mail(tmp_path: Path) -> None:
    # The same fixed chance in both worlds: if France's mail's moment followed from its place
    # among the turn's mails, or from how many there are, it would differ between the worlds.
    offsets, draws = [], []
    for folder, by_mail in (("one", ("FRANCE",)), ("five", POWERS[:5])):
        world, game, played = _world_played(tmp_path / folder, by_mail)
        try:
            chance = Fixed(0.37)
            # (Seen by the loop when it was played: the hold counts from then, turns.held_from.)
            assert catch_up(world.db, world.reads, world.settings, chance, noticed=played) == len(by_mail)
            draws.append((chance.draws, len(by_mail)))
            (france,) = _rows_to(world, "france@players.test", "FRANCE, ")
            offsets.append(france.next_attempt_at - played - timedelta(seconds=HOLD))
            # France's press too: its own draw after the message's moment; England's answer
            # (to its own mail) neither held nor spread.
            if "ENGLAND" in by_mail:
                world.send(world.address(game, "ENGLAND"), "PRESS TO FRANCE\nmeet me in Burgundy\nENDPRESS\n")
                (answer,) = _rows_to(world, "england@players.test", "The judge's answer")
                assert answer.next_attempt_at == answer.created_at
                chance = Fixed(0.9)
                assert catch_up(world.db, world.reads, world.settings, chance) == 1 and chance.draws == 1
                (press,) = _rows_to(world, "france@players.test", "A message")
                sent = press.next_attempt_at - timedelta(seconds=HOLD + 0.9 * SPREAD)
                assert press.created_at - timedelta(seconds=5) <= sent <= press.created_at
                (mail,) = world.deliver()  # the answer at once, though its turn mail is held
                assert mail.recipients == ("england@players.test",) and "answer for ENGLAND" in mail.text
        finally:
            world.stop()
    assert offsets == [timedelta(seconds=0.37 * SPREAD)] * 2
    assert draws == [(1, 1), (5, 5)]  # one draw per held mail


def _mail(to: str, name: str) -> EmailMessage:
    mail = EmailMessage()
    mail["To"], mail["Message-ID"] = to, f"<{name}@judge.test>"
    mail.set_content(name)
    return mail


def test_a_recipient_s_held_mails_go_out_in_their_order_when_the_later_drew_the_earlier_moment(
    tmp_path: Path,
) -> None:
    world = World.start(tmp_path, hold=HOLD, spread=SPREAD)
    try:
        settings = world.settings
        with world.db.transaction() as session:
            # Ann's turn mail drew late, her press mail (a second later) early; Bob's drew early.
            first = held_until(MOMENT, settings, Fixed(0.9))
            second = held_until(MOMENT + timedelta(seconds=1), settings, Fixed(0.1))
            assert second < first
            queue(session, _mail("ann@players.test", "ann-turn"), MOMENT, first)
            queue(session, _mail("ann@players.test", "ann-press"), MOMENT, second)
            queue(session, _mail("bob@players.test", "bob-turn"), MOMENT, held_until(MOMENT, settings, Fixed(0.1)))
            # An answer to Ann's own mail, queued after both: not held, it waits for neither.
            queue(session, _mail("ann@players.test", "ann-answer"), MOMENT + timedelta(seconds=2))
        between = second + timedelta(seconds=1)
        assert sorted(mail.message.split(b"\r\n")[-2] for mail in due(world.db, between)) == [
            b"ann-answer",
            b"bob-turn",
        ]
        assert send_due(world.db, settings, between) == 2
        # Ann's press mail, due since ``second``, waits for her turn mail, due at ``first``.
        assert due(world.db, first - timedelta(microseconds=1)) == []
        for _ in range(20):  # (in random order otherwise: her turn mail comes first every time)
            names = [mail.message.split(b"\r\n")[-2] for mail in due(world.db, first)]
            assert names == [b"ann-turn", b"ann-press"]
        assert send_due(world.db, settings, first) == 2
        with world.relay.lock:
            to_ann = [m.text.strip() for m in world.relay.received if m.recipients == ("ann@players.test",)]
        assert to_ann == ["ann-answer", "ann-turn", "ann-press"]
    finally:
        world.stop()


def test_a_reminder_is_held_and_spread_by_its_own_draw_never_past_the_deadline(tmp_path: Path) -> None:
    world = World.start(tmp_path, hold=HOLD, spread=SPREAD, maps=False)
    try:
        game = world.new_game("remind", deadlines={"movement": 24 * 3600})
        for power in ("FRANCE", "ENGLAND"):
            world.invite(game, power, f"{power.lower()}@players.test")
        world.start_game(game)
        world.deliver()
        for power in ("FRANCE", "ENGLAND"):
            world.send(world.address(game, power), "SET REMIND 6\n")
        world.deliver()
        with world.db.reading() as session:
            deadline = session.execute(select(GameRow.deadline_at).where(GameRow.id == game)).scalar_one()
        assert deadline is not None
        chance = Fixed(0.5)
        assert remind(world.db, world.reads, world.settings, deadline - timedelta(hours=5), chance) == 2
        assert chance.draws == 2  # one draw per reminder
        fell_due = (deadline - timedelta(hours=6)).replace(microsecond=0)
        for power in ("FRANCE", "ENGLAND"):
            (row,) = _rows_to(world, f"{power.lower()}@players.test", f"{power}: you have not filed")
            assert row.next_attempt_at == fell_due + timedelta(seconds=HOLD + SPREAD / 2) <= deadline
    finally:
        world.stop()
