"""Announcements a variant makes at the end of a turn, and the global ones fog reduces.

- Seed 004: each Winter, the centre totals of all seven powers, largest first, without whose.
- Seed 002: each Fall, the centres the power gained and lost that year (sent even when both
  lists are empty, so that its presence says nothing).
- Eliminations: in a fog game only the eliminated power is told; without fog, everyone.
- The end of the game: everyone is told how it ended.
"""

from __future__ import annotations

from fogdip.engine.judge import solo_winner
from fogdip.engine.outcomes import Resolution
from fogdip.engine.rules import Rules
from fogdip.fog.observation import Notice
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
