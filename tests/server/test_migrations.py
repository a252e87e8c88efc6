"""A database made by an older fogdip is brought up to date by ``fogdip db upgrade`` with nothing
lost: a game whose orders were filed in its record (before migration 0006 kept them on the
seats) still has them, for the game master's view, the export and the next turn; a game kept
whole as a game file of schema 2 (before migration 0007 kept turns as rows) is turned into rows
and plays on, every power's reports as they were sent. A migration reads only what the database
holds: none imports fogdip's live game code, which changes after it."""

from __future__ import annotations

import ast
import dataclasses
import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from fogdip.bots.variant_bot import random_turn_orders
from fogdip.client import FogdipClient
from fogdip.codec.gamefiles import game_from_json, game_to_json
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit
from fogdip.game import Game
from fogdip.server.db import MIGRATIONS
from fogdip.server.security import hash_password
from fogdip.variants import Position

from servers import PASSWORD, PostgresCluster, start_server


def _at_revision(url: str, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
    engine.dispose()


def _old_database(kind: str, tmp_path: Path, request: pytest.FixtureRequest, revision: str) -> tuple[Path, str]:
    """The data directory and URL of a database of ``kind`` made by migrations up to
    ``revision`` only, as an older fogdip left it."""
    data = tmp_path / "data"
    if kind == "postgresql":
        cluster: PostgresCluster = request.getfixturevalue("postgres")
        url = cluster.new_database()
    else:
        data.mkdir()
        url = f"sqlite:///{data / 'fogdip.sqlite3'}"
    _at_revision(url, revision)
    return data, url


def _user(connection: sa.Connection, users: sa.Table, name: str, *, admin: bool = False) -> int:
    """An account as the server keeps accounts; its id."""
    made: int = connection.execute(
        users.insert()
        .values(
            name=name,
            name_key=name,
            password_hash=hash_password(PASSWORD),
            is_admin=admin,
            created_at=datetime.now(UTC),
        )
        .returning(users.c.id)
    ).scalar_one()
    return made


def _old_game(game: Game, master_id: int, record: object, preset: str, version: int) -> dict[str, object]:
    """The columns of an old game's row, its record kept whole."""
    moment = datetime.now(UTC)
    return {
        "id": "oldgame",
        "name": "an old game",
        "preset": preset,
        "private": True,
        "invite": "old-invitation",
        "master_id": master_id,
        "status": "active",
        "record": json.dumps(record),
        "version": version,
        "created_at": moment,
        "updated_at": moment,
        "deadlines": "{}",
        "press": "white",
        "turn": game.turn,
        "variant_name": game.variant.name,
        "observers": "press",
        "draw_votes": "secret",
        "ready_counts": False,
        "press_range": "any",
    }


def _upgrade(data: Path, url: str, kind: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "fogdip",
            "db",
            "upgrade",
            "--data",
            str(data),
            *(["--database", url] * (kind != "sqlite")),
        ],
        capture_output=True,
        text=True,
        check=True,
    )


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_orders_filed_in_an_old_record_move_to_the_seats(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    data, url = _old_database(kind, tmp_path, request, "0005")
    game = Game.create("fog-of-war")
    game.file("FRANCE", ["A PAR - BUR", "F BRE - MAO"])
    game.file("GERMANY", [])
    engine = sa.create_engine(url)
    tables = sa.MetaData()
    tables.reflect(engine)
    games, seats, users = tables.tables["games"], tables.tables["seats"], tables.tables["users"]
    with engine.begin() as connection:
        master_id = _user(connection, users, "oldmaster", admin=True)
        connection.execute(
            games.insert().values(**_old_game(game, master_id, game_to_json(game.record), "fog-of-war", 1))
        )
        for power in game.powers:
            connection.execute(
                seats.insert().values(game_id="oldgame", power=power, bot=True, ready=False, read=0, draw=False)
            )
    engine.dispose()
    assert "was 0005" in _upgrade(data, url, kind).stdout
    engine = sa.create_engine(url)
    with engine.connect() as connection:
        stored = connection.execute(sa.text("SELECT record FROM games WHERE id = 'oldgame'")).scalar_one()
        on_seats = dict(connection.execute(sa.text("SELECT power, filed FROM seats WHERE game_id = 'oldgame'")).all())
        openings = connection.execute(sa.text("SELECT count(*) FROM reports WHERE game_id = 'oldgame'")).scalar_one()
    engine.dispose()
    assert stored == "" and openings == 7  # the game is kept as rows now
    assert json.loads(on_seats["FRANCE"]) == ["A PAR - BUR", "F BRE - MAO"]
    assert json.loads(on_seats["GERMANY"]) == [] and on_seats["ITALY"] is None

    server = start_server(data, url if kind == "postgresql" else None)
    try:
        master = FogdipClient(server.url)
        master.sign_in("oldmaster", PASSWORD)
        view = master.view("oldgame")
        assert view["filed"] == {"FRANCE": ["A PAR - BUR", "F BRE - MAO"], "GERMANY": []}
        assert master.export_game("oldgame")["filed"] == view["filed"]
        assert master.adjudicate("oldgame").adjudicated == "S1901M"
        results = master.export_game("oldgame")["history"][0]["orders"]
        assert results["FRANCE"] == ["A PAR - BUR", "F BRE - MAO"]
    finally:
        server.stop()


def _schema_2(game: Game) -> dict[str, object]:
    """The game file today's fogdip writes, as fogdip wrote it before turns kept the engine's
    records and the positions reached (schema 2: each turn's result document)."""
    data = json.loads(json.dumps(game_to_json(game.record)))
    data["schema"] = 2
    for turn, played in zip(data["history"], game.record.history, strict=True):
        for key in ("resolutions", "rejected", "position"):
            turn.pop(key)
        turn["result"] = game.result_document(played)
    return data


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_game_kept_whole_by_schema_0006_becomes_rows_and_plays_on(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    import random

    data, url = _old_database(kind, tmp_path, request, "0006")
    game = Game.create("sighting", end_year=1903)
    rng = random.Random(8)
    for _ in range(4):
        for power, lines in random_turn_orders(game.variant, game.position, rng).items():
            game.file(power, lines, partial=True)
        game.adjudicate()
    old = _schema_2(game)
    engine = sa.create_engine(url)
    tables = sa.MetaData()
    tables.reflect(engine)
    games, seats, users = tables.tables["games"], tables.tables["seats"], tables.tables["users"]
    with engine.begin() as connection:
        master_id = _user(connection, users, "oldmaster", admin=True)
        player_id = _user(connection, users, "oldplayer")
        connection.execute(games.insert().values(**_old_game(game, master_id, old, "sighting", 4)))
        for power in game.powers:
            connection.execute(
                seats.insert().values(
                    game_id="oldgame",
                    power=power,
                    bot=power != "FRANCE",
                    ready=False,
                    read=0,
                    draw=False,
                    user_id=player_id if power == "FRANCE" else None,
                )
            )
    engine.dispose()
    upgraded = _upgrade(data, url, kind)
    assert "was 0006" in upgraded.stdout and "warning" not in upgraded.stderr
    engine = sa.create_engine(url)
    with engine.connect() as connection:
        assert connection.execute(sa.text("SELECT record FROM games")).scalar_one() == ""
        assert connection.execute(sa.text("SELECT count(*) FROM seats")).scalar_one() == 7
        assert connection.execute(sa.text("SELECT count(*) FROM turns")).scalar_one() == 4
        assert connection.execute(sa.text("SELECT turns_played FROM games")).scalar_one() == 4
    engine.dispose()

    server = start_server(data, url if kind == "postgresql" else None)
    try:
        master, player = FogdipClient(server.url), FogdipClient(server.url)
        master.sign_in("oldmaster", PASSWORD)
        player.sign_in("oldplayer", PASSWORD)
        view = player.view("oldgame")
        assert view["reports"] == [
            *([old["opening"]["FRANCE"]]),  # type: ignore[index]
            *(turn["reports"]["FRANCE"] for turn in old["history"]),  # type: ignore[attr-defined]
        ]
        assert view["next_turn"] == game.turn
        past = game.record.history[1].turn
        assert "<svg" in master.map_svg("oldgame", past)
        assert master.export_game("oldgame")["history"] == game_to_json(game.record)["history"]
        turn = master.adjudicate("oldgame")
        assert turn.adjudicated == game.turn
        assert len(player.view("oldgame")["reports"]) == len(view["reports"]) + 1
    finally:
        server.stop()


# --- migrations read the database alone -----------------------------------------------------

#: fogdip's live game code: a migration that imports it gives other rows once it changes.
_LIVE = ("fogdip.game", "fogdip.variants", "fogdip.engine", "fogdip.codec")


def _imported(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            names.append(node.module)
    return names


def test_no_migration_imports_the_live_game_code() -> None:
    scripts = sorted((MIGRATIONS / "versions").glob("*.py"))
    assert len(scripts) >= 6
    found = [
        f"{path.name}: {name}"
        for path in scripts
        for name in _imported(path)
        if any(name == live or name.startswith(live + ".") for live in _LIVE)
    ]
    assert found == []


def _finished(game: Game, centers: dict[str, str], units: dict[str, str] | None = None) -> Game:
    """``game`` over at its next turn: these centres owned, units (by province, as
    ``"POWER A|F LOCATION"``) left standing, no other unit."""
    standing = {}
    for province, text in (units or {}).items():
        power, kind, location = text.split()
        standing[province] = Unit(power, "A" if kind == "A" else "F", location)
    ended = game.position.state.with_changes(centers=centers, units=standing, completed=True)
    return Game(dataclasses.replace(game.record, position=Position(ended)))


def _owned(*counts: tuple[str, int]) -> dict[str, str]:
    """The standard map's centres dealt out in turn: each power its count."""
    centers = sorted(GameState.initial().board.supply_centers)
    out: dict[str, str] = {}
    for power, count in counts:
        for _ in range(count):
            out[centers.pop()] = power
    return out


def _old_games() -> dict[str, str]:
    """Records of every kind a database at revision 0004 may hold, by game id: games running
    (with and without options, a setup still to play), won outright (at the map's and at an
    option's count), drawn when the last year was played (an eliminated power left out, a
    power with a unit and no centre kept; two powers past the count), drawn by agreement, and
    one that cannot be read."""
    agreed = Game.create("fog-of-war", reveal_at_end=False)
    agreed.agree_draw(["FRANCE", "ENGLAND", "ITALY"])
    games = {
        "running": Game.create("standard"),
        "options": Game.create("fog-of-war", end_year=1910, reveal_at_end=False, hold_empty_winters=False),
        "setup": Game.create("deadman"),
        "solo": _finished(Game.create("standard"), _owned(("FRANCE", 18), ("GERMANY", 10))),
        "solo-option": _finished(Game.create("diplomyopia", victory_centers=12), _owned(("TURKEY", 12), ("ITALY", 11))),
        "last-year": _finished(
            Game.create("fog-of-war", end_year=1901),
            _owned(("ENGLAND", 9), ("FRANCE", 9), ("GERMANY", 8), ("RUSSIA", 8)),
            {"CON": "TURKEY A CON", "STP": "RUSSIA F STP/NC"},
        ),
        "two-leaders": _finished(Game.create("sighting", victory_centers=10), _owned(("ENGLAND", 12), ("FRANCE", 12))),
        "agreed": agreed,
    }
    records = {game_id: json.dumps(game_to_json(game.record)) for game_id, game in games.items()}
    records["damaged"] = '{"format": "fogdip-game", "schema": 2, "position": "lost"}'
    return records


def _as_live_code_reads(record: str) -> tuple[str, str, dict[str, Any] | None]:
    """A stored game's turn, variant name and outcome, as the server works them out today."""
    game = Game(game_from_json(json.loads(record)))
    outcome = game.outcome()
    revealed = None if outcome is None else {**outcome, "revealed": game.variant.options.reveal_at_end}
    return game.turn, game.variant.name, revealed


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_migration_0005_reads_each_games_turn_variant_and_outcome_as_the_live_code(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if kind == "postgresql":
        cluster: PostgresCluster = request.getfixturevalue("postgres")
        url = cluster.new_database()
    else:
        url = f"sqlite:///{tmp_path / 'fogdip.sqlite3'}"
    _at_revision(url, "0004")
    records = _old_games()
    engine = sa.create_engine(url)
    tables = sa.MetaData()
    tables.reflect(engine)
    games, users = tables.tables["games"], tables.tables["users"]
    moment = datetime.now(UTC)
    with engine.begin() as connection:
        master_id = connection.execute(
            users.insert()
            .values(name="oldmaster", name_key="oldmaster", password_hash="-", is_admin=True, created_at=moment)
            .returning(users.c.id)
        ).scalar_one()
        for game_id, record in records.items():
            connection.execute(
                games.insert().values(
                    id=game_id,
                    name=game_id,
                    preset="standard",
                    private=True,
                    invite=f"invite-{game_id}",
                    master_id=master_id,
                    status="active",
                    record=record,
                    version=1,
                    created_at=moment,
                    updated_at=moment,
                    deadlines="{}",
                    press="white",
                )
            )
    engine.dispose()

    _at_revision(url, "0005")
    engine = sa.create_engine(url)
    with engine.connect() as connection:
        rows = connection.execute(sa.text("SELECT id, turn, variant_name, outcome FROM games")).all()
    engine.dispose()
    migrated = {
        game_id: (turn, name, None if outcome is None else json.loads(outcome)) for game_id, turn, name, outcome in rows
    }
    assert migrated.pop("damaged") == ("", "", None)
    expected = {game_id: _as_live_code_reads(record) for game_id, record in records.items() if game_id != "damaged"}
    assert migrated == expected
    # The cases are the ones named: each kind of ending is among them.
    assert expected["running"][0] == "S1901M" and expected["setup"][0] == "S1901S"
    assert expected["options"][1] == "fog-of-war+end_year=1910+hold_empty_winters=False+reveal_at_end=False"
    assert expected["solo"][2] == {"result": "solo", "powers": ["FRANCE"], "revealed": True}
    assert expected["solo-option"][2] == {"result": "solo", "powers": ["TURKEY"], "revealed": True}
    assert expected["last-year"][2] == {
        "result": "draw",
        "powers": ["ENGLAND", "FRANCE", "GERMANY", "RUSSIA", "TURKEY"],
        "revealed": True,
    }
    assert expected["two-leaders"][2] == {"result": "draw", "powers": ["ENGLAND", "FRANCE"], "revealed": True}
    assert expected["agreed"][2] == {
        "result": "draw",
        "powers": ["ENGLAND", "FRANCE", "ITALY"],
        "agreed": "S1901M",
        "revealed": False,
    }
