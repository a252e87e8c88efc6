"""In a gunboat game no player may learn which powers the bot plays, nor who plays which power
(``fogdip.server.members``). Each case plays two games that differ only in whether Germany
is played by a person or by the bot, with every seat filled (the no-leak harness leaves seats
empty, so that no probe's ready mark or vote completes anything), and compares what France's
player is told. Found by an attacker review: the bot's seats counted as always ready and as
always voting for a draw, and the seats' 'taken' flags filled in the order people joined
and the bot was seated.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from fogdip.client import FogdipClient

from servers import ServerProcess, account, failure, start_server, take_seat

FRENCH = ["A PAR H", "A MAR H", "F BRE H"]


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    running = start_server(tmp_path_factory.mktemp("gunboat-seats") / "data", env={"FOGDIP_RATE": "100000"})
    yield running
    running.stop()


@pytest.fixture(scope="module")
def people(sqlite_server: ServerProcess) -> dict[str, FogdipClient]:
    return {name: account(sqlite_server, f"gb{name}") for name in ("master", "france", "alice")}


def _gunboat_game(
    people: dict[str, FogdipClient], germany: str, preset: str = "standard", *, start: bool = True
) -> str:
    """A gunboat game: France a person, Germany a person (Alice) or the bot, every other power
    the bot, as a game master seats the bot before starting."""
    master = people["master"]
    game = master.create_game(preset, press="gunboat", name="gunboat seats", private=False)
    take_seat(people["france"], master, game.id, "FRANCE", None)
    if germany == "alice":
        take_seat(people["alice"], master, game.id, "GERMANY", None)
    if start:
        master.seat_bots(game.id)
        master.start(game.id)
    return game.id


@pytest.mark.parametrize("preset", ["standard", "fog-of-war"])
def test_a_ready_mark_does_not_tell_the_bot_s_seats(people: dict[str, FogdipClient], preset: str) -> None:
    """The bot's seats are not counted ready where nobody may tell them: France's mark ends
    the turn in neither game (it waits for the deadline, or the game master)."""
    told = {}
    for germany in ("bot", "alice"):
        game_id = _gunboat_game(people, germany, preset)
        people["france"].file_orders(game_id, FRENCH)
        told[germany] = people["france"].ready(game_id).adjudicated
        # The game master's count follows the same rule: France alone is ready, the bot is not.
        count = people["master"].game(game_id).ready
        assert count is not None and (count.ready, count.of) == (1, 7)
    assert told == {"bot": None, "alice": None}


def test_a_draw_vote_does_not_tell_the_bot_s_seats(people: dict[str, FogdipClient]) -> None:
    """France's lone vote ends neither game; the game master casts the bot's votes, and with
    them (and every person's) the draw is agreed."""
    told = {}
    games = {}
    for germany in ("bot", "alice"):
        games[germany] = _gunboat_game(people, germany)
        answer = people["france"].vote_draw(games[germany])
        told[germany] = (answer.status, answer.outcome is not None)
    assert told == {"bot": ("active", False), "alice": ("active", False)}
    assert people["master"].vote_draw(games["bot"]).status == "finished"
    assert people["master"].vote_draw(games["alice"]).status == "active"  # Alice has not voted
    assert people["alice"].vote_draw(games["alice"]).status == "finished"
    # someone with no seat in the game votes for nobody
    outsider = people["alice"]
    assert failure(outsider.vote_draw, _gunboat_game(people, "bot")).status == 403


def test_while_the_game_forms_its_seats_do_not_tell_who_took_them(people: dict[str, FogdipClient]) -> None:
    """France (or anyone, for an open game) sees no seat but its own taken or free: they fill
    as people join and the bot is seated, so watching them would tell the bot's seats, and
    whoever knows when someone joined the power that someone plays."""
    pages = {}
    for germany in ("bot", "alice"):
        game_id = _gunboat_game(people, germany, start=False)
        before = people["france"].game(game_id)
        people["master"].seat_bots(game_id)
        after = people["france"].game(game_id)
        pages[germany] = [[(seat.power, seat.taken, seat.bot) for seat in page.seats] for page in (before, after)]
    assert pages["bot"] == pages["alice"]
    assert {taken for power, taken, _ in pages["bot"][0] if power != "FRANCE"} == {None}


def test_nobody_chooses_a_power_in_a_gunboat_game(people: dict[str, FogdipClient]) -> None:
    """Joining gives a free power at random; the game master may swap seats before the start
    (a tournament's draw), and only then."""
    master = people["master"]
    game = master.create_game("standard", press="gunboat", private=False)
    refused = failure(people["france"].join, game.id, "FRANCE")
    assert refused.status == 400 and "join without one" in refused.message
    drawn = people["france"].join(game.id).power
    other = "ENGLAND" if drawn != "ENGLAND" else "ITALY"
    swapped = master.swap_seats(game.id, drawn or "", other)
    assert {seat.power for seat in swapped.seats if seat.taken} == {other}
    assert people["france"].game(game.id).power == other
    assert failure(master.swap_seats, game.id, other, other).status == 400
    assert failure(master.swap_seats, game.id, other, "SPAIN").status == 400
    assert failure(people["france"].swap_seats, game.id, other, "FRANCE").status in (403, 404)
    master.start(game.id)
    assert failure(master.swap_seats, game.id, other, "FRANCE").status == 409


def test_against_the_bot_alone_its_seats_are_ready(people: dict[str, FogdipClient]) -> None:
    """A game against bots, set up by its one player, hides nothing from that player: a lone
    ready mark ends the turn."""
    game = people["france"].against_bots("standard", power="FRANCE", options={"press": "gunboat"})
    assert game.press == "gunboat"
    people["france"].file_orders(game.id, FRENCH)
    assert (
        people["france"].ready(game.id).note
        == "every seat is ready: the turn is played as soon as the bot has filed, within seconds"
    )
    assert people["france"].wait_until_played(game.id, "S1901M").turn == "F1901M"
