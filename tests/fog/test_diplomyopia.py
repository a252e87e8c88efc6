"""Diplomyopia (seed 003): sight of every adjacent province at the end of a season, sight in
combat by order, garrison reports.

Every seed example is a test whose docstring quotes the seed. The property tests check that
foreign orders far from a power's affairs change nothing it observes.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from fogdip.documents import state_from_document
from fogdip.engine import Convoy, GameState, Order, Resolution, Unit, UnitRef, get_rules, legal_orders, standard_map
from fogdip.engine.judge import take_centers
from fogdip.engine.map import UnitKind
from fogdip.fog import DiplomyopiaRules, Notice, Observation, SeenUnit, get_fog_rules
from fogdip.fog.sight import order_provinces, unit_sight
from views import as_json, mark, report, text, words

from strategies import adjudicate

RULES = DiplomyopiaRules()
BOARD = standard_map()
ENGINE_RULES = get_rules().with_options(legality="map")


def position(
    units: Mapping[str, Sequence[str]], phase: str = "S1901M", centers: Mapping[str, Sequence[str]] | None = None
) -> GameState:
    doc = {"phase": phase, "units": dict(units), "centers": dict(centers or {})}
    state, _rules, _orders = state_from_document(doc)
    return state


def observe(
    units: Mapping[str, Sequence[str]], orders: Mapping[str, Sequence[str]], power: str, **extra: object
) -> Observation:
    return RULES.observe(adjudicate(position(units, **extra), dict(orders)), power)  # type: ignore[arg-type]


def texts(seen: Observation, *kinds: str) -> list[str]:
    return [n.text for n in seen.notices if not kinds or n.kind in kinds]


def only(seen: Observation, kind: str) -> Notice:
    found = seen.notices_of(kind)
    assert len(found) == 1, texts(seen)
    return found[0]


def as_bytes(seen: Observation) -> str:
    return json.dumps(as_json(seen), sort_keys=True)


def foreign_orders(seen: Observation) -> list[tuple[str | None, str, tuple[str, ...] | None]]:
    """Other powers' orders as the report gives them: owner, line, result words."""
    return [(o.power, text(o), words(o)) for o in seen.orders if o.power != seen.power]


def test_registered_with_its_seed() -> None:
    rules = get_fog_rules("diplomyopia")
    assert isinstance(rules, DiplomyopiaRules)
    assert (rules.name, rules.seed) == ("diplomyopia", "003")


# --- rule 2: sight at the end of each season -----------------------------------------------------


def test_seed_fleet_in_bulgaria_south_coast_sees_the_black_sea() -> None:
    """ "A fleet in a coastal province can see inland, and an army in a coastal province can
    see out to sea. EXAMPLE: F. (Bul)sc can see into the Black Sea." """
    state = position({"TURKEY": ["F BUL/SC"], "RUSSIA": ["F BLA"], "AUSTRIA": ["A SER"]})
    assert "BLA" not in unit_sight(BOARD, Unit("TURKEY", "F", "BUL/SC"), "movement")  # it could not move there
    seen = RULES.initial(state, "TURKEY")
    assert seen.visible == {"BUL", "BLA", "AEG", "CON", "GRE", "RUM", "SER"}
    assert seen.unit_at("BLA") == SeenUnit("BLA", "RUSSIA", "F")
    assert seen.unit_at("SER") == SeenUnit("SER", "AUSTRIA", "A")  # inland too


def test_an_army_on_the_coast_sees_out_to_sea() -> None:
    seen = RULES.initial(position({"FRANCE": ["A BRE"], "ENGLAND": ["F ENG"], "GERMANY": ["F NTH"]}), "FRANCE")
    assert seen.unit_at("ENG") == SeenUnit("ENG", "ENGLAND", "F")
    assert seen.unit_at("NTH") is None and "NTH" not in seen.visible


def test_sight_is_taken_at_the_end_of_the_season() -> None:
    seen = observe({"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]}, {"FRANCE": ["A PAR - BUR"]}, "FRANCE")
    assert seen.unit_at("MUN") == SeenUnit("MUN", "GERMANY", "A")
    assert "BRE" not in seen.visible and "MUN" in seen.visible


# --- rule 3 i): a unit holding -----------------------------------------------------------------------

BUR_EXAMPLE = {"FRANCE": ["A BUR"], "ENGLAND": ["F SPA/SC", "A GAS"], "ITALY": ["F PIE"]}


def test_seed_burgundy_holds() -> None:
    """ "EXAMPLE: France – A.(Bur) Holds; England – F.(Spa)sc -Mar, A.(Gas) Holds; Italy –
    F.(Pie) – Mar. The French player is informed that A(Bur) sees the English Army remain in
    Gas, and a conflict in Mar resulting in a stand-off between an English and an Italian
    fleet." """
    seen = observe(
        BUR_EXAMPLE,
        {"FRANCE": ["A BUR H"], "ENGLAND": ["F SPA/SC - MAR", "A GAS H"], "ITALY": ["F PIE - MAR"]},
        "FRANCE",
    )
    assert report(seen) == "\n".join(
        [
            "FRANCE, Spring 1901 movement (S1901M), diplomyopia",
            "Orders:",
            "  A BUR H (ok)",
            "Units seen:",
            "  ENGLAND: A GAS",
            "  FRANCE: A BUR",
            "Notices:",
            "  Conflict in MAR: a stand-off between an English fleet and an Italian fleet (seen by A BUR)",
            "  ENGLAND A GAS remains (seen by A BUR)",
            "Visible: BEL BUR GAS MAR MUN PAR PIC RUH",
        ]
    )
    conflict = only(seen, "conflict")
    assert conflict.get("outcome") == "stand-off"
    assert conflict.get("failed") == (("ENGLAND", "F"), ("ITALY", "F"))
    assert only(seen, "remains").get("unit") == "A GAS"
    # Where the fleets came from is not told, and no foreign order is.
    assert "SPA" not in as_bytes(seen) and "PIE" not in as_bytes(seen)
    assert foreign_orders(seen) == []


def test_seed_a_failed_move_looks_like_remaining() -> None:
    """ "Had A(Gas) been ordered unsuccessfully to Spain, the French player would have received
    no different information. He is only informed the unit remains – not that it is ordered to
    Hold." """
    held = observe(
        BUR_EXAMPLE,
        {"FRANCE": ["A BUR H"], "ENGLAND": ["F SPA/SC - MAR", "A GAS H"], "ITALY": ["F PIE - MAR"]},
        "FRANCE",
    )
    tried = observe(
        BUR_EXAMPLE,
        {"FRANCE": ["A BUR H"], "ENGLAND": ["F SPA/SC - MAR", "A GAS - SPA"], "ITALY": ["F PIE - MAR"]},
        "FRANCE",
    )
    assert as_bytes(held) == as_bytes(tried)
    supported = observe(
        BUR_EXAMPLE,
        {"FRANCE": ["A BUR H"], "ENGLAND": ["F SPA/SC - MAR", "A GAS S F SPA/SC - MAR"], "ITALY": ["F PIE - MAR"]},
        "FRANCE",
    )
    assert texts(supported, "remains") == ["ENGLAND A GAS remains (seen by A BUR)"]


def test_seed_a_holding_unit_is_told_of_attacks_and_where_they_come_from() -> None:
    """ "A unit ordered to Hold is told of any attack on itself, and where the attack comes
    from." Even from far away by convoy; who made it is not said."""
    seen = observe(
        {"FRANCE": ["A BEL"], "GERMANY": ["A RUH"], "ENGLAND": ["A LON", "F NTH"]},
        {"FRANCE": ["A BEL H"], "GERMANY": ["A RUH - BEL"], "ENGLAND": ["A LON - BEL VIA", "F NTH C A LON - BEL"]},
        "FRANCE",
    )
    assert sorted(texts(seen, "attacked")) == ["A BEL attacked from LON", "A BEL attacked from RUH"]
    assert {n.get("attacked_from") for n in seen.notices_of("attacked")} == {"LON", "RUH"}
    assert "GERMANY A RUH remains (seen by A BEL)" in texts(seen)
    # The watcher sees the fleet in NTH remain (it convoyed) and the conflict at its own border
    # only as attacks.
    assert "ENGLAND F NTH remains (seen by A BEL)" in texts(seen)
    assert seen.notices_of("conflict") == []


def test_a_holding_unit_sees_units_leave_and_enter_but_not_from_where() -> None:
    seen = observe(
        {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A KIE"]}, {"GERMANY": ["A MUN - RUH", "A KIE - MUN"]}, "FRANCE"
    )
    assert sorted(texts(seen)) == [
        "A German army enters MUN (seen by A BUR)",
        "A German army enters RUH (seen by A BUR)",
        "GERMANY A MUN leaves (seen by A BUR)",
    ]
    enters = seen.notices_of("enters")
    assert [n.get("entered") for n in enters] == [(("GERMANY", "A"),), (("GERMANY", "A"),)]
    assert "KIE" not in as_bytes(seen)
    assert all("-" not in t for t in texts(seen))


def test_a_dislodgement_next_door_is_seen() -> None:
    seen = observe(
        {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH"], "AUSTRIA": ["A TYR"]},
        {"GERMANY": ["A MUN H"], "AUSTRIA": ["A TYR - MUN"], "FRANCE": ["A BUR S A TYR - MUN"]},
        "FRANCE",
    )
    # A BUR's support was needed (MUN was held): it sees as the attacker does, which succeeded.
    assert foreign_orders(seen) == [("AUSTRIA", "A TYR - MUN", ())]
    assert texts(seen) == []
    alone = observe(
        {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A BOH"], "AUSTRIA": ["A TYR"]},
        {"GERMANY": ["A MUN H"], "AUSTRIA": ["A TYR - MUN"], "FRANCE": ["A BUR H"]},
        "FRANCE",
    )
    assert texts(alone) == [
        "Conflict in MUN: an Austrian army fails to enter (seen by A BUR)",
        "GERMANY A MUN remains (seen by A BUR)",
    ]
    beaten = observe(
        {"FRANCE": ["A BUR"], "GERMANY": ["A MUN"], "AUSTRIA": ["A TYR", "A BOH"]},
        {"AUSTRIA": ["A TYR - MUN", "A BOH S A TYR - MUN"]},
        "FRANCE",
    )
    assert sorted(texts(beaten)) == [
        "An Austrian army enters MUN (seen by A BUR)",
        "GERMANY A MUN is dislodged (seen by A BUR)",
    ]
    assert beaten.units == (
        SeenUnit("BUR", "FRANCE", "A"),
        SeenUnit("MUN", "AUSTRIA", "A"),
        SeenUnit("MUN", "GERMANY", "A", True),
    )


# --- rule 3 ii): a unit moving ---------------------------------------------------------------------


def test_a_successful_move_is_merely_told_it_succeeded() -> None:
    """ "if a unit order to move moves unopposed, the player is merely told it succeeded ( the
    player is not told, for example, if another unit just vacated that province)" """
    seen = observe(
        {"FRANCE": ["A PAR"], "GERMANY": ["A BUR"]}, {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A BUR - MUN"]}, "FRANCE"
    )
    assert [(text(o), mark(o)) for o in seen.orders] == [("A PAR - BUR", "(ok)")]
    assert texts(seen) == []


def test_seed_an_opposed_success_is_as_if_the_province_were_empty() -> None:
    """ "if the move is opposed but successful, the moving unit and those supporting it deemed
    to enter the province whether or not it was occupied, and the results are the same as if
    the province had been unoccupied" """
    units = {"ITALY": ["A MAR", "A MUN"], "FRANCE": ["A PIC"]}
    opposed = observe(units, {"ITALY": ["A MAR - BUR", "A MUN S A MAR - BUR"], "FRANCE": ["A PIC - BUR"]}, "ITALY")
    unopposed = observe(units, {"ITALY": ["A MAR - BUR", "A MUN S A MAR - BUR"], "FRANCE": ["A PIC H"]}, "ITALY")
    assert as_bytes(opposed) == as_bytes(unopposed)
    assert texts(opposed) == []


MAR_BUR = {"ITALY": ["A MAR", "A MUN"], "ENGLAND": ["A PAR"], "FRANCE": ["A PIC"]}


def test_seed_stand_off_in_the_target_shows_where_the_opposition_came_from() -> None:
    """ "if the move results in a stand-off, and the destination province stays empty, the
    unit "sees" where the opposition is coming from, including supports, though he is not told
    which units are moving and which supporting (EXAMPLE: A.(Mar)-Bur S by A(Mun) FAILS, stood
    off by FA(Pic) and EA(Par) )"

    FA(Pic) and EA(Par) are a French and an English army; one moved to Bur with the other's
    support, which makes the two-against-two stand-off. Either way round, Italy learns the same.
    """
    english_moves = observe(
        MAR_BUR,
        {
            "ITALY": ["A MAR - BUR", "A MUN S A MAR - BUR"],
            "ENGLAND": ["A PAR - BUR"],
            "FRANCE": ["A PIC S A PAR - BUR"],
        },
        "ITALY",
    )
    french_moves = observe(
        MAR_BUR,
        {
            "ITALY": ["A MAR - BUR", "A MUN S A MAR - BUR"],
            "ENGLAND": ["A PAR S A PIC - BUR"],
            "FRANCE": ["A PIC - BUR"],
        },
        "ITALY",
    )
    notice = only(english_moves, "stood-off")
    assert notice.text == "A MAR - BUR S by A MUN fails, stood off by ENGLAND A PAR and FRANCE A PIC"
    assert notice.get("opposition") == (("ENGLAND", "A", "PAR"), ("FRANCE", "A", "PIC"))
    assert as_bytes(english_moves) == as_bytes(french_moves)
    assert foreign_orders(english_moves) == []


def test_seed_stand_off_at_the_border_shows_only_who() -> None:
    """ "if the move is stood off at the border by a unit in the neighbouring province, the
    player is told who his opponents are, but not where). EXAMPLE: A.(Mar)-Bur S by A(Mun)
    FAILS stood off by 3 French Armies )"

    Three French armies: A Bur holding with two supports. Which two, Italy cannot tell."""
    units = {"ITALY": ["A MAR", "A MUN"], "FRANCE": ["A BUR", "A PAR", "A PIC", "A BEL"]}
    italy = {"ITALY": ["A MAR - BUR", "A MUN S A MAR - BUR"]}
    one = observe(units, {**italy, "FRANCE": ["A PAR S A BUR", "A PIC S A BUR"]}, "ITALY")
    other = observe(units, {**italy, "FRANCE": ["A BEL S A BUR", "A PIC S A BUR", "A PAR H"]}, "ITALY")
    notice = only(one, "stood-off-border")
    assert notice.text == "A MAR - BUR S by A MUN fails, stood off at the border by 3 French armies"
    assert notice.get("opposition") == (("FRANCE", "A", 3),)
    assert as_bytes(one) == as_bytes(other)
    for province in ("PAR", "PIC", "BEL"):
        assert province not in json.dumps(as_json(one)["notices"])


def test_a_head_to_head_battle_is_fought_at_the_border() -> None:
    units = {"ITALY": ["A MAR"], "FRANCE": ["A BUR", "A GAS"]}
    even = observe(units, {"ITALY": ["A MAR - BUR"], "FRANCE": ["A BUR - MAR"]}, "ITALY")
    assert texts(even) == ["A MAR - BUR fails, stood off at the border by a French army"]
    lost = observe(units, {"ITALY": ["A MAR - BUR"], "FRANCE": ["A BUR - MAR", "A GAS S A BUR - MAR"]}, "ITALY")
    assert sorted(texts(lost)) == [
        "A MAR - BUR fails, stood off at the border by 2 French armies",
        "Your A MAR was dislodged by an attack from BUR",
    ]


def test_seed_an_attacking_unit_is_not_told_of_an_attack_on_itself_unless_dislodged() -> None:
    """ "in none of these cases is an attacking unit told of an attack upon itself unless it is
    dislodged." """
    units = {"ITALY": ["A MAR"], "FRANCE": ["A BUR", "A GAS", "A SPA"]}
    bounced = observe(units, {"ITALY": ["A MAR - BUR"], "FRANCE": ["A GAS - MAR"]}, "ITALY")
    assert texts(bounced) == ["A MAR - BUR fails, stood off at the border by a French army"]
    assert "GAS" not in json.dumps(as_json(bounced)["notices"])
    dislodged = observe(units, {"ITALY": ["A MAR - BUR"], "FRANCE": ["A GAS - MAR", "A SPA S A GAS - MAR"]}, "ITALY")
    notice = only(dislodged, "dislodged")
    assert notice.get("attacked_from") == "GAS"
    assert dislodged.notices_of("attacked") == []


def test_a_move_without_a_convoy_learns_only_that_it_failed() -> None:
    seen = observe(
        {"ENGLAND": ["A LON", "F NTH"], "FRANCE": ["F BEL", "F HOL"]},
        {"ENGLAND": ["A LON - NWY", "F NTH C A LON - NWY"], "FRANCE": ["F BEL - NTH", "F HOL S F BEL - NTH"]},
        "ENGLAND",
    )
    # "no convoy", not the engine's "disrupted": which of the two it was depends on whether the
    # convoying fleet was dislodged, and the fog never lets result words tell that (fog_words).
    assert [(text(o), words(o)) for o in seen.orders if text(o).startswith("A LON")] == [
        ("A LON - NWY VIA", ("no convoy",))
    ]
    assert texts(seen, "stood-off", "stood-off-border") == []


# --- supports and convoys -----------------------------------------------------------------------


def test_seed_an_unneeded_support_is_a_hold() -> None:
    """ "If the support which any unit is giving is not needed, that unit is to be considered
    as having received an order to "Hold", and treated as such (NOTE – Presumably this applies
    ONLY to supports given to units which move unopposed ...). This rule also applies to a unit
    supporting a move by another player which is not ordered by that player." """
    units = {"GERMANY": ["A MUN"], "FRANCE": ["A PAR"], "AUSTRIA": ["A TYR"]}
    unopposed = observe(units, {"GERMANY": ["A MUN S A PAR - BUR"], "FRANCE": ["A PAR - BUR"]}, "GERMANY")
    assert sorted(texts(unopposed)) == [
        "A French army enters BUR (seen by A MUN)",
        "AUSTRIA A TYR remains (seen by A MUN)",
    ]
    assert foreign_orders(unopposed) == []
    not_ordered = observe(units, {"GERMANY": ["A MUN S A PAR - BUR"], "FRANCE": ["A PAR H"]}, "GERMANY")
    assert texts(not_ordered) == ["AUSTRIA A TYR remains (seen by A MUN)"]
    assert foreign_orders(not_ordered) == []


def test_seed_a_needed_support_sees_what_the_attacker_sees() -> None:
    """ "On the other hand, if a support is needed, the supporting unit sees exactly the same
    as the attacking unit – this is particularly important when one player supports another
    player's move." """
    units = {"GERMANY": ["A MUN"], "FRANCE": ["A PAR"], "AUSTRIA": ["A TYR"], "ITALY": ["A MAR", "A GAS"]}
    won = observe(
        units, {"GERMANY": ["A MUN S A PAR - BUR"], "FRANCE": ["A PAR - BUR"], "ITALY": ["A MAR - BUR"]}, "GERMANY"
    )
    assert foreign_orders(won) == [("FRANCE", "A PAR - BUR", ())]
    assert texts(won) == []  # neither the Italian attempt nor the Austrian army next door
    orders = {
        "GERMANY": ["A MUN S A PAR - BUR"],
        "FRANCE": ["A PAR - BUR"],
        "ITALY": ["A MAR - BUR", "A GAS S A MAR - BUR"],
    }
    record = adjudicate(position(units), orders)
    germany, france = RULES.observe(record, "GERMANY"), RULES.observe(record, "FRANCE")
    assert foreign_orders(germany) == [("FRANCE", "A PAR - BUR", ("bounce",))]
    assert texts(germany) == ["FRANCE A PAR - BUR S by A MUN fails, stood off by ITALY A GAS and ITALY A MAR"]
    assert texts(france) == ["A PAR - BUR fails, stood off by ITALY A GAS and ITALY A MAR"]
    assert only(germany, "stood-off").get("opposition") == only(france, "stood-off").get("opposition")


def test_a_cut_support_is_a_hold() -> None:
    units = {"GERMANY": ["A MUN"], "FRANCE": ["A PAR"], "AUSTRIA": ["A TYR"], "ITALY": ["A MAR"]}
    seen = observe(
        units,
        {
            "GERMANY": ["A MUN S A PAR - BUR"],
            "FRANCE": ["A PAR - BUR"],
            "ITALY": ["A MAR - BUR"],
            "AUSTRIA": ["A TYR - MUN"],
        },
        "GERMANY",
    )
    assert sorted(texts(seen)) == [
        "A MUN attacked from TYR",
        "AUSTRIA A TYR remains (seen by A MUN)",
        "Conflict in BUR: a stand-off between a French army and an Italian army (seen by A MUN)",
    ]
    assert foreign_orders(seen) == []


def test_a_support_to_a_hold_is_a_hold() -> None:
    seen = observe(
        {"FRANCE": ["A PAR", "A BUR"], "GERMANY": ["A MUN"]},
        {"FRANCE": ["A PAR S A BUR"], "GERMANY": ["A MUN - BUR"]},
        "FRANCE",
    )
    assert sorted(texts(seen)) == [
        "A BUR attacked from MUN",
        "Conflict in BUR: a German army fails to enter (seen by A PAR)",
        "GERMANY A MUN remains (seen by A BUR)",
    ]


CONVOY = {"ENGLAND": ["F ENG", "F NTH"], "FRANCE": ["A BRE"], "GERMANY": ["F BEL", "F PIC"]}
CONVOY_ORDERS = {"ENGLAND": ["F ENG C A BRE - NWY", "F NTH C A BRE - NWY"], "FRANCE": ["A BRE - NWY"]}


def test_seed_a_convoying_fleet_sees_what_its_army_sees() -> None:
    """ "A fleet convoying an attacking Army is deemed to have the same vision as the Army in
    the event of conflict (again, this is immaterial unless one player convoys another's
    unit)." """
    carried = observe(CONVOY, CONVOY_ORDERS, "ENGLAND")
    assert foreign_orders(carried) == [("FRANCE", "A BRE - NWY VIA", ())]
    assert texts(carried) == []  # neither fleet watches: the German fleets are not reported
    units = {"ENGLAND": ["F ENG"], "FRANCE": ["A BRE"], "GERMANY": ["F NTH", "A BEL"]}
    bounced = observe(
        units, {"ENGLAND": ["F ENG C A BRE - LON"], "FRANCE": ["A BRE - LON"], "GERMANY": ["F NTH - LON"]}, "ENGLAND"
    )
    assert foreign_orders(bounced) == [("FRANCE", "A BRE - LON VIA", ("bounce",))]
    assert texts(bounced) == ["FRANCE A BRE - LON VIA fails, stood off by GERMANY F NTH"]


def test_seed_a_fleet_the_broken_chain_never_reached_holds() -> None:
    """ "In the case of a multiple convoy, if the "chain" is disrupted before a particular
    fleet is reached by the Army, that Fleet treated as if ordered to "Hold"." """
    seen = observe(CONVOY, {**CONVOY_ORDERS, "GERMANY": ["F BEL - ENG", "F PIC S F BEL - ENG"]}, "ENGLAND")
    assert foreign_orders(seen) == []
    # Both fleets watch: F ENG was dislodged (disrupted), F NTH was never reached.
    assert sorted(texts(seen)) == [
        "A German fleet enters ENG (seen by F NTH)",
        "FRANCE A BRE remains (seen by F ENG)",
        "GERMANY F BEL leaves (seen by F ENG, F NTH)",
        "GERMANY F PIC remains (seen by F ENG)",
        "Your F ENG was dislodged by an attack from BEL",
    ]


def test_a_fleet_the_army_reached_sees_it_even_if_the_chain_breaks_later() -> None:
    units = {"ENGLAND": ["F ENG"], "RUSSIA": ["F NTH"], "FRANCE": ["A BRE"], "GERMANY": ["F HEL", "F HOL"]}
    orders = {
        "ENGLAND": ["F ENG C A BRE - NWY"],
        "RUSSIA": ["F NTH C A BRE - NWY"],
        "FRANCE": ["A BRE - NWY"],
        "GERMANY": ["F HEL - NTH", "F HOL S F HEL - NTH"],
    }
    record = adjudicate(position(units), orders)
    assert record.result_of("BRE").outcome == "disrupted"  # type: ignore[union-attr]
    england = RULES.observe(record, "ENGLAND")
    # The fog words a disrupted convoyed move "no convoy" (fog_words), not "disrupted".
    assert foreign_orders(england) == [("FRANCE", "A BRE - NWY VIA", ("no convoy",))]
    assert texts(england) == []


# --- rule 4: garrisons --------------------------------------------------------------------------


def test_seed_garrison_reports_a_lost_centre_and_its_captor() -> None:
    """ "When the province is taken by an enemy at least one member of the garrison is assumed
    to escape to report the capture (e.g. "Piedmont captured by a French army").. Thus ... a
    player is told of any unoccupied provinces he has lost, and to whom they have fallen." """
    units = {"ITALY": ["F TYS", "A TUN"], "AUSTRIA": ["A TRI"]}
    centers = {"ITALY": ["VEN", "ROM", "NAP", "TUN"], "AUSTRIA": ["TRI"]}
    record = adjudicate(position(units, phase="F1901M", centers=centers), {"AUSTRIA": ["A TRI - VEN"]})
    italy = RULES.observe(record, "ITALY")
    notice = only(italy, "garrison")
    assert notice.text == "Venice captured by an Austrian army"
    assert (notice.get("province"), notice.get("captor"), notice.get("type")) == ("VEN", "AUSTRIA", "A")
    assert "VEN" not in italy.visible and italy.unit_at("VEN") is None
    assert italy.center_owners["VEN"] == "AUSTRIA"
    assert RULES.observe(record, "AUSTRIA").notices_of("garrison") == []


def test_a_spring_capture_is_reported_when_the_schedule_moves_the_centre() -> None:
    """Rule 5 (centres change hands in any season) is the variant schedule's: given a
    resolution whose centres changed after Spring, the garrison reports it."""
    state = position({"FRANCE": ["F NAO"], "ENGLAND": ["F MAO"]}, centers={"FRANCE": ["BRE", "PAR"]})
    record = adjudicate(state, {"ENGLAND": ["F MAO - BRE"]})
    assert RULES.observe(record, "FRANCE").notices_of("garrison") == []
    captured = dataclasses.replace(record, after=take_centers(record.after))
    assert texts(RULES.observe(captured, "FRANCE"), "garrison") == ["Brest captured by an English fleet"]


def test_retreats_and_adjustments_get_no_combat_vision() -> None:
    """Rule 3 is about "movement and combat": a retreat or an adjustment phase is seen only
    at its end (rule 2), plus garrison reports."""
    dislodging = adjudicate(
        position({"GERMANY": ["A MUN", "A RUH"], "FRANCE": ["A BUR", "A GAS"]}),
        {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]},
    )
    retreat = adjudicate(dislodging.after, {"FRANCE": ["A BUR R PAR"]})
    seen = RULES.observe(retreat, "GERMANY")
    assert seen.notices == () and foreign_orders(seen) == []
    assert seen.unit_at("PAR") == SeenUnit("PAR", "FRANCE", "A")
    assert seen.unit_at("GAS") == SeenUnit("GAS", "FRANCE", "A")


# --- what is not seen ------------------------------------------------------------------------------


def test_no_mention_of_what_no_unit_saw() -> None:
    """Battles out of every unit's reach leave no trace: no notice, no order, no unit."""
    orders = {
        "ENGLAND": ["F LON - ENG", "F EDI - NTH"],
        "FRANCE": ["F BRE - ENG", "A PAR - BUR", "A MAR S A PAR - BUR"],
        "GERMANY": ["A MUN - BUR", "F KIE - HOL"],
        "ITALY": ["A VEN - TYR"],
        "AUSTRIA": ["A VIE - TYR"],
    }
    seen = RULES.observe(adjudicate(GameState.initial(), orders), "TURKEY")
    assert seen.notices == ()
    assert {o.power for o in seen.orders} == {"TURKEY"}
    assert {u.owner for u in seen.units} == {"TURKEY"}
    for name in ("ENGLAND", "FRANCE", "GERMANY", "ITALY", "AUSTRIA", "English", "French", "BUR", "ENG", "TYR"):
        assert name not in as_bytes(seen)


def test_the_report_carries_what_was_learned() -> None:
    orders = {
        "ITALY": ["A MAR - BUR", "A MUN S A MAR - BUR"],
        "ENGLAND": ["A PAR - BUR"],
        "FRANCE": ["A PIC S A PAR - BUR"],
    }
    report = as_json(observe(MAR_BUR, orders, "ITALY"))
    assert report["notices"] == [
        {
            "kind": "stood-off",
            "text": "A MAR - BUR S by A MUN fails, stood off by ENGLAND A PAR and FRANCE A PIC",
            "power": "ITALY",
            "order": "A MAR - BUR",
            "opposition": [["ENGLAND", "A", "PAR"], ["FRANCE", "A", "PIC"]],
        }
    ]
    assert "stood off by ENGLAND A PAR and FRANCE A PIC" in str(report["text"])


REMOTE = {"TURKEY": ("ENGLAND", "FRANCE", "GERMANY", "ITALY"), "ENGLAND": ("AUSTRIA", "ITALY", "RUSSIA", "TURKEY")}


@st.composite
def opening_orders(draw: st.DrawFn, powers: Sequence[str]) -> dict[str, list[Order]]:
    state = GameState.initial()
    out: dict[str, list[Order]] = {}
    for power in powers:
        options = legal_orders(state, power, ENGINE_RULES)
        out[power] = [draw(st.sampled_from(choices)) for _, choices in sorted(options.items())]
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(viewer=st.sampled_from(sorted(REMOTE)), data=st.data())
def test_orders_of_units_out_of_reach_change_nothing(viewer: str, data: st.DataObject) -> None:
    """From the opening position, whatever the powers far from the viewer order (they can
    neither come near it in one move nor touch a battle it sees), its report is byte for byte
    the one it gets when they all hold."""
    near = [p for p in BOARD.powers if p not in REMOTE[viewer]]
    orders = data.draw(opening_orders(near))
    far = data.draw(opening_orders(REMOTE[viewer]))
    state = GameState.initial()
    busy = RULES.observe(adjudicate(state, {**orders, **far}), viewer)
    quiet = RULES.observe(adjudicate(state, orders), viewer)
    assert as_bytes(busy) == as_bytes(quiet)


def test_foreign_units_far_away_change_nothing() -> None:
    """The seed's Burgundy example with a busy east: France's report does not change."""
    units = {**BUR_EXAMPLE, "RUSSIA": ["A WAR", "F SEV", "A UKR"], "TURKEY": ["F ANK", "A BUL"], "AUSTRIA": ["A GAL"]}
    base = {"FRANCE": ["A BUR H"], "ENGLAND": ["F SPA/SC - MAR", "A GAS H"], "ITALY": ["F PIE - MAR"]}
    quiet = observe(units, base, "FRANCE")
    for east in (
        {
            "RUSSIA": ["A WAR - GAL", "F SEV - RUM", "A UKR S F SEV - RUM"],
            "TURKEY": ["A BUL - RUM", "F ANK - BLA"],
            "AUSTRIA": ["A GAL - WAR"],
        },
        {
            "RUSSIA": ["A WAR - SIL", "F SEV - BLA"],
            "TURKEY": ["F ANK - BLA", "A BUL S A GAL - RUM"],
            "AUSTRIA": ["A GAL - RUM"],
        },
    ):
        assert as_bytes(observe(units, {**base, **east}, "FRANCE")) == as_bytes(quiet)


# --- property: what lies far from a power's affairs changes nothing ----------------------------------

PROVINCES = tuple(sorted(code for code, p in BOARD.provinces.items() if p.passable))


def _spots(province: str) -> list[tuple[UnitKind, str]]:
    kinds: list[tuple[UnitKind, str]] = [("A", province)] if BOARD.can_hold("A", province) else []
    kinds.extend(("F", location) for location in BOARD.coasts(province) or (province,) if BOARD.can_hold("F", location))
    return kinds


@st.composite
def battles(draw: st.DrawFn) -> tuple[GameState, dict[str, list[Order]]]:
    """Random units on random spots, each with a random legal order or none."""
    provinces = draw(st.lists(st.sampled_from(PROVINCES), min_size=4, max_size=22, unique=True))
    units = {}
    for province in provinces:
        kind, location = draw(st.sampled_from(_spots(province)))
        units[province] = Unit(draw(st.sampled_from(BOARD.powers)), kind, location)
    state = GameState.initial(BOARD).with_changes(units=units, centers={})
    orders: dict[str, list[Order]] = {}
    for power in BOARD.powers:
        for _, choices in sorted(legal_orders(state, power, ENGINE_RULES).items()):
            if draw(st.integers(0, 5)):
                orders.setdefault(power, []).append(draw(st.sampled_from(choices)))
    return state, orders


def _ball(provinces: set[str], radius: int) -> set[str]:
    seen = set(provinces)
    for _ in range(radius):
        seen |= {n for p in seen for n in BOARD.neighbours[p]}
    return seen


def _commands(order: Order, province: str) -> bool:
    ref = getattr(order, "unit", None)  # a WAIVE commands no unit
    return isinstance(ref, UnitRef) and BOARD.province_of(ref.location) == province


def near_facts(record: Resolution, power: str) -> str:
    """Everything that happened within two provinces of the power's units and of whatever
    their orders name (and along any convoy chain carrying an army they name), with the
    power's centres: if all of it is unchanged, the power's report must be too."""
    own = [r for r in record.orders if r.power == power]
    anchors = {r.unit.province for r in own if r.unit is not None}
    anchors |= {p for r in own for p in order_provinces(r)}
    anchors |= {
        r.unit.province
        for r in record.orders
        if r.unit is not None and isinstance(r.order, Convoy) and r.order.army.province in anchors
    }
    region = _ball(anchors, 2)
    facts = (
        sorted(
            repr((r.power, r.unit, r.order, r.outcome, r.results, r.dislodged_by))
            for r in record.orders
            if set(order_provinces(r)) & region
        ),
        sorted((a, b) for a, b in record.moves.items() if a in region or BOARD.province_of(b) in region),
        sorted((a, b) for a, b in record.dislodged.items() if a in region or b in region),
        sorted((a, b) for a, b in record.supports.items() if a in region or b in region),
        sorted(a for a in record.convoy_paths if a in region),
        sorted((p, repr(u)) for p, u in record.before.units.items() if p in region),
        sorted((p, repr(u)) for p, u in record.after.units.items() if p in region),
        sorted((p, repr(d.unit)) for p, d in record.after.dislodged.items() if p in region),
        sorted((c, o, repr(record.after.units.get(c))) for c, o in record.before.centers.items() if o == power),
        sorted(repr(r) for r in record.rejected if r.power == power),
        # The engine alone skips a retreat season nobody needs, so the next phase tells of
        # dislodgements anywhere; the preset's schedule holds every retreat season instead.
        str(record.after.phase),
        record.after.completed,
    )
    return repr(facts)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(battle=battles(), data=st.data())
def test_changes_far_from_a_power_change_nothing_it_observes(
    battle: tuple[GameState, dict[str, list[Order]]], data: st.DataObject
) -> None:
    """Change one foreign unit's order: if nothing near the power's affairs turned out
    differently, its report is byte for byte the same."""
    state, orders = battle
    power = data.draw(st.sampled_from(sorted({u.power for u in state.units.values()})))
    foreign = sorted(p for p, u in state.units.items() if u.power != power)
    assume(foreign)
    province = data.draw(st.sampled_from(foreign))
    subject = state.units[province]
    choices = legal_orders(state, subject.power, ENGINE_RULES)[province]
    new = data.draw(st.sampled_from(choices))
    changed = {p: [o for o in listed if not _commands(o, province)] for p, listed in orders.items()}
    changed.setdefault(subject.power, []).append(new)
    first, second = adjudicate(state, orders), adjudicate(state, changed)
    assume(near_facts(first, power) == near_facts(second, power))
    assert as_bytes(RULES.observe(first, power)) == as_bytes(RULES.observe(second, power)), f"{subject} orders {new}"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battle=battles())
def test_reports_never_show_foreign_orders_to_watchers_and_always_name_the_opposition(
    battle: tuple[GameState, dict[str, list[Order]]],
) -> None:
    """Whatever happens: what a watcher reports is never an order, a stand-off always says who
    stood the move off, and the only foreign orders seen are moves a power's units shared in."""
    state, orders = battle
    record = adjudicate(state, orders)
    for power in sorted({u.power for u in state.units.values()}):
        seen = RULES.observe(record, power)
        for notice in seen.notices:
            if notice.kind in ("remains", "leaves", "seen-dislodged", "enters", "conflict", "attacked"):
                assert not any(f" {word} " in notice.text for word in ("-", "S", "C", "H")), notice.text
            if notice.kind in ("stood-off", "stood-off-border"):
                assert notice.get("opposition"), notice.text
        for owner, line, _words in foreign_orders(seen):
            shared = record.result_of(line.split()[1].partition("/")[0])
            assert shared is not None and shared.power == owner and " - " in line
