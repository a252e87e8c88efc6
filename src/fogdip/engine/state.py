"""The immutable game state: phase, units, dislodged units, centre owners and home centres.

>>> state = GameState.initial(standard_map())
>>> str(state.phase), len(state.units), state.unit_at("STP")
('S1901M', 22, Unit('RUSSIA', 'F', 'STP/SC'))
>>> state.center_count("FRANCE")
3
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from fogdip.engine.map import Map, standard_map
from fogdip.engine.units import Phase, Unit


@dataclass(frozen=True, slots=True)
class Dislodged:
    """A unit dislodged in the last movement phase, awaiting its retreat."""

    unit: Unit
    attacker_from: str | None
    retreats: tuple[str, ...]


@dataclass(frozen=True)
class GameState:
    """A position. Dicts are never mutated after construction; treat them as read-only.

    ``units`` and ``dislodged`` are keyed by province; ``centers`` maps each owned supply
    centre to its owner; ``homes`` lists each power's home centres (where it may build).
    """

    board: Map
    phase: Phase
    units: Mapping[str, Unit]
    centers: Mapping[str, str]
    homes: Mapping[str, tuple[str, ...]]
    dislodged: Mapping[str, Dislodged] = field(default_factory=dict)
    completed: bool = False

    @classmethod
    def initial(cls, board: Map | None = None) -> GameState:
        board = board or standard_map()
        units: dict[str, Unit] = {}
        for power, info in board.power_info.items():
            for text in info.start:
                kind, _, location = text.partition(" ")
                units[board.province_of(location)] = Unit(power, kind, location)  # type: ignore[arg-type]
        homes = {power: board.home_centers(power) for power in board.powers}
        centers = {center: power for power, owned in homes.items() for center in owned}
        return cls(board, Phase("S", board.first_year, "M"), units, centers, homes)

    # --- queries -----------------------------------------------------------------------------

    @property
    def powers(self) -> tuple[str, ...]:
        return self.board.powers

    def unit_at(self, province: str) -> Unit | None:
        return self.units.get(province)

    def units_of(self, power: str) -> list[Unit]:
        return [u for u in self.units.values() if u.power == power]

    def centers_of(self, power: str) -> list[str]:
        return sorted(c for c, owner in self.centers.items() if owner == power)

    def center_count(self, power: str) -> int:
        return sum(1 for owner in self.centers.values() if owner == power)

    def adjustment(self, power: str) -> int:
        """Builds (positive) or removals (negative) due in an adjustment phase."""
        return self._adjustments.get(power, 0)

    @cached_property
    def _adjustments(self) -> dict[str, int]:
        # Asked for every power and every order of an adjustment phase; the state never changes.
        due: dict[str, int] = {}
        for owner in self.centers.values():
            due[owner] = due.get(owner, 0) + 1
        for unit in self.units.values():
            due[unit.power] = due.get(unit.power, 0) - 1
        return due

    @cached_property
    def memo(self) -> dict[object, object]:
        """Facts other layers work out from this position alone (the fog layer's units by
        power, say), kept with it: a position never changes, so they hold while it lives, and
        no two games share them."""
        return {}

    def is_eliminated(self, power: str) -> bool:
        return (
            self.center_count(power) == 0
            and not any(u.power == power for u in self.units.values())
            and not any(d.unit.power == power for d in self.dislodged.values())
        )

    def with_changes(
        self,
        *,
        phase: Phase | None = None,
        units: Mapping[str, Unit] | None = None,
        centers: Mapping[str, str] | None = None,
        homes: Mapping[str, tuple[str, ...]] | None = None,
        dislodged: Mapping[str, Dislodged] | None = None,
        completed: bool | None = None,
    ) -> GameState:
        return GameState(
            self.board,
            self.phase if phase is None else phase,
            self.units if units is None else units,
            self.centers if centers is None else centers,
            self.homes if homes is None else homes,
            self.dislodged if dislodged is None else dislodged,
            self.completed if completed is None else completed,
        )
