"""The documents of variant games: a phase document naming a preset and its option overrides,
the next turn's document (``"state"``), and a played turn's result with every power's report.

>>> from fogdip.variants import Variant
>>> variant = Variant.named("fog-of-war", end_year=1910)
>>> doc = position_document(variant.start(), variant)
>>> doc["variant"], doc["options"], doc["phase"]
('fog-of-war', {'end_year': 1910}, 'S1901M')
>>> read_variant, position = position_from_document(doc)
>>> read_variant.options == variant.options, position.state == variant.start().state
(True, True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from pydantic import ConfigDict, Field

from fogdip.codec.observations import ObservationJSON, observation_to_json
from fogdip.codec.positions import document_from_state, invalid, state_from_document, type_name
from fogdip.codec.results import ResultDocument, result_document
from fogdip.engine.errors import FogdipError
from fogdip.engine.rules import Rules
from fogdip.variants import PRESETS, Position, TurnResult, Variant, VariantOptions, compose
from fogdip.variants.record import TurnRecord
from fogdip.variants.setup import is_setup_phase, setup_phase_name


class TurnDocument(ResultDocument):
    """What ``fogdip adjudicate`` prints for a variant game's turn: the result of its first
    phase, ``then`` the results of the later phases a combined turn plays (without their
    ``state``), and each power's report."""

    model_config = ConfigDict(extra="allow", frozen=True)

    then: list[ResultDocument] = Field(default_factory=list)
    reports: dict[str, ObservationJSON] = Field(default_factory=dict)


def options_of_document(doc: Mapping[str, Any]) -> VariantOptions:
    """The variant options a document names: a preset and its overrides."""
    name = doc.get("variant", "standard")
    if not isinstance(name, str):
        raise invalid(f'"variant" must be a string such as "standard", not {type_name(name)}')
    key = name.strip().lower()
    if key not in PRESETS:
        raise invalid(f"unknown variant {name!r}: known variants are {', '.join(sorted(PRESETS))}")
    overrides = doc.get("options")
    if overrides is None:
        overrides = {}
    if not isinstance(overrides, Mapping):
        raise invalid(f'"options" must be an object such as {{"end_year": 1910}}, not {type_name(overrides)}')
    fields = {f.name: f for f in dataclasses.fields(VariantOptions)}
    base = PRESETS[key]
    for option, value in overrides.items():
        if option not in fields or option == "name":
            raise invalid(f"unknown option {option!r}: run 'fogdip variants' to list the options")
        default = getattr(base, option)
        if not _same_type(value, default, option):
            raise invalid(f"option {option!r} must be {_kind(default, option)}, not {type_name(value)}")
    try:
        return compose(key, **dict(overrides))
    except FogdipError as exc:
        raise invalid(str(exc)) from None


def turn_document(played: TurnResult, variant: Variant, *, reports: bool = True) -> dict[str, Any]:
    """The result of one played turn as plain data: the result fields of its first phase,
    ``"then"`` with those of the later phases of a combined turn, ``"reports"`` (unless not
    ``reports``) and ``"state"``."""
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
    if reports:
        result["reports"] = {power: observation_to_json(seen) for power, seen in sorted(played.observations.items())}
    return result


def record_document(turn: TurnRecord, variant: Variant) -> dict[str, Any]:
    """The game master's record of a played turn (as :func:`turn_document` gives it, without
    ``reports`` and ``state``)."""
    result = turn_document(turn.as_played(), variant, reports=False)
    result.pop("state")
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
        raise invalid(f'"usage" must be an object as returned in "state", not {type_name(value)}')
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
        raise invalid(f"a phase document must be a JSON object, not {type_name(doc)}")
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
