"""The heuristic Tactics (fogdip.bots.heuristic): what it orders, that every order is legal,
and that it beats random players."""

from __future__ import annotations

import random
import time
from functools import cache

import pytest
from heuristic_games import heuristic_orders, heuristic_seat, play, random_seat
from hypothesis import given, settings
from hypothesis import strategies as st

from fogdip.bots.base import BotInput
from fogdip.bots.belief import believe
from fogdip.bots.heuristic import Heuristic, full_picture, state_orders
from fogdip.bots.picture import Picture, picture_of
from fogdip.bots.seen_bot import bot_lines
from fogdip.engine.judge import adjudicate
from fogdip.engine.legal import legal_orders
from fogdip.engine.orders import Build, Convoy, Disband, Move, Order, Retreat, SupportHold, SupportMove, UnitRef
from fogdip.engine.rules import get_rules
from fogdip.engine.state import Dislodged, GameState
from fogdip.engine.units import Phase, Unit
from fogdip.game import Game
from fogdip.variants import Position, Variant

STANDARD = Variant.named("standard")


@cache
def inputs(preset: str) -> tuple[BotInput, ...]:
    """Every power's input each turn of a game to 1905 where one seat in two plays random."""
    game = Game.create(preset)
    rng = random.Random(11)
    out: list[BotInput] = []
    while not game.position.completed and game.position.state.phase.year <= 1905:
        for number, power in enumerate(game.still_in()):
            given_input = BotInput.of(game, power)
            out.append(given_input)
            if number % 2:
                lines = bot_lines(game.variant, given_input.seen, rng)
            else:
                lines = [str(order) for order in heuristic_orders(given_input, rng)]
            game.file(power, lines, partial=True)
        game.adjudicate()
    return tuple(out)


def movement_pictures(preset: str) -> list[Picture]:
    return [believe(g) for g in inputs(preset) if g.kinds == ("M",)]


def check_movement(picture: Picture, orders: list[Order]) -> None:
    """One legal order per own unit, supports only of own units, no two units to one place."""
    board = picture.state.board
    own = {unit.province: unit for unit in picture.state.units_of(picture.power)}
    assert sorted(order.unit.province for order in orders) == sorted(own)  # type: ignore[union-attr]
    ending: list[str] = []
    for order in orders:
        unit = own[order.unit.province]  # type: ignore[union-attr]
        site = board.sites[unit.kind + unit.location]
        if order not in site.facts:
            # A convoy (a convoyed move, a support of one) is legal by the units on the board: a route of
            # fleets at sea.
            legal = legal_orders(picture.state, picture.power, get_rules())
            assert isinstance(order, (Convoy, Move, SupportMove)), f"{order} is not legal by the map"
            assert order in legal[unit.province], f"{order} is not legal on this board"
        if isinstance(order, Convoy):
            made = {Move(order.army, order.target, via_convoy=via) for via in (False, True)}
            assert made & set(orders), f"{order} convoys no move made"
        if isinstance(order, (SupportHold, SupportMove)):
            supported = picture.state.units.get(order.supported.province)
            assert supported is not None and supported.power == picture.power, f"{order} supports a foreign unit"
            assert str(supported) == str(order.supported)
            if isinstance(order, SupportMove):
                made = {Move(order.supported, order.target, via_convoy=via) for via in (False, True)}
                assert made & set(orders), f"{order} supports a move not made"
        ending.append(board.province_of(order.target) if isinstance(order, Move) else unit.province)
    assert len(ending) == len(set(ending)), f"two units end in one province: {orders}"


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=0, max_value=2**32))
@pytest.mark.parametrize("preset", ["standard", "fog-of-war"])
def test_movement_orders_are_legal_own_and_never_collide(preset: str, index: int, seed: int) -> None:
    pictures = movement_pictures(preset)
    picture = pictures[index % len(pictures)]
    check_movement(picture, Heuristic().movement(picture, random.Random(seed)))


def test_every_line_the_heuristic_files_is_accepted() -> None:
    """Played through a fog-of-war game: the game screens every line and refuses none."""
    game = Game.create("fog-of-war")
    rng = random.Random(3)
    while not game.position.completed and game.position.state.phase.year <= 1904:
        for power in game.still_in():
            lines = heuristic_seat(BotInput.of(game, power), rng)
            checks = game.screen(power, lines)
            assert all(check.error is None for check in checks), [c.error for c in checks if c.error]
            game.file(power, lines)
        game.adjudicate()


def test_from_the_standard_opening_units_move_toward_neutral_centres() -> None:
    board = STANDARD.board
    neutral = tuple(c for c in board.center_set if not any(c in board.home_centers(p) for p in board.powers))
    distance = board.distances_from(neutral)
    game = Game.create("standard")
    for power in game.powers:
        picture = picture_of(BotInput.of(game, power))
        for seed in range(5):
            orders = Heuristic().movement(picture, random.Random(seed))
            moves = [order for order in orders if isinstance(order, Move)]
            assert len(moves) >= 2, (power, orders)
            for move in moves:
                # Never away from the neutral centres: onto one, or no farther from the nearest.
                assert distance[board.province_of(move.target)] <= distance[move.unit.province], (power, str(move))
            assert any(distance[board.province_of(m.target)] < distance[m.unit.province] for m in moves)


def test_it_builds_when_due_and_removes_when_due() -> None:
    state = Position.of(
        {"FRANCE": ["A BUR"], "GERMANY": ["A RUH"]},
        "W1901A",
        centers={"PAR": "FRANCE", "MAR": "FRANCE", "BRE": "FRANCE", "BEL": "FRANCE", "MUN": "GERMANY"},
    ).state
    picture = Picture("FRANCE", state, presence={"RUH": {"GERMANY": 1.0}})
    builds = Heuristic().adjustments(picture, 2, ["BRE", "MAR", "PAR"], random.Random(1))
    assert len(builds) == 2 and all(isinstance(order, Build) for order in builds)
    placed = [order.unit.province for order in builds]  # type: ignore[union-attr]
    assert len(set(placed)) == 2 and set(placed) <= {"BRE", "MAR", "PAR"}
    for order in builds:
        assert STANDARD.board.can_hold(order.unit.kind, order.unit.location)  # type: ignore[union-attr, arg-type]
    crowded = Position.of(
        {"FRANCE": ["A BUR", "A PAR", "F BRE", "A GAS"]}, "W1901A", centers={"PAR": "FRANCE", "BRE": "FRANCE"}
    ).state
    removals = Heuristic().adjustments(Picture("FRANCE", crowded), -2, [], random.Random(1))
    assert len(removals) == 2 and all(isinstance(order, Disband) for order in removals)
    assert len({order.unit.province for order in removals}) == 2  # type: ignore[union-attr]
    assert {order.unit.province for order in removals} <= {"BUR", "PAR", "BRE", "GAS"}  # type: ignore[union-attr]


def test_a_retreat_avoids_the_attack_origin_standoffs_and_occupied_places() -> None:
    state = Position.of({"FRANCE": ["A PAR"], "GERMANY": ["A BUR", "A PIC"]}, "S1901R").state
    picture = Picture(
        "FRANCE",
        state.with_changes(units={k: v for k, v in state.units.items() if v.power == "GERMANY"}),
        dislodged={"PAR": Unit("FRANCE", "A", "PAR")},
        presence={"BUR": {"GERMANY": 1.0}, "PIC": {"GERMANY": 1.0}},
        attacked_from={"PAR": "GAS"},
        standoffs=frozenset({"BRE"}),
    )
    for seed in range(10):
        orders = Heuristic().retreats(picture, random.Random(seed))
        assert orders == [Disband(orders[0].unit)] or all(  # type: ignore[union-attr]
            isinstance(order, Retreat) and order.target not in {"GAS", "BRE", "BUR", "PIC"} for order in orders
        )
    # Nowhere left: it disbands.
    assert all(isinstance(order, Disband) for order in Heuristic().retreats(picture, random.Random(0)))


def test_state_orders_play_every_phase_with_full_information() -> None:
    rules = get_rules()
    seen_kinds: set[str] = set()
    # Every power plays state_orders against the others, to 1905, through the adjudicator.
    state, rng = GameState.initial(), random.Random(8)
    while not state.completed and state.phase.year <= 1905:
        seen_kinds.add(state.phase.kind)
        chosen = {power: state_orders(state, power, rules, rng) for power in state.powers}
        for power, orders in chosen.items():
            if state.phase.kind == "M":
                check_movement(_full(state, power), orders)
            elif state.phase.kind == "R":
                mine = {p: d for p, d in state.dislodged.items() if d.unit.power == power}
                assert sorted(order.unit.province for order in orders) == sorted(mine)  # type: ignore[union-attr]
                for order in orders:
                    if isinstance(order, Retreat):
                        assert order.target in mine[order.unit.province].retreats
            else:
                due = state.adjustment(power)
                assert len(orders) <= abs(due)
                if due < 0:
                    assert len(orders) == -due and all(isinstance(o, Disband) for o in orders)
                for order in orders:
                    if isinstance(order, Build):
                        assert order.unit.province in state.homes[power]
                        assert order.unit.province not in state.units
        record = adjudicate(state, chosen, rules)
        assert not record.rejected
        state = record.after
    assert seen_kinds == {"M", "R", "A"}


def test_state_orders_retreat_to_a_listed_place() -> None:
    state = GameState.initial().with_changes(
        phase=Phase.parse("S1901R"),
        units={"BUR": Unit("GERMANY", "A", "BUR")},
        dislodged={"PAR": Dislodged(Unit("FRANCE", "A", "PAR"), "BUR", ("GAS",))},
    )
    assert [str(order) for order in state_orders(state, "FRANCE", get_rules(), random.Random(0))] == ["A PAR R GAS"]


def _full(state: GameState, power: str) -> Picture:
    from fogdip.bots.heuristic import full_picture

    return full_picture(state, power)


def test_the_heuristic_is_quick() -> None:
    given_inputs = [g for g in inputs("fog-of-war") if g.kinds == ("M",)][-40:]
    pictures = [believe(g) for g in given_inputs]
    started = time.perf_counter()
    for picture in pictures:
        Heuristic().movement(picture, random.Random(0))
    per_call = (time.perf_counter() - started) / len(pictures)
    assert per_call < 0.010, f"{per_call * 1000:.1f} ms per power's orders"


def test_values_rank_neutral_centres_above_the_empty_sea() -> None:
    picture = picture_of(BotInput.of(Game.create("standard"), "FRANCE"))
    values = Heuristic().values(picture)
    assert set(values) == set(STANDARD.board.provinces)
    assert values["SPA"] > values["MAO"] > values["NAO"]


@pytest.mark.slow
def test_one_heuristic_beats_six_random_players() -> None:
    """Three seeded standard games to 1910: the heuristic ends with more centres than any
    random player in each."""
    powers = STANDARD.board.powers
    for number, hero in enumerate(("FRANCE", "RUSSIA", "ITALY")):
        seats = {power: heuristic_seat if power == hero else random_seat for power in powers}
        played = play("standard", seats, seed=number, end_year=1910)
        others = max(count for power, count in played.centers.items() if power != hero)
        assert played.centers[hero] > others, played.centers


def test_an_army_whose_best_landing_is_across_water_is_convoyed_by_its_fleet() -> None:
    """England's army in London can reach only Wales and Yorkshire by land; with its fleet in
    the North Sea it is carried to a centre across the water, the fleet convoying it."""
    units = {"LON": Unit("ENGLAND", "A", "LON"), "NTH": Unit("ENGLAND", "F", "NTH")}
    state = GameState.initial().with_changes(phase=Phase("F", 1901, "M"), units=units)
    picture = full_picture(state, "ENGLAND")
    convoyed = 0
    for seed in range(10):
        orders = Heuristic().movement(picture, random.Random(seed))
        check_movement(picture, orders)
        army = next(order for order in orders if order.unit.province == "LON")  # type: ignore[union-attr]
        fleet = next(order for order in orders if order.unit.province == "NTH")  # type: ignore[union-attr]
        if isinstance(fleet, Convoy):
            assert army == Move(UnitRef("A", "LON"), fleet.target)
            assert fleet.target in state.board.center_set
            convoyed += 1
    assert convoyed >= 5
