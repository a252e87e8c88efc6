"""Diplomyopia (seed 003, Colin Hemming, 1972): short-sighted units and garrison reports.

* Rule 2: at the end of each season a power sees who occupies every province next to one of
  its units, whatever the terrain: ``F BUL/SC`` sees into the Black Sea.
* Rule 3: during movement what a unit learns depends on its order
  (:mod:`fogdip.fog.diplomyopia_vision`).
* Rule 4: a power is told of every province it has lost, and to whom: ``Venice captured by
  an Austrian army``. Provinces are the supply centres the engine records (see the docs);
  the variant layer reports every province a power last occupied instead
  (:mod:`fogdip.variants.garrisons`), and then turns these reports off.
* Rule 5 (centres change hands in any season) is the variant schedule's business; the
  reports here follow the resolution's centres before and after.

>>> from fogdip.engine import GameState, adjudicate, get_rules
>>> by_map = get_rules().with_options(legality="map")  # as in every fog game
>>> record = adjudicate(GameState.initial(), {"RUSSIA": ["F SEV - BLA"], "TURKEY": ["F ANK - BLA"]}, by_map)
>>> [n.text for n in DiplomyopiaRules().observe(record, "AUSTRIA").notices]
['ITALY A VEN remains (seen by F TRI)']
>>> for notice in DiplomyopiaRules().observe(record, "TURKEY").notices:
...     print(notice.text)
Conflict in BLA: a stand-off between a Russian fleet and a Turkish fleet (seen by A CON)
F ANK - BLA fails, stood off by RUSSIA F SEV
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TypeAlias, cast

from fogdip.engine.map import Map
from fogdip.engine.outcomes import Resolution
from fogdip.engine.state import GameState
from fogdip.fog.diplomyopia_vision import adjective, combat_vision
from fogdip.fog.observation import Notice, Observation, SeenOrder
from fogdip.fog.rules import NO_EVENTS, Events, FogOptions, FogRules, own_notices, own_orders
from fogdip.fog.sight import KeptOn, own_units, union, unit_sight


@dataclass(frozen=True)
class DiplomyopiaOptions(FogOptions):
    """``garrison_reports``: report every centre lost, with its captor, who also becomes the
    centre's known owner (rule 4, the centres reading). The variant layer switches it off when it
    reports garrisons itself (``garrisons`` in :mod:`fogdip.variants.options`)."""

    garrison_reports: bool = True


class DiplomyopiaRules(FogRules):
    """Sight of every adjacent province at the end of a season; in combat, sight by order."""

    name = "diplomyopia"
    seed = "003"
    title = "Diplomyopia"
    summary = (
        "units see who occupies every adjacent province at the end of each season; in combat a "
        "holding unit sees its neighbourhood, a moving one only its own fight; garrisons report captures"
    )
    Options = DiplomyopiaOptions
    options: DiplomyopiaOptions
    sees_every_neighbour = True

    def visible_provinces(self, state: GameState, power: str) -> frozenset[str]:
        return union(unit_sight(state.board, unit, "any") for unit in own_units(state, power))

    def _combat(self, resolution: Resolution, power: str) -> tuple[list[SeenOrder], list[Notice]]:
        # Worked out once per observation for both hooks, and kept with the record.
        key = (combat_vision, power)
        found = resolution.memo.get(key)
        if found is None:
            made = combat_vision(resolution, power) if resolution.before.phase.kind == "M" else ([], [])
            found = resolution.memo.setdefault(key, made)
        return cast(tuple[list[SeenOrder], list[Notice]], found)

    def orders_seen(self, resolution: Resolution, power: str) -> list[SeenOrder]:
        return own_orders(resolution, power) + self._combat(resolution, power)[0]

    def notices(self, resolution: Resolution, power: str) -> list[Notice]:
        # A dislodged unit is told where the attack came from: a holding unit is told of
        # every attack, an attacking one of the attack that dislodges it.
        out = own_notices(resolution, power, attack_origin=True)
        out.extend(self._combat(resolution, power)[1])
        if self.options.garrison_reports:
            out.extend(garrison_reports(resolution, power))
        return out

    def observe(self, resolution: Resolution, power: str, events: Events = NO_EVENTS) -> Observation:
        """As the base, and a garrison's report makes the captor a known owner of the centre."""
        seen = super().observe(resolution, power, events)
        if not self.options.garrison_reports:
            return seen
        captured = {c: captor for c, captor, _ in captures(resolution, power)}
        if not captured:
            return seen
        return dataclasses.replace(seen, centers=tuple(sorted({**seen.center_owners, **captured}.items())))


def captures(resolution: Resolution, power: str) -> list[tuple[str, str, str | None]]:
    """The centres ``power`` owned before the phase and another power owns after it: centre,
    captor, and the type of the captor's unit standing there (``None`` if none does)."""
    return list(_captures(resolution).get(power, ()))


Capture: TypeAlias = tuple[str, str, str | None]


def _every_capture(resolution: Resolution) -> dict[str, tuple[Capture, ...]]:
    """:func:`captures` of every power, by the power that lost the centres: one pass over the
    centres for all seven observations (each asks twice)."""
    before, after = resolution.before.centers, resolution.after.centers
    units = resolution.after.units
    out: dict[str, list[Capture]] = {}
    for center in sorted(before):
        owner, captor = before[center], after.get(center)
        if captor is None or captor == owner:
            continue
        unit = units.get(center)
        out.setdefault(owner, []).append(
            (center, captor, unit.kind if unit is not None and unit.power == captor else None)
        )
    return {power: tuple(lost) for power, lost in out.items()}


_captures: KeptOn[Resolution, dict[str, tuple[Capture, ...]]] = KeptOn(_every_capture)


def garrison_reports(resolution: Resolution, power: str) -> list[Notice]:
    """Rule 4: "a player is told of any unoccupied provinces he has lost, and to whom they
    have fallen" (``Piedmont captured by a French army``).

    A centre lost while the power's own unit stood in it was lost to the unit that dislodged
    it, which the power saw; the report repeats it rather than reveal less.
    """
    board = resolution.before.board
    return [garrison_notice(board, center, captor, kind) for center, captor, kind in captures(resolution, power)]


def garrison_notice(board: Map, province: str, captor: str, kind: str | None) -> Notice:
    """The garrison's report of ``province`` taken by ``captor`` (with a unit of ``kind``, or
    ``None`` if no unit of the captor stands there).

    >>> from fogdip.engine.map import get_map
    >>> notice = garrison_notice(get_map("standard"), "PIE", "FRANCE", "A")
    >>> notice.text, notice.data
    ('Piedmont captured by a French army', (('province', 'PIE'), ('captor', 'FRANCE'), ('type', 'A')))
    """
    name = board.provinces[province].name
    if kind is None:
        who = board.power_info[captor].name if captor in board.power_info else captor.title()
    else:
        adj = adjective(board, captor)
        who = f"{'an' if adj[:1] in 'AEIOU' else 'a'} {adj} {'army' if kind == 'A' else 'fleet'}"
    return Notice.make("garrison", f"{name} captured by {who}", province=province, captor=captor, type=kind)
