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
from dataclasses import replace
from functools import cached_property
from typing import Generic, Literal, Protocol, TypeVar

from fogdip.engine.map import Map
from fogdip.engine.orders import Convoy, Disband, Hold, Move, Order, Retreat, SupportHold, SupportMove, UnitRef, Waive
from fogdip.engine.outcomes import OrderResult, Outcome, Resolution
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit
from fogdip.fog.masked import HIDDEN, MaskedOrder, MaskedUnit, OrderKind, SeenResult
from fogdip.fog.observation import SeenOrder, SeenUnit

#: How a unit's sight spreads: along the moves its own type can make, or to every
#: neighbouring province whatever the terrain.
SightMode = Literal["movement", "any"]

#: How much of an order's outcome is revealed: the result words, only success or failure,
#: or nothing.
ResultLevel = Literal["full", "success", "none"]


# --- facts kept with what they were made from ------------------------------------------------
#
# Every power's observation of a phase reads the same record, so what depends on it alone is
# worked out once and kept on the object it was made from (its ``memo``): positions and
# records never change once made, so a fact holds while its object lives, goes with it, and
# is never shared between two games. What depends on the map alone is in the map's own
# tables, built when it was loaded.

Owner = TypeVar("Owner", bound="HasMemo")
Facts = TypeVar("Facts")


class HasMemo(Protocol):
    @property
    def memo(self) -> dict[object, object]: ...


class KeptOn(Generic[Owner, Facts]):
    """Facts made by ``make`` from an owner (a position, a record), kept in the owner's
    ``memo`` under this object. It holds nothing itself."""

    __slots__ = ("_make",)

    def __init__(self, make: Callable[[Owner], Facts]) -> None:
        self._make = make

    def __call__(self, source: Owner) -> Facts:
        facts = source.memo.get(self)
        if facts is None:
            facts = source.memo.setdefault(self, self._make(source))
        # Made by ``make``: a Facts (no call to typing.cast: this runs many times an observation).
        return facts  # type: ignore[return-value]


class RecordFacts:
    """What every power's observation of one record reads alike: its orders in full text, and
    the orders by power and by province, computed as they are first asked for."""

    def __init__(self, resolution: Resolution) -> None:
        self.resolution = resolution
        self.board = resolution.before.board
        #: The sort keys of the orders below, which every power's observation may hold
        #: (``Observation.build``'s ``order_keys``): worked out once for all of them.
        self.order_keys: dict[int, tuple[SeenOrder, tuple[object, ...]]] = {}

    @cached_property
    def full_orders(self) -> tuple[SeenOrder, ...]:
        """Every order as its own power sees it: in full, with its result words."""
        orders = tuple(seen_order(result, SeenResult.told(result.results)) for result in self.resolution.orders)
        self._keep_keys(orders)
        return orders

    @cached_property
    def own_orders(self) -> dict[str, tuple[SeenOrder, ...]]:
        """Each power's orders as it sees them under fog: in full, with the result words of
        :func:`fog_words`."""
        out: dict[str, list[SeenOrder]] = {}
        resolution = self.resolution
        for result in resolution.orders:
            seen = seen_order(result, SeenResult.told(fog_words(result, resolution)))
            out.setdefault(result.power, []).append(seen)
        return {power: tuple(orders) for power, orders in out.items()}

    def _keep_keys(self, orders: Iterable[SeenOrder]) -> None:
        keys = self.order_keys
        for order in orders:
            keys[id(order)] = (order, order.sort_key())

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
    """The provinces a unit sees: its own and its neighbours, by ``mode`` (from the map's
    tables, built when it was loaded)."""
    if mode == "movement":
        return board.within_reach(unit.kind, unit.location)
    return board.around[unit.province]


def province_sight(board: Map, province: str) -> frozenset[str]:
    """A province and every province next to it, whatever the terrain."""
    return board.around[province]


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


def revealed_result(result: OrderResult, level: ResultLevel, resolution: Resolution) -> SeenResult | None:
    """The outcome a power learns of an order of ``resolution``: its result words
    (:func:`fog_words`), only success or failure, or nothing (``None``)."""
    if level == "none":
        return None
    if level == "full":
        return SeenResult.told(fog_words(result, resolution))
    return success_or_failure(result)


def success_or_failure(result: OrderResult) -> SeenResult:
    """Only whether an order succeeded."""
    return SeenResult.only(result.succeeded)


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
    if isinstance(order, SupportMove) and result.outcome == _SUPPORTED:
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
    """An order in standard notation, naming the unit as it stands (for a notice's words)."""
    order, unit = result.order, result.unit
    if unit is None or isinstance(order, Waive):
        return str(order)
    return str(replace(order, unit=UnitRef(unit.kind, unit.location)))


#: Whether the power may know a province; ``None`` where it knows every place of the order.
Known = Callable[[str], bool] | None


def seen_order(result: OrderResult, seen: SeenResult | None, known: Known = None) -> SeenOrder:
    """An order of the record as a power learns it: every place it may not know
    :data:`~fogdip.fog.masked.HIDDEN` (:func:`masked_order`), with what it learns of the
    outcome. Where it knows the whole order and the unit was given several, it learns them all:
    the first by :meth:`~fogdip.fog.masked.MaskedOrder.sort_key` as the order, the others as
    its ``conflicts``."""
    if known is None and result.conflicts:
        given = sorted(
            (masked_order(order, result.unit) for order in (result.written or result.order, *result.conflicts)),
            key=MaskedOrder.sort_key,
        )
        return SeenOrder(result.power, given[0], seen, tuple(given[1:]))
    return SeenOrder(result.power, masked_order(result.order, result.unit, known), seen)


def masked_order(order: Order, unit: Unit | None, known: Known = None) -> MaskedOrder:
    """``order`` of ``unit`` with every place the power may not know hidden.

    The unit's own type is always shown (it is the unit that is observed). For a support or
    convoy, the other unit is hidden as a whole, with the target, when neither its province nor
    the target is known; for a support of a hold, when its province is not (``A SIL S ???``:
    the type of an unseen unit is hidden too)."""
    if isinstance(order, Waive):
        return MaskedOrder(_WAIVE)
    if known is None:
        return _in_full(order, unit)
    # Each place is shown if its province is known, else HIDDEN.
    mover = order.unit if unit is None else unit
    location = mover.location
    head = MaskedUnit(mover.kind, location if known(_province(location)) else HIDDEN)
    if isinstance(order, Hold):
        return MaskedOrder(_HOLD, head)
    if isinstance(order, Move):
        target = order.target
        seen = known(_province(target))
        via = order.via_convoy and known(mover.province) and seen
        return MaskedOrder(_MOVE, head, None, target if seen else HIDDEN, via)
    if isinstance(order, SupportHold):
        supported = order.supported
        if not known(supported.province):
            return MaskedOrder(_SUPPORT, head, HIDDEN)
        return MaskedOrder(_SUPPORT, head, MaskedUnit(supported.kind, supported.location))
    if isinstance(order, (SupportMove, Convoy)):
        other = order.supported if isinstance(order, SupportMove) else order.army
        kind = _SUPPORT if isinstance(order, SupportMove) else _CONVOY
        target = order.target
        other_seen, target_seen = known(other.province), known(_province(target))
        if not other_seen and not target_seen:
            return MaskedOrder(kind, head, HIDDEN)
        return MaskedOrder(
            kind,
            head,
            MaskedUnit(other.kind, other.location if other_seen else HIDDEN),
            target if target_seen else HIDDEN,
        )
    if isinstance(order, Retreat):
        target = order.target
        return MaskedOrder(_RETREAT, head, None, target if known(_province(target)) else HIDDEN)
    if isinstance(order, Disband):
        return MaskedOrder(_DISBAND, head)
    return MaskedOrder(_BUILD, head)


def _in_full(order: Order, unit: Unit | None) -> MaskedOrder:
    """:func:`masked_order` of an order the power knows in full (no place hidden): every order
    of a record is read so once per record, for its own power."""
    written = order.unit  # type: ignore[union-attr]
    head = MaskedUnit(written.kind, written.location) if unit is None else MaskedUnit(unit.kind, unit.location)
    if isinstance(order, Hold):
        return MaskedOrder(_HOLD, head)
    if isinstance(order, Move):
        return MaskedOrder(_MOVE, head, None, order.target, order.via_convoy)
    if isinstance(order, SupportHold):
        return MaskedOrder(_SUPPORT, head, MaskedUnit(order.supported.kind, order.supported.location))
    if isinstance(order, SupportMove):
        other = order.supported
        return MaskedOrder(_SUPPORT, head, MaskedUnit(other.kind, other.location), order.target)
    if isinstance(order, Convoy):
        army = order.army
        return MaskedOrder(_CONVOY, head, MaskedUnit(army.kind, army.location), order.target)
    if isinstance(order, Retreat):
        return MaskedOrder(_RETREAT, head, None, order.target)
    if isinstance(order, Disband):
        return MaskedOrder(_DISBAND, head)
    return MaskedOrder(_BUILD, head)


# The order kinds, read once (an enum member is slower to look up than a module name).
_HOLD = OrderKind.HOLD
_MOVE = OrderKind.MOVE
_SUPPORT = OrderKind.SUPPORT
_CONVOY = OrderKind.CONVOY
_RETREAT = OrderKind.RETREAT
_DISBAND = OrderKind.DISBAND
_BUILD = OrderKind.BUILD
_WAIVE = OrderKind.WAIVE
_SUPPORTED = Outcome.SUPPORTED


def unit_order(kind: OrderKind, unit: Unit) -> MaskedOrder:
    """A bare order of a unit in full: what it did when the order it was given is not shown
    (``A BUR H``, ``A BUR D``)."""
    return MaskedOrder(kind, MaskedUnit(unit.kind, unit.location))


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


def union(sets: Iterable[frozenset[str]]) -> frozenset[str]:
    out: set[str] = set()
    for item in sets:
        out |= item
    return frozenset(out)
