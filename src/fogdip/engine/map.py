"""Maps as data: provinces, coasts, terrain, adjacency, supply centres and home centres.

A map is loaded from a TOML file in :mod:`fogdip.engine.maps` and validated on load: unknown
names, one-way adjacencies, fleets adjacent to land-locked provinces and the like fail loudly.

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
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources
from typing import Literal

from fogdip.engine.errors import MapError

Terrain = Literal["land", "coast", "sea", "impassable"]
UnitKind = Literal["A", "F"]

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


@dataclass(frozen=True, eq=False)
class Map:
    """An immutable, validated game board.

    Locations are province codes (``"PAR"``) or coast codes (``"SPA/NC"``). Armies stand on
    provinces; fleets stand on sea provinces, single-coast provinces, or a named coast.
    """

    name: str
    title: str
    victory_centers: int
    first_year: int
    powers: tuple[str, ...]
    power_info: dict[str, PowerInfo]
    provinces: dict[str, Province]
    army_adjacency: dict[str, frozenset[str]]
    fleet_adjacency: dict[str, frozenset[str]]
    _names: dict[str, str] = field(repr=False)
    _province_of: dict[str, str] = field(repr=False)
    _fleet_province_reach: dict[str, frozenset[str]] = field(repr=False)
    neighbours: dict[str, frozenset[str]] = field(repr=False, default_factory=dict)
    _distance_cache: dict[tuple[str, ...], dict[str, int]] = field(repr=False, default_factory=dict)
    #: Facts other layers work out from this map alone (the fog layer's sight geometry), kept
    #: with it: a map never changes, so they hold while it lives.
    memo: dict[object, object] = field(repr=False, default_factory=dict)

    # --- names -----------------------------------------------------------------------------

    def resolve_name(self, text: str) -> str | None:
        """Return the location code for a code, alias or full name (any case), or ``None``."""
        return self._names.get(_normalise(text))

    def province_of(self, location: str) -> str:
        """The province a location belongs to: ``"STP/NC"`` gives ``"STP"``."""
        return self._province_of[location]

    def is_location(self, location: str) -> bool:
        return location in self._province_of

    def full_name(self, location: str) -> str:
        province = self.provinces[self._province_of[location]]
        if location == province.code:
            return province.name
        return f"{province.name} ({location.split('/')[1].lower()})"

    # --- geography ---------------------------------------------------------------------------

    @property
    def supply_centers(self) -> tuple[str, ...]:
        return tuple(code for code, p in self.provinces.items() if p.supply_center)

    @cached_property
    def center_set(self) -> frozenset[str]:
        """The supply centres, for membership tests."""
        return frozenset(self.supply_centers)

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

    @cached_property
    def sea_provinces(self) -> frozenset[str]:
        """The sea provinces: where a fleet may convoy from, and what a convoy route is made of
        when only the map is looked at."""
        return frozenset(code for code, p in self.provinces.items() if p.terrain == "sea")

    def adjacent_provinces(self, province: str) -> frozenset[str]:
        """Provinces adjacent to ``province`` by any unit type, from any of its coasts."""
        return self.neighbours[province]

    def distances_from(self, sources: tuple[str, ...]) -> dict[str, int]:
        """Breadth-first distance in provinces, over every adjacency, from a set of provinces."""
        key = tuple(sorted(sources))
        cached = self._distance_cache.get(key)
        if cached is not None:
            return cached
        distance = {p: 0 for p in key}
        queue = deque(key)
        while queue:
            here = queue.popleft()
            for there in self.adjacent_provinces(here):
                if there not in distance and self.provinces[there].passable:
                    distance[there] = distance[here] + 1
                    queue.append(there)
        self._distance_cache[key] = distance
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

    reach = {loc: frozenset(province_of[t] for t in targets) for loc, targets in fleet.items()}
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
        _fleet_province_reach=reach,
    )
    for code, province in provinces.items():
        near = set(board.army_adjacency.get(code, ()))
        for location in (code, *province.coasts):
            near.update(province_of[t] for t in board.fleet_adjacency.get(location, ()))
        board.neighbours[code] = frozenset(near)
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


@cache
def get_map(name: str) -> Map:
    """Load one of the maps shipped with fogdip, by name (cached)."""
    try:
        text = resources.files("fogdip.engine.maps").joinpath(f"{name}.toml").read_text("utf-8")
    except FileNotFoundError:
        raise MapError(f"unknown map {name!r}; known maps: {', '.join(available_maps())}") from None
    return load_map(text)


def available_maps() -> list[str]:
    return sorted(
        entry.name.removesuffix(".toml")
        for entry in resources.files("fogdip.engine.maps").iterdir()
        if entry.name.endswith(".toml")
    )


def standard_map() -> Map:
    """The standard map."""
    return get_map("standard")
