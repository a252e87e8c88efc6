"""Hypothesis strategies and helpers for the fog property tests: positions, orders, and the
perturbation of one foreign unit.

Positions come two ways: random units on random legal locations with random centre owners
(movement phases only), and positions reached by the random bot (every phase kind, so
retreats and adjustments are covered). Orders are mostly legal, drawn from the engine's own
lists, with a few written at random so illegal and rejected orders are exercised too.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TypeAlias

from hypothesis import strategies as st

from fogdip.bots.random_bot import random_orders
from fogdip.engine import (
    Build,
    Convoy,
    GameState,
    Order,
    Phase,
    Resolution,
    Rules,
    SupportHold,
    SupportMove,
    Unit,
    get_rules,
    legal_orders,
    standard_map,
)
from fogdip.engine import adjudicate as engine_adjudicate
from fogdip.engine.judge import OrderInput
from fogdip.engine.legal import MovementOptions
from fogdip.engine.map import UnitKind

#: The rules of every fog game: the default edition, with legality judged by the map alone.
RULES = get_rules().with_options(legality="map")
BOARD = standard_map()
POWERS = BOARD.powers
PROVINCES = tuple(sorted(code for code, p in BOARD.provinces.items() if p.passable))
CENTERS = tuple(sorted(BOARD.supply_centers))

#: What an order mapping holds: parsed orders, or texts for orders written at random.
Orders: TypeAlias = dict[str, list["Order | str"]]
Draw: TypeAlias = Callable[..., object]


def _spots(province: str) -> list[tuple[UnitKind, str]]:
    spots: list[tuple[UnitKind, str]] = []
    if BOARD.can_hold("A", province):
        spots.append(("A", province))
    for location in BOARD.coasts(province) or (province,):
        if BOARD.can_hold("F", location):
            spots.append(("F", location))
    return spots


#: Every (kind, location) a unit may stand on, by province.
SPOTS: dict[str, list[tuple[UnitKind, str]]] = {p: _spots(p) for p in PROVINCES}


def ball(provinces: Iterable[str], radius: int = 2) -> frozenset[str]:
    """Provinces within ``radius`` steps of any of ``provinces``, over every adjacency."""
    seen = set(provinces)
    frontier = set(seen)
    for _ in range(radius):
        frontier = {n for p in frontier for n in BOARD.neighbours[p]} - seen
        seen |= frontier
    return frozenset(seen)


def named(order: Order | str) -> frozenset[str]:
    """Every province an order names (its unit's, a supported or convoyed unit's, its
    target); for an order written as text, every province code in it."""
    if isinstance(order, str):
        return frozenset(words_provinces(order))
    ref = getattr(order, "unit", None)  # a WAIVE names no unit
    out = {BOARD.province_of(ref.location)} if ref is not None else set()
    if isinstance(order, (SupportHold, SupportMove)):
        out.add(BOARD.province_of(order.supported.location))
    if isinstance(order, Convoy):
        out.add(BOARD.province_of(order.army.location))
    target = getattr(order, "target", None)
    if isinstance(target, str):
        out.add(BOARD.province_of(target))
    return frozenset(out)


def words_provinces(text: str) -> list[str]:
    """Province codes among the words of a text (``STP/NC`` counts as ``STP``); ``???`` and
    ordinary words are ignored."""
    out = []
    for word in text.replace(",", " ").replace(":", " ").replace("'", " ").replace('"', " ").split():
        word = word.strip(".;()[]")
        if word.upper() == word and BOARD.is_location(word):
            out.append(BOARD.province_of(word))
    return out


def adjudicate(state: GameState, orders: OrderInput, rules: Rules | str | None = None, **options: bool) -> Resolution:
    """The engine's :func:`~fogdip.engine.adjudicate` as a fog game calls it: whatever the
    edition, legality is judged by the map alone (fog rule sets observe nothing else)."""
    edition = rules if isinstance(rules, Rules) else get_rules(rules)
    return engine_adjudicate(state, orders, edition.with_options(legality="map"), **options)


# --- positions -----------------------------------------------------------------------------


class Position(GameState):
    """A drawn position that prints as a phase document, so a failing example reads well."""

    def __repr__(self) -> str:
        units: dict[str, list[str]] = {}
        for unit in self.units.values():
            units.setdefault(unit.power, []).append(f"{unit.kind} {unit.location}")
        for dislodged in self.dislodged.values():
            unit = dislodged.unit
            units.setdefault(unit.power, []).append(f"*{unit.kind} {unit.location}")
        centers: dict[str, list[str]] = {}
        for center, owner in self.centers.items():
            centers.setdefault(owner, []).append(center)
        return repr(
            {
                "phase": str(self.phase),
                "units": {p: sorted(u) for p, u in sorted(units.items())},
                "centers": {p: sorted(c) for p, c in sorted(centers.items())},
                "retreats": {p: list(d.retreats) for p, d in sorted(self.dislodged.items())},
            }
        )

    def _repr_pretty_(self, printer: object, cycle: bool) -> None:
        printer.text(repr(self))  # type: ignore[attr-defined]


def position(state: GameState) -> Position:
    return Position(state.board, state.phase, state.units, state.centers, state.homes, state.dislodged, state.completed)


@st.composite
def random_positions(draw: st.DrawFn) -> GameState:
    """Random units of random powers on random legal locations, random centre owners, in a
    Spring or Fall movement phase."""
    provinces = draw(st.lists(st.sampled_from(PROVINCES), min_size=2, max_size=20, unique=True))
    units: dict[str, Unit] = {}
    for province in provinces:
        kind, location = draw(st.sampled_from(SPOTS[province]))
        units[province] = Unit(draw(st.sampled_from(POWERS)), kind, location)
    owned = draw(st.lists(st.sampled_from(CENTERS), max_size=len(CENTERS), unique=True))
    centers = {center: draw(st.sampled_from(POWERS)) for center in owned}
    phase = Phase(draw(st.sampled_from("SF")), draw(st.integers(1901, 1905)), "M")
    return position(GameState.initial(BOARD).with_changes(phase=phase, units=units, centers=centers))


@cache
def random_game(seed: int, phases: int = 40) -> tuple[GameState, ...]:
    """The positions of a seeded random-bot game, each before its phase is played."""
    rng = random.Random(seed)
    state = GameState.initial(BOARD)
    out = [state]
    for _ in range(phases):
        orders = random_orders(state, RULES, rng)
        record = adjudicate(state, orders, RULES, explain=False, vouched=orders.vouched)
        state = record.after
        if state.completed:
            break
        out.append(state)
    return tuple(out)


@st.composite
def played_positions(draw: st.DrawFn) -> GameState:
    """A position reached by the random bot: any phase kind."""
    game = random_game(draw(st.integers(0, 24)))
    return position(game[draw(st.integers(0, len(game) - 1))])


def positions() -> st.SearchStrategy[GameState]:
    return st.one_of(random_positions(), played_positions())


# --- orders --------------------------------------------------------------------------------


def _wild(draw: st.DrawFn, head: str) -> str:
    """An order for the unit ``head`` (``"A PAR"``) written at random: usually illegal."""
    near = sorted(ball([BOARD.province_of(head.split()[1])]))
    some = st.sampled_from(near)
    shape = draw(st.integers(0, 5))
    if shape == 0:
        return f"{head} - {draw(some)}"
    if shape == 1:
        return f"{head} S {draw(some)}"
    if shape == 2:
        return f"{head} S {draw(some)} - {draw(some)}"
    if shape == 3:
        return f"{head} C {draw(some)} - {draw(some)}"
    if shape == 4:
        return f"{head} - {draw(some)} VIA"
    return f"{'F' if head[0] == 'A' else 'A'} {head[2:]} H"  # wrong unit type


@st.composite
def orders_for(draw: st.DrawFn, state: GameState) -> Orders:
    """Orders for every power: per unit, a legal order, none, or one written at random; now
    and then an order for a unit the power does not have (rejected)."""
    orders: Orders = {power: [] for power in POWERS}
    kind = state.phase.kind
    if kind == "M":
        options = MovementOptions(state, RULES)
        for province in sorted(state.units):
            unit = state.units[province]
            pick = draw(st.integers(0, 9))
            if pick == 0:
                continue
            if pick == 1:
                orders[unit.power].append(_wild(draw, f"{unit.kind} {unit.location}"))
                continue
            choices = options.choices(unit)
            spec = choices[draw(st.integers(0, len(choices) - 1))]
            orders[unit.power].append(options.order(options.refs[province], spec))
    elif kind == "R":
        for power in POWERS:
            for province, retreats in sorted(legal_orders(state, power, RULES).items()):
                pick = draw(st.integers(0, 6))
                unit = state.dislodged[province].unit
                if pick == 0:
                    continue
                if pick == 1:
                    orders[power].append(_wild(draw, f"{unit.kind} {unit.location}"))
                    continue
                orders[power].append(retreats[draw(st.integers(0, len(retreats) - 1))])
    else:
        for power in POWERS:
            orders[power] = draw(adjustment_orders(state, power))
    if draw(st.integers(0, 4)) == 0:
        power = draw(st.sampled_from(POWERS))
        orders[power].append(f"A {draw(st.sampled_from(PROVINCES))} H")
    return {power: listed for power, listed in orders.items() if listed}


@st.composite
def adjustment_orders(draw: st.DrawFn, state: GameState, power: str) -> list[Order | str]:
    options = legal_orders(state, power, RULES)
    out: list[Order | str] = []
    if "DISBAND" in options:
        disbands = options["DISBAND"]
        count = draw(st.integers(0, len(disbands)))
        out.extend(draw(st.permutations(disbands))[:count])
    builds = options.get("BUILD", [])
    if builds:
        out.extend(draw(st.lists(st.sampled_from(builds), max_size=3)))
    if options.get("WAIVE") and draw(st.booleans()):
        out.extend(options["WAIVE"])
    if draw(st.integers(0, 5)) == 0:
        out.append(f"A {draw(st.sampled_from(CENTERS))} B")
    return out


# --- perturbing one foreign unit --------------------------------------------------------------


@dataclass(frozen=True)
class Perturbed:
    """A changed position and orders, and what was changed (for failure messages)."""

    state: GameState
    orders: Orders
    change: str


def unit_order(orders: Mapping[str, list[Order | str]], power: str, province: str) -> Order | str | None:
    for order in orders.get(power, ()):
        if isinstance(order, str):
            words = order.split()
            if len(words) > 1 and BOARD.is_location(words[1]) and BOARD.province_of(words[1]) == province:
                return order
            continue
        ref = getattr(order, "unit", None)  # a WAIVE names no unit
        if ref is not None and BOARD.province_of(ref.location) == province:
            return order
    return None


def _replaced(orders: Orders, power: str, old: Order | str | None, new: Order | str | None) -> Orders:
    out = {p: list(listed) for p, listed in orders.items()}
    listed = out.setdefault(power, [])
    if old is not None:
        listed.remove(old)
    if new is not None:
        listed.append(new)
    return out


def _movement_orders_of(state: GameState, unit: Unit) -> list[Order]:
    options = MovementOptions(state, RULES)
    province = unit.province
    return [options.order(options.refs[province], spec) for spec in options.choices(state.units[province])]


def perturbations(state: GameState, orders: Orders, unit: Unit, avoid: frozenset[str]) -> list[Perturbed]:
    """Every change to the foreign ``unit`` that names no province in ``avoid``: another
    legal order, no unit at all, or a unit of the other type with a legal order of its own.
    In a retreat phase ``unit`` is a dislodged unit; in an adjustment phase it is removed,
    or a build of its power that stands on its province is moved or dropped."""
    province = unit.province
    current = unit_order(orders, unit.power, province)
    out: list[Perturbed] = []
    kind = state.phase.kind
    if kind == "M":
        for order in _movement_orders_of(state, unit):
            if order != current and not named(order) & avoid:
                out.append(Perturbed(state, _replaced(orders, unit.power, current, order), f"{unit} orders {order}"))
        units = {p: u for p, u in state.units.items() if p != province}
        out.append(
            Perturbed(state.with_changes(units=units), _replaced(orders, unit.power, current, None), f"no {unit}")
        )
        for other_kind, location in SPOTS[province]:
            if other_kind == unit.kind:
                continue
            changed = dict(state.units)
            changed[province] = Unit(unit.power, other_kind, location)
            retyped = state.with_changes(units=changed)
            for order in _movement_orders_of(retyped, changed[province]):
                if not named(order) & avoid:
                    out.append(
                        Perturbed(
                            retyped,
                            _replaced(orders, unit.power, current, order),
                            f"{changed[province]} orders {order}",
                        )
                    )
    elif kind == "R":
        for order in legal_orders(state, unit.power, RULES).get(province, []):
            if order != current and not named(order) & avoid:
                out.append(Perturbed(state, _replaced(orders, unit.power, current, order), f"{unit} orders {order}"))
        dislodged = {p: d for p, d in state.dislodged.items() if p != province}
        out.append(
            Perturbed(
                state.with_changes(dislodged=dislodged), _replaced(orders, unit.power, current, None), f"no {unit}"
            )
        )
    else:
        if current is None and province in state.units:
            units = {p: u for p, u in state.units.items() if p != province}
            out.append(Perturbed(state.with_changes(units=units), orders, f"no {unit}"))
        if isinstance(current, Build):
            out.append(Perturbed(state, _replaced(orders, unit.power, current, None), f"no {current}"))
            for build in legal_orders(state, unit.power, RULES).get("BUILD", []):
                assert isinstance(build, Build)
                if (
                    build != current
                    and not named(build) & avoid
                    and unit_order(orders, unit.power, build.unit.province) is None
                ):
                    out.append(
                        Perturbed(state, _replaced(orders, unit.power, current, build), f"{build} for {current}")
                    )
    return out


def foreign_subjects(state: GameState, orders: Orders, power: str) -> list[Unit]:
    """The foreign units a perturbation may concern: units on the board (or dislodged, in a
    retreat phase), and in an adjustment phase the units of foreign builds."""
    kind = state.phase.kind
    if kind == "R":
        return [d.unit for _, d in sorted(state.dislodged.items()) if d.unit.power != power]
    units = [u for _, u in sorted(state.units.items()) if u.power != power]
    if kind == "A":
        for other, listed in sorted(orders.items()):
            if other == power:
                continue
            for order in listed:
                if isinstance(order, Build) and order.unit.kind is not None:
                    units.append(Unit(other, order.unit.kind, order.unit.location))
    return units


def play(state: GameState, orders: Orders) -> Resolution:
    return adjudicate(state, orders, RULES)
