"""The game page's choices (:mod:`fogdip.web.choices`): every order offered is one the filing
check accepts, as written; and under fog a unit the power cannot see changes nothing offered,
byte for byte."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fogdip.engine.units import Unit
from fogdip.fog.observation import Observation
from fogdip.game.service import Game
from fogdip.variants.turn import Position, Variant
from fogdip.web.choices import Choices, build_choices, choices_of

PRESETS = ("standard", "fog-of-war", "sighting", "deadman", "diplomyopia", "fog-1898")


def offered(choices: Choices) -> list[str]:
    """Every line the choices offer, one by one."""
    out: list[str] = []
    for unit in choices.units:
        out += [unit.hold] if unit.hold else []
        out += [text for texts in unit.moves.values() for text in texts]
        out += [text for _other, _to, text in unit.supports]
        out += [text for _army, _to, text in unit.convoys]
        out += [text for _label, text in unit.extras]
        out += [text for texts in unit.guesses.values() for text in texts]
        out += [unit.disband] if unit.disband else []
    if choices.adjust is not None:
        out += [text for texts in choices.adjust.sites.values() for text in texts]
        out += list(choices.adjust.removals.values())
        out += [choices.adjust.waive] if choices.adjust.waive else []
    out += [text for texts in choices.setup.values() for text in texts]
    out += [f"PAS {province}" for province in choices.peek]
    return out


def assert_all_accepted(variant: Variant, position: Position, power: str, choices: Choices) -> int:
    lines = offered(choices)
    for text in lines:
        verdict = variant.screen(position, power, [text])[0]
        assert verdict.ok, (text, verdict.error)
        assert verdict.text == text
    return len(lines)


def report_of(variant: Variant, position: Position, power: str) -> Observation:
    return variant.fog.initial(position.state, power)


@pytest.mark.parametrize("preset", PRESETS)
def test_every_choice_at_the_start_is_accepted_by_the_filing_check(preset: str) -> None:
    game = Game.create(preset)
    for power in game.powers:
        choices = choices_of(game, power)
        assert assert_all_accepted(game.variant, game.position, power, choices) > 0


def test_a_setup_offers_each_centre_its_units() -> None:
    game = Game.create("deadman")
    choices = choices_of(game, "RUSSIA")
    assert choices.phase == "S"
    assert choices.setup["STP"] == ("A STP", "F STP/NC", "F STP/SC")
    assert choices.setup["MOS"] == ("A MOS",)


def test_later_turns_offer_what_the_turn_takes_and_all_is_accepted() -> None:
    # Deadman: the free setup, then Spring 1902 with espionage and the peek, then the
    # Winter and Spring turn with its builds.
    game = Game.create("deadman")
    game.adjudicate()  # the setup: every power gets the standard start
    game.adjudicate()  # S1901M
    game.adjudicate()  # S1901R, held
    game.file("FRANCE", ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"])
    game.adjudicate()  # F1901M
    game.file("FRANCE", ["A SPA H", "F MAO - POR"])
    while game.turn != "W1901A":
        game.adjudicate()
    winter = choices_of(game, "FRANCE")
    assert winter.phase == "A" and winter.kinds == ("A", "M")
    assert winter.adjust is not None and winter.adjust.due > 0
    assert "MAR" in winter.adjust.sites and winter.adjust.waive == "WAIVE"
    assert [unit.unit for unit in winter.units]  # the Spring's orders, with the builds
    assert any("then the Spring" in line for line in winter.help)
    assert winter.peek  # the Spring 1902's peek, filed with the Winter
    assert assert_all_accepted(game.variant, game.position, "FRANCE", winter) > 0
    game.adjudicate()  # W1901A and S1902M
    game.adjudicate()  # S1902R, held
    spring = choices_of(game, "FRANCE")
    assert spring.phase == "M" and spring.peek
    assert any(label.startswith("spy on") for unit in spring.units for label, _ in unit.extras)
    assert any(text.endswith(" DB") for unit in spring.units for _, text in unit.extras)
    assert assert_all_accepted(game.variant, game.position, "FRANCE", spring) > 0


def _dislodged_france(preset: str = "fog-of-war") -> tuple[Variant, Position]:
    variant = Variant.named(preset)
    position = Position.of({"FRANCE": ["A BUR", "F BRE"], "GERMANY": ["A MUN", "A RUH"]}, "S1901M", usage={})
    played = variant.play(position, {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]})
    return variant, played.position


def test_a_retreat_offers_every_place_the_map_allows_and_a_disband() -> None:
    variant, position = _dislodged_france()
    assert position.state.phase.kind == "R"
    choices = build_choices(variant, position, "FRANCE", report_of(variant, position, "FRANCE"))
    assert choices.phase == "R"
    (unit,) = choices.units
    assert unit.unit == "A BUR" and unit.disband == "A BUR D"
    # By the map alone: MUN (where the attacker came from) is offered too, as filing accepts
    # it (the retreat fails if the place is taken).
    assert set(unit.moves) == {"BEL", "GAS", "MAR", "MUN", "PAR", "PIC", "RUH"}
    assert assert_all_accepted(variant, position, "FRANCE", choices) == 8


def test_a_retreat_with_everything_in_sight_offers_the_engine_s_retreats() -> None:
    variant, position = _dislodged_france("standard")
    choices = build_choices(variant, position, "FRANCE", report_of(variant, position, "FRANCE"))
    (unit,) = choices.units
    # On the whole board, MUN (whence the attack came) and RUH (taken) are no retreats.
    assert set(unit.moves) == {"BEL", "GAS", "MAR", "PAR", "PIC"}
    assert unit.moves["PAR"] == ("A BUR R PAR",)
    assert assert_all_accepted(variant, position, "FRANCE", choices) == 6


def test_a_sighting_turn_offers_retreat_guesses_and_says_how_to_write_conditions() -> None:
    game = Game.create("sighting")
    choices = choices_of(game, "ENGLAND")
    assert choices.kinds == ("M", "R")
    fleet = next(unit for unit in choices.units if unit.unit == "F LON")
    assert fleet.guesses["NTH"] == ("F LON R NTH",)
    assert any(line.startswith("Conditional: IF") for line in choices.help)
    assert assert_all_accepted(game.variant, game.position, "ENGLAND", choices) > 0


def test_a_coast_is_asked_only_where_the_target_has_two() -> None:
    variant = Variant.named("fog-of-war")
    position = Position.of({"FRANCE": ["F MAO", "F GAS"]}, "S1901M")
    choices = build_choices(variant, position, "FRANCE", report_of(variant, position, "FRANCE"))
    by_unit = {unit.unit: unit for unit in choices.units}
    assert by_unit["F MAO"].moves["SPA"] == ("F MAO - SPA/NC", "F MAO - SPA/SC")
    assert by_unit["F GAS"].moves["SPA"] == ("F GAS - SPA/NC",)


def test_the_data_block_cannot_end_its_script_element() -> None:
    choices = Choices("S1901M", "M", ("M",), help=("</script><b>&",))
    assert "<" not in choices.dumps() and "&" not in choices.dumps()


# --- no hidden unit changes what is offered ------------------------------------------------------

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


@st.composite
def hidden_worlds(draw: st.DrawFn) -> tuple[str, str, list[tuple[str, str, str]]]:
    preset = draw(st.sampled_from(("fog-of-war", "sighting", "diplomyopia", "deadman")))
    power = draw(st.sampled_from(POWERS))
    extra = draw(
        st.lists(
            st.tuples(st.sampled_from(POWERS), st.sampled_from(("A", "F")), st.sampled_from(sorted(_LOCATIONS))),
            max_size=6,
        )
    )
    return preset, power, extra


_VARIANT = Variant.named("fog-of-war")
_LOCATIONS = frozenset(
    location for province in _VARIANT.board.provinces for location in (province, *_VARIANT.board.coasts(province))
)


def _world(variant: Variant, phase: str, power: str, hidden: list[tuple[str, str, str]]) -> Position:
    base = Position.of({}, phase)
    state = base.state
    own = {p: u for p, u in Variant.named("standard").start().state.units.items() if u.power == power}
    if phase.startswith("W"):
        own.pop(min(own))  # a build is due
    units = dict(own)
    board = state.board
    for owner, kind, location in hidden:
        province = board.province_of(location)
        if owner == power or province in units or not board.can_hold(kind, location):
            continue
        units[province] = Unit(owner, kind, location)  # type: ignore[arg-type]
    return Position(state.with_changes(units=units), usage={})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hidden_worlds(), st.sampled_from(("S1902M", "F1902M", "W1902A")))
def test_a_unit_the_power_cannot_see_changes_nothing_offered(
    world: tuple[str, str, list[tuple[str, str, str]]], phase: str
) -> None:
    preset, power, extra = world
    variant = Variant.named(preset)
    seen_world = _world(variant, phase, power, [])
    fog, state = variant.fog, seen_world.state
    visible = fog.visible_provinces(state, power)
    hidden = [each for each in extra if state.board.province_of(each[2]) not in visible]
    other_world = _world(variant, phase, power, hidden)
    assert fog.visible_provinces(other_world.state, power) == visible
    first = build_choices(variant, seen_world, power, fog.initial(seen_world.state, power))
    second = build_choices(variant, other_world, power, fog.initial(other_world.state, power))
    assert first.dumps() == second.dumps()


@pytest.mark.parametrize("preset", ["fog-of-war", "sighting", "deadman"])
def test_a_game_whose_hidden_moves_differ_offers_the_same(preset: str) -> None:
    # Two games alike but for whether France's fleet left Brest, out of England's sight (from
    # either place it could move to the Channel, next to F LON): England's choices, from its
    # own reports, are the same, byte for byte.
    worlds = [Game.create(preset), Game.create(preset)]
    for game, lines in zip(worlds, [["F BRE H"], ["F BRE - MAO"]], strict=True):
        if game.position.setup_pending:
            game.adjudicate()
        game.file("FRANCE", lines)
        while game.turn.startswith("S"):
            game.adjudicate()
    assert worlds[0].position.state.units != worlds[1].position.state.units
    first, second = (choices_of(game, "ENGLAND").dumps() for game in worlds)
    assert first == second
    fleet = next(unit for unit in json.loads(first)["units"] if unit["unit"] == "F LON")
    assert "ENG" in fleet["moves"]  # beside the Channel
