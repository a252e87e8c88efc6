"""Orders as immutable values, and their standard notation.

Every order names the unit it is given to (``unit``), as written: a kind that may be missing
(``None``) and a location that may carry a coast. Binding an order to the unit actually on the
board, and deciding whether it is legal, is :mod:`fogdip.engine.validate`'s job.

>>> str(Move(UnitRef("A", "LON"), "BEL", via_convoy=True))
'A LON - BEL VIA'
>>> str(SupportMove(UnitRef("A", "TYR"), UnitRef("A", "VEN"), "TRI"))
'A TYR S A VEN - TRI'
>>> str(Build(UnitRef("F", "STP/NC"))), str(Waive())
('F STP/NC B', 'WAIVE')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from fogdip.engine.units import UnitKind


class UnitRef(NamedTuple):
    """A unit as an order names it: kind (``None`` if omitted) and location."""

    kind: UnitKind | None
    location: str

    @property
    def province(self) -> str:
        return self.location.partition("/")[0]

    def __str__(self) -> str:
        return self.location if self.kind is None else f"{self.kind} {self.location}"


@dataclass(frozen=True, slots=True)
class Hold:
    unit: UnitRef
    kind: ClassVar[str] = "hold"

    def __str__(self) -> str:
        return f"{self.unit} H"


@dataclass(frozen=True, slots=True)
class Move:
    unit: UnitRef
    target: str
    via_convoy: bool = False
    kind: ClassVar[str] = "move"

    def __str__(self) -> str:
        return f"{self.unit} - {self.target}{' VIA' if self.via_convoy else ''}"


@dataclass(frozen=True, slots=True)
class SupportHold:
    unit: UnitRef
    supported: UnitRef
    kind: ClassVar[str] = "support_hold"

    def __str__(self) -> str:
        return f"{self.unit} S {self.supported}"


@dataclass(frozen=True, slots=True)
class SupportMove:
    unit: UnitRef
    supported: UnitRef
    target: str
    kind: ClassVar[str] = "support_move"

    def __str__(self) -> str:
        return f"{self.unit} S {self.supported} - {self.target}"


@dataclass(frozen=True, slots=True)
class Convoy:
    unit: UnitRef
    army: UnitRef
    target: str
    kind: ClassVar[str] = "convoy"

    def __str__(self) -> str:
        return f"{self.unit} C {self.army} - {self.target}"


@dataclass(frozen=True, slots=True)
class Retreat:
    unit: UnitRef
    target: str
    kind: ClassVar[str] = "retreat"

    def __str__(self) -> str:
        return f"{self.unit} R {self.target}"


@dataclass(frozen=True, slots=True)
class Disband:
    unit: UnitRef
    kind: ClassVar[str] = "disband"

    def __str__(self) -> str:
        return f"{self.unit} D"


@dataclass(frozen=True, slots=True)
class Build:
    unit: UnitRef
    kind: ClassVar[str] = "build"

    def __str__(self) -> str:
        return f"{self.unit} B"


@dataclass(frozen=True, slots=True)
class Waive:
    """Decline one build."""

    kind: ClassVar[str] = "waive"

    def __str__(self) -> str:
        return "WAIVE"


Order = Hold | Move | SupportHold | SupportMove | Convoy | Retreat | Disband | Build | Waive


class Written(NamedTuple):
    """An order already read, with the line it was read from: what a caller that has parsed
    its players' lines hands :func:`~fogdip.engine.judge.adjudicate`, so that nothing reads
    them again and records and reasons still quote the player's own words."""

    text: str
    order: Order
