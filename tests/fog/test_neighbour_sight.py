"""``FogRules.sees_every_neighbour``: where a rule set claims it, two units side by side always
see each other, owners included, in every report; so which powers stand next to which is known
alike to both (the server's adjacency-limited press relies on it)."""

from __future__ import annotations

import random

import pytest

from fogdip.bots.random_bot import random_orders
from fogdip.fog import FOG_RULES
from fogdip.fog.observation import Observation
from fogdip.game import Game
from fogdip.variants import PRESETS


def neighbours_unseen(game: Game, power: str, seen: Observation) -> list[str]:
    """The foreign units next to one of ``power``'s units that its report does not show with
    their owner."""
    state = game.position.state
    board = state.board
    shown = {(unit.province, unit.owner) for unit in seen.units if not unit.dislodged}
    missing = []
    for mine in (unit for unit in state.units.values() if unit.power == power):
        for province in sorted(board.adjacent_provinces(mine.province)):
            other = state.units.get(province)
            if other is not None and other.power != power and (province, other.power) not in shown:
                missing.append(f"{other.power} {province} next to {power} {mine.province}")
    return missing


def misses(preset: str, seed: int, turns: int = 12) -> list[str]:
    """Every miss in a seeded random game of ``preset``."""
    rng = random.Random(seed)
    game = Game.create(preset, end_year=1905)
    found = []
    for _ in range(turns):
        if game.position.completed:
            break
        state = game.position.state
        if not game.position.setup_pending and state.phase.kind == "M":
            for power, orders in random_orders(state, game.variant.rules, rng).items():
                game.file(power, [str(order) for order in orders], partial=True)
        game.adjudicate()
        for power in game.powers:
            found += neighbours_unseen(game, power, game.reports(power)[-1])
    return found


def presets_whose_rules(claim: bool) -> list[str]:
    return sorted(name for name, preset in PRESETS.items() if FOG_RULES[preset.fog].sees_every_neighbour is claim)


@pytest.mark.parametrize("preset", presets_whose_rules(True))
@pytest.mark.parametrize("seed", range(3))
def test_units_side_by_side_see_each_other(preset: str, seed: int) -> None:
    assert misses(preset, seed) == []


def test_the_claim_is_made_where_it_holds_only() -> None:
    """The rule sets that do not claim it do miss neighbours (fog-of-war sees as a unit moves:
    a fleet at sea and an army on the coast beside it), so the test above could fail."""
    assert presets_whose_rules(True) == ["diplomyopia", "fog-1898", "standard"]
    assert any(misses("fog-of-war", seed) for seed in range(3))
