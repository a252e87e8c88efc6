"""What a player stumbled on (issue 20, point 5): two orders for one unit, builds beyond those
due, an adjustment filed in a retreat phase, one wrong line of a free setup, the heading of a
combined turn, a peek at one's own province, and a failed retreat that said nothing.

Each test goes through what a player meets: the verdicts filing gives
(:func:`fogdip.variants.filing.check_lines`, which the API, ``fogdip gm orders`` and the web
pages show) and the report of the turn played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from fogdip.engine.units import Unit
from fogdip.fog.report import observation_text
from fogdip.variants import Position, TurnResult, Variant
from fogdip.variants.filing import check_lines
from views import texts

FOG_OF_WAR = Variant.named("fog-of-war")
SIGHTING = Variant.named("sighting")
DEADMAN = Variant.named("deadman")


def errors(variant: Variant, position: Position, power: str, lines: list[str]) -> list[str | None]:
    return [check.error for check in check_lines(variant, position, power, lines)]


def notices(played: TurnResult, power: str, kind: str) -> list[str]:
    return [notice.text for notice in played.observations[power].notices_of(kind)]


def winter(units: Mapping[str, Sequence[str]], centers: Mapping[str, str], variant: Variant = FOG_OF_WAR) -> Position:
    position = Position.of(units, "W1901A", centers=centers)
    assert variant.turn_kinds(position)[0] == "A"
    return position


# --- 1. two orders for one unit ------------------------------------------------------------------

SECOND_ORDER = (
    "F BRE already has an order, on line 1 ('F BRE - MAO'): give each unit one order; delete this line or line 1"
)


def test_a_second_order_for_a_unit_is_refused_when_filed_and_when_played() -> None:
    """ "F BRE - MAO" and "F BRE H" were both accepted, and the report showed both. The second
    is refused, naming the line that orders the unit already; the turn plays the first."""
    position = FOG_OF_WAR.start()
    lines = ["F BRE - MAO", "F BRE H", "A PAR - BUR"]
    assert errors(FOG_OF_WAR, position, "FRANCE", lines) == [None, SECOND_ORDER, None]
    played = FOG_OF_WAR.play(position, {"FRANCE": lines})
    assert played.position.state.unit_at("MAO") == Unit("FRANCE", "F", "MAO")
    assert [text for text in texts(played.observations["FRANCE"]) if "BRE" in text] == ["F BRE - MAO"]
    assert notices(played, "FRANCE", "rejected") == [f"Order 'F BRE H' was not accepted: {SECOND_ORDER}"]


def test_a_repeated_order_and_a_second_retreat_are_second_orders_too() -> None:
    """The same order written twice, and two retreats for one dislodged unit, are second
    orders: the power is told which line to delete."""
    position = FOG_OF_WAR.start()
    again = (
        "A PAR already has an order, on line 1 ('A PAR - BUR'): give each unit one order; delete this line or line 1"
    )
    assert errors(FOG_OF_WAR, position, "FRANCE", ["A PAR - BUR", "a par - bur"]) == [None, again]
    attacked = Position.of({"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH"]}, "S1901M")
    retreat = FOG_OF_WAR.play(attacked, {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]}).position
    assert retreat.name == "S1901R" and "BUR" in retreat.state.dislodged
    assert errors(FOG_OF_WAR, retreat, "FRANCE", ["A BUR R PAR", "A BUR R PIC"]) == [
        None,
        "A BUR already has an order, on line 1 ('A BUR R PAR'): give each unit one order; delete this line or line 1",
    ]


def test_alternatives_for_one_unit_stay_allowed_where_the_variant_has_them() -> None:
    """Seed 001's retreat guesses ("R NWG, else R EDI") and conditional lines are several lines
    for one unit by design, and so is a unit's movement order beside its retreat guesses; in
    seed 002's Winter and Spring turn a unit is built, then ordered. A build filed ahead may
    not be repeated without a condition: the second could never be carried out."""
    fall = Position.of(
        {"FRANCE": ["F BRE", "A BUR"], "GERMANY": ["A MUN"]},
        "F1901M",
        centers={"PAR": "FRANCE", "MAR": "FRANCE", "BRE": "FRANCE"},
    )
    lines = [
        "F BRE - MAO",
        "F BRE R GAS",
        "F BRE R PIC",
        "IF F BRE DISLODGED THEN F BRE R ENG",
        "IF A BUR - MAR THEN A PAR B",
        "IF NOT A BUR - MAR THEN A PAR B",
        "A MAR B",
    ]
    assert errors(SIGHTING, fall, "FRANCE", lines) == [None] * len(lines)
    assert errors(SIGHTING, fall, "FRANCE", ["A PAR B", "A PAR B"])[1] == (
        "PAR already has a build, on line 1 ('A PAR B'): write other choices as conditional lines "
        "(IF ... THEN A PAR B); delete this line or line 1"
    )
    spring = winter({"GERMANY": ["A KIE"]}, {"BER": "GERMANY", "KIE": "GERMANY", "MUN": "GERMANY"}, DEADMAN)
    assert errors(DEADMAN, spring, "GERMANY", ["A BER B", "A BER - SIL", "A KIE - DEN"]) == [None, None, None]


def test_espionage_and_a_peek_count_as_orders() -> None:
    """Seed 002: an espionage order is the unit's order, and a peek is one per season."""
    position = Position.of({"ENGLAND": ["F NTH", "F LON"]}, "S1902M")
    assert errors(DEADMAN, position, "ENGLAND", ["F NTH E FRANCE", "F NTH - HOL", "PAS BEL", "PAS HOL"]) == [
        None,
        "F NTH already has an order, on line 1 ('F NTH E FRANCE'): give each unit one order; delete this line or line 1",
        None,
        "only one peek-a-sneak per season, and line 3 ('PAS BEL') is one: delete this line or line 3",
    ]


# --- 2. builds beyond those due --------------------------------------------------------------------

FRANCE_BUILDS = {"PAR": "FRANCE", "MAR": "FRANCE", "BRE": "FRANCE", "SPA": "FRANCE", "POR": "FRANCE"}


def test_builds_beyond_those_due_are_refused_when_filed() -> None:
    """Three builds with two allowed were accepted, and the third "failed" without a reason.
    A power knows its own centres and units: the third is refused at once."""
    position = winter({"FRANCE": ["A SPA", "F POR", "A BUR"]}, FRANCE_BUILDS)
    lines = ["A PAR B", "A MAR B", "F BRE B"]
    too_many = (
        "FRANCE may build 2 units this Winter, and lines 1 and 2 already build or waive them: "
        "delete this line or one of those"
    )
    assert errors(FOG_OF_WAR, position, "FRANCE", lines) == [None, None, too_many]
    played = FOG_OF_WAR.play(position, {"FRANCE": lines})
    assert {u.province for u in played.position.state.units_of("FRANCE")} == {"SPA", "POR", "BUR", "PAR", "MAR"}
    assert notices(played, "FRANCE", "rejected") == [f"Order 'F BRE B' was not accepted: {too_many}"]
    assert errors(FOG_OF_WAR, position, "FRANCE", ["WAIVE", "A PAR B", "A MAR B"])[2] == too_many


def test_removals_beyond_those_due_are_refused_when_filed() -> None:
    position = winter({"FRANCE": ["A PAR", "A MAR", "F BRE", "A BUR"]}, {"PAR": "FRANCE", "MAR": "FRANCE"})
    assert errors(FOG_OF_WAR, position, "FRANCE", ["A BUR D", "F BRE D", "A MAR D", "A BUR D"]) == [
        None,
        None,
        "FRANCE must remove 2 units this Winter, and lines 1 and 2 already remove them: delete this line or one of those",
        "A BUR is already removed, on line 1 ('A BUR D'): delete this line",
    ]


@pytest.mark.parametrize(
    ("variant", "phase", "units", "expected"),
    [
        # fog-of-war: the Fall retreats' report is read when Winter's builds are filed.
        (
            FOG_OF_WAR,
            "F1901R",
            ["A SPA", "F POR", "A PAR"],
            "Winter 1901: you may build 2 units (free to build in: BRE, MAR)",
        ),
        (
            FOG_OF_WAR,
            "F1901R",
            ["A SPA", "F POR", "A PAR", "A BUR", "A PIC"],
            "Winter 1901: you neither build nor remove",
        ),
        # deadman: builds in any owned centre, filed with the next Spring's orders.
        (
            DEADMAN,
            "F1901R",
            ["A SPA", "F POR", "A PAR"],
            "Winter 1901: you may build 2 units (free to build in: BRE, MAR); file them with the Spring 1902 orders",
        ),
    ],
)
def test_the_report_before_winter_says_how_many_builds_are_due(
    variant: Variant, phase: str, units: list[str], expected: str
) -> None:
    position = Position.of({"FRANCE": units}, phase, centers={"PAR": "FRANCE", "MAR": "FRANCE", "BRE": "FRANCE"})
    played = variant.play(position, {})
    assert played.position.name == "W1901A"
    assert notices(played, "FRANCE", "adjustments") == [expected]
    assert expected in observation_text(played.observations["FRANCE"])


def test_removals_due_are_told_before_winter() -> None:
    position = Position.of({"FRANCE": ["A PAR", "A BUR", "A PIC", "A GAS"]}, "F1901R", centers={"PAR": "FRANCE"})
    played = FOG_OF_WAR.play(position, {})
    assert notices(played, "FRANCE", "adjustments") == ["Winter 1901: you must remove 3 units"]


def test_sighting_says_where_winter_is_filed() -> None:
    """Seed 001 files Winter's adjustments with the Fall orders, before the Fall is played: the
    Spring report says so, and what the power owns and has now."""
    played = SIGHTING.play(SIGHTING.start(), {})
    assert played.position.name == "F1901M"
    assert notices(played, "FRANCE", "adjustments") == [
        "Winter 1901: builds and removals are filed with the Fall 1901 orders and counted once the Fall is "
        "played; you own 3 centres and have 3 units now"
    ]


# --- 3. an order out of its phase ----------------------------------------------------------------


def test_an_order_out_of_its_phase_gets_one_message_in_every_phase() -> None:
    """ "A PAR B" in a retreat phase said "FRANCE has no dislodged unit in PAR", while a movement
    phase gave a clear message. Every phase now names itself and what it takes, whether or
    not the power has a unit there."""
    attacked = Position.of({"FRANCE": ["A BUR", "A PAR"], "GERMANY": ["A MUN", "A RUH"]}, "S1901M")
    retreat = FOG_OF_WAR.play(attacked, {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]}).position
    assert errors(FOG_OF_WAR, retreat, "FRANCE", ["A PAR B", "A BRE B", "A PAR H"]) == [
        "this turn (S1901R) has no adjustments: it plays retreats only, where a dislodged unit retreats (R) or "
        "disbands (D); builds, removals and WAIVE are filed in the Winter turn",
    ] * 2 + [
        "this turn (S1901R) has no movement: it plays retreats only, where a dislodged unit retreats (R) or disbands (D)"
    ]
    movement = FOG_OF_WAR.start()
    assert errors(FOG_OF_WAR, movement, "FRANCE", ["A PAR B", "WAIVE", "A PAR R GAS"]) == [
        "this turn (S1901M) has no adjustments: it plays movement only, where units hold (H), move (-), support (S) "
        "or convoy (C); builds, removals and WAIVE are filed in the Winter turn",
    ] * 2 + [
        "this turn (S1901M) has no retreats: it plays movement only, where units hold (H), move (-), support (S) "
        "or convoy (C)"
    ]
    adjustments = winter({"FRANCE": ["A PAR"]}, {"PAR": "FRANCE", "MAR": "FRANCE"})
    assert errors(FOG_OF_WAR, adjustments, "FRANCE", ["A PAR - BUR"]) == [
        "this turn (W1901A) has no movement: it plays adjustments only, where a power builds (B), removes (D) "
        "or waives a build (WAIVE)"
    ]


# --- 4. one wrong line of a free setup ---------------------------------------------------------------


def test_a_wrong_setup_line_is_refused_alone() -> None:
    """Deadman's free setup refused all four lines with "only one unit may start in BER" when one
    was wrong. Each line has its own verdict, and the turn places the good ones."""
    lines = ["A BER", "A BER", "F KIE", "A MUN"]
    twice = "only one unit may start in BER, and line 1 ('A BER') places one there: delete this line or line 1"
    assert errors(DEADMAN, DEADMAN.start(), "GERMANY", lines) == [None, twice, None, None]
    played = DEADMAN.play(DEADMAN.start(), {"GERMANY": lines})
    assert {str(u) for u in played.position.state.units_of("GERMANY")} == {"A BER", "F KIE", "A MUN"}
    assert notices(played, "GERMANY", "rejected") == [f"Setup 'A BER' was not accepted: {twice}"]


# --- 5. the heading of a combined turn; a peek at one's own province ---------------------------------


def test_a_combined_turn_is_headed_with_what_it_holds() -> None:
    """Deadman's Winter and Spring turn was headed "Winter 1901 adjustments (W1901A)" while it
    held the Spring 1902 movement results."""
    position = winter({"GERMANY": ["A KIE"]}, {"BER": "GERMANY", "KIE": "GERMANY", "MUN": "GERMANY"}, DEADMAN)
    played = DEADMAN.play(position, {"GERMANY": ["A BER B", "A BER - SIL"]})
    title = observation_text(played.observations["GERMANY"]).splitlines()[0]
    assert title == "GERMANY, Winter 1901 adjustments and Spring 1902 movement (W1901A), deadman"
    fall = SIGHTING.play(SIGHTING.start(), {}).position
    title = observation_text(SIGHTING.play(fall, {}).observations["FRANCE"]).splitlines()[0]
    assert title == "FRANCE, Fall 1901 movement and retreats, and Winter 1901 adjustments (F1901M), sighting"


def test_a_peek_at_ones_own_province_is_not_news() -> None:
    """Peeking at a province one's own unit holds at the end of the season tells nothing new;
    the answer says so. A peek where one's unit moved away is a real question."""
    position = Position.of({"FRANCE": ["A PAR", "A BUR"], "GERMANY": ["A MUN"]}, "S1902M")
    played = DEADMAN.play(position, {"FRANCE": ["A PAR H", "PAS PAR"]})
    assert notices(played, "FRANCE", "peek") == ["PAS PAR: your own A PAR stands there; a peek tells only of others"]
    played = DEADMAN.play(position, {"FRANCE": ["A BUR - PIC", "PAS BUR"], "GERMANY": ["A MUN - BUR"]})
    assert notices(played, "FRANCE", "peek") == ["PAS BUR: occupied"]


# --- 6. a failed retreat ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        ([], "Your A BUR was disbanded: it had no retreat order"),
        (
            ["A BUR R MUN"],
            "Your A BUR was disbanded: its retreat to MUN bounced (the place was not free, or another unit "
            "retreated there too)",
        ),
    ],
)
def test_a_failed_retreat_says_the_unit_was_disbanded_and_why(lines: list[str], expected: str) -> None:
    attacked = Position.of({"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH"]}, "S1901M")
    retreat = FOG_OF_WAR.play(attacked, {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]}).position
    played = FOG_OF_WAR.play(retreat, {"FRANCE": lines})
    assert not played.position.state.units_of("FRANCE")
    assert notices(played, "FRANCE", "disbanded") == [expected]
    assert notices(played, "GERMANY", "disbanded") == []
