"""Maps as data: provinces, coasts, terrain, adjacency, supply centres and home centres.

A map is loaded from a TOML file in :mod:`fogdip.engine.maps` and validated on load: unknown
names, one-way adjacencies, fleets adjacent to land-locked provinces and the like fail loudly.

Everything the engine looks up on a map is worked out when the map is built, into immutable
tables: a map (one per name in a process, :func:`get_map`) is read by every game and every
thread at once, and nothing ever writes to it.

>>> board = standard_map()
>>> board.province_of("STP/NC")
'STP'
>>> sorted(board.army_targets("PAR"))
['BRE', 'BUR', 'GAS', 'PIC']
>>> board.resolve_name("Gulf of Lyon"), board.resolve_name("gol"), board.resolve_name("spa/sc")
('LYO', 'LYO', 'SPA/SC')
"""

from __future__ import annotations

import tomllib
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from importlib import resources
from types import MappingProxyType
from typing import Literal

from fogdip.engine.errors import MapError
from fogdip.engine.sites import Site, build_sites
from fogdip.engine.units import UnitKind as UnitKind

Terrain = Literal["land", "coast", "sea", "impassable"]

_TERRAINS: frozenset[str] = frozenset({"land", "coast", "sea", "impassable"})


@dataclass(frozen=True, slots=True)
class Province:
    """One province of a map. ``coasts`` lists named coast locations such as ``"SPA/NC"``."""

    code: str
    name: str
    terrain: Terrain
    supply_center: bool = False
    home: str | None = None
    coasts: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()

    @property
    def passable(self) -> bool:
        return self.terrain != "impassable"


@dataclass(frozen=True, slots=True)
class PowerInfo:
    """A power's names and its starting units (``"F STP/SC"``)."""

    code: str
    name: str
    adjective: str
    abbreviation: str
    start: tuple[str, ...]


@dataclass(frozen=True, eq=False, slots=True)
class Map:
    """An immutable, validated game board.

    Locations are province codes (``"PAR"``) or coast codes (``"SPA/NC"``). Armies stand on
    provinces; fleets stand on sea provinces, single-coast provinces, or a named coast.

    The tables given are kept as read-only mappings; the ones derived from them (neighbours,
    sight, the orders of every unit placement: :attr:`sites`) are worked out here, once.
    """

    name: str
    title: str
    victory_centers: int
    first_year: int
    powers: tuple[str, ...]
    power_info: Mapping[str, PowerInfo]
    provinces: Mapping[str, Province]
    army_adjacency: Mapping[str, frozenset[str]]
    fleet_adjacency: Mapping[str, frozenset[str]]
    _names: Mapping[str, str] = field(repr=False)
    _province_of: Mapping[str, str] = field(repr=False)
    #: Provinces adjacent to each province by any unit type, from any of its coasts.
    neighbours: Mapping[str, frozenset[str]] = field(init=False, repr=False)
    #: Each province with every province next to it, whatever the terrain.
    around: Mapping[str, frozenset[str]] = field(init=False, repr=False)
    #: The supply centres, for membership tests.
    center_set: frozenset[str] = field(init=False, repr=False)
    #: The sea provinces: where a fleet may convoy from, and what a convoy route is made of
    #: when only the map is looked at.
    sea_provinces: frozenset[str] = field(init=False, repr=False)
    #: Every province a unit may enter.
    passable_provinces: frozenset[str] = field(init=False, repr=False)
    #: What a unit of each kind on each location can do, whatever the position, by kind and
    #: location (``"AMAR"``): :mod:`fogdip.engine.sites`.
    sites: Mapping[str, Site] = field(init=False, repr=False)
    _fleet_province_reach: Mapping[str, frozenset[str]] = field(init=False, repr=False)
    _within_reach: Mapping[str, frozenset[str]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # A frozen dataclass sets its fields with object.__setattr__; so do the derived ones,
        # once, before anyone else sees the map.
        def keep(name: str, value: object) -> None:
            object.__setattr__(self, name, value)

        for name in ("power_info", "provinces", "army_adjacency", "fleet_adjacency", "_names", "_province_of"):
            keep(name, MappingProxyType(dict(getattr(self, name))))
        province_of = self._province_of
        keep(
            "_fleet_province_reach",
            MappingProxyType(
                {loc: frozenset(province_of[t] for t in targets) for loc, targets in self.fleet_adjacency.items()}
            ),
        )
        neighbours: dict[str, frozenset[str]] = {}
        for code, province in self.provinces.items():
            near = set(self.army_adjacency.get(code, ()))
            for location in (code, *province.coasts):
                near.update(province_of[t] for t in self.fleet_adjacency.get(location, ()))
            neighbours[code] = frozenset(near)
        keep("neighbours", MappingProxyType(neighbours))
        keep("around", MappingProxyType({code: near | {code} for code, near in neighbours.items()}))
        keep("center_set", frozenset(code for code, p in self.provinces.items() if p.supply_center))
        keep("sea_provinces", frozenset(code for code, p in self.provinces.items() if p.terrain == "sea"))
        keep("passable_provinces", frozenset(code for code, p in self.provinces.items() if p.passable))
        kinds: tuple[UnitKind, ...] = ("A", "F")
        keep(
            "_within_reach",
            MappingProxyType(
                {
                    kind + location: self.reachable_provinces(kind, location) | {province_of[location]}
                    for location in province_of
                    for kind in kinds
                    if self.can_hold(kind, location)
                }
            ),
        )
        keep("sites", build_sites(self))

    # --- copies ----------------------------------------------------------------------------

    def __copy__(self) -> Map:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Map:
        # Nothing in a map changes: a copy of a position or a game shares it.
        return self

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled, a shipped map is its name (one object per process); any other map is its
        tables, built again (a read-only mapping does not pickle)."""
        if _SHIPPED.get(self.name) is self:
            return get_map, (self.name,)
        given = (getattr(self, f.name) for f in fields(self) if f.init)
        return Map, tuple(dict(value) if isinstance(value, Mapping) else value for value in given)

    # --- names -----------------------------------------------------------------------------

    def resolve_name(self, text: str) -> str | None:
        """Return the location code for a code, alias or full name (any case), or ``None``."""
        return self._names.get(_normalise(text))

    def province_of(self, location: str) -> str:
        """The province a location belongs to: ``"STP/NC"`` gives ``"STP"``."""
        return self._province_of[location]

    def is_location(self, location: str) -> bool:
        return location in self._province_of

    @property
    def locations(self) -> tuple[str, ...]:
        """Every location: each province and each named coast."""
        return tuple(self._province_of)

    def full_name(self, location: str) -> str:
        province = self.provinces[self._province_of[location]]
        if location == province.code:
            return province.name
        return f"{province.name} ({location.split('/')[1].lower()})"

    # --- geography ---------------------------------------------------------------------------

    @property
    def supply_centers(self) -> tuple[str, ...]:
        return tuple(code for code, p in self.provinces.items() if p.supply_center)

    def home_centers(self, power: str) -> tuple[str, ...]:
        return tuple(code for code, p in self.provinces.items() if p.home == power)

    def coasts(self, province: str) -> tuple[str, ...]:
        return self.provinces[province].coasts

    def can_hold(self, kind: UnitKind, location: str) -> bool:
        """Whether a unit of this kind may stand on this location."""
        province = self.provinces.get(self._province_of.get(location, ""))
        if province is None or not province.passable:
            return False
        if kind == "A":
            return location == province.code and province.terrain in ("land", "coast")
        if province.coasts:
            return location != province.code
        return province.terrain in ("sea", "coast")

    def army_targets(self, location: str) -> frozenset[str]:
        """Provinces an army on ``location`` can move to over land."""
        return self.army_adjacency.get(self._province_of[location], frozenset())

    def fleet_targets(self, location: str) -> frozenset[str]:
        """Locations (coasts included) a fleet on ``location`` can move to."""
        return self.fleet_adjacency.get(location, frozenset())

    def targets(self, kind: UnitKind, location: str) -> frozenset[str]:
        return self.army_targets(location) if kind == "A" else self.fleet_targets(location)

    def reachable_provinces(self, kind: UnitKind, location: str) -> frozenset[str]:
        """Provinces a unit could move into without a convoy (the provinces it may support into)."""
        if kind == "A":
            return self.army_targets(location)
        return self._fleet_province_reach.get(location, frozenset())

    def within_reach(self, kind: UnitKind, location: str) -> frozenset[str]:
        """The unit's own province and every province it could move into without a convoy.

        >>> sorted(standard_map().within_reach("F", "BER"))
        ['BAL', 'BER', 'KIE', 'PRU']
        """
        found = self._within_reach.get(kind + location)
        if found is None:  # a unit where none may stand: worked out, as nothing is kept for it
            found = self.reachable_provinces(kind, location) | {self._province_of[location]}
        return found

    def adjacent_provinces(self, province: str) -> frozenset[str]:
        """Provinces adjacent to ``province`` by any unit type, from any of its coasts."""
        return self.neighbours[province]

    def distances_from(self, sources: tuple[str, ...]) -> dict[str, int]:
        """Breadth-first distance in provinces, over every adjacency, from a set of provinces:
        a new dict for the caller (asked for rarely: civil disorder's removals).

        >>> distance = standard_map().distances_from(("PAR",))
        >>> distance["PAR"], distance["BUR"], distance["MUN"]
        (0, 1, 2)
        """
        key = sorted(set(sources))
        distance = dict.fromkeys(key, 0)
        queue = deque(key)
        while queue:
            here = queue.popleft()
            for there in self.neighbours[here]:
                if there not in distance and self.provinces[there].passable:
                    distance[there] = distance[here] + 1
                    queue.append(there)
        return distance


def _normalise(text: str) -> str:
    cleaned = " ".join(text.replace(".", " ").replace("-", " ").replace("_", " ").split())
    return cleaned.upper()


def load_map(text: str) -> Map:
    """Build a :class:`Map` from the text of a map TOML file, validating it."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise MapError(f"map file is not valid TOML: {exc}") from exc
    for key in ("name", "powers", "provinces"):
        if key not in raw:
            raise MapError(f"map file has no '{key}'")

    provinces: dict[str, Province] = {}
    army: dict[str, set[str]] = {}
    fleet: dict[str, set[str]] = {}
    province_of: dict[str, str] = {}
    for code, entry in raw["provinces"].items():
        terrain = entry.get("terrain")
        if terrain not in _TERRAINS:
            raise MapError(f"province {code}: terrain must be one of {sorted(_TERRAINS)}, not {terrain!r}")
        coast_table: dict[str, list[str]] = entry.get("coasts", {})
        coasts = tuple(f"{code}/{c}" for c in coast_table)
        provinces[code] = Province(
            code=code,
            name=entry.get("name", code),
            terrain=terrain,
            supply_center=bool(entry.get("supply_center", False)),
            home=entry.get("home"),
            coasts=coasts,
            aliases=tuple(entry.get("aliases", ())),
        )
        province_of[code] = code
        for coast in coasts:
            province_of[coast] = code
        if entry.get("army"):
            army[code] = set(entry["army"])
        if entry.get("fleet"):
            if coasts:
                raise MapError(f"province {code} has coasts; list fleet adjacency per coast")
            fleet[code] = set(entry["fleet"])
        for coast, targets in zip(coasts, coast_table.values(), strict=True):
            fleet[coast] = set(targets)

    _check_adjacency("army", army, province_of, provinces)
    _check_adjacency("fleet", fleet, province_of, provinces)

    names: dict[str, str] = {}
    for code, province in provinces.items():
        for name in (code, province.name, *province.aliases):
            key = _normalise(name)
            if names.get(key, code) != code:
                raise MapError(f"name {name!r} is used by both {names[key]} and {code}")
            names[key] = code
        for coast in province.coasts:
            suffix = coast.split("/")[1]
            for name in (code, province.name, *province.aliases):
                for spelling in (f"{name}/{suffix}", f"{name} {suffix}", f"{name}({suffix})"):
                    names[_normalise(spelling)] = coast

    powers: dict[str, PowerInfo] = {}
    for code, entry in raw["powers"].items():
        powers[code] = PowerInfo(
            code=code,
            name=entry.get("name", code.title()),
            adjective=entry.get("adjective", code.title()),
            abbreviation=entry.get("abbreviation", code[:3]),
            start=tuple(entry.get("start", ())),
        )
    for province in provinces.values():
        if province.home is not None and province.home not in powers:
            raise MapError(f"province {province.code}: home power {province.home} is not a power")

    board = Map(
        name=raw["name"],
        title=raw.get("title", raw["name"]),
        victory_centers=int(raw.get("victory_centers", 18)),
        first_year=int(raw.get("first_year", 1901)),
        powers=tuple(powers),
        power_info=powers,
        provinces=provinces,
        army_adjacency={k: frozenset(v) for k, v in army.items()},
        fleet_adjacency={k: frozenset(v) for k, v in fleet.items()},
        _names=names,
        _province_of=province_of,
    )
    for info in powers.values():
        for unit in info.start:
            kind, _, location = unit.partition(" ")
            if kind not in ("A", "F") or not board.can_hold(kind, location):  # type: ignore[arg-type]
                raise MapError(f"power {info.code}: starting unit {unit!r} cannot stand there")
    return board


def _check_adjacency(
    kind: str, table: dict[str, set[str]], province_of: dict[str, str], provinces: dict[str, Province]
) -> None:
    for here, targets in table.items():
        for there in targets:
            if there not in province_of:
                raise MapError(f"{kind} adjacency {here} -> {there}: unknown location {there}")
            if here not in table.get(there, ()):
                raise MapError(f"{kind} adjacency {here} -> {there} is one-way")
            if not provinces[province_of[there]].passable:
                raise MapError(f"{kind} adjacency {here} -> {there}: {there} is impassable")


def available_maps() -> list[str]:
    return sorted(
        entry.name.removesuffix(".toml")
        for entry in resources.files("fogdip.engine.maps").iterdir()
        if entry.name.endswith(".toml")
    )


def _shipped() -> Mapping[str, Map]:
    return MappingProxyType(
        {
            name: load_map(resources.files("fogdip.engine.maps").joinpath(f"{name}.toml").read_text("utf-8"))
            for name in available_maps()
        }
    )


# The maps shipped with fogdip, built as the engine is imported (a few milliseconds each, once
# a process): one map per name, whichever thread asks first, and nothing left to build later.
_SHIPPED = _shipped()


def get_map(name: str) -> Map:
    """One of the maps shipped with fogdip, by name: the same object every time."""
    board = _SHIPPED.get(name)
    if board is None:
        raise MapError(f"unknown map {name!r}; known maps: {', '.join(available_maps())}")
    return board


def standard_map() -> Map:
    """The standard map."""
    return get_map("standard")
