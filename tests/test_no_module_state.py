"""No module-level mutable state in the layers a server runs many games through: a value
kept at module level is shared by every game of the process."""

from __future__ import annotations
import __future__

import dataclasses
import datetime
import enum
import importlib
import pkgutil
import re
import types
import typing
from collections.abc import Iterator

import pytest

from fogdip.fog.sight import KeptOn

#: Packages and modules that must hold no mutable state at module level: all of fogdip.
CHECKED = ("fogdip",)

#: Process-wide tables that intern immutable values, whatever game they come from: they can
#: never make one game's result depend on another's. Each is named with its reason.
INTERNING = {
    # One shipped map per name, immutable once built.
    "fogdip.engine.map.get_map",
    # The resolver's view of each distinct order value, and one hold order per unit place:
    # functions of the order value alone (bounded, cleared past a size).
    "fogdip.engine.order_facts._INFO",
    "fogdip.engine.order_facts._HOLDS",
    # Orders the legal-order generator made, by id, each kept alive by its entry so no id is
    # reused: what adjudication reads of them depends on the order value alone.
    "fogdip.engine.order_facts.KNOWN",
    "fogdip.engine.movement_phase.KNOWN",
    # One committed map geometry per name, read once, and the board drawn from it once:
    # immutable, the same for every game.
    "fogdip.maps.geometry.load_geometry",
    "fogdip.maps.svg.painter",
    # The server's prepared SQL statements, built once: expressions with bound parameters,
    # the same for every game and request.
    "fogdip.server.queries.statements",
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
    # a time zone, such as datetime.UTC: an immutable value
    datetime.timezone,
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
