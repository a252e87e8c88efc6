"""The standard map file against the reference map facts, and the map loader's checks."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path

import pytest

import fogdip.engine
from fogdip.engine.errors import MapError
from fogdip.engine.map import get_map, load_map, standard_map
from fogdip.engine.state import GameState

REFERENCE = json.loads((Path(__file__).parent / "data" / "reference_map.json").read_text())
TERRAIN = {"water": "sea", "coast": "coast", "land": "land", "shut": "impassable"}


def test_province_facts_match_the_reference() -> None:
    board = standard_map()
    assert set(board.provinces) == set(REFERENCE["provinces"])
    assert len([p for p in board.provinces.values() if p.passable]) == 75
    assert not board.provinces["SWI"].passable
    for code, facts in REFERENCE["provinces"].items():
        province = board.provinces[code]
        assert province.terrain == TERRAIN[facts["terrain"]], code
        assert province.supply_center == facts["supply_center"], code
        assert province.home == facts["home"], code
        assert sorted(province.coasts) == sorted(facts["coasts"]), code


def test_adjacency_matches_the_reference_for_each_unit_type() -> None:
    board = standard_map()
    for location, facts in REFERENCE["adjacency"].items():
        assert sorted(board.army_adjacency.get(location, ())) == facts["army"], location
        assert sorted(board.fleet_adjacency.get(location, ())) == facts["fleet"], location
    assert set(board.fleet_adjacency) | set(board.army_adjacency) <= set(REFERENCE["adjacency"])


def test_centres_coasts_and_homes() -> None:
    board = standard_map()
    assert len(board.supply_centers) == 34
    coasts = {c for p in board.provinces.values() for c in p.coasts}
    assert coasts == {"STP/NC", "STP/SC", "SPA/NC", "SPA/SC", "BUL/EC", "BUL/SC"}
    assert board.home_centers("RUSSIA") == ("MOS", "SEV", "STP", "WAR")
    assert sum(len(board.home_centers(p)) for p in board.powers) == 22


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("ENG", "ENG"),
        ("ECH", "ENG"),
        ("NRG", "NWG"),
        ("MID", "MAO"),
        ("NAT", "NAO"),
        ("GOL", "LYO"),
        ("GOB", "BOT"),
        ("english channel", "ENG"),
        ("Mid-Atlantic Ocean", "MAO"),
        ("St. Petersburg", "STP"),
        ("st petersburg/nc", "STP/NC"),
        ("Spain(sc)", "SPA/SC"),
        ("bul/ec", "BUL/EC"),
    ],
)
def test_aliases_and_full_names(name: str, code: str) -> None:
    assert standard_map().resolve_name(name) == code


def test_loader_rejects_one_way_adjacency() -> None:
    text = """
name = "tiny"
[powers]
A = { start = [] }
[provinces.AAA]
terrain = "land"
army = ["BBB"]
[provinces.BBB]
terrain = "land"
"""
    with pytest.raises(MapError, match="one-way"):
        load_map(text)


def test_loader_rejects_unknown_map_name() -> None:
    with pytest.raises(MapError, match="unknown map 'nowhere'; known maps: standard"):
        get_map("nowhere")


def test_a_position_copied_or_pickled_shares_its_shipped_map() -> None:
    """A map never changes, so a copy of a position (the server adjudicates an imported game
    on a deep copy) keeps the very map, tables and all; a shipped map pickles as its name."""
    state = GameState.initial()
    for copied in (copy.deepcopy(state), copy.copy(state), pickle.loads(pickle.dumps(state))):
        assert copied == state and copied.board is state.board


def test_a_map_loaded_from_text_pickles_as_its_tables() -> None:
    text = (Path(fogdip.engine.__file__).parent / "maps" / "standard.toml").read_text("utf-8")
    board = load_map(text)
    again = pickle.loads(pickle.dumps(board))
    assert again is not board and again is not standard_map()
    assert dict(again.provinces) == dict(board.provinces) and dict(again.neighbours) == dict(board.neighbours)
    assert again.sites.keys() == board.sites.keys()
    assert [f.order for f in again.sites["FSPA/NC"].facts.values()] == [
        f.order for f in board.sites["FSPA/NC"].facts.values()
    ]
