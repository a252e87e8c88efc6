"""Deadlines: a turn is adjudicated when its deadline passes, exactly once, even with two
server processes on one PostgreSQL database racing for it; pause, resume, extend."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from fogdip.client import ApiFailure, FogdipClient

from servers import PostgresCluster, ServerProcess, account, start_server, unique

PASSWORD = "correct horse battery"
QUICK = {"movement": 2, "retreats": 2, "adjustments": 2}


def master_and_france(
    server: ServerProcess, deadlines: dict[str, float], france_name: str | None = None
) -> tuple[FogdipClient, FogdipClient, str]:
    master = account(server, "master")
    france = FogdipClient(server.url)
    name = france_name or unique("france")
    france.sign_up(name, PASSWORD)
    france.sign_in(name, PASSWORD)
    game = master.create_game("fog-of-war", {"end_year": 1930}, deadlines=deadlines)
    france.join(game.id, "FRANCE", invite=game.invite)
    return master, france, game.id


def wait_for(check: object, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.2)
    raise AssertionError(f"not within {seconds} s")


def test_the_deadline_adjudicates_the_turn_with_the_orders_filed(server: ServerProcess) -> None:
    master, france, game_id = master_and_france(server, QUICK)
    france.file_orders(game_id, ["A PAR - BUR"])
    started = master.start(game_id)
    assert started.deadline is not None and started.deadlines == QUICK
    wait_for(lambda: france.game(game_id).turn != "S1901M", 15)
    reports = france.view(game_id)["reports"]
    assert reports[1]["phase"] == "S1901M" and "A PAR - BUR" in reports[1]["text"]


@pytest.mark.databases("sqlite")  # the keeper's seconds; the rule is the table's, tested in-process
def test_a_deadline_passed_before_the_bot_filed_waits_for_it_and_the_turn_is_played_as_it_files(
    server: ServerProcess,
) -> None:
    """Six search seats file 9 s after the turn began (their longest thinking, public); a
    2-second deadline passes long before. The keeper does not let the bot think then (how long
    it took would show in when the turn is played): the turn waits, and is played as the bot
    files, with its orders."""
    master, france, game_id = master_and_france(server, QUICK)
    master.seat_bots(game_id, bot="search")
    began = time.monotonic()
    master.start(game_id)
    time.sleep(4)
    assert france.game(game_id).turn == "S1901M"  # the deadline passed; the bot has yet to file
    wait_for(lambda: france.game(game_id).turn != "S1901M", 20)
    assert time.monotonic() - began >= 6 * 1.5
    orders = master.export_game(game_id)["history"][0]["orders"]
    assert sum(bool(orders.get(power)) for power in ("AUSTRIA", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "TURKEY")) >= 5


@pytest.mark.databases("sqlite")  # the clock is the table's, tested in-process; here, the keeper's seconds
def test_pause_resume_and_extend(server: ServerProcess) -> None:
    master, france, game_id = master_and_france(server, {"movement": 3, "retreats": 3, "adjustments": 3})
    master.start(game_id)
    paused = master.pause(game_id)
    assert (paused.status, paused.deadline) == ("paused", None)
    time.sleep(4)
    assert france.game(game_id).turn == "S1901M"  # nothing happens while paused
    assert failure_code(france.pause, game_id) == 403
    resumed = master.resume(game_id)
    assert resumed.status == "active" and resumed.deadline is not None
    extended = master.extend(game_id, 3600)
    assert extended.deadline is not None and (extended.deadline - resumed.deadline).total_seconds() == pytest.approx(
        3600
    )
    time.sleep(4)
    assert france.game(game_id).turn == "S1901M"  # an hour more


def test_two_processes_racing_one_deadline_adjudicate_it_once(postgres: PostgresCluster, tmp_path: Path) -> None:
    database = postgres.new_database()
    first = start_server(tmp_path / "one", database, log_level="info")
    second = start_server(tmp_path / "two", database, log_level="info")
    try:
        named = unique("france")
        master, _france, game_id = master_and_france(
            first, {"movement": 3, "retreats": 3, "adjustments": 3}, france_name=named
        )
        watcher = FogdipClient(second.url)
        watcher.sign_in(named, PASSWORD)
        begun = time.monotonic()
        master.start(game_id)
        time.sleep(10)
        master.pause(game_id)
        elapsed = time.monotonic() - begun
        phases = [report["phase"] for report in watcher.view(game_id)["reports"][1:]]
        assert len(phases) == len(set(phases))
        # one turn per deadline, however many processes watch it: never two at one deadline
        assert 2 <= len(phases) <= elapsed / 3 + 1
        # each turn adjudicated by exactly one of the two processes, once
        done = [
            line
            for server in (first, second)
            for line in server.log.read_text().splitlines()
            if f"game {game_id} adjudicated" in line
        ]
        assert sorted(line.rsplit(" ", 1)[-1].strip('"}') for line in done) == sorted(phases)
    finally:
        first.stop()
        second.stop()


def failure_code(call: object, *args: object) -> int:
    with pytest.raises(ApiFailure) as caught:
        call(*args)  # type: ignore[operator]
    return caught.value.status
