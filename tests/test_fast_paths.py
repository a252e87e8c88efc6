"""The engine's fast paths give exactly what the general paths give.

Bots adjudicate with the token that came with their orders (``vouched``) and sample one order
per unit; both skip work the general paths do (checking, listing every choice), so they are
pinned to them here. A token is trusted for the position and rules it was made for, and no
other: given with another, it is ignored.
"""

from __future__ import annotations

import copy
import pickle
import random
import threading
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fogdip.bots.random_bot import play_random_game, random_orders
from fogdip.codec.positions import document_from_state, state_from_json
from fogdip.engine import judge
from fogdip.engine.errors import FogdipError
from fogdip.engine.judge import OrderInput, adjudicate
from fogdip.engine.legal import ConvoyCache, MovementOptions, all_legal_orders, legal_orders
from fogdip.engine.orders import Hold, Move, Order, SupportMove, UnitRef
from fogdip.engine.outcomes import OrderResult, RejectedOrder
from fogdip.engine.rules import Rules, get_rules
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit
from fogdip.engine.validate import CheckedOrder

EDITIONS = [get_rules("2023"), get_rules("2000"), get_rules("2000").with_options(convoy_fleet_must_be_needed=False)]


def positions(seed: int, phases: int, rules: Rules) -> list[GameState]:
    """The opening and the position after each phase of a seeded random game."""
    return [GameState.initial()] + [r.after for r in play_random_game(seed, rules, max_phases=phases, explain=False)]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), edition=st.integers(0, len(EDITIONS) - 1))
def test_sample_draws_as_choosing_from_every_choice(seed: int, edition: int) -> None:
    rules = EDITIONS[edition]
    for state in positions(seed, 40, rules):
        if state.phase.kind != "M":
            continue
        options = MovementOptions(state, rules)
        for province, unit in state.units.items():
            choices = options.choices(unit)
            listed = [options.order(options.refs[province], spec) for spec in choices]
            assert len(set(listed)) == len(listed)
            for draw in range(5):
                expected_rng, sampled_rng = random.Random(draw), random.Random(draw)
                expected = options.order(options.refs[province], expected_rng.choice(choices))
                assert options.sample(unit, sampled_rng) == expected
                assert expected_rng.random() == sampled_rng.random()  # the same draws were made


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), edition=st.integers(0, len(EDITIONS) - 1), explain=st.booleans())
def test_trusted_adjudication_is_checked_adjudication(seed: int, edition: int, explain: bool) -> None:
    rules = EDITIONS[edition]
    rng = random.Random(seed + 1)
    for state in positions(seed, 30, rules):
        if state.completed:
            break
        orders = random_orders(state, rules, rng)
        trusted = adjudicate(state, orders, rules, explain=explain, vouched=orders.vouched)
        checked = adjudicate(state, orders, rules, explain=explain)
        # Checking rewrites a convoy-only move as "VIA" in ``order``; everything else is the same.
        assert [_without_order(r) for r in trusted.orders] == [_without_order(r) for r in checked.orders]
        assert replace(trusted, orders=()) == replace(checked, orders=())
        for result in trusted.orders:
            assert result.text == ("" if result.defaulted else str(result.order))


def _without_order(result: OrderResult) -> OrderResult:
    return result._replace(order=Hold(UnitRef(None, "")))


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The phases adjudication checked order by order (``check_orders``), by name: a phase
    whose orders were trusted is not among them."""
    checked: list[str] = []
    real = judge.check_orders

    def spy(state: GameState, orders: OrderInput, rules: Rules) -> tuple[list[CheckedOrder], list[RejectedOrder]]:
        checked.append(str(state.phase))
        return real(state, orders, rules)

    monkeypatch.setattr(judge, "check_orders", spy)
    return checked


def test_orders_the_token_names_are_trusted_for_its_position(checks: list[str]) -> None:
    state, rules = GameState.initial(), get_rules()
    options = all_legal_orders(state, rules)
    orders = {power: [listed[0] for listed in by_unit.values()] for power, by_unit in options.items()}
    trusted = adjudicate(state, orders, rules, vouched=options.vouched)
    assert checks == []
    assert trusted == adjudicate(state, orders, rules)
    assert checks == ["S1901M"]


def test_a_token_is_trusted_for_an_equal_position_and_equal_orders(checks: list[str]) -> None:
    """By value: the position read back from its document, orders written again by hand."""
    state, rules = GameState.initial(), get_rules()
    options = legal_orders(state, "FRANCE", rules)
    again, _ = state_from_json(document_from_state(state, rules))
    assert again == state and again is not state
    orders: dict[str, list[Order]] = {
        "FRANCE": [Move(UnitRef("A", "PAR"), "BUR"), SupportMove(UnitRef("A", "MAR"), UnitRef("A", "PAR"), "BUR")]
    }
    assert all(order in options[order.unit.province] for order in orders["FRANCE"])  # type: ignore[union-attr]
    trusted = adjudicate(again, orders, get_rules(), vouched=options.vouched)
    assert checks == []
    assert trusted == adjudicate(again, orders, rules)


def test_a_token_made_for_another_position_is_ignored(checks: list[str]) -> None:
    """A token names the position it was made for: given with any other, it is ignored, and
    the phase is checked in full, as without a token. A convoy legal where fleets stood is
    illegal in a position without them."""
    rules = get_rules()
    fleets = GameState.initial().with_changes(
        units={"LON": Unit("ENGLAND", "A", "LON"), "NTH": Unit("ENGLAND", "F", "NTH")}
    )
    options = legal_orders(fleets, "ENGLAND", rules)
    convoy = next(o for o in options["NTH"] if o.kind == "convoy")
    alone = fleets.with_changes(units={"NTH": fleets.units["NTH"]})
    record = adjudicate(alone, {"ENGLAND": [convoy]}, rules, vouched=options.vouched)
    assert checks == ["S1901M"]
    assert record == adjudicate(alone, {"ENGLAND": [convoy]}, rules)
    result = record.result_of("NTH")
    assert result is not None and not result.legal
    # The same token for its own position is trusted.
    adjudicate(fleets, {"ENGLAND": [convoy]}, rules, vouched=options.vouched)
    assert checks == ["S1901M", "S1901M"]


def test_a_token_made_under_other_rules_is_ignored(checks: list[str]) -> None:
    """Which orders are legal depends on the rules (a convoy by a fleet no route needs,
    DATC 6.G.19): a token made under other rules is ignored."""
    state = GameState.initial()
    loose = get_rules("2000").with_options(convoy_fleet_must_be_needed=False)
    options = legal_orders(state, "FRANCE", loose)
    orders = {"FRANCE": [options["PAR"][1]]}
    assert adjudicate(state, orders, get_rules("2000"), vouched=options.vouched) == adjudicate(
        state, orders, get_rules("2000")
    )
    assert checks == ["S1901M", "S1901M"]
    adjudicate(state, orders, loose, vouched=options.vouched)
    assert checks == ["S1901M", "S1901M"]


def test_tokens_of_two_powers_are_joined_for_one_position() -> None:
    state, rules = GameState.initial(), get_rules()
    french, german = legal_orders(state, "FRANCE", rules), legal_orders(state, "GERMANY", rules)
    both = french.vouched | german.vouched
    orders = {"FRANCE": [french["PAR"][2]], "GERMANY": [german["MUN"][1]]}
    assert adjudicate(state, orders, rules, vouched=both) == adjudicate(state, orders, rules)
    later = adjudicate(state, orders, rules).after
    with pytest.raises(FogdipError, match="different positions"):
        _ = french.vouched | legal_orders(later, "FRANCE", rules).vouched


def test_trusted_orders_given_twice_are_settled_as_checked_ones() -> None:
    state = GameState.initial()
    rules = get_rules()
    options = legal_orders(state, "FRANCE", rules)
    par = options["PAR"]
    orders: dict[str, list[Order]] = {"FRANCE": [par[1], par[2], options["MAR"][1]]}
    trusted = adjudicate(state, orders, rules, vouched=options.vouched)
    assert trusted == adjudicate(state, orders, rules)
    result = trusted.result_of("PAR")
    assert result is not None and not result.legal and result.outcome == "illegal"
    assert "two different orders" in str(result.reason)


def test_orders_the_token_does_not_name_are_checked(checks: list[str]) -> None:
    """Only orders the token names for their unit are trusted: with any other order (here a
    legal one of a unit the token was not made for) the whole phase is checked."""
    state, rules = GameState.initial(), get_rules()
    options = legal_orders(state, "FRANCE", rules)
    orders: dict[str, list[Order]] = {
        "FRANCE": [Move(UnitRef("A", "PAR"), "BUR")],
        "GERMANY": [Move(UnitRef("A", "MUN"), "BUR")],
    }
    trusted = adjudicate(state, orders, rules, vouched=options.vouched)
    assert checks == ["S1901M"]
    assert trusted == adjudicate(state, orders, rules)
    result = trusted.result_of("PAR")
    assert result is not None and result.text == "A PAR - BUR" and result.results == ("bounce",)


@pytest.mark.parametrize("order", ["A PAR - BUR", Hold(UnitRef("A", "BUR")), "A PAR - NTH"])
def test_trusting_orders_that_are_not_legal_checks_them(order: str | Order) -> None:
    """An order that commands no unit, or is illegal, is checked as ever: rejected or void."""
    state, rules = GameState.initial(), get_rules()
    token = legal_orders(state, "FRANCE", rules).vouched
    assert adjudicate(state, {"FRANCE": [order]}, vouched=token) == adjudicate(state, {"FRANCE": [order]})


def test_a_power_cannot_move_another_powers_unit_by_trusting() -> None:
    """The issue's case: a legal order of France's army, given by Germany with France's
    token, moved the French army. It is checked, and rejected."""
    state = GameState.initial()
    french = legal_orders(state, "FRANCE", get_rules())
    move = next(o for o in french["PAR"] if isinstance(o, Move) and o.target == "BUR")
    record = adjudicate(state, {"GERMANY": [move]}, vouched=french.vouched)
    assert [(r.power, str(r.reason)) for r in record.rejected] == [("GERMANY", "GERMANY has no unit in PAR")]
    assert record.after.units["PAR"] == state.units["PAR"] and "BUR" not in record.after.units


def test_a_convoy_cache_is_its_threads_alone() -> None:
    state, rules = GameState.initial(), get_rules()
    cache = ConvoyCache(state.board)
    refused: list[str] = []

    def elsewhere() -> None:
        try:
            MovementOptions(state, rules, cache)
        except FogdipError as exc:
            refused.append(exc.reason)

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    assert refused == ["a ConvoyCache belongs to the thread that made it: make one per thread"]
    assert MovementOptions(state, rules, cache).for_power("ITALY") == legal_orders(state, "ITALY", rules)


def test_adjustments_are_counted_per_state() -> None:
    start = GameState.initial()
    fewer = start.with_changes(units={p: u for p, u in start.units.items() if p != "PAR"})
    assert start.adjustment("FRANCE") == 0
    assert fewer.adjustment("FRANCE") == 1 and fewer.adjustment("GERMANY") == 0
    assert fewer.adjustment("NOBODY") == 0


def test_a_token_copied_or_pickled_is_the_same_token() -> None:
    state, rules = GameState.initial(), get_rules()
    options = legal_orders(state, "FRANCE", rules)
    assert copy.deepcopy(options) == options and copy.deepcopy(options).vouched is options.vouched
    again = pickle.loads(pickle.dumps(options.vouched))
    assert again == options.vouched and again.trusts(state, rules)
