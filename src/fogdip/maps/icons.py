"""What stands for a unit on a map, and the lettering: each unit's icon (its power's colour and
letter, its kind's shape), its title and its attributes for a page, and haloed text.

>>> _unit_data(DrawnUnit("STP/SC", "RUSSIA", "F"))
'data-unit="STP/SC" data-power="RUSSIA" data-type="F"'
"""

from __future__ import annotations

from html import escape

from fogdip.engine.units import SEASON_NAMES, Phase
from fogdip.maps import style
from fogdip.maps.scene import DrawnUnit

_UNIT_R = 12.0
_DISLODGED_OFFSET = (17.0, 13.0)


def _haloed(at: str, look: str, fill: str, text: str, halo: str, width: float, title: str = "") -> str:
    """Text with a halo so it reads on any ground: drawn twice, the halo under the letters
    (``paint-order`` would do it in one, but not every renderer honours it)."""
    hint = f"<title>{escape(title)}</title>" if title else ""
    return (
        f'<text {at} {look} fill="none" stroke="{halo}" stroke-width="{width}" stroke-linejoin="round">{text}</text>'
        f'<text {at} {look} fill="{fill}">{hint}{text}</text>'
    )


def _unit_data(unit: DrawnUnit) -> str:
    """A drawn unit's attributes for a page's script: what the map draws of it, and no more
    (no power or type where the viewer does not know it).

    >>> _unit_data(DrawnUnit("STP/SC", "RUSSIA", "F"))
    'data-unit="STP/SC" data-power="RUSSIA" data-type="F"'
    >>> _unit_data(DrawnUnit("BUR", None, None, last_seen="S1902M"))
    'data-unit="BUR" data-ghost="S1902M"'
    """
    out = [f'data-unit="{escape(unit.location)}"']
    if unit.power is not None:
        out.append(f'data-power="{escape(unit.power)}"')
    if unit.kind is not None:
        out.append(f'data-type="{escape(unit.kind)}"')
    if unit.dislodged:
        out.append('data-dislodged="true"')
    if unit.last_seen is not None:
        out.append(f'data-ghost="{escape(unit.last_seen)}"')
    return " ".join(out)


def _unit_title(unit: DrawnUnit) -> str:
    owner = unit.power.title() if unit.power is not None else "owner unknown"
    what = f"{unit.kind or '?'} {unit.location} ({owner})"
    if unit.dislodged:
        what += ", dislodged"
    if unit.last_seen is not None:
        what += f", last seen here in {_season(unit.last_seen)}; it may have moved"
    return what


def _season(phase: str) -> str:
    """``S1902M`` as *Spring 1902*.

    >>> _season("F1901R"), _season("odd")
    ('Fall 1901', 'odd')
    """
    try:
        parsed = Phase.parse(phase)
    except ValueError:
        return phase
    return f"{SEASON_NAMES[parsed.season]} {parsed.year}"


def _unit_icon(unit: DrawnUnit, x: float, y: float, powers: tuple[str, ...], *, title: bool = True) -> str:
    look = style.power_look(unit.power, powers)
    ghost = unit.last_seen is not None
    dash = ' stroke-dasharray="3 2"' if ghost else ""
    stroke = f'stroke="{style.OUTLINE}" stroke-width="1.6"{dash}'
    parts = [f'<g transform="translate({x:.1f} {y:.1f})"' + (' opacity="0.5"' if ghost else "") + ">"]
    if title:
        parts.append(f"<title>{escape(_unit_title(unit))}</title>")
    if unit.dislodged:
        parts.append(f'<circle r="16" fill="none" stroke="{style.FAILED}" stroke-width="2.2" stroke-dasharray="4 2"/>')
    letter = escape(look.letter)
    if unit.kind == "A":
        parts.append(f'<circle r="{_UNIT_R:.0f}" fill="{look.fill}" {stroke}/>')
        parts.append(f'<text y="4.5" font-size="12" fill="{look.ink}">{letter}</text>')
    elif unit.kind == "F":
        parts.append(f'<path d="M-2 -17V-5M-0.5 -16L9 -6H-0.5Z" fill="{look.fill}" {stroke}/>')
        parts.append(f'<path d="M-16 -4H16L10 9H-10Z" fill="{look.fill}" {stroke} stroke-linejoin="round"/>')
        parts.append(f'<text y="6.5" font-size="11" fill="{look.ink}">{letter}</text>')
    else:
        parts.append(f'<path d="M0 -13L13 0L0 13L-13 0Z" fill="{look.fill}" {stroke}/>')
        parts.append(f'<text y="4.5" font-size="12" fill="{look.ink}">{letter}</text>')
    parts.append("</g>")
    if ghost and unit.last_seen is not None:
        # The caption is not faded: it is what says the icon is a memory.
        caption = f"last seen {escape(_short_phase(unit.last_seen))}"
        parts.append(
            _haloed(
                f'x="{x:.1f}" y="{y + 25:.1f}"',
                'font-size="10" font-style="italic"',
                "#111111",
                caption,
                "#FFFFFF",
                3,
            )
        )
    return "".join(parts)


def _short_phase(phase: str) -> str:
    """``F1902M`` as ``F1902``, ``W1902A`` as ``W1902``: the season's main phase goes without
    saying (a retreat phase keeps its ``R``)."""
    return phase[:-1] if len(phase) == 6 and phase.endswith(("M", "A")) else phase
