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

from collections.abc import Mapping
from typing import Any

from fogdip.codec.positions import invalid, state_from_document, type_name
from fogdip.codec.turns import _usage, options_of_document, position_document, position_from_document, turn_document
from fogdip.variants import Position, Variant
from fogdip.variants.setup import is_setup_phase

__all__ = ["adjudicate_document", "options_of_document", "position_document", "position_from_document", "turn_document"]


def adjudicate_document(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Play the turn a phase document describes; return the result with reports and the
    next turn's document."""
    if not isinstance(doc, Mapping):
        raise invalid(
            f'a phase document must be a JSON object with "phase", "units" and "centers", not {type_name(doc)}'
        )
    options = options_of_document(doc)
    phase = doc.get("phase")
    setup = isinstance(phase, str) and is_setup_phase(phase.strip().upper())
    if setup and options.setup == "standard":
        raise invalid(f"phase {phase!r} is a setup phase, but variant {options.name!r} has no setup; start from S1901M")
    readable = (
        dict(doc, variant="standard", phase=f"S{str(phase).strip()[1:-1]}M") if setup else dict(doc, variant="standard")
    )
    state, rules, orders = state_from_document(readable)
    variant = Variant(options, rules=rules)
    position = Position(state, setup_pending=setup, usage=_usage(doc.get("usage")))
    return turn_document(variant.play(position, orders), variant)
