"""Orders and outcomes as a power learns them: values with the unknown parts marked
:data:`HIDDEN`, never text.

A :class:`MaskedOrder` is an order with every place the power may not know replaced by
:data:`HIDDEN` (and, where neither the other unit of a support or convoy nor its target is
known, that whole part). A :class:`SeenResult` is what the power learns of how the order went.
How either is written (``???``, ``(ok)``, ``(fails)``) is the report's business
(:mod:`fogdip.fog.report`), and nothing reads those words back.

>>> move = MaskedOrder(OrderKind.MOVE, MaskedUnit("A", HIDDEN), target="SIL")
>>> move.unit.province is HIDDEN, move.target
(True, 'SIL')
>>> SeenResult.told(("bounce",)).succeeded, SeenResult.told(()).succeeded
(False, True)
>>> SeenResult.only(False) == FAILED, SeenResult.only(True) == SeenResult.told(())
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum
from types import MappingProxyType
from typing import Final, Literal, TypeAlias


class Hidden(Enum):
    """A place, or a whole unit, the power may not know."""

    HIDDEN = "hidden"

    def __repr__(self) -> str:
        return "HIDDEN"


#: The one value of :class:`Hidden`.
HIDDEN: Final = Hidden.HIDDEN

#: A location (a province, or a coast: ``"SPA/NC"``), or :data:`HIDDEN`.
Place: TypeAlias = str | Hidden

Kind: TypeAlias = Literal["A", "F"]


class OrderKind(StrEnum):
    """What an order does. A support is one kind: whether it supports a hold or a move is
    told by its ``target``, and is unknown where its other unit is :data:`HIDDEN`."""

    HOLD = "hold"
    MOVE = "move"
    SUPPORT = "support"
    CONVOY = "convoy"
    RETREAT = "retreat"
    DISBAND = "disband"
    BUILD = "build"
    WAIVE = "waive"
    #: A variant's own orders: espionage (``F NTH E FRANCE``), a disband in a movement phase
    #: (``F NTH DB``), a peek (``PAS NTH``); and a unit placed by a free setup.
    ESPIONAGE = "espionage"
    DISBAND_NOW = "disband-now"
    PEEK = "peek"
    PLACE = "place"


@dataclass(frozen=True, slots=True)
class MaskedUnit:
    """A unit an order names: its type (``None`` where not given) and where it stands."""

    kind: Kind | None
    location: Place

    @property
    def province(self) -> Place:
        location = self.location
        return location if isinstance(location, Hidden) else location.partition("/")[0]


@dataclass(frozen=True, slots=True)
class MaskedOrder:
    """An order as a power learns it.

    ``unit`` is the unit ordered (``None`` for a waive or a peek); ``other`` the unit a
    support or convoy names, or :data:`HIDDEN` where neither it nor the target is known;
    ``target`` where a move, retreat, supported move or convoy goes, or the province a peek
    asks about; ``via`` a move's ``VIA``; ``spied`` the power an espionage order spies on.
    """

    kind: OrderKind
    unit: MaskedUnit | None = None
    other: MaskedUnit | Hidden | None = None
    target: Place | None = None
    via: bool = False
    spied: str | None = None

    @property
    def places(self) -> tuple[Place, ...]:
        """Every place the order names, hidden ones included: the unit's, the other unit's,
        the target's."""
        out: list[Place] = []
        if self.unit is not None:
            out.append(self.unit.location)
        if isinstance(self.other, MaskedUnit):
            out.append(self.other.location)
        elif self.other is HIDDEN:
            out.append(HIDDEN)
        if self.target is not None:
            out.append(self.target)
        return tuple(out)

    def sort_key(self) -> tuple[object, ...]:
        """A total order on masked orders: distinct orders have distinct keys, and a hidden
        place sorts before every named one (as ``???`` before a name).

        One flat tuple, as every observation sorts every order it holds by it: the unit
        (none last), the kind, the other unit (none, hidden, then named), the target (none,
        hidden, then named), ``via`` and the power spied on. A place is a rank (1 hidden, 2
        named) and a name; the kind, a ``str``, sorts as its value."""
        unit, other, target = self.unit, self.other, self.target
        if unit is None:
            unit_rank, unit_kind, unit_place, unit_name = 3, "", 0, ""
        else:
            location = unit.location
            unit_rank, unit_kind = 1, unit.kind or ""
            unit_place, unit_name = (1, "") if location is HIDDEN else (2, location)
        if other is None:
            other_rank, other_kind, other_place, other_name = 0, "", 0, ""
        elif other is HIDDEN:
            other_rank, other_kind, other_place, other_name = 1, "", 0, ""
        else:
            location = other.location
            other_rank, other_kind = 2, other.kind or ""
            other_place, other_name = (1, "") if location is HIDDEN else (2, location)
        if target is None:
            target_place, target_name = 0, ""
        elif target is HIDDEN:
            target_place, target_name = 1, ""
        else:
            target_place, target_name = 2, target
        return (
            unit_rank,
            unit_kind,
            unit_place,
            unit_name,
            self.kind,
            other_rank,
            other_kind,
            other_place,
            other_name,
            target_place,
            target_name,
            self.via,
            self.spied or "",
        )


@dataclass(frozen=True, slots=True)
class SeenResult:
    """What a power learns of how an order went.

    ``words`` are the result words (MILA's: ``bounce``, ``cut``, ``dislodged``, ``void``,
    ``no convoy``...; none: it succeeded) where the power is told them, ``None`` where it
    learns only that the order failed. Make one with :meth:`told` or :meth:`only`, so that
    equal knowledge is one value.
    """

    succeeded: bool
    words: tuple[str, ...] | None

    def __post_init__(self) -> None:
        if self.words is None and self.succeeded:
            raise ValueError("a success is told with no words: use SeenResult.told(())")
        if self.words is not None and self.succeeded != (not self.words):
            raise ValueError(f"result words {self.words!r} contradict succeeded={self.succeeded}")

    @classmethod
    def told(cls, words: tuple[str, ...]) -> SeenResult:
        """The result words themselves (none: success)."""
        words = tuple(words)
        if cls is SeenResult:
            # Most results are one of a few: those are made once (values: equal either way).
            known = _TOLD.get(words)
            if known is not None:
                return known
        return cls(not words, words)

    @classmethod
    def only(cls, succeeded: bool) -> SeenResult:
        """Only whether the order succeeded."""
        return SUCCEEDED if succeeded else FAILED


#: Known to have succeeded; known only to have failed.
SUCCEEDED: Final = SeenResult(True, ())
FAILED: Final = SeenResult(False, None)

#: The results told most often, made once (:meth:`SeenResult.told`).
_TOLD: Mapping[tuple[str, ...], SeenResult] = MappingProxyType(
    {
        words: SeenResult(not words, words)
        for words in (
            (),
            ("bounce",),
            ("void",),
            ("cut",),
            ("dislodged",),
            ("no convoy",),
            ("disrupted",),
            ("bounce", "dislodged"),
            ("void", "dislodged"),
            ("cut", "dislodged"),
            ("no convoy", "void"),
        )
    }
)
