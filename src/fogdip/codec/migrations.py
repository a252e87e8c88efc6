"""Reading game files written by earlier fogdips: each older schema is brought up to the next.

Schema 2 kept each turn's result as a summary (``fogdip adjudicate``'s result document), not
the engine's records nor the position each turn reached: :func:`schema_2_to_3` plays the game
again from its start with the lines filed each turn, once, and keeps what schema 3 keeps (the
reports stay as they were sent).

Schema 1 (``"version": 1``, before reports carried their orders' values) kept each order a
power learned only as its report line (``A ??? - SIL``). :func:`schema_1_to_2` reads those
lines once, into the values schema 2 keeps beside them (``"masked"``). This reader knows only
the lines fogdip's own reports ever wrote; it serves old files and nothing else.

>>> from fogdip.fog.masked import HIDDEN
>>> order, conflicts = report_line("A ??? - SIL")
>>> order.unit.location is HIDDEN, order.target, conflicts
(True, 'SIL', ())
>>> report_line("A SIL S ???")[0].other is HIDDEN
True
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from fogdip.codec.observations import order_to_json
from fogdip.fog.masked import HIDDEN, Hidden, MaskedOrder, MaskedUnit, OrderKind, Place

#: The report line for a hidden part, as schema 1 wrote it.
_UNKNOWN = "???"
_BARE = MappingProxyType(
    {"H": OrderKind.HOLD, "D": OrderKind.DISBAND, "B": OrderKind.BUILD, "DB": OrderKind.DISBAND_NOW}
)


def schema_1_to_2(data: dict[str, Any]) -> dict[str, Any]:
    """A schema 1 game file as schema 2: every report's orders get their values. A report
    that cannot be read is left as it was, to be refused (in one line, naming its power)
    when that power's view is asked for."""
    out = copy.deepcopy(data)
    out.pop("version", None)
    out["schema"] = 2
    reports = [*(out.get("opening") or {}).values()]
    for turn in out.get("history") or []:
        if isinstance(turn, dict) and isinstance(turn.get("reports"), dict):
            reports.extend(turn["reports"].values())
    for report in reports:
        _add_values(report)
    return out


def schema_2_to_3(data: dict[str, Any]) -> dict[str, Any]:
    """A schema 2 game file as schema 3: each turn's engine records, the lines set aside and
    the position it reached, found by playing the game again from its start (refused with
    ``ValueError`` if a turn does not play again as it was played)."""
    from fogdip.codec.results import reason_to_json, resolution_to_json
    from fogdip.codec.turns import position_document, position_from_document

    out = copy.deepcopy(data)
    out["schema"] = 3
    history = out.get("history") or []
    if not isinstance(history, list) or not history:
        return out
    variant, _next = position_from_document(out["position"])
    position = variant.start()
    for turn in history:
        played = variant.play(position, {power: list(lines) for power, lines in (turn.get("orders") or {}).items()})
        if played.turn != turn.get("turn"):
            raise ValueError(f"turn {turn.get('turn')} plays again as {played.turn}")
        turn["resolutions"] = [resolution_to_json(resolution) for resolution in played.resolutions]
        turn["rejected"] = [
            {"power": r.power, "text": r.text, "reason": reason_to_json(r.reason)} for r in played.rejected
        ]
        turn["position"] = position_document(played.position, variant)
        turn.pop("result", None)
        position = played.position
    return out


def _add_values(report: object) -> None:
    if not isinstance(report, dict) or not isinstance(report.get("orders"), list):
        return
    orders = report["orders"]
    if all(isinstance(entry, dict) and "masked" in entry for entry in orders):
        return  # written by a fogdip that already kept the values
    try:
        read = [report_line(entry["order"]) for entry in orders]
    except (KeyError, TypeError, ValueError, IndexError):
        return
    for entry, (order, conflicts) in zip(orders, read, strict=True):
        entry["masked"] = order_to_json(order)
        if conflicts:
            entry["conflicts"] = [order_to_json(other) for other in conflicts]


def report_line(text: str) -> tuple[MaskedOrder, tuple[MaskedOrder, ...]]:
    """A schema 1 report line: the order, and the other orders its unit was given."""
    first, *others = (_order(part) for part in text.split("; "))
    return first, tuple(others)


def _place(word: str) -> Place:
    return HIDDEN if word == _UNKNOWN else word


def _unit(words: list[str]) -> tuple[MaskedUnit, list[str]]:
    if words[0] in ("A", "F"):
        return MaskedUnit("A" if words[0] == "A" else "F", _place(words[1])), words[2:]
    return MaskedUnit(None, _place(words[0])), words[1:]


def _order(text: str) -> MaskedOrder:
    words = text.split()
    if words == ["WAIVE"]:
        return MaskedOrder(OrderKind.WAIVE)
    if words[0] == "PAS":
        return MaskedOrder(OrderKind.PEEK, target=words[1])
    unit, rest = _unit(words)
    if not rest:
        return MaskedOrder(OrderKind.PLACE, unit)
    verb, rest = rest[0], rest[1:]
    read = _VERBS.get(verb)
    if read is None:
        raise ValueError(f"unknown order word {verb!r} in {text!r}")
    return read(unit, rest)


def _move(unit: MaskedUnit, rest: list[str]) -> MaskedOrder:
    return MaskedOrder(OrderKind.MOVE, unit, target=_place(rest[0]), via=rest[1:] == ["VIA"])


def _retreat(unit: MaskedUnit, rest: list[str]) -> MaskedOrder:
    return MaskedOrder(OrderKind.RETREAT, unit, target=_place(rest[0]))


def _espionage(unit: MaskedUnit, rest: list[str]) -> MaskedOrder:
    return MaskedOrder(OrderKind.ESPIONAGE, unit, spied=rest[0])


def _other(kind: OrderKind) -> Callable[[MaskedUnit, list[str]], MaskedOrder]:
    def read(unit: MaskedUnit, rest: list[str]) -> MaskedOrder:
        if rest == [_UNKNOWN]:
            return MaskedOrder(kind, unit, HIDDEN)
        other, after = _unit(rest)
        target: Place | Hidden | None = _place(after[1]) if after[:1] == ["-"] else None
        return MaskedOrder(kind, unit, other, target)

    return read


def _bare(kind: OrderKind) -> Callable[[MaskedUnit, list[str]], MaskedOrder]:
    return lambda unit, _rest: MaskedOrder(kind, unit)


_VERBS: Mapping[str, Callable[[MaskedUnit, list[str]], MaskedOrder]] = MappingProxyType(
    {
        "-": _move,
        "R": _retreat,
        "E": _espionage,
        "S": _other(OrderKind.SUPPORT),
        "C": _other(OrderKind.CONVOY),
        **{verb: _bare(kind) for verb, kind in _BARE.items()},
    }
)
