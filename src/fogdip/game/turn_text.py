"""The game master's report of a played turn, as text: every order of every power with its
result and why, the lines set aside, who was dislodged, and what comes next.

>>> from fogdip.game.service import Game
>>> game = Game.create("standard")
>>> _ = game.file("FRANCE", ["A PAR - BUR"]); _ = game.file("GERMANY", ["A MUN - BUR"])
>>> _ = game.adjudicate()
>>> text = turn_text(game.record.history[-1])
>>> print(text.splitlines()[0])
Spring 1901 movement (S1901M): the whole turn
>>> [line for line in text.splitlines() if "BUR" in line]
['  FRANCE: A PAR - BUR: bounced: 1 against 1 with A MUN - BUR', '  GERMANY: A MUN - BUR: bounced: 1 against 1 with A PAR - BUR']
"""

from __future__ import annotations

from fogdip.engine.outcomes import Outcome, Resolution
from fogdip.engine.units import Phase
from fogdip.variants.record import TurnRecord


def turn_text(turn: TurnRecord) -> str:
    """Every order of the turn and its result, phase by phase, for the game master."""
    lines = [f"{_title(turn.turn)}: the whole turn"]
    if turn.rejected:
        lines.append("Set aside before adjudication:")
        lines.extend(f"  {r.power}: {r.text}: {r.reason}" for r in turn.rejected)
    if not turn.resolutions:
        lines.append("Units placed:")
        for unit in sorted(turn.position.state.units.values(), key=lambda u: (u.power, u.province)):
            lines.append(f"  {unit.power}: {unit}")
    for index, resolution in enumerate(turn.resolutions):
        if index:
            lines.append(_title(str(resolution.before.phase)) + ":")
        lines.extend(_orders(resolution))
    state = turn.position.state
    lines.append("The game is over." if state.completed else f"Next: {_title(turn.position.name)}.")
    centers: dict[str, int] = {}
    for owner in state.centers.values():
        centers[owner] = centers.get(owner, 0) + 1
    lines.append("Supply centres: " + ", ".join(f"{power} {centers.get(power, 0)}" for power in state.powers))
    return "\n".join(lines)


def _orders(resolution: Resolution) -> list[str]:
    out = []
    for result in sorted(resolution.orders, key=lambda r: (r.power, str(r.order))):
        if result.unit is None and result.order.kind == "waive":
            words = "waived" if result.outcome == Outcome.WAIVED else str(result.reason or "refused")
            out.append(f"  {result.power}: WAIVE: {words}")
            continue
        said = "ok" if result.reason is None else str(result.reason)
        mark = " (default)" if result.defaulted else ""
        out.append(f"  {result.power}: {result.text or result.order}{mark}: {said}")
    for rejected in resolution.rejected:
        out.append(f"  {rejected.power}: {rejected.text}: set aside: {rejected.reason}")
    before = resolution.before
    for province, origin in sorted(resolution.dislodged.items()):
        if province in before.units:
            out.append(f"  dislodged: {before.units[province]} (attacked from {origin})")
    for unit in resolution.disbanded:
        out.append(f"  disbanded, with nowhere to retreat: {unit.power} {unit}")
    return out


def _title(name: str) -> str:
    try:
        return f"{Phase.parse(name).long_name} ({name})"
    except ValueError:
        return name


__all__ = ["turn_text"]
