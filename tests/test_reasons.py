"""Outcomes and reasons are values: the units they name are the record's own, and the
sentences are made from them in one place."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from fogdip.bots.random_bot import play_random_game
from fogdip.engine import GameState, Outcome, Reason, Unit, Why, adjudicate, get_rules
from fogdip.engine.reasons import describe
from fogdip.engine.units import Phase


def test_every_kind_of_reason_has_words_and_every_outcome_a_value() -> None:
    assert {outcome.value for outcome in Outcome} >= {"held", "moved", "bounced", "void", "illegal", "built"}
    assert len({why.value for why in Why}) == len(Why)
    assert Outcome.MOVED.succeeded and not Outcome.BOUNCED.succeeded and Outcome.MOVED == "moved"


def test_a_bounce_names_the_units_and_strengths_it_is_about() -> None:
    record = adjudicate(GameState.initial(), {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]})
    result = record.result_of("PAR")
    assert result is not None and result.outcome is Outcome.BOUNCED and result.results == ("bounce",)
    reason = result.reason
    assert reason == Reason(
        Why.BOUNCED_PREVENTED, Unit("FRANCE", "A", "PAR"), (Unit("GERMANY", "A", "MUN"),), ("BUR",), (1, 1)
    )
    assert describe(reason) == str(reason) == "bounced: 1 against 1 with A MUN - BUR"


def test_a_dislodgement_goes_on_from_the_units_own_reason() -> None:
    state = GameState.initial().with_changes(
        phase=Phase("S", 1901, "M"),
        units={
            "BUR": Unit("FRANCE", "A", "BUR"),
            "MUN": Unit("GERMANY", "A", "MUN"),
            "RUH": Unit("GERMANY", "A", "RUH"),
        },
    )
    record = adjudicate(state, {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]})
    held = record.result_of("BUR")
    assert held is not None and held.reason is not None
    assert held.reason.why is Why.HELD_WITHOUT_ORDER and held.reason.next is not None
    assert held.reason.next.why is Why.DISLODGED_BY
    assert held.reason.next.others == (Unit("GERMANY", "A", "MUN"),) and held.reason.next.places == ("MUN",)


def test_rejections_carry_a_reason_value() -> None:
    record = adjudicate(GameState.initial(), {"FRANCE": ["A KIE - BER", "A PAR - MARS"], "MORDOR": ["A PAR H"]})
    by_text = {rejected.text: rejected.reason for rejected in record.rejected}
    assert by_text["A KIE - BER"] == Reason(Why.NO_SUCH_UNIT, power="FRANCE", places=("KIE",))
    assert by_text["A PAR - MARS"].why is Why.UNREADABLE and "MARS" in str(by_text["A PAR - MARS"])
    assert by_text["A PAR H"] == Reason(Why.NOT_A_POWER, power="MORDOR")


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["2023", "2000"]))
def test_every_reason_names_the_records_own_units_and_has_words(seed: int, edition: str) -> None:
    rules = get_rules(edition)
    rng = random.Random(seed)
    for record in play_random_game(seed, rules, max_phases=rng.randint(4, 30)):
        on_board = set(record.before.units.values()) | {d.unit for d in record.before.dislodged.values()}
        for result in record.orders:
            reason = result.reason
            assert isinstance(result.outcome, Outcome) and isinstance(reason, Reason), result
            assert describe(reason), result
            while reason is not None:
                if isinstance(reason.unit, Unit) and record.before.phase.kind != "A":
                    assert reason.unit == result.unit, (result, reason)
                for other in reason.others:
                    if isinstance(other, Unit):
                        assert other in on_board, (result, reason)
                reason = reason.next
