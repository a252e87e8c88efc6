"""PLACEHOLDER: diplomyopia (seed 003). To be written."""

from __future__ import annotations

from fogdip.fog.rules import FogRules


class DiplomyopiaRules(FogRules):
    name = "diplomyopia"
    seed = "003"
