"""The belief over unseen units (fogdip.bots.belief): ghosts spread and fade, learned orders
place units, blind sees only what is seen, sampled boards are consistent."""

from __future__ import annotations

import itertools
import random
import time
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fogdip.bots.base import BotInput, bot_named
from fogdip.bots.belief import believe
from fogdip.bots.seen_bot import bot_lines
from fogdip.engine.map import Map, UnitKind
from fogdip.fog.masked import FAILED, HIDDEN, SUCCEEDED, MaskedOrder, MaskedUnit, OrderKind
from fogdip.fog.observation import Observation, SeenOrder, SeenUnit
from fogdip.game import Game
from fogdip.variants import Variant

VARIANT = Variant.named("fog-1898")
OWN = [SeenUnit("SMY", "TURKEY", "A")]
FAR = {"SMY"}


def report(phase: str, next_phase: str, units: list[SeenUnit], visible: set[str], **extra: object) -> Observation:
    return Observation.build(
        variant="fog-1898",
        power="TURKEY",
        phase=phase,
        next_phase=next_phase,
        visible=visible,
        units=units,
        orders=extra.get("orders", []),  # type: ignore[arg-type]
        centers={},
        opening=bool(extra.get("opening", False)),
    )


def ghost_reports(moves_since: int) -> list[Observation]:
    """Turkey sees a German army in Ruhr after Spring 1901, then never again; the turn to
    play comes ``moves_since`` movement phases after the sighting."""
    reports = [
        report("S1901M", "S1901M", OWN, FAR, opening=True),
        report("S1901M", "F1901M", [*OWN, SeenUnit("RUH", "GERMANY", "A")], FAR | {"RUH"}),
    ]
    turns = ["F1901M", "W1901A", "S1902M", "F1902M", "W1902A", "S1903M"]
    played = 1
    for before, after in itertools.pairwise(turns):
        reports.append(report(before, after, OWN, FAR))
        played += before.endswith("M")
        if played - 1 == moves_since and after.endswith("M"):
            break
    return reports


def army_steps(board: Map, origin: str) -> dict[str, int]:
    steps = {origin: 0}
    frontier = [origin]
    while frontier:
        after = []
        for here in frontier:
            for there in sorted(board.army_targets(here)):
                if there not in steps:
                    steps[there] = steps[here] + 1
                    after.append(there)
        frontier = after
    return steps


def german(presence: dict[str, dict[str, float]] | object, province: str) -> float:
    return float(presence.get(province, {}).get("GERMANY", 0.0))  # type: ignore[attr-defined]


def test_a_ghost_seen_two_moves_ago_spreads_two_steps_and_no_further() -> None:
    given_input = BotInput.from_reports(VARIANT, "TURKEY", ghost_reports(2))
    assert given_input.turn == "F1902M"
    presence = believe(given_input, counts=False).presence
    steps = army_steps(VARIANT.board, "RUH")
    reached = {province for province in presence if german(presence, province) > 0}
    assert reached == {province for province, step in steps.items() if step <= 2}
    assert all(german(presence, p) == 0 for p, step in steps.items() if step == 3)


def test_a_ghost_fades_with_age_and_the_blind_twin_has_none() -> None:
    totals = []
    for moves in (1, 2, 3):
        given_input = BotInput.from_reports(VARIANT, "TURKEY", ghost_reports(moves))
        presence = believe(given_input, counts=False).presence
        totals.append(sum(german(presence, p) for p in presence))
        assert all(german(believe(given_input, blind=True).presence, p) == 0 for p in VARIANT.board.provinces)
    assert 1.0 > totals[0] > totals[1] > totals[2] > 0.0


def test_the_province_seen_empty_holds_no_ghost() -> None:
    reports = ghost_reports(1)
    last = reports[-1]
    reports[-1] = report(last.phase, last.next_phase, OWN, FAR | {"BEL", "HOL"})
    presence = believe(BotInput.from_reports(VARIANT, "TURKEY", reports), counts=False).presence
    assert german(presence, "BEL") == german(presence, "HOL") == 0.0
    assert german(presence, "BUR") > 0.0


def test_learned_moves_place_units_even_with_a_hidden_origin() -> None:
    arrived = SeenOrder("AUSTRIA", MaskedOrder(OrderKind.MOVE, MaskedUnit("A", HIDDEN), target="SIL"), SUCCEEDED)
    bounced = SeenOrder("RUSSIA", MaskedOrder(OrderKind.MOVE, MaskedUnit("A", HIDDEN), target="GAL"), FAILED)
    reports = [
        report("S1901M", "S1901M", OWN, FAR, opening=True),
        report("S1901M", "F1901M", OWN, FAR, orders=[arrived, bounced]),
    ]
    presence = believe(BotInput.from_reports(VARIANT, "TURKEY", reports), counts=False).presence
    assert presence["SIL"] == {"AUSTRIA": 1.0}
    # Scaled to Austria's believed centres, the unit its order placed stays whole.
    assert believe(BotInput.from_reports(VARIANT, "TURKEY", reports)).presence["SIL"]["AUSTRIA"] == 1.0
    around_gal = {p: presence[p]["RUSSIA"] for p in presence if "RUSSIA" in presence[p]}
    assert set(around_gal) <= set(VARIANT.board.army_targets("GAL"))
    assert abs(sum(around_gal.values()) - 1.0) < 1e-9


def test_foreign_home_centres_carry_their_owners_early_in_a_fog_game() -> None:
    given_input = BotInput.of(Game.create("fog-of-war"), "FRANCE")
    presence = believe(given_input).presence
    for center, owner in [("BER", "GERMANY"), ("MOS", "RUSSIA"), ("ANK", "TURKEY"), ("LON", "ENGLAND")]:
        assert presence[center].get(owner, 0.0) > 0.3
    blind = believe(given_input, blind=True).presence
    assert "BER" not in blind and "MOS" not in blind


@cache
def fog_inputs() -> tuple[BotInput, ...]:
    """Every power's input, each turn of a random fog-of-war game to 1904."""
    game = Game.create("fog-of-war")
    rng = random.Random(5)
    out: list[BotInput] = []
    while game.position.state.phase.year <= 1904:
        for power in game.still_in():
            given_input = BotInput.of(game, power)
            out.append(given_input)
            game.file(power, bot_lines(game.variant, given_input.seen, rng), partial=True)
        game.adjudicate()
    return tuple(out)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=0, max_value=2**32))
def test_sampled_boards_are_consistent_with_the_picture(index: int, seed: int) -> None:
    inputs = fog_inputs()
    given_input = inputs[index % len(inputs)]
    picture = believe(given_input)
    board = picture.state.board
    sampled = picture.sample(random.Random(seed))
    for province, unit in sampled.units.items():
        assert unit.province == province
        kind: UnitKind = unit.kind
        assert board.can_hold(kind, unit.location), unit
        if province in picture.state.units:
            assert picture.state.units[province] == unit  # what is seen stays as seen
        else:
            assert unit.power in picture.presence[province] or "?" in picture.presence[province]
            assert unit.power != picture.power
    for province, owners in picture.presence.items():
        assert sum(owners.values()) <= 1.0 + 1e-9, province


def test_the_belief_is_quick() -> None:
    inputs = fog_inputs()[-70:]
    started = time.perf_counter()
    for given_input in inputs:
        believe(given_input)
    per_call = (time.perf_counter() - started) / len(inputs)
    assert per_call < 0.004, f"{per_call * 1000:.2f} ms per belief"


@pytest.mark.parametrize("preset", ["sighting", "deadman", "diplomyopia", "fog-1898"])
def test_the_belief_holds_in_every_fog_preset(preset: str) -> None:
    """Through three years of a random game: a belief for every turn with a board, never over
    the power's own units, one unit at most a province, owners that are powers (or unknown)."""
    game = Game.create(preset)
    rng = random.Random(7)
    random_bot = bot_named("random")
    checked = 0
    while not game.position.completed and game.position.state.phase.year <= 1903:
        for power in game.still_in():
            given_input = BotInput.of(game, power)
            if given_input.phase is not None:
                picture = believe(given_input)
                own = {unit.province for unit in picture.state.units_of(power)}
                for province, owners in picture.presence.items():
                    assert province not in own
                    assert sum(owners.values()) <= 1.0 + 1e-9
                    assert set(owners) <= {*game.powers, "?"} - {power}
                checked += 1
            game.file(power, random_bot.orders(given_input, rng), partial=True)
        game.adjudicate()
    assert checked >= 20


@pytest.mark.parametrize(("preset", "owner", "center"), [("deadman", "GERMANY", "BER"), ("fog-1898", "GERMANY", "KIE")])
def test_every_setup_gives_each_rival_the_centres_it_starts_with(preset: str, owner: str, center: str) -> None:
    """A free setup (deadman) still starts each power on its home centres, and the 1898 start
    on its one centre: the belief puts its units there, though no foreign unit is ever seen."""
    game = Game.create(preset)
    game.adjudicate()  # the setup turn: every power takes its default start
    assert game.turn == "S1901M"
    given_input = BotInput.of(game, "FRANCE" if preset == "deadman" else "TURKEY")
    presence = believe(given_input).presence
    assert presence[center].get(owner, 0.0) > 0.3
