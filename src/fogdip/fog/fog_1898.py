"""PLACEHOLDER: fog-1898 (seed 004). To be written."""

from __future__ import annotations

from fogdip.fog.rules import FogRules


class Fog1898Rules(FogRules):
    name = "fog-1898"
    seed = "004"
