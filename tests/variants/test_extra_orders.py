"""Seed 002's extra orders (Deadman Diplomacy, Bob Arnett, rd05): espionage, peek-a-sneak and
disband in movement, played through :class:`fogdip.variants.Variant`.

Every seed example is a test whose docstring quotes the seed. Positions are set up directly
(``position``) so that a test can start in any season; the deadman preset's own schedule
(free setup, Winter and Spring combined) is exercised where the test does not cross a Winter.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fogdip.engine import FogdipError, Phase, Unit, standard_map
from fogdip.fog.observation import Observation, SeenOrder, SeenUnit
from fogdip.fog.sight import province_sight
from fogdip.variants import Position, TurnResult, Variant, compose
from fogdip.variants.espionage import DisbandNow, Espionage, Peek, is_movement_extra, parse_extra_order
from fogdip.variants.extra_orders import MovementExtras
from fogdip.variants.lines import read_lines
from views import as_json, text, texts, words

BOARD = standard_map()
ALL_ON = dict(espionage=True, peek=True, disband_in_movement=True, fog="deadman")
PLAIN = Variant(compose("standard", **ALL_ON))
DEADMAN = Variant.named("deadman")


def position(
    units: Mapping[str, Sequence[str]], phase: str = "S1902M", usage: Mapping[str, Any] | None = None
) -> Position:
    return Position.of(units, phase, usage=usage, board=BOARD)


def play(
    units: Mapping[str, Sequence[str]],
    orders: Mapping[str, list[str]],
    *,
    variant: Variant = PLAIN,
    phase: str = "S1902M",
    usage: Mapping[str, Any] | None = None,
) -> TurnResult:
    return variant.play(position(units, phase, usage), dict(orders))


def line(seen: Observation, written: str) -> SeenOrder:
    matches = [order for order in seen.orders if text(order) == written]
    assert len(matches) == 1, f"no single order line {written!r} in {texts(seen)}"
    return matches[0]


def foreign(seen: Observation) -> set[SeenUnit]:
    return {unit for unit in seen.units if unit.owner != seen.power}


def notice_texts(seen: Observation, kind: str) -> list[str]:
    return [notice.text for notice in seen.notices_of(kind)]


def reasons(played: TurnResult, power: str) -> list[str]:
    return [str(r.reason) for r in played.rejected if r.power == power]


# --- the seed's examples -----------------------------------------------------------------------

SEED_EXAMPLE = {
    "ENGLAND": ["F NTH"],
    "FRANCE": ["F BRE", "A BEL", "A PAR"],
    "GERMANY": ["A HOL"],
}
SEED_ORDERS = {"ENGLAND": ["F Nth-Espionage France"], "FRANCE": ["F BRE - ENG", "A BEL - HOL", "A PAR - BUR"]}


def test_seed_example_espionage_on_france() -> None:
    """ "Your English fleet is in the North Sea. You decide that instead of any movement or
    other order ... you rather use the ESPIONAGE ORDER-Thus-F Nth - Espionage France. The
    result is that the GM will give you all available information on any French Units within
    one space of the Nth Sea. Example: F Nth-Espionage France [Eng;Bel]"

    "You are not told if they are armies or fleets. You just are told that they are there as
    of the end of that move." A Bel-Hol bounces off the German A Hol, so A Bel is still in
    Belgium; F Bre-Eng arrives in the Channel; A Par-Bur ends two spaces away and stays hidden.
    """
    played = play(SEED_EXAMPLE, SEED_ORDERS)
    england = played.observations["ENGLAND"]
    assert words(line(england, "F NTH E FRANCE")) == ()
    assert foreign(england) == {SeenUnit("BEL", "FRANCE", None), SeenUnit("ENG", "FRANCE", None)}
    assert notice_texts(england, "espionage") == ["F NTH E FRANCE: French units at BEL, ENG"]
    assert england.notices_of("espionage")[0].get("provinces") == ("BEL", "ENG")
    assert texts(england) == ["F NTH E FRANCE"]  # the engine's hold is not shown as well
    assert played.rejected == ()


def test_seed_example_the_spied_power_is_told() -> None:
    """ "But - the catch - at the same time, the Frenchman will be informed that some power has
    learned of the locations of those units. He won't know which power ... EXAMPLE: France:
    F Bre-Eng*; A Bel*-Hol; A Bur-Mun; etc. * Designates that the unit's location is known by
    1 (one) player ... And last, but not least, don't forget that the French man now knows that
    there is a foreign unit within 1 space."

    The mark goes where the unit was seen: on Eng for the fleet that arrived, on Bel for the
    army that bounced. A Bur is not marked.
    """
    france = play(SEED_EXAMPLE, SEED_ORDERS).observations["FRANCE"]
    [notice] = france.notices_of("spied")
    assert notice.text == (
        "Spied on: A BEL*, F ENG* (each * is a power that has learned where the unit stands). "
        "A foreign unit stands within one space of A BEL, F ENG."
    )
    assert notice.get("units") == (("BEL", 1), ("ENG", 1))
    assert notice.get("near") == (("BEL", "ENG"),)
    assert foreign(france) == set()
    everything = json.dumps(as_json(france))
    assert "ENGLAND" not in everything and "NTH" not in everything  # not who, not from where


def test_two_spies_give_two_marks() -> None:
    """ "** Designates that the unit's location is known by 2 (two) players; etc"

    England spies from the North Sea, Germany from the Ruhr: both find A Bel, only England
    finds F Eng (A Par stays home, out of reach). Each espionage tells France that a foreign unit stands next to what it found.
    """
    units = {**SEED_EXAMPLE, "GERMANY": ["A HOL", "A RUH"]}
    orders = {**SEED_ORDERS, "FRANCE": ["F BRE - ENG", "A BEL - HOL"], "GERMANY": ["A RUH E FRANCE"]}
    played = play(units, orders)
    [notice] = played.observations["FRANCE"].notices_of("spied")
    assert notice.text.startswith("Spied on: A BEL**, F ENG* ")
    assert notice.get("units") == (("BEL", 2), ("ENG", 1))
    assert notice.get("near") == (("BEL",), ("BEL", "ENG"))
    assert foreign(played.observations["GERMANY"]) == {SeenUnit("BEL", "FRANCE", None)}


def test_espionage_reveals_provinces_not_types() -> None:
    """ "You are not told if they are armies or fleets." The spy's report has the owner and
    the province, never the type, nor a fleet's coast."""
    played = play({"RUSSIA": ["A FIN"], "ENGLAND": ["F STP/NC", "F NWY", "A SWE"]}, {"RUSSIA": ["A FIN E ENGLAND"]})
    seen = foreign(played.observations["RUSSIA"])
    assert seen == {
        SeenUnit("STP", "ENGLAND", None),
        SeenUnit("NWY", "ENGLAND", None),
        SeenUnit("SWE", "ENGLAND", None),
    }
    assert all(unit.kind is None and "/" not in unit.location for unit in seen)


def test_espionage_sees_over_land_and_water() -> None:
    """ "The Espionage Order allows a unit to "see" into any adjacent space. LAND or WATER.
    Why? Because of Coast Watchers, Scouts, Patrols, etc." An army in Burgundy finds a fleet
    nowhere near, but an army in Picardy finds the fleet in the Channel; a fleet in the
    Channel finds the army in Paris? No: Paris is not next to the Channel. It finds Picardy's."""
    played = play({"GERMANY": ["A PIC"], "FRANCE": ["F ENG", "A PAR", "A BUR"]}, {"GERMANY": ["A PIC E FRANCE"]})
    assert {u.province for u in foreign(played.observations["GERMANY"])} == {"ENG", "PAR", "BUR"}
    played = play({"ENGLAND": ["F ENG"], "FRANCE": ["A PIC", "A PAR"]}, {"ENGLAND": ["F ENG E FRANCE"]})
    assert {u.province for u in foreign(played.observations["ENGLAND"])} == {"PIC"}


# --- espionage fails when the spying unit is attacked -----------------------------------------

Q2_UNITS = {"RUSSIA": ["A GAL"], "AUSTRIA": ["A VIE", "A BUD", "A RUM"], "GERMANY": ["A SIL"]}


def test_seed_q2_an_attack_fails_the_whole_espionage() -> None:
    """ "Russia-has A Gal, orders A Gal E Austria. Austria-has A Vie, Bud, Rum, orders A Vie-Gal,
    A Bud-Ser (A Rum supports)" -- the questioner would have Russia see A Vie. "ANSWER: No, I
    disagree ... the scouting patrol looking into the adjacent province never got a chance to
    complete their mission. Remember, technically, the espionage occurs after all other units
    move. Thus, they never got the opportunity to spy on any units. Thus, the espionage order
    fails. No foreign units were discovered." Nor is the attacker revealed."""
    orders = {"RUSSIA": ["A GAL E AUSTRIA"], "AUSTRIA": ["A VIE - GAL", "A BUD - SER", "A RUM S A BUD - SER"]}
    played = play(Q2_UNITS, orders)
    russia, austria = played.observations["RUSSIA"], played.observations["AUSTRIA"]
    assert words(line(russia, "A GAL E AUSTRIA")) == ("fails",)
    assert foreign(russia) == set()
    assert notice_texts(russia, "espionage") == [
        "A GAL E AUSTRIA failed: the unit was attacked, and nothing was learned"
    ]
    assert austria.notices_of("spied") == []
    assert played.position.usage == {"espionage": {"RUSSIA": {"1902": 1}}}  # a failed espionage is used up


def test_unattacked_espionage_in_the_q2_position_succeeds() -> None:
    """The same position without the attack on Galicia: Russia finds A Vie and A Rum (A Bud has
    moved to Serbia, out of reach, "as of the end of that move")."""
    orders = {"RUSSIA": ["A GAL E AUSTRIA"], "AUSTRIA": ["A VIE H", "A BUD - SER", "A RUM S A BUD - SER"]}
    russia = play(Q2_UNITS, orders).observations["RUSSIA"]
    assert words(line(russia, "A GAL E AUSTRIA")) == ()
    assert {u.province for u in foreign(russia)} == {"VIE", "RUM"}


def test_seed_q2_an_attack_by_a_third_power_fails_it_too() -> None:
    """ "Now, on the other hand, if Germany ordered A Sil-Gal, then that would cut the
    espionage against all Austrian units." (Under the answer given, any attack does.)"""
    orders = {"RUSSIA": ["A GAL E AUSTRIA"], "GERMANY": ["A SIL - GAL"]}
    russia = play(Q2_UNITS, orders).observations["RUSSIA"]
    assert words(line(russia, "A GAL E AUSTRIA")) == ("fails",)
    assert foreign(russia) == set()


def test_a_move_of_the_spys_own_power_is_no_attack() -> None:
    """As a power cannot cut its own support, its own unit bouncing off the spy does not stop
    the espionage."""
    orders = {"RUSSIA": ["A GAL E AUSTRIA", "A WAR - GAL"]}
    russia = play({**Q2_UNITS, "RUSSIA": ["A GAL", "A WAR"]}, orders).observations["RUSSIA"]
    assert words(line(russia, "A GAL E AUSTRIA")) == ()


def test_a_convoyed_army_that_never_sails_is_no_attack() -> None:
    """An army ordered across the water with no convoy ordered never reaches the spy (as it
    would not cut a support); a spy that is attacked but supported in place still fails."""
    units = {"FRANCE": ["A BEL", "A BUR"], "ENGLAND": ["A LON", "F NTH", "F ENG"]}
    played = play(units, {"FRANCE": ["A BEL E ENGLAND"], "ENGLAND": ["A LON - BEL", "F NTH H"]})
    assert words(line(played.observations["FRANCE"], "A BEL E ENGLAND")) == ()
    orders = {"FRANCE": ["A BEL E ENGLAND", "A BUR S A BEL"], "ENGLAND": ["F ENG - BEL"]}
    played = play(units, orders)
    assert words(line(played.observations["FRANCE"], "A BEL E ENGLAND")) == ("fails",)
    assert played.position.state.units["BEL"] == Unit("FRANCE", "A", "BEL")  # it held: the support counted


def test_a_dislodged_target_unit_is_not_found() -> None:
    """The spy finds units where they stand at the end of the move; a unit dislodged there no
    longer holds its province, and where it goes is settled by the retreat."""
    units = {"ENGLAND": ["F NTH"], "FRANCE": ["A BEL", "F ENG"], "GERMANY": ["A RUH", "A HOL"]}
    orders = {"ENGLAND": ["F NTH E FRANCE"], "GERMANY": ["A RUH - BEL", "A HOL S A RUH - BEL"]}
    played = play(units, orders)
    assert {u.province for u in foreign(played.observations["ENGLAND"])} == {"ENG"}
    assert played.observations["FRANCE"].notices_of("spied")[0].get("units") == (("ENG", 1),)


def test_the_spied_power_learns_nothing_of_the_spy() -> None:
    """ "He won't know which power, but he/she will know that someone has spied on those
    units." France's report is the same whoever spies on A Bel from wherever, as long as A Bel
    is all it finds."""
    reports = []
    for spy_power, spy_unit in (("ENGLAND", "F NTH"), ("ENGLAND", "F ENG"), ("GERMANY", "A RUH"), ("GERMANY", "A HOL")):
        played = play({"FRANCE": ["A BEL", "A MAR"], spy_power: [spy_unit]}, {spy_power: [f"{spy_unit} E FRANCE"]})
        reports.append(played.observations["FRANCE"])
    assert all(seen == reports[0] for seen in reports)
    assert reports[0].notices_of("spied")[0].get("units") == (("BEL", 1),)


def test_spied_marks_count_only_this_season() -> None:
    """ "* Designates that the unit's location is known by 1 (one) player": the players that
    learned it from this season's espionage. The next season without espionage tells nothing."""
    first = play(SEED_EXAMPLE, SEED_ORDERS)
    assert first.observations["FRANCE"].notices_of("spied")
    later = PLAIN.play(first.position, {"FRANCE": ["F ENG H"]})
    assert later.observations["FRANCE"].notices_of("spied") == []


def test_an_espionage_finding_nothing_is_still_reported() -> None:
    """The spy is told when no unit of the target is near; the target is told nothing, as
    nobody learned where any of its units stand."""
    played = play({"ENGLAND": ["F NTH"], "FRANCE": ["A MAR"]}, {"ENGLAND": ["F NTH E FRANCE"]})
    assert notice_texts(played.observations["ENGLAND"], "espionage") == [
        "F NTH E FRANCE: no French units within one space of NTH"
    ]
    assert played.observations["FRANCE"].notices == ()


def test_the_spying_unit_holds_and_can_be_supported_to_hold() -> None:
    """ "instead of any movement or other order (disbanding; convoy; or support), you rather
    use the ESPIONAGE ORDER": for the adjudication the unit holds, so it may be supported."""
    units = {"ENGLAND": ["F NTH", "F EDI"], "GERMANY": ["F HEL", "F DEN"]}
    orders = {"ENGLAND": ["F NTH E GERMANY", "F EDI S F NTH"], "GERMANY": ["F HEL - NTH", "F DEN S F HEL - NTH"]}
    played = play(units, orders)
    assert played.position.state.units["NTH"] == Unit("ENGLAND", "F", "NTH")
    assert played.resolutions[0].result_of("EDI").outcome == "supported"
    assert words(line(played.observations["ENGLAND"], "F NTH E GERMANY")) == ("fails",)  # attacked all the same


# --- the espionage allowance --------------------------------------------------------------------


def test_one_espionage_per_year() -> None:
    """ "During each game year, all governments will be entitled to use the "espionage
    rule"" -- once: a second order the same year is refused, in the same season or the next;
    the next year it is allowed again."""
    units = {"ENGLAND": ["F NTH", "F EDI"], "FRANCE": ["A BEL"]}
    played = play(units, {"ENGLAND": ["F NTH E FRANCE", "F EDI E FRANCE"]})
    assert reasons(played, "ENGLAND") == ["only one espionage order per game year is allowed, and one is already given"]
    assert played.position.usage == {"espionage": {"ENGLAND": {"1902": 1}}}
    assert notice_texts(played.observations["ENGLAND"], "rejected") == [
        "Order 'F EDI E FRANCE' was not accepted: only one espionage order per game year is allowed, and one is already given"
    ]
    fall = PLAIN.play(played.position, {"ENGLAND": ["F EDI E FRANCE"]})
    assert reasons(fall, "ENGLAND") == ["ENGLAND has already used its espionage order for 1902 (one per game year)"]
    assert words(line(fall.observations["ENGLAND"], "F EDI H")) == ()  # it held, as a unit without an order
    next_year = PLAIN.play(
        Position(fall.position.state.with_changes(phase=Phase("S", 1903, "M")), usage=fall.position.usage),
        {"ENGLAND": ["F EDI E FRANCE"]},
    )
    assert next_year.rejected == ()
    assert next_year.position.usage == {"espionage": {"ENGLAND": {"1902": 1, "1903": 1}}}


def test_the_year_allowance_through_the_deadman_preset() -> None:
    """The deadman preset: free setup, then Spring 1901 with an espionage order and a peek
    (refused in 1901), then Fall 1901, where a second espionage is refused."""
    opening = DEADMAN.play(DEADMAN.start(), {})
    spring = DEADMAN.play(opening.position, {"ENGLAND": ["F LON E FRANCE", "PAS-Nth"], "FRANCE": ["F BRE - ENG"]})
    assert [(r.text, str(r.reason)) for r in spring.rejected] == [
        ("PAS-Nth", "peek-a-sneak may be used from 1902 on, not in 1901")
    ]
    assert foreign(spring.observations["ENGLAND"]) == {SeenUnit("ENG", "FRANCE", None)}
    retreats = DEADMAN.play(spring.position, {})  # deadman holds every retreat season
    fall = DEADMAN.play(retreats.position, {"ENGLAND": ["F EDI E GERMANY"]})
    assert fall.turn == "F1901M"
    assert reasons(fall, "ENGLAND") == ["ENGLAND has already used its espionage order for 1901 (one per game year)"]


def test_the_deadman_winter_and_spring_turn() -> None:
    """The deadman preset files Winter's adjustments with the next Spring's orders: the new
    year's espionage allowance and the first peeks (1902) are played in that combined turn,
    after the Spring moves. A DB there is a Spring disband; ``DISBANDS`` would be a removal."""
    spring = DEADMAN.play(
        DEADMAN.play(DEADMAN.start(), {}).position, {"ENGLAND": ["F LON E FRANCE"], "FRANCE": ["A PAR - PIC"]}
    )
    fall = DEADMAN.play(DEADMAN.play(spring.position, {}).position, {"FRANCE": ["A PIC - BEL"]})
    winter = DEADMAN.play(fall.position, {})
    assert winter.position.name == "W1901A"
    played = DEADMAN.play(
        winter.position, {"ENGLAND": ["F EDI E FRANCE", "PAS BEL", "F LON DB"], "FRANCE": ["F BRE B"]}
    )
    assert [r.phase for r in played.resolutions] == ["W1901A", "S1902M"]
    assert played.rejected == ()
    england = played.observations["ENGLAND"]
    assert notice_texts(england, "peek") == ["PAS BEL: occupied"]
    assert words(line(england, "F EDI E FRANCE")) == () and words(line(england, "F LON DB")) == ()
    assert "LON" not in played.position.state.units
    assert played.position.usage == {"espionage": {"ENGLAND": {"1901": 1, "1902": 1}}}


def test_one_espionage_per_season_option() -> None:
    """``espionage_limit="season"``: one per movement phase, so Spring's does not stop Fall's."""
    variant = Variant(compose("standard", espionage_limit="season", **ALL_ON))
    units = {"ENGLAND": ["F NTH", "F EDI"], "FRANCE": ["A BEL"]}
    spring = variant.play(position(units), {"ENGLAND": ["F NTH E FRANCE", "F EDI E FRANCE"]})
    assert reasons(spring, "ENGLAND") == ["only one espionage order per season is allowed, and one is already given"]
    fall = variant.play(spring.position, {"ENGLAND": ["F NTH E FRANCE"]})
    assert fall.rejected == ()
    assert fall.position.usage == {"espionage": {"ENGLAND": {"1902": 2}}}


def test_unlimited_espionage_option() -> None:
    """``espionage_limit="unlimited"``: every unit may spy every season. Two units of one
    power finding the same unit count as one power knowing it (one ``*``)."""
    variant = Variant(compose("standard", espionage_limit="unlimited", **ALL_ON))
    units = {"ENGLAND": ["F NTH", "F ENG"], "FRANCE": ["A BEL"]}
    played = variant.play(position(units), {"ENGLAND": ["F NTH E FRANCE", "F ENG E FRANCE"]})
    assert played.rejected == ()
    [notice] = played.observations["FRANCE"].notices_of("spied")
    assert notice.get("units") == (("BEL", 1),)
    assert notice.get("near") == (("BEL",), ("BEL",))
    assert played.position.usage == {"espionage": {"ENGLAND": {"1902": 2}}}


def test_a_rejected_espionage_uses_nothing() -> None:
    played = play({"ENGLAND": ["F NTH"]}, {"ENGLAND": ["F NTH E ENGLAND", "F LON E FRANCE"]})
    assert reasons(played, "ENGLAND") == [
        "ENGLAND cannot spy on itself: name another power",
        "ENGLAND has no unit in LON",
    ]
    assert played.position.usage == {}


def test_usage_is_json_and_never_mutated() -> None:
    usage = {"espionage": {"ENGLAND": {"1901": 1}}, "other": [1, 2]}
    played = play({"ENGLAND": ["F NTH"], "FRANCE": ["A BEL"]}, {"ENGLAND": ["F NTH E FRANCE"]}, usage=usage)
    assert usage == {"espionage": {"ENGLAND": {"1901": 1}}, "other": [1, 2]}
    assert json.loads(json.dumps(played.position.usage)) == {
        "espionage": {"ENGLAND": {"1901": 1, "1902": 1}},
        "other": [1, 2],
    }


@pytest.mark.parametrize(
    "usage", [{"espionage": []}, {"espionage": {"ENGLAND": 1}}, {"espionage": {"ENGLAND": {"1902": "one"}}}]
)
def test_malformed_usage_is_a_clear_error(usage: dict[str, Any]) -> None:
    with pytest.raises(FogdipError, match=re.escape('usage "espionage" must map each power to {year: count}')):
        play({"ENGLAND": ["F NTH"]}, {"ENGLAND": ["F NTH E FRANCE"]}, usage=usage)


# --- peek-a-sneak -------------------------------------------------------------------------------


def test_seed_example_peek_a_sneak() -> None:
    """ "EXAMPLE: France's S02 orders include "Peek-a-Sneak-North Sea. OR PAS-Nth. The GM will
    respond by saying: PAS-Nth-Occupied OR PAS-Nth-Empty." The answer is as of the end of the
    season: "All the PAS & ESPIONAGE orders actually occur after the season." """
    units = {"FRANCE": ["A PAR"], "ENGLAND": ["F EDI"]}
    played = play(units, {"FRANCE": ["Peek-a-Sneak-North Sea"], "ENGLAND": ["F EDI - NTH"]})
    france = played.observations["FRANCE"]
    assert words(line(france, "PAS NTH")) == ()
    [notice] = france.notices_of("peek")
    assert (notice.text, notice.get("province"), notice.get("answer")) == ("PAS NTH: occupied", "NTH", "occupied")
    assert foreign(france) == set()  # occupied, not by what
    played = play(units, {"FRANCE": ["PAS-Nth"], "ENGLAND": ["F EDI H"]})
    assert notice_texts(played.observations["FRANCE"], "peek") == ["PAS NTH: empty"]
    played = play(units, {"FRANCE": ["PEEK EDI"], "ENGLAND": ["F EDI - NTH"]})
    assert notice_texts(played.observations["FRANCE"], "peek") == ["PAS EDI: empty"]  # it left during the season


def test_no_peek_in_1901() -> None:
    """ "During each move AFTER 1901 ... Remember that the PAS request cannot be made during
    1901." """
    played = play({"FRANCE": ["A PAR"]}, {"FRANCE": ["PAS NTH"]}, phase="F1901M")
    assert reasons(played, "FRANCE") == ["peek-a-sneak may be used from 1902 on, not in 1901"]
    assert played.observations["FRANCE"].notices_of("peek") == []
    assert notice_texts(played.observations["FRANCE"], "rejected") == [
        "Order 'PAS NTH' was not accepted: peek-a-sneak may be used from 1902 on, not in 1901"
    ]


def test_one_peek_per_season() -> None:
    """ "With each order, you request any province or body of water on the board as your
    peek": one per season. A second peek line is refused, whether or not it repeats the
    first, naming the line that has the peek."""
    played = play({"FRANCE": ["A PAR"]}, {"FRANCE": ["PAS NTH", "PAS North Sea", "PAS ENG"]})
    second = "only one peek-a-sneak per season, and line 1 ('PAS NTH') is one: delete this line or line 1"
    assert reasons(played, "FRANCE") == [second, second]
    assert notice_texts(played.observations["FRANCE"], "peek") == ["PAS NTH: empty"]


def test_peek_at_an_impassable_province_is_refused() -> None:
    played = play({"FRANCE": ["A PAR"]}, {"FRANCE": ["PAS SWI"]})
    assert reasons(played, "FRANCE") == ["SWI is impassable: no unit can ever stand there"]


# --- disband in movement ------------------------------------------------------------------------


def test_seed_disband_before_the_moves() -> None:
    """ "2) The DISBANDING ORDER: A unit may be ordered to disband during any order. This order
    is now part of the movement phase. EXAMPLE: F Nth-Disbands /or/ F Nth-DB."

    With ``disband_timing="before"`` (the default) the unit leaves before the moves are
    resolved: an attack on its province succeeds unopposed."""
    units = {"FRANCE": ["A BUR"], "GERMANY": ["A MUN"]}
    played = play(units, {"FRANCE": ["A Bur-Disbands"], "GERMANY": ["A MUN - BUR"]})
    after = played.position.state
    assert after.units["BUR"] == Unit("GERMANY", "A", "BUR")
    assert not after.dislodged
    assert words(line(played.observations["FRANCE"], "A BUR DB")) == ()
    assert played.observations["FRANCE"].notices == ()
    assert all(r.unit is None or r.unit.power != "FRANCE" for r in played.resolutions[0].orders)


def test_disband_after_the_moves() -> None:
    """With ``disband_timing="after"`` the unit holds through the moves, so it stands off an
    attack, and is gone afterwards."""
    variant = Variant(compose("standard", disband_timing="after", **ALL_ON))
    units = {"FRANCE": ["A BUR"], "GERMANY": ["A MUN"]}
    played = variant.play(position(units), {"FRANCE": ["A BUR DB"], "GERMANY": ["A MUN - BUR"]})
    assert played.resolutions[0].result_of("MUN").outcome == "bounced"
    assert set(played.position.state.units) == {"MUN"}
    assert words(line(played.observations["FRANCE"], "A BUR DB")) == ()
    assert texts(played.observations["FRANCE"]) == ["A BUR DB"]


def test_disband_after_a_dislodged_unit_is_simply_gone() -> None:
    """Dislodged while holding, a unit disbanded "after" does not retreat: no retreat season
    follows for it (without held retreat seasons the game goes straight to Fall)."""
    variant = Variant(compose("standard", disband_timing="after", **ALL_ON))
    units = {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH"]}
    played = variant.play(position(units), {"FRANCE": ["A BUR DB"], "GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]})
    after = played.position.state
    assert after.units["BUR"] == Unit("GERMANY", "A", "BUR")
    assert not after.dislodged and played.position.name == "F1902M"


def test_disband_after_takes_no_centre() -> None:
    """A unit disbanded "after" in Fall is gone before centres change hands: it takes none.
    "I suggest you take advantage of this order only in the fail [Fall]. Thus - you can build
    it elsewhere during the winter." """
    variant = Variant(compose("standard", disband_timing="after", **ALL_ON))
    units = {"FRANCE": ["A BEL", "A PAR", "A MAR", "F BRE"]}
    played = variant.play(position(units, "F1902M"), {"FRANCE": ["A BEL DB"]})
    after = played.position.state
    assert "BEL" not in after.centers and after.adjustment("FRANCE") == 0
    played = variant.play(position(units, "F1902M"), {"FRANCE": ["A PAR DB"]})
    after = played.position.state
    assert after.centers["BEL"] == "FRANCE" and after.adjustment("FRANCE") == 1
    assert after.phase == Phase("W", 1902, "A")


# --- conflicts and rejections ------------------------------------------------------------------


def test_a_second_order_for_a_unit_is_refused_whatever_its_kind() -> None:
    """A unit takes one order: a second line for it, an ordinary order or an extra one, is
    refused (when filed, and when the turn is played), naming the line that orders it
    already, and the first is carried out. The espionage carried out uses the allowance."""
    units = {"ENGLAND": ["F NTH"], "FRANCE": ["A BEL"]}
    played = play(units, {"ENGLAND": ["F NTH E FRANCE", "F NTH - ENG"]})
    england = played.observations["ENGLAND"]
    assert played.position.state.units["NTH"] == Unit("ENGLAND", "F", "NTH")
    assert texts(england) == ["F NTH E FRANCE"] and words(line(england, "F NTH E FRANCE")) == ()
    assert reasons(played, "ENGLAND") == [
        "F NTH already has an order, on line 1 ('F NTH E FRANCE'): give each unit one order; delete this line or line 1"
    ]
    assert notice_texts(england, "espionage") == ["F NTH E FRANCE: French units at BEL"]
    assert played.position.usage == {"espionage": {"ENGLAND": {"1902": 1}}}


@pytest.mark.parametrize(
    "orders, kept",
    [
        (["F NTH E FRANCE", "F NTH DB"], "F NTH E FRANCE"),
        (["F NTH DB", "F NTH E FRANCE"], "F NTH DB"),
        (["F NTH DB", "F NTH - ENG"], "F NTH DB"),
        (["F NTH E FRANCE", "f nth espionage france"], "F NTH E FRANCE"),
    ],
)
def test_the_first_order_of_a_unit_is_the_one_played(orders: list[str], kept: str) -> None:
    """Whatever the kinds of the two orders, and even if the second repeats the first, the
    first line is played and the second refused."""
    played = play({"ENGLAND": ["F NTH"], "FRANCE": ["A BEL"]}, {"ENGLAND": orders})
    assert texts(played.observations["ENGLAND"]) == [kept]
    assert [r.text for r in played.rejected] == [orders[1]]
    assert ("NTH" in played.position.state.units) == (kept != "F NTH DB")


def test_extra_orders_refused_where_the_variant_has_none() -> None:
    variant = Variant(compose("standard", espionage=True, fog="deadman"))
    played = variant.play(position({"FRANCE": ["A BUR"]}), {"FRANCE": ["PAS NTH", "A BUR DB"]})
    assert reasons(played, "FRANCE") == [
        "peek-a-sneak (PAS) is not allowed in this variant",
        "disbanding in a movement phase is not allowed in this variant",
    ]
    variant = Variant(compose("standard", peek=True, fog="deadman"))
    played = variant.play(position({"FRANCE": ["A BUR"]}), {"FRANCE": ["A BUR E GERMANY"]})
    assert reasons(played, "FRANCE") == ["espionage is not allowed in this variant"]
    assert played.position.state.units["BUR"] == Unit("FRANCE", "A", "BUR")


@pytest.mark.parametrize("occupant", [None, "FRANCE", "GERMANY"])
def test_rejection_reasons_reveal_no_foreign_unit(occupant: str | None) -> None:
    """An order for a unit the power does not have gets the same reason whether the province
    is empty or holds anyone's unit."""
    units: dict[str, list[str]] = {"ENGLAND": ["F NTH"]}
    if occupant:
        units[occupant] = ["A BEL"]
    played = play(units, {"ENGLAND": ["A BEL E FRANCE", "A BEL DB", "F NTH E ATLANTIS", "A NTH E FRANCE"]})
    assert reasons(played, "ENGLAND") == [
        "ENGLAND has no unit in BEL",
        "ENGLAND has no unit in BEL",
        "unknown power 'ATLANTIS': name one of AUSTRIA, ENGLAND, FRANCE, GERMANY, ITALY, RUSSIA, TURKEY",
        "wrong unit type: the unit in NTH is a fleet, write F NTH",
    ]


def test_orders_of_an_unknown_power_are_refused() -> None:
    played = play({"FRANCE": ["A PAR"]}, {"ATLANTIS": ["PAS NTH"]})
    assert reasons(played, "ATLANTIS") == ["ATLANTIS is not a power of this game"]


# --- notation -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("F NTH E FRANCE", "F NTH E FRANCE"),
        ("F NTH ESPIONAGE FRANCE", "F NTH E FRANCE"),
        ("F Nth - Espionage France", "F NTH E FRANCE"),
        ("F Nth-Espionage France", "F NTH E FRANCE"),
        ("f nth e france", "F NTH E FRANCE"),
        ("Fleet North Sea Espionage French", "F NTH E FRANCE"),
        ("F Nwy E Russia", "F NWY E RUSSIA"),
        ("A Gal E Austria", "A GAL E AUSTRIA"),
        ("NTH E FRA", "NTH E FRANCE"),
        ("F STP/NC SPIES ON ENGLAND", "F STP/NC E ENGLAND"),
        ("PAS NTH", "PAS NTH"),
        ("PAS-Nth", "PAS NTH"),
        ("Peek-a-Sneak North Sea", "PAS NTH"),
        ("Peek-a-Sneak-North Sea", "PAS NTH"),
        ("PEEK NTH", "PAS NTH"),
        ("pas stp/nc", "PAS STP"),
        ("F NTH DB", "F NTH DB"),
        ("F NTH DISBANDS", "F NTH DB"),
        ("F Nth-Disbands", "F NTH DB"),
        ("F Nth-DB", "F NTH DB"),
        ("DB F NTH", "F NTH DB"),
    ],
)
def test_parser_accepts_the_seed_forms(text: str, canonical: str) -> None:
    order = parse_extra_order(text, BOARD)
    assert order is not None and str(order) == canonical


@pytest.mark.parametrize("text", ["F NTH - ENG", "A PAR H", "F NTH S A BEL - HOL", "WAIVE", "", "A PAR B"])
def test_ordinary_orders_are_left_to_the_engine(text: str) -> None:
    assert parse_extra_order(text, BOARD) is None


@pytest.mark.parametrize(
    "text, reason",
    [
        ("F NTH E", "name the power to spy on: F NTH E FRANCE"),
        ("F XYZ E FRANCE", "unknown province 'XYZ'"),
        ("E FRANCE", "write the spying unit first, then E and the power: F NTH E FRANCE"),
        ("F NTH DB NOW", "unexpected 'NOW' after DB: write F NTH DB"),
        ("PAS", "name the province to peek at: PAS NTH"),
        ("PAS ATLANTIS", "unknown province 'ATLANTIS': write PAS and a province, e.g. PAS NTH"),
        ("F NTH S A BEL E FRANCE", "write the unit, then the order: F NTH E FRANCE"),
    ],
)
def test_unreadable_extra_orders_say_why(text: str, reason: str) -> None:
    from fogdip.engine import InvalidOrder

    with pytest.raises(InvalidOrder) as caught:
        parse_extra_order(text, BOARD)
    assert caught.value.reason == reason
    played = play({"ENGLAND": ["F NTH"]}, {"ENGLAND": [text]})
    assert reasons(played, "ENGLAND") == [reason]


LOCATIONS = sorted(loc for province in BOARD.provinces for loc in (province, *BOARD.coasts(province)))
UNITS = [(kind, loc) for loc in LOCATIONS for kind in ("A", "F") if BOARD.can_hold(kind, loc)]  # type: ignore[arg-type]


@given(st.sampled_from(UNITS), st.sampled_from(BOARD.powers), st.sampled_from(sorted(BOARD.provinces)))
def test_formatting_round_trips(unit: tuple[str, str], power: str, province: str) -> None:
    from fogdip.engine import UnitRef

    ref = UnitRef(unit[0], unit[1])  # type: ignore[arg-type]
    for order in (Espionage(ref, power), DisbandNow(ref), Peek(province)):
        assert parse_extra_order(str(order), BOARD) == order
        assert parse_extra_order(str(order).lower(), BOARD) == order


def test_is_movement_extra() -> None:
    """For sorting the lines of a combined Winter and Spring turn: espionage, peeks and ``DB``
    belong to the movement; ``D`` and ``DISBAND`` may be Winter removals."""
    assert [
        is_movement_extra(t) for t in ("F Nth-Espionage France", "Peek-a-Sneak-North Sea", "F Nth-DB", "DB F NTH")
    ] == [True] * 4
    assert [is_movement_extra(t) for t in ("F NTH D", "F NTH DISBANDS", "A PAR B", "WAIVE", "")] == [False] * 5


# --- leaks --------------------------------------------------------------------------------------

FAR_FROM_NTH = sorted(
    p
    for p in BOARD.provinces
    if BOARD.provinces[p].passable and not province_sight(BOARD, "NTH") & (BOARD.neighbours[p] | {p})
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(FAR_FROM_NTH), max_size=6, unique=True), st.sampled_from(["FRANCE", "GERMANY", "RUSSIA"])
)
def test_units_out_of_reach_change_nothing_for_the_spy(provinces: list[str], owner: str) -> None:
    """Units two or more spaces from every province next to the spy (and not attacking it)
    leave everything England learns unchanged: its report, its order lines, its notices."""
    base = {"ENGLAND": ["F NTH", "F LON"], "FRANCE": ["A BEL"]}
    orders = {"ENGLAND": ["F NTH E FRANCE", "PAS HOL", "F LON DB"]}
    without = play(base, orders).observations["ENGLAND"]
    extra = [f"A {p}" if BOARD.can_hold("A", p) else f"F {p}" for p in provinces]
    units = {**base, owner: list(base.get(owner, [])) + extra}
    with_more = play(units, orders).observations["ENGLAND"]
    assert with_more == without


def test_extras_interface_directly() -> None:
    """The interface ``Variant._play_phase`` drives, used without a variant."""
    state = position({"ENGLAND": ["F NTH"], "FRANCE": ["A BEL"]}).state
    options = compose("standard", **ALL_ON)
    lines = {"ENGLAND": read_lines(["F NTH E FRANCE"], ("M",), state.board, options)}
    extras, engine, rejected = MovementExtras.collect(state, lines, options, {})
    assert {power: [str(order) for _text, order in given] for power, given in engine.items()} == {
        "ENGLAND": ["F NTH H"]
    }
    assert rejected == []
    assert extras.before_resolution(state) is state
    assert extras.usage_after({}, state) == {"espionage": {"ENGLAND": {"1902": 1}}}
