"""Announcements a variant makes at the end of a turn, and the global ones fog reduces.

- Seed 004: each Winter, the centre totals of all seven powers, largest first, without whose.
- Seed 002: each Fall, the centres the power gained and lost that year (sent even when both
  lists are empty, so that its presence says nothing).
- Eliminations: in a fog game only the eliminated power is told; without fog, everyone.
- The end of the game: everyone is told how it ended.
- Before an adjustment turn, in the report the power reads when it files: how many units it
  may build, and where, or must remove ("Winter 1901: you may build 2 units"); where Winter is
  filed with the Fall orders (seed 001), that it is, and what the power owns and has now. Only
  the power's own centres and units decide it.
- A turn that played several phases lists them (a ``turn`` notice), and its report is headed
  with them: "Winter 1901 adjustments and Spring 1902 movement".

>>> from fogdip.variants import Position, Variant
>>> variant = Variant.named("fog-of-war")
>>> fall = Position.of({"FRANCE": ["A SPA", "A PAR"]}, "F1901R", centers={"PAR": "FRANCE", "MAR": "FRANCE", "BRE": "FRANCE"})
>>> [n.text for n in variant.play(fall, {}).observations["FRANCE"].notices_of("adjustments")]
['Winter 1901: you may build 2 units (free to build in: BRE, MAR)']
"""

from __future__ import annotations

from fogdip.engine.judge import solo_winner
from fogdip.engine.outcomes import Resolution
from fogdip.engine.rules import Rules
from fogdip.engine.state import GameState
from fogdip.fog.observation import Notice
from fogdip.fog.report import TURN_NOTICE, turn_title
from fogdip.variants.options import VariantOptions


def announcements(options: VariantOptions, rules: Rules, resolutions: list[Resolution], power: str) -> list[Notice]:
    """The announcements ``power`` receives after the turn made of ``resolutions``."""
    before, after = resolutions[0].before, resolutions[-1].after
    out: list[Notice] = []
    if options.announce_center_totals and any(r.before.phase.kind == "A" for r in resolutions):
        totals = sorted((after.center_count(p) for p in after.powers), reverse=True)
        out.append(
            Notice.make(
                "center-totals",
                f"Centre totals this Winter, largest first: {', '.join(map(str, totals))}",
                totals=totals,
            )
        )
    fall_over = any(r.before.phase.season == "F" for r in resolutions) and (
        after.completed or after.phase.season != "F"
    )
    if options.announce_center_changes and fall_over:
        gained = sorted(c for c, o in after.centers.items() if o == power and before.centers.get(c) != power)
        lost = sorted(c for c, o in before.centers.items() if o == power and after.centers.get(c) != power)
        out.append(
            Notice.make(
                "center-changes",
                f"This year you gained {', '.join(gained) or 'no centre'} and lost {', '.join(lost) or 'no centre'}",
                gained=gained,
                lost=lost,
            )
        )
    if len(resolutions) > 1:
        phases = tuple(resolution.phase for resolution in resolutions)
        out.append(Notice.make(TURN_NOTICE, f"This turn played {turn_title(phases)}", phases=phases))
    due = _adjustments_due(options, after, power)
    if due is not None:
        out.append(due)
    for other in after.powers:
        if before.is_eliminated(other) or not after.is_eliminated(other):
            continue
        if other == power:
            out.append(Notice.make("eliminated", "You have been eliminated", power=other))
        elif not options.fog_enabled:
            out.append(Notice.make("eliminated", f"{other} has been eliminated", power=other))
    if after.completed:
        winner = solo_winner(after, rules)
        if winner is not None:
            out.append(
                Notice.make(
                    "game-over",
                    f"The game is over: {winner} wins with {after.center_count(winner)} centres",
                    winner=winner,
                )
            )
        else:
            out.append(Notice.make("game-over", f"The game is over after {after.phase.long_name}: a draw", winner=None))
    return out


def _adjustments_due(options: VariantOptions, after: GameState, power: str) -> Notice | None:
    """What ``power`` reads before filing the next turn's adjustments, if it has some to file.
    Only its own centres and units count: a centre it owns in Winter never holds a foreign
    unit (centres change hands once the Fall is over), and no foreign unit is asked about."""
    if after.completed:
        return None
    phase = after.phase
    centers, units = after.center_count(power), len(after.units_of(power))
    if phase.kind == "M" and phase.season == "F" and options.fall_winter_combined:
        return Notice.make(
            "adjustments",
            f"Winter {phase.year}: builds and removals are filed with the Fall {phase.year} orders and counted once "
            f"the Fall is played; you own {_count(centers, 'centre')} and have {_count(units, 'unit')} now",
            winter=f"W{phase.year}A",
            centers=centers,
            units=units,
        )
    if phase.kind != "A":
        return None
    due = after.adjustment(power)
    them = "it" if abs(due) == 1 else "them"
    later = f"; file {them} with the Spring {phase.year + 1} orders" if options.winter_spring_combined else ""
    sites: tuple[str, ...] = ()
    if due > 0:
        own = {unit.province for unit in after.units_of(power)}
        homes = after.centers_of(power) if options.build_in_any_owned_center else after.homes.get(power, ())
        sites = tuple(sorted(c for c in homes if after.centers.get(c) == power and c not in own))
        where = "home centres" if not options.build_in_any_owned_center else "centres"
        text = f"you may build {_count(due, 'unit')}" + (
            f" (free to build in: {', '.join(sites)}){later}" if sites else f", but none of your {where} is free{later}"
        )
    elif due < 0:
        text = f"you must remove {_count(-due, 'unit')}{later}"
    else:
        text = "you neither build nor remove"
    return Notice.make(
        "adjustments",
        f"Winter {phase.year}: {text}",
        winter=str(phase),
        due=due,
        sites=sites,
        centers=centers,
        units=units,
    )


def _count(number: int, what: str) -> str:
    return f"{number} {what}{'' if number == 1 else 's'}"
