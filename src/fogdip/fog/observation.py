"""What one power knows after one phase: an :class:`Observation`, immutable and typed.

An observation is computed by a fog rule set (:mod:`fogdip.fog.rules`) from the engine's
resolution record and nothing else. Everything in it is something the power is entitled to
know; anything it is not is either absent or :data:`~fogdip.fog.masked.HIDDEN`. It holds
values, not text: the report (:mod:`fogdip.fog.report`) writes them out.

>>> unit = SeenUnit("BUR", "FRANCE", "A")
>>> str(unit), str(SeenUnit("NTH", None, None))
('A BUR', '? NTH')
>>> from fogdip.fog.masked import HIDDEN, SUCCEEDED, MaskedOrder, MaskedUnit, OrderKind
>>> move = MaskedOrder(OrderKind.MOVE, MaskedUnit("A", HIDDEN), target="BUR")
>>> SeenOrder("FRANCE", move, SUCCEEDED).province is HIDDEN
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TypeAlias

from fogdip.fog.masked import Kind, MaskedOrder, Place, SeenResult

NoticeValue: TypeAlias = str | int | bool | tuple["NoticeValue", ...] | None

#: Orders' sort keys by the order's ``id``, each with its order (:meth:`Observation.build`).
OrderKeys: TypeAlias = "Mapping[int, tuple[SeenOrder, tuple[object, ...]]]"


@dataclass(frozen=True, slots=True)
class SeenUnit:
    """A unit as a power sees it: where it stands and whatever its rules reveal about it.

    ``owner`` and ``kind`` are ``None`` where they are hidden. ``location`` carries the coast
    when the unit's type is known (``"F STP/NC"``); otherwise it is the province.
    ``dislodged`` marks a unit awaiting its retreat in the province it was driven from.
    """

    location: str
    owner: str | None
    kind: Kind | None
    dislodged: bool = False

    @property
    def province(self) -> str:
        return self.location.partition("/")[0]

    def __str__(self) -> str:
        return f"{'*' if self.dislodged else ''}{self.kind or '?'} {self.location}"


@dataclass(frozen=True, slots=True)
class SeenOrder:
    """An order a power learns of.

    ``order`` is the order with whatever the power may not know hidden; ``result`` what it
    learns of the outcome (``None``: nothing); ``power`` is ``None`` when the owner is hidden.
    ``conflicts`` are the other orders given to the same unit, where the power learns them
    (its own): the unit then held, and none of them was carried out.
    """

    power: str | None
    order: MaskedOrder
    result: SeenResult | None
    conflicts: tuple[MaskedOrder, ...] = ()

    @property
    def province(self) -> Place | None:
        """The province of the unit ordered (``None`` for a waive or a peek)."""
        unit = self.order.unit
        return None if unit is None else unit.province

    def sort_key(self) -> tuple[object, ...]:
        """The order's key, then what is known of the result (nothing first), then the
        conflicting orders' keys."""
        result, conflicts = self.result, self.conflicts
        others = tuple([c.sort_key() for c in conflicts]) if conflicts else ()
        if result is None:
            return (self.order.sort_key(), 0, False, (), others)
        return (self.order.sort_key(), 1, result.succeeded, result.words or (), others)


@dataclass(frozen=True, slots=True)
class Notice:
    """Something a power is told that is not a unit or an order: being spied on, a peek's
    answer, a garrison's report, an announcement, the loss of a centre, a dislodgement.

    ``data`` is a tuple of ``(key, value)`` pairs so the notice stays hashable; build one with
    :meth:`make`.

    >>> Notice.make("dislodged", "Your A BUR was dislodged", unit="A BUR", moves=["BUR", "MUN"]).data
    (('unit', 'A BUR'), ('moves', ('BUR', 'MUN')))
    """

    kind: str
    text: str
    data: tuple[tuple[str, NoticeValue], ...] = ()

    @classmethod
    def make(cls, kind: str, text: str, **data: object) -> Notice:
        return cls(kind, text, tuple([(key, _frozen(value)) for key, value in data.items()]))

    def get(self, key: str) -> NoticeValue:
        for name, value in self.data:
            if name == key:
                return value
        raise KeyError(key)


def _frozen(value: object) -> NoticeValue:
    if type(value) is str or value is None:  # most values: kept as they are, checked first
        return value
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value) if isinstance(value, (set, frozenset)) else value
        return tuple(_frozen(item) for item in items)
    if value is None or isinstance(value, (str, int, bool)):
        return value
    raise TypeError(f"notice values must be str, int, bool, None or sequences, not {type(value).__name__}")


@dataclass(frozen=True)
class Observation:
    """One power's view after one phase (or at the start of the game).

    ``phase`` is the phase just adjudicated (for the opening observation, the first phase);
    ``next_phase`` is the phase now to be played, or ``"COMPLETED"``.
    """

    variant: str
    power: str
    phase: str
    next_phase: str
    visible: frozenset[str]
    units: tuple[SeenUnit, ...]
    orders: tuple[SeenOrder, ...]
    centers: tuple[tuple[str, str], ...]
    notices: tuple[Notice, ...] = ()
    opening: bool = field(default=False)

    @classmethod
    def build(
        cls,
        *,
        variant: str,
        power: str,
        phase: str,
        next_phase: str,
        visible: Iterable[str],
        units: Iterable[SeenUnit],
        orders: Iterable[SeenOrder],
        centers: Mapping[str, str],
        notices: Iterable[Notice] = (),
        opening: bool = False,
        order_keys: OrderKeys | None = None,
    ) -> Observation:
        """Make an observation in canonical order, so equal knowledge gives equal objects
        whatever order the rule set found things in.

        ``order_keys`` holds the :meth:`SeenOrder.sort_key` of orders already worked out, by
        the order's ``id``, each with the order itself (so that the ``id`` is not reused while
        it is held): every power's observation of a record sorts many of the same orders."""
        # Equal units are one unit: dropped by their fields, which is quicker than by hash.
        unique = {(unit.location, unit.dislodged, unit.owner, unit.kind): unit for unit in units}

        def order_key(order: SeenOrder) -> tuple[int, str, tuple[object, ...]]:
            """The viewer's own orders first, then other powers' by name, then those of unknown owner."""
            owner = order.power
            rank = 0 if owner == power else 1 if owner is not None else 2
            kept = order_keys.get(id(order)) if order_keys is not None else None
            return (rank, owner or "", kept[1] if kept is not None and kept[0] is order else order.sort_key())

        return cls(
            variant,
            power,
            phase,
            next_phase,
            frozenset(visible),
            tuple(sorted(unique.values(), key=_unit_key)),
            tuple(sorted(orders, key=order_key)),
            tuple(sorted(centers.items())),
            _sorted_notices(notices),
            opening,
        )

    @property
    def center_owners(self) -> dict[str, str]:
        return dict(self.centers)

    def unit_at(self, province: str) -> SeenUnit | None:
        for unit in self.units:
            if unit.province == province and not unit.dislodged:
                return unit
        return None

    def notices_of(self, kind: str) -> list[Notice]:
        return [notice for notice in self.notices if notice.kind == kind]


def _unit_key(unit: SeenUnit) -> tuple[str, bool, str, str]:
    return (unit.location, unit.dislodged, unit.owner or "", unit.kind or "")


def _notice_key(notice: Notice) -> tuple[str, str, str]:
    return (notice.kind, notice.text, repr(notice.data))


def _sorted_notices(notices: Iterable[Notice]) -> tuple[Notice, ...]:
    """Distinct notices sorted by :func:`_notice_key`. The ``repr`` of the data is costly and
    seldom needed, and so is hashing it: notices are sorted by kind and text, and only a run
    of notices that tie on both is rid of repeats and sorted by the full key."""
    ordered = sorted(notices, key=lambda notice: (notice.kind, notice.text))
    out: list[Notice] = []
    start = 0
    while start < len(ordered):
        first, end = ordered[start], start + 1
        while end < len(ordered) and ordered[end].kind == first.kind and ordered[end].text == first.text:
            end += 1
        if end - start == 1:
            out.append(first)
        else:
            distinct: list[Notice] = []
            for notice in ordered[start:end]:
                if notice not in distinct:
                    distinct.append(notice)
            out.extend(sorted(distinct, key=_notice_key))
        start = end
    return tuple(out)
