"""Reading observations in tests as a player reads a report: through the report's own words.

The fog layer hands out values (:class:`~fogdip.fog.masked.MaskedOrder`,
:class:`~fogdip.fog.masked.SeenResult`); these helpers write them with the report's
renderer, so that tests can say ``"A ??? - SIL"`` and ``("fails",)`` as the seeds do.
"""

from __future__ import annotations

import json
from typing import Any

from fogdip.codec.observations import knowledge_to_json, notice_to_json, observation_to_json
from fogdip.fog.knowledge import Knowledge
from fogdip.fog.observation import Notice, Observation, SeenOrder
from fogdip.fog.report import observation_text, order_line, result_mark, result_words, seen_order_text


def text(order: SeenOrder) -> str:
    """The order's line: ``A ??? - SIL``."""
    return seen_order_text(order)


def words(order: SeenOrder) -> tuple[str, ...] | None:
    """What the report says of the outcome: the result words, ``("fails",)``, or ``None``."""
    found = result_words(order.result)
    return None if found is None else tuple(found)


def mark(order: SeenOrder) -> str:
    """``(ok)``, ``(fails)`` or ``""``."""
    return result_mark(order.result)


def line(order: SeenOrder, viewer: str) -> str:
    return order_line(order, viewer)


def texts(seen: Observation) -> list[str]:
    """Every order line of an observation, in its order."""
    return [text(order) for order in seen.orders]


def as_json(seen: Observation) -> dict[str, Any]:
    return observation_to_json(seen)


def as_bytes(seen: Observation) -> str:
    """The report as the bytes a power receives."""
    return json.dumps(observation_to_json(seen), sort_keys=True)


def report(seen: Observation) -> str:
    return observation_text(seen)


def notice_json(notice: Notice) -> dict[str, Any]:
    return notice_to_json(notice)


def knowledge_json(knowledge: Knowledge) -> dict[str, Any]:
    return knowledge_to_json(knowledge)
