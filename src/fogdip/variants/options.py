"""Variant options and the six presets: a variant is a named bundle of options that compose.

>>> preset("fog-1898").setup, preset("fog-1898").fog
('1898', 'fog-1898')
>>> options = compose("fog-1898", fog="diplomyopia")
>>> options.setup, options.fog, options.name
('1898', 'diplomyopia', 'fog-1898+fog=diplomyopia')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from fogdip.engine.errors import FogdipError

Setup = Literal["standard", "1898", "free"]
EspionageLimit = Literal["year", "season", "unlimited"]
DisbandTiming = Literal["before", "after"]
Press = Literal["full", "gunboat", "black", "none"]
Garrisons = Literal["none", "centers", "provinces"]


def _opt(default: Any, help: str) -> Any:
    return field(default=default, metadata={"help": help})


@dataclass(frozen=True)
class VariantOptions:
    """Every option a game can set. Presets are instances; ``compose`` overrides fields."""

    name: str = _opt("standard", "the preset this game was made from, with its overrides")
    map: str = _opt("standard", "the map played on")
    edition: str = _opt("2023", "rule edition for the DATC choices: 2000 or 2023")
    fog: str = _opt(
        "standard", "sight and reveal rules: standard, fog-of-war, sighting, deadman, diplomyopia or fog-1898"
    )
    setup: Setup = _opt(
        "standard",
        "starting position: standard, 1898 (one centre each, type chosen) or free (type and home centre chosen)",
    )
    hold_empty_retreats: bool = _opt(
        False, "hold every retreat season even when nobody is dislodged (seed 000), so its presence leaks nothing"
    )
    hold_empty_winters: bool = _opt(False, "hold every winter even when nobody adjusts, so its presence leaks nothing")
    fall_winter_combined: bool = _opt(
        False,
        "retreats and adjustments are filed ahead with the movement orders, Fall and Winter played as one turn (seed 001)",
    )
    winter_spring_combined: bool = _opt(
        False, "winter adjustments are filed with the next Spring's orders and played as one turn (seed 002)"
    )
    captures_any_season: bool = _opt(
        False, "a centre changes hands whenever it is taken, Spring included; the game can end after Spring (seed 003)"
    )
    garrisons: Garrisons = _opt(
        "none",
        "garrison reports of unoccupied provinces lost (seed 003): none, centers (supply centres lost) or provinces (every province the power last occupied)",
    )
    espionage: bool = _opt(
        False, "units may spy: 'F NTH E FRANCE' reveals that power's units within one space (seed 002)"
    )
    espionage_limit: EspionageLimit = _opt(
        "year", "how many espionage orders a power may give: one per year (seed 002), one per season, or unlimited"
    )
    peek: bool = _opt(
        False, "'PAS NTH' asks whether a province is occupied, one per power per movement season (seed 002)"
    )
    peek_from_year: int = _opt(1902, "the first year peeks may be made (seed 002: after 1901)")
    disband_in_movement: bool = _opt(False, "'F NTH DB' disbands a unit in a movement phase (seed 002)")
    disband_timing: DisbandTiming = _opt(
        "before",
        "before: a unit disbanded in movement leaves before the moves are resolved; after: it holds, then leaves",
    )
    build_in_any_owned_center: bool = _opt(
        False, "builds may be placed in any owned centre, not just home centres (seed 002)"
    )
    announce_center_totals: bool = _opt(
        False, "each Winter every power learns the seven centre totals, without whose (seed 004)"
    )
    announce_center_changes: bool = _opt(False, "each Fall a power is told the centres it gained and lost (seed 002)")
    conditional_orders: bool = _opt(False, "retreats and adjustments filed ahead may be conditional (seed 001)")
    press: Press = _opt(
        "full", "press policy: full (signed), gunboat (anonymous players), black (may claim any sender), none"
    )
    victory_centers: int = _opt(18, "centres needed to win outright")
    end_year: int | None = _opt(None, "if set, the game ends in a draw after this year's last phase")
    reveal_at_end: bool = _opt(True, "when the game ends, the full history is revealed to everyone")

    def with_changes(self, **changes: Any) -> VariantOptions:
        known = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise FogdipError(f"unknown variant option {', '.join(unknown)}: see 'fogdip variants' for the options")
        changed = dataclasses.replace(self, **changes)
        changed.check()
        return changed

    def check(self) -> None:
        """Raise :class:`FogdipError` naming the first option whose value is not allowed."""
        for option, allowed in option_choices().items():
            value = getattr(self, option)
            if value not in allowed:
                raise FogdipError(f"option {option!r} cannot be {value!r}: use one of {', '.join(map(str, allowed))}")
        if self.victory_centers < 1:
            raise FogdipError(f"option 'victory_centers' must be at least 1, not {self.victory_centers}")
        if self.end_year is not None and self.end_year < 1:
            raise FogdipError(f"option 'end_year' must be a year, not {self.end_year}")

    def schedule_leaks(self) -> list[str]:
        """What the schedule tells every power under fog, where these options let whether a
        season is played depend on what happened out of sight (every power learns which turn
        comes next). The presets have none; ``fogdip gm new`` warns of any.

        >>> preset("fog-of-war").schedule_leaks()
        []
        >>> len(compose("fog-of-war", hold_empty_winters=False).schedule_leaks())
        1
        """
        if not self.fog_enabled:
            return []
        out = []
        if not (self.hold_empty_retreats or self.fall_winter_combined):
            out.append(
                "whether a retreat season is played tells every power that a unit was dislodged somewhere: "
                "set hold_empty_retreats=true (or fall_winter_combined=true)"
            )
        if not (self.hold_empty_winters or self.winter_spring_combined or self.fall_winter_combined):
            out.append(
                "whether a Winter is played tells every power that someone has a build or removal due: "
                "set hold_empty_winters=true (or combine winters with another season)"
            )
        return out

    @property
    def fog_enabled(self) -> bool:
        return self.fog != "standard"

    def as_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def option_choices() -> dict[str, tuple[str, ...]]:
    """The allowed values of every option that takes a name."""
    from fogdip.engine.map import available_maps
    from fogdip.engine.rules import EDITIONS
    from fogdip.fog import FOG_RULES

    return {
        "map": tuple(available_maps()),
        "edition": tuple(sorted(EDITIONS)),
        "fog": tuple(sorted(FOG_RULES)),
        "setup": ("standard", "1898", "free"),
        "espionage_limit": ("year", "season", "unlimited"),
        "disband_timing": ("before", "after"),
        "press": ("full", "gunboat", "black", "none"),
    }


def option_help() -> dict[str, str]:
    """Every option with its one-line explanation, for ``fogdip variants``."""
    return {f.name: f.metadata["help"] for f in dataclasses.fields(VariantOptions) if f.name != "name"}


_BASE = VariantOptions()

PRESETS: Mapping[str, VariantOptions] = MappingProxyType(
    {
        "standard": _BASE,
        "fog-of-war": _BASE.with_changes(
            name="fog-of-war",
            fog="fog-of-war",
            hold_empty_retreats=True,
            hold_empty_winters=True,
        ),
        "sighting": _BASE.with_changes(
            name="sighting",
            fog="sighting",
            fall_winter_combined=True,
            conditional_orders=True,
        ),
        "deadman": _BASE.with_changes(
            name="deadman",
            fog="deadman",
            setup="free",
            espionage=True,
            peek=True,
            disband_in_movement=True,
            build_in_any_owned_center=True,
            winter_spring_combined=True,
            announce_center_changes=True,
            hold_empty_retreats=True,
        ),
        "diplomyopia": _BASE.with_changes(
            name="diplomyopia",
            fog="diplomyopia",
            captures_any_season=True,
            hold_empty_retreats=True,
            hold_empty_winters=True,
            garrisons="provinces",
        ),
        "fog-1898": _BASE.with_changes(
            name="fog-1898",
            fog="fog-1898",
            setup="1898",
            announce_center_totals=True,
            press="black",
            hold_empty_retreats=True,
            hold_empty_winters=True,
        ),
    }
)

PRESET_SUMMARIES: Mapping[str, str] = MappingProxyType(
    {
        "standard": "the standard game, no fog",
        "fog-of-war": "seed 000: units see adjacent spaces as they move, cities see themselves; retreat seasons always held",
        "sighting": "seed 001: a foreign unit is seen only from a space one legal move away; Fall and Winter combined, retreats and adjustments filed ahead, conditionally",
        "deadman": "seed 002: blind; espionage, peek-a-sneak, disband in movement, build in any owned centre, free setup, Winter and Spring combined",
        "diplomyopia": "seed 003: sight of adjacent provinces; what a unit learns depends on its order; garrison reports; captures in any season",
        "fog-1898": "seed 004: the 1898 start, own centres and units see their neighbours, orders revealed with ???, black press, anonymous centre totals each Winter",
    }
)


def preset(name: str) -> VariantOptions:
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        raise FogdipError(f"unknown variant {name!r}: known presets are {', '.join(sorted(PRESETS))}") from None


def compose(name: str, **overrides: Any) -> VariantOptions:
    """A preset with some options changed; the name records the changes (an override that
    keeps the preset's value changes nothing, so the name of a game read back from its file is
    the name it was created with)."""
    base = preset(name)
    if not overrides:
        return base
    changed = base.with_changes(**overrides)  # checks every override
    label = base.name + "".join(
        f"+{key}={value}" for key, value in sorted(overrides.items()) if getattr(base, key) != value
    )
    return changed.with_changes(name=label)
