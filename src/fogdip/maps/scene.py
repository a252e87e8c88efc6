"""What a map shows, as values: a :class:`Scene`, built from what its viewer knows and nothing else.

A power's scene is made from one of its observations and the knowledge it had then
(:func:`power_scene`); the game master's from the whole position and the record
(:func:`master_scene`). The renderer (:mod:`fogdip.maps.svg`) draws a scene and reads nothing
else, so a power's map can hold no more than its reports do.

>>> from fogdip.engine.state import GameState
>>> scene = master_scene(GameState.initial())
>>> scene.title, len(scene.units), scene.fog
('Spring 1901 movement', 22, frozenset())
>>> scene.centres["PAR"], scene.centres["BEL"]
('FRANCE', None)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from fogdip.engine.map import Map
from fogdip.engine.orders import Order
from fogdip.engine.outcomes import Resolution
from fogdip.engine.state import GameState
from fogdip.engine.units import Phase
from fogdip.fog.knowledge import Knowledge
from fogdip.fog.masked import Kind, MaskedOrder, SeenResult
from fogdip.fog.observation import Notice, NoticeValue, Observation
from fogdip.fog.sight import masked_order, record_facts


@dataclass(frozen=True, slots=True)
class DrawnUnit:
    """A unit on the map. ``power`` and ``kind`` are ``None`` where the viewer does not know
    them; ``last_seen`` marks a ghost, the phase it was last seen in."""

    location: str
    power: str | None
    kind: Kind | None
    dislodged: bool = False
    last_seen: str | None = None

    @property
    def province(self) -> str:
        return self.location.partition("/")[0]


@dataclass(frozen=True, slots=True)
class DrawnOrder:
    """An order drawn as an arrow or a mark: as the viewer knows it (hidden places stay
    hidden) and what it knows of the result (``None``: nothing, or not yet adjudicated)."""

    power: str | None
    order: MaskedOrder
    result: SeenResult | None


@dataclass(frozen=True, slots=True)
class Mark:
    """Something the viewer was told that names provinces (a peek's answer, a spy's report, a
    garrison, a stand-off): numbered on the map, its text in the legend."""

    number: int
    text: str
    provinces: tuple[str, ...]


@dataclass(frozen=True)
class Scene:
    """Everything one map shows: the board is ``map``; ``viewer`` the power whose map it is
    (``None``: the game master's); ``fog`` the provinces it cannot see; ``centres`` every
    supply centre with its owner as known (``None``: unowned, or not known)."""

    map: str
    title: str
    viewer: str | None
    powers: tuple[str, ...]
    fog: frozenset[str]
    units: tuple[DrawnUnit, ...]
    orders: tuple[DrawnOrder, ...]
    centres: Mapping[str, str | None]
    marks: tuple[Mark, ...] = ()
    subtitle: str = ""


def power_scene(board: Map, observation: Observation, knowledge: Knowledge) -> Scene:
    """A power's map after one phase: what ``observation`` shows, the ghosts and centre owners
    of ``knowledge`` (the power's knowledge as it stood after that observation), and nothing
    else."""
    if knowledge.power != observation.power:
        raise ValueError(f"{knowledge.power}'s knowledge cannot draw {observation.power}'s map")
    visible = observation.visible
    units = [DrawnUnit(unit.location, unit.owner, unit.kind, unit.dislodged) for unit in observation.units]
    seen_at = {unit.province for unit in observation.units}
    for ghost in knowledge.ghosts():
        if ghost.province in visible or ghost.province in seen_at:
            continue
        unit = ghost.unit
        units.append(DrawnUnit(unit.location, unit.owner, unit.kind, False, ghost.phase))
    known = {center: known.owner for center, known in knowledge.centers().items()}
    known.update(observation.centers)
    orders = [DrawnOrder(seen.power, seen.order, seen.result) for seen in observation.orders]
    fog = frozenset(_passable(board) - visible)
    return Scene(
        map=board.name,
        title=_power_name(board, observation.power),
        viewer=observation.power,
        powers=board.powers,
        fog=fog,
        units=tuple(units),
        orders=tuple(orders),
        centres=_centres(board, known),
        marks=tuple(_marks(board, observation.notices)),
        subtitle=_when(observation),
    )


def master_scene(
    state: GameState,
    resolution: Resolution | None = None,
    orders: Mapping[str, Sequence[Order]] | None = None,
    *,
    title: str | None = None,
) -> Scene:
    """The whole board as the game master sees it: every unit of ``state`` and, if given, the
    orders of ``resolution`` (the phase that led to ``state``) with their results, or written
    ``orders`` not yet adjudicated."""
    board = state.board
    units = [DrawnUnit(unit.location, unit.power, unit.kind) for unit in state.units.values()]
    units.extend(DrawnUnit(d.unit.location, d.unit.power, d.unit.kind, True) for d in state.dislodged.values())
    units.sort(key=lambda unit: (unit.dislodged, unit.location))  # the same map however the position was read
    drawn: list[DrawnOrder] = []
    if resolution is not None:
        drawn.extend(DrawnOrder(seen.power, seen.order, seen.result) for seen in record_facts(resolution).full_orders)
    if orders is not None:
        for power, listed in sorted(orders.items()):
            for order in listed:
                drawn.append(DrawnOrder(power, masked_order(order, None), None))
    when = state.phase.long_name if not state.completed else "the end of the game"
    return Scene(
        map=board.name,
        title=title or when,
        viewer=None,
        powers=board.powers,
        fog=frozenset(),
        units=tuple(units),
        orders=tuple(drawn),
        centres=_centres(board, state.centers),
        marks=(),
        subtitle="" if title is None else when,
    )


def _power_name(board: Map, power: str) -> str:
    info = board.power_info.get(power)
    return info.name if info is not None else power


def _passable(board: Map) -> frozenset[str]:
    return frozenset(code for code, province in board.provinces.items() if province.passable)


def _centres(board: Map, owners: Mapping[str, str | None]) -> Mapping[str, str | None]:
    return MappingProxyType(
        {code: owners.get(code) for code, province in sorted(board.provinces.items()) if province.supply_center}
    )


def _when(observation: Observation) -> str:
    if observation.opening:
        return f"the start: {phase_name(observation.next_phase)}"
    after = f"after {phase_name(observation.phase)}"
    if observation.next_phase == "COMPLETED":
        return f"{after}; the game is over"
    return f"{after}; next {phase_name(observation.next_phase)}"


def phase_name(code: str) -> str:
    try:
        return Phase.parse(code).long_name
    except ValueError:
        return code


def _marks(board: Map, notices: Iterable[Notice]) -> list[Mark]:
    marks: list[Mark] = []
    for notice in notices:
        provinces: list[str] = []
        for _key, value in notice.data:
            for province in _provinces_named(board, value):
                if province not in provinces:
                    provinces.append(province)
        if provinces:
            marks.append(Mark(len(marks) + 1, notice.text, tuple(provinces)))
    return marks


def _provinces_named(board: Map, value: NoticeValue) -> list[str]:
    """The map's provinces a notice's value names: a province or coast, a unit (``"A BUR"``),
    or a sequence of them."""
    if isinstance(value, tuple):
        return [province for item in value for province in _provinces_named(board, item)]
    if not isinstance(value, str):
        return []
    word = value.rsplit(" ", 1)[-1].upper()
    province = word.partition("/")[0]
    if province in board.provinces and (value.upper() == word or value[:2] in ("A ", "F ")):
        return [province]
    return []
