"""Orders filed ahead and conditional orders: seed 001 (Fog of War Diplomacy, 1976 rules) files
retreats and adjustments with the Fall orders; seed 002 (Deadman) files Winter's builds with
the next Spring's orders. Each test's docstring quotes the seed text it checks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fogdip.documents import state_from_document
from fogdip.engine import GameState, InvalidOrder, Unit, adjudicate, get_rules
from fogdip.fog import SightingRules
from fogdip.variants import Variant, compose, preset
from fogdip.variants.conditional import Sight, TurnContext, check_filed_line, select_adjustments, select_retreats
from fogdip.variants.lines import parse_conditions, read_lines, route_lines, split_line
from views import text, texts

RULES = get_rules()
SIGHTING = preset("sighting")


def position(
    units: Mapping[str, Sequence[str]], phase: str, centers: Mapping[str, Sequence[str]] | None = None
) -> GameState:
    doc: dict[str, Any] = {"phase": phase, "units": dict(units), "centers": dict(centers or {})}
    state, _rules, _orders = state_from_document(doc)
    return state


def sight(state: GameState, power: str) -> Sight:
    """Seed 001's sight at filing time, as the turn computes it."""
    rules = SightingRules()
    return Sight(
        lambda kind, location: rules.sees_unit_at(state, power, kind, location),
        lambda: rules.visible_provinces(state, power),
    )


BLIND = Sight(lambda kind, location: False, frozenset)


def retreats(state: GameState, power: str, texts: list[str], context: TurnContext) -> list[str]:
    """The retreat orders chosen from lines filed ahead, as text."""
    lines = read_lines(texts, ("R",), state.board, SIGHTING)
    return [str(order) for _text, order in select_retreats(state, power, lines, context, RULES)]


def adjustments(state: GameState, power: str, texts: list[str], context: TurnContext) -> list[str]:
    """The adjustment orders chosen from lines filed ahead, as text."""
    lines = read_lines(texts, ("A",), state.board, SIGHTING)
    return [str(order) for _text, order in select_adjustments(state, power, lines, context, RULES)]


def reason(text: str, state: GameState, power: str, options: Any = SIGHTING, seen: Sight | None = None) -> str | None:
    """The reason ``check_filed_line`` gives, or ``None`` if it accepts the line."""
    try:
        check_filed_line(text, state, power, options, sight(state, power) if seen is None else seen)
    except InvalidOrder as exc:
        return exc.reason
    return None


# --- routing ---------------------------------------------------------------------------------


def test_route_fall_turn() -> None:
    """ "Each player will provide the GM with a list of adjustments (builds and removals) with
    each set of Fall orders" and retreat guesses "must be provided to the GM with the orders for
    the turn after which they might be needed": one list, split by sub-phase, order kept."""
    lines = [
        "A PAR - BUR",
        "F NTH R NWG",
        "F NTH - NWG",
        "A PAR B",
        "BUILD F BRE",
        "WAIVE",
        "A MUN D",
        "F LON S F NTH - NWG",
        "retreat: F ENG D",
        "adjust: A KIE D",
        "Move: A RUH - BEL",
        "F NTH R DISBAND",
        "IF F NTH DISLODGED THEN F NTH R EDI",
        "IF A BEL - HOL: A PAR B",
        "F STP (sc) B",
        "disband A BER",
    ]
    assert route_lines(lines, ("M", "R", "A")) == {
        "M": ["A PAR - BUR", "F NTH - NWG", "F LON S F NTH - NWG", "A RUH - BEL"],
        "R": ["F NTH R NWG", "F ENG D", "F NTH R DISBAND", "IF F NTH DISLODGED THEN F NTH R EDI"],
        "A": [
            "A PAR B",
            "BUILD F BRE",
            "WAIVE",
            "A MUN D",
            "A KIE D",
            "IF A BEL - HOL THEN A PAR B",
            "F STP (sc) B",
            "disband A BER",
        ],
    }


def test_route_spring_turn() -> None:
    """Spring plays movement and its retreats as one turn: a plain disband is a retreat-phase
    disband there; a build has no sub-phase in the turn and is kept apart (the turn ignores it,
    check_filed_line rejects it)."""
    assert route_lines(["A PAR - BUR", "A MUN D", "F NTH R NWG", "A PAR B", "adjust: WAIVE"], ("M", "R")) == {
        "M": ["A PAR - BUR"],
        "R": ["A MUN D", "F NTH R NWG"],
        "A": ["A PAR B", "WAIVE"],
    }


def test_route_winter_spring_turn() -> None:
    """Deadman: "you will know your status prior to the Winter/Spring combination order". Builds
    and removals go to Winter, the rest (Deadman's own orders too) to Spring."""
    lines = [
        "A PAR B",
        "F NTH - NWG",
        "A MUN D",
        "F NTH DB",
        "F NTH E FRANCE",
        "PAS NTH",
        "WAIVE",
        "MOVE: A BUR D",
        "A PAR - PIC",
    ]
    assert route_lines(lines, ("A", "M")) == {
        "A": ["A PAR B", "A MUN D", "WAIVE"],
        "M": ["F NTH - NWG", "F NTH DB", "F NTH E FRANCE", "PAS NTH", "A BUR D", "A PAR - PIC"],
    }


def test_route_single_kind_takes_everything() -> None:
    routed = route_lines(["A PAR B", "F NTH R NWG", "RETREAT: A PAR - BUR"], ("M",))
    assert routed == {"M": ["A PAR B", "F NTH R NWG", "A PAR - BUR"]}


def test_route_hyphens() -> None:
    """A hyphen between words is part of a name or a move written without spaces; Deadman's
    "F Nth-Disbands" is its movement-phase disband."""
    routed = route_lines(["F Mid-Atlantic Ocean R NAO", "A PAR-BUR", "F Nth-Disbands", "A Par -> Bur"], ("M", "R", "A"))
    assert routed["M"] == ["A PAR-BUR", "F Nth-Disbands", "A Par -> Bur"]
    assert routed["R"] == ["F Mid-Atlantic Ocean R NAO"] and routed["A"] == []


def test_route_unreadable_conditional_goes_to_the_engine() -> None:
    assert route_lines(["IF F NTH DISLODGED F NTH R NWG"], ("M", "R", "A"))["M"] == ["IF F NTH DISLODGED F NTH R NWG"]


POOL = [
    "A PAR - BUR",
    "F NTH R NWG",
    "A PAR B",
    "WAIVE",
    "A MUN D",
    "PAS NTH",
    "IF A BEL - HOL: WAIVE",
    "RETREAT: F NTH D",
    "move: A PAR D",
    "IF F NTH DISLODGED",
    "",
]


@given(st.lists(st.sampled_from(POOL), max_size=12), st.sampled_from([("M", "R", "A"), ("M", "R"), ("A", "M"), ("M",)]))
def test_route_keeps_every_line_once_in_order(lines: list[str], kinds: tuple[str, ...]) -> None:
    """Routing is line by line: the list routed whole is the lines routed one at a time,
    gathered by sub-phase in the order filed."""
    expected: dict[str, list[str]] = {kind: [] for kind in kinds}
    for line in lines:
        for kind, part in route_lines([line], kinds).items():
            expected.setdefault(kind, []).extend(part)
    assert route_lines(lines, kinds) == expected
    assert sum(len(part) for part in expected.values()) == len(lines)


# --- conditional syntax ------------------------------------------------------------------------


def test_conditional_syntax_forms() -> None:
    """ "Conditional retreat orders based on a foreign unit's move are permitted." """
    board = GameState.initial().board
    for written in (
        "IF A BEL - HOL AND NOT F NTH DISLODGED THEN F NTH R EDI",
        "if a bel -> hol and not f nth dislodged: f nth r edi",
        "IF Army Belgium moves to Holland AND NOT F North Sea is dislodged THEN F NTH R EDI",
    ):
        line = split_line(written)
        assert [str(c) for c in parse_conditions(line, board, written)] == ["A BEL - HOL", "NOT F NTH DISLODGED"]
        assert line.order.upper() == "F NTH R EDI"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("IF F NTH DISLODGED F NTH R NWG", "needs THEN"),
        ("IF THEN F NTH R NWG", "IF needs a condition"),
        ("IF F NTH DISLODGED THEN", "nothing follows THEN"),
        ("IF A XYZ - HOL THEN WAIVE", "unknown province 'XYZ'"),
        ("IF A PAR H THEN WAIVE", "is not understood"),
    ],
)
def test_conditional_syntax_errors(text: str, fragment: str) -> None:
    state = position({"ENGLAND": ["F NTH"]}, "F1901M")
    message = reason(text, state, "ENGLAND")
    assert message is not None and fragment in message


def test_conditions_need_the_option() -> None:
    state = position({"ENGLAND": ["F NTH"]}, "F1901M")
    options = compose("standard", fall_winter_combined=True)
    expected = "conditional orders are not allowed in this variant"
    assert reason("IF F NTH DISLODGED THEN F NTH R NWG", state, "ENGLAND", options) == expected
    assert reason("F NTH R NWG", state, "ENGLAND", options) is None


def test_only_orders_filed_ahead_may_be_conditional() -> None:
    state = position({"ENGLAND": ["F NTH"]}, "F1901M")
    message = reason("IF F NTH DISLODGED THEN F NTH - NWG", state, "ENGLAND")
    assert message is not None and "only retreats and adjustments filed ahead may be conditional" in message


def test_adjustments_only_with_fall_orders() -> None:
    """ "a list of adjustments (builds and removals) with each set of Fall orders" """
    spring = position({"FRANCE": ["A PAR"]}, "S1901M")
    expected = (
        "this turn (S1901M) has no adjustments: it plays movement and retreats; "
        "builds, removals and WAIVE are filed with the Fall orders"
    )
    assert reason("F BRE B", spring, "FRANCE") == expected
    assert reason("A PAR R BUR", spring, "FRANCE") is None


# --- what a condition may name -------------------------------------------------------------------


def test_condition_outside_sight_rejected_inside_accepted() -> None:
    """ "a player can specify only those exact spaces where he could see the foreign unit":
    France's A PIC sees BEL (A Pic-Bel is legal) but not HOL."""
    state = position({"FRANCE": ["A PIC", "A GAS"], "GERMANY": ["A BEL"]}, "F1901M")
    seen = sight(state, "FRANCE").visible()
    assert "BEL" in seen and "HOL" not in seen
    message = reason("IF A BEL - HOL THEN A PIC R PAR", state, "FRANCE")
    assert message is not None
    assert message == (
        "IF A BEL - HOL: you could not see an army in HOL; conditions may name only places where your units "
        "could see the foreign unit: " + ", ".join(sorted(seen))
    )
    assert reason("IF A BEL - BUR THEN A PIC R PAR", state, "FRANCE") is None
    assert reason("IF NOT A BEL - PIC: A PAR B", state, "FRANCE") is None
    assert "could not see an army in MUN" in (reason("IF A MUN - BUR THEN A PAR B", state, "FRANCE") or "")


def test_own_moves_are_always_seen() -> None:
    """ "A player always sees his own units, too": a condition on an own unit's move needs no
    sight, but the unit must be written as it is."""
    state = position({"FRANCE": ["A PAR"]}, "F1901M")
    assert reason("IF A PAR - PIC THEN A PAR B", state, "FRANCE", seen=BLIND) is None
    expected = "IF F PAR - PIC: your unit in PAR is A PAR"
    assert reason("IF F PAR - PIC THEN A PAR B", state, "FRANCE", seen=BLIND) == expected


def test_dislodged_conditions_name_own_units() -> None:
    state = position({"FRANCE": ["A PAR"], "GERMANY": ["A BUR"]}, "F1901M")
    assert reason("IF A PAR DISLODGED THEN A PAR R PIC", state, "FRANCE") is None
    expected = "IF A BUR DISLODGED: you have no unit in BUR; DISLODGED conditions may name only your own units"
    assert reason("IF A BUR DISLODGED THEN A PAR B", state, "FRANCE") == expected


CONDITIONS = [
    "IF A BEL - HOL THEN A PIC R PAR",
    "IF BUR - MUN: A PAR B",
    "IF F NTH DISLODGED THEN WAIVE",
    "IF A BUR DISLODGED THEN WAIVE",
    "IF NOT F ENG - BRE THEN F BRE B",
    "IF A BEL - PIC THEN A PIC R PAR",
    "A BEL R HOL",
    "A MUN B",
    "A PIC R BEL",
]
SPACES = ["BEL", "HOL", "BUR", "MUN", "NTH", "ENG", "BRE", "RUH", "KIE"]


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(CONDITIONS),
    st.dictionaries(st.sampled_from(SPACES), st.sampled_from(["GERMANY", "ENGLAND"]), max_size=6),
)
def test_reasons_never_depend_on_foreign_units(text: str, foreign: dict[str, str]) -> None:
    """Whatever foreign units stand anywhere, what France is told about a line is the same:
    the check reads only its own units, the map and its sight."""
    own = {"FRANCE": ["A PIC", "A PAR"]}
    bare = position(own, "F1901M")
    units: dict[str, list[str]] = {"FRANCE": list(own["FRANCE"])}
    for space, power in foreign.items():
        units.setdefault(power, []).append(("F " if space in ("NTH", "ENG") else "A ") + space)
    crowded = position(units, "F1901M")
    seen = sight(bare, "FRANCE")
    assert reason(text, crowded, "FRANCE", seen=seen) == reason(text, bare, "FRANCE", seen=seen)


# --- lines filed ahead must name the power's own units and possible centres -------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A BUR R MUN", "you have no unit in BUR to retreat"),
        ("F PAR R PIC", "your unit in PAR is A PAR"),
        ("A PAR R MUN", "A PAR could never retreat to MUN: it is not one move away"),
        (
            "RETREAT: A PAR H",
            "A PAR H is a movement order, not a retreat: a retreat is '<unit> R <province>' or '<unit> D'",
        ),
        ("A MUN B", "MUN is not a home centre of FRANCE"),
        ("A BUR B", "BUR is not a supply centre"),
        ("A MAO B", "MAO is not a supply centre"),
        ("A MAO D", "an army cannot stand in Mid-Atlantic Ocean"),
        ("F STP B", "STP is not a home centre of FRANCE"),
        ("F MAR S A PAR", None),
        (
            "ADJUST: A PAR - BUR",
            "A PAR - BUR is a movement order, not an adjustment: "
            "an adjustment is a build ('A PAR B'), a removal ('A PAR D') or WAIVE",
        ),
        ("A PAR R PIC", None),
        ("A PAR R DISBAND", None),
        ("F BRE B", None),
        ("A MUN D", None),
        ("WAIVE", None),
    ],
)
def test_filed_ahead_lines(text: str, expected: str | None) -> None:
    """Retreat guesses name the power's own units; a build names a centre it could own (who owns
    what is only known once the Fall is played, so that is left to the engine)."""
    state = position({"FRANCE": ["A PAR", "F MAR"], "GERMANY": ["A BUR"]}, "F1901M")
    assert reason(text, state, "FRANCE") == expected


def test_builds_in_any_owned_centre() -> None:
    """Deadman: "You may build a unit in any center that you controlled during the last fall
    order!" With the option, any supply centre may be named; a fleet still needs its coast."""
    options = compose("sighting", build_in_any_owned_center=True)
    state = position({"FRANCE": ["A PAR"]}, "F1901M")
    assert reason("A MUN B", state, "FRANCE", options) is None
    assert reason("F STP B", state, "FRANCE", options) == "name the coast for a fleet in STP: STP/NC or STP/SC"
    assert reason("F MUN B", state, "FRANCE", options) == "a fleet cannot stand in Munich"


# --- retreats ---------------------------------------------------------------------------------


@pytest.fixture()
def fall_attack() -> tuple[GameState, TurnContext]:
    """France dislodges Germany's A BUR from GAS, supported from PIC; Germany's A KIE moves to DEN."""
    state = position(
        {"FRANCE": ["A GAS", "A PIC"], "GERMANY": ["A BUR", "A KIE"]},
        "F1901M",
        {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["MUN", "BER", "KIE"]},
    )
    record = adjudicate(state, {"FRANCE": ["A GAS - BUR", "A PIC S A GAS - BUR"], "GERMANY": ["A KIE - DEN"]})
    assert str(record.after.phase) == "F1901R" and "BUR" in record.after.dislodged
    return record.after, TurnContext(record.moves, frozenset(record.dislodged))


def test_first_legal_line_wins(fall_attack: tuple[GameState, TurnContext]) -> None:
    """ "a player is forced to make an educated guess about which units can be dislodged and
    which spaces may be available for retreats": the first guess that works is used. GAS is the
    attacker's origin and PIC is occupied, so those guesses are skipped."""
    state, context = fall_attack
    lines = ["A BUR R GAS", "A BUR R PIC", "A KIE R HOL", "A BUR R MUN", "A BUR R RUH"]
    assert retreats(state, "GERMANY", lines, context) == ["A BUR R MUN"]


def test_disband_line(fall_attack: tuple[GameState, TurnContext]) -> None:
    state, context = fall_attack
    lines = ["F BUR R MUN", "A BUR R DISBAND", "A BUR R MUN"]
    assert retreats(state, "GERMANY", lines, context) == ["A BUR D"]


def test_condition_on_own_dislodgement(fall_attack: tuple[GameState, TurnContext]) -> None:
    state, context = fall_attack
    lines = ["IF NOT A BUR DISLODGED THEN A BUR R MUN", "IF A BUR DISLODGED THEN A BUR R RUH", "A BUR R MUN"]
    assert retreats(state, "GERMANY", lines, context) == ["A BUR R RUH"]


def test_condition_on_a_foreign_move(fall_attack: tuple[GameState, TurnContext]) -> None:
    """ "Conditional retreat orders based on a foreign unit's move are permitted": with the
    French move GAS - BUR made, the line conditioned on it is used; had it not been, the next."""
    state, context = fall_attack
    lines = ["IF F GAS - BUR THEN A BUR R BEL", "IF A GAS - BUR THEN A BUR R RUH", "A BUR R MUN"]
    assert retreats(state, "GERMANY", lines, context) == ["A BUR R RUH"]
    quiet = TurnContext({"KIE": "DEN"}, context.dislodged)
    assert retreats(state, "GERMANY", lines, quiet) == ["A BUR R MUN"]
    assert retreats(state, "GERMANY", ["IF NOT A GAS - BUR: A BUR R RUH"], quiet) == ["A BUR R RUH"]


def test_no_usable_line_disbands(fall_attack: tuple[GameState, TurnContext]) -> None:
    """With no usable guess the unit gets no order, and the engine disbands it."""
    state, context = fall_attack
    chosen = retreats(state, "GERMANY", ["A BUR R GAS", "IF A GAS - PAR THEN A BUR R MUN"], context)
    assert chosen == []
    after = adjudicate(state, {"GERMANY": chosen}).after
    assert [str(u) for u in after.units_of("GERMANY")] == ["A DEN"]


def test_foreign_dislodgement_never_counts(fall_attack: tuple[GameState, TurnContext]) -> None:
    """A DISLODGED condition naming another power's unit is rejected when filed; if one slipped
    through it would still never hold, so it teaches nothing."""
    state, context = fall_attack
    assert retreats(state, "FRANCE", ["IF A BUR DISLODGED THEN A GAS R PAR"], context) == []


# --- adjustments ------------------------------------------------------------------------------


def winter(fall: GameState, context: TurnContext, retreats: Mapping[str, list[str]]) -> tuple[GameState, TurnContext]:
    record = adjudicate(fall, retreats)
    return record.after, TurnContext({**context.moves, **record.moves}, context.dislodged)


def test_conditional_builds(fall_attack: tuple[GameState, TurnContext]) -> None:
    """ "Conditional adjustments based on a foreign power's moves or retreats are permitted" """
    state, context = winter(*fall_attack, {"GERMANY": ["A BUR R MUN"]})
    assert str(state.phase) == "W1901A"
    lines = ["IF A GAS - PAR THEN A KIE B", "IF A BUR - MUN THEN F KIE B", "IF NOT A KIE - DEN: A BER B", "A BER B"]
    chosen = adjustments(state, "GERMANY", lines, context)
    assert chosen == ["F KIE B", "A BER B"]
    record = adjudicate(state, {"GERMANY": chosen})
    assert {str(u) for u in record.builds} == {"F KIE", "A BER"}


def test_no_adjustments_filed() -> None:
    """ "Failure to provide adjustments with Fall orders will result in no builds for that
    player or removals per Civil Disorder Rules, as necessary." """
    state = position(
        {"FRANCE": ["A PAR", "A BUR", "A PIC"], "GERMANY": ["A MUN"]},
        "W1901A",
        {"FRANCE": ["PAR"], "GERMANY": ["MUN", "BER", "KIE"]},
    )
    chosen = {p: adjustments(state, p, [], TurnContext()) for p in ("FRANCE", "GERMANY")}
    assert chosen == {"FRANCE": [], "GERMANY": []}
    record = adjudicate(state, chosen)
    assert record.builds == () and len(record.removals) == 2
    assert all(u.power == "FRANCE" for u in record.removals)


# --- whole turns --------------------------------------------------------------------------------


def test_sighting_fall_turn_end_to_end() -> None:
    """Seed 001: retreat guesses "must be provided to the GM with the orders for the turn after
    which they might be needed", adjustments come "with each set of Fall orders", and "After a
    Winter adjustment season has been adjudicated, the GM provides each player with information
    about which supply centers he controls and what adjustments he just made." """
    variant = Variant.named("sighting")
    spring = variant.play(
        variant.start(),
        {
            "FRANCE": ["A PAR - PIC", "A MAR - GAS", "F BRE - MAO", "F MAO R NAO"],
            "GERMANY": ["A MUN - BUR", "F KIE - HOL", "A BER - KIE", "A BUR R MUN"],
            "ITALY": ["F NAP - ION"],
        },
    )
    assert spring.turn == "S1901M" and spring.position.name == "F1901M"
    fall = variant.play(
        spring.position,
        {
            "FRANCE": [
                "A GAS - BUR",
                "A PIC S A GAS - BUR",
                "F MAO - POR",
                "F BRE B",
                "A PAR B",
                "IF NOT A BUR - PAR THEN A MAR B",
            ],
            "GERMANY": [
                "A BUR H",
                "F HOL H",
                "A KIE - DEN",
                "A BUR R GAS",
                "IF A GAS - BUR THEN A BUR R MUN",
                "A BUR R RUH",
                "adjust: A BER B",
                "F KIE B",
                "A MUN B",
            ],
            "ITALY": ["F ION - TUN"],
        },
    )
    assert fall.turn == "F1901M" and fall.position.name == "S1902M"
    assert [r.phase for r in fall.resolutions] == ["F1901M", "F1901R", "W1901A"]
    units = {str(u): u.power for u in fall.position.state.units.values()}
    assert {"A MUN", "A BER", "F KIE", "F BRE"} <= set(units) and units["A MUN"] == units["F KIE"] == "GERMANY"
    assert "A PAR" not in units and "A MAR" not in units  # France had one build: F BRE, filed first
    assert sum(u.power == "ITALY" for u in fall.position.state.units.values()) == 3  # Italy filed no adjustments
    germany = fall.observations["GERMANY"]
    assert {"A BUR R MUN", "A BER B", "F KIE B"} <= set(texts(germany))
    assert "A BUR R GAS" not in texts(germany)
    assert {"HOL", "DEN"} <= {c for c, owner in germany.centers if owner == "GERMANY"}
    france = fall.observations["FRANCE"]
    assert "F BRE B" in texts(france) and ("POR", "FRANCE") in france.centers
    assert all(o.power == "FRANCE" for o in france.orders if text(o) in ("F BRE B", "A PAR B"))


def test_winter_spring_combined_turn() -> None:
    """Seed 002: builds are filed with the Spring orders ("the Winter/Spring combination
    order"). Winter is played first, so a Spring order for a unit built that Winter is obeyed.
    A build beyond those due is refused when filed, and so is a Spring order for a unit the
    power neither has nor builds: both with reasons that name only the power's own affairs."""
    variant = Variant(compose("standard", winter_spring_combined=True))
    position = variant.play(variant.start(), {"GERMANY": ["F KIE - HOL", "A MUN - RUH", "A BER - KIE"]}).position
    position = variant.play(position, {"GERMANY": ["F HOL H", "A KIE - DEN"]}).position
    assert position.name == "W1901A" and variant.turn_kinds(position) == ("A", "M")
    lines = ["A BER B", "A BER - SIL", "A MUN B", "A MUN - TYR", "F KIE B", "F KIE - BAL"]
    played = variant.play(position, {"GERMANY": lines})
    assert [r.phase for r in played.resolutions] == ["W1901A", "S1902M"] and played.position.name == "F1902M"
    state = played.position.state
    assert state.unit_at("SIL") == Unit("GERMANY", "A", "SIL") and state.unit_at("TYR") == Unit("GERMANY", "A", "TYR")
    assert state.unit_at("KIE") is None
    assert played.resolutions[0].rejected == played.resolutions[1].rejected == ()
    too_many = (
        "GERMANY may build 2 units this Winter, and lines 1 and 3 already build or waive them: "
        "delete this line or one of those"
    )
    expected = [("F KIE B", too_many), ("F KIE - BAL", "GERMANY has no unit in KIE")]
    assert [(r.text, str(r.reason)) for r in played.rejected] == expected
    notices = [n.text for n in played.observations["GERMANY"].notices_of("rejected")]
    assert sorted(notices) == sorted(f"Order {text!r} was not accepted: {why}" for text, why in expected)
    assert [(c.text, c.error) for c in variant.screen(position, "GERMANY", lines) if not c.ok] == expected


def test_deadman_winter_spring_turn() -> None:
    """Deadman's own preset: free setup first ("If you say nothing prior to Spring 01, than I
    will note your starting position"), then the same Winter/Spring combination order."""
    variant = Variant.named("deadman")
    position = variant.play(variant.start(), {}).position
    position = variant.play(position, {"GERMANY": ["F KIE - HOL", "A MUN - RUH", "A BER - KIE"]}).position
    position = variant.play(position, {}).position
    position = variant.play(position, {"GERMANY": ["F HOL H", "A KIE - DEN"]}).position
    position = variant.play(position, {}).position
    assert position.name == "W1901A"
    played = variant.play(position, {"GERMANY": ["A BER B", "A BER - SIL"]})
    assert [r.phase for r in played.resolutions] == ["W1901A", "S1902M"]
    assert played.position.state.unit_at("SIL") == Unit("GERMANY", "A", "SIL")
