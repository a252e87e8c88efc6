"""How the heuristic weighs the foreign units it believes in (fogdip.bots.heuristic_values,
fogdip.bots.heuristic): where a rival's unit is likely to go, centres no rival can reach,
and supports for moves a rival may contest."""

from __future__ import annotations

import random

from fogdip.bots.heuristic import Heuristic, full_picture
from fogdip.bots.heuristic_values import Weights, evaluate
from fogdip.bots.picture import Picture
from fogdip.engine.orders import Move, SupportMove, UnitRef
from fogdip.engine.state import GameState
from fogdip.engine.units import Phase, Unit


def _fall(units: dict[str, Unit], power: str = "FRANCE") -> Picture:
    state = GameState.initial().with_changes(phase=Phase("F", 1901, "M"), units=units)
    return full_picture(state, power)


def test_a_rival_unit_counts_fully_where_it_can_take_a_centre_and_less_elsewhere() -> None:
    """A German army in the Ruhr can take Belgium or Holland; Burgundy is no centre and Kiel
    is Germany's own: it competes for those less. With ``aim`` 0 it counts alike everywhere."""
    picture = _fall({"PAR": Unit("FRANCE", "A", "PAR"), "RUH": Unit("GERMANY", "A", "RUH")})
    aimed = evaluate(picture, Weights()).competition
    assert aimed["BEL"] == aimed["HOL"] == 1.0
    assert aimed["BUR"] < 0.5 and aimed["KIE"] < 0.5
    even = evaluate(picture, Weights(aim=0.0)).competition
    assert even["BEL"] == even["BUR"] == even["KIE"] == 1.0


def test_a_centre_no_rival_can_reach_is_worth_more_than_one_a_rival_can() -> None:
    """Belgium with a German army next to it is worth less against Belgium alone than the
    competition alone makes it: the unguarded centre is the better target."""
    alone = _fall({"PIC": Unit("FRANCE", "A", "PIC")})
    guarded = _fall({"PIC": Unit("FRANCE", "A", "PIC"), "RUH": Unit("GERMANY", "A", "RUH")})

    def drop(weights: Weights) -> float:
        return evaluate(alone, weights).province["BEL"] - evaluate(guarded, weights).province["BEL"]

    assert drop(Weights()) > 0
    assert drop(Weights()) > 2 * drop(Weights(unguarded=0.0))


def test_a_move_a_rival_may_contest_is_supported_by_a_fellow_that_gives_up_less() -> None:
    """Picardy's army goes for Belgium, which the German army in the Ruhr can also enter:
    Burgundy's army supports it rather than walk into Munich. Without ``reinforce`` it never
    does."""
    units = {
        "PAR": Unit("FRANCE", "A", "PAR"),
        "PIC": Unit("FRANCE", "A", "PIC"),
        "BUR": Unit("FRANCE", "A", "BUR"),
        "RUH": Unit("GERMANY", "A", "RUH"),
    }
    picture = _fall(units)
    supported = {Move(UnitRef("A", "PIC"), "BEL"), SupportMove(UnitRef("A", "BUR"), UnitRef("A", "PIC"), "BEL")}

    def backed(weights: Weights) -> int:
        return sum(supported <= set(Heuristic(weights).movement(picture, random.Random(seed))) for seed in range(20))

    assert backed(Weights()) >= 15
    assert backed(Weights(reinforce=0.0)) == 0
