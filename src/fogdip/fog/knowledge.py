"""A power's picture of the board built up over time from its own observations, and nothing else.

Foreign units are not identifiable from one phase to the next, so knowledge is kept by place:
a **ghost** is the last sighting of a foreign unit in a province, with the phase it was made
in. A ghost is cleared once the province is seen again without it, or once the power learns
that a unit moved away from it. Centre owners are kept the same way: the last owner known,
with when it was known.

>>> from fogdip.fog.observation import Observation, SeenUnit
>>> first = Observation.build(variant="v", power="GERMANY", phase="S1901M", next_phase="F1901M",
...     visible={"RUH", "BUR"}, units=[SeenUnit("BUR", "FRANCE", "A")], orders=[], centers={})
>>> later = Observation.build(variant="v", power="GERMANY", phase="F1901M", next_phase="W1901A",
...     visible={"BEL"}, units=[], orders=[], centers={})
>>> knowledge = Knowledge.rebuild("GERMANY", [first, later])
>>> [(str(g.unit), g.owner, g.phase, g.current) for g in knowledge.ghosts()]
[('A BUR', 'FRANCE', 'S1901M', False)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from fogdip.fog.masked import OrderKind
from fogdip.fog.observation import Observation, SeenUnit

#: Orders that take a unit away from its province when they succeed.
_LEAVING = frozenset({OrderKind.MOVE, OrderKind.RETREAT})


@dataclass(frozen=True, slots=True)
class Ghost:
    """The last sighting of a foreign unit: what was seen, and in which phase.

    ``current`` is true when the sighting is from the latest observation."""

    unit: SeenUnit
    phase: str
    current: bool

    @property
    def owner(self) -> str | None:
        return self.unit.owner

    @property
    def province(self) -> str:
        return self.unit.province


@dataclass(frozen=True, slots=True)
class KnownCenter:
    owner: str | None
    phase: str


@dataclass
class Knowledge:
    """What one power has learned so far. Feed it observations in phase order."""

    power: str
    phase: str | None = None
    _sightings: dict[str, tuple[SeenUnit, str]] = field(default_factory=dict)
    _centers: dict[str, KnownCenter] = field(default_factory=dict)
    observations: int = 0
    #: The provinces whose sightings the latest observation made (its own units, not ghosts).
    _current: set[str] = field(default_factory=set)

    @classmethod
    def rebuild(cls, power: str, observations: Iterable[Observation]) -> Knowledge:
        """The knowledge after the given observations, in order: rebuildable at any point."""
        knowledge = cls(power)
        for observation in observations:
            knowledge.update(observation)
        return knowledge

    @classmethod
    def restore(
        cls, power: str, phase: str | None, ghosts: Iterable[Ghost], centers: dict[str, KnownCenter], observations: int
    ) -> Knowledge:
        """Knowledge as it was saved (:func:`fogdip.codec.knowledge_to_json`)."""
        ghosts = list(ghosts)
        sightings = {ghost.province: (ghost.unit, ghost.phase) for ghost in ghosts}
        current = {ghost.province for ghost in ghosts if ghost.current}
        return cls(power, phase, sightings, dict(centers), observations, current)

    def update(self, seen: Observation) -> None:
        if seen.power != self.power:
            raise ValueError(f"an observation of {seen.power} cannot update {self.power}'s knowledge")
        stamp = seen.next_phase if seen.opening else seen.phase
        for province in seen.visible:
            self._sightings.pop(province, None)
        for order in seen.orders:
            # A unit the power learns has moved away from a place it knows: whatever it last
            # saw there has gone from it.
            moved, result = order.order, order.result
            if moved.kind in _LEAVING and moved.unit is not None and result is not None and result.succeeded:
                origin = moved.unit.location
                if isinstance(origin, str):
                    self._sightings.pop(origin.partition("/")[0], None)
        self._current = set()
        for unit in seen.units:
            if unit.dislodged:
                # Not a sighting to keep (it retreats or is gone next phase), and no reason to
                # forget the unit that drove it out, seen in the same province.
                continue
            if unit.owner == self.power:
                self._sightings.pop(unit.province, None)
                continue
            self._sightings[unit.province] = (unit, stamp)
            self._current.add(unit.province)
        for center, owner in seen.centers:
            self._centers[center] = KnownCenter(owner, stamp)
        for notice in seen.notices_of("center-lost"):
            center = str(notice.get("center"))
            if center not in dict(seen.centers):
                self._centers[center] = KnownCenter(None, stamp)
        self.phase = stamp
        self.observations += 1

    def ghosts(self) -> list[Ghost]:
        """Every foreign unit's last sighting, by province; ``current`` for those the latest
        observation made (decided by the observation, not by the phase's name: the opening
        report and the first turn's report carry the same one)."""
        current = self._current
        return [Ghost(unit, phase, province in current) for province, (unit, phase) in sorted(self._sightings.items())]

    def centers(self) -> dict[str, KnownCenter]:
        """The last-known owner of every centre the power has known about
        (owner ``None``: lost to someone unknown)."""
        return dict(sorted(self._centers.items()))
