"""The JSON Schemas of fogdip's documents, made from the codec's models.

They are exported to ``docs/schema/`` (``fogdip schema --write docs/schema``; a test checks
the committed files are current), for people writing clients and bots in other languages.
A game file refers to the others by file name.

>>> sorted(SCHEMAS)[:3]
['game-file', 'knowledge', 'phase-document']
>>> json_schema("knowledge")["title"]
'Knowledge'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel

from fogdip.codec.gamefiles import GameFileJSON
from fogdip.codec.observations import KnowledgeJSON, ObservationJSON
from fogdip.codec.positions import PhaseDocument
from fogdip.codec.results import ResolutionJSON, ResultDocument
from fogdip.codec.turns import TurnDocument
from fogdip.codec.views import PowerViewJSON

#: Each document, by the name of its schema file, with its title and what it is.
SCHEMAS: Mapping[str, tuple[type[BaseModel], str, str]] = MappingProxyType(
    {
        "phase-document": (
            PhaseDocument,
            "Phase document",
            "A position, and the orders for it: what `fogdip adjudicate` reads, and the `state` it returns.",
        ),
        "result-document": (
            ResultDocument,
            "Result document",
            "What `fogdip adjudicate` prints for one phase of the standard game.",
        ),
        "turn-document": (
            TurnDocument,
            "Turn document",
            "What `fogdip adjudicate` prints for a turn of a variant game, with each power's report.",
        ),
        "record": (
            ResolutionJSON,
            "Record",
            "One adjudicated phase in full (the engine's Resolution), lossless: orders as written and as normalised, outcomes and their reasons as values.",
        ),
        "report": (
            ObservationJSON,
            "Report",
            "What one power learns from one turn: visible provinces, units, orders (each with its values, hidden places null), centres and notices.",
        ),
        "knowledge": (
            KnowledgeJSON,
            "Knowledge",
            "What one power knows after its reports: last sightings of foreign units (ghosts) and last-known centre owners.",
        ),
        "power-view": (
            PowerViewJSON,
            "Power view",
            "One power's view of its game: its reports, knowledge, filed lines and, once revealed, the whole history.",
        ),
        "game-file": (GameFileJSON, "Game file", "A game as `fogdip gm` keeps it, with its schema number."),
    }
)


def json_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of the document ``name`` (a key of :data:`SCHEMAS`)."""
    model, title, description = SCHEMAS[name]
    schema = _refer(model.model_json_schema(by_alias=True))
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{name}.json",
        **schema,
        "title": title,
        "description": description,
    }


def _refer(schema: Any) -> Any:
    """Each ``{"x-document": "report.json"}`` as a reference to that schema file."""
    if isinstance(schema, dict):
        out = {key: _refer(value) for key, value in schema.items() if key != "x-document"}
        if "x-document" in schema:
            out["$ref"] = schema["x-document"]
        return out
    if isinstance(schema, list):
        return [_refer(value) for value in schema]
    return schema


def schema_text(name: str) -> str:
    return json.dumps(json_schema(name), indent=2, sort_keys=True) + "\n"


def write_schemas(folder: Path) -> list[Path]:
    """Write every schema into ``folder``; the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in SCHEMAS:
        path = folder / f"{name}.json"
        path.write_text(schema_text(name), encoding="utf-8")
        written.append(path)
    return written


__all__ = ["SCHEMAS", "json_schema", "schema_text", "write_schemas"]
