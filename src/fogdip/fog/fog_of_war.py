"""PLACEHOLDER: fog-of-war (seed 000). To be written."""

from __future__ import annotations

from fogdip.fog.rules import FogRules


class FogOfWarRules(FogRules):
    name = "fog-of-war"
    seed = "000"
