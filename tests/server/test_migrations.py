"""A database made by an older fogdip is brought up to date by ``fogdip db upgrade`` with nothing
lost: a game whose orders were filed in its record (before migration 0006 kept them on the
seats) still has them, for the game master's view, the export and the next turn."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from fogdip.client import FogdipClient
from fogdip.codec.gamefiles import game_to_json
from fogdip.game import Game
from fogdip.server.db import MIGRATIONS
from fogdip.server.security import hash_password

from servers import PASSWORD, PostgresCluster, start_server


def _at_revision(url: str, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
    engine.dispose()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_orders_filed_in_an_old_record_move_to_the_seats(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    data = tmp_path / "data"
    if kind == "postgresql":
        cluster: PostgresCluster = request.getfixturevalue("postgres")
        url = cluster.new_database()
    else:
        data.mkdir()
        url = f"sqlite:///{data / 'fogdip.sqlite3'}"
    _at_revision(url, "0005")

    game = Game.create("fog-of-war")
    game.file("FRANCE", ["A PAR - BUR", "F BRE - MAO"])
    game.file("GERMANY", [])
    engine = sa.create_engine(url)
    tables = sa.MetaData()
    tables.reflect(engine)
    games, seats, users = tables.tables["games"], tables.tables["seats"], tables.tables["users"]
    moment = datetime.now(UTC)
    with engine.begin() as connection:
        # The old game's master, as the server keeps accounts.
        master_id = connection.execute(
            users.insert()
            .values(
                name="oldmaster",
                name_key="oldmaster",
                password_hash=hash_password(PASSWORD),
                is_admin=True,
                created_at=moment,
            )
            .returning(users.c.id)
        ).scalar_one()
        connection.execute(
            games.insert().values(
                id="oldgame",
                name="an old game",
                preset="fog-of-war",
                private=True,
                invite="old-invitation",
                master_id=master_id,
                status="active",
                record=json.dumps(game_to_json(game.record)),
                version=1,
                created_at=moment,
                updated_at=moment,
                deadlines="{}",
                press="white",
                turn="S1901M",
                variant_name=game.variant.name,
                observers="press",
                draw_votes="secret",
                ready_counts=False,
                press_range="any",
            )
        )
        for power in game.powers:
            connection.execute(
                seats.insert().values(game_id="oldgame", power=power, bot=True, ready=False, read=0, draw=False)
            )
    engine.dispose()

    upgraded = subprocess.run(
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
    assert "was 0005" in upgraded.stdout
    engine = sa.create_engine(url)
    with engine.connect() as connection:
        stored = json.loads(connection.execute(sa.text("SELECT record FROM games WHERE id = 'oldgame'")).scalar_one())
        on_seats = dict(connection.execute(sa.text("SELECT power, filed FROM seats WHERE game_id = 'oldgame'")).all())
    engine.dispose()
    assert stored["filed"] == {}
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
