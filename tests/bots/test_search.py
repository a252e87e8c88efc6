"""The search bot's tactics: legal, repeatable, within its time cap, and it finds what pays."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import given as examples
from hypothesis import strategies as st

from fogdip.bots.base import BotInput, bot_named
from fogdip.bots.belief import believe
from fogdip.bots.heuristic import Heuristic
from fogdip.bots.picture import Picture
from fogdip.bots.planned import PlannedBot
from fogdip.bots.search import BLIND_SAMPLES, SAMPLES, Search, search_for
from fogdip.bots.tactics import RandomTactics, Tactics
from fogdip.bots.variant_bot import random_turn_orders
from fogdip.engine.legal import legal_orders
from fogdip.engine.map import standard_map
from fogdip.engine.orders import Hold, Move, Order, SupportMove, UnitRef
from fogdip.engine.rules import Rules, get_rules
from fogdip.engine.state import GameState
from fogdip.engine.units import Phase, Unit
from fogdip.game import Game

MAP_RULES = get_rules().with_options(legality="map")
#: Never reached in these tests: the orders depend on the generator alone.
NO_CAP = 600.0


def played(preset: str, seed: int, turns: int) -> Game:
    """A game of ``preset`` after ``turns`` turns of seeded random play."""
    game = Game.create(preset)
    rng = random.Random(seed)
    for _ in range(turns):
        for power, lines in random_turn_orders(game.variant, game.position, rng).items():
            if power in game.still_in():
                game.file(power, lines, partial=True)
        game.adjudicate()
    return game


def movement_inputs(game: Game) -> list[BotInput]:
    inputs = [BotInput.of(game, power) for power in game.still_in()]
    return [given for given in inputs if given.kinds[:1] == ("M",) and given.own_units]


def holds(state: GameState, power: str, rules: Rules, rng: random.Random) -> list[Order]:
    """The other powers' policy in the constructed positions: every unit stands."""
    return [Hold(UnitRef(u.kind, u.location)) for p, u in sorted(state.units.items()) if u.power == power]


def into_centres(state: GameState, power: str, rules: Rules, rng: random.Random) -> list[Order]:
    """The other powers' policy in the constructed positions: each unit moves to the first
    neighbouring centre its power does not own, or stands."""
    board, orders = state.board, []
    for province in sorted(state.units):
        unit = state.units[province]
        if unit.power != power:
            continue
        ref = UnitRef(unit.kind, unit.location)
        targets = sorted(
            target
            for target in board.targets(unit.kind, unit.location)
            if board.province_of(target) in board.supply_centers
            and state.centers.get(board.province_of(target)) != power
        )
        orders.append(Move(ref, targets[0]) if targets else Hold(ref))
    return orders


def fall_1901(units: list[Unit]) -> GameState:
    start = GameState.initial()
    return start.with_changes(
        phase=Phase("F", 1901, "M"), units={standard_map().province_of(u.location): u for u in units}
    )


@pytest.mark.parametrize(("preset", "seed", "turns"), [("standard", 1, 0), ("standard", 2, 6), ("fog-of-war", 3, 5)])
def test_orders_are_legal_by_the_map_and_the_game_accepts_them(preset: str, seed: int, turns: int) -> None:
    game = played(preset, seed, turns)
    search = Search(samples=3, candidates=16, budget=NO_CAP)
    inputs = movement_inputs(game)
    assert inputs
    for given in inputs:
        picture = believe(given)
        orders = search.movement(picture, random.Random(seed))
        legal = {order for choices in legal_orders(picture.state, given.power, MAP_RULES).values() for order in choices}
        assert set(orders) <= legal
        assert sorted(order.unit.province for order in orders) == sorted(  # type: ignore[union-attr]
            u.province for u in picture.state.units_of(given.power)
        )
        checks = game.screen(given.power, [str(order) for order in orders])
        assert [check.error for check in checks] == [None] * len(orders)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@examples(
    preset=st.sampled_from(["standard", "fog-of-war"]),
    seed=st.integers(0, 10_000),
    turns=st.integers(0, 9),
    power=st.integers(0, 6),
)
def test_any_position_gets_one_legal_order_per_unit(preset: str, seed: int, turns: int, power: int) -> None:
    game = played(preset, seed, turns)
    inputs = movement_inputs(game)
    if not inputs:
        return
    one = inputs[power % len(inputs)]
    picture = believe(one)
    orders = Search(samples=2, candidates=8, budget=NO_CAP).movement(picture, random.Random(seed))
    legal = {order for choices in legal_orders(picture.state, one.power, MAP_RULES).values() for order in choices}
    assert set(orders) <= legal
    assert len({order.unit.province for order in orders}) == len(orders) == len(picture.state.units_of(one.power))  # type: ignore[union-attr]


@pytest.mark.parametrize(("preset", "seed", "turns"), [("standard", 4, 4), ("fog-of-war", 6, 4)])
def test_same_seed_same_orders(preset: str, seed: int, turns: int) -> None:
    game = played(preset, seed, turns)
    search = Search(samples=4, candidates=24, budget=NO_CAP)
    for given in movement_inputs(game):
        picture = believe(given)
        assert search.movement(picture, random.Random(7)) == search.movement(picture, random.Random(7))


def test_a_tiny_budget_is_kept() -> None:
    game = played("standard", 5, 8)
    search = Search(samples=50, candidates=500, budget=0.005)
    for given in movement_inputs(game):
        picture = believe(given)
        start = time.perf_counter()
        orders = search.movement(picture, random.Random(1))
        assert time.perf_counter() - start < 0.005 + 0.25
        assert len(orders) == len(picture.state.units_of(given.power))


@pytest.mark.parametrize("base", [Heuristic(), RandomTactics()], ids=["heuristic", "random"])
def test_it_takes_a_contested_centre_with_a_supported_move(base: Tactics) -> None:
    """Spain is neutral; England's fleet in Portugal moves there. Alone, either French army
    bounces; with the other's support it takes Spain (neither base tactics plays that)."""
    state = fall_1901([Unit("FRANCE", "A", "GAS"), Unit("FRANCE", "A", "MAR"), Unit("ENGLAND", "F", "POR")])
    picture = Picture("FRANCE", state)
    search = Search(samples=2, candidates=64, budget=NO_CAP, base=base, others=into_centres)
    orders = search.movement(picture, random.Random(2))
    moves = [order for order in orders if isinstance(order, Move)]
    supports = [order for order in orders if isinstance(order, SupportMove)]
    assert [move.target for move in moves] == ["SPA"]
    assert [(support.supported, support.target) for support in supports] == [(moves[0].unit, "SPA")]


def test_it_takes_an_empty_centre_next_to_it() -> None:
    state = fall_1901([Unit("FRANCE", "A", "GAS"), Unit("FRANCE", "F", "BRE"), Unit("ENGLAND", "F", "LON")])
    picture = Picture("FRANCE", state)
    orders = Search(samples=2, candidates=48, budget=NO_CAP, others=holds).movement(picture, random.Random(5))
    assert Move(UnitRef("A", "GAS"), "SPA") in orders


def test_with_several_boards_it_prefers_the_centre_that_is_safe_in_all() -> None:
    """Munich and Belgium are both a centre for the army in Burgundy; a German army may
    stand in Munich (half the boards), none in Belgium: Belgium is the safe gain. (The base
    tactics value every province alike: only the boards tell the two apart.)"""
    state = fall_1901([Unit("FRANCE", "A", "BUR"), Unit("ENGLAND", "F", "LON")])
    picture = Picture("FRANCE", state, presence={"MUN": {"GERMANY": 0.5}})
    search = Search(samples=12, candidates=32, budget=NO_CAP, base=RandomTactics(), others=holds)
    for seed in range(8):
        assert search.movement(picture, random.Random(seed)) == [Move(UnitRef("A", "BUR"), "BEL")]
    # On one board, where Munich happens to be empty, the two are worth the same.
    one = Search(samples=1, candidates=32, budget=NO_CAP, base=RandomTactics(), others=holds)
    assert Move(UnitRef("A", "BUR"), "MUN") in {
        order for seed in range(8) for order in one.movement(picture, random.Random(seed))
    }
    boards = {tuple(sorted(picture.sample(random.Random(seed)).units)) for seed in range(12)}
    assert len(boards) == 2  # the boards differ: Munich is held in some of them only


@pytest.mark.parametrize("preset", ["standard", "fog-of-war", "sighting", "deadman", "diplomyopia", "fog-1898"])
def test_the_bot_draws_twice_the_boards_in_a_blind_game_alone(preset: str) -> None:
    """Deadman, where nothing of the others is ever seen, is the only blind preset: the
    ``search`` bot draws 32 boards there and 16 elsewhere."""
    game = Game.create(preset)
    bot = bot_named("search")
    assert isinstance(bot, PlannedBot) and callable(bot.tactics)
    played_with = bot.tactics(BotInput.of(game, "FRANCE"))
    assert isinstance(played_with, Search)
    assert game.variant.fog.blind is (preset == "deadman")
    assert (
        played_with.samples == (BLIND_SAMPLES if preset == "deadman" else SAMPLES) == search_for(game.variant).samples
    )
    assert (BLIND_SAMPLES, SAMPLES) == (32, 16)
    assert played_with.captures_any_season is game.variant.options.captures_any_season
