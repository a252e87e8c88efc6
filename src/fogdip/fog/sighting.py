"""PLACEHOLDER: sighting (seed 001). To be written."""

from __future__ import annotations

from fogdip.fog.rules import FogRules


class SightingRules(FogRules):
    name = "sighting"
    seed = "001"
