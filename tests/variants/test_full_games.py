"""Every preset plays a whole seeded game of random legal orders, extra orders included, to
its end; at every turn the no-leak properties hold for every power.

Non-interference at the level of whole turns: for a power P, change the order of a foreign
unit far from everything P can see or touch, re-play the turn, and if nothing changed within
two provinces of P's sight, units and centres (checked, not assumed), P's report must be
byte-identical. Same input, same output: shuffling the order of the powers and of each
power's lines changes no report.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable

import pytest

from fogdip.bots.variant_bot import random_turn_orders
from fogdip.engine.legal import legal_orders
from fogdip.engine.outcomes import Resolution
from fogdip.engine.state import GameState
from fogdip.variants import PRESETS, Position, TurnResult, Variant, compose
from views import as_json

END_YEAR = 1904


def report(played: TurnResult, power: str) -> str:
    return json.dumps(as_json(played.observations[power]), sort_keys=True)


def ball(state: GameState, provinces: Iterable[str], radius: int = 2) -> set[str]:
    region = set(provinces)
    for _ in range(radius):
        region |= {n for p in region for n in state.board.neighbours[p]}
    return region


def region_of(variant: Variant, position: Position, played: TurnResult, power: str) -> set[str]:
    before, after = position.state, played.position.state
    seeds: set[str] = set()
    for state in (before, after):
        seeds |= variant.fog.visible_provinces(state, power)
        seeds |= {u.province for u in state.units.values() if u.power == power}
        seeds |= {p for p, d in state.dislodged.items() if d.unit.power == power}
        seeds |= {c for c, owner in state.centers.items() if owner == power}
        seeds |= set(state.homes.get(power, ()))
    for held in (position.usage, played.position.usage):
        seeds |= {p for p, holder in held.get("holders", {}).items() if holder == power}
    return ball(before, seeds)


def same_within(region: set[str], first: Iterable[Resolution], second: Iterable[Resolution]) -> bool:
    pairs = list(zip(first, second, strict=False))
    if len(list(first)) != len(list(second)):
        return False
    for one, two in pairs:
        if str(one.before.phase) != str(two.before.phase) or one.after.phase != two.after.phase:
            return False
        for state_one, state_two in ((one.before, two.before), (one.after, two.after)):
            for province in region:
                if state_one.units.get(province) != state_two.units.get(province):
                    return False
                if state_one.centers.get(province) != state_two.centers.get(province):
                    return False
                if state_one.dislodged.get(province) != state_two.dislodged.get(province):
                    return False
            counts_one = sorted(state_one.center_count(p) for p in state_one.powers)
            counts_two = sorted(state_two.center_count(p) for p in state_two.powers)
            if counts_one != counts_two or state_one.completed != state_two.completed:
                return False
        touching_one = {(r.text, r.results) for r in one.orders if _touches(r, region)}
        touching_two = {(r.text, r.results) for r in two.orders if _touches(r, region)}
        if touching_one != touching_two:
            return False
    return True


def _touches(result: object, region: set[str]) -> bool:
    from fogdip.fog.sight import order_provinces

    return any(p in region for p in order_provinces(result))  # type: ignore[arg-type]


def far_perturbation(
    variant: Variant, position: Position, orders: dict[str, list[str]], power: str, region: set[str], rng: random.Random
) -> dict[str, list[str]] | None:
    """The same orders with one far foreign unit's normal order replaced by another legal one."""
    state = position.state
    if state.phase.kind != "M" or position.setup_pending:
        return None
    candidates = sorted(
        (u for u in state.units.values() if u.power != power and u.province not in region), key=lambda u: u.province
    )
    rng.shuffle(candidates)
    for unit in candidates:
        lines = orders.get(unit.power, [])
        mine = [
            i
            for i, line in enumerate(lines)
            if line.split()[1:2] and line.split()[1].partition("/")[0] == unit.province
        ]
        if len(mine) != 1 or " E " in lines[mine[0]] or lines[mine[0]].endswith(" DB"):
            continue
        options = [
            str(o)
            for o in legal_orders(state, unit.power, variant.rules).get(unit.province, [])
            if all(p not in region for p in _named(str(o), state))
        ]
        options = [o for o in options if o != lines[mine[0]]]
        if options:
            changed = {p: list(listed) for p, listed in orders.items()}
            changed[unit.power][mine[0]] = rng.choice(options)
            return changed
    return None


def _named(text: str, state: GameState) -> list[str]:
    return [state.board.province_of(token) for token in text.split() if state.board.is_location(token)]


def shuffled(orders: dict[str, list[str]], rng: random.Random) -> dict[str, list[str]]:
    powers = list(orders)
    rng.shuffle(powers)
    out = {}
    for power in powers:
        lines = list(orders[power])
        if not any(line.split()[-1] in ("B", "D") or " R " in line or line.upper().startswith("IF") for line in lines):
            rng.shuffle(lines)  # within-power order only matters for adjustments and filed-ahead lines
        out[power] = lines
    return out


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_each_preset_plays_to_its_end_without_leaks(preset: str) -> None:
    variant = Variant(compose(preset, end_year=END_YEAR))
    rng = random.Random(f"full-game-{preset}")
    position = variant.start()
    turns = checked = 0
    while not position.completed:
        orders = random_turn_orders(variant, position, rng)
        played = variant.play(position, orders)
        again = variant.play(position, shuffled(orders, rng))
        for power in position.state.powers:
            assert report(played, power) == report(again, power), (
                f"{preset} {played.turn} {power}: submission order matters"
            )
        if variant.options.fog_enabled and not played.position.completed:
            for power in position.state.powers:
                region = region_of(variant, position, played, power)
                changed = far_perturbation(variant, position, orders, power, region, rng)
                if changed is None:
                    continue
                other = variant.play(position, changed)
                if not same_within(region, played.resolutions, other.resolutions):
                    continue
                checked += 1
                assert report(played, power) == report(other, power), (
                    f"{preset} {played.turn}: {power}'s report changed when a far foreign order changed"
                )
        position = played.position
        turns += 1
        assert turns < 200
    assert position.completed
    if variant.options.fog_enabled:
        assert checked > 20, f"only {checked} non-interference checks ran"


def test_options_compose_diplomyopia_sight_on_the_1898_start() -> None:
    """Issue: "Diplomyopia sight on the 1898 start must be a valid game." """
    variant = Variant(compose("fog-1898", fog="diplomyopia", garrisons="provinces", end_year=1903))
    assert variant.options.setup == "1898" and variant.fog.name == "diplomyopia"
    rng = random.Random("composed")
    position = variant.start()
    assert position.name == "S1901S"
    while not position.completed:
        played = variant.play(position, random_turn_orders(variant, position, rng))
        for power, seen in played.observations.items():
            assert seen.power == power and seen.variant == "diplomyopia"
        position = played.position
    assert any(n.kind == "game-over" for n in played.observations["ITALY"].notices)
