"""The server as a real process, through ``fogdip.client``: accounts, a game from creation to
adjudicated turns, and the errors a user gets, on SQLite and PostgreSQL."""

from __future__ import annotations

import httpx
import pytest

from fogdip.client import FogdipClient

from servers import PASSWORD, ServerProcess, account, failure

#: the API's HTTP answers; storage on both databases is the other modules'.
DATABASES = ("sqlite",)


def test_the_home_page_docs_and_health_answer(server: ServerProcess) -> None:
    home = httpx.get(server.url + "/")
    assert home.status_code == 200 and "/docs" in home.text
    assert httpx.get(server.url + "/docs").status_code == 200
    assert httpx.get(server.url + "/openapi.json").json()["info"]["title"] == "fogdip"
    assert FogdipClient(server.url).healthz()["status"] == "ok"


def test_accounts_sessions_and_tokens(fresh_server: ServerProcess) -> None:
    server = fresh_server
    alice = FogdipClient(server.url)
    assert alice.sign_up("alice", PASSWORD).is_admin  # the first account is the server's admin
    assert not FogdipClient(server.url).sign_up("bob", PASSWORD).is_admin
    assert failure(FogdipClient(server.url).sign_up, "ALICE", PASSWORD).status == 409  # names ignore case
    assert failure(FogdipClient(server.url).sign_up, "carol", "short").code == "weak-password"
    assert failure(FogdipClient(server.url).sign_up, "no spaces", PASSWORD).code == "bad-name"
    wrong = failure(FogdipClient(server.url).sign_in, "alice", "not the password")
    unknown = failure(FogdipClient(server.url).sign_in, "nobody", "not the password")
    assert (wrong.status, wrong.message) == (unknown.status, unknown.message)  # no hint that a name exists
    session = alice.sign_in("alice", PASSWORD)
    assert alice.me().name == "alice"
    token = alice.make_token("my bot")
    bot = FogdipClient(server.url, token=token)
    assert bot.me().name == "alice"
    listed = alice.tokens()
    assert [(t.label, t.revoked, t.token) for t in listed] == [("my bot", False, None)]
    alice.revoke_token(listed[0].id)
    assert failure(bot.me).status == 401
    # a change made with the session cookie needs the CSRF token
    raw = httpx.Client(base_url=server.url, cookies=alice._http.cookies)
    answer = raw.post("/api/v1/tokens", json={"label": "x"})
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "csrf"
    assert (
        raw.post("/api/v1/tokens", json={"label": "x"}, headers={"X-CSRF-Token": session.csrf_token}).status_code == 201
    )
    assert (
        "httponly"
        in alice.request("POST", "/api/v1/session", json={"name": "alice", "password": PASSWORD})
        .headers["set-cookie"]
        .lower()
    )


def test_the_admin_resets_a_password_by_hand(fresh_server: ServerProcess) -> None:
    server = fresh_server
    admin, bob = FogdipClient(server.url), FogdipClient(server.url)
    for client, name in ((admin, "admin"), (bob, "bob")):
        client.sign_up(name, PASSWORD)
        client.sign_in(name, PASSWORD)
    assert failure(bob.reset_password, "admin", "a new password!").status == 403
    admin.reset_password("bob", "bob's new password")
    assert failure(bob.me).status == 401  # the old session ended with the old password
    assert FogdipClient(server.url).sign_in("bob", "bob's new password").name == "bob"


def test_a_fog_game_through_the_api(server: ServerProcess) -> None:
    master = account(server, "master")
    game = master.create_game("fog-of-war", {"end_year": 1902}, name="Friday game")
    assert (game.role, game.status, game.turn, game.invite is not None) == ("master", "forming", "S1901M", True)
    france, england = account(server, "francois"), account(server, "edith")
    assert failure(france.game, game.id).status == 404  # private: not visible without the invitation
    joined = france.join(game.id, "FRANCE", invite=game.invite)
    assert (joined.role, joined.power, joined.invite) == ("player", "FRANCE", None)
    assert england.join(game.id, invite=game.invite).power in {
        "AUSTRIA",
        "ENGLAND",
        "GERMANY",
        "ITALY",
        "RUSSIA",
        "TURKEY",
    }
    assert failure(england.join, game.id, invite=game.invite).status == 409  # one seat each
    assert master.seat_bots(game.id).seats == [s for s in master.game(game.id).seats]
    assert master.start(game.id).status == "active"
    filed = france.file_orders(game.id, ["A PAR - BUR", "F BRE - MAO", "A MAR H"])
    assert filed.filed and all(line.ok for line in filed.lines)
    refused = failure(france.file_orders, game.id, ["A PAR - MUN"])
    assert refused.status == 422 and refused.body["lines"][0]["ok"] is False and refused.body["filed"] is False
    assert failure(france.adjudicate, game.id).status == 403
    turn = master.adjudicate(game.id)
    assert (turn.adjudicated, turn.next) == ("S1901M", "S1901R")
    view = france.view(game.id)
    assert view["power"] == "FRANCE"
    assert "A PAR - BUR" in view["reports"][-1]["text"]
    svg = france.map_svg(game.id)
    # the bots seated beside France move at random: its army is in Paris or Burgundy
    assert svg.startswith("<svg") and ("A BUR (France)" in svg or "A PAR (France)" in svg)
    assert "A MOS (Russia)" not in svg
    assert master.view(game.id)["next_turn"] == "S1901R"


def test_another_game_is_the_same_404_whether_it_exists_or_not(server: ServerProcess) -> None:
    master = account(server, "master")
    game = master.create_game("fog-of-war")
    stranger = account(server, "stranger")
    real, unknown = failure(stranger.game, game.id), failure(stranger.game, "no-such-game")
    assert (real.status, real.code, real.message) == (unknown.status, unknown.code, unknown.message)
    for call in (stranger.view, stranger.map_svg, stranger.start, stranger.adjudicate):
        one, two = failure(call, game.id), failure(call, "no-such-game")
        assert (one.status, one.message) == (two.status, two.message) == (404, real.message)
    public = master.create_game("standard", private=False)
    assert stranger.game(public.id).role == "none"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("{not json", "not valid JSON"),
        ('{"name": 5, "password": []}', "name: Input should be a valid string"),
        ("{}", "name is missing"),
    ],
)
def test_bad_requests_get_a_clear_4xx(server: ServerProcess, body: str, expected: str) -> None:
    answer = httpx.post(server.url + "/api/v1/accounts", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 422
    assert expected in answer.json()["error"]["message"]


def test_a_huge_body_is_refused_before_it_is_read(server: ServerProcess) -> None:
    answer = httpx.post(
        server.url + "/api/v1/accounts", content=b"x" * 300_000, headers={"content-type": "application/json"}
    )
    assert answer.status_code == 413 and "at most" in answer.json()["error"]["message"]
    assert httpx.get(server.url + "/healthz").status_code == 200
