"""No-leak properties every fog rule set must have, checked over random positions and orders.

Every rule set registered in :data:`fogdip.fog.FOG_RULES` is covered, whoever wrote it:

* **non-interference**: changing a foreign unit far from a power (its order, its type, its
  presence) changes nothing that power observes, as long as the change does not reach the
  power's neighbourhood (checked on the resolution, so the property is sound);
* **turn-level non-interference**, for each fog preset: a whole turn (or a movement turn and
  its retreat turn) played twice through :meth:`Variant.play`, the second time with one
  foreign unit the power cannot see changed, gives the power byte-identical reports. Its own
  orders are drawn by the map alone, so their legality may hang on the hidden unit; nothing
  about them is assumed equal (see :func:`test_hidden_changes_leave_the_reports_alone`);
* **no mention**: an observation names no province beyond what the power sees and the
  orders that touch it;
* **same input, same output**: neither the order in which orders are submitted nor the
  order of any dictionary changes an observation;
* observations and :class:`~fogdip.fog.knowledge.Knowledge` are deterministic functions of
  their inputs, and knowledge holds only what observations showed.

Each rule set's own tests are tighter; these bounds are deliberately conservative.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, assume, event, find, given, settings
from hypothesis import Phase as Stage
from hypothesis import strategies as st

from fogdip.bots.random_bot import random_orders
from fogdip.engine import Convoy, GameState, Move, Phase, Resolution, SupportHold, SupportMove, Unit, get_rules
from fogdip.engine.judge import solo_winner, take_centers
from fogdip.engine.outcomes import OrderResult
from fogdip.fog import FOG_RULES, DeadmanRules, Knowledge, Notice, Observation, SeenOrder, SeenUnit
from fogdip.fog.fog_of_war import FogOfWarRules
from fogdip.fog.masked import OrderKind
from fogdip.fog.observation import NoticeValue
from fogdip.fog.rules import Events, FogRules
from fogdip.fog.sight import all_units, order_provinces, seen_unit
from fogdip.maps.scene import power_scene
from fogdip.maps.svg import render_svg
from fogdip.variants import PRESETS, Position, Variant
from seen_strategies import notices, seen_orders, seen_units
from views import as_json, knowledge_json, report, text

from strategies import (
    BOARD,
    POWERS,
    PROVINCES,
    Orders,
    Perturbed,
    adjudicate,
    ball,
    foreign_subjects,
    named,
    orders_for,
    perturbations,
    play,
    positions,
    random_game,
    words_provinces,
)
from turn_strategies import Game, TurnCase, espionage_on, hidden_changes, play_turn

T = TypeVar("T")
ALL = sorted(FOG_RULES)
#: ``standard`` sees everything, so a far change may show; every other rule set must not.
FOGGY = [name for name in ALL if name != "standard"]
PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: Non-interference is the property that matters most: more examples.
FAR = settings(PROPERTY, max_examples=80)

#: Facts a rule set announces to every power whatever their distance, by rule set: a far
#: change that alters them may show. Add an entry when a rule set publishes something.
PUBLIC: dict[str, Callable[[Resolution], object]] = {}


def _nothing(_record: Resolution) -> None:
    return None


def dumped(observation: Observation) -> str:
    return json.dumps(as_json(observation), sort_keys=True)


def own_provinces(state: GameState, power: str) -> set[str]:
    """Where the power's units (dislodged ones too) stand, and its centres."""
    out = {p for p, u in state.units.items() if u.power == power}
    out |= {p for p, d in state.dislodged.items() if d.unit.power == power}
    out |= {c for c, owner in state.centers.items() if owner == power}
    return out


def neighbourhood(rules: FogRules, record: Resolution, power: str) -> frozenset[str]:
    """R: provinces within two steps of the power's units and centres, of what it sees before
    and after the phase, and of where its units were ordered to move: a moving unit watches its
    destination (seed 000), and a convoyed army's may lie far from anything the power holds."""
    core = own_provinces(record.before, power) | own_provinces(record.after, power)
    core |= rules.visible_provinces(record.before, power) | rules.visible_provinces(record.after, power)
    board = record.before.board
    core |= {board.province_of(r.order.target) for r in record.orders if r.power == power and isinstance(r.order, Move)}
    return ball(core, 2)


def near_facts(record: Resolution, near: frozenset[str]) -> object:
    """Everything that happened in or into ``near``: the outcome of every order naming a
    province there (reasons aside: they are judge-side text every rule set must redact),
    with its move, convoy route, support and dislodgement; units, dislodged units, centre
    owners and stand-offs there before and after; builds and removals there; rejected
    orders. Also the next phase: see :func:`test_next_phase_is_a_game_flow_leak`."""

    def here(province: str) -> bool:
        return province in near

    touching = []
    for r in record.orders:
        if not any(map(here, order_provinces(r))):
            continue
        key = r.unit.province if r.unit is not None else ""
        touching.append(
            repr(
                (
                    r.power,
                    r.unit,
                    r.order,
                    r.text,
                    r.legal,
                    r.defaulted,
                    r.outcome,
                    r.results,
                    r.dislodged_by,
                    record.moves.get(key),
                    record.convoy_paths.get(key),
                    record.supports.get(key),
                    record.dislodged.get(key),
                )
            )
        )
    return (
        sorted(touching),
        sorted(repr((r.power, r.text, r.reason)) for r in record.rejected),
        sorted(repr(u) for p, u in record.before.units.items() if here(p)),
        sorted(repr(u) for p, u in record.after.units.items() if here(p)),
        sorted(repr(d) for p, d in record.before.dislodged.items() if here(p)),
        sorted(repr(d) for p, d in record.after.dislodged.items() if here(p)),
        sorted((c, o) for c, o in record.before.centers.items() if here(c)),
        sorted((c, o) for c, o in record.after.centers.items() if here(c)),
        sorted(p for p in record.standoffs if here(p)),
        sorted(repr(u) for u in record.builds + record.removals if here(u.province)),
        str(record.after.phase),
        record.after.completed,
    )


# --- non-interference ------------------------------------------------------------------------


@dataclass(frozen=True)
class FarChange:
    """A phase played twice, the second time with one foreign unit far from ``power``
    changed, the change checked not to reach the power's neighbourhood."""

    power: str
    change: str
    first: Resolution
    second: Resolution


@st.composite
def far_changes(draw: st.DrawFn, rules: FogRules) -> FarChange | None:
    """A far change for some power, or ``None`` when there is none to make or it reached
    the power after all (the property skips those)."""
    state = draw(positions(), label="position")
    orders = draw(orders_for(state), label="orders")
    first = play(state, orders)
    # Pick the power and the foreign unit among those that can be changed soundly, so few
    # examples are thrown away.
    choices: list[tuple[str, frozenset[str], Perturbed]] = []
    for power in draw(st.permutations(POWERS), label="powers"):
        near = neighbourhood(rules, first, power)
        for unit in foreign_subjects(state, orders, power):
            if unit.province not in near:
                choices.extend((power, near, change) for change in perturbations(state, orders, unit, near))
        if choices:
            break
    if not choices:
        return None
    power, near, change = choices[draw(st.integers(0, len(choices) - 1), label="change")]
    second = play(change.state, change.orders)
    public = PUBLIC.get(rules.name, _nothing)
    if near_facts(first, near) != near_facts(second, near) or public(first) != public(second):
        return None
    return FarChange(power, change.change, first, second)


def far_change_leak(rules: FogRules, case: FarChange) -> str | None:
    one, two = dumped(rules.observe(case.first, case.power)), dumped(rules.observe(case.second, case.power))
    return None if one == two else f"{case.power} notices {case.change}:\n{one}\n{two}"


@pytest.mark.parametrize("name", FOGGY)
@FAR
@given(data=st.data())
def test_far_changes_are_invisible(name: str, data: st.DataObject) -> None:
    rules = FOG_RULES[name]()
    case = data.draw(far_changes(rules))
    assume(case is not None)
    assert case is not None
    leak = far_change_leak(rules, case)
    assert leak is None, leak


@pytest.mark.parametrize("name", FOGGY)
def test_only_the_next_phase_tells_of_a_far_dislodgement(name: str) -> None:
    """A dislodgement at the far end of the board makes the next phase a retreat phase for
    everyone, and an observation of the engine's bare record says which phase comes next.
    That is game flow, not sight: the fog presets hold every retreat season
    (``hold_empty_retreats`` in :mod:`fogdip.variants.options`), which is why the
    non-interference property takes the next phase as given. Nothing else may differ."""
    rules = FOG_RULES[name]()
    state = GameState.initial()
    orders = {"TURKEY": ["A SMY - ARM", "F ANK S A SMY - ARM"]}
    quiet = adjudicate(state, orders)
    loud = adjudicate(state.with_changes(units={**state.units, "ARM": Unit("RUSSIA", "A", "ARM")}), orders)
    assert loud.dislodged and not quiet.dislodged
    first, second = as_json(rules.observe(quiet, "ENGLAND")), as_json(rules.observe(loud, "ENGLAND"))
    assert (first.pop("next_phase"), second.pop("next_phase")) == ("F1901M", "S1901R")
    assert first == second


# --- turn-level non-interference ---------------------------------------------------------------
#
# The property above perturbs only units two steps beyond everything a power sees, and its
# precondition throws away every example where anything near the power differs, the power's
# own orders included. But a leak is precisely a hidden unit changing what the power is told
# of its own orders (the engine judges an order's legality with the whole board: a chain of
# anyone's fleets makes a convoy legal, an occupied province voids a retreat). So here the
# power's own orders, their legality, outcome and results, its units and the next phase are
# never assumed equal: they are what must come out the same.

#: The presets with fog: every one is checked (``standard`` shows everything).
FOG_PRESETS = [name for name, options in PRESETS.items() if options.fog_enabled]
VARIANTS = {name: Variant.named(name) for name in FOG_PRESETS}
#: About 10 ms an example: 200 per preset is some 10 s for the five (once nothing fails).
TURNS = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)


def contact_zone(variant: Variant, game: Game, power: str) -> frozenset[str]:
    """Z, the power's contact zone in one game (the property takes the union over both):

    * what it sees (:meth:`FogRules.visible_provinces`) at the start of the turn and before
      and after every phase of it;
    * where its units stand, dislodged ones too, and its centres, at the same moments;
    * every province any of its lines names: targets, supported and convoyed units, retreat
      targets, peeks, the spaces of conditions;
    * deadman: every province within one space of a unit it ordered to spy, and, to be safe,
      its home centres (builds may go to any owned centre);
    * garrisons (diplomyopia): the provinces it holds before and after the turn.

    No ball around it: a convoy route through a sea two steps from the power's fleet is
    exactly what must stay hidden (and a ball would swallow it)."""
    fog, zone = variant.fog, set[str]()
    for turn in game.turns:
        states = [turn.position.state, turn.result.position.state]
        for record in turn.result.resolutions:
            states += [record.before, record.after]
        for state in states:
            zone |= fog.visible_provinces(state, power)
            zone |= own_provinces(state, power)
        for line in turn.orders.get(power, ()):
            zone |= set(words_provinces(line))
            words = line.split()
            if len(words) == 4 and words[2] == "E" and BOARD.is_location(words[1]):
                zone |= ball([BOARD.province_of(words[1])], 1)
        if variant.options.fog == "deadman":
            zone |= set(turn.position.state.homes.get(power, ()))
        for usage in (turn.position.usage, turn.result.position.usage):
            zone |= {p for p, holder in usage.get("holders", {}).items() if holder == power}
    return frozenset(zone)


def touches(result: OrderResult, zone: frozenset[str]) -> bool:
    """Whether an order names a province of the zone, as the engine read it or as written."""
    return bool((set(order_provinces(result)) | set(words_provinces(result.text))) & zone)


def settled(state: GameState, start: GameState, power: str) -> GameState:
    """``state`` with its centres taken (:func:`take_centers`) as if the power's own units
    took none, and the centres the power gained since ``start`` (the game's start) back with
    their owners.

    Centres change hands only by units standing on them; which centres a hidden unit may take
    is what the comparison is after. Two things must not count: where the power's own units
    end up (that is what must come out the same, and a hidden unit deciding whether its army
    walks into a centre is a leak to find, not an example to throw away), and *when* the
    centres are taken (at the end of the Fall moves when the game ends there, after the
    retreats otherwise: a dislodgement anywhere postpones it, which is a leak too). Centres
    the power loses are lost to foreign units standing in its zone, compared anyway."""
    centres = dict(state.centers)
    for centre, owner in state.centers.items():
        if owner == power and start.centers.get(centre) != power:
            if centre in start.centers:
                centres[centre] = start.centers[centre]
            else:
                del centres[centre]
    units = {p: u for p, u in state.units.items() if u.power != power}
    return take_centers(state.with_changes(units=units, centers=centres))


def shows_outcome(result: OrderResult, variant: Variant) -> bool:
    """Whether what came of a foreign order may show to a power: a move's or retreat's (a
    watched move is told `(ok)`/`(fails)`, an attack on the power's unit tells by its
    result). A foreign support's or convoy's is never shown, except through diplomyopia's
    combat vision (rule 3), which tells a power in a battle who held it up."""
    order = result.order
    return not isinstance(order, (SupportHold, SupportMove, Convoy)) or variant.fog.name == "diplomyopia"


def phase_facts(
    record: Resolution,
    events: Events,
    power: str,
    zone: frozenset[str],
    start: GameState,
    variant: Variant,
) -> tuple[object, ...]:
    """What the power is entitled to about one phase, restricted to its contact zone:

    * the foreign units standing in the zone (on the board or dislodged) before and after:
      they are in sight or touched by its orders, so they may show;
    * the owners of the zone's centres before and after, as :func:`settled` has them;
    * every foreign order touching the zone, as ``(power, line as given, succeeded)``, where
      what comes of it may show (:func:`shows_outcome`: a watched move's ``(ok)``, an attack on
      the power's unit); a foreign support or convoy only as given: no preset tells whether it
      was cut or carried its army, so a difference there that reaches the power's report is a
      leak (a support of one's own reading `void` because another was cut, say). Never its
      legality, outcome words, results or the engine's normalised order: those are worked out
      with the whole board, and must not show;
    * every espionage order aimed at the power, with its result: the power is told of it.

    Never the power's own orders or their results, its own units, nor the next phase: those
    are what must come out the same, and comparing them would throw the leaks away."""

    def units(state: GameState) -> list[tuple[str, str, bool]]:
        out = [(p, repr(u), False) for p, u in state.units.items() if p in zone and u.power != power]
        out += [(p, repr(d.unit), True) for p, d in state.dislodged.items() if p in zone and d.unit.power != power]
        return sorted(out)

    def centres(state: GameState) -> list[tuple[str, str]]:
        return sorted((c, owner) for c, owner in settled(state, start, power).centers.items() if c in zone)

    orders = sorted(
        (r.power, r.text or f"{r.unit} (no order)", r.succeeded if shows_outcome(r, variant) else None)
        for r in record.orders
        if r.power != power and touches(r, zone)
    )
    spies = sorted(
        (other, text(seen), repr(seen.result))
        for other, given in events.orders.items()
        if other != power
        for seen in given
        if seen.order.kind is OrderKind.ESPIONAGE and seen.order.spied == power
    )
    return (
        units(record.before),
        units(record.after),
        centres(record.before),
        centres(record.after),
        orders,
        spies,
    )


def public_facts(variant: Variant, final: GameState, start: GameState, power: str) -> tuple[object, ...]:
    """What every power may come to know at the end of a turn: the centre counts (without
    whose) and the solo winner, both as they stand once the centres are taken
    (:func:`settled`). A solo decided by hidden captures is public; when the game is
    declared over (a dislodgement anywhere postpones it) is not compared."""
    taken = settled(final, start, power)
    return sorted(taken.center_count(p) for p in taken.powers), solo_winner(taken, variant.rules)


def game_facts(variant: Variant, game: Game, power: str, zone: frozenset[str]) -> list[list[object]]:
    """Per turn, the public facts at its end and the phase facts of each phase played."""
    out = []
    start = game.turns[0].position.state
    for turn in game.turns:
        result = turn.result
        phases: list[object] = [
            phase_facts(r, e, power, zone, start, variant)
            for r, e in zip(result.resolutions, result.events, strict=False)
        ]
        out.append([public_facts(variant, result.position.state, start, power), *phases])
    return out


def revealed(case: TurnCase, index: int) -> bool:
    """Whether both games ended at turn ``index`` in a preset that then reveals everything."""
    return case.variant.options.reveal_at_end and all(
        game.turns[index].result.position.completed for game in (case.first, case.second)
    )


def discard_reason(case: TurnCase) -> str | None:
    """Why the case cannot be compared, or ``None``: the precondition, checked on the records.

    U, its places and its lines, must lie outside the contact zone of both games; the
    entitled facts (:func:`phase_facts`, :func:`public_facts`) must be equal, turn by turn
    and phase by phase, over the turns and phases both games played (how many there were is
    not compared: the turn ends early when the game does); and there must be a turn to
    compare before a game over that reveals everything."""
    power = case.power
    zone = contact_zone(case.variant, case.first, power) | contact_zone(case.variant, case.second, power)
    if case.places & zone:
        return "the hidden unit stands in the zone"
    if any(set(words_provinces(line)) & zone or espionage_on(line, power) for line in case.lines):
        return "the hidden unit's orders name the zone"
    for one, two in zip(
        game_facts(case.variant, case.first, power, zone),
        game_facts(case.variant, case.second, power, zone),
        strict=False,
    ):
        if one[0] != two[0]:
            return "public facts differ"
        if any(a != b for a, b in zip(one[1:], two[1:], strict=False)):
            return "facts in the zone differ"
    if revealed(case, 0):
        return "the game ends in both: everything is revealed"
    return None


def _report_diff(one: dict[str, object], two: dict[str, object]) -> str:
    keys = sorted(k for k in set(one) | set(two) if k != "text" and one.get(k) != two.get(k))
    lines = [f"  {key}:\n    first:  {one.get(key)}\n    second: {two.get(key)}" for key in keys]
    return "\n".join(lines) + f"\n  first report:\n{one.get('text')}\n  second report:\n{two.get('text')}"


def turn_leak(case: TurnCase) -> str | None:
    """How the power's reports, or its maps, differ between the two games, turn by turn, if
    they do. Each map is drawn from the report and the knowledge built from the reports so far,
    as the power's map is drawn everywhere."""
    knowing = (Knowledge(case.power), Knowledge(case.power))
    for index, (one, two) in enumerate(zip(case.first.turns, case.second.turns, strict=False)):
        if revealed(case, index):
            break
        first, second = one.result.observations[case.power], two.result.observations[case.power]
        if dumped(first) != dumped(second):
            return (
                f"{case.variant.name}: {case.power} notices that the hidden unit changed ({case.change}), "
                f"turn {one.result.turn}:\n{_report_diff(as_json(first), as_json(second))}"
            )
        maps = []
        for knowledge, seen in zip(knowing, (first, second), strict=True):
            knowledge.update(seen)
            maps.append(render_svg(power_scene(BOARD, seen, knowledge)))
        if maps[0] != maps[1]:
            return f"{case.variant.name}: {case.power}'s map of turn {one.result.turn} shows the change ({case.change})"
    return None


@pytest.mark.slow  # 200 examples of whole turns per rule set: the whole suite runs it
@pytest.mark.parametrize("preset", FOG_PRESETS)
@TURNS
@given(data=st.data())
def test_hidden_changes_leave_the_reports_alone(preset: str, data: st.DataObject) -> None:
    """Turn-level non-interference. A game of one turn (or a movement turn and its retreat
    turn) of the preset is played twice, the second time with one foreign unit U changed:
    added, removed, moved to another place, retyped, or given another legal order. U stands
    outside the power's contact zone (:func:`contact_zone`) in both games, and its orders name
    nothing in it. If everything the power is entitled to is the same in both games
    (:func:`discard_reason`, checked on the records, never assumed), the power's reports, and
    the SVG maps drawn from them, are byte-identical, turn by turn. The power's own orders are drawn by the map alone and
    include every class whose legality the engine judges with the whole board."""
    case = data.draw(hidden_changes(VARIANTS[preset], contact_zone), label="case")
    reason = "no foreign unit to change" if case is None else discard_reason(case)
    if reason is not None or case is None:
        event(f"discarded: {reason}")
        assume(False)
        return
    event(f"compared ({len(case.first.turns)} turn(s))")
    leak = turn_leak(case)
    assert leak is None, leak


def played_twice(
    preset: str,
    power: str,
    change: str,
    hidden: tuple[str, str, str],
    units: dict[str, list[str]],
    lines: dict[str, list[str]],
    *,
    phase: str = "S1901M",
    centers: dict[str, str] | None = None,
    follow: dict[str, list[str]] | None = None,
) -> TurnCase:
    """A hand-made case: the game played with ``units`` and ``lines`` (and a second turn of
    ``follow`` lines), first with the hidden unit ``hidden`` (power, unit, its line or ``""``),
    then without it."""
    variant = VARIANTS[preset]
    other, unit, line = hidden
    games = []
    for present in (True, False):
        placed = {p: list(u) for p, u in units.items()}
        given = {p: list(listed) for p, listed in lines.items()}
        if present:
            placed.setdefault(other, []).append(unit)
            if line:
                given.setdefault(other, []).append(line)
        start = Position.of(placed, phase, centers=centers)
        turns = [play_turn(variant, start, given)]
        if follow is not None and not turns[0].result.position.completed:
            turns.append(play_turn(variant, turns[0].result.position, follow))
        games.append(Game(tuple(turns)))
    place = frozenset({BOARD.province_of(unit.split()[1])})
    return TurnCase(variant, power, change, place, (line,) if line else (), games[0], games[1])


#: Centres for the end-of-game case: England holds 17 and is taking Belgium.
_SOLO = {
    c: "ENGLAND"
    for c in sorted(BOARD.supply_centers)
    if c
    not in (
        "BEL",
        "CON",
        "SMY",
        "ANK",
        "SEV",
        "BUL",
        "RUM",
        "GRE",
        "SER",
        "BUD",
        "VIE",
        "TRI",
        "VEN",
        "ROM",
        "NAP",
        "TUN",
        "MOS",
    )
}
_SOLO.update({"CON": "TURKEY", "SMY": "TURKEY", "ANK": "TURKEY", "SEV": "RUSSIA"})

#: The confirmed leaks, each as a hidden change the property must compare (not throw away),
#: with the presets where it is hidden. (Sighting's conditional order on a coast the power
#: cannot sight, ``IF SPA - MAO THEN A PAR B`` with F GAS, is out of this property's reach: the
#: unit that tells is in a province the power's own line names.)
CONFIRMED: dict[str, tuple[list[str], dict[str, object]]] = {
    "own convoy made legal by a hidden fleet": (
        FOG_PRESETS,
        dict(
            power="FRANCE",
            hidden=("ENGLAND", "F NWG", "F NWG H"),
            units={"FRANCE": ["A BRE", "F MAO"], "ENGLAND": ["F NAO"]},
            lines={"FRANCE": ["A BRE - EDI", "F MAO C A BRE - EDI"]},
        ),
    ),
    "own army sent by sea by a hidden fleet": (
        ["fog-of-war", "sighting", "deadman"],
        dict(
            power="FRANCE",
            hidden=("ENGLAND", "F LYO", "F LYO H"),
            units={"FRANCE": ["A GAS", "F MAO"], "ENGLAND": ["F WES"]},
            lines={"FRANCE": ["A GAS - MAR", "F MAO C A GAS - MAR"]},
        ),
    ),
    "own VIA move made legal by a hidden fleet": (
        ["fog-of-war", "sighting", "deadman"],
        dict(
            power="FRANCE",
            hidden=("ITALY", "F ENG", ""),
            units={"FRANCE": ["A BRE"]},
            lines={"FRANCE": ["A BRE - PIC VIA"]},
        ),
    ),
    # Found by test_hidden_changes_leave_the_reports_alone (sighting, fog-of-war, deadman):
    # a support of a move between two shores is void unless fleets, anyone's, could carry it.
    "own support of a move only a convoy could make": (
        ["fog-of-war", "sighting", "deadman"],
        dict(
            power="FRANCE",
            hidden=("ITALY", "F ENG", ""),
            units={"FRANCE": ["A PIC", "A BRE"]},
            lines={"FRANCE": ["A PIC S A BRE - BEL", "A BRE - BEL"]},
        ),
    ),
    "watched retreat voided by a hidden unit": (
        ["fog-of-war", "fog-1898", "diplomyopia", "deadman"],
        dict(
            power="GERMANY",
            hidden=("RUSSIA", "A PIC", ""),
            units={
                "GERMANY": ["A RUH"],
                "FRANCE": ["A BUR"],
                "ITALY": ["A MUN", "A MAR"],
                "ENGLAND": ["F ENG", "F BEL"],
                "AUSTRIA": ["F LON", "F NTH"],
            },
            lines={"ITALY": ["A MUN - BUR", "A MAR S A MUN - BUR"], "AUSTRIA": ["F LON - ENG", "F NTH S F LON - ENG"]},
            follow={"FRANCE": ["A BUR R PIC"], "ENGLAND": ["F ENG R PIC"]},
        ),
    ),
    "end of the game put off by a hidden dislodgement": (
        ["fog-of-war", "deadman", "diplomyopia", "fog-1898"],
        dict(
            power="ENGLAND",
            hidden=("RUSSIA", "F BLA", "F BLA S A SEV - ARM"),
            units={"ENGLAND": ["A HOL"], "TURKEY": ["A ARM", "A SMY"], "RUSSIA": ["A SEV"]},
            lines={"ENGLAND": ["A HOL - BEL"], "RUSSIA": ["A SEV - ARM"]},
            phase="F1904M",
            centers=_SOLO,
        ),
    ),
}


@pytest.mark.parametrize(("leak", "preset"), [(leak, p) for leak, (presets, _) in CONFIRMED.items() for p in presets])
def test_confirmed_leaks_stay_closed(leak: str, preset: str) -> None:
    """Each confirmed leak, played by hand through the property's own functions: the
    precondition keeps it (everything the power is entitled to is the same in both games, so
    the property would catch it coming back), and the power's reports are byte-identical."""
    _, spec = CONFIRMED[leak]
    case = played_twice(preset, change=leak, **spec)  # type: ignore[arg-type]
    assert discard_reason(case) is None
    leak_found = turn_leak(case)
    assert leak_found is None, leak_found


# --- no mention --------------------------------------------------------------------------------


def notice_provinces(notice: Notice) -> list[str]:
    out = words_provinces(notice.text)

    def walk(value: NoticeValue) -> None:
        if isinstance(value, tuple):
            for item in value:
                walk(item)
        elif isinstance(value, str):
            out.extend(words_provinces(value))

    for _key, value in notice.data:
        walk(value)
    return out


def mentioned(observation: Observation) -> set[str]:
    """Every province an observation names."""
    out = set(observation.visible)
    out |= {unit.province for unit in observation.units}
    out |= {center for center, _ in observation.centers}
    for order in observation.orders:
        out.update(words_provinces(text(order)))
    for notice in observation.notices:
        out.update(notice_provinces(notice))
    return out


def mention_bound(rules: FogRules, record: Resolution, power: str) -> set[str]:
    """R': what the power sees before and after, its units and centres before and after,
    every province its own orders name (rejected ones too), and every province named by an
    order that touches what it sees, its units, or a province its own orders name."""
    seen = set(rules.visible_provinces(record.before, power) | rules.visible_provinces(record.after, power))
    mine = {p for state in (record.before, record.after) for p, u in state.units.items() if u.power == power}
    mine |= {p for state in (record.before, record.after) for p, d in state.dislodged.items() if d.unit.power == power}
    bound = seen | mine | own_provinces(record.before, power) | own_provinces(record.after, power)
    # Where its own orders reach counts as touched: a unit watches where it moved to, even
    # when it bounced and does not see the place afterwards (fog-of-war).
    touched = seen | mine
    for result in record.orders:
        if result.power == power:
            touched |= set(order_provinces(result)) | named(result.order)
    for result in record.orders:
        provinces = set(order_provinces(result)) | named(result.order)
        if provinces & touched:
            bound |= provinces
    for rejected in record.rejected:
        if rejected.power == power:
            bound.update(words_provinces(rejected.text))
    return bound


@st.composite
def records(draw: st.DrawFn) -> Resolution:
    state = draw(positions(), label="position")
    return play(state, draw(orders_for(state), label="orders"))


def mention_leak(rules: FogRules, record: Resolution) -> str | None:
    for power in POWERS:
        observation = rules.observe(record, power)
        extra = mentioned(observation) - mention_bound(rules, record, power)
        if extra:
            return f"{power} is told of {sorted(extra)}:\n{report(observation)}"
        opening = rules.initial(record.before, power)
        extra = (
            mentioned(opening)
            - set(rules.visible_provinces(record.before, power))
            - own_provinces(record.before, power)
        )
        if extra:
            return f"{power} is told of {sorted(extra)} at the opening:\n{report(opening)}"
    return None


@pytest.mark.parametrize("name", ALL)
@PROPERTY
@given(record=records())
def test_observations_name_only_what_is_near(name: str, record: Resolution) -> None:
    leak = mention_leak(FOG_RULES[name](), record)
    assert leak is None, leak


# --- same input, same output ---------------------------------------------------------------------


K = TypeVar("K")
V = TypeVar("V")


def _shuffled_dict(rng: random.Random, mapping: Mapping[K, V]) -> dict[K, V]:
    items = list(mapping.items())
    rng.shuffle(items)
    return dict(items)


def shuffled_state(state: GameState, rng: random.Random) -> GameState:
    return state.with_changes(
        units=_shuffled_dict(rng, state.units),
        centers=_shuffled_dict(rng, state.centers),
        homes=_shuffled_dict(rng, state.homes),
        dislodged=_shuffled_dict(rng, state.dislodged),
    )


def shuffled_orders(state: GameState, orders: Orders, rng: random.Random) -> Orders:
    out: Orders = {}
    for power in rng.sample(sorted(orders), len(orders)):
        # Adjustment orders are carried out first to last (DATC 4.D.4-4.D.6): only the order
        # of powers is free there.
        listed = list(orders[power])
        if state.phase.kind != "A":
            rng.shuffle(listed)
        out[power] = listed
    return out


def shuffled_record(record: Resolution, rng: random.Random) -> Resolution:
    """The same resolution with every sequence and mapping in another order."""
    orders = list(record.orders)
    rng.shuffle(orders)
    rejected = list(record.rejected)
    rng.shuffle(rejected)
    return dataclasses.replace(
        record,
        before=shuffled_state(record.before, rng),
        after=shuffled_state(record.after, rng),
        orders=tuple(orders),
        rejected=tuple(rejected),
        moves=_shuffled_dict(rng, record.moves),
        dislodged=_shuffled_dict(rng, record.dislodged),
        convoy_paths=_shuffled_dict(rng, record.convoy_paths),
        supports=_shuffled_dict(rng, record.supports),
        standoffs=tuple(rng.sample(record.standoffs, len(record.standoffs))),
    )


@st.composite
def reordered_cases(draw: st.DrawFn) -> tuple[Resolution, Resolution, Resolution, GameState]:
    """A resolution; the same phase played again from a position and orders given in
    another order; the first resolution with its own contents in another order; and the
    starting position with its dictionaries in another order."""
    state = draw(positions(), label="position")
    orders = draw(orders_for(state), label="orders")
    rng = random.Random(draw(st.integers(0, 2**32 - 1), label="shuffle"))
    record = play(state, orders)
    replayed = play(shuffled_state(state, rng), shuffled_orders(state, orders, rng))
    return record, replayed, shuffled_record(record, rng), shuffled_state(state, rng)


def same_outcome(one: Resolution, two: Resolution) -> bool:
    return one.orders == two.orders and one.rejected == two.rejected and one.after == two.after


def order_leak(rules: FogRules, case: tuple[Resolution, Resolution, Resolution, GameState]) -> str | None:
    """How the observations differ, if they do. The replayed phase is compared only where the
    engine resolved it the same: of two illegal orders to one unit, it keeps the first given,
    so submission order can change the record itself, and then the observation may follow."""
    record, replayed, reordered, state = case
    others = (
        (("replayed", replayed), ("reordered", reordered))
        if same_outcome(record, replayed)
        else (("reordered", reordered),)
    )
    for power in POWERS:
        expected = dumped(rules.observe(record, power))
        for what, other in others:
            got = dumped(rules.observe(other, power))
            if got != expected:
                return f"{power}, {what}:\n{expected}\n{got}"
        if dumped(rules.initial(state, power)) != dumped(rules.initial(record.before, power)):
            return f"{power}'s opening depends on the order of the position's dictionaries"
    return None


@pytest.mark.parametrize("name", ALL)
@PROPERTY
@given(case=reordered_cases())
def test_order_of_input_does_not_matter(name: str, case: tuple[Resolution, Resolution, Resolution, GameState]) -> None:
    leak = order_leak(FOG_RULES[name](), case)
    assert leak is None, leak


@pytest.mark.parametrize("name", ALL)
def test_one_build_written_twice(name: str) -> None:
    """The same build written twice gives two results with one text, one carried out and
    one failed; the observation must not keep whichever the record happened to list last."""
    rules = FOG_RULES[name]()
    winter = GameState.initial().with_changes(phase=Phase.parse("W1901A"), units={})
    record = adjudicate(winter, {"FRANCE": ["A PAR B", "A PAR B"]})
    assert sorted(r.outcome for r in record.orders) == ["built", "failed"]
    backwards = dataclasses.replace(record, orders=record.orders[::-1])
    assert dumped(rules.observe(record, "FRANCE")) == dumped(rules.observe(backwards, "FRANCE"))


# --- determinism -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ALL)
@PROPERTY
@given(state=positions(), data=st.data())
def test_observing_twice_gives_equal_observations(name: str, state: GameState, data: st.DataObject) -> None:
    rules = FOG_RULES[name]()
    record = play(state, data.draw(orders_for(state)))
    for power in POWERS:
        first, second = rules.observe(record, power), rules.observe(record, power)
        assert first == second and hash(first) == hash(second) and dumped(first) == dumped(second)


def test_dislodged_unit_and_its_unseen_attacker() -> None:
    """A power's own dislodged unit and the attacker standing in its province, seen without
    its owner: one observation may hold both, whatever order they were found in."""
    mine, attacker = SeenUnit("BUR", "FRANCE", "A", True), SeenUnit("BUR", None, None)
    observations = [
        Observation.build(
            variant="v",
            power="FRANCE",
            phase="S1901M",
            next_phase="S1901R",
            visible=["BUR"],
            units=units,
            orders=[],
            centers={},
        )
        for units in ([mine, attacker], [attacker, mine])
    ]
    assert observations[0] == observations[1]


places = st.sampled_from(PROVINCES)


@settings(max_examples=150, deadline=None)
@given(
    # At most one unit per place, as FogRules.observe merges sightings; a dislodged unit and
    # the unit that drove it out share a province.
    units=st.lists(seen_units, max_size=8, unique_by=lambda u: (u.location, u.dislodged)),
    orders=st.lists(seen_orders, max_size=8),
    notices=st.lists(notices, max_size=4),
    centers=st.dictionaries(places, st.sampled_from(POWERS), max_size=6),
    visible=st.lists(places, max_size=8),
    seed=st.integers(0, 1000),
    power=st.sampled_from(POWERS),
)
def test_observation_build_is_canonical(
    units: list[SeenUnit],
    orders: list[SeenOrder],
    notices: list[Notice],
    centers: dict[str, str],
    visible: list[str],
    seed: int,
    power: str,
) -> None:
    rng = random.Random(seed)

    def build(shuffle: bool) -> Observation:
        def order(items: Iterable[T]) -> list[T]:
            listed = list(items)
            if shuffle:
                rng.shuffle(listed)
            return listed

        return Observation.build(
            variant="v",
            power=power,
            phase="S1901M",
            next_phase="F1901M",
            visible=order(visible),
            units=order(units),
            orders=order(orders),
            centers=dict(order(centers.items())),
            notices=order(notices),
        )

    first, second = build(False), build(True)
    assert first == second and hash(first) == hash(second) and dumped(first) == dumped(second)
    assert report(first) == report(second)


# --- knowledge ---------------------------------------------------------------------------------


def observations(rules: FogRules, seed: int, power: str, phases: int) -> list[Observation]:
    game = random_game(seed)
    out = [rules.initial(game[0], power)]
    for index, state in enumerate(game[:phases]):
        rng = random.Random(seed * 1000 + index)
        orders = random_orders(state, get_rules(), rng)
        record = adjudicate(state, orders, explain=False, vouched=orders.vouched)
        out.append(rules.observe(record, power))
    return out


def stamp(observation: Observation) -> str:
    return observation.next_phase if observation.opening else observation.phase


@pytest.mark.parametrize("name", ALL)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 24), power=st.sampled_from(POWERS), phases=st.integers(1, 30))
def test_knowledge_is_rebuilt_from_observations_alone(name: str, seed: int, power: str, phases: int) -> None:
    rules = FOG_RULES[name]()
    seen = observations(rules, seed, power, phases)
    incremental = Knowledge(power)
    for count, observation in enumerate(seen, 1):
        incremental.update(observation)
        assert knowledge_json(incremental) == knowledge_json(Knowledge.rebuild(power, seen[:count]))
    assert incremental.observations == len(seen)
    for ghost in incremental.ghosts():
        assert ghost.owner != power and not ghost.unit.dislodged
        sightings = [i for i, o in enumerate(seen) if ghost.unit in o.units and stamp(o) == ghost.phase]
        assert sightings, (ghost, name)
        for later in seen[sightings[-1] + 1 :]:
            assert ghost.province not in later.visible
            assert all(u.province != ghost.province for u in later.units)
        # Current: made by the latest observation (not "stamped with its phase": the opening
        # report and the first turn's report carry the same phase).
        assert ghost.current == (ghost.unit in seen[-1].units)
    for center, known in incremental.centers().items():
        assert any(
            center in o.center_owners or any(n.get("center") == center for n in o.notices_of("center-lost"))
            for o in seen
        )
        assert known.owner is None or any(o.center_owners.get(center) == known.owner for o in seen)


def test_named_provinces_of_orders() -> None:
    """The helpers the properties lean on read provinces the way the rule sets write them."""
    assert named("A PAR S ??? - BUR") == {"PAR", "BUR"}
    assert sorted(words_provinces("F STP/NC - BAR, Your A BUR was dislodged; ENGLAND")) == ["BAR", "BUR", "STP"]
    assert ball(["PAR"], 1) == {"PAR", "BRE", "BUR", "GAS", "PIC"}
    assert {"ENG", "MUN", "MAR"} <= ball(["PAR"], 2) and "BER" not in ball(["PAR"], 2)
    assert BOARD.province_of("STP/SC") == "STP"


# --- the harness catches leaks -------------------------------------------------------------------
# Deliberately leaky rule sets: each property must find a counterexample, or it is a test
# that cannot fail.


class Census(FogRules):
    """Tells every power a digest of every order and unit on the board: any far change
    shows (but names no province)."""

    name = "test-census"

    def notices(self, resolution: Resolution, power: str) -> list[Notice]:
        everything = sorted(r.text for r in resolution.orders) + sorted(map(str, resolution.before.units.values()))
        digest = hashlib.sha256("|".join(everything).encode()).hexdigest()[:12]
        return [*super().notices(resolution, power), Notice.make("census", f"digest {digest}")]


class Farsighted(FogRules):
    """Sees every unit within three steps of its own: beyond anything it says it sees."""

    name = "test-farsighted"

    def units_seen(self, state: GameState, power: str, visible: frozenset[str]) -> list[SeenUnit]:
        near = ball(own_provinces(state, power), 3)
        return [
            seen_unit(unit, dislodged)
            for unit, dislodged in all_units(state)
            if unit.power == power or unit.province in near
        ]


class Clerk(FogRules):
    """Reports who gave orders in the order the record lists them."""

    name = "test-clerk"

    def notices(self, resolution: Resolution, power: str) -> list[Notice]:
        return [Notice.make("log", " ".join(r.power[:2] for r in resolution.orders[:6]))]


#: Finding one counterexample is enough: no shrinking.
HUNT = settings(
    max_examples=300, deadline=None, database=None, phases=[Stage.generate], suppress_health_check=list(HealthCheck)
)


class Sonar(FogOfWarRules):
    """Fog of war that also tells a power how many units stand just beyond its sight (a
    count: it names no province)."""

    name = "test-sonar"

    def notices(self, resolution: Resolution, power: str) -> list[Notice]:
        seen = self.visible_provinces(resolution.after, power)
        beyond = [p for p in ball(seen, 1) - seen if p in resolution.after.units]
        return [*super().notices(resolution, power), Notice.make("sonar", f"{len(beyond)} units just beyond sight")]


def sonar_differs(case: TurnCase | None) -> bool:
    """Whether a comparable case's two games tell the power different sonar counts."""
    if case is None or discard_reason(case) is not None:
        return False
    return any(
        [n.text for n in one.result.observations[case.power].notices_of("sonar")]
        != [n.text for n in two.result.observations[case.power].notices_of("sonar")]
        for one, two in zip(case.first.turns, case.second.turns, strict=False)
    )


def test_harness_finds_a_turn_leak() -> None:
    """The turn-level property catches a rule set that tells a power something about units it
    cannot see: the hidden unit is counted."""
    leaky = Variant.named("fog-of-war")
    leaky.fog = Sonar()
    case = find(hidden_changes(leaky, contact_zone), sonar_differs, settings=HUNT)
    assert case is not None and discard_reason(case) is None
    assert turn_leak(case) is not None


def test_harness_finds_a_far_leak() -> None:
    rules = Census()
    case = find(far_changes(rules), lambda c: c is not None and far_change_leak(rules, c) is not None, settings=HUNT)
    assert case is not None and "census" in str(far_change_leak(rules, case))


def test_harness_finds_a_mention_leak() -> None:
    rules = Farsighted()
    record = find(records(), lambda r: mention_leak(rules, r) is not None, settings=HUNT)
    assert mention_leak(FogRules(), record) is None and mention_leak(DeadmanRules(), record) is None


def test_harness_finds_an_order_leak() -> None:
    rules = Clerk()
    case = find(reordered_cases(), lambda c: order_leak(rules, c) is not None, settings=HUNT)
    assert '"kind": "log"' in str(order_leak(rules, case))
