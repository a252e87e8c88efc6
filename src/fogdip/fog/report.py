"""Writing an observation out: the text report in the seeds' style, and the words of each
part: ``???`` for what a power may not know, ``(ok)`` and ``(fails)`` for outcomes. This is
the only place those are written; nothing reads them back (the JSON form is
:mod:`fogdip.codec`'s, and carries the values).

>>> from fogdip.fog.masked import HIDDEN, SUCCEEDED, FAILED, MaskedOrder, MaskedUnit, OrderKind
>>> from fogdip.fog.observation import Observation, SeenOrder, SeenUnit
>>> seen = Observation.build(
...     variant="fog-of-war", power="GERMANY", phase="F1901M", next_phase="F1901R",
...     visible={"BEL", "HOL"}, units=[SeenUnit("BEL", "GERMANY", "A"), SeenUnit("MUN", "FRANCE", "A")],
...     orders=[SeenOrder("GERMANY", MaskedOrder(OrderKind.MOVE, MaskedUnit("A", "RUH"), target="BEL"), SUCCEEDED),
...             SeenOrder("FRANCE", MaskedOrder(OrderKind.MOVE, MaskedUnit("A", HIDDEN), target="MUN"), FAILED)],
...     centers={"BER": "GERMANY"})
>>> print(observation_text(seen))
GERMANY, Fall 1901 movement (F1901M), fog-of-war
Orders:
  A RUH - BEL (ok)
  FRANCE: A ??? - MUN (fails)
Units seen:
  FRANCE: A MUN
  GERMANY: A BEL
Centres known:
  GERMANY: BER
Visible: BEL HOL
>>> order_text(MaskedOrder(OrderKind.SUPPORT, MaskedUnit("A", "SIL"), HIDDEN))
'A SIL S ???'
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from fogdip.engine.errors import PhaseError
from fogdip.engine.units import KIND_NAMES, SEASON_NAMES, Phase
from fogdip.fog.masked import Hidden, MaskedOrder, MaskedUnit, OrderKind, Place, SeenResult
from fogdip.fog.observation import Observation, SeenOrder

#: Written wherever a power may not know a part of what it observes.
UNKNOWN = "???"
#: The owner key used in JSON and text when a unit's or order's owner is hidden.
UNKNOWN_OWNER = "?"
#: The kind of notice that lists the phases a combined turn played (data ``phases``): it
#: heads the report rather than standing among the notices.
TURN_NOTICE = "turn"


def place_text(place: Place) -> str:
    return UNKNOWN if isinstance(place, Hidden) else place


def unit_text(unit: MaskedUnit) -> str:
    """``A PAR``; ``PAR`` where the type is not given; ``A ???`` where the place is hidden."""
    place = place_text(unit.location)
    return place if unit.kind is None else f"{unit.kind} {place}"


def order_text(order: MaskedOrder) -> str:
    """The order in standard notation, ``???`` for each hidden part."""
    kind = order.kind
    if kind is OrderKind.WAIVE:
        return "WAIVE"
    if kind is OrderKind.PEEK:
        return f"PAS {place_text(order.target or '')}"
    assert order.unit is not None, order
    head = unit_text(order.unit)
    if kind in (OrderKind.SUPPORT, OrderKind.CONVOY):
        verb = "S" if kind is OrderKind.SUPPORT else "C"
        other = order.other
        if other is None or isinstance(other, Hidden):
            return f"{head} {verb} {UNKNOWN}"
        named = f"{head} {verb} {unit_text(other)}"
        return named if order.target is None else f"{named} - {place_text(order.target)}"
    if kind is OrderKind.MOVE:
        return f"{head} - {place_text(order.target or '')}{' VIA' if order.via else ''}"
    if kind is OrderKind.RETREAT:
        return f"{head} R {place_text(order.target or '')}"
    if kind is OrderKind.ESPIONAGE:
        return f"{head} E {order.spied}"
    return f"{head}{_BARE[kind]}"


_BARE = MappingProxyType(
    {
        OrderKind.HOLD: " H",
        OrderKind.DISBAND: " D",
        OrderKind.BUILD: " B",
        OrderKind.DISBAND_NOW: " DB",
        OrderKind.PLACE: "",
    }
)


def seen_order_text(seen: SeenOrder) -> str:
    """The order's line without its owner or outcome: several orders given to one unit are
    written together, ``; `` between them, in the order they are held."""
    if not seen.conflicts:
        return order_text(seen.order)
    return "; ".join(order_text(order) for order in (seen.order, *seen.conflicts))


def result_mark(result: SeenResult | None) -> str:
    """``(ok)``, ``(fails)`` or nothing, as in the seeds' reports."""
    if result is None:
        return ""
    return "(ok)" if result.succeeded else "(fails)"


def result_words(result: SeenResult | None) -> list[str] | None:
    """The outcome as a report's JSON gives it: the result words (``[]``: success),
    ``["fails"]`` where only the failure is known, ``null`` where nothing is."""
    if result is None:
        return None
    if result.words is None:
        return ["fails"]
    return list(result.words)


def observation_text(seen: Observation) -> str:
    """The report as text: revealed orders with ``(ok)``/``(fails)``, the units seen, the
    centres known, the notices and the provinces in sight."""
    lines = [f"{seen.power}, {_phase_title(seen)}, {seen.variant}"]
    if seen.orders:
        lines.append("Orders:")
        lines.extend(f"  {order_line(order, seen.power)}" for order in seen.orders)
    elif not seen.opening:
        lines.append("Orders: none seen")
    if seen.units:
        lines.append("Units seen:")
        by_owner: dict[str, list[str]] = {}
        for unit in seen.units:
            by_owner.setdefault(unit.owner or "unknown", []).append(str(unit))
        lines.extend(f"  {owner}: {', '.join(units)}" for owner, units in sorted(by_owner.items()))
    if seen.centers:
        lines.append("Centres known:")
        by_owner = {}
        for center, owner in seen.centers:
            by_owner.setdefault(owner, []).append(center)
        lines.extend(f"  {owner}: {' '.join(centers)}" for owner, centers in sorted(by_owner.items()))
    # The phases a combined turn played are in its heading.
    told = [notice for notice in seen.notices if notice.kind != TURN_NOTICE]
    if told:
        lines.append("Notices:")
        lines.extend(f"  {notice.text}" for notice in told)
    lines.append(f"Visible: {' '.join(sorted(seen.visible)) or 'nothing'}")
    return "\n".join(lines)


def order_line(order: SeenOrder, viewer: str) -> str:
    """One line of a report: the owner (unless it is the viewer), the order, the outcome."""
    owner = "" if order.power == viewer else f"{order.power or 'unknown'}: "
    mark = result_mark(order.result)
    return f"{owner}{seen_order_text(order)}{' ' + mark if mark else ''}"


def turn_title(phases: Sequence[str]) -> str:
    """What a turn that played ``phases`` held, in words: each season's phases together.

    >>> turn_title(["W1901A", "S1902M"])
    'Winter 1901 adjustments and Spring 1902 movement'
    >>> turn_title(["F1901M", "F1901R", "W1901A"])
    'Fall 1901 movement and retreats, and Winter 1901 adjustments'
    """
    seasons: list[list[Phase]] = []
    for name in phases:
        phase = Phase.parse(name)
        if seasons and seasons[-1][0][:2] == phase[:2]:
            seasons[-1].append(phase)
        else:
            seasons.append([phase])
    parts = [
        f"{SEASON_NAMES[group[0].season]} {group[0].year} {' and '.join(KIND_NAMES[p.kind] for p in group)}"
        for group in seasons
    ]
    return ", and ".join(parts) if any(len(group) > 1 for group in seasons) else " and ".join(parts)


def _phase_title(seen: Observation) -> str:
    name = seen.phase
    if len(name) > 2 and name[0] == "S" and name[-1] == "S" and name[1:-1].isdigit():
        return f"setup before Spring {name[1:-1]} ({name})"
    try:
        phase = Phase.parse(name)
    except PhaseError:
        return name
    if seen.opening:
        return f"before {phase.long_name} ({seen.phase})"
    for notice in seen.notices_of(TURN_NOTICE):
        played = notice.get("phases")
        if isinstance(played, tuple) and played and all(isinstance(p, str) for p in played):
            try:
                return f"{turn_title([str(p) for p in played])} ({seen.phase})"
            except PhaseError:
                break  # a damaged notice: the turn's own name still heads the report
    return f"{phase.long_name} ({seen.phase})"
