"""Hypothesis strategies for what a power sees: masked orders, results, observations,
knowledge. Shared by the canonical-order property and the codec's round trips."""

from __future__ import annotations

from hypothesis import strategies as st

from fogdip.engine.map import standard_map
from fogdip.fog.knowledge import Ghost, Knowledge, KnownCenter
from fogdip.fog.masked import FAILED, HIDDEN, MaskedOrder, MaskedUnit, OrderKind, SeenResult
from fogdip.fog.observation import Notice, Observation, SeenOrder, SeenUnit

BOARD = standard_map()
POWERS = BOARD.powers
PROVINCES = sorted(BOARD.provinces)
LOCATIONS = sorted(set(PROVINCES) | {c for p in PROVINCES for c in BOARD.coasts(p)})
WORDS = ["bounce", "cut", "dislodged", "void", "no convoy", "disrupted", "disband"]

kinds = st.sampled_from(["A", "F", None])
owners = st.sampled_from([*POWERS, None])
provinces = st.sampled_from(PROVINCES)
locations = st.sampled_from(LOCATIONS)
places = st.one_of(st.just(HIDDEN), locations)
masked_units = st.builds(MaskedUnit, kinds, places)


def _with_other(kind: OrderKind) -> st.SearchStrategy[MaskedOrder]:
    named = st.builds(
        lambda unit, other, target: MaskedOrder(kind, unit, other, target),
        masked_units,
        masked_units,
        st.none() | places if kind is OrderKind.SUPPORT else places,
    )
    hidden = st.builds(lambda unit: MaskedOrder(kind, unit, HIDDEN), masked_units)
    return named | hidden


masked_orders: st.SearchStrategy[MaskedOrder] = st.one_of(
    st.builds(MaskedOrder, st.sampled_from([OrderKind.HOLD, OrderKind.DISBAND, OrderKind.BUILD]), masked_units),
    st.builds(
        lambda unit, target, via: MaskedOrder(OrderKind.MOVE, unit, target=target, via=via),
        masked_units,
        places,
        st.booleans(),
    ),
    st.builds(lambda unit, target: MaskedOrder(OrderKind.RETREAT, unit, target=target), masked_units, places),
    _with_other(OrderKind.SUPPORT),
    _with_other(OrderKind.CONVOY),
    st.just(MaskedOrder(OrderKind.WAIVE)),
    st.builds(
        lambda unit, power: MaskedOrder(OrderKind.ESPIONAGE, unit, spied=power), masked_units, st.sampled_from(POWERS)
    ),
    st.builds(lambda unit: MaskedOrder(OrderKind.DISBAND_NOW, unit), masked_units),
    st.builds(lambda province: MaskedOrder(OrderKind.PEEK, target=province), provinces),
    st.builds(lambda unit: MaskedOrder(OrderKind.PLACE, unit), masked_units),
)
seen_results = st.one_of(
    st.none(),
    st.just(FAILED),
    st.lists(st.sampled_from(WORDS), max_size=3, unique=True).map(lambda w: SeenResult.told(tuple(w))),
)
seen_orders = st.builds(SeenOrder, owners, masked_orders, seen_results, st.lists(masked_orders, max_size=2).map(tuple))
seen_units = st.builds(
    lambda location, owner, kind, dislodged: SeenUnit(
        location if kind is not None else location.partition("/")[0], owner, kind, dislodged
    ),
    locations,
    owners,
    st.sampled_from(["A", "F", None]),
    st.booleans(),
)
notice_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-5, 50), st.sampled_from(PROVINCES)),
    lambda inner: st.lists(inner, max_size=3),
    max_leaves=6,
)
notices = st.builds(
    lambda kind, text, data: Notice.make(kind, text, **data),
    st.sampled_from(["peek", "dislodged", "center-lost", "garrison"]),
    st.text(min_size=1, max_size=20),
    st.dictionaries(st.sampled_from(["province", "unit", "count", "units"]), notice_values, max_size=3),
)
phases = st.sampled_from(["S1901M", "F1901M", "F1901R", "W1901A", "S1902M", "S1901S"])


@st.composite
def observations(draw: st.DrawFn) -> Observation:
    phase = draw(phases)
    return Observation.build(
        variant=draw(st.sampled_from(["fog-of-war", "sighting", "deadman", "diplomyopia", "fog-1898", "standard"])),
        power=draw(st.sampled_from(POWERS)),
        phase=phase,
        next_phase=draw(st.one_of(phases, st.just("COMPLETED"))),
        visible=draw(st.lists(provinces, max_size=8)),
        units=draw(st.lists(seen_units, max_size=8, unique_by=lambda u: (u.province, u.dislodged))),
        orders=draw(st.lists(seen_orders, max_size=8)),
        centers=draw(st.dictionaries(st.sampled_from(sorted(BOARD.center_set)), st.sampled_from(POWERS), max_size=6)),
        notices=draw(st.lists(notices, max_size=4)),
        opening=draw(st.booleans()),
    )


@st.composite
def knowledge(draw: st.DrawFn) -> Knowledge:
    phase = draw(st.none() | phases)
    foreign = st.builds(
        lambda location, owner, kind: SeenUnit(location if kind else location.partition("/")[0], owner, kind),
        locations,
        owners,
        st.sampled_from(["A", "F", None]),
    )
    ghosts = [
        Ghost(unit, draw(phases), False) for unit in draw(st.lists(foreign, max_size=6, unique_by=lambda u: u.province))
    ]
    centers = draw(
        st.dictionaries(st.sampled_from(sorted(BOARD.center_set)), st.builds(KnownCenter, owners, phases), max_size=6)
    )
    return Knowledge.restore(draw(st.sampled_from(POWERS)), phase, ghosts, centers, draw(st.integers(0, 40)))
