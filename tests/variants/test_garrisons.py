"""Garrisons, the provinces reading of Diplomyopia's rule 4 (seed 003), played turn by turn.

    "4. GARRISONS: Once a province is left unoccupied, it is deemed to be garrisoned by a small,
    non-combatant body of men. When the province is taken by an enemy at least one member of
    the garrison is assumed to escape to report the capture (e.g. "Piedmont captured by a
    French army").. Thus, in addition to being told who occupies adjacent provinces at the end
    of a turn, a player is told of any unoccupied provinces he has lost, and to whom they have
    fallen."

Piedmont is no supply centre: a power holds every land province it last occupied.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from fogdip.bots.variant_bot import random_turn_orders
from fogdip.engine import standard_map
from fogdip.engine.errors import FogdipError
from fogdip.fog import Notice, Observation
from fogdip.play import adjudicate_document, position_document, position_from_document
from fogdip.variants import PRESETS, Position, TurnResult, Variant, compose
from fogdip.variants.garrisons import HOLDERS, seed_holders
from views import notice_json

BOARD = standard_map()
MYOPIA = Variant.named("diplomyopia")


def position(
    units: Mapping[str, Sequence[str]],
    phase: str = "S1901M",
    usage: Mapping[str, Any] | None = None,
    centers: Mapping[str, str] | None = None,
) -> Position:
    return Position.of(units, phase, centers=centers, usage=usage, board=BOARD)


def turns(variant: Variant, start: Position, *orders: Mapping[str, list[str]]) -> list[TurnResult]:
    """Play one turn per order set, in order."""
    played: list[TurnResult] = []
    here = start
    for filed in orders:
        played.append(variant.play(here, dict(filed)))
        here = played[-1].position
    return played


def garrison(seen: Observation) -> list[str]:
    return [n.text for n in seen.notices_of("garrison")]


def only_garrison(seen: Observation) -> Notice:
    found = seen.notices_of("garrison")
    assert len(found) == 1, [n.text for n in seen.notices]
    return found[0]


def silent_but(played: TurnResult, *powers: str) -> None:
    for power, seen in played.observations.items():
        if power not in powers:
            assert garrison(seen) == [], f"{power} was told {garrison(seen)}"


PIEDMONT = {"ITALY": ["A PIE"], "FRANCE": ["A MAR"]}


# --- the seed's example ---------------------------------------------------------------------------


def test_seed_piedmont_captured_by_a_french_army() -> None:
    """ "When the province is taken by an enemy at least one member of the garrison is assumed
    to escape to report the capture (e.g. "Piedmont captured by a French army")." Italy's army
    leaves Piedmont in Spring; a French army walks in in Fall."""
    spring, retreats, fall = turns(
        MYOPIA, position(PIEDMONT), {"ITALY": ["A PIE - VEN"]}, {}, {"FRANCE": ["A MAR - PIE"]}
    )
    silent_but(spring)
    silent_but(retreats)
    assert spring.position.usage[HOLDERS]["PIE"] == "ITALY"
    notice = only_garrison(fall.observations["ITALY"])
    assert notice_json(notice) == {
        "kind": "garrison",
        "text": "Piedmont captured by a French army",
        "province": "PIE",
        "captor": "FRANCE",
        "type": "A",
    }
    silent_but(fall, "ITALY")
    assert fall.position.usage[HOLDERS]["PIE"] == "FRANCE"


def test_the_garrison_reports_beyond_sight() -> None:
    """The report comes however far the holder's units are: "a player is told of any
    unoccupied provinces he has lost", not only of those he can see."""
    *_, fall = turns(
        MYOPIA,
        position(PIEDMONT),
        {"ITALY": ["A PIE - VEN"]},
        {},
        {"ITALY": ["A VEN - APU"], "FRANCE": ["A MAR - PIE"]},
    )
    italy = fall.observations["ITALY"]
    assert "PIE" not in italy.visible and italy.unit_at("PIE") is None
    assert garrison(italy) == ["Piedmont captured by a French army"]


def test_a_fleet_captor_is_named_a_fleet() -> None:
    *_, fall = turns(
        MYOPIA,
        position({"ITALY": ["A PIE"], "FRANCE": ["F LYO"]}),
        {"ITALY": ["A PIE - TYR"]},
        {},
        {"FRANCE": ["F LYO - PIE"]},
    )
    notice = only_garrison(fall.observations["ITALY"])
    assert (notice.text, notice.get("type")) == ("Piedmont captured by a French fleet", "F")


def test_only_the_last_holder_is_told() -> None:
    """A province belongs to the power that last occupied it: an earlier holder's garrison was
    replaced, and the captor is told nothing by anyone's garrison."""
    start = position(PIEDMONT, usage={HOLDERS: {"PIE": "AUSTRIA", "TYR": "AUSTRIA"}})
    *_, fall = turns(MYOPIA, start, {"ITALY": ["A PIE - VEN"]}, {}, {"FRANCE": ["A MAR - PIE"]})
    assert garrison(fall.observations["ITALY"]) == ["Piedmont captured by a French army"]
    silent_but(fall, "ITALY")
    assert fall.position.usage[HOLDERS]["TYR"] == "AUSTRIA"


# --- centres --------------------------------------------------------------------------------------


def test_a_lost_centre_is_still_reported_once() -> None:
    """Centres are provinces too: Venice, left empty, is reported when the Austrian army
    enters it, and not again when the centre changes hands after the retreats."""
    units = {"ITALY": ["A VEN"], "AUSTRIA": ["A TRI"]}
    _spring, _retreats, fall, fall_retreats = turns(
        MYOPIA,
        position(units),
        {"ITALY": ["A VEN - APU"]},
        {},
        {"AUSTRIA": ["A TRI - VEN"]},
        {},
    )
    assert garrison(fall.observations["ITALY"]) == ["Venice captured by an Austrian army"]
    silent_but(fall, "ITALY")
    silent_but(fall_retreats)
    assert fall_retreats.position.state.centers["VEN"] == "AUSTRIA"
    assert [n.get("center") for n in fall_retreats.observations["ITALY"].notices_of("center-lost")] == ["VEN"]


def test_an_unoccupied_home_centre_is_garrisoned_from_the_start() -> None:
    """A power's centres are garrisoned even if no unit of its stood there in the game: Italy
    owns Venice with no unit in it."""
    *_, fall = turns(MYOPIA, position({"AUSTRIA": ["A TRI"]}, phase="F1901M"), {"AUSTRIA": ["A TRI - VEN"]})
    assert garrison(fall.observations["ITALY"]) == ["Venice captured by an Austrian army"]


def test_a_centre_lost_by_dislodgement_is_no_garrison_report() -> None:
    """Italy's army stood in Venice: the province was not unoccupied, and Italy learns of the
    attack from its dislodged army."""
    units = {"ITALY": ["A VEN"], "AUSTRIA": ["A TRI", "A TYR"]}
    fall, retreats = turns(
        MYOPIA,
        position(units, phase="F1901M"),
        {"AUSTRIA": ["A TRI - VEN", "A TYR S A TRI - VEN"]},
        {"ITALY": ["A VEN D"]},
    )
    italy = fall.observations["ITALY"]
    assert italy.notices_of("dislodged") and garrison(italy) == []
    assert garrison(retreats.observations["ITALY"]) == []
    assert retreats.position.state.centers["VEN"] == "AUSTRIA"


def test_the_centres_reading_is_kept_as_an_option() -> None:
    """``garrisons="centers"``: the fog rules report every centre lost after it changes hands
    (dislodgement included, as before), and Piedmont, no centre, is not reported."""
    variant = Variant(compose("diplomyopia", garrisons="centers"))
    units = {"ITALY": ["A VEN"], "AUSTRIA": ["A TRI", "A TYR"]}
    fall, retreats = turns(
        variant,
        position(units, phase="F1901M"),
        {"AUSTRIA": ["A TRI - VEN", "A TYR S A TRI - VEN"]},
        {"ITALY": ["A VEN D"]},
    )
    assert garrison(fall.observations["ITALY"]) == []
    assert garrison(retreats.observations["ITALY"]) == ["Venice captured by an Austrian army"]
    assert retreats.observations["ITALY"].center_owners["VEN"] == "AUSTRIA"
    assert HOLDERS not in retreats.position.usage
    *_, pie = turns(variant, position(PIEDMONT), {"ITALY": ["A PIE - VEN"]}, {}, {"FRANCE": ["A MAR - PIE"]}, {})
    assert garrison(pie.observations["ITALY"]) == []


def test_no_garrisons_reports_nothing() -> None:
    variant = Variant(compose("diplomyopia", garrisons="none"))
    units = {"ITALY": ["A VEN"], "AUSTRIA": ["A TRI"]}
    played = turns(variant, position(units), {"ITALY": ["A VEN - APU"]}, {}, {"AUSTRIA": ["A TRI - VEN"]}, {})
    for one in played:
        silent_but(one)
        assert HOLDERS not in one.position.usage
    assert played[-1].position.state.centers["VEN"] == "AUSTRIA"


def test_the_centres_reading_under_other_fog_rules() -> None:
    """Fog rules without garrisons of their own get the centre reports from the variant."""
    variant = Variant(compose("fog-of-war", garrisons="centers"))
    units = {"ITALY": ["A APU"], "AUSTRIA": ["A TRI"]}
    fall, retreats = turns(variant, position(units, phase="F1901M"), {"AUSTRIA": ["A TRI - VEN"]}, {})
    assert garrison(fall.observations["ITALY"]) + garrison(retreats.observations["ITALY"]) == [
        "Venice captured by an Austrian army"
    ]
    silent_but(fall, "ITALY")
    silent_but(retreats, "ITALY")


def test_presets_choose_their_reading() -> None:
    assert {name: options.garrisons for name, options in PRESETS.items()} == {
        "standard": "none",
        "fog-of-war": "none",
        "sighting": "none",
        "deadman": "none",
        "diplomyopia": "provinces",
        "fog-1898": "none",
    }
    assert MYOPIA.fog.options.garrison_reports is False
    assert Variant(compose("diplomyopia", garrisons="centers")).fog.options.garrison_reports is True


# --- no report -----------------------------------------------------------------------------------


def test_no_report_when_the_holder_comes_back() -> None:
    *_, fall = turns(MYOPIA, position(PIEDMONT), {"ITALY": ["A PIE - VEN"]}, {}, {"ITALY": ["A VEN - PIE"]})
    silent_but(fall)
    assert fall.position.usage[HOLDERS]["PIE"] == "ITALY"


def test_no_report_when_the_province_was_occupied_at_the_start() -> None:
    """The Italian army leaves as the French army arrives: Piedmont was never "left
    unoccupied", so no garrison stayed behind. France now holds it, and its own garrison
    reports when Italy walks back into the empty province."""
    spring, _retreats, fall = turns(
        MYOPIA,
        position(PIEDMONT),
        {"ITALY": ["A PIE - TYR"], "FRANCE": ["A MAR - PIE"]},
        {},
        {"FRANCE": ["A PIE - TUS"]},
    )
    silent_but(spring)
    assert spring.position.usage[HOLDERS]["PIE"] == "FRANCE"
    silent_but(fall)
    *_, back = turns(MYOPIA, fall.position, {}, {}, {"ITALY": ["A TYR - PIE"]})
    assert garrison(back.observations["FRANCE"]) == ["Piedmont captured by an Italian army"]
    silent_but(back, "FRANCE")


def test_sea_provinces_keep_no_garrison() -> None:
    """A body of men cannot hold the open sea."""
    units = {"ENGLAND": ["F NTH"], "GERMANY": ["F HEL"]}
    *_, fall = turns(MYOPIA, position(units), {"ENGLAND": ["F NTH - NWG"]}, {}, {"GERMANY": ["F HEL - NTH"]})
    silent_but(fall)
    assert "NTH" not in fall.position.usage[HOLDERS] and "HEL" not in fall.position.usage[HOLDERS]


def test_captured_and_left_in_one_combined_turn_is_reported() -> None:
    """In a turn of several phases the garrison reports the capture when it happens, even if
    the captor is gone by the end of the turn: the garrison is destroyed (rule 5: "it changes
    hands even if the captor moves out"), and the province is the captor's."""
    variant = Variant(compose("diplomyopia", fall_winter_combined=True))
    start = position(
        {"FRANCE": ["A MAR", "A BUR"]}, phase="F1901M", centers={"PAR": "FRANCE"}, usage={HOLDERS: {"PIE": "ITALY"}}
    )
    played = variant.play(start, {"FRANCE": ["A MAR - PIE", "A PIE D"]})
    assert "PIE" not in played.position.state.units
    assert garrison(played.observations["ITALY"]) == ["Piedmont captured by a French army"]
    silent_but(played, "ITALY")
    assert played.position.usage[HOLDERS]["PIE"] == "FRANCE"


# --- the record across turns ---------------------------------------------------------------------


def test_the_game_starts_with_the_units_and_centres_held() -> None:
    start = MYOPIA.start()
    assert start.usage[HOLDERS] == {p: u.power for p, u in start.state.units.items()}
    assert seed_holders(start.state) == start.usage[HOLDERS]
    setup = Variant(compose("fog-1898", fog="diplomyopia", garrisons="provinces"))
    opening = setup.start()
    assert HOLDERS not in opening.usage
    placed = setup.play(opening, {"ITALY": ["F NAP"]}).position
    assert placed.usage[HOLDERS] == {**placed.state.centers, **{p: u.power for p, u in placed.state.units.items()}}
    assert placed.usage[HOLDERS]["NAP"] == "ITALY"


def test_the_holders_round_trip_through_phase_documents() -> None:
    """``usage`` comes back in ``state`` and, fed back, plays the game on: plain JSON."""
    doc: dict[str, Any] = {
        "variant": "diplomyopia",
        "phase": "S1901M",
        "units": {"ITALY": ["A PIE"], "FRANCE": ["A MAR"]},
        "centers": {"ITALY": ["VEN"], "FRANCE": ["MAR"]},
        "orders": {"ITALY": ["A PIE - VEN"]},
    }
    spring = adjudicate_document(doc)
    state = json.loads(json.dumps(spring["state"]))
    assert state["usage"] == {HOLDERS: {"MAR": "FRANCE", "PIE": "ITALY", "VEN": "ITALY"}}
    retreats = adjudicate_document(dict(state, orders={}))
    fall = adjudicate_document(dict(json.loads(json.dumps(retreats["state"])), orders={"FRANCE": ["A MAR - PIE"]}))
    italy = [n for n in fall["reports"]["ITALY"]["notices"] if n["kind"] == "garrison"]
    assert italy == [
        {
            "kind": "garrison",
            "text": "Piedmont captured by a French army",
            "province": "PIE",
            "captor": "FRANCE",
            "type": "A",
        }
    ]
    assert fall["state"]["usage"][HOLDERS]["PIE"] == "FRANCE"
    assert all(n["kind"] != "garrison" for p, r in fall["reports"].items() if p != "ITALY" for n in r["notices"])


def test_a_position_document_keeps_the_holders() -> None:
    spring = MYOPIA.play(MYOPIA.start(), {"ITALY": ["A VEN - PIE", "A ROM - VEN"]})
    variant, again = position_from_document(json.loads(json.dumps(position_document(spring.position, MYOPIA))))
    assert again.usage == spring.position.usage and again.usage[HOLDERS]["ROM"] == "ITALY"
    assert variant.options == MYOPIA.options


def test_a_document_without_holders_starts_from_its_position() -> None:
    """A mid-game document written without ``usage``: the units and centres on it are held."""
    doc = {
        "variant": "diplomyopia",
        "phase": "F1902M",
        "units": {"AUSTRIA": ["A TRI"], "ITALY": ["A APU"]},
        "centers": {"ITALY": ["VEN"], "AUSTRIA": ["TRI"]},
        "orders": {"AUSTRIA": ["A TRI - VEN"]},
    }
    italy = adjudicate_document(doc)["reports"]["ITALY"]["notices"]
    assert [n["text"] for n in italy if n["kind"] == "garrison"] == ["Venice captured by an Austrian army"]


@pytest.mark.parametrize(
    ("holders", "expected"),
    [
        (["PIE"], 'usage "holders" must be an object of province to power'),
        ({"XYZ": "ITALY"}, "names 'XYZ', which is not a land province of the map"),
        ({"NTH": "ENGLAND"}, "names 'NTH', which is not a land province of the map"),
        ({"PIE": "NARNIA"}, "gives PIE to 'NARNIA', which is not a power of the game"),
        ({"PIE": 3}, "gives PIE to 3, which is not a power of the game"),
    ],
)
def test_bad_holders_are_refused_with_a_reason(holders: object, expected: str) -> None:
    doc = {
        "variant": "diplomyopia",
        "phase": "S1901M",
        "units": {"ITALY": ["A PIE"]},
        "centers": {},
        "usage": {HOLDERS: holders},
        "orders": {},
    }
    with pytest.raises(FogdipError) as caught:
        adjudicate_document(doc)
    assert expected in str(caught.value)


def test_an_unknown_reading_is_refused() -> None:
    with pytest.raises(FogdipError, match="unknown garrisons option 'forts': choose none, centers or provinces"):
        adjudicate_document(
            {"variant": "diplomyopia", "phase": "S1901M", "units": {}, "centers": {}, "options": {"garrisons": "forts"}}
        )


# --- a whole game -------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_every_report_is_for_an_empty_province_the_power_held(seed: int) -> None:
    """In random games: a power is told exactly of the provinces it held, empty at the start
    of the turn, where another power's unit stands at its end (every turn here is one phase)."""
    rng = random.Random(f"garrisons-{seed}")
    position_now = MYOPIA.start()
    told = 0
    while not position_now.completed and position_now.state.phase.year <= 1905:
        played = MYOPIA.play(position_now, random_turn_orders(MYOPIA, position_now, rng))
        assert len(played.resolutions) == 1
        held, start, end = position_now.usage[HOLDERS], position_now.state.units, played.position.state.units
        for power in position_now.state.powers:
            expected = sorted(
                p for p, unit in end.items() if held.get(p) == power and p not in start and unit.power != power
            )
            reports = played.observations[power].notices_of("garrison")
            assert sorted(str(n.get("province")) for n in reports) == expected
            for notice in reports:
                unit = end[str(notice.get("province"))]
                assert (notice.get("captor"), notice.get("type")) == (unit.power, unit.kind)
            told += len(reports)
        assert played.position.usage[HOLDERS] == {
            **held,
            **{p: u.power for p, u in end.items() if p in BOARD.provinces and BOARD.provinces[p].terrain != "sea"},
        }
        position_now = played.position
    assert told > 0
