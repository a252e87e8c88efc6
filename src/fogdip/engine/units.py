"""Units and phases: the small value types the rest of the engine is written in.

>>> Unit("FRANCE", "F", "SPA/SC")
Unit('FRANCE', 'F', 'SPA/SC')
>>> str(Unit("FRANCE", "F", "SPA/SC")), Unit("FRANCE", "F", "SPA/SC").province
('F SPA/SC', 'SPA')
>>> Phase.parse("F1901R").next_season_phase("A")
Phase('W', 1901, 'A')
"""

from __future__ import annotations

import re
from types import MappingProxyType
from typing import Literal, NamedTuple

from fogdip.engine.errors import PhaseError

#: An army or a fleet.
UnitKind = Literal["A", "F"]
Season = Literal["S", "F", "W"]
PhaseKind = Literal["M", "R", "A"]

SEASON_NAMES = MappingProxyType({"S": "Spring", "F": "Fall", "W": "Winter"})
KIND_NAMES = MappingProxyType({"M": "movement", "R": "retreats", "A": "adjustments"})


class Unit(NamedTuple):
    """A unit on the board: its owner, kind (``"A"`` or ``"F"``) and location."""

    power: str
    kind: UnitKind
    location: str

    @property
    def province(self) -> str:
        return self.location.partition("/")[0]

    def __str__(self) -> str:
        return f"{self.kind} {self.location}"

    def __repr__(self) -> str:
        return f"Unit({self.power!r}, {self.kind!r}, {self.location!r})"


_PHASE = re.compile(r"^([SFW])(\d{3,4})([MRA])$")


class Phase(NamedTuple):
    """A phase such as ``S1901M``: season, year and kind (movement, retreats, adjustments)."""

    season: Season
    year: int
    kind: PhaseKind

    @classmethod
    def parse(cls, text: str) -> Phase:
        """Parse a MILA-style phase name such as ``S1901M``, ``F1902R`` or ``W1901A``.

        >>> Phase.parse("s1901m")
        Phase('S', 1901, 'M')
        """
        match = _PHASE.match(text.strip().upper())
        if not match:
            raise PhaseError(
                f"phase {text!r} is not a phase name: write season S, F or W, the year and M, R or A, e.g. S1901M"
            )
        season, year, kind = match.groups()
        if (season == "W" and kind != "A") or (season != "W" and kind == "A"):
            raise PhaseError(
                f"phase {text!r} does not exist: adjustments are held in Winter (W...A), movement and retreats in Spring and Fall"
            )
        return cls(season, int(year), kind)  # type: ignore[arg-type]

    def next_season_phase(self, kind: PhaseKind) -> Phase:
        """The phase of the given kind in the season after this one."""
        order: list[Season] = ["S", "F", "W"]
        index = order.index(self.season)
        if index == 2:
            return Phase("S", self.year + 1, kind)
        return Phase(order[index + 1], self.year, kind)

    @property
    def long_name(self) -> str:
        return f"{SEASON_NAMES[self.season]} {self.year} {KIND_NAMES[self.kind]}"

    def __str__(self) -> str:
        return f"{self.season}{self.year}{self.kind}"

    def __repr__(self) -> str:
        return f"Phase({self.season!r}, {self.year}, {self.kind!r})"
