"""Checking orders when a player files them, before the turn is adjudicated.

Each line gets a verdict: accepted, or the reason it cannot be, saying how to fix it. The
verdicts are the screening :meth:`~fogdip.variants.Variant.play` plays
(:mod:`fogdip.variants.screening`): the same check, in the same order, whoever files (the
API, ``fogdip gm orders``, a web page). In a fog game orders are judged by the map alone
(``Rules.legality="map"``), so the check uses only what the filing power may know (its own
units and centres, and the map) and no reason reveals a foreign unit: a support of a unit that
is not there is filed, and fails at adjudication like any other order.

>>> from fogdip.variants import Variant
>>> variant = Variant.named("fog-of-war")
>>> position = variant.start()
>>> [(c.text, c.error) for c in check_lines(variant, position, "FRANCE", ["A PAR - BUR", "A PAR - NTH", "F KIE H"])]
[('A PAR - BUR', None), ('A PAR - NTH', 'an army cannot move to North Sea, a sea'), ('F KIE H', 'FRANCE has no unit in KIE')]
"""

from __future__ import annotations

from collections.abc import Sequence

from fogdip.variants.screening import Verdict
from fogdip.variants.turn import Position, Variant

#: One filed line and its verdict (``error`` is ``None`` when accepted): the screening's.
LineCheck = Verdict


def check_lines(variant: Variant, position: Position, power: str, lines: Sequence[str]) -> list[Verdict]:
    """Check every line ``power`` files for the next turn of ``position``: the verdicts of
    :meth:`Variant.screen`, as a list."""
    return list(variant.screen(position, power, lines))


__all__ = ["LineCheck", "Verdict", "check_lines"]
