"""Random play for whole variant games: setups, extra orders and filed-ahead lines included.

This bot draws from the true position, so it is a test and benchmark driver (a judge-side
sampler of legal orders), not a fair player: fair bots see only their own observations.

>>> from fogdip.variants import Variant
>>> variant = Variant.named("deadman")
>>> orders = random_turn_orders(variant, variant.start(), random.Random(3))
>>> sorted(orders)[:2], len(orders["RUSSIA"])
(['AUSTRIA', 'ENGLAND'], 4)
"""

from __future__ import annotations

import random

from fogdip.bots.random_bot import random_orders
from fogdip.engine.map import UnitKind
from fogdip.engine.state import GameState
from fogdip.variants import setup as setups
from fogdip.variants.turn import Position, Variant


def random_turn_orders(variant: Variant, position: Position, rng: random.Random) -> dict[str, list[str]]:
    """Random order lines of every power for the next turn of ``position``."""
    state = position.state
    if position.setup_pending:
        return {power: _random_setup(state, power, variant.options.setup, rng) for power in state.powers}
    kinds = variant.turn_kinds(position)
    orders: dict[str, list[str]] = {power: [] for power in state.powers}
    first = random_orders(state, variant.rules, rng)
    for power, chosen in first.items():
        orders[power].extend(str(order) for order in chosen)
    if kinds[0] == "M":
        _add_extras(variant, state, orders, rng)
    if "R" in kinds[1:]:
        for power in state.powers:
            orders[power].extend(_retreat_guesses(state, power, rng))
    if "A" in kinds[1:]:
        for power in state.powers:
            orders[power].extend(_adjustment_guesses(state, power, rng))
    if kinds[1:] == ("M",):
        after_winter = state.with_changes(phase=state.phase.next_season_phase("M"))
        spring = {p: [str(o) for o in chosen] for p, chosen in random_orders(after_winter, variant.rules, rng).items()}
        _add_extras(variant, after_winter, spring, rng)
        for power, lines in spring.items():
            orders[power].extend(lines)
    return orders


def _random_setup(state: GameState, power: str, setup: str, rng: random.Random) -> list[str]:
    board = state.board
    centers = setups.start_centers(state, power, setup)
    count = len(setups.default_units(power, setup, board))
    lines = []
    for center in rng.sample(centers, min(count, len(centers))):
        choices = [f"A {center}"] if board.can_hold("A", center) else []
        coasts = board.coasts(center) or ((center,) if board.can_hold("F", center) else ())
        choices.extend(f"F {coast}" for coast in coasts)
        lines.append(rng.choice(choices))
    return lines


def _add_extras(variant: Variant, state: GameState, orders: dict[str, list[str]], rng: random.Random) -> None:
    options = variant.options
    for power in state.powers:
        units = sorted((u for u in state.units.values() if u.power == power), key=lambda u: u.province)
        if not units:
            continue
        if options.espionage and rng.random() < 0.4:
            spy = rng.choice(units)
            target = rng.choice([p for p in state.powers if p != power])
            orders[power] = [line for line in orders[power] if not _commands(line, spy.province)]
            orders[power].append(f"{spy} E {target}")
        if options.disband_in_movement and rng.random() < 0.1:
            gone = rng.choice(units)
            orders[power] = [line for line in orders[power] if not _commands(line, gone.province)]
            orders[power].append(f"{gone} DB")
        if options.peek and state.phase.year >= options.peek_from_year and rng.random() < 0.5:
            orders[power].append(f"PAS {rng.choice(sorted(state.board.provinces))}")


def _commands(line: str, province: str) -> bool:
    parts = line.split()
    return len(parts) > 1 and parts[1].partition("/")[0] == province


def _retreat_guesses(state: GameState, power: str, rng: random.Random) -> list[str]:
    lines = []
    board = state.board
    for unit in sorted((u for u in state.units.values() if u.power == power), key=lambda u: u.province):
        if rng.random() < 0.5:
            reach = sorted(board.targets(unit.kind, unit.location))
            if reach:
                lines.append(f"{unit} R {rng.choice(reach)}")
    return lines


def _adjustment_guesses(state: GameState, power: str, rng: random.Random) -> list[str]:
    board = state.board
    lines = []
    for center in state.homes.get(power, ()):
        if rng.random() < 0.5:
            kinds: list[UnitKind] = [k for k in ("A", "F") if board.can_hold(k, center)]
            if kinds and not board.coasts(center):
                lines.append(f"{rng.choice(kinds)} {center} B")
    units = sorted((u for u in state.units.values() if u.power == power), key=lambda u: u.province)
    if units and rng.random() < 0.3:
        lines.append(f"{rng.choice(units)} D")
    return lines
