"""Errors reading fogdip's JSON: one line that says what is wrong, where, and how to fix it.

>>> from pydantic import BaseModel, ValidationError
>>> class Doc(BaseModel):
...     phase: str
>>> try:
...     Doc.model_validate({"phase": 1901})
... except ValidationError as exc:
...     print(explain(exc, "game.json"))
game.json: "phase": Input should be a valid string (found 1901)
"""

from __future__ import annotations

from pydantic import ValidationError

from fogdip.engine.errors import FogdipError


class CodecError(FogdipError):
    """A JSON document that does not have the form fogdip writes."""


def explain(exc: ValidationError, where: str) -> CodecError:
    """The first problem Pydantic found, as one line naming the field; the count of others."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    path = "".join(f"[{part}]" if isinstance(part, int) else f'."{part}"' for part in first["loc"]).lstrip(".")
    found = first.get("input")
    shown = "" if first["type"] == "missing" else f" (found {_short(found)})"
    more = f"; and {len(errors) - 1} more problem(s)" if len(errors) > 1 else ""
    field = f"{path}: " if path else ""
    return CodecError(f"{where}: {field}{first['msg']}{shown}{more}")


def _short(value: object) -> str:
    text = repr(value) if isinstance(value, str) else _json_like(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _json_like(value: object) -> str:
    import json

    try:
        return json.dumps(value, sort_keys=True)
    except (TypeError, ValueError):
        return repr(value)
