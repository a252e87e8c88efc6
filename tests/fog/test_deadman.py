"""Deadman Diplomacy (seed 002): a power sees its own units, orders, centres and
dislodgements, and what its espionage and peeks bring back; nothing else."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from fogdip.bots.random_bot import play_random_game
from fogdip.documents import state_from_document
from fogdip.engine import GameState, Resolution, get_rules
from fogdip.fog import DeadmanRules, Events, Notice, Observation, SeenOrder, SeenUnit, get_fog_rules
from fogdip.fog.deadman import outcome
from fogdip.fog.masked import SUCCEEDED, MaskedOrder, MaskedUnit, OrderKind
from fogdip.fog.sight import ResultLevel
from views import as_json, mark, notice_json, report, text, words

from strategies import (
    BOARD,
    POWERS,
    adjudicate,
    foreign_subjects,
    orders_for,
    perturbations,
    play,
    played_positions,
    positions,
    words_provinces,
)

RULES = DeadmanRules()
PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def position(
    units: dict[str, list[str]], phase: str = "S1901M", centers: dict[str, list[str]] | None = None
) -> GameState:
    state, _, _ = state_from_document({"phase": phase, "units": units, "centers": centers or {}})
    return state


def seen(state: GameState, orders: dict[str, list[str]], power: str, rules: DeadmanRules = RULES) -> Observation:
    return rules.observe(adjudicate(state, orders), power)


def lines(observation: Observation) -> list[str]:
    return [f"{text(order)} {mark(order)}" for order in observation.orders]


def test_registered_with_its_seed() -> None:
    rules = get_fog_rules("deadman")
    assert isinstance(rules, DeadmanRules)
    assert (rules.name, rules.seed, rules.options.results) == ("deadman", "002", "success")  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="known options: results"):
        get_fog_rules("deadman", sight="any")


def test_opening_shows_only_own_units_and_centres() -> None:
    opening = RULES.initial(GameState.initial(), "ENGLAND")
    assert [str(u) for u in opening.units] == ["F EDI", "F LON", "A LVP"]
    assert {u.owner for u in opening.units} == {"ENGLAND"}
    assert opening.center_owners == {"EDI": "ENGLAND", "LON": "ENGLAND", "LVP": "ENGLAND"}
    assert opening.visible == {"EDI", "LON", "LVP"}
    assert opening.orders == () and opening.notices == ()


def test_neighbours_and_their_orders_are_not_seen() -> None:
    record = adjudicate(GameState.initial(), {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]})
    france = RULES.observe(record, "FRANCE")
    assert lines(france) == ["A MAR H (ok)", "A PAR - BUR (fails)", "F BRE H (ok)"]
    assert {o.power for o in france.orders} == {"FRANCE"}
    assert {u.owner for u in france.units} == {"FRANCE"}
    assert france.visible == {"PAR", "MAR", "BRE"}
    assert set(france.center_owners.values()) == {"FRANCE"}
    assert france.notices == ()


def test_own_dislodgement_without_the_attacker() -> None:
    state = position({"FRANCE": ["A BUR", "A PAR"], "GERMANY": ["A MUN", "A RUH"]})
    record = adjudicate(state, {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"], "FRANCE": ["A PAR - PIC"]})
    france = RULES.observe(record, "FRANCE")
    assert [str(u) for u in france.units] == ["*A BUR", "A PIC"]
    assert lines(france) == ["A BUR H (fails)", "A PAR - PIC (ok)"]
    (notice,) = france.notices
    assert notice_json(notice) == {
        "kind": "dislodged",
        "text": "Your A BUR was dislodged",
        "unit": "A BUR",
        "province": "BUR",
    }
    assert "MUN" not in json.dumps(as_json(france))
    # The attacker now stands in BUR, unseen, so BUR is not in sight.
    assert france.visible == {"PIC"}


def test_retreat_and_adjustment_phases() -> None:
    state = position({"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH"]})
    record = adjudicate(state, {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]})
    retreat = adjudicate(record.after, {"FRANCE": ["A BUR - PAR"]})
    france = RULES.observe(retreat, "FRANCE")
    assert lines(france) == ["A BUR R PAR (ok)"]
    assert [str(u) for u in france.units] == ["A PAR"] and france.visible == {"PAR"}
    germany = RULES.observe(retreat, "GERMANY")
    assert germany.orders == () and "PAR" not in json.dumps(as_json(germany))

    winter = position({"FRANCE": ["A BUR"]}, "W1901A", {"FRANCE": ["PAR", "BRE"], "GERMANY": ["MUN"]})
    record = adjudicate(winter, {"FRANCE": ["F BRE B", "A MAR B"], "GERMANY": ["A MUN B"]})
    france = RULES.observe(record, "FRANCE")
    assert lines(france) == ["A MAR B (fails)", "F BRE B (ok)"]
    assert [str(u) for u in france.units] == ["F BRE", "A BUR"]
    assert "MUN" not in json.dumps(as_json(france))


def test_centres_gained_and_lost_are_told_in_the_fall() -> None:
    state = position({"FRANCE": ["A BUR"], "GERMANY": ["A RUH"]}, "F1901M", {"FRANCE": ["PAR"], "GERMANY": ["BEL"]})
    record = adjudicate(state, {"FRANCE": ["A BUR - BEL"], "GERMANY": ["A RUH - HOL"]})
    france, germany = RULES.observe(record, "FRANCE"), RULES.observe(record, "GERMANY")
    assert [n.text for n in france.notices] == ["You gained BEL"]
    assert france.center_owners == {"BEL": "FRANCE", "PAR": "FRANCE"}
    assert [n.text for n in germany.notices] == ["You gained HOL", "You lost BEL"]
    assert germany.center_owners == {"HOL": "GERMANY"}


# --- the text of one's own orders ---------------------------------------------------------


@pytest.mark.parametrize(
    ("units", "orders", "power", "expected"),
    [
        # A supported foreign unit is written by province: not "S F SPA/SC" nor "S A SPA".
        (
            {"FRANCE": ["F LYO"], "ENGLAND": ["F SPA/SC"]},
            {"FRANCE": ["F LYO S SPA - MAR"]},
            "FRANCE",
            "F LYO S SPA - MAR",
        ),
        ({"FRANCE": ["F LYO"], "ENGLAND": ["A SPA"]}, {"FRANCE": ["F LYO S SPA - MAR"]}, "FRANCE", "F LYO S SPA - MAR"),
        ({"FRANCE": ["F LYO"]}, {"FRANCE": ["F LYO S SPA - MAR"]}, "FRANCE", "F LYO S SPA - MAR"),
        (
            {"FRANCE": ["F LYO"], "ITALY": ["F WES"]},
            {"FRANCE": ["F LYO S F WES - SPA/SC"]},
            "FRANCE",
            "F LYO S WES - SPA",
        ),
        ({"FRANCE": ["F LYO"]}, {"FRANCE": ["F LYO S F WES - SPA/SC"]}, "FRANCE", "F LYO S WES - SPA"),
        ({"FRANCE": ["A GAS"], "ITALY": ["A MAR"]}, {"FRANCE": ["A GAS S MAR"]}, "FRANCE", "A GAS S MAR"),
        ({"FRANCE": ["A GAS"]}, {"FRANCE": ["A GAS S A MAR"]}, "FRANCE", "A GAS S MAR"),
        (
            {"ENGLAND": ["F NTH"], "FRANCE": ["A BEL"]},
            {"ENGLAND": ["F NTH C A BEL - LON"]},
            "ENGLAND",
            "F NTH C BEL - LON",
        ),
        (
            {"ENGLAND": ["F NTH"], "FRANCE": ["F BEL"]},
            {"ENGLAND": ["F NTH C A BEL - LON"]},
            "ENGLAND",
            "F NTH C BEL - LON",
        ),
        # VIA is added whenever the move needs a convoy, whether or not fleets could give one.
        ({"ENGLAND": ["A LON"], "FRANCE": ["F ENG"]}, {"ENGLAND": ["A LON - BEL"]}, "ENGLAND", "A LON - BEL VIA"),
        ({"ENGLAND": ["A LON"]}, {"ENGLAND": ["A LON - BEL"]}, "ENGLAND", "A LON - BEL VIA"),
        ({"FRANCE": ["A PIC"]}, {"FRANCE": ["A PIC - BEL VIA"]}, "FRANCE", "A PIC - BEL VIA"),
        ({"FRANCE": ["A PIC"], "ENGLAND": ["F ENG"]}, {"FRANCE": ["A PIC - BEL VIA"]}, "FRANCE", "A PIC - BEL VIA"),
        # One's own units keep their type and coast.
        ({"FRANCE": ["F LYO", "F WES"]}, {"FRANCE": ["F LYO S WES - SPA/SC"]}, "FRANCE", "F LYO S F WES - SPA/SC"),
        ({"FRANCE": ["A GAS", "F SPA/NC"]}, {"FRANCE": ["A GAS S SPA"]}, "FRANCE", "A GAS S F SPA/NC"),
        ({"FRANCE": ["F MAO"]}, {"FRANCE": ["F MAO - SPA/NC"]}, "FRANCE", "F MAO - SPA/NC"),
        ({"FRANCE": ["F GAS"]}, {"FRANCE": ["F GAS - SPA"]}, "FRANCE", "F GAS - SPA/NC"),
    ],
)
def test_own_orders_are_written_without_foreign_facts(
    units: dict[str, list[str]], orders: dict[str, list[str]], power: str, expected: str
) -> None:
    observation = seen(position(units), orders, power)
    (order,) = [o for o in observation.orders if text(o).startswith(orders[power][0][:5])]
    assert text(order) == expected


def test_retreats_are_written_as_retreats_legal_or_not() -> None:
    state = position({"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH", "A PAR"]})
    record = adjudicate(state, {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]})
    for written, shown in [("A BUR - PIC", "(ok)"), ("A BUR - PAR", "(fails)"), ("A BUR R MUN", "(fails)")]:
        france = RULES.observe(adjudicate(record.after, {"FRANCE": [written]}), "FRANCE")
        assert lines(france) == [f"A BUR R {written.split()[-1]} {shown}"]


def test_results_option() -> None:
    state = position({"FRANCE": ["A PAR", "F LYO"], "GERMANY": ["A MUN", "A RUH"]})
    orders = {"FRANCE": ["A PAR - BUR", "F LYO S SPA - MAR"], "GERMANY": ["A MUN - BUR"]}
    assert lines(seen(state, orders, "FRANCE")) == ["A PAR - BUR (fails)", "F LYO S SPA - MAR (fails)"]
    full = seen(state, orders, "FRANCE", DeadmanRules(results="full"))
    assert [(text(o), words(o)) for o in full.orders] == [
        ("A PAR - BUR", ("bounce",)),
        ("F LYO S SPA - MAR", ("void",)),
    ]
    none = seen(state, orders, "FRANCE", DeadmanRules(results="none"))
    assert {words(o) for o in none.orders} == {None}


def test_events_pass_through() -> None:
    """Espionage and peeks arrive as Events (seed: ``F Nth-Espionage France [Eng;Bel]``,
    ``PAS-Nth-Occupied``); the rule set adds them as they are."""
    state = position({"ENGLAND": ["F NTH", "A YOR"], "FRANCE": ["F ENG", "A BEL"]}, "S1902M")
    record = adjudicate(state, {"ENGLAND": ["F NTH H"]})
    spied = (SeenUnit("ENG", "FRANCE", None), SeenUnit("BEL", "FRANCE", None))
    events = Events(
        orders={
            "ENGLAND": (
                SeenOrder(
                    "ENGLAND", MaskedOrder(OrderKind.ESPIONAGE, MaskedUnit("F", "NTH"), spied="FRANCE"), SUCCEEDED
                ),
                SeenOrder("ENGLAND", MaskedOrder(OrderKind.PEEK, target="NTH"), SUCCEEDED),
            )
        },
        units={"ENGLAND": spied},
        notices={
            "ENGLAND": (Notice.make("peek", "PAS-NTH-Occupied", province="NTH", occupied=True),),
            "FRANCE": (
                Notice.make("spied-on", "Some power learned where your F ENG, A BEL are", units=["ENG", "BEL"]),
            ),
        },
    )
    england = RULES.observe(record, "ENGLAND", events)
    assert lines(england) == ["A YOR H (ok)", "F NTH E FRANCE (ok)", "PAS NTH (ok)"]
    assert set(england.units) == {SeenUnit("NTH", "ENGLAND", "F"), SeenUnit("YOR", "ENGLAND", "A"), *spied}
    assert [n.text for n in england.notices] == ["PAS-NTH-Occupied"]
    assert england.visible == {"NTH", "YOR"}
    france = RULES.observe(record, "FRANCE", events)
    assert [n.kind for n in france.notices] == ["spied-on"]
    assert {u.owner for u in france.units} == {"FRANCE"}
    without = RULES.observe(record, "ENGLAND")
    assert lines(without) == ["A YOR H (ok)", "F NTH H (ok)"] and {u.owner for u in without.units} == {"ENGLAND"}


def test_two_builds_for_one_centre_stay_two_orders() -> None:
    winter = position({}, "W1901A", {"FRANCE": ["PAR"]})
    record = adjudicate(winter, {"FRANCE": ["A PAR B", "F MAR B"]})
    assert len(RULES.observe(record, "FRANCE").orders) == len([r for r in record.orders if r.power == "FRANCE"]) == 2


# --- properties ----------------------------------------------------------------------------


def assert_own_only(observation: Observation, record: Resolution) -> None:
    power = observation.power
    before = record.before
    own_before = {u.province for u in before.units.values() if u.power == power}
    own_before |= {p for p, d in before.dislodged.items() if d.unit.power == power}
    assert all(unit.owner == power for unit in observation.units), report(observation)
    assert all(order.power == power for order in observation.orders), report(observation)
    assert all(owner == power for _, owner in observation.centers), report(observation)
    for order in observation.orders:
        head = text(order).split()
        if head[-1] == "B" or head == ["WAIVE"]:
            continue
        assert BOARD.province_of(head[1]) in own_before, order
    for notice in observation.notices:
        assert "attacked_from" not in dict(notice.data)
    assert observation.visible == {u.province for u in observation.units if not u.dislodged}


@PROPERTY
@given(seed=st.integers(0, 10_000), phases=st.integers(1, 30))
def test_random_games_show_only_own_things(seed: int, phases: int) -> None:
    for record in play_random_game(seed, get_rules().with_options(legality="map"), max_phases=phases):
        for power in POWERS:
            assert_own_only(RULES.observe(record, power), record)


def own_facts(record: Resolution, power: str, level: ResultLevel) -> object:
    """Everything a deadman power may learn: its units before and after, its orders'
    outcomes at the level revealed, its dislodgements, its centres, its rejected orders.
    Also the next phase: the engine skips a retreat phase nobody needs, which tells
    everyone whether anyone was dislodged (see test_no_leaks)."""
    return (
        sorted((p, u) for p, u in record.before.units.items() if u.power == power),
        sorted((str(r.unit), r.text, repr(outcome(r, level, record))) for r in record.orders if r.power == power),
        sorted((r.text, str(r.reason)) for r in record.rejected if r.power == power),
        sorted((p, u) for p, u in record.after.units.items() if u.power == power),
        sorted(p for p, d in record.after.dislodged.items() if d.unit.power == power),
        sorted(c for c, o in record.before.centers.items() if o == power),
        sorted(c for c, o in record.after.centers.items() if o == power),
        str(record.after.phase),
        record.after.completed,
    )


@PROPERTY
@given(data=st.data(), level=st.sampled_from(["success", "full"]))
def test_foreign_changes_are_invisible(data: st.DataObject, level: ResultLevel) -> None:
    """Change any foreign unit anywhere (its order, its type, its presence): as long as the
    power's own outcomes are unchanged, its observation is byte for byte the same."""
    rules = DeadmanRules(results=level)
    state = data.draw(positions())
    orders = data.draw(orders_for(state))
    power = data.draw(st.sampled_from(POWERS))
    subjects = foreign_subjects(state, orders, power)
    assume(subjects)
    # Units the power's orders name first: the ones its own order texts could leak.
    mine = {p for listed in [orders.get(power, [])] for o in listed for p in words_provinces(str(o))}
    subjects.sort(key=lambda u: u.province not in mine)
    unit = subjects[data.draw(st.integers(0, min(3, len(subjects) - 1)))]
    changes = perturbations(state, orders, unit, frozenset())
    assume(changes)
    change = changes[data.draw(st.integers(0, len(changes) - 1))]
    first, second = play(state, orders), play(change.state, change.orders)
    assume(own_facts(first, power, level) == own_facts(second, power, level))
    assert_own_only(rules.observe(first, power), first)
    one = json.dumps(as_json(rules.observe(first, power)), sort_keys=True)
    two = json.dumps(as_json(rules.observe(second, power)), sort_keys=True)
    assert one == two, change.change


@PROPERTY
@given(state=played_positions(), data=st.data())
def test_observing_is_deterministic(state: GameState, data: st.DataObject) -> None:
    record = play(state, data.draw(orders_for(state)))
    for power in POWERS:
        assert RULES.observe(record, power) == RULES.observe(record, power)
