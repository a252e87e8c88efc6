"""A 'fogdip gm' game brought into the server and taken out again, as a game file and as
MILA's saved game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fogdip.client import ApiFailure, FogdipClient
from fogdip.codec.positions import rules_from_spec
from fogdip.interop.mila import game_from_data
from fogdip.replay import replay_game

from cli_runner import run
from servers import ServerProcess

PASSWORD = "correct horse battery"


def postal_game(tmp_path: Path) -> dict[str, object]:
    """A standard game of two turns, run with 'fogdip gm'."""
    path = tmp_path / "game.json"
    assert run("gm", "new", "--variant", "standard", path).exit_code == 0
    assert run("gm", "orders", path, "FRANCE", "-", input="A PAR - BUR\nF BRE - MAO\n").exit_code == 0
    assert run("gm", "orders", path, "GERMANY", "-", input="A MUN - BUR\n").exit_code == 0
    assert run("gm", "adjudicate", path).exit_code == 0
    assert run("gm", "orders", path, "FRANCE", "-", input="F MAO - SPA/NC\n").exit_code == 0
    assert run("gm", "adjudicate", path).exit_code == 0
    loaded: dict[str, object] = json.loads(path.read_text())
    return loaded


def test_a_postal_game_comes_in_and_goes_out_whole(server: ServerProcess, tmp_path: Path) -> None:
    master = FogdipClient(server.url)
    master.sign_up("master", PASSWORD)
    master.sign_in("master", PASSWORD)
    game_file = postal_game(tmp_path)
    game = master.import_game(game_file)
    assert (game.role, game.status, game.turn) == ("master", "active", "W1901A")
    assert master.export_game(game.id) == game_file
    saved = master.export_game(game.id, "mila")
    assert [phase["name"] for phase in saved["phases"]] == ["S1901M", "F1901M", "W1901A"]
    replayed = game_from_data(saved)
    comparisons = replay_game(replayed.phases, rules_from_spec(replayed.rules))
    assert len(comparisons) == 2 and all(c.ok for c in comparisons)
    player = FogdipClient(server.url)
    player.sign_up("player", PASSWORD)
    player.sign_in("player", PASSWORD)
    player.join(game.id, "FRANCE", invite=game.invite)
    with pytest.raises(ApiFailure) as refused:
        player.export_game(game.id)
    assert refused.value.status == 403
    with pytest.raises(ApiFailure) as bad:
        master.import_game({"format": "fogdip-game", "schema": 99})
    assert bad.value.status == 400 and bad.value.code == "bad-game-file"
