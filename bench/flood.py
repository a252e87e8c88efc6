"""Heavy requests flooding a real ``fogdip serve``, and how long another account's ``GET /me``
takes meanwhile: the attacks of an outside review (issue 20), replayed.

    python bench/flood.py                          # failed sign-ins, each from an address of its own
    python bench/flood.py --attack one-address     # failed sign-ins, all from one address
    python bench/flood.py --attack import          # game imports (a 6-turn fog-of-war game file)
    python bench/flood.py --database postgresql --threads 8 --seconds 15

The server trusts X-Forwarded-For from 127.0.0.1 (``FOGDIP_TRUSTED_PROXIES``), so that the
attackers can pose as many addresses, as a proxy in front of the server would pass on (the
code before issue 20's fix believed the header from 127.0.0.1 anyway). A failed sign-in checks
a password (Argon2id: a tenth of a second of CPU) unless the throttle refuses it first; an
import checks a whole game file (about half a second of the interpreter).

First ``GET /me`` alone for ``--quiet`` seconds, then with ``--threads`` attackers sending
without pause for ``--seconds``: each phase prints ``/me``'s latency (p50, p95, p99, worst),
that of the victim's own sign-ins (one a second, from an address of its own), what the
attackers were answered, and the CPU the server used. Needs the test extras
(``pip install ".[test]"``), as ``bench/load.py``, whose servers it starts.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import random
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from fogdip.client import FogdipClient
from load import Server, percentile, postgres_database, start_server

PASSWORD = "correct horse battery staple"
ATTACKS = ("sign-in", "one-address", "import")


@dataclass
class Phase:
    """What one phase measured."""

    name: str
    me: list[float] = field(default_factory=list)
    #: The victim's own sign-ins (the right password, from an address of its own), one a second.
    sign_ins: list[float] = field(default_factory=list)
    answers: Counter[int] = field(default_factory=Counter)
    cpu: float = 0.0
    seconds: float = 0.0


def read_me(url: str, token: str, until: float, every: float) -> list[float]:
    """``GET /me`` every ``every`` seconds until ``until`` (``time.monotonic``): each latency."""
    latencies = []
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=120) as http:
        while time.monotonic() < until:
            start = time.perf_counter()
            answer = http.get("/api/v1/me")
            latencies.append(time.perf_counter() - start)
            if answer.status_code != 200:
                raise SystemExit(f"GET /me answered {answer.status_code}: {answer.text[:200]}")
            time.sleep(every)
    return latencies


def sign_ins(url: str, name: str, one_address: bool) -> Callable[[httpx.Client], int]:
    """An attacker's request: a failed sign-in as ``name``, from one address or a new one each."""
    fixed = "198.51.100.66"

    def attempt(http: httpx.Client) -> int:
        address = (
            fixed if one_address else f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"
        )
        answer = http.post(
            "/api/v1/session",
            json={"name": name, "password": "not the password at all"},
            headers={"X-Forwarded-For": address},
        )
        return answer.status_code

    return attempt


def imports(url: str, game_file: dict[str, Any]) -> Callable[[httpx.Client], int]:
    """An attacker's request: an import of ``game_file`` with an account of its own (a token)."""
    importer = FogdipClient(url)
    name = f"importer{random.randrange(10**9)}"
    importer.sign_up(name, PASSWORD)
    importer.sign_in(name, PASSWORD)
    token = importer.make_token("import")
    body = {"game": game_file, "name": "flood", "private": True}

    def attempt(http: httpx.Client) -> int:
        return http.post("/api/v1/games/import", json=body, headers={"Authorization": f"Bearer {token}"}).status_code

    return attempt


def game_file(url: str, turns: int) -> dict[str, Any]:
    """A fog-of-war game of the bots, ``turns`` turns adjudicated, as its game master exports it."""
    master = FogdipClient(url)
    master.sign_up("master", PASSWORD)
    master.sign_in("master", PASSWORD)
    game = master.create_game("fog-of-war")
    master.seat_bots(game.id)
    master.start(game.id)
    for _ in range(turns):
        master.adjudicate(game.id)
    return master.export_game(game.id)


@contextlib.contextmanager
def attacking(url: str, attempt: Callable[[httpx.Client], int], threads: int, answers: Counter[int]) -> Iterator[None]:
    """``threads`` attackers sending ``attempt`` without pause while the block runs."""
    stop = threading.Event()
    lock = threading.Lock()

    def attack() -> None:
        with httpx.Client(base_url=url, timeout=120) as http:
            while not stop.is_set():
                try:
                    status = attempt(http)
                except httpx.HTTPError:
                    status = 0
                with lock:
                    answers[status] += 1

    workers = [threading.Thread(target=attack, daemon=True) for _ in range(threads)]
    for worker in workers:
        worker.start()
    try:
        yield
    finally:
        stop.set()
        for worker in workers:
            worker.join()


def measure(server: Server, token: str, phase: Phase, seconds: float, every: float) -> None:
    cpu, start = server.cpu_seconds(), time.monotonic()
    signing_in = threading.Thread(target=sign_in_often, args=(server.url, start + seconds, phase.sign_ins))
    signing_in.start()
    phase.me = read_me(server.url, token, start + seconds, every)
    signing_in.join()
    phase.seconds = time.monotonic() - start
    phase.cpu = server.cpu_seconds() - cpu


def sign_in_often(url: str, until: float, latencies: list[float]) -> None:
    """The victim signs in with its password once a second until ``until``: each latency."""
    with httpx.Client(base_url=url, timeout=120, headers={"X-Forwarded-For": "192.0.2.1"}) as http:
        while time.monotonic() < until:
            start = time.perf_counter()
            answer = http.post("/api/v1/session", json={"name": "victim", "password": PASSWORD})
            latencies.append(time.perf_counter() - start)
            if answer.status_code != 200:
                raise SystemExit(f"the victim's sign-in answered {answer.status_code}: {answer.text[:200]}")
            time.sleep(1.0)


def run(args: argparse.Namespace, database: str | None, data: Path) -> list[Phase]:
    server = start_server(data, database, args.rate, env={"FOGDIP_TRUSTED_PROXIES": "127.0.0.1"})
    try:
        victim = FogdipClient(server.url)
        victim.sign_up("victim", PASSWORD)
        victim.sign_in("victim", PASSWORD)
        token = victim.make_token("reader")
        if args.attack == "import":
            attempt = imports(server.url, game_file(server.url, args.turns))
        else:
            attempt = sign_ins(server.url, "victim", one_address=args.attack == "one-address")
        quiet = Phase("no flood")
        measure(server, token, quiet, args.quiet, args.every)
        flooded = Phase(f"{args.threads} threads flooding: {args.attack}")
        with attacking(server.url, attempt, args.threads, flooded.answers):
            time.sleep(0.5)  # let the queue form
            measure(server, token, flooded, args.seconds, args.every)
        return [quiet, flooded]
    finally:
        server.stop()


def report(phases: list[Phase]) -> str:
    rows = [
        "| phase | /me asked | p50 ms | p95 ms | p99 ms | worst ms | victim's sign-ins: p50 / worst ms "
        "| attackers answered | server CPU s |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for phase in phases:
        figures = [percentile(phase.me, share) * 1000 for share in (0.5, 0.95, 0.99, 1.0)]
        answered = (
            ", ".join(f"{count} x {status or 'no answer'}" for status, count in sorted(phase.answers.items())) or "-"
        )
        signed = f"{percentile(phase.sign_ins, 0.5) * 1000:.0f} / {max(phase.sign_ins, default=math.nan) * 1000:.0f}"
        rows.append(
            f"| {phase.name} | {len(phase.me)} | "
            + " | ".join(f"{f:.1f}" for f in figures)
            + f" | {signed} | {answered} | {phase.cpu:.1f} of {phase.seconds:.1f} |"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--attack", choices=ATTACKS, default="sign-in")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--threads", type=int, default=8, help="attackers sending without pause (default 8)")
    parser.add_argument("--seconds", type=float, default=15.0, help="how long the flood is measured (default 15)")
    parser.add_argument("--quiet", type=float, default=5.0, help="how long /me is measured alone first (default 5)")
    parser.add_argument("--every", type=float, default=0.05, help="seconds between two /me (default 0.05)")
    parser.add_argument("--turns", type=int, default=6, help="turns played in the imported game file (default 6)")
    parser.add_argument("--rate", type=int, default=1_000_000, help="FOGDIP_RATE (default 1,000,000)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="fogdip-flood-") as data:
        if args.database == "postgresql":
            with postgres_database() as database:
                phases = run(args, database, Path(data))
        else:
            phases = run(args, None, Path(data))
    print(report(phases))
    return 0


if __name__ == "__main__":
    sys.exit(main())
