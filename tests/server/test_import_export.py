"""A 'fogdip gm' game brought into the server and taken out again, as a game file and as
MILA's saved game."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from fogdip.client import ApiFailure
from fogdip.codec.positions import rules_from_spec
from fogdip.interop.mila import game_from_data
from fogdip.replay import replay_game

from cli_runner import run
from servers import ServerProcess, account

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
    master = account(server, "master")
    game_file = postal_game(tmp_path)
    game = master.import_game(game_file)
    assert (game.role, game.status, game.turn) == ("master", "active", "W1901A")
    # The game itself goes out; its table (who sits where, its press) stays on the server.
    assert master.export_game(game.id) == {key: value for key, value in game_file.items() if key != "table"}
    saved = master.export_game(game.id, "mila")
    assert [phase["name"] for phase in saved["phases"]] == ["S1901M", "F1901M", "W1901A"]
    replayed = game_from_data(saved)
    comparisons = replay_game(replayed.phases, rules_from_spec(replayed.rules))
    assert len(comparisons) == 2 and all(c.ok for c in comparisons)
    player = account(server, "player")
    player.join(game.id, "FRANCE", invite=game.invite)
    with pytest.raises(ApiFailure) as refused:
        player.export_game(game.id)
    assert refused.value.status == 403
    with pytest.raises(ApiFailure) as bad:
        master.import_game({"format": "fogdip-game", "schema": 99})
    assert bad.value.status == 400 and bad.value.code == "bad-game-file"


def _damaged(game_file: dict[str, Any], where: str, value: object) -> dict[str, Any]:
    """A copy of the game file with one part replaced: ``where`` is a path of keys and list
    indices, separated by '/'."""
    damaged = copy.deepcopy(game_file)
    *path, last = where.split("/")
    part: Any = damaged
    for key in path:
        part = part[int(key)] if isinstance(part, list) else part[key]
    part[last] = value
    return damaged


@pytest.mark.parametrize(
    ("where", "value"),
    [
        ("history/0/resolutions/0/orders/0/order/kind", "flying"),
        ("history/0/resolutions", "nothing"),
        ("history/0/position/units", ["A PAR"]),
        ("history/1/reports/FRANCE/units", 7),
        ("history/1/rejected", [{"power": "FRANCE"}]),
        ("knowledge/GERMANY/power", "X"),
    ],
)
def test_a_damaged_game_file_is_refused_at_import(
    server: ServerProcess, tmp_path: Path, where: str, value: object
) -> None:
    """Parts a game file's schema leaves free, in a shape fogdip never writes: refused with a
    400 when imported, never a 500 later for whoever opens the game."""
    master = account(server, "master")
    game_file = postal_game(tmp_path)
    try:
        game = master.import_game(_damaged(game_file, where, value))
    except ApiFailure as refused:
        assert (refused.status, refused.code) == (400, "bad-game-file")
        return
    # read whole (knowledge of the wrong power is rebuilt from the reports): it must then work
    for turn in ("S1901M", "F1901M"):
        assert master.map_svg(game.id, turn).startswith("<svg")
    assert master.adjudicate(game.id).adjudicated == "W1901A"
