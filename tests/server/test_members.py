"""Observers, draw votes, ready counts and adjacency-limited press, each as the game's settings
say, through real server processes."""

from __future__ import annotations

import dataclasses
import random

import pytest
from test_stream import next_message, open_stream

from fogdip.bots.seen_bot import bot_lines
from fogdip.client import FogdipClient
from fogdip.codec.observations import observation_from_json
from fogdip.game import Game

from servers import ServerProcess, account, failure, take_seat

#: rules the table's own tests check in-process (tests/game/test_table.py); here, the HTTP answers.
DATABASES = ("sqlite",)


def seated(
    server: ServerProcess, preset: str, powers: tuple[str, ...], **settings: object
) -> tuple[FogdipClient, str, dict[str, FogdipClient]]:
    """A started game of ``preset``: a game master, a player for each of ``powers``, the bot
    on every other seat."""
    master = account(server, "master")
    game = master.create_game(preset, private=False, **settings)  # type: ignore[arg-type]
    players = {}
    for power in powers:
        players[power] = account(server, power.lower())
        players[power].join(game.id, power)
    master.seat_bots(game.id)
    master.start(game.id)
    return master, game.id, players


def test_an_observer_reads_public_press_only_until_the_end(server: ServerProcess) -> None:
    master, game_id, players = seated(server, "fog-of-war", ("ENGLAND", "FRANCE"))
    watcher = account(server, "watcher")
    page = watcher.observe(game_id)
    assert (page.role, page.power, page.observers) == ("observer", None, "press")
    token = watcher.make_token("stream")
    with open_stream(server, game_id, token) as stream:
        assert next_message(stream, "hello")["role"] == "observer"
        players["ENGLAND"].send_message(game_id, ["FRANCE"], "private")
        players["FRANCE"].send_message(game_id, "all", "public")
        # the private message's event never reaches the observer: the next is the public one's
        assert next_message(stream, "message", timeout=10)["turn"] == "S1901M"
        master.adjudicate(game_id)
        assert next_message(stream, "phase")["turn"] == "S1901R"
    assert [m.body for m in watcher.messages(game_id).messages] == ["public"]
    assert failure(watcher.view, game_id).status == 403
    assert failure(watcher.map_svg, game_id).status == 403
    assert failure(watcher.export_game, game_id).status == 403
    assert failure(watcher.send_message, game_id, "all", "hello").status == 403
    assert failure(watcher.file_orders, game_id, ["A PAR H"]).status == 403
    # ... until a drawn game reveals everything, to observers as to players
    for client in players.values():
        client.vote_draw(game_id)
    ended = watcher.game(game_id)
    assert ended.status == "finished"
    assert ended.outcome is not None and ended.outcome.result == "draw" and ended.outcome.revealed
    seen = watcher.view(game_id)
    assert seen["revealed_history"][0]["turn"] == "S1901M" and "filed" not in seen
    assert watcher.map_svg(game_id).startswith("<svg")
    assert watcher.export_game(game_id)["format"] == "fogdip-game"


def test_observer_settings(server: ServerProcess) -> None:
    master = account(server, "master")
    watcher = account(server, "watcher")
    board = master.create_game("fog-of-war", private=False, observers="board")
    france = account(server, "france")
    france.join(board.id, "FRANCE")
    master.start(board.id)
    france.file_orders(board.id, ["A PAR - BUR"])
    watcher.observe(board.id)
    seen = watcher.view(board.id)
    # the board as it stands, never what is filed for the coming turn
    assert "A PAR" in seen["position"]["units"]["FRANCE"] and "filed" not in seen and "status" not in seen
    assert "A PAR - BUR" not in watcher.map_svg(board.id)
    closed = master.create_game("fog-of-war", private=False, observers="none")
    assert failure(watcher.observe, closed.id).status == 403
    hidden = master.create_game("fog-of-war")  # private
    missing = failure(watcher.observe, hidden.id)
    assert (missing.status, missing.message) == (404, failure(watcher.observe, "nosuchgame").message)
    assert watcher.observe(hidden.id, invite=hidden.invite).role == "observer"
    # a player of the game is not its observer, and an observer may still take a seat
    assert failure(france.observe, board.id).status == 409
    assert watcher.join(hidden.id, "ITALY", invite=hidden.invite).role == "player"


def test_secret_draw_votes_tell_only_the_result(server: ServerProcess) -> None:
    master, game_id, players = seated(server, "fog-of-war", ("ENGLAND", "FRANCE", "GERMANY"))
    england, france, germany = players["ENGLAND"], players["FRANCE"], players["GERMANY"]
    before = germany.game(game_id)
    assert before.draw_votes == "secret"
    mine = england.vote_draw(game_id)
    assert next(s for s in mine.seats if s.yours).draw is True and mine.votes is None
    after = germany.game(game_id)
    assert after == before and after.votes is None
    assert master.game(game_id).votes == ["ENGLAND"]
    france.vote_draw(game_id)
    england.vote_draw(game_id, False)  # taken back
    germany.vote_draw(game_id)
    assert germany.game(game_id).status == "active"
    england.vote_draw(game_id)
    ended = germany.game(game_id)
    assert ended.status == "finished" and ended.turn == "COMPLETED"
    assert ended.outcome is not None
    assert (ended.outcome.result, ended.outcome.agreed) == ("draw", "S1901M")
    assert ended.outcome.powers == sorted(s.power for s in ended.seats)  # every power is still in
    assert germany.view(game_id)["revealed_history"] == []
    assert failure(germany.vote_draw, game_id).status == 409
    # the game master votes for the bot's seats, in a game under way only
    assert failure(master.vote_draw, game_id).status == 409
    # and, in a game without the bot, for nobody
    other_master = account(server, "master2")
    game = other_master.create_game("standard", private=False)
    for seat in game.seats:
        account(server, f"{seat.power.lower()}2").join(game.id, seat.power)
    other_master.start(game.id)
    assert failure(other_master.vote_draw, game.id).status == 403


def test_open_draw_votes_are_shown_and_streamed(server: ServerProcess) -> None:
    master, game_id, players = seated(server, "standard", ("ENGLAND", "FRANCE"))
    assert master.game(game_id).draw_votes == "open"
    token = players["FRANCE"].make_token("stream")
    with open_stream(server, game_id, token) as stream:
        next_message(stream, "hello")
        players["ENGLAND"].vote_draw(game_id)
        assert next_message(stream, "votes")["votes"] == ["ENGLAND"]
    assert players["FRANCE"].game(game_id).votes == ["ENGLAND"]


def test_the_bot_goes_with_the_players_on_a_draw(server: ServerProcess) -> None:
    player = account(server, "alone")
    game = player.against_bots("fog-of-war", power="FRANCE")
    ended = player.vote_draw(game.id)
    assert ended.status == "finished" and ended.outcome is not None and len(ended.outcome.powers) == 7


@pytest.mark.parametrize(("preset", "told"), [("standard", True), ("fog-of-war", False)])
def test_ready_counts_where_the_game_tells_them(server: ServerProcess, preset: str, told: bool) -> None:
    master, game_id, players = seated(server, preset, ("ENGLAND", "FRANCE"))
    france = players["FRANCE"]
    token = france.make_token("stream")
    with open_stream(server, game_id, token) as stream:
        next_message(stream, "hello")
        players["ENGLAND"].ready(game_id)
        page = france.game(game_id)
        assert page.ready_counts is told
        if told:
            assert next_message(stream, "ready") == {
                "type": "ready",
                "game": game_id,
                "turn": "S1901M",
                "ready": 6,
                "of": 7,
            }
            assert page.ready is not None and (page.ready.ready, page.ready.of) == (6, 7)
        else:
            assert page.ready is None
            france.send_message(game_id, "all", "marker")
            # the next event France hears is its own message's: no 'ready' came before it
            assert next_message(stream, "message", timeout=10)["type"] == "message"
    assert master.game(game_id).ready is not None


def test_adjacency_limited_press(server: ServerProcess) -> None:
    master, game_id, players = seated(
        server, "standard", ("ITALY", "AUSTRIA", "FRANCE"), press="white", press_range="adjacent"
    )
    italy = players["ITALY"]
    # F TRI stands next to A VEN; nothing of France's stands next to Italy's units
    assert italy.send_message(game_id, ["AUSTRIA"], "neighbours").to == ["AUSTRIA"]
    refused = failure(italy.send_message, game_id, ["FRANCE"], "far away")
    assert refused.status == 403 and "AUSTRIA" in refused.message and "not FRANCE" in refused.message
    assert failure(italy.send_message, game_id, "all", "everyone").status == 403
    assert failure(master.create_game, "standard", press="public", press_range="adjacent").status == 400


def test_adjacency_limited_press_under_fog(server: ServerProcess) -> None:
    """Where units see every neighbour (diplomyopia), reach is what the sender's report shows;
    where sight is one-way (fog-of-war sees as a unit moves), or the press anonymous, the
    setting is refused: a message would tell of a unit unseen, or name its sender."""
    _master, game_id, players = seated(
        server, "diplomyopia", ("ITALY", "AUSTRIA"), press="white", press_range="adjacent"
    )
    assert players["ITALY"].send_message(game_id, ["AUSTRIA"], "hello").sender == "ITALY"
    refused = failure(players["ITALY"].send_message, game_id, ["RUSSIA"], "x")
    assert refused.status == 403 and refused.message.endswith("(you may write to AUSTRIA)")
    master = account(server, "master")
    for preset, press in (
        ("fog-of-war", "white"),
        ("sighting", "white"),
        ("diplomyopia", "grey"),
        ("standard", "black"),
    ):
        answer = failure(master.create_game, preset, press=press, press_range="adjacent")
        assert (answer.status, answer.code) == (400, "bad-press"), (preset, press)


def test_gunboat_settings_that_would_tell_the_bot_from_a_player_are_refused(server: ServerProcess) -> None:
    master = account(server, "master")
    game = master.create_game("standard", press="gunboat")
    assert (game.ready_counts, game.draw_votes) == (False, "secret")
    assert failure(master.create_game, "standard", press="gunboat", ready_counts=True).code == "bad-ready-counts"
    assert failure(master.create_game, "standard", press="gunboat", draw_votes="open").code == "bad-votes"
    # and the players of a gunboat game are not told which seats the bot plays
    player = account(server, "player")
    take_seat(player, master, game.id, "FRANCE", game.invite)
    master.seat_bots(game.id, ["ENGLAND"])
    seats = {seat.power: seat for seat in player.game(game.id).seats}
    # nor which seats are taken: they fill as people join and the bot is seated
    assert (seats["ENGLAND"].taken, seats["ENGLAND"].bot) == (None, False)
    assert (seats["FRANCE"].taken, seats["FRANCE"].yours) == (True, True)
    assert {seat.power: seat.bot for seat in master.game(game.id).seats}["ENGLAND"]


def test_a_bot_s_orders_cannot_be_foretold(server: ServerProcess) -> None:
    """Nothing a player knows (the game, the turn, the power) seeds the bot: its orders drawn
    from those are not the ones it gives."""
    player = account(server, "player")
    game = player.against_bots("standard", power="FRANCE", bot="random")  # it draws at random
    player.ready(game.id)
    played = {entry["order"] for entry in player.view(game.id)["reports"][-1]["orders"]}
    variant = Game.create("standard").variant
    opening = observation_from_json(player.view(game.id)["reports"][0])
    foretold: set[str] = set()
    for power in ("AUSTRIA", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "TURKEY"):
        seen = dataclasses.replace(opening, power=power)
        foretold.update(bot_lines(variant, seen, random.Random(f"{game.id}:S1901M:{power}")))
    assert len(foretold) >= 18 and not foretold <= played
