"""Orders, reasons, legal orders and adjudication properties of the engine."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fogdip.engine.errors import InvalidOrder, PhaseError
from fogdip.engine.judge import adjudicate
from fogdip.engine.legal import all_legal_orders
from fogdip.engine.map import standard_map
from fogdip.engine.notation import parse_order
from fogdip.engine.orders import Order
from fogdip.engine.outcomes import Outcome
from fogdip.engine.reasons import Why
from fogdip.engine.rules import Rules, get_rules
from fogdip.engine.state import GameState
from fogdip.engine.units import Phase, Unit
from fogdip.engine.validate import OrderChecker

BOARD = standard_map()
RULES = get_rules()


def random_orders(state: GameState, rng: random.Random, rules: Rules = RULES) -> dict[str, list[Order]]:
    options = all_legal_orders(state, rules)
    orders: dict[str, list[Order]] = {}
    for power in sorted(options):
        choices = options[power]
        if state.phase.kind == "A":
            due = state.adjustment(power)
            pool = choices.get("BUILD", []) if due > 0 else choices.get("DISBAND", [])
            orders[power] = rng.sample(pool, min(abs(due), len(pool)))
        else:
            orders[power] = [rng.choice(choices[key]) for key in sorted(choices)]
    return orders


def play(seed: int, phases: int) -> list[GameState]:
    rng = random.Random(seed)
    state = GameState.initial()
    seen = [state]
    for _ in range(phases):
        if state.completed:
            break
        state = adjudicate(state, random_orders(state, rng), RULES, explain=False).after
        seen.append(state)
    return seen


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A PAR - BUR", "A PAR - BUR"),
        ("F NTH C A LON - BEL", "F NTH C A LON - BEL"),
        ("A LON - BEL VIA", "A LON - BEL VIA"),
        ("A TYR S A VEN - TRI", "A TYR S A VEN - TRI"),
        ("A TYR S A VEN", "A TYR S A VEN"),
        ("F SPA/SC - MAO", "F SPA/SC - MAO"),
        ("A PAR H", "A PAR H"),
        ("F TRI R ALB", "F TRI R ALB"),
        ("A PAR D", "A PAR D"),
        ("F STP/NC B", "F STP/NC B"),
        ("WAIVE", "WAIVE"),
        ("a paris -> burgundy", "A PAR - BUR"),
        ("Army Paris to Burgundy", "A PAR - BUR"),
        ("F North Sea convoys A London to Belgium", "F NTH C A LON - BEL"),
        ("A Tyrolia supports A Venice - Trieste", "A TYR S A VEN - TRI"),
        ("F Mid-Atlantic Ocean - Spain (north coast)", "F MAO - SPA/NC"),
        ("A Paris holds", "A PAR H"),
        ("build F St Petersburg(nc)", "F STP/NC B"),
        ("A Paris disband", "A PAR D"),
        ("F Trieste retreat Albania", "F TRI R ALB"),
        ("A LVP - EDI via convoy", "A LVP - EDI VIA"),
        ("F ECH - NRG", "F ENG - NWG"),
        ("F GOL - MID", "F LYO - MAO"),
    ],
)
def test_notation_reads_and_writes(text: str, expected: str) -> None:
    order = parse_order(text, BOARD)
    assert str(order) == expected
    assert parse_order(str(order), BOARD) == order


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A PAR - XYZ", "unknown province 'XYZ'"),
        ("", "the order is empty"),
        ("A PAR", "nothing follows A PAR"),
        ("A PAR X BUR", "'X' after A PAR is not an order word"),
        ("F NTH C F LON - BEL", "only armies can be convoyed"),
        ("A PAR - BUR -", "unexpected '-' at the end"),
    ],
)
def test_unreadable_orders_say_why(text: str, message: str) -> None:
    with pytest.raises(InvalidOrder, match=message):
        parse_order(text, BOARD)


@pytest.mark.parametrize(
    ("power", "text", "where", "reason"),
    [
        ("ENGLAND", "A YOR H", "rejected", "ENGLAND has no unit in YOR"),
        ("GERMANY", "F LON - NTH", "rejected", "GERMANY has no unit in LON"),
        ("FRANCE", "F PAR - BUR", "void", "wrong unit type: the unit in PAR is an army"),
        ("FRANCE", "A PAR - MUN", "void", "A PAR cannot reach MUN"),
        ("FRANCE", "A PAR R BUR", "void", "belong to another phase"),
        ("ENGLAND", "A LVP - IRI", "void", "an army cannot move to Irish Sea, a sea"),
        ("FRANCE", "F BRE - SPA", "void", "cannot reach SPA"),
        ("RUSSIA", "F SEV - BUL", "void", "F SEV cannot reach BUL"),
        ("FRANCE", "A PAR - XYZ", "rejected", "unknown province 'XYZ'"),
        ("FRANCE", "WAIVE", "rejected", "WAIVE is an adjustment order"),
    ],
)
def test_bad_orders_are_explained(power: str, text: str, where: str, reason: str) -> None:
    record = adjudicate(GameState.initial(), {power: [text]})
    if where == "rejected":
        assert [(r.power, r.text) for r in record.rejected] == [(power, text)]
        assert reason in str(record.rejected[0].reason)
    else:
        (result,) = [r for r in record.orders if r.text == text]
        assert not result.legal and result.results == ("void",) and result.outcome == "illegal"
        assert reason in str(result.reason)


def test_phase_names() -> None:
    assert Phase.parse("w1901a") == Phase("W", 1901, "A")
    with pytest.raises(PhaseError, match="does not exist"):
        Phase.parse("W1901M")
    with pytest.raises(PhaseError, match="not a phase name"):
        Phase.parse("X1901M")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), phases=st.integers(0, 30))
def test_every_legal_order_is_accepted_and_reads_back(seed: int, phases: int) -> None:
    state = play(seed, phases)[-1]
    if state.completed:
        return
    checker = OrderChecker(state, RULES)
    for power, units in all_legal_orders(state, RULES).items():
        for orders in units.values():
            for order in orders:
                checked = checker.check(power, order)
                assert checked.legal, (str(state.phase), power, str(order), checked.reason)
                assert parse_order(str(order), BOARD) == order


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), phases=st.integers(0, 25), shuffle_seed=st.integers(0, 1000))
def test_result_does_not_depend_on_submission_order(seed: int, phases: int, shuffle_seed: int) -> None:
    state = play(seed, phases)[-1]
    if state.completed:
        return
    orders = random_orders(state, random.Random(seed + 1))
    shuffler = random.Random(shuffle_seed)
    shuffled: dict[str, list[Order]] = {}
    for power in shuffler.sample(sorted(orders), len(orders)):
        # Adjustment orders are carried out first to last (DATC 4.D.4-4.D.6), so only the
        # order of powers, not of one power's builds, is free there.
        keep = state.phase.kind == "A"
        shuffled[power] = list(orders[power]) if keep else shuffler.sample(orders[power], len(orders[power]))
    first, second = adjudicate(state, orders), adjudicate(state, shuffled)
    assert first.orders == second.orders
    assert first.after == second.after
    assert first.dislodged == second.dislodged


def test_games_run_to_the_end_with_consistent_positions() -> None:
    for seed in range(3):
        for state in play(seed, 100):
            provinces = [u.location.partition("/")[0] for u in state.units.values()]
            assert len(provinces) == len(set(provinces))
            assert all(BOARD.can_hold(u.kind, u.location) for u in state.units.values())
            assert all(BOARD.provinces[c].supply_center for c in state.centers)


def test_solo_victory_ends_the_game() -> None:
    state = GameState.initial()
    centers = {c: owner for c, owner in state.centers.items() if owner != "FRANCE"}
    for center in [c for c in BOARD.supply_centers if c != "BEL"][:17]:
        centers[center] = "FRANCE"
    units = {"BEL": Unit("FRANCE", "A", "BEL")}
    state = state.with_changes(phase=Phase("F", 1905, "M"), units=units, centers=centers)
    record = adjudicate(state, {})
    assert record.after.completed
    assert record.after.center_count("FRANCE") == 18
    one_short = adjudicate(state.with_changes(units={"PIC": Unit("FRANCE", "A", "PIC")}), {})
    assert not one_short.after.completed and str(one_short.after.phase) == "W1905A"


def test_two_different_orders_for_one_unit_make_it_hold() -> None:
    record = adjudicate(GameState.initial(), {"FRANCE": ["A PAR - BUR", "A PAR - PIC"]})
    result = record.result_of("PAR")
    assert result is not None and result.outcome is Outcome.ILLEGAL and result.reason is not None
    assert result.reason.why is Why.TWO_ORDERS
    assert str(result.reason) == "A PAR was given two different orders ('A PAR - BUR' and 'A PAR - PIC')"
    assert result.written == parse_order("A PAR - BUR", standard_map())
    assert result.conflicts == (parse_order("A PAR - PIC", standard_map()),)
    assert record.after.unit_at("PAR") == Unit("FRANCE", "A", "PAR")


def test_a_third_different_order_joins_the_conflict_and_the_same_order_twice_is_one() -> None:
    orders = ["A PAR - BUR", "A PAR - PIC", "A PAR - BUR", "A PAR - GAS", "A PAR - PIC"]
    record = adjudicate(GameState.initial(), {"FRANCE": orders})
    result = record.result_of("PAR")
    assert result is not None and not result.legal and result.outcome is Outcome.ILLEGAL
    assert [str(order) for order in result.conflicts] == ["A PAR - PIC", "A PAR - GAS"]
    assert str(result.reason) == (
        "A PAR was given three different orders ('A PAR - BUR', 'A PAR - PIC' and 'A PAR - GAS')"
    )
    assert record.after.unit_at("PAR") == Unit("FRANCE", "A", "PAR")
    again = adjudicate(GameState.initial(), {"FRANCE": ["A PAR - BUR", "A PAR - BUR"]}).result_of("PAR")
    assert again is not None and again.outcome is Outcome.MOVED and again.conflicts == ()


def test_a_fleet_that_could_reach_both_coasts_must_name_one() -> None:
    state = GameState.initial()
    units = dict(state.units)
    units["MAO"] = Unit("FRANCE", "F", "MAO")
    record = adjudicate(state.with_changes(units=units), {"FRANCE": ["F MAO - SPA"]})
    result = record.result_of("MAO")
    assert result is not None and str(result.reason) == "name the coast: SPA/NC or SPA/SC"


def test_the_first_of_two_builds_in_one_province_is_carried_out() -> None:
    state = GameState.initial()
    units = {p: u for p, u in state.units.items() if p not in ("KIE", "BER")}
    winter = state.with_changes(phase=Phase("W", 1901, "A"), units=units)
    record = adjudicate(winter, {"GERMANY": ["A KIE B", "F KIE B"]})
    assert record.after.unit_at("KIE") == Unit("GERMANY", "A", "KIE")
    second = next(r for r in record.orders if r.text == "F KIE B")
    assert second.outcome == "failed" and str(second.reason) == "KIE already has a unit built this winter"
