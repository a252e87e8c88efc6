"""Whole games by mail: seven scripted mail players play a fog-of-war game to its end, and
the two-world property over every mail a power receives."""

from __future__ import annotations

import random
import re
from email.utils import format_datetime
from pathlib import Path

import pytest
from judges import MOMENT, Received, World
from sqlalchemy import select

from fogdip.bots.base import BotInput, bot_named
from fogdip.game import Actor
from fogdip.game.settings import Status
from fogdip.server.models import OutboxMail, User
from fogdip.server.store import SqlStore

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


@pytest.mark.slow
def test_seven_mail_players_play_a_fog_game_to_its_end(tmp_path: Path) -> None:
    world = World.start(tmp_path, maps=False)
    try:
        game = world.new_game("whole", options={"end_year": 1902})
        for power in POWERS:
            world.invite(game, power, f"{power.lower()}@players.test")
        world.master_by_mail(game, "gm@players.test")
        world.start_game(game)
        world.deliver()
        rng = random.Random(5)
        bot = bot_named("random")
        turns = 0
        while world.table(game).status is not Status.FINISHED:
            table = world.table(game)
            turn = table.turn
            for power in POWERS:
                if power not in table.still_in():
                    continue
                lines = bot.orders(BotInput.of(table.game, power), rng)
                world.send(world.address(game, power), "\n".join(["ORDERS", *lines, "READY"]) + "\n")
            mails = world.deliver()
            turns += 1
            answers = [m for m in mails if "answer for" in m.text]
            assert world.table(game).turn != turn, [m.text for m in answers]
            assert all("NOTHING WAS FILED" not in m.text for m in answers), [m.text for m in answers]
            assert turns < 20
        played = world.table(game).game.record.history.names()
        assert len(played) == turns >= 4
        for power in POWERS:
            address = f"{power.lower()}@players.test"
            mine = world.to(address, [m for m in world.relay.received])
            turn_mails = [m for m in mine if m.text.startswith(f"{power}, ")]
            # Each turn, its own report, and nothing of another seat's address.
            assert len(turn_mails) == turns
            for mail in mine:
                for other in POWERS:
                    if other != power:
                        assert world.address(game, other) not in mail.raw.decode("utf-8", "replace")
        master = world.to("gm@players.test", list(world.relay.received))
        assert sum("the whole turn" in m.text for m in master) == turns
        for address in [*(f"{power.lower()}@players.test" for power in POWERS), "gm@players.test"]:
            (ending,) = [
                m for m in world.to(address, list(world.relay.received)) if "the game is over" in str(m.mail["Subject"])
            ]
            assert ending.text.startswith("The game is over: ")
    finally:
        world.stop()


SECRETS = {power: f"{index:032x}" for index, power in enumerate(POWERS, 1)}
_VOLATILE = re.compile(rb"^(Date|Message-ID): .*\r\n(?:[ \t].*\r\n)*", re.MULTILINE | re.IGNORECASE)


def _fixed(mail: Received) -> bytes:
    """The mail as sent, without its Date and Message-ID headers."""
    head, _, body = mail.raw.partition(b"\r\n\r\n")
    return _VOLATILE.sub(b"", head + b"\r\n") + b"\r\n" + body


def _play(world: World, differs: bool) -> None:
    """Two turns of a fog-of-war game; with ``differs``, Russia and Turkey order otherwise,
    far from France, and England writes to Germany."""
    game = world.new_game("tw")
    for power in POWERS:
        world.invite(game, power, f"{power.lower()}@players.test", secret=SECRETS[power])
    world.start_game(game)
    world.send(world.address(game, "FRANCE"), "STATUS\nA PAR - BUR\nF BRE - MAO\n", message_id="f1@players.test")
    world.send(world.address(game, "RUSSIA"), "F SEV - RUM\n" if differs else "F SEV - BLA\n")
    world.send(world.address(game, "TURKEY"), "A CON - BUL\n" if differs else "A CON H\n")
    if differs:
        world.send(world.address(game, "ENGLAND"), "PRESS TO GERMANY\nlet us talk\nENDPRESS\n")
    for round_ in range(2):
        turn = world.table(game).turn
        for power in POWERS:
            if power != "FRANCE":
                world.send(world.address(game, power), "READY\n")
        world.send(world.address(game, "FRANCE"), "READY\nMAP\nHISTORY\n", message_id=f"fr{round_}@players.test")
        assert world.table(game).turn != turn
    for power in POWERS:  # a draw: every power is told the game is over
        world.send(world.address(game, power), "DRAW\n", message_id=f"draw-{power}@players.test")
    assert world.table(game).status is Status.FINISHED
    world.deliver()


@pytest.mark.slow
def test_every_mail_france_gets_is_the_same_whatever_it_cannot_see(tmp_path: Path) -> None:
    one, other = World.start(tmp_path / "one"), World.start(tmp_path / "other")
    try:
        _play(one, differs=False)
        _play(other, differs=True)
        france = "france@players.test"
        mine = [_fixed(mail) for mail in one.to(france, list(one.relay.received))]
        theirs = [_fixed(mail) for mail in other.to(france, list(other.relay.received))]
        assert len(mine) >= 8
        assert any(b"image/png" in mail for mail in mine)
        assert any(b"the game is over" in mail for mail in mine)
        assert mine == theirs
        # The worlds did differ: Russia's own mails are not the same.
        russia = "russia@players.test"
        assert [_fixed(m) for m in one.to(russia, list(one.relay.received))] != [
            _fixed(m) for m in other.to(russia, list(other.relay.received))
        ]
    finally:
        one.stop()
        other.stop()


def _turn_with_web_seats(world: World, by_mail: tuple[str, ...]) -> None:
    """One turn of a game whose ``by_mail`` seats play by mail, the others on the web; TURKEY
    (on the web) is the last to mark ready, and plays the turn at :data:`MOMENT`."""
    game = world.new_game("dates")
    web: dict[str, int] = {}
    for power in POWERS:
        if power in by_mail:
            world.invite(game, power, f"{power.lower()}@players.test", secret=SECRETS[power])
            continue
        with world.db.transaction() as session:
            user = User(name=power, name_key=power.lower(), password_hash="!", is_admin=False, created_at=MOMENT)
            session.add(user)
            session.flush()
            web[power] = user.id
            store = SqlStore(session, world.reads)
            table = store.find(game, user.id, lock=True, invite="inv")
            table.join(Actor(str(user.id)), power, "inv")
            store.save(table, MOMENT)
    world.start_game(game)
    world.deliver()
    for power in POWERS:
        if power in by_mail:
            world.send(world.address(game, power), "READY\n", message_id=f"ready-{power}@players.test")
    world.deliver()
    for user_id in web.values():
        with world.db.transaction() as session:
            store = SqlStore(session, world.reads)
            table = store.find(game, user_id, lock=True)
            table.mark_ready(Actor(str(user_id)), True, turn=None, moment=MOMENT)
            store.save(table, MOMENT)
    assert world.table(game).turn != "S1901M"
    world.deliver()


@pytest.mark.slow
def test_a_turn_mail_is_dated_the_turn_and_its_message_id_tells_no_time(tmp_path: Path) -> None:
    # FRANCE by mail; in one world the five others but TURKEY by mail too, in the other on the
    # web: how many seats play by mail (how long their mails took to build) shows in no header.
    one, other = World.start(tmp_path / "one"), World.start(tmp_path / "other")
    try:
        _turn_with_web_seats(one, by_mail=("FRANCE",))
        _turn_with_web_seats(other, by_mail=POWERS[:-1])
        france = "france@players.test"
        mine, theirs = one.to(france, list(one.relay.received)), other.to(france, list(other.relay.received))
        turn_mails = [[m for m in mails if m.text.startswith("FRANCE, ")] for mails in (mine, theirs)]
        assert [len(found) for found in turn_mails] == [1, 1]
        dates = {str(found[0].mail["Date"]) for found in turn_mails}
        assert dates == {format_datetime(MOMENT)}
        for mail in [*mine, *theirs]:
            assert re.fullmatch(r"<[0-9a-f]{32}@judge\.test>", str(mail.mail["Message-ID"]))
        assert [_fixed(m) for m in mine] == [_fixed(m) for m in theirs]
    finally:
        one.stop()
        other.stop()


def _press_world(world: World, press: str, sender: str, claim: str | None) -> list[bytes]:
    """A game in ``press``; ``sender`` (by mail) writes to FRANCE (claiming ``claim``), and
    AUSTRIA on the web writes to all: FRANCE's mails."""
    game = world.new_game("pr", press=press)
    for power in POWERS:
        if power != "AUSTRIA":
            world.invite(game, power, f"{power.lower()}@players.test", secret=SECRETS[power])
    with world.db.transaction() as session:
        user = User(name="austria", name_key="austria", password_hash="!", is_admin=False, created_at=MOMENT)
        session.add(user)
        session.flush()
        store = SqlStore(session, world.reads)
        table = store.find(game, user.id, lock=True, invite="inv")
        table.join(Actor(str(user.id)), "AUSTRIA", "inv")
        store.save(table, MOMENT)
        austria = user.id
    world.start_game(game)
    world.deliver()
    head = "PRESS TO FRANCE" + (f" FROM {claim}" if claim else "")
    world.send(world.address(game, sender), f"{head}\nmeet me in Burgundy\nENDPRESS\n", message_id="p1@players.test")
    with world.db.transaction() as session:  # the web's send: its transaction queues no mail
        store = SqlStore(session, world.reads)
        table = store.find(game, austria, lock=True)
        table.send(Actor(str(austria)), "all", "hello all", claim)
        store.save(table, MOMENT)
    with world.db.reading() as session:
        queued = [
            bytes(row.message) for row in session.execute(select(OutboxMail)).scalars() if b"hello all" in row.message
        ]
    # Nothing is queued in the send's own transaction (its time would count the recipients who
    # play by mail): the judge's loop, woken by its commit, queues one for each mail player.
    assert queued == []
    delivered = world.deliver()
    assert sum(1 for mail in delivered if "> hello all" in mail.text) == 6
    mails = [m for m in world.to("france@players.test", delivered) if "A message" in m.text]
    assert len(mails) == 2
    return [_fixed(mail) for mail in mails]


@pytest.mark.slow
def test_mail_players_get_press_with_its_sender_as_the_web_shows_it(tmp_path: Path) -> None:
    for press, claim in (("grey", None), ("black", "ITALY")):
        one, other = World.start(tmp_path / f"{press}-1"), World.start(tmp_path / f"{press}-2")
        try:
            mine = _press_world(one, press, "ENGLAND", claim)
            theirs = _press_world(other, press, "GERMANY", claim)
            assert mine == theirs  # who really wrote shows nowhere, headers included
            for mail in mine:
                assert b"ENGLAND" not in mail.upper() and b"AUSTRIA" not in mail.upper()
                assert (b"from ITALY" if claim else b"from an anonymous power") in mail
        finally:
            one.stop()
            other.stop()
    world = World.start(tmp_path / "white")
    try:
        mails = _press_world(world, "white", "ENGLAND", None)
        assert b"from ENGLAND" in mails[0] and b"from AUSTRIA" in mails[1]
    finally:
        world.stop()
