"""The bytes a phase change costs a returning player: everything the browser fetches (and the
stream sends) after the game's stream says ``phase``, over a real ``fogdip serve``, in Debian's
Chromium with a warm cache (the player has had the game page open before).

    python bench/page_bytes.py [--src path/to/checkout/src] [--phases 3]

A newcomer signs up, starts a fog-of-war game against six bots, loads the game page, and loads
it again (a returning player: the cache is warm). Then, for each phase, it marks ready (the
bots are ready at once, so the turn is played); from the moment the stream says ``phase``, every
HTTP response (its headers and body as sent, compressed or not) and every stream message is
counted, until the page shows the new phase and the network is quiet. ``--src`` runs another
checkout's server (the figures before a change: ``git worktree add /tmp/before <commit>``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from playwright.sync_api import Page, Request, WebSocket, sync_playwright

HERE = Path(__file__).resolve().parents[1]
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"]
PASSWORD = "correct horse battery"


def _port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(src: Path, data: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``fogdip serve`` from the checkout ``src`` on ``data``, waited for; its process and address
    (also the screenshots' server: ``tools/web_shots.py``)."""
    port = _port()
    environment = {**os.environ, "PYTHONPATH": str(src), "FOGDIP_LOG_LEVEL": "warning"}
    process = subprocess.Popen(
        [sys.executable, "-m", "fogdip", "serve", "--data", str(data), "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=environment,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("fogdip serve did not start")


@dataclass
class Counter:
    """What the page received since the stream said ``phase``."""

    armed: bool = False
    fetched: list[tuple[str, int]] = field(default_factory=list)
    streamed: int = 0

    def heard(self, payload: str | bytes) -> None:
        text = payload if isinstance(payload, str) else payload.decode(errors="replace")
        if self.armed:
            self.streamed += len(text.encode())
        elif '"phase"' in text:
            self.armed = True
            self.streamed += len(text.encode())

    def finished(self, request: Request) -> None:
        if not self.armed:
            return
        sizes = request.sizes()
        self.fetched.append((request.url, sizes["responseHeadersSize"] + sizes["responseBodySize"]))


def _phase_change(page: Page, counter: Counter) -> None:
    turn = page.locator("#board").get_attribute("data-turn")
    counter.armed, counter.fetched, counter.streamed = False, [], 0
    # Ready is marked outside the page (as another tab would): the page learns of the new
    # phase from its stream alone, as a player does when others or the deadline play it.
    game = page.url.split("?")[0].rstrip("/").rsplit("/", 1)[-1]
    csrf = page.locator("input[name=csrf_token]").first.get_attribute("value") or ""
    answer = page.request.post(
        page.url.split("/games/")[0] + f"/games/{game}/ready",
        form={"csrf_token": csrf, "turn": turn or "", "ready": "true"},
    )
    assert answer.ok, answer.status
    page.wait_for_function(
        "turn => document.getElementById('board') && document.getElementById('board').dataset.turn !== turn",
        arg=turn,
        timeout=30_000,
    )
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(1500)  # anything a script asks for after the swap, and its events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--src", type=Path, default=HERE / "src", help="the checkout's src whose server to run")
    parser.add_argument("--phases", type=int, default=3, help="how many phase changes to measure")
    args = parser.parse_args()
    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("install Debian's chromium first: apt install chromium")
    with tempfile.TemporaryDirectory() as folder:
        process, url = serve(args.src.resolve(), Path(folder))
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, args=FLAGS)
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                counter = Counter()

                def socket_opened(socket: WebSocket) -> None:
                    socket.on("framereceived", counter.heard)

                page.on("websocket", socket_opened)
                page.on("requestfinished", counter.finished)
                page.goto(url + "/")
                page.locator("#signup-name").fill(f"bench{uuid.uuid4().hex[:6]}")
                page.locator("#signup-password").fill(PASSWORD)
                page.get_by_role("button", name="Sign up and play").click()
                page.get_by_role("button", name="Play fog-of-war").click()
                page.wait_for_selector("#board")
                page.wait_for_load_state("networkidle")
                first = page.evaluate("performance.getEntriesByType('resource').length")
                page.reload()  # a returning player: everything cacheable is cached now
                page.wait_for_selector("#board")
                page.wait_for_load_state("networkidle")
                print(f"server: {args.src}; first load fetched {first} resources")
                totals = []
                for _ in range(args.phases):
                    turn = page.locator("#board").get_attribute("data-turn")
                    _phase_change(page, counter)
                    fetched = sum(size for _url, size in counter.fetched)
                    total = fetched + counter.streamed
                    totals.append(total)
                    now = page.locator("#board").get_attribute("data-turn")
                    print(f"{turn} -> {now}: {total / 1024:.1f} KB ({counter.streamed} B streamed)")
                    print(f"    {len(counter.fetched)} responses")
                    for address, size in counter.fetched:
                        print(f"    {size / 1024:8.1f} KB  {address.replace(url, '')}")
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=10)
    print(f"a phase change costs {max(totals) / 1024:.1f} KB at most ({min(totals) / 1024:.1f} KB at least)")


if __name__ == "__main__":
    main()
