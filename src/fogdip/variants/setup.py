"""Setups chosen by the players before the first movement phase: the 1898 start (seed 004)
and free setup (seed 002).

The choices are carried by a **setup phase**, named ``S1901S`` (Spring of the first year,
kind ``S`` for setup), played before ``S1901M``. Each power files its units as plain unit
texts; nobody learns another's choice except through the fog rules.

>>> from fogdip.engine import standard_map
>>> state = setup_start("1898", standard_map())
>>> state.centers["EDI"], len(state.units), state.homes["ENGLAND"]
('ENGLAND', 0, ('EDI', 'LON', 'LVP'))
>>> choose_units(state, "ENGLAND", ["A EDI"], "1898")
[Unit('ENGLAND', 'A', 'EDI')]
>>> choose_units(state, "RUSSIA", ["F STP"], "1898")
Traceback (most recent call last):
...
fogdip.engine.errors.InvalidOrder: cannot read order 'F STP': a fleet in STP must name its coast: F STP/NC or F STP/SC
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from fogdip.engine.errors import InvalidOrder
from fogdip.engine.map import Map
from fogdip.engine.state import GameState
from fogdip.engine.units import Phase, Unit

#: Each power's single starting centre in the 1898 start (seed 004).
CENTERS_1898 = MappingProxyType(
    {
        "AUSTRIA": "TRI",
        "ENGLAND": "EDI",
        "FRANCE": "BRE",
        "GERMANY": "KIE",
        "ITALY": "NAP",
        "RUSSIA": "STP",
        "TURKEY": "ANK",
    }
)


def setup_phase_name(board: Map) -> str:
    return f"S{board.first_year}S"


def is_setup_phase(name: str) -> bool:
    return len(name) >= 6 and name[0] == "S" and name[-1] == "S" and name[1:-1].isdigit()


def setup_start(setup: str, board: Map) -> GameState:
    """The position before anyone has chosen: no units; under 1898 one centre each, under free
    setup the usual home centres. Home centres stay home centres for builds either way."""
    state = GameState.initial(board)
    if setup == "1898":
        centers = {center: power for power, center in CENTERS_1898.items() if power in board.powers}
    else:
        centers = dict(state.centers)
    return state.with_changes(units={}, centers=centers)


def start_centers(state: GameState, power: str, setup: str) -> list[str]:
    """The centres a power may place units on."""
    if setup == "1898":
        return [CENTERS_1898[power]]
    return [c for c in state.homes.get(power, ()) if state.centers.get(c) == power]


def default_units(power: str, setup: str, board: Map) -> list[Unit]:
    """What a power gets when it files no valid choice: the standard start's unit(s) there."""
    standard = GameState.initial(board)
    if setup == "1898":
        unit = standard.units.get(CENTERS_1898[power])
        return [unit] if unit is not None else []
    return standard.units_of(power)


def read_placement(state: GameState, power: str, text: str, setup: str) -> Unit:
    """Read one line of a power's setup choice (``A BER``, ``Fleet Kiel``), or raise
    :class:`InvalidOrder` saying what is wrong with that line alone.

    >>> from fogdip.engine import standard_map
    >>> read_placement(setup_start("free", standard_map()), "GERMANY", "fleet kiel", "free")
    Unit('GERMANY', 'F', 'KIE')
    """
    board = state.board
    allowed = start_centers(state, power, setup)
    kind_text, _, where = text.strip().upper().partition(" ")
    kind = {"A": "A", "ARMY": "A", "F": "F", "FLEET": "F"}.get(kind_text)
    if kind is None or not where.strip():
        raise InvalidOrder(text, f"write a unit type and a centre, e.g. 'A {allowed[0]}' or 'F {allowed[0]}'")
    location = board.resolve_name(where.strip())
    if location is None:
        raise InvalidOrder(text, f"unknown province {where.strip()!r}")
    province = board.province_of(location)
    if province not in allowed:
        raise InvalidOrder(text, f"{power} may start only in {', '.join(allowed)}")
    if kind == "F" and location == province and board.coasts(province):
        coasts = " or ".join(f"F {c}" for c in board.coasts(province))
        raise InvalidOrder(text, f"a fleet in {province} must name its coast: {coasts}")
    if not board.can_hold(kind, location):  # type: ignore[arg-type]
        raise InvalidOrder(text, f"{'an army' if kind == 'A' else 'a fleet'} cannot stand in {location}")
    return Unit(power, kind, location)  # type: ignore[arg-type]


def fill_by_default(state: GameState, power: str, chosen: list[Unit], setup: str) -> list[Unit]:
    """The units of the standard start on the power's starting centres that ``chosen`` leaves
    empty: what a power gets for the centres it chose no unit for (seed 002: "If you say nothing
    prior to Spring 01, than I will note your starting position").

    >>> from fogdip.engine import standard_map
    >>> state = setup_start("free", standard_map())
    >>> fill_by_default(state, "TURKEY", [Unit("TURKEY", "F", "SMY")], "free")
    [Unit('TURKEY', 'F', 'ANK'), Unit('TURKEY', 'A', 'CON')]
    """
    taken = {unit.province for unit in chosen}
    allowed = set(start_centers(state, power, setup))
    return [
        unit
        for unit in default_units(power, setup, state.board)
        if unit.province in allowed and unit.province not in taken
    ]


def choose_units(state: GameState, power: str, texts: list[str], setup: str) -> list[Unit]:
    """Read a whole setup choice, one unit per starting centre, or raise
    :class:`InvalidOrder` at the first line that is wrong (or if a centre is left without a
    unit). Playing a turn judges each line on its own instead (:mod:`fogdip.variants.screening`)."""
    board = state.board
    allowed = start_centers(state, power, setup)
    wanted = len(allowed) if setup == "1898" else len(default_units(power, setup, board))
    units: list[Unit] = []
    for text in texts:
        unit = read_placement(state, power, text, setup)
        if any(u.province == unit.province for u in units):
            raise InvalidOrder(text, f"only one unit may start in {unit.province}")
        units.append(unit)
    if len(units) != wanted:
        raise InvalidOrder(
            "; ".join(texts) or "(nothing)",
            f"{power} must choose exactly {wanted} unit(s), one per centre in {', '.join(allowed)}; {len(units)} given",
        )
    return units


def apply_setup(state: GameState, choices: Mapping[str, list[Unit]]) -> GameState:
    """The first movement position, with every power's chosen units."""
    units = {unit.province: unit for chosen in choices.values() for unit in chosen}
    return state.with_changes(units=units, phase=Phase("S", state.board.first_year, "M"))
