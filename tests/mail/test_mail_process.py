"""The judge as it runs: ``fogdip serve --mail`` (the judge inside the server's process), and a
kill -9 between a turn and its mails (``fogdip mail`` started again sends them, once)."""

from __future__ import annotations

import os
import re
import signal
import smtplib
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import httpx
import pytest
from judges import Received, Relay

from fogdip.client import FogdipClient

pytestmark = pytest.mark.slow
SOURCE = str(Path(__file__).resolve().parents[2] / "src")
PASSWORD = "correct horse battery"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def fogdip(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    path = os.pathsep.join(filter(None, [SOURCE, os.environ.get("PYTHONPATH")]))
    environment = {
        **os.environ,
        "PYTHONPATH": path,
        "FOGDIP_LOG_LEVEL": "warning",
        "FOGDIP_MAIL_HOLD": "0",
        "FOGDIP_MAIL_SPREAD": "0",
    }
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "fogdip", *args], stdout=out, stderr=subprocess.STDOUT, env=environment
        )


def wait(what: Callable[[], bool], log: Path, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if what():
                return
        except (OSError, httpx.HTTPError):
            pass
        time.sleep(0.1)
    raise AssertionError(f"not within {seconds} s:\n{log.read_text()}")


def smtp_up(port: int) -> bool:
    with smtplib.SMTP("127.0.0.1", port, timeout=2) as client:
        return client.noop()[0] == 250


def send(port: int, to: str, body: str) -> None:
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"], mail["Message-ID"] = "ann@players.test", to, "orders", make_msgid()
    mail.set_content(body)
    with smtplib.SMTP("127.0.0.1", port, timeout=60) as client:
        client.send_message(mail)


def mails(relay: Relay, to: str) -> list[Received]:
    with relay.lock:
        return [m for m in relay.received if m.recipients == (to,)]


def serve(data: Path, relay_port: int, log: Path) -> tuple[subprocess.Popen[bytes], str, int]:
    http, smtp = free_port(), free_port()
    process = fogdip(
        [
            *("serve", "--data", str(data), "--port", str(http), "--mail", "--smtp-listen", f"127.0.0.1:{smtp}"),
            *("--relay", f"127.0.0.1:{relay_port}", "--domain", "judge.test"),
        ],
        log,
    )
    url = f"http://127.0.0.1:{http}"
    wait(lambda: httpx.get(f"{url}/healthz", timeout=1).status_code == 200, log)
    wait(lambda: smtp_up(smtp), log)
    return process, url, smtp


def game_with_france_by_mail(url: str) -> tuple[FogdipClient, str]:
    master = FogdipClient(url)
    master.sign_up("gmaster", PASSWORD)
    master.sign_in("gmaster", PASSWORD)
    game = master.create_game("fog-of-war", {}, name="by mail").id
    master.request(
        "POST", f"/api/v1/games/{game}/mail-players", json={"power": "FRANCE", "address": "ann@players.test"}
    )
    master.seat_bots(game, None, "random")
    master.start(game)
    return master, game


def test_fogdip_serve_with_mail_takes_orders_by_mail_and_mails_the_turn(tmp_path: Path) -> None:
    relay = Relay()
    relay.start()
    log = tmp_path / "serve.log"
    process, url, smtp = serve(tmp_path / "data", relay.port, log)
    try:
        master, game = game_with_france_by_mail(url)
        wait(lambda: len(mails(relay, "ann@players.test")) == 1, log)
        (welcome,) = mails(relay, "ann@players.test")
        found = re.search(r"\S+-france-[0-9a-f]{32}@judge\.test", welcome.text)
        assert found is not None
        send(smtp, found.group(0), "ORDERS\nA PAR - BUR\nA MAR - SPA\nF BRE - MAO\n")
        wait(lambda: len(mails(relay, "ann@players.test")) == 2, log)
        assert "FILED: 3 order line(s)" in mails(relay, "ann@players.test")[1].text
        master.request("POST", f"/api/v1/games/{game}/adjudicate", json={"turn": "S1901M"})
        wait(lambda: len(mails(relay, "ann@players.test")) == 3, log)
        turn = mails(relay, "ann@players.test")[2]
        assert turn.text.startswith("FRANCE, ") and "A PAR - BUR" in turn.text
        assert [kind for _name, kind, _data in turn.attachments()] == ["image/png"]
    finally:
        process.terminate()
        process.wait(timeout=30)
        relay.stop()


def test_a_kill_between_the_turn_and_its_mails_loses_none_and_sends_none_twice(tmp_path: Path) -> None:
    log = tmp_path / "judge.log"
    dead_relay = free_port()  # nothing listens: every mail stays queued
    process, url, _smtp = serve(tmp_path / "data", dead_relay, log)
    try:
        master, game = game_with_france_by_mail(url)
        master.request("POST", f"/api/v1/games/{game}/adjudicate", json={"turn": "S1901M"})
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    relay = Relay()
    relay.start()
    again = fogdip(
        [
            *("mail", "--data", str(tmp_path / "data"), "--smtp-listen", "off"),
            *("--relay", f"127.0.0.1:{relay.port}", "--domain", "judge.test"),
        ],
        log,
    )
    try:
        wait(lambda: len(mails(relay, "ann@players.test")) == 2, log)
        time.sleep(5)  # two more rounds of the loop: nothing is sent again
        welcome, turn = mails(relay, "ann@players.test")
        assert "Welcome" in welcome.text and turn.text.startswith("FRANCE, ")
        assert len(relay.received) == 2
    finally:
        again.terminate()
        again.wait(timeout=30)
        relay.stop()


OTHERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA")


def timed_ready_that_plays_the_turn(tmp_path: Path, others_by_mail: bool) -> tuple[float, Relay]:
    """How long TURKEY's web READY takes, the last one, which plays S1901M: the other six seats
    played by mail (each READY by mail) or on the web."""
    tmp_path.mkdir()
    relay = Relay()
    relay.start()
    log = tmp_path / "serve.log"
    process, url, smtp = serve(tmp_path / "data", relay.port, log)
    try:
        master = FogdipClient(url)
        master.sign_up("gmaster", PASSWORD)
        master.sign_in("gmaster", PASSWORD)
        created = master.create_game("fog-of-war", {}, name="timed")
        game, invite = created.id, created.invite
        players: list[FogdipClient] = []
        for power in OTHERS:
            if others_by_mail:
                master.request(
                    "POST",
                    f"/api/v1/games/{game}/mail-players",
                    json={"power": power, "address": f"{power.lower()}@players.test"},
                )
            else:
                player = FogdipClient(url)
                player.sign_up(power.lower(), PASSWORD)
                player.sign_in(power.lower(), PASSWORD)
                player.join(game, power, invite)
                players.append(player)
        turkey = FogdipClient(url)
        turkey.sign_up("turkey", PASSWORD)
        turkey.sign_in("turkey", PASSWORD)
        turkey.join(game, "TURKEY", invite)
        master.start(game)
        if others_by_mail:
            for power in OTHERS:
                to = f"{power.lower()}@players.test"
                wait(lambda to=to: len(mails(relay, to)) == 1, log)
                found = re.search(rf"\S+-{power.lower()}-[0-9a-f]{{32}}@judge\.test", mails(relay, to)[0].text)
                assert found is not None
                send(smtp, found.group(0), "READY\n")
                wait(lambda to=to: len(mails(relay, to)) == 2, log)  # its answer: the READY is taken
        else:
            for player in players:
                player.ready(game, turn="S1901M")
        assert master.game(game).turn == "S1901M"
        start = time.perf_counter()
        turkey.ready(game, turn="S1901M")
        took = time.perf_counter() - start
        assert master.game(game).turn != "S1901M"
        if others_by_mail:
            for power in OTHERS:  # the turn's mails still come, right after
                to = f"{power.lower()}@players.test"
                wait(lambda to=to: len(mails(relay, to)) == 3, log)
                assert mails(relay, to)[2].text.startswith(f"{power}, ")
        return took, relay
    finally:
        process.terminate()
        process.wait(timeout=30)
        relay.stop()


def test_the_request_that_plays_a_turn_takes_no_longer_with_more_seats_by_mail(tmp_path: Path) -> None:
    # The turn's mails (a map drawn for each) are built in the judge's loop after the turn's
    # commit, never in the request: its time tells nothing of how many others play by mail.
    by_web, _relay = timed_ready_that_plays_the_turn(tmp_path / "web", others_by_mail=False)
    by_mail, _relay = timed_ready_that_plays_the_turn(tmp_path / "mail", others_by_mail=True)
    assert by_mail < 2 * by_web + 0.05, (by_mail, by_web)
