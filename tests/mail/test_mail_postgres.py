"""The judge on PostgreSQL: the same mails, the same once-only, the turn's mails queued in the
turn's own transaction (a row lock, not SQLite's one writer, keeps two mails of a seat apart)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from judges import World
from sqlalchemy import func, select

from fogdip.server.models import MailSeen
from server.servers import PostgresCluster, postgres_cluster

pytestmark = pytest.mark.slow
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


@pytest.fixture(scope="module")
def cluster() -> Iterator[PostgresCluster]:
    with postgres_cluster() as running:
        yield running


@pytest.fixture
def pg_world(cluster: PostgresCluster, tmp_path: Path) -> Iterator[World]:
    running = World.start(tmp_path, cluster.new_database(), maps=False)
    yield running
    running.stop()


def test_mail_players_play_a_turn_on_postgresql(pg_world: World) -> None:
    world = pg_world
    game = world.new_game("pg1")
    for power in POWERS:
        world.invite(game, power, f"{power.lower()}@players.test")
    world.start_game(game)
    assert len(world.deliver()) == 7
    world.send(world.address(game, "FRANCE"), "A PAR - BUR\nA PAR - NTH\n")
    (answer,) = world.deliver()
    assert "NOTHING WAS FILED: 1 of 2" in answer.text
    # Seven players' READY at once, each its own SMTP connection: one turn, played once.
    senders = [
        threading.Thread(
            target=world.send, args=(world.address(game, power), "READY\n"), kwargs={"message_id": f"r-{power}@p.test"}
        )
        for power in POWERS
    ]
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join()
    mails = world.deliver()
    assert sum("answer for" in m.text for m in mails) == 7
    turn_mails = [m for m in mails if "answer for" not in m.text]
    assert sorted(m.recipients[0] for m in turn_mails) == sorted(f"{p.lower()}@players.test" for p in POWERS)
    assert world.table(game).turn != "S1901M"
    world.send(world.address(game, "FRANCE"), "READY\n", message_id="r-FRANCE@p.test")  # delivered again
    assert world.deliver() == []
    with world.db.reading() as session:
        assert (
            session.execute(select(func.count()).select_from(MailSeen)).scalar_one() == 8
        )  # the first mail and seven READY
