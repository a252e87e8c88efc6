"""The turn engine: schedules, setups, announcements and the end of the game."""

from __future__ import annotations

import pytest

from fogdip.engine.errors import FogdipError
from fogdip.engine.state import GameState
from fogdip.engine.units import Phase, Unit
from fogdip.variants import Position, Variant, compose
from views import text


def play_through(
    variant: Variant, position: Position, orders: dict[str, list[str]] | None = None
) -> tuple[str, Position]:
    played = variant.play(position, orders or {})
    return played.turn, played.position


def test_standard_skips_empty_retreats_and_winters_like_mila() -> None:
    variant = Variant.named("standard")
    turn, position = play_through(variant, variant.start())
    assert (turn, position.name) == ("S1901M", "F1901M")
    turn, position = play_through(variant, position)
    assert position.name == "S1902M"  # nobody gained or lost a centre: no winter


def test_fog_of_war_holds_every_retreat_season_and_winter() -> None:
    """Seed 000: "Even tho Germany has no retreats due, we still wait for a summer season.
    That way one cannot determine what others ordered, by if there is a retreat round or not." """
    variant = Variant.named("fog-of-war")
    names = []
    position = variant.start()
    for _ in range(6):
        turn, position = play_through(variant, position)
        names.append(turn)
    assert names == ["S1901M", "S1901R", "F1901M", "F1901R", "W1901A", "S1902M"]


def test_held_retreat_season_delays_fall_captures_until_it_is_over() -> None:
    variant = Variant.named("fog-of-war")
    position = variant.start()
    _, position = play_through(variant, position, {"FRANCE": ["A MAR - SPA"]})
    _, position = play_through(variant, position)
    played = variant.play(position, {"FRANCE": ["A SPA H"]})
    assert played.position.name == "F1901R"
    assert "SPA" not in played.position.state.centers
    played = variant.play(played.position, {})
    assert played.position.state.centers["SPA"] == "FRANCE"
    assert any(n.kind == "center-gained" for n in played.observations["FRANCE"].notices)


def test_captures_in_any_season_change_owners_after_spring() -> None:
    """Seed 003, rule 5: "if the province is taken in a Spring move, it changes hands even if
    the captor moves out in Autumn. Thus it is quite possible for a game of DIPLOMYOPIA to end on
    a Spring move." """
    variant = Variant.named("diplomyopia")
    position = variant.start()
    played = variant.play(position, {"FRANCE": ["A MAR - SPA"]})
    assert played.position.name == "S1901R"
    played = variant.play(played.position, {})
    assert played.position.state.centers["SPA"] == "FRANCE"
    assert played.position.name == "F1901M"


def test_a_game_can_end_after_spring_when_captures_count_in_any_season() -> None:
    variant = Variant(compose("diplomyopia", victory_centers=5, hold_empty_retreats=False))
    start = variant.start().state
    state = start.with_changes(centers={**start.centers, "POR": "FRANCE"})
    played = variant.play(Position(state), {"FRANCE": ["A MAR - SPA"]})
    assert played.position.completed
    final = played.observations["GERMANY"]
    assert any(n.kind == "game-over" and n.get("winner") == "FRANCE" for n in final.notices)


def test_end_year_ends_the_game_in_a_draw_and_reveals_everything() -> None:
    variant = Variant(compose("fog-of-war", end_year=1901))
    position = variant.start()
    turns = []
    while not position.completed:
        played = variant.play(position, {})
        turns.append(played.turn)
        position = played.position
    assert turns[-1] == "W1901A"
    last = played.observations["ENGLAND"]
    assert any(n.kind == "game-over" and n.get("winner") is None for n in last.notices)
    # reveal_at_end: the last report shows the whole board.
    assert len(last.visible) == 75 and len(last.units) == 22


def test_1898_setup_defaults_and_choices() -> None:
    """Seed 004: "each player starts with only one supply center ... Also, players can choose
    whether they start with an army or a fleet." """
    variant = Variant.named("fog-1898")
    position = variant.start()
    assert position.name == "S1901S" and not position.state.units
    played = variant.play(position, {"ENGLAND": ["A EDI"], "RUSSIA": ["F STP/NC"], "FRANCE": ["A PAR"]})
    units = played.position.state.units
    assert units["EDI"] == Unit("ENGLAND", "A", "EDI")
    assert units["STP"] == Unit("RUSSIA", "F", "STP/NC")
    assert units["BRE"] == Unit("FRANCE", "F", "BRE")  # a bad choice gives the default
    assert len(units) == 7
    assert played.position.state.homes["ENGLAND"] == ("EDI", "LON", "LVP")
    assert [n.text for n in played.observations["FRANCE"].notices] == [
        "Setup 'A PAR' was not accepted: FRANCE may start only in BRE",
        "No unit was chosen for BRE: F BRE of the standard start stands there",
    ]
    assert not played.observations["ENGLAND"].notices  # France's mistake is France's business
    assert [text(o) for o in played.observations["ENGLAND"].orders] == ["A EDI"]


def test_free_setup_places_chosen_units_and_keeps_them_secret() -> None:
    """Seed 002: "You may change it to 3 fleets, 3 armies, etc. You may also start those units
    in any center under your control ... If you say nothing prior to Spring 01, than I will note
    your starting position in the S01 orders!" """
    variant = Variant.named("deadman")
    played = variant.play(variant.start(), {"TURKEY": ["F SMY", "F CON", "A ANK"]})
    units = played.position.state.units
    assert {str(u) for u in units.values() if u.power == "TURKEY"} == {"F SMY", "F CON", "A ANK"}
    assert {str(u) for u in units.values() if u.power == "ENGLAND"} == {"F LON", "F EDI", "A LVP"}
    english_view = played.observations["ENGLAND"]
    assert all(u.owner == "ENGLAND" for u in english_view.units)


@pytest.mark.parametrize(
    "choice, units, refused",
    [
        (["F SMY", "F CON"], {"F SMY", "F CON", "F ANK"}, []),
        (["F SMY", "F SMY", "A ANK"], {"F SMY", "A ANK", "A CON"}, ["F SMY"]),
        (["A SMY", "A CON", "A BUL"], {"A SMY", "A CON", "F ANK"}, ["A BUL"]),
        (["A XYZ"], {"F ANK", "A CON", "A SMY"}, ["A XYZ"]),
    ],
)
def test_free_setup_judges_each_line(choice: list[str], units: set[str], refused: list[str]) -> None:
    """Each setup line is judged on its own: the good lines place their units, a wrong line
    is refused with its own reason, and each centre left empty gets the standard start's unit
    (as the seed's GM notes a silent power's start), which the power is told."""
    variant = Variant.named("deadman")
    played = variant.play(variant.start(), {"TURKEY": choice})
    assert {str(u) for u in played.position.state.units_of("TURKEY")} == units
    assert [r.text for r in played.rejected] == refused
    assert [c.text for c in variant.screen(variant.start(), "TURKEY", choice) if not c.ok] == refused
    defaults = played.observations["TURKEY"].notices_of("setup-default")
    assert len(defaults) == (len(units - set(choice)) > 0)


def test_fog_1898_announces_anonymous_centre_totals_each_winter() -> None:
    """Seed 004, rule 6: "Each Winter players will get to know seven supply centre totals, but
    won't know who they belong to." """
    variant = Variant.named("fog-1898")
    position = variant.start()
    position = variant.play(position, {}).position
    while position.name != "W1901A":
        position = variant.play(position, {}).position
    played = variant.play(position, {})
    totals = [n for n in played.observations["ITALY"].notices if n.kind == "center-totals"]
    assert len(totals) == 1
    assert totals[0].get("totals") == (1, 1, 1, 1, 1, 1, 1)
    assert "ITALY" not in totals[0].text and "FRANCE" not in totals[0].text


def test_deadman_tells_each_power_its_centre_changes_every_fall() -> None:
    """Seed 002, rule 4: "Each Fall you will be informed as to what centers you have lost and
    gained during that game year." """
    variant = Variant(compose("deadman", setup="standard"))
    position = variant.start()
    position = variant.play(position, {"FRANCE": ["A MAR - SPA"]}).position
    position = variant.play(position, {}).position  # S1901R, held
    position = variant.play(position, {"FRANCE": ["A SPA H"]}).position
    played = variant.play(position, {})  # F1901R ends the Fall
    french = [n for n in played.observations["FRANCE"].notices if n.kind == "center-changes"]
    english = [n for n in played.observations["ENGLAND"].notices if n.kind == "center-changes"]
    assert french[0].get("gained") == ("SPA",) and french[0].get("lost") == ()
    assert english[0].get("gained") == () and english[0].get("lost") == ()


def test_elimination_is_told_only_to_the_eliminated_power_under_fog() -> None:
    board_state = GameState.initial()
    state = board_state.with_changes(
        phase=Phase("F", 1905, "M"),
        units={
            "BUR": Unit("FRANCE", "A", "BUR"),
            "MUN": Unit("GERMANY", "A", "MUN"),
            "RUH": Unit("GERMANY", "A", "RUH"),
        },
        centers={"MUN": "GERMANY", "BER": "GERMANY", "KIE": "GERMANY"},
    )
    orders = {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]}
    for preset, others_told in (("fog-of-war", False), ("standard", True)):
        variant = Variant.named(preset)
        played = variant.play(Position(state), orders)
        for _ in range(3):
            if played.position.state.is_eliminated("FRANCE"):
                break
            played = variant.play(played.position, {})
        assert played.position.state.is_eliminated("FRANCE")
        french = played.observations["FRANCE"]
        german = played.observations["GERMANY"]
        assert any(n.kind == "eliminated" for n in french.notices)
        assert any(n.kind == "eliminated" for n in german.notices) is others_told


def test_builds_in_any_owned_centre() -> None:
    """Seed 002, rule 3: "You may build a unit in any center that you controlled during the last
    fall order!" """
    state = GameState.initial().with_changes(
        phase=Phase("W", 1901, "A"),
        units={
            "LON": Unit("ENGLAND", "F", "LON"),
            "EDI": Unit("ENGLAND", "F", "EDI"),
            "LVP": Unit("ENGLAND", "A", "LVP"),
        },
        centers={"LON": "ENGLAND", "EDI": "ENGLAND", "LVP": "ENGLAND", "NWY": "ENGLAND"},
    )
    anywhere = Variant(compose("standard", build_in_any_owned_center=True))
    played = anywhere.play(Position(state), {"ENGLAND": ["F NWY B"]})
    assert str(played.position.state.units["NWY"]) == "F NWY"
    assert played.position.state.homes["ENGLAND"] == ("EDI", "LON", "LVP")
    home_only = Variant.named("standard")
    played = home_only.play(Position(state), {"ENGLAND": ["F NWY B"]})
    assert "NWY" not in played.position.state.units


def test_winter_is_held_when_only_a_non_home_centre_is_free_for_a_build() -> None:
    state = GameState.initial().with_changes(
        phase=Phase("F", 1901, "M"),
        units={
            "LON": Unit("ENGLAND", "F", "LON"),
            "EDI": Unit("ENGLAND", "F", "EDI"),
            "LVP": Unit("ENGLAND", "A", "LVP"),
            "NTH": Unit("ENGLAND", "F", "NTH"),
        },
        centers={"LON": "ENGLAND", "EDI": "ENGLAND", "LVP": "ENGLAND", "NWY": "ENGLAND"},
    )
    variant = Variant(compose("standard", build_in_any_owned_center=True))
    played = variant.play(Position(state), {"ENGLAND": ["F NTH - BEL"]})
    assert played.position.name == "W1901A"
    assert Variant.named("standard").play(Position(state), {"ENGLAND": ["F NTH - BEL"]}).position.name == "S1902M"


def test_a_finished_game_cannot_be_played_on() -> None:
    variant = Variant(compose("standard", end_year=1901))
    position = variant.start()
    while not position.completed:
        position = variant.play(position, {}).position
    with pytest.raises(FogdipError, match="the game is over"):
        variant.play(position, {})


def test_play_itself_refuses_conditions_on_spaces_the_power_cannot_see() -> None:
    """Seed 001: "a player can specify only those exact spaces where he could see the foreign
    unit" — enforced when the turn is played, not only when orders are filed."""
    variant = Variant.named("sighting")
    played = variant.play(variant.start(), {"ENGLAND": ["IF A MOS - UKR THEN F LON R WAL", "F LON - ENG"]})
    assert [r.text for r in played.rejected] == ["IF A MOS - UKR THEN F LON R WAL"]
    assert "see" in str(played.rejected[0].reason)
    assert any(n.kind == "rejected" for n in played.observations["ENGLAND"].notices)
    assert not any(n.kind == "rejected" for n in played.observations["RUSSIA"].notices)
