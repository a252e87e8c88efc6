"""The game service: games kept in a store, played turn by turn, viewed by each power."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from fogdip.bots.variant_bot import random_turn_orders
from fogdip.codec.gamefiles import SCHEMA, GameFileError, game_from_json, game_to_json
from fogdip.codec.observations import observation_to_json
from fogdip.codec.views import power_view_to_json
from fogdip.fog.knowledge import Knowledge
from fogdip.game import FileStore, Game, GameError, GameNotFound, GameService, MemoryStore

#: Two games of different presets and two of one preset, told apart only by their seeds.
GAMES = {"a": ("fog-of-war", 1), "b": ("diplomyopia", 2), "c": ("sighting", 3), "d": ("sighting", 4)}


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _play_turn(games: GameService, game_id: str, rng: random.Random) -> str:
    """File every power's random orders and adjudicate; the turn's result and reports."""
    with games.change(game_id) as game:
        for power, lines in sorted(random_turn_orders(game.variant, game.position, rng).items()):
            game.file(power, lines, partial=True)
        played = game.adjudicate()
    return _dumps(
        {
            "turn": played.turn,
            "result": (kept := games.open(game_id)).result_document(kept.master_view().turns[-1]),
            "reports": {power: observation_to_json(seen) for power, seen in sorted(played.observations.items())},
        }
    )


def _alone(game_id: str, turns: int) -> list[str]:
    preset, seed = GAMES[game_id]
    games = GameService(MemoryStore())
    games.create(game_id, preset, {"end_year": 1903})
    rng = random.Random(seed)
    return [_play_turn(games, game_id, rng) for _ in range(turns)]


def test_games_interleaved_in_one_process_give_exactly_what_they_give_alone() -> None:
    turns = 6
    alone = {game_id: _alone(game_id, turns) for game_id in GAMES}
    games = GameService(MemoryStore())
    rngs = {}
    for game_id, (preset, seed) in GAMES.items():
        games.create(game_id, preset, {"end_year": 1903})
        rngs[game_id] = random.Random(seed)
    together: dict[str, list[str]] = {game_id: [] for game_id in GAMES}
    for _ in range(turns):
        for game_id in GAMES:
            together[game_id].append(_play_turn(games, game_id, rngs[game_id]))
    assert together == alone
    assert alone["c"] != alone["d"]  # the seeds matter, so the comparison can fail


def test_two_games_open_at_once_do_not_share_anything() -> None:
    """Both games are open and changed turn by turn between each other's steps, as a server
    handling two requests would."""
    games = GameService(MemoryStore())
    first = games.create("x", "fog-of-war", {"end_year": 1902})
    second = games.create("y", "fog-of-war", {"end_year": 1902})
    first.file("FRANCE", ["A PAR - BUR"])
    second.file("FRANCE", ["A PAR - PIC"])
    first.adjudicate()
    second.file("GERMANY", ["A MUN - BUR"])
    second.adjudicate()
    alone = Game.create("fog-of-war", end_year=1902)
    alone.file("FRANCE", ["A PAR - BUR"])
    alone.adjudicate()
    assert game_to_json(first.record) == game_to_json(alone.record)
    assert game_to_json(second.record) != game_to_json(alone.record)


def test_kept_knowledge_equals_knowledge_rebuilt_from_the_reports() -> None:
    games = GameService(MemoryStore())
    games.create("g", "diplomyopia", {"end_year": 1902})
    rng = random.Random(7)
    while games.open("g").turn != "COMPLETED":
        _play_turn(games, "g", rng)
    game = games.open("g")
    for power in game.powers:
        kept = game.knowledge(power)
        assert kept.observations == len(game.reports(power)) > 1
        assert kept == Knowledge.rebuild(power, game.reports(power))


def test_knowledge_missing_from_the_record_is_rebuilt() -> None:
    game = Game.create("fog-of-war", end_year=1902)
    game.file("RUSSIA", ["A MOS - UKR"])
    game.adjudicate()
    kept = game.knowledge("RUSSIA")
    game.record.knowledge.clear()
    game.adjudicate()  # knowledge not kept: this turn is not added to nothing
    assert game.knowledge("RUSSIA") == Knowledge.rebuild("RUSSIA", game.reports("RUSSIA"))
    assert game.knowledge("RUSSIA") != kept


def test_a_view_is_a_copy() -> None:
    game = Game.create("fog-of-war")
    view = game.view("FRANCE")
    view.knowledge.observations = 99
    assert game.knowledge("FRANCE").observations == 1


def test_a_power_s_view_does_not_show_what_others_filed() -> None:
    """Orders filed and not yet adjudicated are the filer's alone."""
    game = Game.create("fog-of-war")
    before = _dumps(power_view_to_json(game.view("FRANCE")))
    game.file("ENGLAND", ["F LON - ENG", "F EDI - NTH"])
    game.file("GERMANY", ["A MUN - BUR"])
    assert _dumps(power_view_to_json(game.view("FRANCE"))) == before
    assert game.view("ENGLAND").filed == ("F LON - ENG", "F EDI - NTH")
    assert game.master_view().filed["GERMANY"] == ("A MUN - BUR",)


def test_a_change_that_fails_is_not_saved() -> None:
    games = GameService(MemoryStore())
    games.create("g", "standard")
    with pytest.raises(GameError, match="unknown power 'PRUSSIA'"), games.change("g") as game:
        game.file("FRANCE", ["A PAR - BUR"])
        game.power_named("PRUSSIA")
    assert games.open("g").filed == {}
    with games.change("g") as game:
        game.file("FRANCE", ["A PAR - BUR"])
    assert games.open("g").filed == {"FRANCE": ["A PAR - BUR"]}


def test_requests_a_game_cannot_satisfy() -> None:
    games = GameService(MemoryStore())
    with pytest.raises(GameNotFound, match="no game 'nope'"):
        games.open("nope")
    games.create("g", "standard", {"end_year": 1901})
    with pytest.raises(GameError, match="already kept as g"):
        games.create("g", "standard")
    game = games.open("g")
    with pytest.raises(GameError, match="PRUSSIA is not a power of g"):
        game.view("PRUSSIA")
    while game.turn != "COMPLETED":
        game.adjudicate()
    with pytest.raises(GameError, match="the game is over"):
        game.file("FRANCE", ["A PAR H"])
    with pytest.raises(GameError, match="the game is over"):
        game.adjudicate()


def test_the_game_master_sees_everything_and_players_only_their_own(tmp_path: Path) -> None:
    games = GameService(FileStore(tmp_path))
    games.create("g.json", "fog-of-war", {"end_year": 1901})
    with games.change("g.json") as game:
        game.file("FRANCE", ["A PAR - BUR"])
        game.file("TURKEY", ["A CON - BUL"])
        game.adjudicate()
    game = games.open("g.json")
    master = game.master_view()
    first = game.result_document(master.turns[0])
    assert first["orders"]["A PAR"] == "A PAR - BUR"
    assert first["orders"]["A CON"] == "A CON - BUL"
    french = power_view_to_json(game.view("FRANCE"))
    said = _dumps(french["reports"])
    assert "BUR" in said and "BUL" not in said and "CON" not in said
    assert french["revealed_history"] is None


def test_game_files_carry_their_schema_and_refuse_a_later_one(tmp_path: Path) -> None:
    games = GameService(FileStore(tmp_path))
    games.create("g.json", "sighting")
    data = json.loads((tmp_path / "g.json").read_text())
    assert data["schema"] == SCHEMA and "version" not in data
    assert set(data["knowledge"]) == set(data["opening"])
    data["schema"] = SCHEMA + 1
    (tmp_path / "g.json").write_text(json.dumps(data))
    with pytest.raises(GameFileError, match=f"schema {SCHEMA + 1} by a later fogdip.*upgrade fogdip"):
        games.open("g.json")
    data.pop("schema")
    with pytest.raises(GameFileError, match='has no "schema"'):
        game_from_json(data)


def test_damaged_knowledge_is_rebuilt_from_the_reports(tmp_path: Path) -> None:
    games = GameService(FileStore(tmp_path))
    games.create("g.json", "fog-of-war")
    data = json.loads((tmp_path / "g.json").read_text())
    data["knowledge"]["FRANCE"] = {"power": "FRANCE", "ghosts": 3}
    (tmp_path / "g.json").write_text(json.dumps(data))
    game = games.open("g.json")
    assert game.knowledge("FRANCE") == Knowledge.rebuild("FRANCE", game.reports("FRANCE"))


def _played_to_its_end(preset: str, seed: int) -> Game:
    game = Game.create(preset, end_year=1902)
    rng = random.Random(seed)
    while game.turn != "COMPLETED":
        for power, lines in random_turn_orders(game.variant, game.position, rng).items():
            game.file(power, lines, partial=True)
        game.adjudicate()
    return game


def test_a_game_file_of_schema_2_is_brought_up_to_date() -> None:
    """Schema 2 kept each turn's result as a summary: the game is played again from its start
    once, for the engine's records and the positions reached; the reports stay as sent."""
    game = _played_to_its_end("sighting", 5)
    current = game_to_json(game.record)
    old = json.loads(json.dumps(current))
    old["schema"] = 2
    for turn, played in zip(old["history"], game.record.history, strict=True):
        for key in ("resolutions", "rejected", "position"):
            turn.pop(key)
        turn["result"] = game.result_document(played)
    read = game_from_json(old)
    assert game_to_json(read) == current
    broken = json.loads(json.dumps(old))
    broken["history"][1]["orders"] = {}
    broken["history"][1]["turn"] = "S1905M"
    with pytest.raises(GameFileError, match=r"schema 2.*cannot be brought up to date.*plays again as"):
        game_from_json(broken)


def test_a_game_file_of_schema_1_is_read() -> None:
    """Schema 1 kept each learned order only as its line; the values are read from it once."""
    game = _played_to_its_end("fog-1898", 11)  # its reports write hidden places as ???
    current = game_to_json(game.record)
    old = json.loads(json.dumps(current))
    old.pop("schema")
    old.pop("knowledge")
    old["version"] = 1
    lines = []
    for report in [*old["opening"].values(), *(r for turn in old["history"] for r in turn["reports"].values())]:
        for entry in report["orders"]:
            entry.pop("masked")
            entry.pop("conflicts", None)
            lines.append(entry["order"])
    assert any("???" in line for line in lines)  # hidden places are read back as hidden
    read = Game(game_from_json(old))
    assert read.record.knowledge == {}  # not in schema 1: rebuilt from the reports when asked for
    for power in read.powers:
        read.knowledge(power)
    assert game_to_json(read.record) == current


@pytest.mark.parametrize(
    "overrides", [{}, {"end_year": 1910}, {"espionage": False}, {"espionage": True, "end_year": 1903}]
)
def test_a_game_read_back_has_the_variant_it_was_created_with(overrides: dict[str, Any]) -> None:
    game = Game.create("fog-of-war", **overrides)
    read = game_from_json(json.loads(json.dumps(game_to_json(game.record))))
    assert read.variant.options == game.variant.options
    assert read.variant.options.name == game.variant.options.name
