"""PLACEHOLDER: deadman (seed 002). To be written."""

from __future__ import annotations

from fogdip.fog.rules import FogRules


class DeadmanRules(FogRules):
    name = "deadman"
    seed = "002"
