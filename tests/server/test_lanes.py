"""Slow requests wait in lanes of their own (``fogdip.server.routing.Lanes``): however many
sign-ins (each a password to check) or game imports come at once, another account's
``GET /me`` keeps answering. Before, they took both worker threads and ``/me`` waited behind
several of them.

Each test floods from threads without pause and times ``/me`` meanwhile against a bound drawn
from how long one of the slow requests takes here, measured in the test: the machine's load
moves both alike."""

from __future__ import annotations

import random
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from test_sign_in_throttle import BEHIND_PROXY, hash_time

from fogdip.client import FogdipClient

from servers import PASSWORD, ServerProcess, account, start_server


@contextmanager
def flooding(server: ServerProcess, attempt: Callable[[httpx.Client], int], threads: int) -> Iterator[list[int]]:
    """``threads`` threads sending ``attempt`` without pause while the block runs; what they
    were answered."""
    stop = threading.Event()
    answers: list[int] = []

    def flood() -> None:
        with httpx.Client(base_url=server.url, timeout=120) as http:
            while not stop.is_set():
                answers.append(attempt(http))

    workers = [threading.Thread(target=flood) for _ in range(threads)]
    for worker in workers:
        worker.start()
    try:
        time.sleep(1.0)  # let the queue form
        yield answers
    finally:
        stop.set()
        for worker in workers:
            worker.join()


def me_latencies(reader: FogdipClient, count: int = 60) -> list[float]:
    """``GET /me`` ``count`` times, 50 ms apart: each one's seconds."""
    latencies = []
    for _ in range(count):
        start = time.perf_counter()
        assert reader.me().name == "victim"
        latencies.append(time.perf_counter() - start)
        time.sleep(0.05)
    return latencies


def reader_of(server: ServerProcess) -> FogdipClient:
    victim = FogdipClient(server.url)  # a server of the test's own: the name is known
    victim.sign_up("victim", PASSWORD)
    victim.sign_in("victim", PASSWORD)
    return FogdipClient(server.url, token=victim.make_token("reader"))


def test_failed_sign_ins_do_not_hold_up_other_requests(tmp_path: Any) -> None:
    """Eight threads send failed sign-ins, each from an address of its own (so the throttle
    never stops them: every one is a password to check)."""
    server = start_server(tmp_path / "data", env=BEHIND_PROXY)
    try:
        reader = reader_of(server)

        def failed_sign_in(http: httpx.Client) -> int:
            address = f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"
            return http.post(
                "/api/v1/session",
                json={"name": "victim", "password": "not the password"},
                headers={"X-Forwarded-For": address},
            ).status_code

        with flooding(server, failed_sign_in, threads=8) as answers:
            latencies = me_latencies(reader)
        wall, _cpu = hash_time()
        assert len(answers) >= 10 and set(answers) == {401}  # the flood ran, each a password checked
        assert max(latencies) < 2.0, f"worst /me {max(latencies):.3f} s"
        median = statistics.median(latencies)
        assert median < wall / 2, f"median /me {median * 1000:.0f} ms, a password's check {wall * 1000:.0f} ms"
        assert FogdipClient(server.url).sign_in("victim", PASSWORD).name == "victim"
    finally:
        server.stop()


def test_game_imports_do_not_hold_up_other_requests(tmp_path: Any) -> None:
    server = start_server(tmp_path / "data")
    try:
        reader = reader_of(server)
        master = account(server, "master")
        game = master.create_game("fog-of-war")
        master.seat_bots(game.id)
        master.start(game.id)
        for _ in range(16):  # a game file of some size: an import takes a while
            master.adjudicate(game.id)
        body = {"game": master.export_game(game.id), "name": "flood", "private": True}
        token = master.make_token("imports")
        headers = {"Authorization": f"Bearer {token}"}

        def import_game(http: httpx.Client) -> int:
            return http.post("/api/v1/games/import", json=body, headers=headers).status_code

        with httpx.Client(base_url=server.url, timeout=120) as http:
            import_times = []
            for _ in range(3):
                start = time.perf_counter()
                assert import_game(http) == 201
                import_times.append(time.perf_counter() - start)
        one_import = min(import_times)
        with flooding(server, import_game, threads=4) as answers:
            latencies = me_latencies(reader)
        assert len(answers) >= 4 and set(answers) == {201}  # the flood ran
        assert max(latencies) < 2.0, f"worst /me {max(latencies):.3f} s"
        median = statistics.median(latencies)
        assert median < one_import / 2, f"median /me {median * 1000:.0f} ms, an import {one_import * 1000:.0f} ms"
    finally:
        server.stop()
