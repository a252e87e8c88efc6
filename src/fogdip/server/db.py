"""The database: an engine for SQLite (embedded, WAL mode) or PostgreSQL, sessions, and the
migrations that bring it up to date.

>>> import tempfile, pathlib
>>> database = Database(f"sqlite:///{pathlib.Path(tempfile.mkdtemp()) / 'x.sqlite3'}")
>>> database.revision() is None
True
>>> database.upgrade()  # every migration applied; no game an earlier fogdip kept that cannot be read
[]
>>> database.revision() == database.head()
True
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS = Path(__file__).parent / "migrations"
#: The PostgreSQL advisory lock that serialises migrations between processes starting together.
_MIGRATION_LOCK = 0x66_6F_67_64  # "fogd"


class Database:
    """One database, shared by every game of the process (the engine is its connection pool)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        if self.is_sqlite:
            path = url.removeprefix("sqlite:///")
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            self.engine: Engine = create_engine(url, connect_args={"timeout": 30}, json_serializer=_compact)
            event.listen(self.engine, "connect", _sqlite_pragmas)
            # pysqlite's own transaction handling defers BEGIN; fogdip begins itself, IMMEDIATE,
            # so that a transaction that will write holds the write lock from its start (two
            # writers never read the same game and both save it).
            event.listen(self.engine, "begin", lambda connection: connection.exec_driver_sql("BEGIN IMMEDIATE"))
            # Reads go through an engine of their own that begins as SQLite does by default,
            # so that in WAL mode they never wait for a writer.
            self.read_engine: Engine = create_engine(url, connect_args={"timeout": 30}, json_serializer=_compact)
            event.listen(self.read_engine, "connect", _sqlite_pragmas)
            event.listen(self.read_engine, "begin", lambda connection: connection.exec_driver_sql("BEGIN"))
        else:
            self.engine = create_engine(
                url, pool_size=10, max_overflow=20, pool_pre_ping=True, json_serializer=_compact
            )
            self.read_engine = self.engine
        #: SQLite's one writer, as a lock of this process (a server on SQLite is one process).
        self._writer = threading.Lock() if self.is_sqlite else None
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.read_sessions = sessionmaker(self.read_engine, expire_on_commit=False)
        self._committed: list[Callable[[Session], None]] = []
        event.listen(self.sessions, "after_commit", self._after_commit)

    def on_commit(self, callback: Callable[[Session], None]) -> None:
        """Call ``callback`` with the session after each commit of a transaction, on the
        committing thread (what the transaction did is in ``session.info``, left there by who
        did it)."""
        self._committed.append(callback)

    def _after_commit(self, session: Session) -> None:
        for callback in self._committed:
            callback(session)

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A session in one transaction, committed when the block ends without an error.

        On SQLite, where one writer at a time holds the database, the process's writers queue
        on a lock of their own first: a waiting thread wakes as soon as the writer before it is
        done, where SQLite's busy handler would sleep and poll (1 ms, 2 ms, ... 100 ms)."""
        if self._writer is None:
            with self.sessions.begin() as session:
                yield session
            return
        with self._writer, self.sessions.begin() as session:
            yield session

    @contextmanager
    def lookup(self) -> Iterator[Connection]:
        """A connection for one read of one statement (who is asking): no session, no
        transaction of its own beyond the statement's."""
        with self.read_engine.connect() as connection:
            yield connection

    @contextmanager
    def reading(self) -> Iterator[Session]:
        """A session that only reads (it never takes the write lock)."""
        with self.read_sessions.begin() as session:
            yield session

    def upgrade(self) -> list[str]:
        """Apply every migration not yet applied (``fogdip db upgrade``; ``fogdip serve`` at
        start); then turn every game an earlier fogdip kept whole into rows, by fogdip's codec
        (which reads every game file an earlier fogdip wrote). The reasons of the games that
        cannot be read (left as they were, for the admin)."""
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.connect() as connection:
            if self.is_sqlite:
                # SQLite changes a table by copying it and dropping the old one: with foreign
                # keys on, the drop would delete every row that refers to it (ON DELETE
                # CASCADE: a game's seats, events, messages). Off while migrating, outside
                # any transaction (where the pragma takes effect), and checked after.
                connection.connection.driver_connection.execute("PRAGMA foreign_keys=OFF")  # type: ignore[union-attr]
            with connection.begin():
                if not self.is_sqlite:
                    connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
                if self.is_sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").first()
                    if broken is not None:
                        raise RuntimeError(f"a migration left a row that refers to nothing: {tuple(broken)}")
            if self.is_sqlite:
                connection.connection.driver_connection.execute("PRAGMA foreign_keys=ON")  # type: ignore[union-attr]
        # The store reads games with the codec: a layer above the database's own.
        from fogdip.server.store import upgrade_games

        with self.transaction() as session:
            if not self.is_sqlite:
                session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
            return upgrade_games(session)

    def head(self) -> str | None:
        """The latest migration this fogdip has."""
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        head: str | None = ScriptDirectory.from_config(config).get_current_head()
        return head

    def revision(self) -> str | None:
        """The migration the database is at (``None``: none applied)."""
        with self.engine.connect() as connection:
            revision: str | None = MigrationContext.configure(connection).get_current_revision()
            return revision

    def dispose(self) -> None:
        self.engine.dispose()
        self.read_engine.dispose()


def _compact(value: Any) -> str:
    """JSON as the database keeps it: no spaces."""
    return json.dumps(value, separators=(",", ":"))


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    # Let fogdip issue BEGIN itself (see above); WAL lets readers go on while a turn is saved.
    connection.isolation_level = None
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")  # an acknowledged order survives a power cut too
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()
