"""Real servers for the tests: ``fogdip serve`` started as a process on a loopback port, on a
fresh SQLite data directory or a fresh database of a throwaway PostgreSQL cluster."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from fogdip.client import ApiFailure, FogdipClient

PASSWORD = "correct horse battery"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class ServerProcess:
    """A running ``fogdip serve``: its address, and the process (to stop, or to kill -9)."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def kill(self) -> None:
        """Kill it at once (SIGKILL), as a crash would."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def start_server(
    data: Path,
    database: str | None = None,
    port: int | None = None,
    log_level: str = "warning",
    env: dict[str, str] | None = None,
    args: list[str] | None = None,
) -> ServerProcess:
    """``fogdip serve`` on ``data`` (and ``database``, if given, and more flags ``args``),
    waited for until it answers."""
    port = port or free_port()
    log = data / f"server-{port}.log"
    data.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "fogdip", "serve", "--data", str(data), "--port", str(port)]
    if database:
        command += ["--database", database]
    command += args or []
    # The server runs this checkout's code (a worktree's too), not whichever one is installed.
    source = str(Path(__file__).resolve().parents[2] / "src")
    path = os.pathsep.join(filter(None, [source, os.environ.get("PYTHONPATH")]))
    environment = {**os.environ, "PYTHONPATH": path, "FOGDIP_LOG_LEVEL": log_level, **(env or {})}
    with log.open("ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=environment)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"fogdip serve exited with {process.returncode}:\n{log.read_text()}")
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return ServerProcess(url, process, log)
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"fogdip serve did not answer within 30 s:\n{log.read_text()}")


# --- a throwaway PostgreSQL cluster ----------------------------------------------------------


def _pg_bin(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    for version in ("17", "16", "15", "14"):
        candidate = Path(f"/usr/lib/postgresql/{version}/bin/{name}")
        if candidate.exists():
            return str(candidate)
    raise RuntimeError(
        f"PostgreSQL's {name} was not found: install PostgreSQL (Debian: apt install postgresql-15); "
        "the server tests run against a real PostgreSQL server"
    )


def _as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run its programs as the ``postgres`` user then."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


@dataclass
class PostgresCluster:
    port: int
    directory: Path

    def new_database(self) -> str:
        """A fresh, empty database, and its SQLAlchemy URL."""
        name = f"fogdip_{uuid.uuid4().hex[:12]}"
        subprocess.run(
            _as_postgres([_pg_bin("createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name]),
            check=True,
            capture_output=True,
        )
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{name}"


@contextmanager
def postgres_cluster() -> Iterator[PostgresCluster]:
    """A PostgreSQL cluster made for the tests (``initdb``, ``pg_ctl``), removed after."""
    directory = Path(tempfile.mkdtemp(prefix="fogdip-pg-"))
    data = directory / "data"
    if os.geteuid() == 0:
        shutil.chown(directory, "postgres", "postgres")
    port = free_port()
    subprocess.run(
        _as_postgres([_pg_bin("initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8"]),
        check=True,
        capture_output=True,
    )
    options = f"-p {port} -c listen_addresses=127.0.0.1 -k {directory} -c fsync=on -c max_connections=200"
    subprocess.run(
        _as_postgres(
            [_pg_bin("pg_ctl"), "-D", str(data), "-o", options, "-l", str(directory / "pg.log"), "-w", "start"]
        ),
        check=True,
        capture_output=True,
    )
    try:
        yield PostgresCluster(port, directory)
    finally:
        subprocess.run(
            _as_postgres([_pg_bin("pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]), capture_output=True
        )
        shutil.rmtree(directory, ignore_errors=True)


# --- clients ---------------------------------------------------------------------------------


def unique(name: str) -> str:
    """An account name never used before: ``name`` and a few random characters (a server is
    shared by the tests of a module, each with accounts of its own)."""
    return f"{name[:30]}.{uuid.uuid4().hex[:8]}"


def account(server: ServerProcess, name: str) -> FogdipClient:
    """A new account on ``server``, signed in, named ``name`` made unique (:func:`unique`)."""
    client = FogdipClient(server.url)
    named = unique(name)
    client.sign_up(named, PASSWORD)
    client.sign_in(named, PASSWORD)
    return client


def take_seat(player: FogdipClient, master: FogdipClient, game_id: str, power: str, invite: str | None) -> None:
    """Seat ``player`` on ``power``: by name, or in a gunboat game (where nobody chooses a
    power) by joining and the game master swapping the seat drawn for the one wanted."""
    if master.game(game_id).press != "gunboat":
        player.join(game_id, power, invite=invite)
        return
    drawn = player.join(game_id, invite=invite).power
    assert drawn is not None
    if drawn != power:
        master.swap_seats(game_id, drawn, power)


def failure(call: object, *args: object, **kwargs: object) -> ApiFailure:
    """The error answer ``call`` gets (it must get one)."""
    with pytest.raises(ApiFailure) as caught:
        call(*args, **kwargs)  # type: ignore[operator]
    return caught.value
