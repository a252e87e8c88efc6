"""Press under every mode: who a message says it is from, who receives it, unread counts, and
nothing of a message reaching a power it was not sent to."""

from __future__ import annotations

import json

import httpx
import pytest
from test_stream import next_message, open_stream

from fogdip.client import ApiFailure, FogdipClient

from servers import ServerProcess, account, take_seat

PASSWORD = "correct horse battery"


def game_of_three(server: ServerProcess, press: str) -> tuple[str, dict[str, FogdipClient], FogdipClient]:
    master = account(server, "master")
    game = master.create_game("fog-of-war", press=press)
    assert game.press == press
    players = {}
    for power in ("ENGLAND", "FRANCE", "GERMANY"):
        client = account(server, power.lower())
        take_seat(client, master, game.id, power, game.invite)
        players[power] = client
    return game.id, players, master


@pytest.mark.databases("sqlite")  # what each is shown is the table's rule (game/press.py), alike on both
@pytest.mark.parametrize(
    ("press", "france_sees", "master_sees"),
    [
        ("white", "ENGLAND", "ENGLAND"),
        ("grey", None, "ENGLAND"),
        ("gunboat", None, "ENGLAND"),
        ("black", "TURKEY", "ENGLAND"),
    ],
)
def test_what_a_recipient_learns_of_the_sender(
    server: ServerProcess, press: str, france_sees: str | None, master_sees: str
) -> None:
    game_id, players, master = game_of_three(server, press)
    claim = "TURKEY" if press == "black" else None
    sent = players["ENGLAND"].send_message(game_id, ["FRANCE"], "Shall we?", claim=claim)
    assert (sent.sender, sent.yours, sent.to) == ("ENGLAND", True, ["FRANCE"])
    received = players["FRANCE"].messages(game_id)
    assert received.unread == 1
    [message] = received.messages
    assert (message.sender, message.yours, message.body, message.index) == (france_sees, False, "Shall we?", 1)
    assert master.messages(game_id).messages[0].sender == master_sees
    # Germany was not sent it: nothing of it reaches Germany, not even a gap in its numbering
    assert players["GERMANY"].messages(game_id).model_dump() == {"messages": [], "unread": 0}
    players["ENGLAND"].send_message(game_id, "all", "To everyone")
    germany = players["GERMANY"].messages(game_id)
    assert [(m.index, m.body) for m in germany.messages] == [(1, "To everyone")]
    assert players["FRANCE"].mark_read(game_id, 2).unread == 0
    # no account name anywhere in what France receives (the accounts are named in lower case)
    raw = httpx.get(f"{server.url}/api/v1/games/{game_id}/messages", cookies=players["FRANCE"]._http.cookies).text
    raw += httpx.get(f"{server.url}/api/v1/games/{game_id}", cookies=players["FRANCE"]._http.cookies).text
    assert "england" not in raw and "germany" not in raw and "master" not in raw


@pytest.mark.databases("sqlite")  # what each is shown is the table's rule (game/press.py), alike on both
@pytest.mark.parametrize(
    ("press", "to", "claim", "code"),
    [
        ("none", "all", None, 403),
        ("public", ["FRANCE"], None, 403),
        ("white", ["FRANCE"], "GERMANY", 400),
        ("black", ["FRANCE"], "SPAIN", 400),
        ("white", ["SPAIN"], None, 400),
        ("white", ["ENGLAND"], None, 400),
    ],
)
def test_modes_refuse_what_they_do_not_allow(
    server: ServerProcess, press: str, to: list[str] | str, claim: str | None, code: int
) -> None:
    game_id, players, _master = game_of_three(server, press)
    with pytest.raises(ApiFailure) as refused:
        players["ENGLAND"].send_message(game_id, to, "hi", claim=claim)
    assert refused.value.status == code and refused.value.message
    assert players["FRANCE"].messages(game_id).messages == []


def test_a_message_reaches_only_its_recipients_streams(server: ServerProcess) -> None:
    game_id, players, _master = game_of_three(server, "white")
    tokens = {power: client.make_token("stream") for power, client in players.items()}
    with (
        open_stream(server, game_id, tokens["FRANCE"]) as france,
        open_stream(server, game_id, tokens["GERMANY"]) as germany,
    ):
        next_message(france, "hello")
        next_message(germany, "hello")
        players["ENGLAND"].send_message(game_id, ["FRANCE"], "psst")
        assert next_message(france, "message")["game"] == game_id
        players["ENGLAND"].send_message(game_id, "all", "hello all")
        heard = json.loads(germany.recv(timeout=10))
        assert heard["type"] == "message"  # Germany's first message is the broadcast: the private one never came
        assert next_message(france, "message")["game"] == game_id
