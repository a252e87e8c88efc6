"""The ``fog-of-war`` rules (seed 000, Fog of War, Michael Sims 2005).

The seed's sample round is played through: Spring, the Summer retreat season held though
nobody retreats, Fall, the Autumn retreat season, and Winter builds, with the seed's
alternatives. Each test quotes the seed. Then the readings the seed leaves open (retreats,
adjustments, revealed units), the options, and the leak properties: an observation mentions
nothing out of its own sight and revealed orders, and an unwatched foreign order changes
nothing a power observes.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from fogdip.bots.random_bot import random_orders
from fogdip.documents import state_from_document
from fogdip.engine import Dislodged, GameState, Order, Phase, Resolution, Unit, get_rules, legal_orders, standard_map
from fogdip.fog import FogOfWarRules, get_fog_rules
from fogdip.fog.observation import Observation
from views import as_json, mark, report, text, words

from strategies import adjudicate

RULES = FogOfWarRules()
ENGINE = get_rules().with_options(legality="map")
BOARD = standard_map()

HOMES = {
    "AUSTRIA": ["VIE", "BUD", "TRI"],
    "ENGLAND": ["LON", "EDI", "LVP"],
    "FRANCE": ["PAR", "MAR", "BRE"],
    "GERMANY": ["BER", "KIE", "MUN"],
    "ITALY": ["VEN", "ROM", "NAP"],
    "RUSSIA": ["WAR", "MOS", "SEV", "STP"],
    "TURKEY": ["ANK", "CON", "SMY"],
}

# The foreign orders of the sample Spring. The seed names only the German and French orders
# and England's fleet arriving in the North Sea; the rest keep away from Germany.
SPRING_FOREIGN = {
    "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"],
    "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
    "RUSSIA": ["A WAR - PRU", "A MOS - WAR", "F SEV - BLA", "F STP/SC - BOT"],
    "AUSTRIA": ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"],
    "ITALY": ["A VEN H", "A ROM - APU", "F NAP - ION"],
    "TURKEY": ["A CON - BUL", "A SMY - CON", "F ANK - BLA"],
}
# The seed's order list says "F Kie-Den", its adjudication "F Kie-Hol", and the Fall has the
# fleet in Holland: F Kie-Hol is followed.
SPRING_GERMANY = ["F KIE - HOL", "A BER - KIE", "A MUN - RUH"]

# Fall 1901 as the seed has it: France in Burgundy, an Italian army in Tyrolia and an Austrian
# one in Bohemia (the seed does not say how they came there; had they moved there this Spring,
# the Spring alternative with A Mun holding would have revealed it), England's fleet in the
# North Sea, Russian armies in Prussia and Warsaw for the Winter's "new units in Pru and Sil".
FALL_UNITS = {
    "GERMANY": ["F HOL", "A KIE", "A RUH"],
    "FRANCE": ["A BUR", "A MAR", "F MAO"],
    "ENGLAND": ["F NTH", "F NWG", "A YOR"],
    "RUSSIA": ["A PRU", "A WAR", "F SEV", "F BOT"],
    "AUSTRIA": ["A BOH", "A SER", "F ALB"],
    "ITALY": ["A TYR", "A APU", "F ION"],
    "TURKEY": ["A BUL", "A CON", "F ANK"],
}
FALL_GERMANY = ["A RUH - BEL", "F HOL S A RUH - BEL", "A KIE - DEN"]
FALL_FOREIGN = {
    "FRANCE": ["A BUR - MUN", "A MAR - SPA", "F MAO - POR"],
    "ITALY": ["A TYR - MUN", "A APU - TUN", "F ION C A APU - TUN"],
    "AUSTRIA": ["A BOH S A TYR - MUN", "A SER - GRE", "F ALB S A SER - GRE"],
    "ENGLAND": ["F NTH C A YOR - NWY", "A YOR - NWY", "F NWG S A YOR - NWY"],
    "RUSSIA": ["A WAR - SIL", "A PRU H", "F BOT - SWE", "F SEV H"],
    "TURKEY": ["A BUL H", "A CON H", "F ANK H"],
}


# --- helpers ------------------------------------------------------------------------------------


def position(units: Mapping[str, Sequence[str]], phase: str, centers: Mapping[str, Sequence[str]] = HOMES) -> GameState:
    state, _rules, _orders = state_from_document(
        {
            "phase": phase,
            "units": {p: list(u) for p, u in units.items()},
            "centers": {p: list(c) for p, c in centers.items()},
        }
    )
    return state


def held(resolution: Resolution) -> Resolution:
    """The seed's schedule ("we still wait for a summer season"): after a movement phase the
    retreat season is held even when the engine would skip it, and the centres change hands
    only after it. ``fogdip.variants`` plays the preset this way."""
    before, after = resolution.before, resolution.after
    retreat = Phase(before.phase.season, before.phase.year, "R")
    if before.phase.kind != "M" or after.phase == retreat:
        return resolution
    return dataclasses.replace(
        resolution,
        after=after.with_changes(phase=retreat, centers=before.centers, completed=False),
        skipped=(),
    )


def spring(germany: Sequence[str] = SPRING_GERMANY, **foreign: Sequence[str]) -> Resolution:
    return held(adjudicate(GameState.initial(), {**SPRING_FOREIGN, **foreign, "GERMANY": list(germany)}))


def fall(germany: Sequence[str] = FALL_GERMANY, **foreign: Sequence[str]) -> Resolution:
    state = position(FALL_UNITS, "F1901M")
    return held(adjudicate(state, {**FALL_FOREIGN, **foreign, "GERMANY": list(germany)}))


def autumn() -> Resolution:
    """The Autumn retreat season after the sample Fall: nobody retreats."""
    return adjudicate(fall().after, {})


def winter(builds: Sequence[str]) -> Resolution:
    return adjudicate(autumn().after, {"GERMANY": list(builds)})


def orders(seen: Observation, *, own: bool = False) -> list[tuple[str | None, str, tuple[str, ...] | None]]:
    """The foreign (or own) orders an observation reveals: (power, text, result)."""
    return [(o.power, text(o), words(o)) for o in seen.orders if (o.power == seen.power) == own]


def units(seen: Observation) -> set[str]:
    return {f"{u.owner} {u}" for u in seen.units}


def as_bytes(seen: Observation) -> str:
    return json.dumps(as_json(seen), sort_keys=True)


GERMANY = "GERMANY"


# --- the seed's sample round ------------------------------------------------------------------------


def test_seed_spring_no_enemy_orders() -> None:
    """ "Suppose Germany orders first turn moves of: F Kie-Den, A Ber-Kie, A Mun-Ruh. He get's
    this adjudication: F Kie-Hol (ok) A Ber-Kie (ok) A Mun-Ruh (ok). Since all his units were
    ordered to move, he only learns of orders happing in the spaces he ordered from, and to.
    Since no other units ordered anything affecting Kie, Den, Ber, Mun, or Ruh, Germany learns of
    no enemy orders." """
    seen = RULES.observe(spring(), GERMANY)
    assert orders(seen, own=True) == [
        (GERMANY, "A BER - KIE", ()),
        (GERMANY, "A MUN - RUH", ()),
        (GERMANY, "F KIE - HOL", ()),
    ]
    assert orders(seen) == []
    assert [mark(o) for o in seen.orders] == ["(ok)", "(ok)", "(ok)"]
    assert seen.visible == {"BEL", "BER", "BUR", "DEN", "HEL", "HOL", "KIE", "MUN", "NTH", "RUH"}
    assert units(seen) == {"GERMANY F HOL", "GERMANY A KIE", "GERMANY A RUH", "ENGLAND F NTH", "FRANCE A BUR"}
    assert seen.center_owners == {"BER": GERMANY, "KIE": GERMANY, "MUN": GERMANY}
    assert seen.next_phase == "S1901R"


@pytest.mark.parametrize("munich", ["A MUN H", "A MUN - BUR"])
def test_seed_spring_munich_holding_or_moving_to_burgundy(munich: str) -> None:
    """ "If he had instead ordered A Mun Holds or A Mun-Bur, he would have been revealed the
    French orders of A Par-Bur, and A Mar S A Par-Bur." The unit in Marseilles is revealed by its
    order, though Marseilles stays out of sight."""
    seen = RULES.observe(spring(["F KIE - HOL", "A BER - KIE", munich]), GERMANY)
    assert orders(seen) == [("FRANCE", "A MAR S A PAR - BUR", None), ("FRANCE", "A PAR - BUR", ())]
    own = dict((text, result) for _power, text, result in orders(seen, own=True))
    assert own[munich] == (() if munich == "A MUN H" else ("bounce",))
    assert units(seen) == {
        "GERMANY F HOL",
        "GERMANY A KIE",
        "GERMANY A MUN",
        "ENGLAND F NTH",
        "FRANCE A BUR",
        "FRANCE A MAR",
    }
    assert "MAR" not in seen.visible and "BUR" in seen.visible


def test_seed_fleet_in_the_north_sea_from_nowhere() -> None:
    """ "Notice Germany can see a fleet has arrived in the North Sea, but he has no knowledge of
    where it came from. He can't really be certain if England did Lon-ENG/Edi-NTH, or
    Lon-NTH/Edi-NWG." """
    one = RULES.observe(spring(ENGLAND=["F LON - NTH", "F EDI - NWG", "A LVP - YOR"]), GERMANY)
    other = RULES.observe(spring(ENGLAND=["F LON - ENG", "F EDI - NTH", "A LVP - YOR"]), GERMANY)
    assert "ENGLAND F NTH" in units(one)
    assert not [o for o in one.orders if o.power == "ENGLAND"]
    assert as_bytes(one) == as_bytes(other)


def test_seed_summer_is_held_and_tells_nothing() -> None:
    """ "Even tho Germany has no retreats due, we still wait for a summer season. That way one
    cannot determine what others ordered, by if there is a retreat round or not. In this case,
    Germany receives no new info after the Summer, and we move on to Fall." """
    movement = spring()
    summer = adjudicate(movement.after, {})
    after_moves, after_summer = RULES.observe(movement, GERMANY), RULES.observe(summer, GERMANY)
    assert after_moves.next_phase == "S1901R" and after_summer.next_phase == "F1901M"
    assert after_summer.orders == () and after_summer.notices == ()
    assert (after_summer.visible, after_summer.units, after_summer.centers) == (
        after_moves.visible,
        after_moves.units,
        after_moves.centers,
    )


def test_seed_fall_city_sees_the_moves_into_itself() -> None:
    """ "Germany orders: A Ruh-Bel, F Hol S A Ruh-Bel, A Kie-Den. He gets this adjudication: A
    Ruh-Bel (ok) F Hol S A Ruh-Bel (ok) A Kie-Den (ok) A Bur-Mun A Tyr-Mun A Boh S A Tyr-Mun ...
    Germany sees the 3 moves on Mun even tho he has no units adjacent to Munich, because the
    city sees moves into itself. It observes the two moves in, and the support from Boh. Thus
    the unit in Boh is revealed, but the space is still gray." """
    seen = RULES.observe(fall(), GERMANY)
    assert orders(seen, own=True) == [
        (GERMANY, "A KIE - DEN", ()),
        (GERMANY, "A RUH - BEL", ()),
        (GERMANY, "F HOL S A RUH - BEL", ()),
    ]
    assert orders(seen) == [
        ("AUSTRIA", "A BOH S A TYR - MUN", None),
        ("FRANCE", "A BUR - MUN", ("fails",)),
        ("ITALY", "A TYR - MUN", ()),
    ]
    assert "BOH" not in seen.visible
    assert seen.visible == {"BEL", "BER", "BUR", "DEN", "HEL", "HOL", "KIE", "MUN", "NTH", "PIC", "RUH", "SWE"}
    assert units(seen) == {
        "GERMANY A BEL",
        "GERMANY F HOL",
        "GERMANY A DEN",
        "AUSTRIA A BOH",
        "FRANCE A BUR",
        "ITALY A MUN",
        "ENGLAND F NTH",
        "RUSSIA F SWE",
    }
    # Munich is still German until the retreat season is over, so the city still sees.
    assert seen.center_owners == {"BER": GERMANY, "KIE": GERMANY, "MUN": GERMANY}


def test_seed_failed_move_is_known_to_fail_but_not_why() -> None:
    """ "If you observe a move that fails, you will know it failed, tho you might not know
    why." The French army bounced in Munich: Germany is told it failed, not that it bounced."""
    record = fall()
    assert record.result_of("BUR") is not None and record.result_of("BUR").results == ("bounce",)  # type: ignore[union-attr]
    seen = RULES.observe(record, GERMANY)
    [french] = [o for o in seen.orders if o.power == "FRANCE"]
    assert (text(french), words(french), mark(french)) == ("A BUR - MUN", ("fails",), "(fails)")


@pytest.mark.parametrize("north_sea", ["F NTH C A YOR - NWY", "F NTH H", "F NTH S A YOR - NWY", "F NTH S F NWG"])
def test_seed_busy_fleet_does_not_learn_the_english_order(north_sea: str) -> None:
    """ "Germany does not know what the English fleet ordered, because his own fleet in Holland
    was busy supporting another unit's movement." Whatever the fleet in the North Sea does
    there, Germany's report is the same to the byte."""
    base = RULES.observe(fall(), GERMANY)
    other = RULES.observe(fall(ENGLAND=[north_sea, "A YOR - NWY", "F NWG H"]), GERMANY)
    assert "ENGLAND F NTH" in units(base)
    assert as_bytes(other) == as_bytes(base)


def test_seed_holding_fleet_learns_the_english_order() -> None:
    """ "It observes what goes on in surrounding adjacent spaces only if ordered to Hold
    instead." """
    seen = RULES.observe(fall(["A RUH - BEL", "F HOL H", "A KIE - DEN"]), GERMANY)
    assert orders(seen) == [
        ("AUSTRIA", "A BOH S A TYR - MUN", None),
        ("ENGLAND", "F NTH C A YOR - NWY", None),
        ("FRANCE", "A BUR - MUN", ("fails",)),
        ("ITALY", "A TYR - MUN", ()),
    ]
    # The convoyed army is named in the order, but its owner is not known: it is not "seen".
    assert "ENGLAND A YOR" not in units(seen) and "ENGLAND A NWY" not in units(seen)


def test_seed_autumn_retreats_tell_nothing_new_and_the_lost_city_goes_dark() -> None:
    """ "Autumn Germany receives no new info after retreats." and "If your city is captured, it
    will go dark ... You will see the enemy unit move in on the movement phase, and then your
    city will go dark after the retreat phase." """
    seen = RULES.observe(autumn(), GERMANY)
    assert seen.phase == "F1901R" and seen.orders == ()
    assert "MUN" not in seen.visible and seen.unit_at("MUN") is None
    assert seen.center_owners == {
        "BEL": GERMANY,
        "BER": GERMANY,
        "DEN": GERMANY,
        "HOL": GERMANY,
        "KIE": GERMANY,
        "SWE": "RUSSIA",
    }
    assert [n.text for n in seen.notices] == ["You gained BEL", "You gained DEN", "You gained HOL", "You lost MUN"]
    assert not {"PRU", "SIL"} & seen.visible


def test_seed_winter_army_builds_reveal_prussia_and_silesia() -> None:
    """ "Builds Germany orders builds of A Ber, A Kie. ... He can now see two new units in Pru
    and Sil that he couldn't before!" """
    seen = RULES.observe(winter(["A BER B", "A KIE B"]), GERMANY)
    assert orders(seen, own=True) == [(GERMANY, "A BER B", ()), (GERMANY, "A KIE B", ())]
    assert orders(seen) == []
    assert {"PRU", "SIL", "MUN"} <= seen.visible
    assert units(seen) == {
        "GERMANY A BEL",
        "GERMANY A BER",
        "GERMANY A DEN",
        "GERMANY F HOL",
        "GERMANY A KIE",
        "RUSSIA A PRU",
        "RUSSIA A SIL",
        "RUSSIA F SWE",
        "ITALY A MUN",
        "FRANCE A BUR",
        "ENGLAND F NTH",
    }
    assert seen.center_owners["MUN"] == "ITALY"


def test_seed_winter_fleet_in_berlin_sees_prussia_and_the_baltic_not_silesia() -> None:
    """ "Had Germany built F Ber, he would only see the army in Pru - not Sil, Since Sil is not
    adjacent to Ber by water. But with a fleet, he would have revealed the Baltic sea
    instead." """
    seen = RULES.observe(winter(["F BER B", "A KIE B"]), GERMANY)
    assert {"PRU", "BAL"} <= seen.visible and "SIL" not in seen.visible
    assert "RUSSIA A PRU" in units(seen) and "RUSSIA A SIL" not in units(seen)


def test_seed_winter_two_fleets_leave_silesia_and_munich_dark() -> None:
    """ "If Germany had built 2 fleets in Ber / Kie, Both Sil and Mun would be dark! He would
    no longer be able to see Munich, since it is in enemy hands. He would also never know if
    another player swiped Munich from Italy, until he brings an army nearby." """
    seen = RULES.observe(winter(["F BER B", "F KIE B"]), GERMANY)
    assert not {"SIL", "MUN"} & seen.visible
    assert seen.unit_at("MUN") is None and seen.unit_at("SIL") is None
    assert "MUN" not in seen.center_owners
    assert units(seen) == {
        "GERMANY A BEL",
        "GERMANY F BER",
        "GERMANY A DEN",
        "GERMANY F HOL",
        "GERMANY F KIE",
        "RUSSIA A PRU",
        "RUSSIA F SWE",
        "FRANCE A BUR",
        "ENGLAND F NTH",
    }


# --- readings the seed leaves open ---------------------------------------------------------------


def test_movement_report_does_not_depend_on_the_engine_skipping_the_retreats() -> None:
    """Fed the engine's own record (retreats skipped, Fall centres already taken), the
    movement report is the one the held schedule gives, but for the phase named next."""
    state = position(FALL_UNITS, "F1901M")
    raw = adjudicate(state, {**FALL_FOREIGN, GERMANY: FALL_GERMANY})
    assert raw.after.centers["MUN"] == "ITALY"
    from_raw, from_held = as_json(RULES.observe(raw, GERMANY)), as_json(RULES.observe(held(raw), GERMANY))
    assert (from_raw.pop("next_phase"), from_held.pop("next_phase")) == ("W1901A", "F1901R")
    from_raw.pop("text"), from_held.pop("text")
    assert from_raw == from_held


def test_opening_sight() -> None:
    """Before Spring 1901: the home units' sight and the home centres themselves."""
    seen = RULES.initial(GameState.initial(), GERMANY)
    assert seen.visible == {"BAL", "BER", "BOH", "BUR", "DEN", "HEL", "HOL", "KIE", "MUN", "PRU", "RUH", "SIL", "TYR"}
    assert units(seen) == {"GERMANY F KIE", "GERMANY A BER", "GERMANY A MUN"}


def _retreat_game() -> Resolution:
    """Germany dislodges the French fleet in Brest; an Austrian attack dislodges the Italian
    army in Piedmont; Turkey dislodges the Russian army in Rumania, far from Germany."""
    state = position(
        {
            "GERMANY": ["A PIC", "A GAS"],
            "FRANCE": ["F BRE"],
            "ITALY": ["A PIE"],
            "AUSTRIA": ["A TYR", "A VEN"],
            "RUSSIA": ["A RUM"],
            "TURKEY": ["A BUL", "F BLA"],
        },
        "S1902M",
    )
    return adjudicate(
        state,
        {
            "GERMANY": ["A PIC - BRE", "A GAS S A PIC - BRE"],
            "AUSTRIA": ["A TYR - PIE", "A VEN S A TYR - PIE"],
            "TURKEY": ["A BUL - RUM", "F BLA S A BUL - RUM"],
        },
    )


def test_movement_own_dislodgement_notice_names_the_attack() -> None:
    """A unit always watches its own space, so the attack that dislodged it is a move it saw:
    the notice names where it came from."""
    seen = RULES.observe(_retreat_game(), "FRANCE")
    assert [n.text for n in seen.notices] == ["Your F BRE was dislodged by an attack from PIC"]
    assert ("GERMANY", "A PIC - BRE", ()) in orders(seen)


def test_retreats_out_of_and_into_sight() -> None:
    """A retreat is revealed in full when its unit was in sight as the season began, or it
    ends in sight; a retreat wholly out of sight is not."""
    movement = _retreat_game()
    before = RULES.observe(movement, GERMANY)
    assert "FRANCE *F BRE" in units(before) and "PIE" not in before.visible
    record = adjudicate(
        movement.after, {"FRANCE": ["F BRE R MAO"], "ITALY": ["A PIE R MAR"], "RUSSIA": ["A RUM R UKR"]}
    )
    seen = RULES.observe(record, GERMANY)
    assert orders(seen) == [("FRANCE", "F BRE R MAO", ()), ("ITALY", "A PIE R MAR", ())]
    assert "MAO" not in seen.visible and "MAR" in seen.visible
    assert {"FRANCE F MAO", "ITALY A MAR"} <= units(seen)


def test_a_retreat_clash_in_sight_is_known_to_fail() -> None:
    """Two units retreating to the same space both disband; a power watching knows the
    retreats failed."""
    state = position({"GERMANY": ["A BUR"], "FRANCE": ["A PAR"]}, "S1902R", centers={})
    state = state.with_changes(
        dislodged={
            "BRE": Dislodged(Unit("ENGLAND", "A", "BRE"), "PIC", ("GAS",)),
            "MAR": Dislodged(Unit("ITALY", "A", "MAR"), "PIE", ("GAS", "SPA")),
        }
    )
    seen = RULES.observe(adjudicate(state, {"ENGLAND": ["A BRE R GAS"], "ITALY": ["A MAR R GAS"]}), GERMANY)
    assert orders(seen) == [("ENGLAND", "A BRE R GAS", ("fails",)), ("ITALY", "A MAR R GAS", ("fails",))]
    assert seen.unit_at("GAS") is None


def test_adjustments_are_seen_as_units_not_orders() -> None:
    """A foreign build in sight shows as a new unit, a removal in sight as a unit gone; no
    foreign adjustment order is listed."""
    state = position(
        {"GERMANY": ["A SIL"], "RUSSIA": ["A GAL"], "AUSTRIA": ["A BOH", "A TYR"]},
        "W1901A",
        centers={"GERMANY": ["BER"], "RUSSIA": ["WAR", "MOS"], "AUSTRIA": ["VIE"]},
    )
    seen = RULES.observe(adjudicate(state, {"RUSSIA": ["A WAR B"], "AUSTRIA": ["A BOH D"]}), GERMANY)
    assert orders(seen) == []
    assert units(seen) == {"GERMANY A SIL", "RUSSIA A WAR", "RUSSIA A GAL"}
    assert "BOH" in seen.visible


def test_revealed_unit_dislodged_by_a_revealed_attack() -> None:
    """England's army, convoyed by a French fleet, bounces in Belgium: England watched Belgium
    without seeing it at the end, and knows the German army there was dislodged because the
    French attack that took Belgium was revealed to it."""
    state = position(
        {
            "ENGLAND": ["A LON"],
            "FRANCE": ["F ENG", "A PIC", "A BUR"],
            "GERMANY": ["A BEL"],
        },
        "S1902M",
        centers={},
    )
    record = adjudicate(
        state,
        {
            "ENGLAND": ["A LON - BEL VIA"],
            "FRANCE": ["F ENG C A LON - BEL", "A PIC - BEL", "A BUR S A PIC - BEL"],
            "GERMANY": ["A BEL H"],
        },
    )
    seen = RULES.observe(record, "ENGLAND")
    assert orders(seen, own=True) == [("ENGLAND", "A LON - BEL VIA", ("bounce",))]
    assert orders(seen) == [
        ("FRANCE", "A BUR S A PIC - BEL", None),
        ("FRANCE", "A PIC - BEL", ()),
        ("FRANCE", "F ENG C A LON - BEL", None),
        ("GERMANY", "A BEL H", None),
    ]
    assert seen.visible == {"LON", "WAL", "YOR"}
    assert units(seen) == {"ENGLAND A LON", "FRANCE A BEL", "GERMANY *A BEL", "FRANCE A BUR", "FRANCE F ENG"}


def test_revealed_supporter_out_of_the_watched_spaces_is_shown_where_it_stood() -> None:
    """The seed's supporter in Bohemia, dislodged by a Russian attack Germany does not watch:
    Germany learns the support and that both moves on Munich failed, not why, and sees the
    Austrian army where its order put it."""
    record = fall(RUSSIA=["A WAR - SIL", "A PRU - SIL", "F BOT - SWE", "F SEV H"])
    assert "BOH" not in record.dislodged
    state = position({**FALL_UNITS, "RUSSIA": ["A SIL", "A GAL", "F SEV", "F BOT"]}, "F1901M")
    record = held(
        adjudicate(
            state,
            {
                **FALL_FOREIGN,
                "GERMANY": FALL_GERMANY,
                "RUSSIA": ["A SIL - BOH", "A GAL S A SIL - BOH", "F BOT - SWE", "F SEV H"],
            },
        )
    )
    assert record.dislodged["BOH"] == "SIL"
    seen = RULES.observe(record, GERMANY)
    assert orders(seen) == [
        ("AUSTRIA", "A BOH S A TYR - MUN", None),
        ("FRANCE", "A BUR - MUN", ("fails",)),
        ("ITALY", "A TYR - MUN", ("fails",)),
    ]
    assert "AUSTRIA A BOH" in units(seen) and "ITALY A TYR" in units(seen)
    assert not {"RUSSIA A BOH", "AUSTRIA *A BOH"} & units(seen)


# --- options ---------------------------------------------------------------------------------------


def test_option_unit_sight_any() -> None:
    """DPjudge's reading: a fleet in Berlin sees Silesia and Munich too."""
    seen = FogOfWarRules(unit_sight="any").observe(winter(["F BER B", "F KIE B"]), GERMANY)
    assert {"SIL", "MUN"} <= seen.visible
    assert {"RUSSIA A SIL", "ITALY A MUN"} <= units(seen)


def test_option_owned_centres_see_their_neighbours() -> None:
    """With owned centres seeing their neighbours, Berlin watches Prussia and learns the
    Russian move into it."""
    seen = FogOfWarRules(owned_center_sight="neighbours").observe(spring(), GERMANY)
    assert {"PRU", "SIL", "BAL", "BOH", "TYR"} <= seen.visible
    assert orders(seen) == [
        ("FRANCE", "A MAR S A PAR - BUR", None),
        ("FRANCE", "A PAR - BUR", ()),
        ("RUSSIA", "A WAR - PRU", ()),
    ]


def test_option_owned_centres_see_nothing() -> None:
    """Without city sight, nobody watches Munich in the sample Fall."""
    seen = FogOfWarRules(owned_center_sight="none").observe(fall(), GERMANY)
    assert orders(seen) == []
    assert "MUN" not in seen.visible and units(seen) >= {"FRANCE A BUR"}
    assert "AUSTRIA A BOH" not in units(seen)


def test_option_home_centres_see_themselves() -> None:
    """A lost home centre still sees itself."""
    seen = FogOfWarRules(home_center_sight="self").observe(autumn(), GERMANY)
    assert "MUN" in seen.visible and "ITALY A MUN" in units(seen)
    assert seen.center_owners["MUN"] == "ITALY"
    dark = FogOfWarRules(home_center_sight="neighbours").observe(autumn(), GERMANY)
    assert {"TYR", "BOH", "SIL"} <= dark.visible


def test_option_order_learning_as_hold() -> None:
    """Every unit watches as if it held: the busy fleet in Holland learns the English order,
    and the moving armies watch all around where they began."""
    seen = FogOfWarRules(order_learning="as-hold").observe(fall(), GERMANY)
    assert orders(seen) == [
        ("AUSTRIA", "A BOH S A TYR - MUN", None),
        ("ENGLAND", "F NTH C A YOR - NWY", None),
        ("FRANCE", "A BUR - MUN", ("fails",)),
        ("ITALY", "A TYR - MUN", ()),
    ]


def test_unknown_option_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown option"):
        get_fog_rules("fog-of-war", see_everything=True)
    assert get_fog_rules("fog-of-war", unit_sight="any").options.unit_sight == "any"  # type: ignore[attr-defined]


# --- leaks -----------------------------------------------------------------------------------------


def _named(text: str) -> set[str]:
    out = set()
    for word in text.replace("*", " ").replace(":", " ").split():
        if BOARD.is_location(word):
            out.add(BOARD.province_of(word))
    return out


def _mentioned(seen: Observation) -> set[str]:
    """Every province the report names, outside its list of visible provinces."""
    lines = [line for line in report(seen).splitlines() if not line.startswith("Visible:")]
    out = set()
    for line in lines[1:]:
        out |= _named(line)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_no_mention_out_of_sight(seed: int) -> None:
    """Over random games: a report names no province outside its visible provinces, the
    provinces of the orders it reveals, and the power's own centres of the phase before;
    every foreign order revealed in a movement phase concerns a space next to a unit or a
    centre of the power's, or where one of its units was ordered to move."""
    import random

    rng = random.Random(seed)
    state = GameState.initial()
    for _ in range(30):
        orders = random_orders(state, ENGINE, rng)
        record = held(adjudicate(state, orders, ENGINE, vouched=orders.vouched))
        for power in state.powers:
            seen = RULES.observe(record, power)
            allowed = set(seen.visible)
            for order in seen.orders:
                allowed |= _named(text(order))
            allowed |= {c for c, owner in record.before.centers.items() if owner == power}
            assert _mentioned(seen) <= allowed, (str(state.phase), power)
            if state.phase.kind == "M":
                near = set(c for c, owner in state.centers.items() if owner == power)
                for unit in state.units_of(power):
                    near |= BOARD.neighbours[unit.province] | {unit.province}
                for order in seen.orders:  # a convoyed army watches where it was going
                    words = text(order).split()
                    if order.power == power and words[2] == "-":
                        near.add(BOARD.province_of(words[3]))
                for order in seen.orders:
                    if order.power != power:
                        assert _named(text(order)) & near, (str(state.phase), power, text(order))
        state = record.after
        if state.completed:
            break


@st.composite
def _far_apart(draw: st.DrawFn) -> tuple[GameState, str, Unit]:
    """A random movement position with a German unit or two and a foreign unit at least four
    steps from every German unit and centre."""
    provinces = sorted(code for code, p in BOARD.provinces.items() if p.passable)
    chosen = draw(st.lists(st.sampled_from(provinces), min_size=3, max_size=14, unique=True))
    units: dict[str, Unit] = {}
    for index, province in enumerate(chosen):
        spots = [("A", province)] if BOARD.can_hold("A", province) else []
        spots += [("F", loc) for loc in (BOARD.coasts(province) or (province,)) if BOARD.can_hold("F", loc)]
        kind, location = draw(st.sampled_from(spots))
        power = GERMANY if index < 2 else draw(st.sampled_from([p for p in BOARD.powers if p != GERMANY]))
        units[province] = Unit(power, kind, location)  # type: ignore[arg-type]
    centers = {
        c: draw(st.sampled_from(BOARD.powers))
        for c in draw(st.lists(st.sampled_from(sorted(BOARD.supply_centers)), max_size=12, unique=True))
    }
    state = GameState.initial().with_changes(units=units, centers=centers)
    german = tuple(p for p, u in units.items() if u.power == GERMANY) + tuple(
        c for c, o in centers.items() if o == GERMANY
    )
    distance = BOARD.distances_from(german)
    far = [u for p, u in sorted(units.items()) if u.power != GERMANY and distance.get(p, 99) >= 4]
    assume(bool(far))
    return state, GERMANY, draw(st.sampled_from(far))


def _order_named(order: Order) -> set[str]:
    """Every province an order names: its unit's, its target, the unit it supports or convoys."""
    unit = getattr(order, "unit", None)
    out = {unit.province} if unit is not None else set()
    for ref in (getattr(order, "supported", None), getattr(order, "army", None)):
        if ref is not None:
            out.add(ref.province)
    target = getattr(order, "target", None)
    if isinstance(target, str):
        out.add(BOARD.province_of(target))
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(_far_apart(), st.data())
def test_an_unwatched_foreign_order_changes_nothing(case: tuple[GameState, str, Unit], data: st.DataObject) -> None:
    """Germany's units get random legal orders, every other unit holds but one far away, and
    whatever that one does (naming no space within two steps of Germany's units, centres and
    orders), Germany's report is the same to the byte."""
    state, power, stranger = case
    own = legal_orders(state, power, ENGINE)
    mine = [data.draw(st.sampled_from(choices)) for _province, choices in sorted(own.items())]
    german = {u.province for u in state.units_of(power)} | set(state.centers_of(power))
    for order in mine:  # a German army may be convoyed far away, and watches where it goes
        german |= _order_named(order)
    distance = BOARD.distances_from(tuple(sorted(german)))
    reports: dict[str, str] = {}
    for choice in legal_orders(state, stranger.power, ENGINE)[stranger.province]:
        if min(distance.get(p, 99) for p in _order_named(choice)) < 3:
            continue  # a convoy can carry the stranger next to Germany: that is not out of sight
        record = held(adjudicate(state, {power: list(mine), stranger.power: [choice]}, ENGINE))
        reports[str(choice)] = as_bytes(RULES.observe(record, power))
    assume(len(reports) > 1)
    (first, expected), *rest = reports.items()
    for other, got in rest:
        assert got == expected, f"{stranger} ordered {first}:\n{expected}\nordered {other}:\n{got}"


def test_a_far_dislodgement_changes_nothing_under_the_held_schedule() -> None:
    """With the retreat season always held, whether someone far away was dislodged does not
    show in Germany's report, not even in the phase named next (the engine alone would go
    on to Fall when nobody is dislodged)."""
    units = {p: u for p, u in GameState.initial().units.items() if p not in ("SEV", "CON", "ANK")}
    units.update(RUM=Unit("RUSSIA", "A", "RUM"), BUL=Unit("TURKEY", "A", "BUL"), BLA=Unit("TURKEY", "F", "BLA"))
    state = GameState.initial().with_changes(units=units)
    shaken = adjudicate(state, {GERMANY: SPRING_GERMANY, "TURKEY": ["A BUL - RUM", "F BLA S A BUL - RUM"]})
    calm = adjudicate(state, {GERMANY: SPRING_GERMANY, "TURKEY": ["A BUL H", "F BLA H"]})
    assert shaken.dislodged == {"RUM": "BUL"} and not calm.dislodged
    assert (str(shaken.after.phase), str(calm.after.phase)) == ("S1901R", "F1901M")
    assert as_bytes(RULES.observe(held(shaken), GERMANY)) == as_bytes(RULES.observe(held(calm), GERMANY))
