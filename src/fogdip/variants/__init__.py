"""Variants: the seed presets as bundles of options, and playing them turn by turn.

>>> sorted(PRESETS)
['deadman', 'diplomyopia', 'fog-1898', 'fog-of-war', 'sighting', 'standard']
"""

from fogdip.variants.options import PRESET_SUMMARIES, PRESETS, VariantOptions, compose, option_help, preset
from fogdip.variants.turn import COMPLETED, Position, TurnResult, Variant

__all__ = [
    "COMPLETED",
    "PRESETS",
    "PRESET_SUMMARIES",
    "Position",
    "TurnResult",
    "Variant",
    "VariantOptions",
    "compose",
    "option_help",
    "preset",
]
