"""Seed 002's extra orders: espionage (``F NTH E FRANCE``), peek-a-sneak (``PAS NTH``) and
disband in movement (``F NTH DB``). INTERFACE STUB: to be implemented."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fogdip.engine.outcomes import RejectedOrder, Resolution
from fogdip.engine.state import GameState
from fogdip.fog.rules import Events
from fogdip.variants.options import VariantOptions


@dataclass
class MovementExtras:
    """The extra orders filed for one movement phase, pulled out of the powers' order lists.

    Life cycle, driven by :mod:`fogdip.variants.turn`:
    1. :meth:`collect` reads every power's order texts, takes out the extra orders (checking
       each against the options and ``usage``), and returns the texts left for the engine (an
       espionage order becomes a hold of its unit) plus the rejected extra orders.
    2. :meth:`before_resolution` returns the state the engine adjudicates (units disbanded
       "before" are gone).
    3. :meth:`after_resolution` takes the engine's record and returns it adjusted (units
       disbanded "after" removed from ``after``) with the :class:`Events` for each power:
       own order lines for the extra orders with their results, espionage sightings,
       spied-on notices, peek answers.
    4. :meth:`usage_after` returns the updated usage counters (e.g. espionage per year).
    """

    options: VariantOptions
    data: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def collect(
        cls, state: GameState, orders: Mapping[str, list[str]], options: VariantOptions, usage: Mapping[str, Any]
    ) -> tuple[MovementExtras, dict[str, list[str]], list[RejectedOrder]]:
        raise NotImplementedError

    def before_resolution(self, state: GameState) -> GameState:
        raise NotImplementedError

    def after_resolution(self, resolution: Resolution) -> tuple[Resolution, Events]:
        raise NotImplementedError

    def usage_after(self, usage: Mapping[str, Any], state: GameState) -> dict[str, Any]:
        raise NotImplementedError
