"""What the fog shows of an order never depends on the engine's whole-board legality.

The engine calls a move between two non-adjacent coasts legal only if some fleets, anyone's,
could carry the army, and a support legal only if the unit it names is there and can reach.
Each case below (found by an independent review) changes only a unit the watching power cannot
see, and checks that its report is byte-identical.
"""

from __future__ import annotations

import json

import pytest

from fogdip.documents import state_from_document
from fogdip.engine.state import GameState
from fogdip.variants import Position, Variant
from views import as_json

FOG_PRESETS = ["fog-of-war", "sighting", "deadman", "diplomyopia", "fog-1898"]


def position(units: dict[str, list[str]]) -> Position:
    state: GameState = state_from_document({"phase": "S1901M", "units": units, "centers": {}})[0]
    return Position(state)


def report(preset: str, units: dict[str, list[str]], orders: dict[str, list[str]], power: str) -> str:
    variant = Variant.named(preset)
    played = variant.play(position(units), orders)
    return json.dumps(as_json(played.observations[power]), sort_keys=True)


def hidden_from(preset: str, units: dict[str, list[str]], power: str, province: str) -> bool:
    variant = Variant.named(preset)
    return province not in variant.fog.visible_provinces(position(units).state, power)


@pytest.mark.parametrize("preset", FOG_PRESETS)
def test_own_convoy_move_does_not_tell_whether_unseen_fleets_could_carry_it(preset: str) -> None:
    without = {"FRANCE": ["A GAS"], "ENGLAND": ["F MAO"]}
    with_fleet = {"FRANCE": ["A GAS"], "ENGLAND": ["F MAO", "F IRI"]}
    assert hidden_from(preset, with_fleet, "FRANCE", "IRI")
    orders = {"FRANCE": ["A GAS - LVP"]}
    assert report(preset, without, orders, "FRANCE") == report(preset, with_fleet, orders, "FRANCE")


@pytest.mark.parametrize("preset", FOG_PRESETS)
def test_foreign_convoy_move_looks_the_same_whether_or_not_unseen_fleets_exist(preset: str) -> None:
    without = {"FRANCE": ["A BRE"], "GERMANY": ["A PAR", "A LVP"]}
    with_fleet = {"FRANCE": ["A BRE"], "GERMANY": ["A PAR", "A LVP"], "ITALY": ["F ENG"]}
    assert hidden_from(preset, with_fleet, "GERMANY", "ENG")
    orders = {"FRANCE": ["A BRE - WAL"], "GERMANY": ["A PAR H", "A LVP H"]}
    assert report(preset, without, orders, "GERMANY") == report(preset, with_fleet, orders, "GERMANY")


@pytest.mark.parametrize("preset", FOG_PRESETS)
def test_foreign_attack_by_convoy_is_seen_the_same_whatever_unseen_fleets_there_are(preset: str) -> None:
    without = {"ENGLAND": ["A WAL"], "ITALY": ["F IRI"], "FRANCE": ["A POR"]}
    with_fleet = {"ENGLAND": ["A WAL"], "ITALY": ["F IRI"], "FRANCE": ["A POR"], "GERMANY": ["F MAO"]}
    assert hidden_from(preset, with_fleet, "ENGLAND", "MAO")
    orders = {"FRANCE": ["A POR - WAL"], "ENGLAND": ["A WAL H"]}
    assert report(preset, without, orders, "ENGLAND") == report(preset, with_fleet, orders, "ENGLAND")


@pytest.mark.parametrize("preset", FOG_PRESETS)
def test_foreign_support_of_an_unseen_unit_looks_the_same_whether_it_is_there_or_not(preset: str) -> None:
    without = {"FRANCE": ["A MUN"], "ITALY": ["A TYR"]}
    with_unit = {"FRANCE": ["A MUN"], "ITALY": ["A TYR"], "ENGLAND": ["A PIC"]}
    assert hidden_from(preset, with_unit, "ITALY", "PIC")
    orders = {"FRANCE": ["A MUN S A PIC - BUR"], "ITALY": ["A TYR H"]}
    assert report(preset, without, orders, "ITALY") == report(preset, with_unit, orders, "ITALY")


@pytest.mark.parametrize("preset", FOG_PRESETS)
def test_own_support_of_an_unseen_unit_reads_the_same_whether_it_is_there_or_not(preset: str) -> None:
    without = {"FRANCE": ["A MUN"]}
    with_unit = {"FRANCE": ["A MUN"], "ENGLAND": ["F PIC"]}
    assert hidden_from(preset, with_unit, "FRANCE", "PIC")
    orders = {"FRANCE": ["A MUN S PIC - BUR"]}
    assert report(preset, without, orders, "FRANCE") == report(preset, with_unit, orders, "FRANCE")
