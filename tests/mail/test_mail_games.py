"""Whole games by mail: seven scripted mail players play a fog-of-war game to its end, and
the two-world property over every mail a power receives."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from judges import Received, World

from fogdip.bots.base import BotInput, bot_named
from fogdip.game.settings import Status

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
