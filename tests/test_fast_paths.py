"""The engine's fast paths give exactly what the general paths give.

Bots adjudicate with ``assume_legal=True`` and sample one order per unit; both skip work the
general paths do (checking, listing every choice), so they are pinned to them here.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fogdip.bots.random_bot import play_random_game, random_orders
from fogdip.engine.judge import adjudicate
from fogdip.engine.legal import MovementOptions, legal_orders
from fogdip.engine.orders import Hold, Move, Order, UnitRef
from fogdip.engine.outcomes import OrderResult
from fogdip.engine.rules import Rules, get_rules
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit

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
        trusted = adjudicate(state, orders, rules, explain=explain, assume_legal=True)
        checked = adjudicate(state, orders, rules, explain=explain)
        # Checking rewrites a convoy-only move as "VIA" in ``order``; everything else is the same.
        assert [_without_order(r) for r in trusted.orders] == [_without_order(r) for r in checked.orders]
        assert replace(trusted, orders=()) == replace(checked, orders=())
        for result in trusted.orders:
            assert result.text == ("" if result.defaulted else str(result.order))


def _without_order(result: OrderResult) -> OrderResult:
    return result._replace(order=Hold(UnitRef(None, "")))


def test_trusted_orders_given_twice_are_settled_as_checked_ones() -> None:
    state = GameState.initial()
    rules = get_rules()
    options = legal_orders(state, "FRANCE", rules)
    par = options["PAR"]
    orders: dict[str, list[Order]] = {"FRANCE": [par[1], par[2], options["MAR"][1]]}
    trusted = adjudicate(state, orders, rules, assume_legal=True)
    assert trusted == adjudicate(state, orders, rules)
    result = trusted.result_of("PAR")
    assert result is not None and not result.legal and result.outcome == "illegal"
    assert "two different orders" in str(result.reason)


def test_orders_built_by_hand_are_checked() -> None:
    """Only orders ``legal_orders`` handed out for this very position are trusted; others are
    checked, and the result is the checked one."""
    state = GameState.initial()
    orders: dict[str, list[Order]] = {
        "FRANCE": [Move(UnitRef("A", "PAR"), "BUR")],
        "GERMANY": [Move(UnitRef("A", "MUN"), "BUR")],
    }
    trusted = adjudicate(state, orders, assume_legal=True)
    assert trusted == adjudicate(state, orders)
    result = trusted.result_of("PAR")
    assert result is not None and result.text == "A PAR - BUR" and result.results == ("bounce",)


@pytest.mark.parametrize("order", ["A PAR - BUR", Hold(UnitRef("A", "BUR")), "A PAR - NTH"])
def test_trusting_orders_that_are_not_legal_checks_them(order: str | Order) -> None:
    """An order that commands no unit, or is illegal, is checked as ever: rejected or void."""
    state = GameState.initial()
    assert adjudicate(state, {"FRANCE": [order]}, assume_legal=True) == adjudicate(state, {"FRANCE": [order]})


def test_a_power_cannot_move_another_powers_unit_by_trusting() -> None:
    """The issue's case: a legal order of France's army, given by Germany with
    ``assume_legal=True``, moved the French army. It is checked, and rejected."""
    state = GameState.initial()
    french = legal_orders(state, "FRANCE", get_rules())["PAR"]
    move = next(o for o in french if isinstance(o, Move) and o.target == "BUR")
    record = adjudicate(state, {"GERMANY": [move]}, assume_legal=True)
    assert [(r.power, str(r.reason)) for r in record.rejected] == [("GERMANY", "GERMANY has no unit in PAR")]
    assert record.after.units["PAR"] == state.units["PAR"] and "BUR" not in record.after.units


def test_orders_handed_out_for_another_position_are_checked() -> None:
    """A convoy legal where fleets stood is not trusted in a position without them."""
    rules = get_rules()
    fleets = GameState.initial().with_changes(
        units={"LON": Unit("ENGLAND", "A", "LON"), "NTH": Unit("ENGLAND", "F", "NTH")}
    )
    convoy = next(o for o in legal_orders(fleets, "ENGLAND", rules)["NTH"] if o.kind == "convoy")
    alone = fleets.with_changes(units={"NTH": fleets.units["NTH"]})
    record = adjudicate(alone, {"ENGLAND": [convoy]}, rules, assume_legal=True)
    assert record == adjudicate(alone, {"ENGLAND": [convoy]}, rules)
    result = record.result_of("NTH")
    assert result is not None and not result.legal


def test_adjustments_are_counted_per_state() -> None:
    start = GameState.initial()
    fewer = start.with_changes(units={p: u for p, u in start.units.items() if p != "PAR"})
    assert start.adjustment("FRANCE") == 0
    assert fewer.adjustment("FRANCE") == 1 and fewer.adjustment("GERMANY") == 0
    assert fewer.adjustment("NOBODY") == 0
