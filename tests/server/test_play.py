"""Whole games through the API alone: every preset, a person against six bots, to the end."""

from __future__ import annotations

import random

import pytest

from fogdip.bots.seen_bot import bot_lines
from fogdip.client import ApiFailure, FogdipClient
from fogdip.codec.observations import observation_from_json
from fogdip.game import Game
from fogdip.variants import PRESETS

from servers import ServerProcess, account, failure

PASSWORD = "correct horse battery"


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_plays_to_its_end_against_six_bots(server: ServerProcess, preset: str) -> None:
    client = account(server, "player")
    game = client.against_bots(preset, {"end_year": 1902}, power="FRANCE")  # one call
    assert (game.role, game.power, game.status) == ("player", "FRANCE", "active")
    assert sum(seat.bot for seat in game.seats) == 6
    variant = Game.create(preset, end_year=1902).variant
    rng = random.Random(preset)
    turns = []
    for _ in range(40):
        view = client.view(game.id)
        assert view["power"] == "FRANCE"
        seen = observation_from_json(view["reports"][-1])
        lines = bot_lines(variant, seen, rng)  # none in a setup or a retreat: the defaults choose
        try:
            if lines:
                client.file_orders(game.id, lines)
        except ApiFailure as refused:  # a line the game refuses (a build on an occupied centre...)
            assert refused.status == 422 and refused.body["filed"] is False
            kept = [v["text"] for v in refused.body["lines"] if v["ok"]]
            if kept:
                client.file_orders(game.id, kept)
        playing = client.game(game.id).turn
        try:
            marked = client.ready(game.id, turn=playing)
        except ApiFailure as refused:
            # A last turn that asks nothing of France (no build, no disband) is played once the
            # bots have filed, and that can end the game before France marks ready.
            assert refused.status == 409 and "the game is finished" in refused.message, refused
            assert client.game(game.id).status == "finished"
            turns.append(playing)
            break
        # Every other seat is the bot's: the turn is played at once, or as soon as it has filed.
        assert marked.adjudicated == playing or (marked.adjudicated is None and "the bot" in (marked.note or ""))
        after = client.wait_until_played(game.id, playing, timeout=30)
        turns.append(playing)
        if after.status == "finished":
            break
    assert client.game(game.id).status == "finished"
    assert len(turns) == len(set(turns))  # every turn adjudicated once
    final = client.view(game.id)
    assert final["next_turn"] == "COMPLETED"
    assert client.map_svg(game.id).startswith("<svg")


def solo_france(server: ServerProcess, preset: str) -> tuple[FogdipClient, FogdipClient, str]:
    """A game of ``preset`` with France played and every other power empty (it holds, or gets
    the variant's defaults): the turns come out the same every time."""
    master, france = account(server, "master"), account(server, "france")
    game = master.create_game(preset, {"end_year": 1902})
    france.join(game.id, "FRANCE", invite=game.invite)
    master.start(game.id)
    return master, france, game.id


def test_orders_filed_ahead_and_conditional_through_the_api(server: ServerProcess) -> None:
    """Seed 001 (sighting): retreat guesses with the Spring orders; the Winter builds and a
    conditional retreat with the Fall orders, one turn that plays Fall, its retreats and
    Winter."""
    master, france, game_id = solo_france(server, "sighting")
    refused = failure(france.file_orders, game_id, ["A PAR - BUR", "BUILD A PAR"])
    assert refused.status == 422
    assert refused.body["lines"][1]["error"].startswith("this turn (S1901M) has no adjustments")
    france.file_orders(game_id, ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO", "F BRE R PIC"])
    assert master.adjudicate(game_id).next == "F1901M"
    fall = ["A BUR - BEL", "A SPA - POR", "F MAO - SPA/NC", "BUILD A PAR", "BUILD F BRE"]
    fall.append("IF A BUR DISLODGED THEN A BUR R PIC")
    assert france.file_orders(game_id, fall).filed
    assert france.view(game_id)["filed"] == fall
    assert (master.adjudicate(game_id).adjudicated, france.game(game_id).turn) == ("F1901M", "S1902M")
    units = france.view(game_id)["reports"][-1]["units"]["FRANCE"]
    assert sorted(units) == ["A BEL", "A PAR", "A POR", "F BRE", "F SPA/NC"]  # the moves, and both builds


def test_setup_choices_and_extra_orders_through_the_api(server: ServerProcess) -> None:
    """Seed 002 (deadman): a free choice of starting units, espionage, and peek-a-sneak's
    first year explained."""
    master, france, game_id = solo_france(server, "deadman")
    assert france.game(game_id).turn == "S1901S"
    france.file_orders(game_id, ["F BRE", "F MAR", "A PAR"])
    master.adjudicate(game_id)
    assert sorted(france.view(game_id)["reports"][-1]["units"]["FRANCE"]) == ["A PAR", "F BRE", "F MAR"]
    refused = failure(france.file_orders, game_id, ["F BRE E ENGLAND", "PAS BUR"])
    assert [line["ok"] for line in refused.body["lines"]] == [True, False]
    assert refused.body["lines"][1]["error"] == "peek-a-sneak may be used from 1902 on, not in 1901"
    assert france.file_orders(game_id, ["F BRE E ENGLAND"]).filed


def test_a_bot_seat_names_its_bot_and_a_game_against_bots_gets_the_heuristic(server: ServerProcess) -> None:
    player = account(server, "namer")
    game = player.against_bots("fog-of-war", power="FRANCE")
    assert {seat.bot_name for seat in game.seats if seat.power != "FRANCE"} == {"heuristic"}
    assert next(seat for seat in game.seats if seat.power == "FRANCE").bot_name is None
    player.ready(game.id)
    assert player.wait_until_played(game.id, "S1901M").turn != "S1901M"  # the heuristic filed for its six seats
    chosen = player.against_bots("standard", power="ITALY", bot="random")
    assert {seat.bot_name for seat in chosen.seats if seat.bot} == {"random"}
    refused = failure(lambda: player.against_bots("standard", bot="dumbbot"))
    assert refused.status == 400 and "no bot named 'dumbbot'" in refused.message and "heuristic" in refused.message
    # The game master seats the bot it names; in gunboat no player learns which seats it holds,
    # nor which bot: the game master does.
    master, joiner = player, account(server, "joiner")
    gunboat = master.create_game("fog-of-war", press="gunboat")
    mine = joiner.join(gunboat.id, invite=gunboat.invite).power  # a power at random, in gunboat
    others = sorted(seat.power for seat in master.game(gunboat.id).seats if seat.power != mine)
    master.seat_bots(gunboat.id, others[:2], bot="random")
    master.seat_bots(gunboat.id, bot="search")
    seen_by_master = {seat.power: seat.bot_name for seat in master.game(gunboat.id).seats}
    assert seen_by_master[others[0]] == seen_by_master[others[1]] == "random"
    assert {seen_by_master[power] for power in others[2:]} == {"search"} and seen_by_master[mine] is None
    seen_by_player = {seat.power: seat.bot_name for seat in joiner.game(gunboat.id).seats}
    assert set(seen_by_player.values()) == {None}  # not one bot named to a player
