"""Checking orders when a player files them, before the turn is adjudicated.

Each line gets a verdict: accepted, or the reason it cannot be, saying how to fix it. Lines
are checked by the engine's own :class:`~fogdip.engine.validate.OrderChecker` under the
variant's rules: in a fog game these judge by the map alone (``Rules.legality="map"``), so
the check uses only what the filing power may know (its own units and centres, and the map)
and no reason reveals a foreign unit: a support of a unit that is not there is filed, and
fails at adjudication like any other order.

>>> from fogdip.variants import Variant
>>> variant = Variant.named("fog-of-war")
>>> position = variant.start()
>>> [(c.text, c.error) for c in check_lines(variant, position, "FRANCE", ["A PAR - BUR", "A PAR - NTH", "F KIE H"])]
[('A PAR - BUR', None), ('A PAR - NTH', 'an army cannot move to North Sea, a sea'), ('F KIE H', 'FRANCE has no unit in KIE')]
"""

from __future__ import annotations

from dataclasses import dataclass

from fogdip.engine.errors import FogdipError
from fogdip.engine.validate import OrderChecker
from fogdip.variants import setup as setups
from fogdip.variants.conditional import check_line
from fogdip.variants.espionage import DisbandNow, Espionage, Peek
from fogdip.variants.extra_orders import MovementExtras
from fogdip.variants.lines import Line, read_lines
from fogdip.variants.turn import Position, Variant


@dataclass(frozen=True, slots=True)
class LineCheck:
    """One filed line and its verdict (``error`` is ``None`` when accepted)."""

    number: int
    text: str
    error: str | None

    @property
    def ok(self) -> bool:
        return self.error is None


def check_lines(variant: Variant, position: Position, power: str, lines: list[str]) -> list[LineCheck]:
    """Check every line ``power`` files for the next turn of ``position``."""
    state = position.state
    if power not in state.powers:
        raise FogdipError(f"{power} is not a power of this game: use one of {', '.join(state.powers)}")
    if position.completed:
        raise FogdipError("the game is over; no more orders can be filed")
    if position.setup_pending:
        try:
            setups.choose_units(state, power, lines, variant.options.setup)
        except FogdipError as exc:
            reason = exc.reason
            return [LineCheck(i + 1, text, reason) for i, text in enumerate(lines)] or [LineCheck(0, "", reason)]
        return [LineCheck(i + 1, text, None) for i, text in enumerate(lines)]
    kinds = variant.turn_kinds(position)
    out = []
    for index, line in enumerate(read_lines(lines, kinds, state.board, variant.options)):
        out.append(LineCheck(index + 1, line.text, _check_line(variant, position, power, line, kinds)))
    return out


def _check_line(variant: Variant, position: Position, power: str, line: Line, kinds: tuple[str, ...]) -> str | None:
    """Why a line read for the next turn cannot be filed, or ``None``: the checks the turn
    itself makes when it is played (:meth:`Variant.play`), made now."""
    state, options = position.state, variant.options
    try:
        if line.kind != kinds[0] or line.conditional:
            check_line(line, state, power, options, variant.sight(position, power))
            return None
        if line.problem is not None:
            return line.problem
        if line.kind == "M" and isinstance(line.order, (Espionage, DisbandNow, Peek)):
            _extras, remaining, refused = MovementExtras.collect(state, {power: [line]}, options, position.usage)
            if refused:
                return str(refused[0].reason)
            if not remaining.get(power):
                return None
            text, order = remaining[power][0]
        else:
            text, order = line.written
        if line.kind == "A":
            state = variant.build_sites(state)
        # The engine's own check, by the variant's rules: in a fog game they judge by the map
        # alone, so no reason tells of a foreign unit.
        checked = OrderChecker(state, variant.rules).check(power, order, text)
        return None if checked.legal else str(checked.reason)
    except FogdipError as exc:
        return exc.reason
