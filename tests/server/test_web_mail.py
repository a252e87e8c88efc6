"""Mail players on the web, in a real browser (Debian's Chromium) against a real
``fogdip serve --mail`` whose judge sends through a loopback relay (aiosmtpd): the game master
invites a mail player by address on the console, the judge's welcome mail reaches the relay
with the seat's address, the mail player files its orders by mail, and the console shows the
seat filed and ready. A web player has its own seat by mail from its page. Neither mail
address nor any seat's secret reaches another player's page or API answers."""

from __future__ import annotations

import re
import smtplib
import threading
import time
from collections.abc import Iterator
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import httpx
import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from playwright.sync_api import Browser, Page, expect
from test_web_browser import browser  # noqa: F401  (the fixture: one Chromium for the module)
from web_players import live, no_serious_axe_violation, person, web_client

from servers import ServerProcess, free_port, start_server

DOMAIN = "judge.test"
ANN = "ann@players.test"
GINA_MAIL = "gina.mail@players.test"


class _Keep:
    def __init__(self, kept: list[tuple[tuple[str, ...], bytes]], lock: threading.Lock) -> None:
        self.kept = kept
        self.lock = lock

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or envelope.content
        assert isinstance(raw, bytes)
        with self.lock:
            self.kept.append((tuple(envelope.rcpt_tos), raw))
        return "250 OK"


class Relay(Controller):
    """The judge's relay: aiosmtpd on a free loopback port, keeping every mail it is sent."""

    def __init__(self) -> None:
        self.kept: list[tuple[tuple[str, ...], bytes]] = []
        self.lock = threading.Lock()
        super().__init__(_Keep(self.kept, self.lock), hostname="127.0.0.1", port=0)

    def _trigger_server(self) -> None:
        if self.server is not None and self.port == 0:
            self.port = int(self.server.sockets[0].getsockname()[1])
        super()._trigger_server()

    def texts_to(self, address: str) -> list[str]:
        with self.lock:
            raws = [raw for recipients, raw in self.kept if recipients == (address,)]
        texts = []
        for raw in raws:
            mail = BytesParser(policy=policy.default).parsebytes(raw)
            assert isinstance(mail, EmailMessage)
            body = mail.get_body(preferencelist=("plain",))
            assert body is not None
            texts.append(str(body.get_content()))
        return texts

    def wait_for(self, address: str, count: int, seconds: float = 30) -> list[str]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            texts = self.texts_to(address)
            if len(texts) >= count:
                return texts
            time.sleep(0.2)
        raise AssertionError(f"{count} mail(s) to {address} did not come within {seconds} s: {self.texts_to(address)}")


@pytest.fixture
def judged(tmp_path: Path) -> Iterator[tuple[ServerProcess, Relay, int]]:
    """``fogdip serve --mail``: the judge in the server's process, its SMTP server on a free
    loopback port, sending through the relay."""
    relay = Relay()
    relay.start()
    smtp = free_port()
    args = ["--mail", "--smtp-listen", f"127.0.0.1:{smtp}", "--relay", f"127.0.0.1:{relay.port}", "--domain", DOMAIN]
    args += ["--mail-hold", "0", "--mail-spread", "0"]  # (tests/mail/test_hold.py, test_spread.py)
    running = start_server(tmp_path / "data", args=args)
    try:
        yield running, relay, smtp
    finally:
        running.stop()
        relay.stop()


def seat_address(text: str, game_id: str, power: str) -> str:
    found = re.search(rf"{re.escape(game_id.lower())}-{power.lower()}-[A-Za-z0-9_-]+@{re.escape(DOMAIN)}", text)
    assert found, text
    return found.group(0)


def mail_in(port: int, to: str, body: str) -> None:
    """A mail to the judge, as the mail server of its domain hands it on (the From: says
    nothing of who writes: the seat's address does)."""
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = ANN, to, "orders"
    mail.set_content(body)
    with smtplib.SMTP("127.0.0.1", port, timeout=60) as client:
        client.send_message(mail)


def _row(page: Page, power: str) -> object:
    return page.locator(f"#console tr[data-power='{power}']")


def test_the_game_master_invites_a_mail_player_who_files_by_mail(
    browser: Browser,  # noqa: F811
    judged: tuple[ServerProcess, Relay, int],
) -> None:
    server, relay, smtp = judged
    with person(browser, server, "gm") as gm, person(browser, server, "gina") as gina:
        g = gm.page
        g.locator("#new-preset").select_option("fog-of-war")
        g.locator("#new-name").fill("Mail test")
        g.get_by_role("button", name="Create, as its game master").click()
        console = g.locator("#console")
        expect(console).to_contain_text("Game master's console")
        game_id = g.url.rsplit("/", 1)[-1]
        invite = g.locator("#invite-link").input_value().rsplit("/", 1)[-1]

        # The game master invites Ann by mail to FRANCE, on the console.
        g.locator("#invite-mail-power").select_option("FRANCE")
        g.locator("#invite-mail-address").fill(ANN)
        g.get_by_role("button", name="Invite by mail").click()
        expect(_row(g, "FRANCE")).to_contain_text("by mail")  # type: ignore[attr-defined]
        expect(_row(g, "FRANCE")).to_contain_text(ANN)  # type: ignore[attr-defined]
        expect(_row(g, "FRANCE")).to_contain_text("a mail player")  # type: ignore[attr-defined]
        no_serious_axe_violation(g)

        # The judge's welcome, with the seat's own address, reaches the relay.
        (welcome,) = relay.wait_for(ANN, 1)
        address = seat_address(welcome, game_id, "FRANCE")
        secret = address.split("@")[0].rsplit("-", 1)[-1]
        assert "Welcome to Mail test" in welcome

        # Gina plays ENGLAND on the web, and has her seat by mail too, from her own page.
        gina.api.join(game_id, "ENGLAND", invite=invite)
        p = gina.page
        p.goto(f"{server.url}/games/{game_id}")
        p.locator("#by-mail-address").fill(GINA_MAIL)
        p.get_by_role("button", name="Play this seat by mail").click()
        expect(p.locator("#my-mail")).to_contain_text(GINA_MAIL)
        no_serious_axe_violation(p)
        (gina_welcome,) = relay.wait_for(GINA_MAIL, 1)
        gina_address = seat_address(gina_welcome, game_id, "ENGLAND")
        g.reload()
        expect(_row(g, "ENGLAND")).to_contain_text(GINA_MAIL)  # type: ignore[attr-defined]
        expect(_row(g, "ENGLAND")).to_contain_text(gina.name)  # type: ignore[attr-defined]

        # The game master has the game by mail too, from the console.
        g.locator("#master-mail-address").fill("gm.mail@players.test")
        g.get_by_role("button", name="Have the game by mail").click()
        expect(g.locator("#master-mail")).to_contain_text("gm.mail@players.test")
        (master_welcome,) = relay.wait_for("gm.mail@players.test", 1)
        assert "as the game master" in master_welcome

        # The bot on the other seats; the game starts.
        g.get_by_role("button", name="Seat the bot on every free seat").click()
        g.get_by_role("button", name="Start the game").click()
        expect(console).to_contain_text("active")

        # Ann files by mail; the judge answers her; the console shows FRANCE filed and ready.
        mail_in(smtp, address, "ORDERS\nA PAR - BUR\nF BRE - MAO\nREADY\n")
        answers = relay.wait_for(ANN, 2)
        assert "FILED: 2 order line(s)" in answers[-1], answers[-1]
        g.reload()
        expect(_row(g, "FRANCE")).to_contain_text("A PAR - BUR")  # type: ignore[attr-defined]
        expect(_row(g, "FRANCE")).to_contain_text("filed 2 line(s), ready")  # type: ignore[attr-defined]

        # Nothing of Ann's seat by mail reaches Gina: her page (its parts), her API answers.
        p.goto(f"{server.url}/games/{game_id}")
        live(p)
        theirs, _ = web_client(server, gina.name)
        seen = [p.content()]
        for path in (f"/games/{game_id}", f"/games/{game_id}/board", f"/games/{game_id}/console"):
            seen.append(theirs.get(path).text)
        api = httpx.Client(
            base_url=server.url, timeout=30, headers={"authorization": f"Bearer {gina.api.make_token('leaks')}"}
        )
        for path in (f"/api/v1/games/{game_id}", f"/api/v1/games/{game_id}/view", "/api/v1/games"):
            seen.append(api.get(path).text)
        for text in seen:
            assert ANN not in text and secret not in text and address not in text
            assert "by mail (" not in text and "a mail player" not in text
            assert gina_address not in text  # her own seat's secret comes by mail only
            assert "gm.mail@players.test" not in text
        assert any(GINA_MAIL in text for text in seen[:2])  # her own address, to her alone
        # Nor Gina's address and secret to the game master's own pages but the console's own row.
        mine, _ = web_client(server, gm.name)
        assert gina_address not in mine.get(f"/games/{game_id}/console").text
        assert secret not in mine.get(f"/games/{game_id}/console").text
        theirs.close()
        mine.close()
        api.close()
