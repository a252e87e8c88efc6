"""Fixtures: a real ``fogdip serve`` per test, on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from servers import PostgresCluster, ServerProcess, postgres_cluster, start_server


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    with postgres_cluster() as cluster:
        yield cluster


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ServerProcess]:
    """``fogdip serve`` on a fresh database of each kind."""
    database = request.getfixturevalue("postgres").new_database() if request.param == "postgresql" else None
    running = start_server(tmp_path / "data", database)
    yield running
    running.stop()
