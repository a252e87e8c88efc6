"""What saving a turn costs the server, in a long game: the turn appended as rows (now) against
the whole game rewritten as one game file (as the server kept games before migration 0007).

    python bench/save.py [--turns 50] [--repeat 20]

A fog-of-war game is played for ``--turns`` turns with random orders and kept ``--repeat`` times
in a fresh SQLite database, through the server's own store; then each copy's next turn is
played and saved, and the same turn's whole game file is written into a row as the old server
did. The database's engine is warm (its statements compiled), as a running server's is. Printed: milliseconds per save (median and best) and the bytes written.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import text

from fogdip.bots.variant_bot import random_turn_orders
from fogdip.codec.gamefiles import game_from_json, game_to_json
from fogdip.game import Actor, Game, Table, TableSettings
from fogdip.server.db import Database
from fogdip.server.models import User
from fogdip.server.store import ReadCache, SqlStore

MOMENT = datetime(2026, 1, 1, tzinfo=UTC)


def _played(turns: int, seed: int) -> Game:
    game = Game.create("fog-of-war", end_year=1901 + turns)
    rng = random.Random(seed)
    while len(game.record.history) < turns and not game.position.completed:
        for power, lines in random_turn_orders(game.variant, game.position, rng).items():
            game.file(power, lines, partial=True)
        game.adjudicate()
    return game


def _database(folder: Path, game: Game, copies: int) -> Database:
    """A fresh SQLite database holding ``copies`` of the game (``g0``, ``g1``, ...), as the
    server keeps them; its engine warmed by a save first, as a running server's is."""
    db = Database(f"sqlite:///{folder / 'fogdip.sqlite3'}")
    db.upgrade()
    with db.transaction() as session:
        session.add(User(id=1, name="gm", name_key="gm", password_hash="x", is_admin=True, created_at=MOMENT))
    for number in range(copies + 1):
        table = Table.new(f"g{number}", game, TableSettings.for_game(game), master="1")
        with db.transaction() as session:
            SqlStore(session, ReadCache()).add(table, MOMENT)
    return db


def _append(db: Database, game_id: str, orders: dict[str, list[str]]) -> tuple[float, int]:
    """Play the game's next turn and save it through the store; the time of the save alone,
    and the bytes of the rows it wrote."""
    with db.transaction() as session:
        store = SqlStore(session, ReadCache())
        table = store.find(game_id, 1)
        for power, lines in orders.items():
            table.game.file(power, lines, partial=True)
        table.adjudicate(Actor("1"), turn=table.turn, moment=MOMENT)
        start = time.perf_counter()
        store.save(table, MOMENT)
        session.flush()
        elapsed = time.perf_counter() - start
        seq = {"game": game_id}
        written = (
            session.execute(
                text("SELECT length(record) FROM turns WHERE game_id = :game ORDER BY seq DESC LIMIT 1"), seq
            ).scalar_one()
            + session.execute(
                text(
                    "SELECT sum(length(report) + coalesce(length(knowledge), 0)) FROM reports WHERE game_id = :game "
                    "AND seq = (SELECT max(seq) FROM reports WHERE game_id = :game)"
                ),
                seq,
            ).scalar_one()
        )
    return elapsed, int(written)


def _rewrite(db: Database, game_id: str, game: Game, orders: dict[str, list[str]]) -> tuple[float, int]:
    """The same turn, kept as the server did before 0007: the whole game file written into
    its row."""
    for power, lines in orders.items():
        game.file(power, lines, partial=True)
    game.adjudicate()
    with db.transaction() as session:
        start = time.perf_counter()
        record = json.dumps(game_to_json(game.record), separators=(",", ":"))
        session.execute(text("UPDATE games SET record = :record WHERE id = :game"), {"record": record, "game": game_id})
        session.flush()
        elapsed = time.perf_counter() - start
    return elapsed, len(record)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    game = _played(args.turns, 7)
    turns = len(game.record.history)
    orders = random_turn_orders(game.variant, game.position, random.Random(99))
    with tempfile.TemporaryDirectory() as folder:
        db = _database(Path(folder), game, args.repeat)
        _append(db, f"g{args.repeat}", orders)  # the engine's statements compiled, as a server's are
        appended = [_append(db, f"g{number}", orders) for number in range(args.repeat)]
        rewritten = []
        for number in range(args.repeat):
            again = Game(game_from_json(json.loads(json.dumps(game_to_json(game.record)))))
            rewritten.append(_rewrite(db, f"g{number}", again, orders))
        db.dispose()
    print(
        f"a fog-of-war game of {turns} turns; its next turn saved {args.repeat} times (Python {sys.version.split()[0]})"
    )
    for label, runs in (("appended as rows (now)", appended), ("whole game file rewritten (before)", rewritten)):
        times = [seconds * 1000 for seconds, _bytes in runs]
        print(
            f"  {label:36} median {statistics.median(times):6.2f} ms, best {min(times):6.2f} ms, "
            f"{runs[0][1]:,} bytes written"
        )


if __name__ == "__main__":
    main()
