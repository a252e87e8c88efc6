"""The turn planner plays every phase of every preset as a player would.

Seven planned bots (random tactics, the blind picture) play each preset from its start for
three game years. Every line they file passes the filing check: none is refused, not even a
sighting retreat guess (a guess is checked when filed only for naming an own unit and a place
it could ever reach, which the planner always does; whether the place is free is the turn's
to find out). Every unit gets its order; deadman's setups are not the standard start;
deadman's extra orders and sighting's orders filed ahead appear.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fogdip.bots.base import SETUP, BotInput
from fogdip.bots.extras import espionage_used
from fogdip.bots.picture import picture_of
from fogdip.bots.planned import PlannedBot
from fogdip.bots.tactics import RandomTactics
from fogdip.bots.turns import adjustment_due, plan, plan_orders, retreat_bars
from fogdip.engine.orders import Build, Disband, Move
from fogdip.game import Game
from fogdip.variants import setup as setups
from fogdip.variants.lines import Movement, Negation, read_lines

PRESETS = ("standard", "fog-of-war", "sighting", "deadman", "diplomyopia", "fog-1898")
LAST_YEAR = 1903


@dataclass(frozen=True)
class Filed:
    """What one power filed for one turn, and how the game took it."""

    turn: str
    power: str
    kinds: tuple[str, ...]
    lines: tuple[str, ...]
    refused: tuple[tuple[str, str], ...]
    unordered: int
    #: Builds the power could not make for want of a free centre (adjustments only).
    unbuildable: int
    #: Units left without a Spring order in deadman's Winter and Spring turn.
    spring_unordered: tuple[str, ...]


def _spring_unordered(game: Game, power: str, given: BotInput, lines: list[str]) -> tuple[str, ...]:
    """Deadman's Winter then Spring: the units the power will have in Spring (its own, with
    the Winter's builds, less its removals) that no Spring line commands."""
    variant = game.variant
    read = read_lines(lines, given.kinds, variant.board, variant.options)
    units = {unit.province for unit in given.own_units if not unit.dislodged}
    for line in read:
        if line.kind == "A" and isinstance(line.order, Build):
            units.add(line.order.unit.province)
        elif line.kind == "A" and isinstance(line.order, Disband):
            units.discard(line.order.unit.province)
    commanded = {
        variant.board.province_of(unit.location)
        for line in read
        if line.kind == "M" and (unit := getattr(line.order, "unit", None)) is not None
    }
    return tuple(sorted(units - commanded))


@functools.cache
def played(preset: str, seed: int) -> tuple[Filed, ...]:
    """A game of ``preset`` by seven planned bots, to the end of ``LAST_YEAR``."""
    bot = PlannedBot("planned-random", RandomTactics(), picture_of)
    game, rng = Game.create(preset), random.Random(seed)
    out: list[Filed] = []
    while not game.position.completed and int(game.turn[1:5]) <= LAST_YEAR:
        for power in game.still_in():
            given = BotInput.of(game, power)
            lines = bot.orders(given, rng)
            refused = tuple((v.text, v.error) for v in game.screen(power, lines) if v.error is not None)
            unbuildable = 0
            if given.kinds[:1] == ("A",):
                due, sites = adjustment_due(given)
                unbuildable = max(due - len(sites), 0)
            spring = _spring_unordered(game, power, given, lines) if given.kinds == ("A", "M") else ()
            unordered = game.unordered(power, lines)
            out.append(Filed(game.turn, power, given.kinds, tuple(lines), refused, unordered, unbuildable, spring))
            game.file(power, lines)
        game.adjudicate()
    return tuple(out)


@pytest.mark.parametrize("preset", PRESETS)
def test_every_line_passes_the_filing_check(preset: str) -> None:
    for seed in (1, 2):
        filed = played(preset, seed)
        assert [(f.turn, f.power, f.refused) for f in filed if f.refused] == []
        assert {f.turn[1:5] for f in filed} >= {"1901", "1902", "1903"}


@pytest.mark.parametrize("preset", PRESETS)
def test_every_unit_gets_an_order(preset: str) -> None:
    for seed in (1, 2):
        for f in played(preset, seed):
            assert f.unordered <= f.unbuildable, f
            assert f.spring_unordered == (), f


def test_deadman_setups_are_not_the_standard_start() -> None:
    board = Game.create("deadman").variant.board
    for seed in (1, 2):
        setups_filed = [f for f in played("deadman", seed) if f.kinds == (SETUP,)]
        assert len(setups_filed) == 7
        for f in setups_filed:
            standard = sorted(f"{unit.kind} {unit.location}" for unit in setups.default_units(f.power, "free", board))
            assert sorted(f.lines) != standard, f
            assert len(f.lines) == len(standard)


def test_the_1898_start_chooses_a_type_for_the_one_centre() -> None:
    for f in played("fog-1898", 1):
        if f.kinds == (SETUP,):
            assert len(f.lines) == 1
            assert f.lines[0].split()[1].partition("/")[0] == setups.CENTERS_1898[f.power]


def test_deadman_bots_spy_peek_and_disband_in_movement() -> None:
    lines = [line for seed in (1, 2, 3) for f in played("deadman", seed) for line in f.lines]
    spies = [line for line in lines if " E " in line]
    peeks = [line for line in lines if line.startswith("PAS ")]
    disbands = [line for line in lines if line.endswith(" DB")]
    assert spies and peeks and disbands, (len(spies), len(peeks), len(disbands))
    # No peek before peek_from_year (1902): the 1901 turns and the setup have none.
    early = [line for f in played("deadman", 1) if f.turn[1:5] == "1901" and f.kinds != ("A", "M") for line in f.lines]
    assert not [line for line in early if line.startswith("PAS ")]


def test_deadman_espionage_keeps_to_one_a_year() -> None:
    for seed in (1, 2, 3):
        by_power_year: dict[tuple[str, int], int] = {}
        for f in played("deadman", seed):
            if "M" not in f.kinds:
                continue
            year = int(f.turn[1:5]) + (1 if f.kinds == ("A", "M") else 0)
            spies = sum(1 for line in f.lines if " E " in line)
            by_power_year[(f.power, year)] = by_power_year.get((f.power, year), 0) + spies
        assert max(by_power_year.values()) == 1


def test_deadman_winter_turns_carry_spring_moves() -> None:
    variant = Game.create("deadman").variant
    winters = [f for f in played("deadman", 1) if f.kinds == ("A", "M")]
    assert winters
    for f in winters:
        read = read_lines(list(f.lines), f.kinds, variant.board, variant.options)
        assert any(line.kind == "M" for line in read), f


def test_sighting_files_retreats_and_adjustments_ahead_and_conditional_orders() -> None:
    variant = Game.create("sighting").variant
    kinds_seen: set[str] = set()
    conditional = 0
    for seed in (1, 2):
        for f in played("sighting", seed):
            for line in read_lines(list(f.lines), f.kinds, variant.board, variant.options):
                if line.kind != f.kinds[0]:
                    kinds_seen.add(line.kind)
                conditional += line.conditional
    assert kinds_seen == {"R", "A"}
    assert conditional >= 1


def test_the_same_input_and_seed_give_the_same_lines() -> None:
    game = Game.create("deadman")
    bot = PlannedBot("planned-random", RandomTactics(), picture_of)
    for power in game.powers:
        given = BotInput.of(game, power)
        assert bot.orders(given, random.Random(5)) == bot.orders(given, random.Random(5))
        assert plan(given, RandomTactics(), picture_of, random.Random(5)) == [
            str(order) for order in plan_orders(given, RandomTactics(), picture_of, random.Random(5))
        ]


def test_espionage_used_counts_the_powers_own_spies_by_year() -> None:
    game = Game.create("deadman")
    game.adjudicate()  # the setup, everyone by default
    game.file("ENGLAND", ["F EDI E FRANCE"])
    game.adjudicate()
    given = BotInput.of(game, "ENGLAND")
    assert espionage_used(given, 1901) == 1
    assert espionage_used(given, 1902) == 0
    # Fall 1901: the allowance is spent, so no espionage is filed.
    bot = PlannedBot("planned-random", RandomTactics(), picture_of)
    while BotInput.of(game, "ENGLAND").turn != "F1901M":
        game.adjudicate()
    fall = BotInput.of(game, "ENGLAND")
    for seed in range(10):
        assert not [line for line in bot.orders(fall, random.Random(seed)) if " E " in line]


def test_free_setups_put_fleets_where_the_sea_matters_and_armies_inland() -> None:
    for seed in (1, 2):
        by_power = {f.power: f.lines for f in played("deadman", seed) if f.kinds == (SETUP,)}
        assert sum(line.startswith("F ") for line in by_power["ENGLAND"]) >= 2, by_power
        assert sum(line.startswith("A ") for line in by_power["AUSTRIA"]) >= 2, by_power
        assert sum(line.startswith("A ") for line in by_power["RUSSIA"]) >= 2, by_power


def test_builds_filed_ahead_hang_on_the_moves_that_would_gain_their_centres() -> None:
    variant = Game.create("sighting").variant
    conditional_builds = 0
    for seed in (1, 2):
        for f in played("sighting", seed):
            read = read_lines(list(f.lines), f.kinds, variant.board, variant.options)
            moves = {(str(o.unit), o.target) for line in read if line.kind == "M" and isinstance(o := line.order, Move)}
            for line in read:
                if not line.conditional:
                    continue
                assert line.kind == "A", line.text  # conditions only on orders filed ahead
                for condition in line.conditions:
                    # Every condition is on one of the power's own moves of the same list.
                    moved = condition.condition if isinstance(condition, Negation) else condition
                    assert isinstance(moved, Movement), line.text
                    assert (str(moved.unit), moved.target) in moves, (line.text, sorted(moves))
                conditional_builds += isinstance(line.order, Build)
    assert conditional_builds >= 1


def test_a_retreat_never_goes_where_the_attack_came_from() -> None:
    game = Game.create("standard")
    game.file("FRANCE", ["A PAR - BUR", "A MAR H", "F BRE H"])
    game.file("GERMANY", ["A MUN - RUH", "A BER - MUN", "F KIE H"])
    game.adjudicate()
    game.file("FRANCE", ["A BUR H", "A MAR H", "F BRE H"])
    game.file("GERMANY", ["A RUH - BUR", "A MUN S A RUH - BUR", "F KIE H"])
    game.adjudicate()
    given = BotInput.of(game, "FRANCE")
    assert given.kinds == ("R",) and [u.province for u in given.own_units if u.dislodged] == ["BUR"]
    assert "RUH" in retreat_bars(given, picture_of(given))["BUR"]
    bot = PlannedBot("planned-random", RandomTactics(), picture_of)
    for seed in range(20):
        lines = bot.orders(given, random.Random(seed))
        assert len(lines) == 1 and "RUH" not in lines[0], lines
        assert [v.error for v in game.screen("FRANCE", lines)] == [None]


def test_a_foreign_centre_is_worth_more_in_a_spring_that_captures_it() -> None:
    from fogdip.bots.setups import worth_of

    spring = {
        preset: worth_of(picture_of(BotInput.of(Game.create(preset), "FRANCE")), RandomTactics(), captures_now=now)
        for preset, now in (("standard", False), ("diplomyopia", True))
    }
    assert spring["diplomyopia"]["BEL"] > spring["standard"]["BEL"]
    assert spring["diplomyopia"]["PAR"] == spring["standard"]["PAR"]  # its own: no change


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 2**32 - 1))
def test_any_seed_files_only_accepted_lines_and_orders_every_unit(preset: str, seed: int) -> None:
    bot = PlannedBot("planned-random", RandomTactics(), picture_of)
    game, rng = Game.create(preset), random.Random(seed)
    while not game.position.completed and int(game.turn[1:5]) <= 1902:
        for power in game.still_in():
            given = BotInput.of(game, power)
            lines = bot.orders(given, rng)
            assert [(v.text, v.error) for v in game.screen(power, lines) if v.error] == [], (game.turn, power)
            unbuildable = 0
            if given.kinds[:1] == ("A",):
                due, sites = adjustment_due(given)
                unbuildable = max(due - len(sites), 0)
            assert game.unordered(power, lines) <= unbuildable, (game.turn, power, lines)
            game.file(power, lines)
        game.adjudicate()
