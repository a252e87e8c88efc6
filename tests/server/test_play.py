"""Whole games through the API alone: every preset, a person against six bots, to the end."""

from __future__ import annotations

import random

import pytest

from fogdip.bots.seen_bot import bot_lines
from fogdip.client import ApiFailure, FogdipClient
from fogdip.codec.observations import observation_from_json
from fogdip.game import Game
from fogdip.variants import PRESETS

from servers import ServerProcess

PASSWORD = "correct horse battery"


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_plays_to_its_end_against_six_bots(server: ServerProcess, preset: str) -> None:
    client = FogdipClient(server.url)
    client.sign_up("player", PASSWORD)
    client.sign_in("player", PASSWORD)
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
        turn = client.ready(game.id)
        assert turn.adjudicated is not None  # every other seat is a bot: the turn is played at once
        turns.append(turn.adjudicated)
        if turn.completed:
            break
    assert client.game(game.id).status == "finished"
    assert len(turns) == len(set(turns))  # every turn adjudicated once
    final = client.view(game.id)
    assert final["next_turn"] == "COMPLETED"
    assert client.map_svg(game.id).startswith("<svg")
