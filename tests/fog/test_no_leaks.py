"""No-leak properties every fog rule set must have, checked over random positions and orders.

Every rule set registered in :data:`fogdip.fog.FOG_RULES` is covered, whoever wrote it:

* **non-interference**: changing a foreign unit far from a power (its order, its type, its
  presence) changes nothing that power observes, as long as the change does not reach the
  power's neighbourhood (checked on the resolution, so the property is sound);
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
from hypothesis import HealthCheck, assume, find, given, settings
from hypothesis import Phase as Stage
from hypothesis import strategies as st
from strategies import (
    adjudicate,
    BOARD,
    POWERS,
    PROVINCES,
    Orders,
    Perturbed,
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

from fogdip.bots.random_bot import random_orders
from fogdip.engine import GameState, Phase, Resolution, Unit, get_rules
from fogdip.fog import FOG_RULES, DeadmanRules, Knowledge, Notice, Observation, SeenOrder, SeenUnit
from fogdip.fog.observation import NoticeValue
from fogdip.fog.rules import FogRules
from fogdip.fog.sight import all_units, order_provinces, seen_unit

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
    return json.dumps(observation.as_json(), sort_keys=True)


def own_provinces(state: GameState, power: str) -> set[str]:
    """Where the power's units (dislodged ones too) stand, and its centres."""
    out = {p for p, u in state.units.items() if u.power == power}
    out |= {p for p, d in state.dislodged.items() if d.unit.power == power}
    out |= {c for c, owner in state.centers.items() if owner == power}
    return out


def neighbourhood(rules: FogRules, record: Resolution, power: str) -> frozenset[str]:
    """R: provinces within two steps of the power's units and centres and of what it sees,
    before and after the phase."""
    core = own_provinces(record.before, power) | own_provinces(record.after, power)
    core |= rules.visible_provinces(record.before, power) | rules.visible_provinces(record.after, power)
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
        touching.append(repr((
            r.power, r.unit, r.order, r.text, r.legal, r.defaulted, r.outcome, r.results, r.dislodged_by,
            record.moves.get(key), record.convoy_paths.get(key), record.supports.get(key), record.dislodged.get(key),
        )))
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
        str(record.after.phase), record.after.completed,
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
    first, second = rules.observe(quiet, "ENGLAND").as_json(), rules.observe(loud, "ENGLAND").as_json()
    assert (first.pop("next_phase"), second.pop("next_phase")) == ("F1901M", "S1901R")
    assert first == second


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
        out.update(words_provinces(order.text))
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
            return f"{power} is told of {sorted(extra)}:\n{observation.text()}"
        opening = rules.initial(record.before, power)
        extra = mentioned(opening) - set(rules.visible_provinces(record.before, power)) - own_provinces(record.before, power)
        if extra:
            return f"{power} is told of {sorted(extra)} at the opening:\n{opening.text()}"
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
        units=_shuffled_dict(rng, state.units), centers=_shuffled_dict(rng, state.centers),
        homes=_shuffled_dict(rng, state.homes), dislodged=_shuffled_dict(rng, state.dislodged),
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
        record, before=shuffled_state(record.before, rng), after=shuffled_state(record.after, rng),
        orders=tuple(orders), rejected=tuple(rejected),
        moves=_shuffled_dict(rng, record.moves), dislodged=_shuffled_dict(rng, record.dislodged),
        convoy_paths=_shuffled_dict(rng, record.convoy_paths), supports=_shuffled_dict(rng, record.supports),
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
    others = (("replayed", replayed), ("reordered", reordered)) if same_outcome(record, replayed) else (("reordered", reordered),)
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
        Observation.build(variant="v", power="FRANCE", phase="S1901M", next_phase="S1901R", visible=["BUR"],
                          units=units, orders=[], centers={})
        for units in ([mine, attacker], [attacker, mine])
    ]
    assert observations[0] == observations[1]


kinds = st.sampled_from(["A", "F", None])
owners = st.sampled_from([*POWERS, None])
places = st.sampled_from(PROVINCES)
seen_units = st.builds(SeenUnit, places, owners, kinds, st.booleans())
seen_orders = st.builds(
    SeenOrder, owners, st.builds(lambda a, b: f"A {a} - {b}", places, places),
    st.sampled_from([(), ("fails",), ("bounce",), None]),
)
notices = st.builds(lambda kind, text, province: Notice.make(kind, text, province=province),
                    st.sampled_from(["peek", "dislodged", "center-lost"]), st.sampled_from(["a", "b"]), places)


@settings(max_examples=150, deadline=None)
@given(
    # At most one unit per place, as FogRules.observe merges sightings; a dislodged unit and
    # the unit that drove it out share a province.
    units=st.lists(seen_units, max_size=8, unique_by=lambda u: (u.location, u.dislodged)), orders=st.lists(seen_orders, max_size=8),
    notices=st.lists(notices, max_size=4), centers=st.dictionaries(places, st.sampled_from(POWERS), max_size=6),
    visible=st.lists(places, max_size=8), seed=st.integers(0, 1000), power=st.sampled_from(POWERS),
)
def test_observation_build_is_canonical(
    units: list[SeenUnit], orders: list[SeenOrder], notices: list[Notice], centers: dict[str, str],
    visible: list[str], seed: int, power: str,
) -> None:
    rng = random.Random(seed)

    def build(shuffle: bool) -> Observation:
        def order(items: Iterable[T]) -> list[T]:
            listed = list(items)
            if shuffle:
                rng.shuffle(listed)
            return listed

        return Observation.build(
            variant="v", power=power, phase="S1901M", next_phase="F1901M", visible=order(visible),
            units=order(units), orders=order(orders), centers=dict(order(centers.items())), notices=order(notices),
        )

    first, second = build(False), build(True)
    assert first == second and hash(first) == hash(second) and dumped(first) == dumped(second)
    assert first.text() == second.text()


# --- knowledge ---------------------------------------------------------------------------------


def observations(rules: FogRules, seed: int, power: str, phases: int) -> list[Observation]:
    game = random_game(seed)
    out = [rules.initial(game[0], power)]
    for index, state in enumerate(game[:phases]):
        rng = random.Random(seed * 1000 + index)
        record = adjudicate(state, random_orders(state, get_rules(), rng), explain=False, assume_legal=True)
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
        assert incremental.as_json() == Knowledge.rebuild(power, seen[:count]).as_json()
    assert incremental.observations == len(seen)
    for ghost in incremental.ghosts():
        assert ghost.owner != power and not ghost.unit.dislodged
        sightings = [i for i, o in enumerate(seen) if ghost.unit in o.units and stamp(o) == ghost.phase]
        assert sightings, (ghost, name)
        for later in seen[sightings[-1] + 1:]:
            assert ghost.province not in later.visible
            assert all(u.province != ghost.province for u in later.units)
        assert ghost.current == (ghost.phase == stamp(seen[-1]))
    for center, known in incremental.centers().items():
        assert any(center in o.center_owners or any(n.get("center") == center for n in o.notices_of("center-lost"))
                   for o in seen)
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
        return [seen_unit(unit, dislodged) for unit, dislodged in all_units(state)
                if unit.power == power or unit.province in near]


class Clerk(FogRules):
    """Reports who gave orders in the order the record lists them."""

    name = "test-clerk"

    def notices(self, resolution: Resolution, power: str) -> list[Notice]:
        return [Notice.make("log", " ".join(r.power[:2] for r in resolution.orders[:6]))]


#: Finding one counterexample is enough: no shrinking.
HUNT = settings(max_examples=300, deadline=None, database=None, phases=[Stage.generate],
                suppress_health_check=list(HealthCheck))


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
