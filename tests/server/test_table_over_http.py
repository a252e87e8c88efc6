"""The table's rules as the API answers them, on a real server (SQLite and PostgreSQL): what a
new user and an outside attacker's review stumbled on. The rules themselves are tested in
``tests/game/test_table.py``; here, that the server answers them (status, words, streams) and
that two requests racing for one turn play it once."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from fogdip.client import ApiFailure, FogdipClient

from servers import ServerProcess, account, failure

_names = iter(range(10**6))


def named(prefix: str) -> str:
    return f"{prefix}{next(_names)}"


def _stream(server: ServerProcess, client: FogdipClient, game_id: str) -> ClientConnection:
    url = server.url.replace("http://", "ws://") + f"/api/v1/games/{game_id}/stream"
    stream = connect(url, additional_headers={"Authorization": f"Bearer {client.make_token('s')}"}, open_timeout=10)
    assert json.loads(stream.recv(timeout=10))["type"] == "hello"
    return stream


def _heard(stream: ClientConnection, seconds: float = 1.0) -> list[dict[str, object]]:
    out = []
    while True:
        try:
            out.append(json.loads(stream.recv(timeout=seconds)))
        except TimeoutError:
            return out


def test_a_gunboat_seat_swap_takes_the_seat_s_past_and_its_stream_with_its_player(server: ServerProcess) -> None:
    master, first, second = account(server, named("sm")), account(server, named("sa")), account(server, named("sb"))
    game = master.create_game("fog-of-war", press="gunboat")
    drawn = first.join(game.id, invite=game.invite).power
    assert drawn is not None
    other = second.join(game.id, invite=game.invite).power
    assert other is not None and other != drawn
    written = first.send_message(game.id, [other], "before the start")
    first.file_orders(game.id, [])
    stream = _stream(server, first, game.id)
    master.swap_seats(game.id, drawn, other)
    assert first.game(game.id).power == other and second.game(game.id).power == drawn
    # The new holder of the first player's old seat reads nothing that player wrote or filed.
    mine = second.messages(game.id).messages
    assert [m.body for m in mine] == ["before the start"] and not mine[0].yours  # sent to its own old seat
    assert second.view(game.id)["filed"] == []
    assert [m.body for m in first.messages(game.id).messages if m.yours] == [written.body]
    # A message to the first player's old seat reaches its new holder's stream, not the first's.
    second_stream = _stream(server, second, game.id)
    third = account(server, named("sc"))
    third_power = third.join(game.id, invite=game.invite).power
    assert third_power is not None
    third.send_message(game.id, [drawn], "to the seat, after the swap")
    heard_first = [e for e in _heard(stream) if e["type"] == "message"]
    heard_second = [e for e in _heard(second_stream) if e["type"] == "message"]
    assert heard_first == [] and len(heard_second) == 1
    stream.close()
    second_stream.close()


@pytest.mark.databases("sqlite")
def test_an_observer_who_watched_the_board_cannot_join_mid_game(server: ServerProcess) -> None:
    master, watcher = account(server, named("om")), account(server, named("ow"))
    game = master.create_game("fog-of-war", observers="board", private=False)
    watcher.observe(game.id)
    master.start(game.id)
    refused = failure(watcher.join, game.id, "ENGLAND")
    assert refused.status == 409 and "watched this game's whole board" in refused.message


def test_two_game_masters_requests_for_one_turn_play_it_once(server: ServerProcess) -> None:
    master, player = account(server, named("rm")), account(server, named("rp"))
    game = master.create_game("fog-of-war")
    player.join(game.id, "FRANCE", invite=game.invite)
    master.seat_bots(game.id)
    master.start(game.id)
    answers: list[object] = []

    def adjudicate() -> None:
        try:
            answers.append(master.adjudicate(game.id, turn="S1901M").adjudicated)
        except ApiFailure as exc:
            answers.append((exc.status, exc.code))

    racers = [threading.Thread(target=adjudicate) for _ in range(2)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    assert sorted(map(str, answers)) == sorted(["S1901M", "(409, 'stale')"])
    assert master.game(game.id).turn == "S1901R"
    stale = failure(player.file_orders, game.id, ["A PAR - BUR"], turn="S1901M")
    assert stale.status == 409 and stale.code == "stale" and "the next turn is S1901R" in stale.message
    assert failure(player.ready, game.id, turn="S1901M").code == "stale"


def test_every_deadline_is_told_on_the_stream_in_whole_seconds(server: ServerProcess) -> None:
    master, player = account(server, named("dm")), account(server, named("dp"))
    game = master.create_game("fog-of-war", deadlines={"movement": 3600, "retreats": 3600})
    player.join(game.id, "FRANCE", invite=game.invite)
    master.seat_bots(game.id)
    stream = _stream(server, player, game.id)
    master.start(game.id)
    player.ready(game.id)
    player.wait_until_played(game.id, "S1901M")  # as soon as the bot has filed
    master.adjudicate(game.id, turn="S1901R")
    told = [e["deadline"] for e in _heard(stream) if e["type"] == "deadline"]
    assert len(told) == 3  # the start's, and after each turn
    for moment in told:
        assert isinstance(moment, str) and datetime.fromisoformat(moment).microsecond == 0
    assert master.game(game.id).deadline == datetime.fromisoformat(str(told[-1])).astimezone(UTC)
    stream.close()


@pytest.mark.databases("sqlite")
def test_options_that_leak_through_the_schedule_are_refused_unless_accepted(server: ServerProcess) -> None:
    master = account(server, named("lm"))
    refused = failure(master.create_game, "fog-of-war", {"hold_empty_retreats": False})
    assert refused.status == 400 and refused.code == "leaky-options"
    assert "whether a retreat season is played tells every power" in refused.message
    assert master.create_game("fog-of-war", {"hold_empty_retreats": False}, accept_leaks=True).status == "forming"


@pytest.mark.databases("sqlite")
def test_a_ready_mark_says_how_many_units_have_no_order(server: ServerProcess) -> None:
    master, player, other = account(server, named("um")), account(server, named("up")), account(server, named("uo"))
    game = master.create_game("fog-of-war")
    player.join(game.id, "FRANCE", invite=game.invite)
    other.join(game.id, "ENGLAND", invite=game.invite)
    master.start(game.id)
    marked = player.ready(game.id)
    assert marked.adjudicated is None and marked.unordered == 3
    assert marked.note == "3 of your units have no order: each holds (or takes the game's default)"
    player.file_orders(game.id, ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"])
    assert player.ready(game.id).unordered == 0


@pytest.mark.databases("sqlite")
def test_anyone_may_list_open_games_and_read_an_open_game_s_page(server: ServerProcess) -> None:
    master = account(server, named("am"))
    shown = master.create_game("fog-of-war", private=False, name="an open game")
    hidden = master.create_game("fog-of-war", private=True)
    with httpx.Client(base_url=server.url) as anyone:
        listed = anyone.get("/api/v1/games")
        assert listed.status_code == 200
        ids = {game["id"] for game in listed.json()}
        assert shown.id in ids and hidden.id not in ids
        page = anyone.get(f"/api/v1/games/{shown.id}")
        assert page.status_code == 200 and page.json()["role"] == "none"
        assert anyone.get(f"/api/v1/games/{hidden.id}").status_code == 404
        assert anyone.get(f"/api/v1/games/{shown.id}/view").status_code == 401


def test_one_s_own_messages_are_not_counted_unread(server: ServerProcess) -> None:
    master, france, england = account(server, named("mm")), account(server, named("mf")), account(server, named("me"))
    game = master.create_game("fog-of-war")
    france.join(game.id, "FRANCE", invite=game.invite)
    england.join(game.id, "ENGLAND", invite=game.invite)
    master.start(game.id)
    france.send_message(game.id, "all", "one")
    france.send_message(game.id, ["ENGLAND"], "two")
    assert france.messages(game.id).unread == 0
    assert england.messages(game.id).unread == 2
    england.send_message(game.id, ["FRANCE"], "three")
    assert france.messages(game.id).unread == 1 and england.messages(game.id).unread == 2


@pytest.mark.databases("sqlite")
def test_powers_are_read_leniently_over_the_api(server: ServerProcess) -> None:
    master, player = account(server, named("nm")), account(server, named("np"))
    game = master.create_game("fog-of-war")
    assert player.join(game.id, "fra", invite=game.invite).power == "FRANCE"
    master.seat_bots(game.id, ["Germany", "eng"])
    seats = {seat.power: seat for seat in master.game(game.id).seats}
    assert seats["GERMANY"].bot and seats["ENGLAND"].bot and not seats["ITALY"].bot
    master.start(game.id)
    assert player.send_message(game.id, ["ger"], "hallo").to == ["GERMANY"]
