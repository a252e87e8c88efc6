"""Failed sign-ins: throttled per name and address and per address, and refused then without
checking a password.

Each address here is one a trusted proxy (the test itself, on 127.0.0.1) names in
X-Forwarded-For."""

from __future__ import annotations

import os
import time
from pathlib import Path

import httpx
from argon2 import PasswordHasher

from fogdip.client import FogdipClient

from servers import PASSWORD, ServerProcess, start_server

BEHIND_PROXY = {"FOGDIP_TRUSTED_PROXIES": "127.0.0.1"}


def sign_in(server: ServerProcess, name: str, password: str, address: str) -> httpx.Response:
    return httpx.post(
        server.url + "/api/v1/session",
        json={"name": name, "password": password},
        headers={"X-Forwarded-For": address},
        timeout=60,
    )


def cpu_seconds(pid: int) -> float:
    """User and system CPU time process ``pid`` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def hash_time() -> tuple[float, float]:
    """How long checking a password takes here, with the server's parameters: (wall, CPU)
    seconds, the least of three."""
    hasher = PasswordHasher()
    stored = hasher.hash("a password")
    walls, cpus = [], []
    for _ in range(3):
        wall, cpu = time.perf_counter(), time.process_time()
        hasher.verify(stored, "a password")
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


def test_failed_sign_ins_are_throttled_per_name_and_address(tmp_path: Path) -> None:
    server = start_server(tmp_path / "data", env=BEHIND_PROXY)
    try:
        for name in ("alice", "bob"):
            FogdipClient(server.url).sign_up(name, PASSWORD)
        here, there = "198.51.100.1", "198.51.100.2"
        assert [sign_in(server, "alice", f"guess number {i}", here).status_code for i in range(5)] == [401] * 5
        # The sixth, even with the right password, waits: for this name, from this address.
        throttled = sign_in(server, "alice", PASSWORD, here)
        assert throttled.status_code == 429 and 1 <= int(throttled.headers["Retry-After"]) <= 900
        error = throttled.json()["error"]
        assert error["code"] == "sign-in-throttled" and "try again in" in error["message"]
        # Refused without hashing: thirty more cost less CPU than a few hashes would.
        before = cpu_seconds(server.process.pid)
        assert {sign_in(server, "alice", "another guess", here).status_code for _ in range(30)} == {429}
        assert cpu_seconds(server.process.pid) - before < 10 * hash_time()[1]
        # The same address may still try another name; another address that very name.
        assert sign_in(server, "bob", PASSWORD, here).status_code == 200
        assert sign_in(server, "alice", PASSWORD, there).status_code == 200
        # Alice's success elsewhere does not clear what this address failed.
        assert sign_in(server, "alice", PASSWORD, here).status_code == 429
        # A name nobody has is throttled alike: the throttle tells nothing of which names exist.
        assert [sign_in(server, "nobody", f"guess {i}", here).status_code for i in range(5)] == [401] * 5
        unknown = sign_in(server, "nobody", "guess", here)
        assert unknown.status_code == 429
        assert unknown.json()["error"]["code"] == error["code"]
        assert _without_wait(unknown.json()["error"]["message"]) == _without_wait(error["message"])
    finally:
        server.stop()


def _without_wait(message: str) -> str:
    return message.partition("try again in")[0]


def test_an_address_failing_for_many_names_is_throttled_for_every_name(tmp_path: Path) -> None:
    server = start_server(tmp_path / "data", env=BEHIND_PROXY)
    try:
        FogdipClient(server.url).sign_up("alice", PASSWORD)
        spraying, elsewhere = "198.51.100.3", "198.51.100.4"
        tries = [sign_in(server, f"name{i}", "a common password", spraying).status_code for i in range(20)]
        assert tries == [401] * 20
        throttled = sign_in(server, "alice", PASSWORD, spraying)
        assert throttled.status_code == 429 and "from your address" in throttled.json()["error"]["message"]
        assert sign_in(server, "alice", PASSWORD, elsewhere).status_code == 200
    finally:
        server.stop()
