"""Seats by mail through the server's own routes, a game of web and mail players and the bot,
the game master's commands, reminders, turns played where the judge was not running, and a
relay that does not answer."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from judges import Relay, World, world_fixture  # noqa: F401  (the fixture "world")
from sqlalchemy import func, select, text

from fogdip.bots.base import bot_named
from fogdip.client import ApiFailure, FogdipClient
from fogdip.game import Actor
from fogdip.mail.config import MailSettings
from fogdip.mail.service import MailService
from fogdip.server.config import Settings
from fogdip.server.models import GameRow, MailPlayer, MailSeen, OutboxMail
from fogdip.server.store import SqlStore
from fogdip.web import create_site

PASSWORD = "correct horse battery"


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[FogdipClient, FogdipClient, World]]:
    """A server (in-process) and the judge on its own database objects, as ``serve --mail``."""
    with ExitStack() as held:
        app = create_site(Settings(tmp_path, rate_per_minute=10**9, log_level="warning", deadline_check=3600))
        held.enter_context(TestClient(app))
        clients = []
        for name in ("gmaster", "webplayer"):
            client = FogdipClient("http://testserver")
            client._http.close()
            client._http = held.enter_context(TestClient(app))
            client.sign_up(name, PASSWORD)
            client.sign_in(name, PASSWORD)
            clients.append(client)
        state = app.state.fogdip
        relay = Relay()
        relay.start()
        settings = MailSettings(
            domain="judge.test", smtp_listen=("127.0.0.1", 0), relay=("127.0.0.1", relay.port), hold=0, spread=0
        )
        service = MailService(state.db, state.reads, settings)
        service.start(loop=False)
        world = World(state.db, state.reads, settings, service, relay, master=1)
        yield clients[0], clients[1], world
        service.stop()
        relay.stop()


def test_the_game_master_invites_by_mail_and_a_web_player_switches_to_mail(
    site: tuple[FogdipClient, FogdipClient, World],
) -> None:
    master, web, world = site
    game = master.create_game("fog-of-war", {"end_year": 1901}, name="mixed").id
    invite = master.game(game).invite
    answer = master.request(
        "POST", f"/api/v1/games/{game}/mail-players", json={"power": "FRANCE", "address": "ann@players.test"}
    )
    assert answer.status_code == 201 and answer.json() == {"power": "FRANCE", "address": "ann@players.test"}
    # The same rules as joining: a taken seat is refused.
    with pytest.raises(ApiFailure) as taken:
        master.request(
            "POST", f"/api/v1/games/{game}/mail-players", json={"power": "FRANCE", "address": "b@players.test"}
        )
    assert taken.value.status == 409
    # Only the game master invites.
    with pytest.raises(ApiFailure) as refused:
        web.request("POST", f"/api/v1/games/{game}/mail-players", json={"power": "ITALY", "address": "c@players.test"})
    assert refused.value.status in (403, 404)
    with pytest.raises(ApiFailure) as bad:
        master.request(
            "POST", f"/api/v1/games/{game}/mail-players", json={"power": "ITALY", "address": "not an address"}
        )
    assert bad.value.status == 400
    web.join(game, "ENGLAND", invite)
    switched = web.request("POST", f"/api/v1/games/{game}/mail", json={"address": "bob@players.test"})
    assert switched.status_code == 200 and switched.json()["power"] == "ENGLAND"
    master.request("POST", f"/api/v1/games/{game}/mail", json={"address": "gm@players.test"})
    master.seat_bots(game, None, "random")
    master.start(game)
    mails = world.deliver()
    assert sorted(m.recipients[0] for m in mails) == ["ann@players.test", "bob@players.test", "gm@players.test"]
    # France files by mail; England by the web; the game master adjudicates by mail.
    world.send(world.address(game, "FRANCE"), "A PAR - BUR\n")
    master_address = world.address(game, "+master")
    world.send(master_address, "PAUSE\nRESUME\nADJUDICATE\n")
    mails = world.deliver()
    by = {m.recipients[0]: m for m in mails if "answer" in m.text}
    assert "S1901M was played" in by["gm@players.test"].text
    assert "the game is paused" in by["gm@players.test"].text
    turn_mails = [m for m in mails if "answer" not in m.text]
    assert sorted(m.recipients[0] for m in turn_mails) == ["ann@players.test", "bob@players.test", "gm@players.test"]
    (france,) = [m for m in turn_mails if m.recipients[0] == "ann@players.test"]
    assert "A PAR - BUR" in france.text and france.text.startswith("FRANCE, ")
    # A player's commands of the game master's are refused.
    world.send(world.address(game, "FRANCE"), "ADJUDICATE\nEXTEND 3\n")
    (told,) = world.deliver()
    assert told.text.count("only the game master can do that") == 2


def test_a_turn_the_web_plays_is_mailed_by_the_loop_right_after(site: tuple[FogdipClient, FogdipClient, World]) -> None:
    # (Once queued in the turn's own transaction: the request then took longer the more seats
    # played by mail. Now the turn's transaction leaves the mail rows' counters behind the
    # game's, durable with the turn, and the judge's loop queues the mails once.)
    master, web, world = site
    game = master.create_game("fog-of-war", {}, name="web turn").id
    world.invite(game, "FRANCE", "ann@players.test")
    web.join(game, "ENGLAND", master.game(game).invite)
    master.start(game)
    world.deliver()
    world.send(world.address(game, "FRANCE"), "READY\n")
    world.deliver()
    with world.db.transaction() as session:  # the other seats: the bot, filed now
        store = SqlStore(session, world.reads)
        table = store.find(game, 1, lock=True)
        table.seat_bots(Actor("1"), [p for p in table.game.powers if p not in ("FRANCE", "ENGLAND")], "random")
        table.think(bot_named, random.Random(1), datetime.now(UTC))
        store.save(table)
    with world.db.reading() as session:
        before = session.execute(select(func.count()).select_from(OutboxMail)).scalar_one()
    web.ready(game)  # every seat ready: the web's request plays the turn
    with world.db.reading() as session:
        after = session.execute(select(func.count()).select_from(OutboxMail)).scalar_one()
        mailed = session.execute(select(MailPlayer.mailed_turns)).scalar_one()
        played = session.execute(select(GameRow.turns_played).where(GameRow.id == game)).scalar_one()
    assert after == before and mailed == 0 and played == 1  # built by no request: due, durably
    (mail,) = world.deliver()
    assert mail.recipients == ("ann@players.test",) and mail.text.startswith("FRANCE, ")
    assert world.deliver() == []  # once
    with world.db.reading() as session:
        assert session.execute(select(MailPlayer.mailed_turns)).scalar_one() == 1


def test_turns_played_without_the_judge_are_mailed_once_when_it_looks(tmp_path: Path) -> None:
    world = World.start(tmp_path, maps=False)
    try:
        game = world.new_game("nohook")
        world.invite(game, "FRANCE", "ann@players.test")
        world.start_game(game)
        world.deliver()
        # Another process (no judge in it) plays a turn: nothing marks it for the hook.
        with world.db.sessions.begin() as session:
            store = SqlStore(session, world.reads)
            table = store.find(game, world.master, lock=True)
            table.adjudicate(Actor(str(world.master)), turn=None, moment=datetime.now(UTC))
            store.save(table)
            session.info.clear()  # as in a process without the judge's hook
        mails = world.deliver()
        assert [m.recipients for m in mails] == [("ann@players.test",)]
        assert world.deliver() == []
    finally:
        world.stop()


def test_reminders_go_once_a_turn_to_who_has_not_filed(world: World) -> None:
    game = world.new_game("remind", deadlines={"movement": 24 * 3600})
    for power in ("FRANCE", "ENGLAND"):
        world.invite(game, power, f"{power.lower()}@players.test")
    world.start_game(game)
    world.deliver()
    world.send(world.address(game, "FRANCE"), "SET REMIND 6\n")
    world.send(world.address(game, "ENGLAND"), "SET REMIND 6\nF LON - NTH\n")
    answers = world.deliver()
    assert any("a reminder 6 h before each deadline" in m.text for m in answers)
    with world.db.reading() as session:
        deadline = session.execute(select(GameRow.deadline_at).where(GameRow.id == game)).scalar_one()
    assert deadline is not None
    early = world.service.round(deadline - timedelta(hours=7))
    assert early.reminded == 0
    late = world.service.round(deadline - timedelta(hours=5))
    assert late.reminded == 1
    assert world.service.round(deadline - timedelta(hours=4)).reminded == 0
    reminders = world.deliver()
    (reminder,) = [m for m in world.relay.received if "reminder" in str(m.mail["Subject"])]
    assert reminder.recipients == ("france@players.test",)
    del reminders


def test_newaddress_retires_the_old_secret(world: World) -> None:
    game = world.new_game("newaddr")
    world.invite(game, "FRANCE", "ann@players.test")
    world.deliver()
    old = world.address(game, "FRANCE")
    world.send(old, "NEWADDRESS\n")
    (answer,) = world.deliver()
    new = world.address(game, "FRANCE")
    assert new != old and new in answer.text and str(answer.mail["Reply-To"]) == new
    world.send(old, "STATUS\n", sender="ann@players.test")
    (refused,) = world.deliver()
    assert "was not read" in refused.text
    world.send(new, "STATUS\nHISTORY\n")
    (status,) = world.deliver()
    assert "You play FRANCE" in status.text and "FRANCE, before Spring 1901" in status.text


def test_press_rules_are_the_tables(world: World) -> None:
    game = world.new_game("gunboat", press="gunboat")
    world.invite(game, None, "ann@players.test")  # type: ignore[arg-type]  # gunboat: a free seat at random
    quiet = world.new_game("quiet", press="none")
    world.invite(quiet, "FRANCE", "ann@players.test")
    world.deliver()
    world.send(world.address(quiet, "FRANCE"), "BROADCAST\nhi\nENDPRESS\n")
    (answer,) = world.deliver()
    assert "REFUSED: this game has no press" in answer.text and "message sent" not in answer.text
    black = world.new_game("black", press="black")
    world.invite(black, "FRANCE", "bob@players.test")
    world.deliver()
    world.send(world.address(black, "FRANCE"), "PRESS TO GERMANY FROM ENGLAND\npeace\nENDPRESS\n")
    (answer,) = world.deliver()
    assert "message sent to GERMANY, claiming to be from ENGLAND" in answer.text


def test_a_relay_that_fails_is_tried_again_later_and_the_mail_sent_once(tmp_path: Path) -> None:
    world = World.start(tmp_path, maps=False)
    try:
        game = world.new_game("retry")
        world.relay.stop()  # the relay is down
        world.invite(game, "FRANCE", "ann@players.test")
        moment = datetime.now(UTC)
        assert world.service.round(moment).sent == 0
        with world.db.reading() as session:
            row = session.execute(select(OutboxMail)).scalar_one()
        assert row.attempts == 1 and row.sent_at is None and row.next_attempt_at > moment
        relay = Relay()
        relay.start()
        world.service.settings = world.settings = world.settings.with_overrides(relay=("127.0.0.1", relay.port))
        assert world.service.round(moment).sent == 0  # not yet due again
        assert world.service.round(moment + timedelta(minutes=5)).sent == 1
        assert world.service.round(moment + timedelta(hours=5)).sent == 0
        assert len(relay.received) == 1
        relay.stop()
    finally:
        world.service.stop()
        world.db.dispose()


def test_an_error_answers_451_and_changes_nothing(world: World) -> None:
    import smtplib

    game = world.new_game("broken")
    world.invite(game, "FRANCE", "ann@players.test")
    world.deliver()
    address = world.address(game, "FRANCE")
    with world.db.transaction() as session:  # the outbox cannot be written
        session.execute(text("ALTER TABLE mail_outbox RENAME TO mail_outbox_away"))
    with pytest.raises(smtplib.SMTPDataError) as refused:
        world.send(address, "ORDERS\n", message_id="err@players.test")
    assert refused.value.smtp_code == 451
    with world.db.transaction() as session:
        session.execute(text("ALTER TABLE mail_outbox_away RENAME TO mail_outbox"))
    assert "FRANCE" not in world.table(game).game.record.filed
    with world.db.reading() as session:
        assert session.execute(select(func.count()).select_from(MailSeen)).scalar_one() == 0
    world.send(address, "ORDERS\n", message_id="err@players.test")  # sent again: it acts now
    assert world.table(game).game.record.filed["FRANCE"] == []
    assert len(world.deliver()) == 1


def test_a_draw_voted_by_mail_ends_the_game_and_everyone_is_told(world: World) -> None:
    game = world.new_game("drawn")
    for power in ("FRANCE", "ENGLAND"):
        world.invite(game, power, f"{power.lower()}@players.test")
    with world.db.transaction() as session:
        store = SqlStore(session, world.reads)
        table = store.find(game, world.master, lock=True)
        table.seat_bots(Actor(str(world.master)), None, "random")
        store.save(table)
    world.start_game(game)
    world.deliver()
    world.send(world.address(game, "FRANCE"), "DRAW\n")
    (answer,) = world.deliver()
    assert "you vote for a draw" in answer.text
    world.send(world.address(game, "ENGLAND"), "DRAW\n")
    mails = world.deliver()
    assert any("the game ended in a draw" in m.text for m in mails)
    endings = [m for m in mails if "the game is over" in str(m.mail["Subject"])]
    assert sorted(m.recipients[0] for m in endings) == ["england@players.test", "france@players.test"]
    assert "a draw between AUSTRIA, ENGLAND, FRANCE, GERMANY, ITALY, RUSSIA and TURKEY" in endings[0].text
    assert world.deliver() == []


def test_a_seat_by_mail_goes_with_its_player_when_seats_are_swapped(world: World) -> None:
    game = world.new_game("swap")
    world.invite(game, "FRANCE", "ann@players.test")
    world.invite(game, "ITALY", "bob@players.test")
    world.deliver()
    france = world.address(game, "FRANCE")
    with world.db.transaction() as session:
        store = SqlStore(session, world.reads)
        table = store.find(game, world.master, lock=True)
        table.swap(Actor(str(world.master)), "FRANCE", "ITALY")
        store.save(table)
    mails = world.deliver()
    by = {m.recipients[0]: m for m in mails}
    assert sorted(by) == ["ann@players.test", "bob@players.test"]
    assert "as ITALY" in by["ann@players.test"].text and "as FRANCE" in by["bob@players.test"].text
    assert world.address(game, "ITALY") in by["ann@players.test"].text
    world.send(france, "STATUS\n", sender="ann@players.test")  # the old address: no seat's now
    assert "was not read" in world.deliver()[0].text
    world.send(world.address(game, "ITALY"), "STATUS\n")
    (status,) = world.deliver()
    assert status.recipients == ("ann@players.test",) and "You play ITALY" in status.text


def test_the_game_master_extends_the_deadline_by_mail(world: World) -> None:
    game = world.new_game("extend", deadlines={"movement": 3600})
    world.invite(game, "FRANCE", "ann@players.test")
    world.master_by_mail(game, "gm@players.test")
    world.start_game(game)
    world.deliver()
    before = world.table(game).clock.deadline
    assert before is not None
    world.send(world.address(game, "+master"), "EXTEND 2\nSTATUS\nDRAW\n")
    (answer,) = world.deliver()
    after = world.table(game).clock.deadline
    assert after == before + timedelta(hours=2)
    assert f"the deadline is now {after:%Y-%m-%d %H:%M} UTC" in answer.text
    assert "answer for the game master" in answer.text
    assert "REFUSED: only a player votes for a draw" in answer.text
