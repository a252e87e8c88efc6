"""Phase documents: reading, checking, writing, and the result contract."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fogdip.documents import (
    document_from_state,
    result_document,
    rules_from_spec,
    rules_to_spec,
    state_from_document,
    state_from_json,
)
from fogdip.engine.errors import InvalidPosition
from fogdip.engine.judge import adjudicate
from fogdip.engine.map import standard_map
from fogdip.engine.rules import get_rules
from fogdip.engine.state import GameState
from fogdip.engine.units import Phase, Unit
from fogdip.play import adjudicate_document

START_CENTERS = document_from_state(GameState.initial())["centers"]


def doc(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "centers": {"FRANCE": ["PAR"]}}
    base.update(changes)
    return base


# --- reading -----------------------------------------------------------------------------------


def test_reads_a_full_document() -> None:
    state, rules, orders = state_from_document(
        {
            "variant": "standard",
            "rules": "2000",
            "phase": "f1902r",
            "units": {"england": ["F NTH", "A LVP", "*F LON"], "FRANCE": ["F LON", "F STP/NC"]},
            "retreats": {"ENGLAND": {"F LON": ["YOR", "WAL"]}},
            "centers": {"ENGLAND": ["LVP", "EDI"], "FRANCE": ["LON"]},
            "homes": {"FRANCE": ["PAR"]},
            "orders": {"ENGLAND": ["F LON R YOR"]},
            "comment": "unknown keys are allowed",
        }
    )
    assert state.phase == Phase("F", 1902, "R")
    assert rules == get_rules("2000")
    assert state.units["LON"] == Unit("FRANCE", "F", "LON")
    assert state.units["STP"] == Unit("FRANCE", "F", "STP/NC")
    assert state.dislodged["LON"].unit == Unit("ENGLAND", "F", "LON")
    assert state.dislodged["LON"].attacker_from is None
    assert state.dislodged["LON"].retreats == ("WAL", "YOR")
    assert state.centers == {"LVP": "ENGLAND", "EDI": "ENGLAND", "LON": "FRANCE"}
    assert state.homes["FRANCE"] == ("PAR",)
    assert state.homes["ENGLAND"] == ("EDI", "LON", "LVP")  # the map's, by default
    assert orders == {"ENGLAND": ["F LON R YOR"]}


def test_defaults_edition_2023_and_standard_variant() -> None:
    state, rules, orders = state_from_document(doc())
    assert rules == get_rules("2023")
    assert state.board is standard_map()
    assert orders == {}
    assert state.dislodged == {}


def test_dislodged_unit_without_retreat_entry_has_no_options() -> None:
    state, _, _ = state_from_document(doc(phase="S1901R", units={"FRANCE": ["*A PAR"], "GERMANY": ["A PAR"]}))
    assert state.dislodged["PAR"].retreats == ()
    assert state.units["PAR"].power == "GERMANY"


def test_fleet_retreat_option_to_a_split_coast_province_gets_its_coast() -> None:
    state, _, _ = state_from_document(
        doc(phase="F1901R", units={"RUSSIA": ["*F NWY"]}, retreats={"RUSSIA": {"F NWY": ["STP", "SKA"]}})
    )
    assert state.dislodged["NWY"].retreats == ("SKA", "STP/NC")


BAD_DOCUMENTS = [
    ("not an object", ["S1901M"], "must be a JSON object"),
    ("no phase", {"units": {}, "centers": {}}, '"phase"'),
    ("no units", {"phase": "S1901M", "centers": {}}, '"units"'),
    ("no centres", {"phase": "S1901M", "units": {}}, '"centers"'),
    (
        "unknown variant",
        doc(variant="chaos"),
        "known variants are deadman, diplomyopia, fog-1898, fog-of-war, sighting, standard",
    ),
    ("variant not a string", doc(variant=["standard"]), '"variant" must be a string'),
    ("unknown edition", doc(rules="1971"), "use one of 2000, 2023"),
    ("edition as a number", doc(rules=2023), '"rules" must be an edition name'),
    ("unknown rule option", doc(rules={"edition": "2000", "gunboat": True}), "unknown rule option 'gunboat'"),
    ("bad rule option value", doc(rules={"adjacent_convoy_intent": "sometimes"}), "'rulebook', 'explicit'"),
    ("rule option wrong type", doc(rules={"convoy_fleet_must_be_needed": "yes"}), "true or false"),
    ("winter movement", doc(phase="W1901M"), "does not exist"),
    ("spring adjustments", doc(phase="S1901A"), "does not exist"),
    ("unknown season", doc(phase="X1901M"), "is not a phase name"),
    ("before the game", doc(phase="S1900M"), "starts in 1901"),
    ("completed", doc(phase="COMPLETED"), "the game is over"),
    ("phase as a number", doc(phase=1901), '"phase" must be a string'),
    ("units not an object", doc(units=["A PAR"]), '"units" must be an object'),
    ("unit list is a string", doc(units={"FRANCE": "A PAR"}), "must be a list of strings"),
    ("unit not a string", doc(units={"FRANCE": [1]}), "must hold only strings"),
    ("unknown power", doc(units={"FRANKREICH": ["A PAR"]}), "unknown power 'FRANKREICH'"),
    ("bad unit text", doc(units={"FRANCE": ["Paris army"]}), "'A XXX'"),
    ("unknown province", doc(units={"FRANCE": ["A XYZ"]}), "unknown province 'XYZ'"),
    ("impassable", doc(units={"FRANCE": ["A SWI"]}), "impassable"),
    ("army at sea", doc(units={"ENGLAND": ["A NTH"]}), "an army cannot stand in North Sea"),
    ("fleet inland", doc(units={"FRANCE": ["F PAR"]}), "inland"),
    ("fleet on STP without a coast", doc(units={"RUSSIA": ["F STP"]}), "must name its coast: F STP/NC or F STP/SC"),
    ("army on a coast", doc(units={"RUSSIA": ["A STP/NC"]}), "write A STP"),
    ("unknown coast", doc(units={"FRANCE": ["F SPA/EC"]}), "no coast 'EC'"),
    ("two units in one province", doc(units={"FRANCE": ["A PAR"], "GERMANY": ["A PAR"]}), "two units in Paris"),
    (
        "two dislodged units in one province",
        doc(phase="S1901R", units={"FRANCE": ["*A PAR"], "GERMANY": ["*A PAR"]}),
        "two dislodged units in Paris",
    ),
    ("dislodged unit in movement", doc(units={"FRANCE": ["*A PAR"]}), "dislodged units exist only in retreat phases"),
    ("dislodged unit in adjustments", doc(phase="W1901A", units={"FRANCE": ["*A PAR"]}), "remove the *"),
    (
        "retreats for a unit not dislodged",
        doc(phase="S1901R", retreats={"FRANCE": {"A PAR": ["BUR"]}}),
        "not a dislodged unit of FRANCE",
    ),
    (
        "retreat out of reach",
        doc(phase="S1901R", units={"FRANCE": ["*A PAR"]}, retreats={"FRANCE": {"A PAR": ["MUN"]}}),
        "cannot retreat to 'MUN'",
    ),
    ("retreats not an object", doc(retreats=["PAR"]), '"retreats" must be an object'),
    ("centre not a supply centre", doc(centers={"FRANCE": ["BUR"]}), "Burgundy (BUR) is not a supply centre"),
    ("centre owned twice", doc(centers={"FRANCE": ["PAR"], "GERMANY": ["PAR"]}), "owned twice"),
    ("centres not a list", doc(centers={"FRANCE": "PAR"}), "must be a list of strings"),
    ("home not a supply centre", doc(homes={"FRANCE": ["GAS"]}), "not a supply centre"),
    ("orders not a list", doc(orders={"FRANCE": "A PAR H"}), "must be a list of strings"),
    ("orders of an unknown power", doc(orders={"PRUSSIA": ["A BER H"]}), "unknown power 'PRUSSIA'"),
]


@pytest.mark.parametrize(("case", "bad", "expected"), BAD_DOCUMENTS, ids=[c[0] for c in BAD_DOCUMENTS])
def test_bad_documents_are_rejected_with_one_line(case: str, bad: Any, expected: str) -> None:
    with pytest.raises(InvalidPosition) as info:
        state_from_document(bad)
    message = str(info.value)
    assert expected in message
    assert "\n" not in message


# --- rules -------------------------------------------------------------------------------------


def test_rules_spec_round_trip() -> None:
    for rules in (
        get_rules("2000"),
        get_rules("2023"),
        get_rules("2000").with_options(adjacent_convoy_intent="explicit", victory_centers=20),
    ):
        assert rules_from_spec(rules_to_spec(rules)) == rules
    assert rules_to_spec(get_rules("2023")) == "2023"
    assert rules_from_spec(None) == get_rules("2023")


# --- writing -----------------------------------------------------------------------------------


def test_initial_document() -> None:
    written = document_from_state(GameState.initial(), get_rules("2000"))
    assert written["variant"] == "standard"
    assert written["rules"] == "2000"
    assert written["phase"] == "S1901M"
    assert written["units"]["ENGLAND"] == ["A LVP", "F EDI", "F LON"]
    assert set(written["units"]) == set(written["centers"]) == set(written["homes"]) == set(written["retreats"])
    assert "orders" not in written
    json.dumps(written)  # plain JSON data


def _random_states(seed: int, phases: int, rules_name: str) -> list[GameState]:
    from fogdip.engine.legal import legal_orders

    rng = random.Random(seed)
    rules = get_rules(rules_name)
    state = GameState.initial()
    states = [state]
    for _ in range(phases):
        if state.completed:
            break
        orders: dict[str, list[str]] = {}
        for power in state.powers:
            options = legal_orders(state, power, rules)
            picked = [rng.choice(sorted(v, key=str)) for k, v in sorted(options.items()) if v and k != "WAIVE"]
            orders[power] = [str(o) for o in picked]
        state = adjudicate(state, orders, rules).after
        states.append(state)
    return states


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), edition=st.sampled_from(["2000", "2023"]))
def test_documents_round_trip_exactly(seed: int, edition: str) -> None:
    rules = get_rules(edition)
    for state in _random_states(seed, 12, edition):
        written = document_from_state(state, rules)
        assert json.loads(json.dumps(written)) == written
        assert state_from_json(written) == (state, rules)  # the same position, finished or not
        if state.completed:
            continue
        read, read_rules, _ = state_from_document(written)
        assert read == state  # the attacks' origins included (attacked_from)
        assert read_rules == rules
        assert document_from_state(read, read_rules) == written


# --- the result contract -----------------------------------------------------------------------


def test_movement_result_contract() -> None:
    result = adjudicate_document(
        {
            "phase": "S1901M",
            "units": {
                "ENGLAND": ["F NTH", "A YOR", "F LON"],
                "FRANCE": ["A PAR", "F ENG", "F WAL"],
                "GERMANY": ["A MUN"],
            },
            "centers": START_CENTERS,
            "orders": {
                "ENGLAND": ["F NTH - PIC", "A YOR H", "A LVP H"],
                "FRANCE": ["A PAR - BUR", "F ENG - LON", "F WAL S F ENG - LON"],
                "GERMANY": ["A MUN - BUR"],
            },
        }
    )
    assert result["phase"] == "S1901M"
    assert result["results"] == {
        "F LON": ["dislodged"],
        "F NTH": ["void"],
        "A YOR": [],
        "F ENG": [],
        "A PAR": ["bounce"],
        "F WAL": [],
        "A MUN": ["bounce"],
    }
    assert set(result["reasons"]) == set(result["results"]) == set(result["outcomes"]) == set(result["orders"])
    assert "cannot reach PIC" in result["reasons"]["F NTH"]
    assert result["outcomes"]["F NTH"] == "illegal"
    assert result["outcomes"]["A PAR"] == "bounced"
    assert result["orders"]["F LON"] == "F LON H"  # defaulted
    assert result["rejected"] == [{"power": "ENGLAND", "order": "A LVP H", "reason": "ENGLAND has no unit in LVP"}]
    assert result["dislodged"] == {"F LON": "ENG"}
    # NTH, YOR, WAL taken and ENG the attacker's: with nowhere to retreat F LON is disbanded at
    # once, and with nobody left to choose a retreat the retreat phase is skipped, as in MILA.
    assert result["disbanded"] == ["F LON"]
    assert result["skipped"] == ["S1901R"]
    after = result["state"]
    assert after["phase"] == "F1901M"
    assert after["units"]["ENGLAND"] == ["A YOR", "F NTH"]
    assert after["retreats"]["ENGLAND"] == {}


def test_results_document_plays_the_game_on() -> None:
    result = adjudicate_document(
        {
            "phase": "F1901M",
            "units": {"ENGLAND": ["F LON"], "FRANCE": ["F ENG", "F WAL", "A PAR"], "RUSSIA": ["A MOS"]},
            "centers": START_CENTERS,
            "orders": {"FRANCE": ["F ENG - LON", "F WAL S F ENG - LON"]},
        }
    )
    retreat = {**result["state"], "orders": {"ENGLAND": ["F LON R YOR"]}}
    assert retreat["phase"] == "F1901R"
    assert retreat["retreats"]["ENGLAND"] == {"F LON": ["NTH", "YOR"]}
    result = adjudicate_document(retreat)
    assert result["results"] == {"F LON": []}
    assert result["reasons"]["F LON"] == "F LON retreated to YOR"
    winter = result["state"]
    assert winter["phase"] == "W1901A"
    assert "LON" in winter["centers"]["FRANCE"]
    winter["orders"] = {"FRANCE": ["F BRE B", "A PAR B"], "RUSSIA": ["F STP/NC B", "WAIVE", "A WAR B", "F SEV B"]}
    result = adjudicate_document(winter)
    assert result["results"]["F BRE"] == []
    assert result["results"]["A PAR"] == ["void"]  # occupied
    assert result["results"]["F STP/NC"] == []
    assert result["results"]["A WAR"] == []
    # 3 builds: two units and a waive. A fourth line is refused as it would be when filed: it
    # commands nothing, so it is listed under "rejected" with the reason, not under "results".
    assert "F SEV" not in result["results"] and "F SEV" not in result["outcomes"]
    assert {
        "power": "RUSSIA",
        "order": "F SEV B",
        "reason": "RUSSIA may build 3 units this Winter, and lines 1, 2 and 3 already build or waive them: "
        "delete this line or one of those",
    } in result["rejected"]
    assert result["waives"] == {"RUSSIA": 1}
    assert result["outcomes"]["F STP/NC"] == "built"
    assert result["state"]["phase"] == "S1902M"
    assert "F STP/NC" in result["state"]["units"]["RUSSIA"]


def test_civil_disorder_removal_is_reported_for_the_unit() -> None:
    result = adjudicate_document(
        {
            "phase": "W1901A",
            "units": {"FRANCE": ["A PAR", "A MAR", "F BRE", "A BUR"]},
            "centers": {"FRANCE": ["PAR", "MAR", "BRE"]},
        }
    )
    assert result["results"] == {"A BUR": []}  # carried out: MILA's OK, as for a build
    assert result["outcomes"] == {"A BUR": "removed"}
    assert "BUR" not in str(result["state"]["units"]["FRANCE"])
    assert "civil disorder" in result["reasons"]["A BUR"]


def test_solo_victory_completes_the_game() -> None:
    centers = [c for c in standard_map().supply_centers if c != "MUN"][:17]
    result = adjudicate_document(
        {
            "phase": "F1901M",
            "units": {"FRANCE": ["A BUR"]},
            "centers": {"FRANCE": centers},
            "orders": {"FRANCE": ["A BUR - MUN"]},
        }
    )
    final = result["state"]
    assert final["phase"] == "COMPLETED"
    assert final["ended_in"] == "F1901M"
    assert len(final["centers"]["FRANCE"]) == 18
    with pytest.raises(InvalidPosition, match="the game is over"):
        state_from_document(final)


def test_result_document_of_a_resolution() -> None:
    state = GameState.initial()
    rules = get_rules("2000")
    result = result_document(adjudicate(state, {"ITALY": ["A VEN - TRI"], "AUSTRIA": ["F TRI H"]}, rules), rules)
    assert result["results"]["A VEN"] == ["bounce"]
    assert len(result["results"]) == 22  # every unit on the board
    assert result["state"]["rules"] == "2000"
    assert result["skipped"] == ["S1901R"]


# --- robustness --------------------------------------------------------------------------------

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=8)
    | st.sampled_from(["A PAR", "*F LON", "F STP", "STP/NC", "SWI", "S1901M", "F1901R", "W1901A", "FRANCE", "2000"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["FRANCE", "ENGLAND", "RUSSIA", "A PAR", "F LON", "edition", "x"]), inner, max_size=4
        )
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(variant=JSON, rules=JSON, phase=JSON, units=JSON, retreats=JSON, centers=JSON, homes=JSON, orders=JSON)
def test_any_json_is_read_or_rejected_cleanly(
    variant: Any, rules: Any, phase: Any, units: Any, retreats: Any, centers: Any, homes: Any, orders: Any
) -> None:
    document = {
        "variant": variant,
        "rules": rules,
        "phase": phase,
        "units": units,
        "retreats": retreats,
        "centers": centers,
        "homes": homes,
        "orders": orders,
    }
    try:
        state_from_document(document)
    except InvalidPosition as exc:
        assert "\n" not in str(exc)


@settings(max_examples=100, deadline=None)
@given(
    orders=st.lists(
        st.text(max_size=20)
        | st.sampled_from(
            [
                "A PAR - BUR",
                "F MAO - SPA/XX",
                "A PAR S F SPA/XX",
                "WAIVE",
                "F BRE R PIC",
                "A PAR B",
                "F MAO C A PAR - SWI",
                "SPA/A-MAO",
                "A GAS/NC B",
            ]
        ),
        max_size=5,
    )
)
def test_any_order_text_is_adjudicated_or_rejected(orders: list[str]) -> None:
    units = {"FRANCE": ["A PAR", "F BRE", "F MAO"]}
    result = adjudicate_document({**doc(), "units": units, "orders": {"FRANCE": orders}})
    assert set(result["results"]) == {"A PAR", "F BRE", "F MAO"}
    assert all(set(entry) == {"power", "order", "reason"} for entry in result["rejected"])


@pytest.mark.parametrize("order", ["F SPA/XX - MAO", "F MAO - SPA/XX", "F GAS S F MAO - SPA/XX"])
def test_an_unknown_coast_is_ignored_not_a_crash(order: str) -> None:
    result = adjudicate_document({**doc(), "units": {"FRANCE": ["F MAO", "F GAS"]}, "orders": {"FRANCE": [order]}})
    assert set(result["results"]) == {"F MAO", "F GAS"}
