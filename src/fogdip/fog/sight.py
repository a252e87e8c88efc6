"""Sight geometry and order masking shared by the fog rule sets.

>>> from fogdip.engine import standard_map, Unit
>>> board = standard_map()
>>> sorted(unit_sight(board, Unit("GERMANY", "F", "BER"), "movement"))
['BAL', 'BER', 'KIE', 'PRU']
>>> sorted(unit_sight(board, Unit("GERMANY", "F", "BER"), "any"))
['BAL', 'BER', 'KIE', 'MUN', 'PRU', 'SIL']
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from functools import cached_property
from typing import Generic, Literal, Protocol, TypeVar, cast

from fogdip.engine.map import Map, UnitKind
from fogdip.engine.orders import Build, Convoy, Disband, Hold, Move, Retreat, SupportHold, SupportMove, UnitRef, Waive
from fogdip.engine.outcomes import OrderResult, Resolution
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit
from fogdip.fog.observation import UNKNOWN, SeenOrder, SeenUnit

#: How a unit's sight spreads: along the moves its own type can make, or to every
#: neighbouring province whatever the terrain.
SightMode = Literal["movement", "any"]

#: How much of an order's outcome is revealed: the result words, only success or failure,
#: or nothing.
ResultLevel = Literal["full", "success", "none"]


# --- facts kept with what they were made from ------------------------------------------------
#
# Every power's observation of a phase reads the same record, and every observation of a game
# the same board, so what depends on those alone is worked out once and kept on the object it
# was made from (its ``memo``): maps, positions and records never change once made, so a fact
# holds while its object lives, goes with it, and is never shared between two games.

Owner = TypeVar("Owner", bound="HasMemo")
Facts = TypeVar("Facts")


class HasMemo(Protocol):
    @property
    def memo(self) -> dict[object, object]: ...


class KeptOn(Generic[Owner, Facts]):
    """Facts made by ``make`` from an owner (a map, a position, a record), kept in the
    owner's ``memo`` under this object. It holds nothing itself."""

    __slots__ = ("_make",)

    def __init__(self, make: Callable[[Owner], Facts]) -> None:
        self._make = make

    def __call__(self, source: Owner) -> Facts:
        memo = source.memo
        facts = memo.get(self)
        if facts is None:
            facts = memo.setdefault(self, self._make(source))
        return cast(Facts, facts)


class BoardFacts:
    """Sight geometry of one map, computed as it is first asked for."""

    def __init__(self, board: Map) -> None:
        self.board = board
        self.sight: dict[tuple[SightMode, UnitKind, str], frozenset[str]] = {}
        self.around: dict[str, frozenset[str]] = {}

    @cached_property
    def passable(self) -> frozenset[str]:
        return frozenset(code for code, province in self.board.provinces.items() if province.passable)


#: The facts of a map, kept on it.
board_facts: KeptOn[Map, BoardFacts] = KeptOn(BoardFacts)


class RecordFacts:
    """What every power's observation of one record reads alike: its orders in full text, and
    the orders by power and by province, computed as they are first asked for."""

    def __init__(self, resolution: Resolution) -> None:
        self.resolution = resolution
        self.board = resolution.before.board

    @cached_property
    def full_texts(self) -> tuple[str, ...]:
        """:func:`full_text` of each order, given the board (supports as written)."""
        return tuple(full_text(result) for result in self.resolution.orders)

    @cached_property
    def full_orders(self) -> tuple[SeenOrder, ...]:
        """Every order as its own power sees it: full text, full results."""
        orders = self.resolution.orders
        return tuple(
            SeenOrder(result.power, text, result.results) for result, text in zip(orders, self.full_texts, strict=True)
        )

    @cached_property
    def own_orders(self) -> dict[str, tuple[SeenOrder, ...]]:
        """Each power's orders as it sees them under fog: full text, and the result words of
        :func:`fog_words`."""
        out: dict[str, list[SeenOrder]] = {}
        resolution = self.resolution
        for result, text in zip(resolution.orders, self.full_texts, strict=True):
            out.setdefault(result.power, []).append(SeenOrder(result.power, text, fog_words(result, resolution)))
        return {power: tuple(orders) for power, orders in out.items()}

    @cached_property
    def by_power(self) -> dict[str, tuple[OrderResult, ...]]:
        """Each power's orders, in the record's order."""
        out: dict[str, list[OrderResult]] = {}
        for result in self.resolution.orders:
            out.setdefault(result.power, []).append(result)
        return {power: tuple(results) for power, results in out.items()}

    def orders_of(self, power: str) -> tuple[OrderResult, ...]:
        return self.by_power.get(power, ())

    @cached_property
    def by_province(self) -> dict[str, OrderResult]:
        """The order of the unit in each province: the first one, as ``Resolution.result_of``."""
        out: dict[str, OrderResult] = {}
        for result in self.resolution.orders:
            if result.unit is not None:
                out.setdefault(result.unit.province, result)
        return out

    def result_of(self, province: str) -> OrderResult | None:
        return self.by_province.get(province)


#: The facts of a record, kept on it.
record_facts: KeptOn[Resolution, RecordFacts] = KeptOn(RecordFacts)


class StateFacts:
    """One position's units and centres by power, for the seven observations that read it."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        #: Units on the board, dislodged units and owned centres, each in the state's order.
        self.units: dict[str, list[Unit]] = {}
        self.dislodged: dict[str, list[Unit]] = {}
        self.centers: dict[str, list[str]] = {}
        for unit in state.units.values():
            self.units.setdefault(unit.power, []).append(unit)
        for dislodged in state.dislodged.values():
            self.dislodged.setdefault(dislodged.unit.power, []).append(dislodged.unit)
        for center, owner in state.centers.items():
            self.centers.setdefault(owner, []).append(center)
        #: Provinces a rule set worked out from this position (its sight, say), under keys of
        #: its own that name everything else they were computed from: the power, the options.
        self.memo: dict[Hashable, frozenset[str]] = {}

    @cached_property
    def seen(self) -> list[tuple[str, str, SeenUnit]]:
        """Every unit as :func:`all_units` lists them, with its owner and province, and as
        seen with owner and type (:func:`seen_unit`): made once for all the powers."""
        return [(unit.power, unit.province, seen_unit(unit, dislodged)) for unit, dislodged in all_units(self.state)]

    @cached_property
    def seen_as(self) -> dict[tuple[Unit, bool], SeenUnit]:
        """:attr:`seen` by unit and whether it is dislodged."""
        return {
            (unit, dislodged): seen
            for (unit, dislodged), (_, _, seen) in zip(all_units(self.state), self.seen, strict=True)
        }


#: The facts of a position, kept on it.
state_facts: KeptOn[GameState, StateFacts] = KeptOn(StateFacts)


# --- sight -----------------------------------------------------------------------------------


def unit_sight(board: Map, unit: Unit, mode: SightMode) -> frozenset[str]:
    """The provinces a unit sees: its own and its neighbours, by ``mode``."""
    cache = board_facts(board).sight
    key = (mode, unit.kind, unit.location)
    seen = cache.get(key)
    if seen is None:
        if mode == "movement":
            seen = board.reachable_provinces(unit.kind, unit.location) | {unit.province}
        else:
            seen = board.neighbours[unit.province] | {unit.province}
        cache[key] = seen
    return seen


def province_sight(board: Map, province: str) -> frozenset[str]:
    """A province and every province next to it, whatever the terrain."""
    cache = board_facts(board).around
    seen = cache.get(province)
    if seen is None:
        seen = cache[province] = board.neighbours[province] | {province}
    return seen


def own_units(state: GameState, power: str) -> list[Unit]:
    """The power's units on the board, including those dislodged and awaiting a retreat."""
    facts = state_facts(state)
    return [*facts.units.get(power, ()), *facts.dislodged.get(power, ())]


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


def revealed_result(result: OrderResult, level: ResultLevel, resolution: Resolution) -> tuple[str, ...] | None:
    """The outcome a power learns of an order of ``resolution``: result words
    (:func:`fog_words`), ``()``/``("fails",)``, or ``None``."""
    if level == "none":
        return None
    if level == "full":
        return fog_words(result, resolution)
    return success_or_failure(result)


def success_or_failure(result: OrderResult) -> tuple[str, ...]:
    """Only whether an order succeeded: ``()``, or ``("fails",)``."""
    return () if result.succeeded else ("fails",)


def needs_convoy(board: Map, kind: str | None, location: str, target: str) -> bool:
    """Whether an army's move can only go by sea: both ends on the coast, not adjacent by land.

    >>> from fogdip.engine import standard_map
    >>> needs_convoy(standard_map(), "A", "BRE", "LON"), needs_convoy(standard_map(), "A", "BRE", "PIC")
    (True, False)
    """
    if kind != "A":
        return False
    origin, destination = board.province_of(location), board.province_of(target)
    return (
        destination not in board.army_targets(location)
        and board.provinces[origin].terrain == "coast"
        and board.provinces[destination].terrain == "coast"
    )


def fog_words(result: OrderResult, resolution: Resolution) -> tuple[str, ...]:
    """The result words a power is shown under fog: the engine's (MILA's), except where they
    depend on units the power may not see beyond what its order touched.

    * A support that was given and not cut reads ``[]`` however the supported move went (by
      land or by convoy, carried, disrupted or never formed: all a matter of fleets the power
      may not see), and ``void`` where the move was against one of the power's own units that
      stayed put: MILA voids such a support only when it would have decided the battle, which
      depends on every other support and cut there. A support the supported unit did not
      answer, or that was cut, keeps its word.
    * A fleet whose convoy did not carry its army reads ``no convoy``, ``void``, whether the
      chain was disrupted or never formed. (The army reads ``no convoy`` either way.)
    """
    words = result.results
    order = result.order
    if isinstance(order, SupportMove) and result.outcome == "supported":
        dislodged = ("dislodged",) if "dislodged" in words else ()
        return (("void",) if _against_own_staying(result, resolution) else ()) + dislodged
    if isinstance(order, Convoy) and words[:1] == ("no convoy",) and "void" not in words:
        return ("no convoy", "void", *tuple(w for w in words if w == "dislodged"))
    return words


def _against_own_staying(result: OrderResult, resolution: Resolution) -> bool:
    """Whether a support of a move is into a province one of the supporter's own units held,
    and still holds after the moves (it did not leave): all the power's own knowledge."""
    assert isinstance(result.order, SupportMove)
    target = resolution.before.board.province_of(result.order.target)
    occupant = resolution.before.units.get(target)
    return occupant is not None and occupant.power == result.power and target not in resolution.moves


def full_text(result: OrderResult) -> str:
    """An order in canonical notation, with the unit's real type and coast, and whatever else
    of it as its power wrote it: under map legality the engine completes nothing in an order
    from the units it names."""
    return _text(result, None)


def masked_text(result: OrderResult, known: Callable[[str], bool]) -> str:
    """An order with every province the power cannot know written ``???``.

    The unit's own type is always shown (it is the unit that is observed). For a support or
    convoy, the supported unit is written ``???`` as a whole when neither its province nor
    its target is known: ``A SIL S ???``.
    """
    return _text(result, known)


def _text(result: OrderResult, known: Callable[[str], bool] | None) -> str:
    """:func:`masked_text`; ``known`` ``None`` knows everything (:func:`full_text`), without
    asking about each province."""
    order, unit = result.order, result.unit
    if result.conflicts:
        return "; ".join(sorted(str(given) for given in (result.written or order, *result.conflicts)))
    if isinstance(order, Waive) or unit is None:
        return str(order)
    head = f"{unit.kind} {_place(unit.location, known)}"
    if isinstance(order, Hold):
        return f"{head} H"
    if isinstance(order, Move):
        via = order.via_convoy and (known is None or (known(unit.province) and known(_province(order.target))))
        return f"{head} - {_place(order.target, known)}{' VIA' if via else ''}"
    if isinstance(order, SupportHold):
        if known is not None and not known(order.supported.province):
            return f"{head} S {UNKNOWN}"  # not "A ???": the type of an unseen unit is hidden too
        return f"{head} S {_ref(order.supported, known)}"
    if isinstance(order, (SupportMove, Convoy)):
        other = order.supported if isinstance(order, SupportMove) else order.army
        verb = "S" if isinstance(order, SupportMove) else "C"
        if known is not None and not known(other.province) and not known(_province(order.target)):
            return f"{head} {verb} {UNKNOWN}"
        return f"{head} {verb} {_ref(other, known)} - {_place(order.target, known)}"
    if isinstance(order, Retreat):
        return f"{head} R {_place(order.target, known)}"
    if isinstance(order, Disband):
        return f"{head} D"
    if isinstance(order, Build):
        return f"{unit.kind} {unit.location} B"
    return f"{head} {order}"  # pragma: no cover - every engine order is handled above


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


def _place(location: str, known: Callable[[str], bool] | None) -> str:
    return location if known is None or known(_province(location)) else UNKNOWN


def _ref(ref: UnitRef, known: Callable[[str], bool] | None) -> str:
    place = _place(ref.location, known)
    return place if ref.kind is None else f"{ref.kind} {place}"


def union(sets: Iterable[frozenset[str]]) -> frozenset[str]:
    out: set[str] = set()
    for item in sets:
        out |= item
    return frozenset(out)
