"""One screening for filing and for play (issue 20, point 4).

A line refused when filed is exactly a line the played turn refuses, with the same reason; a
line accepted when filed is never refused when played for a reason known when it was filed;
playing the screened values is playing the texts. Under fog a verdict depends only on what
the filing power may know: a hidden foreign unit changed, the verdicts stay byte-identical.

Positions come from random games of every preset (:mod:`fogdip.bots.variant_bot`), every
kind of turn included (setups, combined turns, retreats, winters); lines are drawn from the
power's own random orders and from a pool of the lines players get wrong: foreign units,
orders of another phase, unreadable lines, second orders for one unit, builds beyond those
due, extra orders, conditions and section prefixes.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from collections.abc import Sequence
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fogdip.bots.variant_bot import random_turn_orders
from fogdip.codec.observations import observation_to_json
from fogdip.engine.reasons import Why
from fogdip.engine.units import Unit
from fogdip.variants import PRESETS, Position, TurnResult, Variant
from fogdip.variants.filing import check_lines
from fogdip.variants.lines import read_line
from fogdip.variants.screening import Screening, Verdict

SCREENED = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FOG_PRESETS = sorted(name for name, options in PRESETS.items() if options.fog_enabled)


@cache
def variant_of(preset: str) -> Variant:
    return Variant.named(preset)


#: A Winter where France has two builds due and Germany two removals (random games seldom
#: owe removals).
WINTER = Position.of(
    {"FRANCE": ["A SPA", "F POR", "A BUR"], "GERMANY": ["A MUN", "A BER", "F KIE", "A RUH"], "ENGLAND": ["F LON"]},
    "W1901A",
    centers={
        **{c: "FRANCE" for c in ("PAR", "MAR", "BRE", "SPA", "POR")},
        **{c: "GERMANY" for c in ("MUN", "BER")},
        **{c: "ENGLAND" for c in ("LON", "EDI", "LVP")},
    },
)


@cache
def positions(preset: str) -> tuple[Position, ...]:
    """Every position of three seeded random games of the preset, for ten turns each, and a
    Winter with builds and removals due where the preset plays Winter as a turn of its own."""
    variant = variant_of(preset)
    out: list[Position] = [] if variant.options.fall_winter_combined else [WINTER] * 3
    for seed in range(3):
        rng = random.Random(seed)
        position = variant.start()
        for _ in range(10):
            if position.completed:
                break
            out.append(position)
            position = variant.play(position, random_turn_orders(variant, position, rng)).position
    return tuple(out)


def line_pool(variant: Variant, position: Position, power: str, rng: random.Random) -> list[str]:
    """Lines a player might file for the next turn: good ones and every sort of mistake."""
    state, board = position.state, position.state.board
    homes = list(state.homes.get(power, ()))
    if position.setup_pending:
        pool = [f"{kind} {home}" for home in homes for kind in ("A", "F")]
        pool += [f"F {coast}" for home in homes for coast in board.coasts(home)]
        return [*pool, "A XYZ", "A MUN", "F PAR", "fleet", "A BER", "F KIE", "A SMY"]
    own = random_turn_orders(variant, position, rng)
    mine = sorted(state.units_of(power), key=lambda u: u.province) + [d.unit for d in state.dislodged.values()]
    mine = [unit for unit in mine if unit.power == power]
    pool = list(own.get(power, []))
    for other, lines in sorted(own.items()):
        if other != power:
            pool.extend(lines[:3])  # foreign units' orders
    for unit in mine[:4]:
        near = sorted(board.targets(unit.kind, unit.location))[:2]
        pool += [f"{unit} H", f"{unit} D", f"{unit} B", f"{unit} DB", f"{unit} E FRANCE", f"{unit} E {power}"]
        pool += [f"{unit} - MOS", f"{unit} - NAO", f"{unit} S {unit}", f"{unit} C A PAR - BUR"]  # illegal, mostly
        pool += [f"{unit} - {place}" for place in near] + [f"{unit} R {place}" for place in near]
        pool += [f"IF {unit} DISLODGED THEN {unit} R {place}" for place in near[:1]]
        pool += [f"RETREAT: {unit} - {near[0]}", f"MOVE: {unit} D", f"ADJUST: {unit} H"] if near else []
    for home in homes:
        pool += [f"A {home} B", f"F {home} B", f"IF NOT A BEL - HOL THEN A {home} B", f"ADJUST: A {home} D"]
    pool += ["WAIVE", "WAIVE", "PAS NTH", "PAS BUR", "PAS SWI", "PAS", "IF A BEL - HOL THEN WAIVE"]
    pool += ["A PAR - XYZ", "IF A PAR DISLODGED", "IF THEN", "hello", "F STP B", "A MAO B", "F NTH E ATLANTIS"]
    pool += ["A PAR B", "F BRE R MAO", "A MUN H", "F LON - NTH"]
    return pool


@st.composite
def filings(draw: st.DrawFn, preset: str) -> tuple[Variant, Position, str, list[str], dict[str, list[str]]]:
    """A position of the preset, a power, the lines it files, and the other powers' lines."""
    variant = variant_of(preset)
    position = draw(st.sampled_from(positions(preset)), label="position")
    state = position.state
    alive = [p for p in state.powers if position.setup_pending or not state.is_eliminated(p)]
    power = draw(st.sampled_from(alive), label="power")
    rng = random.Random(draw(st.integers(0, 2**16), label="seed"))
    pool = line_pool(variant, position, power, rng)
    lines = draw(st.lists(st.sampled_from(pool), max_size=12), label="lines")
    # Mistakes that need several lines to show: every build at once, every removal, and a
    # second order for each unit.
    mine = sorted(str(u) for u in state.units_of(power))
    homes = state.homes.get(power, ())
    themes = {
        "none": [],
        "builds": [f"A {home} B" for home in homes] + ["WAIVE"] + [f"F {home} B" for home in homes],
        "removals": [f"{unit} D" for unit in mine],
        "twice": [line for unit in mine for line in (f"{unit} H", f"{unit} H")],
    }
    theme = themes[draw(st.sampled_from(sorted(themes)), label="theme")] if not position.setup_pending else []
    lines = draw(st.permutations(lines + theme), label="ordered") if theme else lines
    others = {p: lines for p, lines in random_turn_orders(variant, position, rng).items() if p != power}
    return variant, position, power, lines, others


def dumped(played: TurnResult) -> str:
    return json.dumps(
        {
            "observations": {p: observation_to_json(seen) for p, seen in sorted(played.observations.items())},
            "rejected": [(r.power, r.text, str(r.reason)) for r in played.rejected],
            "position": repr(played.position),
        },
        sort_keys=True,
    )


def verdicts(screening: Screening | Sequence[Verdict]) -> list[tuple[int, str, str | None, bool]]:
    return [(v.number, v.text, v.error, v.illegal) for v in screening]


def check_played_as_screened(
    variant: Variant, position: Position, power: str, screening: Screening, played: TurnResult
) -> None:
    """Every refused line is refused by the played turn with its verdict's reason (set aside,
    or kept by the engine as an illegal order); nothing else of the power's is refused, but a
    line filed ahead whose unit was lost before its sub-phase came."""
    kinds = variant.turn_kinds(position)
    # The sub-phases whose lines were judged when filed: the first, and a movement filed with
    # Winter's builds (seed 002). A retreat or an adjustment filed ahead (seed 001) is chosen
    # and judged once the turn has got there.
    judged = [r for i, r in enumerate(played.resolutions) if kinds[i] == kinds[0] or kinds[i] == "M"]
    illegal = [(r.text, str(r.reason)) for record in judged for r in record.orders if r.power == power and not r.legal]
    # Set aside by the screening or a variant's extra orders (the turn's list), or by the engine
    # (each phase's record).
    every = [*played.rejected, *(r for record in played.resolutions for r in record.rejected)]
    rejected = [(r.text, str(r.reason), r.reason.why) for r in every if r.power == power]
    for verdict in screening:
        if verdict.ok:
            continue
        said = str(verdict.reason)
        found = next((i for i, (text, why, _w) in enumerate(rejected) if text == verdict.text and why == said), None)
        if found is not None:
            del rejected[found]
            continue
        assert verdict.illegal, f"line {verdict.number} {verdict.text!r} ({said}) is not refused when played"
        text = verdict.line.order_text
        found = next((i for i, (t, why) in enumerate(illegal) if t == text and why.startswith(said)), None)
        if found is not None:
            del illegal[found]
            continue
        # Filed with Winter's adjustments, a Spring order's unit may be lost before the Spring
        # (removed in civil disorder): the order then commands nothing.
        lost = next((i for i, (t, _w, why) in enumerate(rejected) if t == text and why is Why.NO_SUCH_UNIT), None)
        assert verdict.line.kind != kinds[0] and lost is not None, (
            f"line {verdict.number} {verdict.text!r} ({said}) is not refused when played"
        )
        del rejected[lost]
    assert not illegal, f"lines accepted when filed are illegal when played: {illegal}"
    ahead = {v.line.order_text for v in screening if v.ok and v.line.kind != kinds[0]}
    for text, why, kind in rejected:
        assert text in ahead and kind is Why.NO_SUCH_UNIT, (
            f"{text!r} was accepted when filed, refused when played: {why}"
        )


@pytest.mark.parametrize("preset", sorted(PRESETS))
@SCREENED
@given(data=st.data())
def test_filing_and_play_give_the_same_verdicts(preset: str, data: st.DataObject) -> None:
    variant, position, power, lines, others = data.draw(filings(preset), label="filing")
    screening = variant.screen(position, power, lines)
    assert verdicts(check_lines(variant, position, power, lines)) == verdicts(screening)
    assert [v.text for v in screening] == lines
    played = variant.play(position, {**others, power: lines})
    replayed = variant.play(position, {**others, power: screening})
    assert dumped(played) == dumped(replayed), "playing the screened values is not playing the texts"
    if position.setup_pending:
        refused = [(v.text, v.error) for v in screening if not v.ok]
        assert [(r.text, str(r.reason)) for r in played.rejected if r.power == power] == refused
        chosen = {v.read for v in screening if v.ok}
        assert isinstance(chosen, set) and chosen <= set(played.position.state.units.values())
        return
    check_played_as_screened(variant, position, power, screening, played)


def hidden_change(variant: Variant, position: Position, power: str, rng: random.Random) -> Position | None:
    """The position with one foreign unit the power cannot see removed, moved to another
    place it cannot see, or added there; ``None`` if there is nothing to change."""
    state = position.state
    seen = variant.fog.visible_provinces(state, power)
    dark = [p for p in sorted(state.board.provinces) if p not in seen and state.board.provinces[p].passable]
    empty = [p for p in dark if p not in state.units and p not in state.dislodged]
    foreign = [u for u in state.units.values() if u.power != power and u.province not in seen]
    choices = []
    if foreign:
        unit = rng.choice(sorted(foreign, key=lambda u: u.province))
        rest = {p: u for p, u in state.units.items() if p != unit.province}
        choices.append(rest)
        spots = [p for p in empty if state.board.can_hold(unit.kind, p) and not state.board.coasts(p)]
        if spots:
            place = rng.choice(spots)
            choices.append({**rest, place: Unit(unit.power, unit.kind, place)})
    others = [p for p in state.powers if p != power]
    armies = [p for p in empty if state.board.can_hold("A", p)]
    if armies and others:
        place = rng.choice(armies)
        choices.append({**state.units, place: Unit(rng.choice(others), "A", place)})
    if not choices:
        return None
    return dataclasses.replace(position, state=state.with_changes(units=rng.choice(choices)))


@pytest.mark.parametrize("preset", FOG_PRESETS)
@SCREENED
@given(data=st.data())
def test_verdicts_never_tell_of_a_hidden_unit(preset: str, data: st.DataObject) -> None:
    """Change a foreign unit the filing power cannot see: every verdict stays byte-identical,
    those on second orders, builds and removals due and a phase's orders included."""
    variant, position, power, lines, _others = data.draw(filings(preset), label="filing")
    changed = hidden_change(variant, position, power, random.Random(data.draw(st.integers(0, 2**16))))
    if changed is None:
        return
    assert variant.fog.visible_provinces(changed.state, power) == variant.fog.visible_provinces(position.state, power)
    before = json.dumps(verdicts(variant.screen(position, power, lines)))
    after = json.dumps(verdicts(variant.screen(changed, power, lines)))
    assert before == after


def test_play_refuses_a_screening_of_another_turn() -> None:
    """A screening is played in the turn it was made for only."""
    variant = Variant.named("fog-of-war")
    start = variant.start()
    screening = variant.screen(start, "FRANCE", ["A PAR - BUR"])
    later = variant.play(start, {}).position
    with pytest.raises(ValueError, match="screened for FRANCE's turn S1901M, not FRANCE's turn S1901R"):
        variant.play(later, {"FRANCE": screening})
    with pytest.raises(ValueError, match="screened for FRANCE's turn S1901M, not GERMANY's"):
        variant.play(start, {"GERMANY": screening})


def test_a_screening_keeps_each_line_as_read() -> None:
    """An accepted line is kept as the value read: its sub-phase, its conditions and its order."""
    variant = Variant.named("sighting")
    fall = variant.play(variant.start(), {}).position
    screening = variant.screen(fall, "FRANCE", ["A PAR - BUR", "IF A PAR DISLODGED THEN A PAR R GAS", "F BRE B"])
    assert screening.ok and screening.texts == ("A PAR - BUR", "IF A PAR DISLODGED THEN A PAR R GAS", "F BRE B")
    read = [v.line for v in screening]
    assert [line.kind for line in read] == ["M", "R", "A"]
    assert [str(line.order) for line in read] == ["A PAR - BUR", "A PAR R GAS", "F BRE B"]
    assert [str(c) for c in read[1].conditions] == ["A PAR DISLODGED"]
    assert read[0] == read_line("A PAR - BUR", ("M", "R", "A"), fall.state.board, variant.options)


def test_refused_counts_as_read() -> None:
    """A refused line keeps what could be read of it: the engine's reason as a value."""
    variant = Variant.named("fog-of-war")
    screening = variant.screen(variant.start(), "FRANCE", ["A PAR - NTH", "F KIE H", "A PAR - XYZ"])
    assert [v.reason.why if v.reason else None for v in screening] == [
        Why.ARMY_TO_SEA,
        Why.NO_SUCH_UNIT,
        Why.UNREADABLE,
    ]
    assert Counter(v.illegal for v in screening) == Counter({True: 1, False: 2})
