"""The judge's loop prunes what it keeps no longer than it needs, at most once an hour: a
mail's Message-ID after ``keep_days``, a refusal after a day, a sent mail after ``keep_days``;
a mail not yet sent, never."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from judges import World
from sqlalchemy import func, select

from fogdip.server.models import MailPlayer, MailRefusal, MailSeen, OutboxMail

NOW = datetime(2030, 6, 1, tzinfo=UTC)


def _old_and_new(world: World, seat: int, tag: str) -> None:
    """Of each kind, one row old enough to go and one too young."""
    with world.db.transaction() as session:
        for age, name in ((timedelta(days=31), "old"), (timedelta(days=29), "new")):
            session.add(MailSeen(mail_player_id=seat, message_id=f"{tag}-{name}@p.test", received_at=NOW - age))
            sent = NOW - age
            session.add(
                OutboxMail(
                    recipient=f"{tag}-{name}@p.test",
                    message_id=f"{tag}-{name}@judge.test",
                    message=b"x",
                    attempts=0,
                    next_attempt_at=sent,
                    sent_at=sent,
                    last_error=None,
                    created_at=sent,
                )
            )
        session.add(MailRefusal(sender=f"{tag}-old@p.test", answered_at=NOW - timedelta(hours=25)))
        session.add(MailRefusal(sender=f"{tag}-new@p.test", answered_at=NOW - timedelta(hours=22)))
        session.add(  # never sent, long held back: kept
            OutboxMail(
                recipient=f"{tag}-unsent@p.test",
                message_id=f"{tag}-unsent@judge.test",
                message=b"x",
                attempts=9,
                next_attempt_at=NOW + timedelta(hours=1),
                sent_at=None,
                last_error="refused",
                created_at=NOW - timedelta(days=90),
            )
        )


def _left(world: World, tag: str) -> list[str]:
    with world.db.reading() as session:
        found = [
            *session.execute(select(MailSeen.message_id)).scalars(),
            *session.execute(select(MailRefusal.sender)).scalars(),
            *session.execute(select(OutboxMail.message_id)).scalars(),
        ]
    return sorted(name.split("@")[0].removeprefix(f"{tag}-") for name in found if name.startswith(tag))


def test_the_loop_prunes_old_rows_at_most_once_an_hour(tmp_path: Path) -> None:
    world = World.start(tmp_path, maps=False)
    try:
        game = world.new_game("prune")
        world.invite(game, "FRANCE", "ann@players.test")
        with world.db.reading() as session:
            seat = session.execute(select(MailPlayer.id)).scalar_one()
        _old_and_new(world, seat, "x")
        assert world.service.round(NOW).pruned
        assert _left(world, "x") == ["new", "new", "new", "unsent"]
        # Within the hour: not again.
        _old_and_new(world, seat, "y")
        assert not world.service.round(NOW + timedelta(minutes=59)).pruned
        assert _left(world, "y") == ["new", "new", "new", "old", "old", "old", "unsent"]
        assert world.service.round(NOW + timedelta(minutes=61)).pruned
        assert _left(world, "y") == ["new", "new", "new", "unsent"]
        with world.db.reading() as session:  # and the welcome, sent in the first round (at NOW): kept
            assert session.execute(select(func.count()).select_from(OutboxMail)).scalar_one() == 5
    finally:
        world.stop()
