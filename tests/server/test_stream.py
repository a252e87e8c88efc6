"""The live stream: a member hears of each new phase as it is adjudicated, from whichever
process adjudicates it; a stranger's stream is refused the same way whether the game exists."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from fogdip.client import FogdipClient

from servers import PostgresCluster, ServerProcess, account, start_server

PASSWORD = "correct horse battery"


def signed_up(server: ServerProcess, name: str) -> tuple[FogdipClient, str]:
    client = account(server, name)
    return client, client.make_token("stream")


def open_stream(server: ServerProcess, game_id: str, token: str) -> ClientConnection:
    url = server.url.replace("http://", "ws://") + f"/api/v1/games/{game_id}/stream"
    return connect(url, additional_headers={"Authorization": f"Bearer {token}"}, open_timeout=10)


def next_message(connection: ClientConnection, kind: str, timeout: float = 15) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads(connection.recv(timeout=max(deadline - time.monotonic(), 0.1)))
        if message["type"] == kind:
            return message  # type: ignore[no-any-return]


def test_a_member_hears_of_each_new_phase(server: ServerProcess) -> None:
    master, _ = signed_up(server, "master")
    france, token = signed_up(server, "france")
    game = master.create_game("fog-of-war", deadlines={"movement": 3600, "retreats": 3600})
    france.join(game.id, "FRANCE", invite=game.invite)
    master.start(game.id)
    with open_stream(server, game.id, token) as stream:
        hello = next_message(stream, "hello")
        assert (hello["game"], hello["turn"], hello["status"]) == (game.id, "S1901M", "active")
        master.adjudicate(game.id)
        assert next_message(stream, "phase") == {"type": "phase", "game": game.id, "turn": "S1901R"}
        assert next_message(stream, "deadline")["deadline"] is not None  # the retreats' deadline
        master.pause(game.id)
        stopped = next_message(stream, "deadline")
        assert (stopped["turn"], stopped["deadline"]) == ("S1901R", None)


def test_a_stranger_s_stream_is_refused_alike_whether_the_game_exists(server: ServerProcess) -> None:
    master, _ = signed_up(server, "master")
    _stranger, token = signed_up(server, "stranger")
    game = master.create_game("fog-of-war", private=False)
    refusals = []
    for game_id in (game.id, "no-such-game"):
        with pytest.raises(InvalidStatus) as refused:
            open_stream(server, game_id, token)
        refusals.append(refused.value.response.status_code)
    assert refusals[0] == refusals[1] == 403
    with pytest.raises(InvalidStatus):
        open_stream(server, game.id, "not-a-token")


def test_both_processes_streams_hear_of_a_phase_either_adjudicates(postgres: PostgresCluster, tmp_path: Path) -> None:
    database = postgres.new_database()
    first, second = start_server(tmp_path / "one", database), start_server(tmp_path / "two", database)
    try:
        master, _ = signed_up(first, "master")
        france, france_token = signed_up(first, "france")
        england, england_token = signed_up(first, "england")
        game = master.create_game("fog-of-war", deadlines={"movement": 3, "retreats": 3, "adjustments": 3})
        france.join(game.id, "FRANCE", invite=game.invite)
        england.join(game.id, "ENGLAND", invite=game.invite)
        with open_stream(first, game.id, france_token) as one, open_stream(second, game.id, england_token) as two:
            next_message(one, "hello")
            next_message(two, "hello")
            master.start(game.id)
            heard = [next_message(stream, "phase", timeout=20) for stream in (one, two)]
        assert heard[0] == heard[1] == {"type": "phase", "game": game.id, "turn": "S1901R"}
    finally:
        first.stop()
        second.stop()


def test_a_stream_ends_when_its_token_is_revoked(server: ServerProcess) -> None:
    master, _ = signed_up(server, "master")
    france, token = signed_up(server, "france")
    game = master.create_game("fog-of-war")
    france.join(game.id, "FRANCE", invite=game.invite)
    master.start(game.id)
    with open_stream(server, game.id, token) as stream:
        next_message(stream, "hello")
        france.revoke_token(france.tokens()[0].id)
        master.adjudicate(game.id)
        with pytest.raises(ConnectionClosed) as closed:
            next_message(stream, "phase")
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
