"""No module-level mutable state in the layers a server runs many games through: a value
kept at module level is shared by every game of the process. Nor anything mutable in a
shipped map: one map per name serves every game and every worker thread of a process, so
whatever the engine looks up on it is built when it loads, and nothing writes to it after."""

from __future__ import annotations
import __future__

import dataclasses
import datetime
import enum
import importlib
import pathlib
import pkgutil
import random
import re
import types
import typing
from collections.abc import Iterator
from functools import cached_property

import pytest

from fogdip.bots.random_bot import play_random_game
from fogdip.engine.judge import adjudicate
from fogdip.engine.legal import all_legal_orders
from fogdip.engine.map import get_map
from fogdip.engine.rules import get_rules
from fogdip.engine.state import GameState
from fogdip.engine.units import Phase, Unit
from fogdip.engine.validate import check_by_map
from fogdip.fog import FOG_RULES, get_fog_rules
from fogdip.fog.sight import KeptOn, province_sight, unit_sight

#: Packages and modules that must hold no mutable state at module level: all of fogdip.
CHECKED = ("fogdip",)

#: Process-wide tables that intern immutable values, whatever game they come from: they can
#: never make one game's result depend on another's. Each is named with its reason.
INTERNING = {
    # One committed map geometry per name, read once, and the board drawn from it once:
    # immutable, the same for every game.
    "fogdip.maps.geometry.load_geometry",
    "fogdip.maps.svg.painter",
    # The board a page is served (and its hash and gzip) and the legend's symbols, drawn once
    # per map: immutable, the same for every game and viewer.
    "fogdip.maps.layers.board_of",
    "fogdip.maps.legend.symbols",
    # The server's prepared SQL statements, built once: expressions with bound parameters,
    # the same for every game and request.
    "fogdip.server.queries.statements",
    # The bots' tables of a map: each unit type's places and neighbours, and where a unit may
    # be after some moves, worked out once per map and kept as immutable tuples.
    "fogdip.bots.heuristic_values.graph",
    "fogdip.bots.belief._spread",
}

_IMMUTABLE = (
    type(None),
    bool,
    int,
    float,
    complex,
    str,
    bytes,
    range,
    frozenset,
    types.MappingProxyType,
    re.Pattern,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    type,
    KeptOn,
    enum.Enum,
    typing.TypeVar,
    __future__._Feature,
    # a time zone, such as datetime.UTC, and a span of time: immutable values
    datetime.timezone,
    datetime.timedelta,
    # a path (where the site's static files are): an immutable value
    pathlib.PurePath,
)


def _modules() -> Iterator[types.ModuleType]:
    for name in CHECKED:
        module = importlib.import_module(name)
        yield module
        if hasattr(module, "__path__"):
            for info in pkgutil.walk_packages(module.__path__, f"{name}."):
                yield importlib.import_module(info.name)


def _immutable(value: object, depth: int = 0) -> bool:
    if isinstance(value, _IMMUTABLE) or depth > 4:
        return True
    if isinstance(value, tuple):
        return all(_immutable(item, depth + 1) for item in value)
    if isinstance(value, types.MappingProxyType):
        return all(_immutable(item, depth + 1) for item in value.values())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        frozen = type(value).__dataclass_params__.frozen  # type: ignore[attr-defined]
        return bool(frozen) and all(_immutable(getattr(value, f.name), depth + 1) for f in dataclasses.fields(value))
    # typing constructs (aliases, unions, Literal[...]) describe types; they hold no state.
    return type(value).__module__ in ("typing", "types", "typing_extensions")


def _module_values() -> list[tuple[str, str, object]]:
    out = []
    for module in _modules():
        for name, value in vars(module).items():
            if name.startswith("__") or (
                getattr(value, "__module__", module.__name__) != module.__name__ and callable(value)
            ):
                continue
            out.append((module.__name__, name, value))
    return out


def test_the_checked_layers_hold_no_mutable_values_at_module_level() -> None:
    found = [
        f"{module}.{name}: {type(value).__name__}"
        for module, name, value in _module_values()
        if not _immutable(value) and f"{module}.{name}" not in INTERNING
    ]
    assert found == []


@pytest.mark.parametrize("value", [{}, [], set(), dataclasses.make_dataclass("Open", ["x"])(1)])
def test_the_check_catches_mutable_values(value: object) -> None:
    assert not _immutable(value)


# --- a shipped map ------------------------------------------------------------------------------

#: Immutable values that hold nothing further.
_LEAVES = (type(None), bool, int, float, str, bytes, enum.Enum)


def _mutable_parts(root: object, where: str) -> list[str]:
    """Every mutable value reachable from ``root``, by where it was found. Only immutable
    containers (tuples, frozensets, read-only mappings) and frozen dataclasses holding no
    attribute but their fields may hold anything."""
    found: list[str] = []
    seen: set[int] = set()
    stack: list[tuple[object, str]] = [(root, where)]
    while stack:
        value, path = stack.pop()
        if isinstance(value, _LEAVES) or id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, (tuple, frozenset)):
            stack.extend((item, f"{path}[{i}]") for i, item in enumerate(value))
        elif isinstance(value, types.MappingProxyType):
            for key, item in value.items():
                stack.extend(((key, f"{path} key {key!r}"), (item, f"{path}[{key!r}]")))
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            if not type(value).__dataclass_params__.frozen:  # type: ignore[attr-defined]
                found.append(f"{path}: {type(value).__name__} is not frozen")
            names = {f.name for f in dataclasses.fields(value)}
            extra = sorted(set(getattr(value, "__dict__", {})) - names)
            if extra:
                found.append(f"{path}: {type(value).__name__} holds {', '.join(extra)} beyond its fields")
            stack.extend((getattr(value, name), f"{path}.{name}") for name in sorted(names))
        else:
            found.append(f"{path}: {type(value).__name__}")
    return found


def _use_the_map() -> None:
    """Everything that once kept facts on a map as it met them: legal orders (sites and
    convoy routes), adjudication trusted and checked, distances, checking by the map alone, the
    fog's sight, and the map's computed properties."""
    rules = get_rules("2000")
    board = get_map("standard")
    for record in play_random_game(3, rules, max_phases=60, explain=True):
        state = record.before
        options = all_legal_orders(state, rules)
        rng = random.Random(str(state.phase))
        orders = {
            power: [rng.choice(listed) for listed in units.values() if listed] for power, units in options.items()
        }
        adjudicate(state, orders, rules, vouched=options.vouched)
        fogged = adjudicate(state, orders, rules.with_options(legality="map"))
        for unit in state.units.values():
            unit_sight(board, unit, "movement")
            unit_sight(board, unit, "any")
            province_sight(board, unit.province)
        for name in FOG_RULES:
            fog = get_fog_rules(name)
            fog.observe(fogged if fog.needs_map_legality else record, "FRANCE")
    board.distances_from(("PAR", "MAR"))
    move = all_legal_orders(GameState.initial(), rules)["ENGLAND"]["LON"][1]
    check_by_map(board, rules, Phase("S", 1901, "M"), Unit("ENGLAND", "A", "LON"), move)
    _ = board.center_set, board.sea_provinces, board.supply_centers


def test_a_shipped_map_holds_nothing_mutable_after_use() -> None:
    _use_the_map()
    assert _mutable_parts(get_map("standard"), "standard") == []


class _Open:
    @cached_property
    def facts(self) -> dict[str, int]:
        return {}


@dataclasses.dataclass(frozen=True)
class _Kept:
    name: str

    @cached_property
    def facts(self) -> frozenset[str]:
        return frozenset()


def _kept_with_facts() -> _Kept:
    kept = _Kept("x")
    _ = kept.facts
    return kept


@pytest.mark.parametrize(
    "value",
    [
        {},
        types.MappingProxyType({"x": [1]}),
        (frozenset({1}), set()),
        dataclasses.make_dataclass("Open", ["x"])(1),
        _Open(),
        _kept_with_facts(),
    ],
)
def test_the_map_check_catches_mutable_parts(value: object) -> None:
    assert _mutable_parts(value, "value") != []
