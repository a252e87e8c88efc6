"""What an attacker review of the server found, each closed: anonymous press naming its sender
by its recipients, a bots-game player exporting the board, rate limits dodged with invented
credentials, chunked bodies past the size limit, values the database cannot store, names
ending in a newline, tokens surviving a password reset, damaged imports, orphan games,
redirects echoing the Host header."""

from __future__ import annotations

import httpx
import pytest
from test_press import game_of_three

from fogdip.client import FogdipClient

from servers import PASSWORD, ServerProcess, account, failure, start_server

#: HTTP answers and limits; what the databases store alike is tested in test_bad_input.py on both.
DATABASES = ("sqlite",)


@pytest.mark.parametrize("press", ["grey", "black", "gunboat"])
def test_anonymous_press_names_no_other_recipient(server: ServerProcess, press: str) -> None:
    game_id, players, master = game_of_three(server, press)
    players["ENGLAND"].send_message(game_id, ["FRANCE", "GERMANY"], "between us")
    for power in ("FRANCE", "GERMANY"):
        [message] = players[power].messages(game_id).messages
        assert (message.to, message.sender if press != "black" else None) == ([power], None)
    assert master.messages(game_id).messages[0].to == ["FRANCE", "GERMANY"]
    assert players["ENGLAND"].messages(game_id).messages[0].to == ["FRANCE", "GERMANY"]


def test_a_player_against_bots_cannot_export_the_board(server: ServerProcess) -> None:
    player = account(server, "player")
    game = player.against_bots("fog-of-war", power="FRANCE")
    assert failure(player.export_game, game.id).status == 403
    assert failure(player.export_game, game.id, "mila").status == 403
    before = len(player.games())
    assert failure(player.against_bots, "fog-of-war", power="NARNIA").status == 400
    assert len(player.games()) == before  # no game left behind


def test_invented_credentials_do_not_dodge_the_rate_limit(tmp_path: object) -> None:
    server = start_server(tmp_path / "data", env={"FOGDIP_RATE": "5"})  # type: ignore[operator]
    try:
        statuses = [
            httpx.post(
                server.url + "/api/v1/session",
                json={"name": "alice", "password": "guess"},
                headers={"Authorization": f"Bearer junk{i}"},
            ).status_code
            for i in range(50)
        ]
        # 20 a minute from one address (4 clients' worth), counted in one-minute windows: even if
        # the run straddles two windows, at least 10 of the 50 are refused
        assert statuses.count(429) >= 10
    finally:
        server.stop()


def test_a_chunked_body_past_the_limit_is_refused(server: ServerProcess) -> None:
    def chunks() -> object:
        for _ in range(64):
            yield b"x" * 8192

    answer = httpx.post(server.url + "/api/v1/accounts", content=chunks(), headers={"content-type": "application/json"})
    assert answer.status_code == 413 and "at most" in answer.json()["error"]["message"]


@pytest.mark.databases("sqlite", "postgresql")  # what each database cannot store
def test_values_the_database_cannot_store_are_a_clean_4xx(server: ServerProcess) -> None:
    client = account(server, "nul")
    assert httpx.post(server.url + "/api/v1/session", json={"name": "a\u0000b", "password": "x" * 12}).status_code in (
        400,
        401,
    )
    assert failure(client.make_token, "lab\u0000el").status == 400
    assert failure(client.create_game, "fog-of-war", name="nm\u0000").status == 400
    assert failure(client.revoke_token, 2**40).status == 422
    assert httpx.get(server.url + "/api/v1/games/%00", cookies=client._http.cookies).status_code in (400, 404)
    assert client.me().name.startswith("nul.")  # and the server goes on


def test_a_name_cannot_end_in_a_newline(server: ServerProcess) -> None:
    assert failure(FogdipClient(server.url).sign_up, "victim\n", PASSWORD).code == "bad-name"


def test_a_password_reset_revokes_the_account_s_tokens(fresh_server: ServerProcess) -> None:
    server = fresh_server
    admin, bob = account(server, "admin"), account(server, "bob")  # the first account: the admin
    bot = FogdipClient(server.url, token=bob.make_token("bot"))
    admin.reset_password(bob.me().name, "a brand new password")
    assert failure(bot.me).status == 401


def test_a_damaged_game_file_is_refused_at_import(server: ServerProcess) -> None:
    master = account(server, "master")
    game = master.create_game("fog-of-war")
    exported = master.export_game(game.id)
    exported["opening"]["FRANCE"]["opening"] = None
    assert failure(master.import_game, exported).code == "bad-game-file"


def test_no_redirect_echoes_the_host_header(server: ServerProcess) -> None:
    answer = httpx.get(server.url + "/api/v1/games/", headers={"Host": "evil.example"})
    assert answer.status_code == 404 and "location" not in answer.headers
