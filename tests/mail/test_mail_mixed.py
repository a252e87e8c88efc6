"""The issue's "done when": a game master creates a fog-of-war game on the web, invites mail
players by address, and the game runs to its end, its mail players filing by mail (the orders
the heuristic bot would give from their own power's view) and getting their fogged reports and
maps, alongside two web players filing through the API, and bots."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from judges import Received, Relay, World

from fogdip.bots.base import BotInput, bot_named
from fogdip.client import ApiFailure, FogdipClient
from fogdip.game.settings import Status
from fogdip.mail.config import MailSettings
from fogdip.mail.service import MailService
from fogdip.server.config import Settings
from fogdip.web import create_site

PASSWORD = "correct horse battery"
BY_MAIL = {"FRANCE": "ann@players.test", "ITALY": "bea@players.test", "TURKEY": "cy@players.test"}
ON_THE_WEB = ("ENGLAND", "GERMANY")
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def mixed(tmp_path: Path) -> Iterator[tuple[FogdipClient, dict[str, FogdipClient], World]]:
    """The server (in-process), a game master and two web players signed in, and the judge on
    the server's own database objects (as ``serve --mail``), its maps drawn."""
    with ExitStack() as held:
        app = create_site(Settings(tmp_path, rate_per_minute=10**9, log_level="warning", deadline_check=3600))
        held.enter_context(TestClient(app))
        clients = {}
        for name in ("gmaster", *ON_THE_WEB):
            client = FogdipClient("http://testserver")
            client._http.close()
            client._http = held.enter_context(TestClient(app))
            client.sign_up(name.lower(), PASSWORD)
            client.sign_in(name.lower(), PASSWORD)
            clients[name] = client
        state = app.state.fogdip
        relay = Relay()
        relay.start()
        held.callback(relay.stop)
        settings = MailSettings(
            domain="judge.test", smtp_listen=("127.0.0.1", 0), relay=("127.0.0.1", relay.port), hold=0, spread=0
        )
        service = MailService(state.db, state.reads, settings)
        service.start(loop=False)
        held.callback(service.stop)
        master = clients.pop("gmaster")
        yield master, clients, World(state.db, state.reads, settings, service, relay, master=1)


def _heuristic(world: World, game: str, power: str, rng: random.Random) -> list[str]:
    """The orders the heuristic bot gives ``power`` from its own reports only."""
    return bot_named("heuristic").orders(BotInput.of(world.table(game).game, power), rng)


@pytest.mark.slow
def test_a_mixed_fog_game_is_played_to_its_end_by_mail_the_web_and_bots(
    mixed: tuple[FogdipClient, dict[str, FogdipClient], World],
) -> None:
    master, web, world = mixed
    game = master.create_game("fog-of-war", {"end_year": 1902}, name="mixed to the end").id
    for power, address in BY_MAIL.items():
        answer = master.request("POST", f"/api/v1/games/{game}/mail-players", json={"power": power, "address": address})
        assert answer.status_code == 201
    invite = master.game(game).invite
    for power, client in web.items():
        client.join(game, power, invite)
    master.seat_bots(game, None, "heuristic")  # AUSTRIA and RUSSIA
    master.start(game)
    welcomes = world.deliver()
    assert sorted(m.recipients[0] for m in welcomes) == sorted(BY_MAIL.values())
    rng = random.Random(23)
    played = 0
    while world.table(game).status is not Status.FINISHED:
        table = world.table(game)
        turn = table.turn
        for power in BY_MAIL:
            if power in table.still_in():
                lines = _heuristic(world, game, power, rng)
                world.send(world.address(game, power), "\n".join(["ORDERS", *lines, "READY"]) + "\n")
        for power, client in web.items():
            if power in table.still_in():
                lines = _heuristic(world, game, power, rng)
                if lines:
                    client.file_orders(game, lines, turn=turn)
                client.ready(game, turn=turn)
        if world.table(game).turn == turn:  # the bots not yet filed: the game master plays it
            try:
                master.adjudicate(game, turn=turn)
            except ApiFailure as failure:  # (played meanwhile, by the bots' filing)
                assert failure.status == 409, failure
        assert world.table(game).turn != turn
        answers = [m for m in world.deliver() if "answer for" in m.text]
        assert all("NOTHING WAS FILED" not in m.text for m in answers), [m.text for m in answers]
        played += 1
        assert played < 20
    world.deliver()
    history = list(world.table(game).game.record.history.names())
    assert len(history) == played >= 6
    assert "1902" in history[-1] and "1903" not in "".join(history)
    for power in ON_THE_WEB:  # the web players see the game finished
        assert web[power].game(game).status == Status.FINISHED.value
    everyone = list(world.relay.received)
    addresses = {power: world.address(game, power) for power in BY_MAIL}
    for power, address in BY_MAIL.items():
        mine: list[Received] = world.to(address, everyone)
        turn_mails = [m for m in mine if re.search(r" played — ", str(m.mail["Subject"]))]
        # One turn mail a turn, in order, each its own power's report with its map as a PNG.
        assert [re.search(r": (\S+) played — ", str(m.mail["Subject"]))[1] for m in turn_mails] == history  # type: ignore[index]
        for mail in turn_mails:
            assert mail.text.startswith(f"{power}, ")
            (attached,) = mail.attachments()
            assert attached[1] == "image/png" and attached[2].startswith(PNG)
        # The last says the game ended, and how.
        assert "the game is over" in str(mine[-1].mail["Subject"])
        assert re.match(r"The game is over: (a draw between|\w+ won alone)", mine[-1].text)
        # No mail names another seat's address, or another mail player's.
        for mail in mine:
            text = mail.raw.decode("utf-8", "replace").lower()
            for other, other_address in BY_MAIL.items():
                if other != power:
                    assert addresses[other].lower() not in text and other_address not in text
            assert all(m.recipients == (address,) for m in mine)
