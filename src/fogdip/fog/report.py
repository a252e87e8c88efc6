"""Rendering an observation: the JSON report and the text report in the seeds' style.

>>> from fogdip.fog.observation import Observation, SeenOrder, SeenUnit
>>> seen = Observation.build(
...     variant="fog-of-war", power="GERMANY", phase="F1901M", next_phase="F1901R",
...     visible={"BEL", "HOL"}, units=[SeenUnit("BEL", "GERMANY", "A"), SeenUnit("MUN", "FRANCE", "A")],
...     orders=[SeenOrder("GERMANY", "A RUH - BEL", ()), SeenOrder("FRANCE", "A BUR - MUN", ("fails",))],
...     centers={"BER": "GERMANY"})
>>> print(observation_text(seen))
GERMANY, Fall 1901 movement (F1901M), fog-of-war
Orders:
  A RUH - BEL (ok)
  FRANCE: A BUR - MUN (fails)
Units seen:
  FRANCE: A MUN
  GERMANY: A BEL
Centres known:
  GERMANY: BER
Visible: BEL HOL
>>> observation_json(seen)["units"]
{'FRANCE': ['A MUN'], 'GERMANY': ['A BEL']}
"""

from __future__ import annotations

from fogdip.engine.errors import PhaseError
from fogdip.engine.units import Phase
from fogdip.fog.observation import Observation, SeenOrder

#: The owner key used in JSON and text when a unit's or order's owner is hidden.
UNKNOWN_OWNER = "?"


def observation_json(seen: Observation) -> dict[str, object]:
    """The report as JSON: the fields `fogdip adjudicate` documents, and ``text``."""
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
        "orders": [
            {"power": order.power, "order": order.text, "result": None if order.result is None else list(order.result)}
            for order in seen.orders
        ],
        "centers": dict(sorted(centers.items())),
        "notices": [notice.as_json() for notice in seen.notices],
        "opening": seen.opening,
        "text": observation_text(seen),
    }


def observation_text(seen: Observation) -> str:
    """The report as text: revealed orders with ``(ok)``/``(fails)``, the units seen, the
    centres known, the notices and the provinces in sight."""
    lines = [f"{seen.power}, {_phase_title(seen)}, {seen.variant}"]
    if seen.orders:
        lines.append("Orders:")
        lines.extend(f"  {_order_line(order, seen.power)}" for order in seen.orders)
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
    if seen.notices:
        lines.append("Notices:")
        lines.extend(f"  {notice.text}" for notice in seen.notices)
    lines.append(f"Visible: {' '.join(sorted(seen.visible)) or 'nothing'}")
    return "\n".join(lines)


def _order_line(order: SeenOrder, viewer: str) -> str:
    owner = "" if order.power == viewer else f"{order.power or 'unknown'}: "
    mark = f" {order.mark}" if order.mark else ""
    return f"{owner}{order.text}{mark}"


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
    return f"{phase.long_name} ({seen.phase})"
