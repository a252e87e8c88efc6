"""The JSON form of what a power sees: observations (reports) and knowledge.

A report is the JSON ``fogdip adjudicate`` documents, with each order's values beside its
line: ``order`` is the line as a player reads it, ``masked`` the order itself (a place the
power may not know is ``null``; a part the order does not have is left out), ``conflicts``
the other orders its unit was given. Reading a report back reads the values; the lines and the
``text`` are for people and are never read.

>>> from fogdip.fog.masked import HIDDEN, FAILED, MaskedOrder, MaskedUnit, OrderKind
>>> from fogdip.fog.observation import Observation, SeenOrder
>>> move = SeenOrder("FRANCE", MaskedOrder(OrderKind.MOVE, MaskedUnit("A", HIDDEN), target="MUN"), FAILED)
>>> seen = Observation.build(variant="fog-of-war", power="GERMANY", phase="F1901M", next_phase="W1901A",
...     visible={"MUN"}, units=[], orders=[move], centers={})
>>> data = observation_to_json(seen)
>>> data["orders"]
[{'power': 'FRANCE', 'order': 'A ??? - MUN', 'result': ['fails'], 'masked': {'kind': 'move', 'unit': {'kind': 'A', 'location': None}, 'target': 'MUN'}}]
>>> observation_from_json(data) == seen
True
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from fogdip.codec.errors import CodecError, explain
from fogdip.fog.knowledge import Ghost, Knowledge, KnownCenter
from fogdip.fog.masked import FAILED, HIDDEN, Hidden, MaskedOrder, MaskedUnit, OrderKind, Place, SeenResult
from fogdip.fog.observation import Notice, NoticeValue, Observation, SeenOrder, SeenUnit
from fogdip.fog.report import UNKNOWN_OWNER, observation_text, result_words, seen_order_text

#: A location as documents write it: a province code, or a coast (``STP/NC``).
Location = Annotated[str, Field(pattern=r"^[A-Za-z0-9_]+(/[A-Za-z]{2})?$", examples=["PAR", "STP/NC"])]
#: A unit as a report lists it: ``A PAR``, ``F STP/NC``, ``? NTH`` (type unknown), ``*A BUR``
#: (dislodged, awaiting its retreat).
SeenUnitText = Annotated[str, Field(pattern=r"^\*?[AF?] [A-Za-z0-9_]+(/[A-Za-z]{2})?$", examples=["A PAR", "? NTH"])]
_SEEN_UNIT = re.compile(r"^(\*?)([AF?]) (\S+)$")


class _Wire(BaseModel):
    """Unknown keys are ignored, so that files written by a later fogdip that only added
    fields still read."""

    model_config = ConfigDict(extra="ignore", frozen=True)


class UnitJSON(_Wire):
    """A unit an order names. ``location`` ``null``: hidden from this power."""

    kind: Literal["A", "F"] | None = None
    location: Location | None


class OrderJSON(_Wire):
    """An order as the power learns it. ``other`` ``null``: the supported or convoyed unit,
    and the target, are hidden; ``target`` ``null``: hidden. Parts an order does not have are
    left out."""

    kind: OrderKind
    unit: UnitJSON | None = None
    other: UnitJSON | None = None
    target: Location | None = None
    via: bool = False
    spied: str | None = None


class SeenOrderJSON(_Wire):
    power: str | None
    #: The order's line, for people (``???`` for hidden parts); not read back.
    order: str = ""
    #: Result words; ``[]`` success; ``["fails"]`` only the failure is known; ``null`` nothing.
    result: list[str] | None
    masked: OrderJSON
    conflicts: list[OrderJSON] = []


class NoticeJSON(BaseModel):
    """A notice: its kind, its words, and whatever data its kind carries."""

    model_config = ConfigDict(extra="allow", frozen=True)

    kind: str
    text: str


class ObservationJSON(_Wire):
    variant: str
    power: str
    phase: str
    next_phase: str
    visible: list[str]
    units: dict[str, list[SeenUnitText]]
    orders: list[SeenOrderJSON]
    centers: dict[str, list[str]]
    notices: list[NoticeJSON] = []
    opening: bool = False
    #: The whole report as text, for people; not read back.
    text: str = ""


class GhostJSON(_Wire):
    unit: SeenUnitText
    owner: str | None
    phase: str
    current: bool


class KnownCenterJSON(_Wire):
    owner: str | None
    phase: str


class KnowledgeJSON(_Wire):
    power: str
    phase: str | None
    ghosts: list[GhostJSON]
    centers: dict[str, KnownCenterJSON]
    observations: int = 0


# --- writing -------------------------------------------------------------------------------------


def observation_to_json(seen: Observation) -> dict[str, Any]:
    """A report as JSON: the fields ``fogdip adjudicate`` documents, the orders' values, and
    ``text``."""
    units: dict[str, list[str]] = {}
    for unit in seen.units:
        units.setdefault(unit.owner or UNKNOWN_OWNER, []).append(str(unit))
    centers: dict[str, list[str]] = {}
    for center, owner in seen.centers:
        centers.setdefault(owner, []).append(center)
    return {
        "variant": seen.variant,
        "power": seen.power,
        "phase": seen.phase,
        "next_phase": seen.next_phase,
        "visible": sorted(seen.visible),
        "units": dict(sorted(units.items())),
        "orders": [_seen_order_json(order) for order in seen.orders],
        "centers": dict(sorted(centers.items())),
        "notices": [notice_to_json(notice) for notice in seen.notices],
        "opening": seen.opening,
        "text": observation_text(seen),
    }


def _seen_order_json(seen: SeenOrder) -> dict[str, Any]:
    out: dict[str, Any] = {
        "power": seen.power,
        "order": seen_order_text(seen),
        "result": result_words(seen.result),
        "masked": order_to_json(seen.order),
    }
    if seen.conflicts:
        out["conflicts"] = [order_to_json(order) for order in seen.conflicts]
    return out


def order_to_json(order: MaskedOrder) -> dict[str, Any]:
    """A masked order's values (see :class:`OrderJSON`)."""
    out: dict[str, Any] = {"kind": order.kind.value}
    if order.unit is not None:
        out["unit"] = _unit_json(order.unit)
    if order.other is not None:
        out["other"] = None if isinstance(order.other, Hidden) else _unit_json(order.other)
    if order.target is not None:
        out["target"] = _place_json(order.target)
    if order.via:
        out["via"] = True
    if order.spied is not None:
        out["spied"] = order.spied
    return out


def _unit_json(unit: MaskedUnit) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": unit.kind} if unit.kind is not None else {}
    out["location"] = _place_json(unit.location)
    return out


def _place_json(place: Place) -> str | None:
    return None if isinstance(place, Hidden) else place


def notice_to_json(notice: Notice) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": notice.kind, "text": notice.text}
    for key, value in notice.data:
        out[key] = _thawed(value)
    return out


def _thawed(value: NoticeValue) -> object:
    if isinstance(value, tuple):
        return [_thawed(item) for item in value]
    return value


def knowledge_to_json(knowledge: Knowledge) -> dict[str, Any]:
    """What a power has learned: its ghosts (last sightings of foreign units) and the
    last-known owner of each centre."""
    return {
        "power": knowledge.power,
        "phase": knowledge.phase,
        "ghosts": [
            {"unit": str(g.unit), "owner": g.owner, "phase": g.phase, "current": g.current} for g in knowledge.ghosts()
        ],
        "centers": {c: {"owner": k.owner, "phase": k.phase} for c, k in knowledge.centers().items()},
        "observations": knowledge.observations,
    }


# --- reading -------------------------------------------------------------------------------------


def observation_from_json(data: object, where: str = "report") -> Observation:
    """Read a report written by :func:`observation_to_json`; a malformed one raises
    :class:`~fogdip.codec.errors.CodecError` saying what is wrong and where."""
    try:
        wire = ObservationJSON.model_validate(data)
    except ValidationError as exc:
        raise explain(exc, where) from None
    units = []
    for owner, texts in wire.units.items():
        for text in texts:
            units.append(_seen_unit(text, None if owner == UNKNOWN_OWNER else owner))
    return Observation.build(
        variant=wire.variant,
        power=wire.power,
        phase=wire.phase,
        next_phase=wire.next_phase,
        visible=wire.visible,
        units=units,
        orders=[_seen_order(order) for order in wire.orders],
        centers={center: owner for owner, owned in wire.centers.items() for center in owned},
        notices=[_notice(notice) for notice in wire.notices],
        opening=wire.opening,
    )


def _seen_unit(text: str, owner: str | None) -> SeenUnit:
    match = _SEEN_UNIT.match(text)
    assert match is not None  # the pattern of SeenUnitText
    star, kind, location = match.groups()
    return SeenUnit(location, owner, None if kind == "?" else kind, bool(star))  # type: ignore[arg-type]


def _seen_order(wire: SeenOrderJSON) -> SeenOrder:
    return SeenOrder(
        wire.power,
        order_from_json(wire.masked),
        _result(wire.result),
        tuple(order_from_json(order) for order in wire.conflicts),
    )


def _result(words: list[str] | None) -> SeenResult | None:
    if words is None:
        return None
    if words == ["fails"]:
        return FAILED
    return SeenResult.told(tuple(words))


def order_from_json(wire: OrderJSON) -> MaskedOrder:
    given = wire.model_fields_set
    other: MaskedUnit | Hidden | None = None
    if "other" in given:
        other = HIDDEN if wire.other is None else _masked_unit(wire.other)
    target: Place | None = None
    if "target" in given:
        target = HIDDEN if wire.target is None else wire.target
    unit = _masked_unit(wire.unit) if wire.unit is not None else None
    return MaskedOrder(wire.kind, unit, other, target, wire.via, wire.spied)


def _masked_unit(wire: UnitJSON) -> MaskedUnit:
    return MaskedUnit(wire.kind, HIDDEN if wire.location is None else wire.location)


def _notice(wire: NoticeJSON) -> Notice:
    extra: Mapping[str, Any] = wire.model_extra or {}
    return Notice.make(wire.kind, wire.text, **extra)


def knowledge_from_json(data: object, where: str = "knowledge") -> Knowledge:
    """Read knowledge written by :func:`knowledge_to_json`."""
    try:
        wire = KnowledgeJSON.model_validate(data)
    except ValidationError as exc:
        raise explain(exc, where) from None
    return Knowledge.restore(
        wire.power,
        wire.phase,
        [Ghost(_seen_unit(g.unit, g.owner), g.phase, g.current) for g in wire.ghosts],
        {center: KnownCenter(known.owner, known.phase) for center, known in wire.centers.items()},
        wire.observations,
    )


__all__ = [
    "CodecError",
    "knowledge_from_json",
    "knowledge_to_json",
    "notice_to_json",
    "observation_from_json",
    "observation_to_json",
    "order_from_json",
    "order_to_json",
]
