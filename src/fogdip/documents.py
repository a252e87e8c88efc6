"""Phase documents and results, as ``fogdip adjudicate`` reads and writes them.

The forms and their reading and writing are :mod:`fogdip.codec`'s (one codec for every value
fogdip writes); this module names the ones a script driving the engine needs.

>>> state, rules, orders = state_from_document({"phase": "S1901M", "units": {"FRANCE": ["A PAR"]},
...     "centers": {"FRANCE": ["PAR"]}, "orders": {"FRANCE": ["A PAR - BUR"]}})
>>> state.unit_at("PAR"), orders
(Unit('FRANCE', 'A', 'PAR'), {'FRANCE': ['A PAR - BUR']})
>>> state_from_document({"phase": "W1901M", "units": {}, "centers": {}})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
fogdip.engine.errors.InvalidPosition: phase 'W1901M' does not exist: adjustments are held in Winter (W...A), ...
"""

from fogdip.codec.positions import (
    COMPLETED,
    VARIANTS,
    PhaseDocument,
    document_from_state,
    read_document,
    rules_from_spec,
    rules_to_spec,
    state_from_document,
    state_from_json,
)
from fogdip.codec.results import ResultDocument, result_document

__all__ = [
    "COMPLETED",
    "VARIANTS",
    "PhaseDocument",
    "ResultDocument",
    "document_from_state",
    "read_document",
    "result_document",
    "rules_from_spec",
    "rules_to_spec",
    "state_from_document",
    "state_from_json",
]
