"""Adjudicating phase documents under their variant: the engine room of ``fogdip adjudicate``.

A phase document may name a preset (``"variant": "fog-1898"``) and override its options
(``"options": {"end_year": 1910}``). The turn is played by the variant's schedule, with its
extra orders and fog, and the result carries each power's report under ``"reports"``. The
document of the next turn comes back under ``"state"``, carrying ``"variant"``, ``"options"``
and ``"usage"`` (the variant's counters, such as espionage used this year) so that feeding it
back plays the game on.

>>> doc = {"phase": "S1901M", "units": {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]},
...        "centers": {"FRANCE": ["PAR"], "GERMANY": ["MUN"]},
...        "orders": {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]}}
>>> result = adjudicate_document(doc)
>>> result["results"], result["state"]["phase"]
({'A PAR': ['bounce'], 'A MUN': ['bounce']}, 'F1901M')
>>> order = result["reports"]["FRANCE"]["orders"][0]
>>> order["power"], order["order"], order["result"]
('FRANCE', 'A PAR - BUR', ['bounce'])
>>> order["masked"]
{'kind': 'move', 'unit': {'kind': 'A', 'location': 'PAR'}, 'target': 'BUR'}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from fogdip.codec.observations import observation_to_json
from fogdip.codec.positions import _fail, _type_name, document_from_state, state_from_document
from fogdip.codec.results import result_document
from fogdip.engine.errors import FogdipError
from fogdip.engine.rules import Rules
from fogdip.variants import PRESETS, Position, TurnResult, Variant, VariantOptions, compose
from fogdip.variants.setup import is_setup_phase, setup_phase_name


def adjudicate_document(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Play the turn a phase document describes; return the result with reports and the
    next turn's document."""
    if not isinstance(doc, Mapping):
        raise _fail(
            f'a phase document must be a JSON object with "phase", "units" and "centers", not {_type_name(doc)}'
        )
    options = options_of_document(doc)
    phase = doc.get("phase")
    setup = isinstance(phase, str) and is_setup_phase(phase.strip().upper())
    if setup and options.setup == "standard":
        raise _fail(f"phase {phase!r} is a setup phase, but variant {options.name!r} has no setup; start from S1901M")
    readable = (
        dict(doc, variant="standard", phase=f"S{str(phase).strip()[1:-1]}M") if setup else dict(doc, variant="standard")
    )
    state, rules, orders = state_from_document(readable)
    variant = Variant(options, rules=rules)
    position = Position(state, setup_pending=setup, usage=_usage(doc.get("usage")))
    return turn_document(variant.play(position, orders), variant)


def options_of_document(doc: Mapping[str, Any]) -> VariantOptions:
    """The variant options a document names: a preset and its overrides."""
    name = doc.get("variant", "standard")
    if not isinstance(name, str):
        raise _fail(f'"variant" must be a string such as "standard", not {_type_name(name)}')
    key = name.strip().lower()
    if key not in PRESETS:
        raise _fail(f"unknown variant {name!r}: known variants are {', '.join(sorted(PRESETS))}")
    overrides = doc.get("options")
    if overrides is None:
        overrides = {}
    if not isinstance(overrides, Mapping):
        raise _fail(f'"options" must be an object such as {{"end_year": 1910}}, not {_type_name(overrides)}')
    fields = {f.name: f for f in dataclasses.fields(VariantOptions)}
    base = PRESETS[key]
    for option, value in overrides.items():
        if option not in fields or option == "name":
            raise _fail(f"unknown option {option!r}: run 'fogdip variants' to list the options")
        default = getattr(base, option)
        if not _same_type(value, default, option):
            raise _fail(f"option {option!r} must be {_kind(default, option)}, not {_type_name(value)}")
    try:
        return compose(key, **dict(overrides))
    except FogdipError as exc:
        raise _fail(str(exc)) from None


def turn_document(played: TurnResult, variant: Variant) -> dict[str, Any]:
    """The result of one played turn as plain data: the result fields of its first phase,
    ``"then"`` with those of the later phases of a combined turn, ``"reports"`` and
    ``"state"``."""
    rules = variant.rules
    rejected = [{"power": r.power, "order": r.text, "reason": str(r.reason)} for r in played.rejected]
    if played.resolutions:
        result = result_document(played.resolutions[0], rules)
        later = [result_document(r, rules) for r in played.resolutions[1:]]
        for part in later:
            part.pop("state")
        if later:
            result["then"] = later
        result["rejected"] = result["rejected"] + rejected
    else:
        units: dict[str, list[str]] = {str(u): [] for u in played.position.state.units.values()}
        result = {
            "phase": played.turn,
            "results": units,
            "reasons": {},
            "outcomes": {},
            "orders": {},
            "powers": {},
            "waives": {},
            "rejected": rejected,
            "dislodged": {},
            "skipped": [],
        }
    result["phase"] = played.turn
    result["state"] = position_document(played.position, variant)
    result["reports"] = {power: observation_to_json(seen) for power, seen in sorted(played.observations.items())}
    return result


def position_document(position: Position, variant: Variant, rules: Rules | None = None) -> dict[str, Any]:
    """The phase document of the next turn of a variant game (without orders)."""
    doc = document_from_state(position.state, rules or variant.rules)
    base = variant.options.name.partition("+")[0]
    doc["variant"] = base
    overrides = {
        f.name: getattr(variant.options, f.name)
        for f in dataclasses.fields(VariantOptions)
        if f.name != "name" and getattr(variant.options, f.name) != getattr(PRESETS[base], f.name)
    }
    if overrides:
        doc["options"] = overrides
    if position.usage:
        doc["usage"] = dict(position.usage)
    if position.setup_pending:
        doc["phase"] = setup_phase_name(position.state.board)
    return doc


def _usage(value: object) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise _fail(f'"usage" must be an object as returned in "state", not {_type_name(value)}')
    return dict(value)


def _same_type(value: object, default: object, option: str) -> bool:
    if option == "end_year":
        return value is None or (isinstance(value, int) and not isinstance(value, bool))
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, str)


def _kind(default: object, option: str) -> str:
    if option == "end_year":
        return "a year or null"
    if isinstance(default, bool):
        return "true or false"
    if isinstance(default, int):
        return "a whole number"
    return "a string"


def position_from_document(doc: Mapping[str, Any]) -> tuple[Variant, Position]:
    """The variant and position a turn document (as returned under ``"state"``) describes."""
    if not isinstance(doc, Mapping):
        raise _fail(f"a phase document must be a JSON object, not {_type_name(doc)}")
    options = options_of_document(doc)
    phase = doc.get("phase")
    setup = isinstance(phase, str) and is_setup_phase(phase.strip().upper())
    readable = dict(doc, variant="standard", orders={})
    if setup:
        readable["phase"] = f"S{str(phase).strip()[1:-1]}M"
    if isinstance(phase, str) and phase.strip().upper() == "COMPLETED":
        readable["phase"] = doc.get("ended_in", "S1901M")
    state, rules, _orders = state_from_document(readable)
    if isinstance(phase, str) and phase.strip().upper() == "COMPLETED":
        state = state.with_changes(completed=True)
    return Variant(options, rules=rules), Position(state, setup_pending=setup, usage=_usage(doc.get("usage")))
