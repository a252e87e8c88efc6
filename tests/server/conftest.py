"""Fixtures: real ``fogdip serve`` processes on SQLite and on PostgreSQL.

``server`` is shared by the tests of one module (one process per database kind): each test
makes its own accounts (:func:`servers.account` makes every name unique) and its own games, so
they never meet. A test that needs a server of its own (it kills it, or counts its accounts)
takes ``fresh_server``. Every server test is marked ``slow``: the fast lane
(``pytest -m "not slow"``) leaves real processes out."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from servers import PostgresCluster, ServerProcess, postgres_cluster, start_server

#: Shared servers serve many tests from one address: their request and stream limits are
#: raised (tests/server/test_limits.py tests the limits on servers of its own).
SHARED = {"FOGDIP_RATE": "100000", "FOGDIP_STREAMS_PER_ADDRESS": "1000", "FOGDIP_STREAMS_PER_ACCOUNT": "100"}


#: The databases a server test runs against, unless its module names fewer (``DATABASES``), or
#: the test itself (``@pytest.mark.databases("sqlite")``):
#: what a module tests of the table's rules as HTTP answers is the same on both (the rules
#: themselves are tested in-process); what storage, streams, concurrency and crashes do is
#: tested on each.
BOTH = ("sqlite", "postgresql")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    marked = metafunc.definition.get_closest_marker("databases")
    kinds = marked.args if marked is not None else getattr(metafunc.module, "DATABASES", BOTH)
    for name, scope in (("server", "module"), ("fresh_server", "function")):
        if name in metafunc.fixturenames:
            metafunc.parametrize(name, kinds, indirect=True, scope=scope)  # type: ignore[arg-type]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    with postgres_cluster() as cluster:
        yield cluster


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """``fogdip serve`` on a fresh database of each kind, shared by the module's tests."""
    database = request.getfixturevalue("postgres").new_database() if request.param == "postgresql" else None
    running = start_server(tmp_path_factory.mktemp("server") / "data", database, env=SHARED)
    yield running
    running.stop()


@pytest.fixture
def fresh_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ServerProcess]:
    """``fogdip serve`` on a fresh database of each kind, for one test alone."""
    database = request.getfixturevalue("postgres").new_database() if request.param == "postgresql" else None
    running = start_server(tmp_path / "data", database)
    yield running
    running.stop()
