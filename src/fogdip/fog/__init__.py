"""Fog: what each power sees and learns after each phase.

One :class:`~fogdip.fog.rules.FogRules` subclass per rule set, each a small module naming its
seed. :func:`get_fog_rules` finds one by preset name.

>>> sorted(FOG_RULES)
['deadman', 'diplomyopia', 'fog-1898', 'fog-of-war', 'sighting', 'standard']
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from fogdip.fog.deadman import DeadmanRules
from fogdip.fog.diplomyopia import DiplomyopiaRules
from fogdip.fog.fog_1898 import Fog1898Rules
from fogdip.fog.fog_of_war import FogOfWarRules
from fogdip.fog.knowledge import Ghost, Knowledge
from fogdip.fog.masked import FAILED, HIDDEN, SUCCEEDED, Hidden, MaskedOrder, MaskedUnit, OrderKind, SeenResult
from fogdip.fog.observation import Notice, Observation, SeenOrder, SeenUnit
from fogdip.fog.rules import NO_EVENTS, Events, FogOptions, FogRules
from fogdip.fog.sighting import SightingRules
from fogdip.fog.standard import StandardRules

FOG_RULES: Mapping[str, type[FogRules]] = MappingProxyType(
    {
        rules.name: rules
        for rules in (StandardRules, FogOfWarRules, SightingRules, DeadmanRules, DiplomyopiaRules, Fog1898Rules)
    }
)


def get_fog_rules(name: str, **options: Any) -> FogRules:
    """The rule set of a preset, with options overridden.

    >>> get_fog_rules("standard").name
    'standard'
    """
    try:
        cls = FOG_RULES[name]
    except KeyError:
        raise ValueError(f"unknown fog rules {name!r}: known rules are {', '.join(sorted(FOG_RULES))}") from None
    return cls(**options)


__all__ = [
    "FAILED",
    "FOG_RULES",
    "HIDDEN",
    "NO_EVENTS",
    "SUCCEEDED",
    "DeadmanRules",
    "DiplomyopiaRules",
    "Events",
    "Fog1898Rules",
    "FogOfWarRules",
    "FogOptions",
    "FogRules",
    "Ghost",
    "Hidden",
    "Knowledge",
    "MaskedOrder",
    "MaskedUnit",
    "Notice",
    "Observation",
    "OrderKind",
    "SeenOrder",
    "SeenResult",
    "SeenUnit",
    "SightingRules",
    "StandardRules",
    "get_fog_rules",
]
