"""Bad input, as a real client sends it: each gets a clean 4xx whose message says what is wrong
and how to put it right, and nothing the server had acknowledged is lost or changed.

One server per database for the module (each test makes its own accounts and games)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from fogdip.client import FogdipClient

from servers import PASSWORD, ServerProcess, account, failure, start_server


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def live(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    database = request.getfixturevalue("postgres").new_database() if request.param == "postgresql" else None
    running = start_server(tmp_path_factory.mktemp("bad-input") / "data", database)
    yield running
    running.stop()


def named(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:8]}"


def raw(server: ServerProcess, client: FogdipClient) -> httpx.Client:
    """A plain HTTP client speaking as ``client``'s account, to send what no typed client would."""
    token = client.make_token("raw")
    return httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}, timeout=30)


def error_of(answer: httpx.Response) -> tuple[int, str, str]:
    """The status, code and message of an error answer (which must be one)."""
    assert 400 <= answer.status_code < 500, (answer.status_code, answer.text)
    assert answer.headers["content-type"].startswith("application/json")
    error = answer.json()["error"]
    return answer.status_code, error["code"], error["message"]


def started_game(server: ServerProcess) -> tuple[str, FogdipClient, FogdipClient]:
    """A started fog-of-war game: its id, its game master, and France's player (the rest bots)."""
    master, france = account(server, named("gm")), account(server, named("fr"))
    game = master.create_game("fog-of-war")
    france.join(game.id, "FRANCE", invite=game.invite)
    master.seat_bots(game.id)
    master.start(game.id)
    return game.id, master, france


@pytest.mark.parametrize(
    ("method", "path", "body", "expected"),
    [
        ("PUT", "orders", '{"lines": "A PAR H"}', "lines: Input should be a valid list"),
        ("PUT", "orders", '{"lines": [1, 2]}', "lines.0: Input should be a valid string"),
        ("PUT", "orders", '{"lines": ["A PAR H"', "the body is not valid JSON"),
        ("PUT", "orders", "[]", "Input should be a valid dictionary"),
        ("PUT", "orders", "{}", "lines is missing"),
        ("POST", "messages", '{"to": "everyone", "body": "hi"}', "to:"),
        ("POST", "messages", '{"to": ["GERMANY"], "body": ""}', "body: String should have at least 1 character"),
        ("POST", "ready", '{"ready": "perhaps"}', "ready: Input should be a valid boolean"),
        ("POST", "draw", '{"vote": [true]}', "vote: Input should be a valid boolean"),
        ("POST", "messages/read", '{"up_to": -1}', "up_to: Input should be greater than or equal to 0"),
    ],
)
def test_malformed_bodies_say_what_to_fix(
    live: ServerProcess, method: str, path: str, body: str, expected: str
) -> None:
    game, master, france = started_game(live)
    france.file_orders(game, ["A PAR - BUR"])
    with raw(live, france) as http:
        answer = http.request(
            method, f"/api/v1/games/{game}/{path}", content=body, headers={"content-type": "application/json"}
        )
        status, code, message = error_of(answer)
    assert (status, code) == (422, "invalid")
    assert expected in message and "/docs" in message
    assert master.view(game)["filed"]["FRANCE"] == ["A PAR - BUR"]  # nothing lost


def test_wrong_types_and_sizes_in_game_settings(live: ServerProcess) -> None:
    master = account(live, named("gm"))
    with raw(live, master) as http:
        cases: list[tuple[dict[str, Any], str]] = [
            ({"preset": 5}, "preset: Input should be a valid string"),
            ({"preset": "fog-of-war", "options": ["end_year"]}, "options: Input should be a valid dictionary"),
            ({"preset": "fog-of-war", "private": "yes please"}, "private: Input should be a valid boolean"),
            ({"preset": "fog-of-war", "name": "x" * 81}, "name: String should have at most 80 characters"),
            ({"preset": "fog-of-war", "press": "loud"}, "press:"),
            ({"preset": "fog-of-war", "deadlines": {"movement": "soon"}}, "deadlines.movement:"),
        ]
        for body, expected in cases:
            status, code, message = error_of(http.post("/api/v1/games", json=body))
            assert (status, code) == (422, "invalid") and expected in message, (body, message)
        for body, expected_code, expected in [
            ({"preset": "chess"}, "bad-preset", "use one of"),
            ({"preset": "fog-of-war", "options": {"end_year": "soon"}}, "bad-options", "end_year"),
            ({"preset": "fog-of-war", "options": {"no_such_option": 1}}, "bad-options", "no_such_option"),
            ({"preset": "fog-of-war", "deadlines": {"winter": 60}}, "bad-deadlines", "movement, retreats, adjustments"),
            ({"preset": "fog-of-war", "deadlines": {"movement": 0}}, "bad-deadlines", "from 1 second to 60 days"),
        ]:
            status, code, message = error_of(http.post("/api/v1/games", json=body))
            assert (status, code) == (400, expected_code) and expected in message, (body, message)
    assert master.games() == []  # none of them made a game


def test_huge_payloads_are_refused_and_nothing_breaks(live: ServerProcess) -> None:
    game, master, france = started_game(live)
    france.file_orders(game, ["A PAR - BUR"])
    with raw(live, france) as http:
        too_many = http.put(f"/api/v1/games/{game}/orders", json={"lines": ["A PAR H"] * 201})
        assert error_of(too_many)[:2] == (422, "invalid") and "at most 200" in too_many.json()["error"]["message"]
        long_message = http.post(f"/api/v1/games/{game}/messages", json={"to": "all", "body": "x" * 4001})
        assert "at most 4000 characters" in error_of(long_message)[2]
        huge = http.put(f"/api/v1/games/{game}/orders", content=b'{"lines": ["' + b"x" * 400_000 + b'"]}')
        status, code, message = error_of(huge)
        assert (status, code) == (413, "too-large") and "at most 262,144 bytes" in message
    assert master.view(game)["filed"]["FRANCE"] == ["A PAR - BUR"]
    assert FogdipClient(live.url).healthz()["status"] == "ok"


def test_unknown_games_and_powers(live: ServerProcess) -> None:
    game, master, france = started_game(live)
    newcomer = account(live, named("new"))
    for call in (newcomer.game, newcomer.view, newcomer.map_svg, france.view):
        refused = failure(call, "no-such-game")
        assert (refused.status, refused.code) == (404, "not-found") and "no such game" in refused.message
    other = master.create_game("standard", private=False)
    joined = failure(newcomer.join, other.id, "SPAIN")
    assert joined.status == 400 and "unknown power 'SPAIN'" in joined.message
    assert "AUSTRIA" in joined.message and "TURKEY" in joined.message
    bots = failure(master.seat_bots, other.id, ["SPAIN"])
    assert bots.status == 400 and "unknown power 'SPAIN'" in bots.message
    alone = failure(newcomer.against_bots, "fog-of-war", power="SPAIN")
    assert alone.status == 400 and "use one of" in alone.message
    sent = failure(france.send_message, game, ["SPAIN"], "Hola")
    assert sent.status == 400 and "not 'SPAIN'" in sent.message
    wrong_phase = failure(france.map_svg, game, "F1999M")
    assert wrong_phase.status == 400 and "no report after F1999M" in wrong_phase.message


def test_someone_else_s_game(live: ServerProcess) -> None:
    game, master, france = started_game(live)
    stranger = account(live, named("st"))
    france.file_orders(game, ["A PAR - BUR"])
    for call, args in [
        (stranger.file_orders, (game, ["A PAR H"])),
        (stranger.ready, (game,)),
        (stranger.send_message, (game, "all", "hello")),
        (stranger.adjudicate, (game,)),
        (stranger.export_game, (game,)),
    ]:
        refused = failure(call, *args)
        assert refused.status == 404, (call, refused)
    # a player of the game is refused what is the game master's, and told so
    for call in (france.adjudicate, france.start, france.pause, france.resume):
        refused = failure(call, game)
        assert refused.status == 403 and "game master" in refused.message
    assert master.view(game)["filed"]["FRANCE"] == ["A PAR - BUR"]


def test_orders_outside_their_phase(live: ServerProcess) -> None:
    game, master, france = started_game(live)
    # builds and retreats in a movement turn: each line refused with its reason, nothing filed
    france.file_orders(game, ["A PAR - BUR"])
    refused = failure(france.file_orders, game, ["A PAR - PIC", "BUILD A PAR", "A MAR R GAS"])
    assert refused.status == 422 and refused.body["filed"] is False
    verdicts = {line["text"]: line for line in refused.body["lines"]}
    assert verdicts["A PAR - PIC"]["ok"] is True
    assert verdicts["BUILD A PAR"]["ok"] is False and verdicts["BUILD A PAR"]["error"]
    assert verdicts["A MAR R GAS"]["ok"] is False and verdicts["A MAR R GAS"]["error"]
    assert master.view(game)["filed"]["FRANCE"] == ["A PAR - BUR"]  # the earlier orders stand
    # a finished game takes no orders
    ended = account(live, named("solo"))
    alone = ended.against_bots("fog-of-war", power="FRANCE")
    ended.vote_draw(alone.id)  # the bots go with the players: a draw at once
    late = failure(ended.file_orders, alone.id, ["A PAR H"])
    assert late.status == 409 and "no orders are taken" in late.message
    assert failure(ended.ready, alone.id).status == 409


def test_a_replayed_csrf_token_is_refused(live: ServerProcess) -> None:
    name = named("cs")
    alice = FogdipClient(live.url)
    alice.sign_up(name, PASSWORD)
    first = alice.sign_in(name, PASSWORD)
    cookies = dict(alice._http.cookies)
    alice.sign_out()
    # the old session's cookie and its CSRF token, replayed after signing out
    replayed = httpx.post(
        live.url + "/api/v1/tokens", json={"label": "x"}, cookies=cookies, headers={"X-CSRF-Token": first.csrf_token}
    )
    assert replayed.status_code == 401 and "sign in" in replayed.json()["error"]["message"]
    # a new session does not take the old session's token
    second = alice.sign_in(name, PASSWORD)
    assert second.csrf_token != first.csrf_token
    stale = httpx.post(
        live.url + "/api/v1/tokens",
        json={"label": "x"},
        cookies=dict(alice._http.cookies),
        headers={"X-CSRF-Token": first.csrf_token},
    )
    status, code, message = error_of(stale)
    assert (status, code) == (403, "csrf") and "X-CSRF-Token" in message
    # nor does another account's session take this one's token
    bob = account(live, named("bob"))
    crossed = httpx.post(
        live.url + "/api/v1/tokens",
        json={"label": "x"},
        cookies=dict(bob._http.cookies),
        headers={"X-CSRF-Token": second.csrf_token},
    )
    assert error_of(crossed)[:2] == (403, "csrf")
    assert alice.tokens() == [] and bob.tokens() == []


def test_unknown_paths_and_methods(live: ServerProcess) -> None:
    status, code, message = error_of(httpx.get(live.url + "/api/v1/nowhere"))
    assert (status, code) == (404, "not-found") and "/docs" in message
    status, code, message = error_of(httpx.delete(live.url + "/api/v1/games"))
    assert (status, code) == (405, "method")
    status, code, message = error_of(httpx.get(live.url + "/api/v1/me"))
    assert status == 401 and "sign in" in message.lower()


def test_no_state_is_damaged_by_a_flood_of_bad_requests(live: ServerProcess) -> None:
    game, master, france = started_game(live)
    france.file_orders(game, ["A PAR - BUR", "F BRE - MAO"])
    with raw(live, france) as http:
        junk = [b"", b"null", b"{", b'{"lines": null}', b'{"lines": [null]}', b"\xff\xfe", b'{"lines": ["\\ud800"]}']
        for body in junk:
            answer = http.put(
                f"/api/v1/games/{game}/orders", content=body, headers={"content-type": "application/json"}
            )
            assert 400 <= answer.status_code < 500, (body, answer.status_code, answer.text)
            assert answer.json()["error"]["message"]
        lone = http.post(
            f"/api/v1/games/{game}/messages",
            content=b'{"to": "all", "body": "half a pair: \\udc00"}',
            headers={"content-type": "application/json"},
        )
        assert error_of(lone)[0] == 400 and "surrogate" in error_of(lone)[2]
        paired = http.post(
            f"/api/v1/games/{game}/messages",
            content=b'{"to": "all", "body": "a whole pair: \\ud83d\\ude00"}',
            headers={"content-type": "application/json"},
        )
        assert paired.status_code == 201
    assert [m.body for m in france.messages(game).messages] == ["a whole pair: \U0001f600"]
    assert master.view(game)["filed"]["FRANCE"] == ["A PAR - BUR", "F BRE - MAO"]
    assert master.adjudicate(game).adjudicated == "S1901M"
