"""How powers and places look on a map: colours colour-blind players can tell apart, a letter
for every power so that colour is never the only cue, and the map's own tints.

The power colours are Okabe and Ito's palette, chosen to stay distinct under the common forms
of colour blindness; each power also carries its letter on every unit and centre.

>>> look = power_look("FRANCE", ("AUSTRIA", "ENGLAND", "FRANCE"))
>>> look.letter, look.fill, look.ink
('F', '#56B4E9', '#000000')
>>> power_look(None, ()).letter
'?'
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True, slots=True)
class PowerLook:
    """A power's colour (``fill``), the colour written on it (``ink``), its letter and name."""

    fill: str
    ink: str
    letter: str
    name: str


_BLACK, _WHITE = "#000000", "#ffffff"

#: The standard powers' colours: Okabe–Ito, placed near the board's traditional colours.
_STANDARD = MappingProxyType(
    {
        "AUSTRIA": ("#D55E00", _WHITE),  # vermillion
        "ENGLAND": ("#0072B2", _WHITE),  # blue
        "FRANCE": ("#56B4E9", _BLACK),  # sky blue
        "GERMANY": ("#4D4D4D", _WHITE),  # dark grey
        "ITALY": ("#009E73", _WHITE),  # bluish green
        "RUSSIA": ("#CC79A7", _BLACK),  # reddish purple
        "TURKEY": ("#F0E442", _BLACK),  # yellow
    }
)
#: Colours for the powers of other maps, in order.
MORE_COLOURS = (
    ("#E69F00", _BLACK),
    ("#0072B2", _WHITE),
    ("#009E73", _WHITE),
    ("#CC79A7", _BLACK),
    ("#D55E00", _WHITE),
    ("#56B4E9", _BLACK),
    ("#F0E442", _BLACK),
    ("#4D4D4D", _WHITE),
)
#: The standard map's powers.
STANDARD_POWERS = tuple(_STANDARD)
#: An owner the viewer does not know.
UNKNOWN = PowerLook("#A6A6A6", _BLACK, "?", "unknown")

LAND = "#EFE7D2"
NEUTRAL_LAND = "#D8D3C6"
IMPASSABLE = "#CBC3B0"
WATER = "#BFDCEC"
COAST = "#4F7894"
BORDER = "#8C806A"
SEA_BORDER = "#86AECB"
LAND_LABEL = "#2B2B2B"
SEA_LABEL = "#2F5F80"
FAILED = "#D7191C"
OUTLINE = "#1E1E1E"


def power_look(power: str | None, powers: tuple[str, ...]) -> PowerLook:
    """How ``power`` looks on a map of ``powers`` (``None``: an owner not known)."""
    if power is None:
        return UNKNOWN
    colours = _STANDARD.get(power)
    if colours is None:
        colours = (
            MORE_COLOURS[powers.index(power) % len(MORE_COLOURS)] if power in powers else (UNKNOWN.fill, UNKNOWN.ink)
        )
    fill, ink = colours
    return PowerLook(fill, ink, _letter(power, powers), power.title())


def _letter(power: str, powers: tuple[str, ...]) -> str:
    """The power's initial, or its first two letters where another power shares its initial."""
    initial = power[:1].upper()
    if sum(1 for other in powers if other[:1].upper() == initial) > 1:
        return power[:2].title()
    return initial
