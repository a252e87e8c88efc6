"""Sight geometry and order masking shared by the fog rule sets.

>>> from fogdip.engine import standard_map, Unit
>>> board = standard_map()
>>> sorted(unit_sight(board, Unit("GERMANY", "F", "BER"), "movement"))
['BAL', 'BER', 'KIE', 'PRU']
>>> sorted(unit_sight(board, Unit("GERMANY", "F", "BER"), "any"))
['BAL', 'BER', 'KIE', 'MUN', 'PRU', 'SIL']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Literal

from fogdip.engine.errors import FogdipError
from fogdip.engine.map import Map
from fogdip.engine.notation import parse_order
from fogdip.engine.orders import Build, Convoy, Disband, Hold, Move, Order, Retreat, SupportHold, SupportMove, UnitRef, Waive
from fogdip.engine.outcomes import OrderResult
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit
from fogdip.fog.observation import UNKNOWN, SeenOrder, SeenUnit

#: How a unit's sight spreads: along the moves its own type can make, or to every
#: neighbouring province whatever the terrain.
SightMode = Literal["movement", "any"]

#: How much of an order's outcome is revealed: the result words, only success or failure,
#: or nothing.
ResultLevel = Literal["full", "success", "none"]


def unit_sight(board: Map, unit: Unit, mode: SightMode) -> frozenset[str]:
    """The provinces a unit sees: its own and its neighbours, by ``mode``."""
    if mode == "movement":
        return board.reachable_provinces(unit.kind, unit.location) | {unit.province}
    return board.neighbours[unit.province] | {unit.province}


def province_sight(board: Map, province: str) -> frozenset[str]:
    """A province and every province next to it, whatever the terrain."""
    return board.neighbours[province] | {province}


def own_units(state: GameState, power: str) -> list[Unit]:
    """The power's units on the board, including those dislodged and awaiting a retreat."""
    units = [unit for unit in state.units.values() if unit.power == power]
    units.extend(d.unit for d in state.dislodged.values() if d.unit.power == power)
    return units


def all_units(state: GameState) -> list[tuple[Unit, bool]]:
    """Every unit with whether it is dislodged."""
    out = [(unit, False) for unit in state.units.values()]
    out.extend((d.unit, True) for d in state.dislodged.values())
    return out


def seen_unit(unit: Unit, dislodged: bool = False, *, owner: bool = True, kind: bool = True) -> SeenUnit:
    """A unit as seen, revealing its owner and type only where asked."""
    return SeenUnit(
        unit.location if kind else unit.province,
        unit.power if owner else None,
        unit.kind if kind else None,
        dislodged,
    )


def revealed_result(result: OrderResult, level: ResultLevel) -> tuple[str, ...] | None:
    """The outcome a power learns: full result words, ``()``/``("fails",)``, or ``None``."""
    if level == "none":
        return None
    if level == "full":
        return result.results
    return () if result.succeeded else ("fails",)


def full_text(result: OrderResult, board: Map | None = None) -> str:
    """An order in canonical notation, with the unit's real type and coast."""
    return masked_text(result, lambda _province: True, board)


def as_written(result: OrderResult, board: Map | None) -> Order:
    """The order as its power wrote it, in canonical form.

    The engine completes a legal support or convoy with the real type and coast of the unit it
    names, which the ordering power may never have seen; what it wrote is what it knows. Two
    orders to one unit are shown in a fixed order, whatever the order they were given in."""
    order = result.order
    if board is None or not result.legal or not isinstance(order, (SupportHold, SupportMove, Convoy)):
        return order
    try:
        written = parse_order(result.text, board)
    except FogdipError:
        return order
    if isinstance(written, SupportHold) and isinstance(order, SupportHold):
        return SupportHold(order.unit, written.supported)
    if isinstance(written, SupportMove) and isinstance(order, SupportMove):
        return SupportMove(order.unit, written.supported, written.target)
    if isinstance(written, Convoy) and isinstance(order, Convoy):
        return Convoy(order.unit, written.army, written.target)
    return order


def masked_text(result: OrderResult, known: Callable[[str], bool], board: Map | None = None) -> str:
    """An order with every province the power cannot know written ``???``.

    The unit's own type is always shown (it is the unit that is observed). For a support or
    convoy, the supported unit is written ``???`` as a whole when neither its province nor
    its target is known: ``A SIL S ???``. Given the ``board``, a support or convoy names the
    other unit as its power wrote it (:func:`as_written`).
    """
    order, unit = as_written(result, board), result.unit
    if not result.legal and "; " in result.text:
        return "; ".join(sorted(result.text.split("; ")))
    if isinstance(order, Waive) or unit is None:
        return str(order)
    head = f"{unit.kind} {_place(unit.location, known)}"
    if isinstance(order, Hold):
        return f"{head} H"
    if isinstance(order, Move):
        via = " VIA" if order.via_convoy and known(unit.province) and known(_province(order.target)) else ""
        return f"{head} - {_place(order.target, known)}{via}"
    if isinstance(order, SupportHold):
        if not known(order.supported.province):
            return f"{head} S {UNKNOWN}"  # not "A ???": the type of an unseen unit is hidden too
        return f"{head} S {_ref(order.supported, known)}"
    if isinstance(order, (SupportMove, Convoy)):
        other = order.supported if isinstance(order, SupportMove) else order.army
        verb = "S" if isinstance(order, SupportMove) else "C"
        if not known(other.province) and not known(_province(order.target)):
            return f"{head} {verb} {UNKNOWN}"
        return f"{head} {verb} {_ref(other, known)} - {_place(order.target, known)}"
    if isinstance(order, Retreat):
        return f"{head} R {_place(order.target, known)}"
    if isinstance(order, Disband):
        return f"{head} D"
    if isinstance(order, Build):
        return f"{unit.kind} {unit.location} B"
    return f"{head} {order}"  # pragma: no cover - every engine order is handled above


def seen_order(
    result: OrderResult, known: Callable[[str], bool], level: ResultLevel, *, owner: bool = True, board: Map | None = None
) -> SeenOrder:
    return SeenOrder(result.power if owner else None, masked_text(result, known, board), revealed_result(result, level))


def order_provinces(result: OrderResult) -> list[str]:
    """Every province an order names: the unit's, its target, and a supported unit's."""
    order, unit = result.order, result.unit
    out = [unit.province] if unit is not None else []
    if isinstance(order, (SupportHold, SupportMove)):
        out.append(order.supported.province)
    if isinstance(order, Convoy):
        out.append(order.army.province)
    target = getattr(order, "target", None)
    if isinstance(target, str):
        out.append(_province(target))
    return out


def _province(location: str) -> str:
    return location.partition("/")[0]


def _place(location: str, known: Callable[[str], bool]) -> str:
    return location if known(_province(location)) else UNKNOWN


def _ref(ref: UnitRef, known: Callable[[str], bool]) -> str:
    place = _place(ref.location, known)
    return place if ref.kind is None else f"{ref.kind} {place}"


def union(sets: Iterable[frozenset[str]]) -> frozenset[str]:
    out: set[str] = set()
    for item in sets:
        out |= item
    return frozenset(out)
