"""Mail out through a relay that asks for STARTTLS and a login, or TLS from the start: a real
aiosmtpd on loopback with a certificate made for the test (its own CA file trusted)."""

from __future__ import annotations

import shutil
import ssl
import subprocess
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session
from sqlalchemy import select

from fogdip.mail.config import MailSettings
from fogdip.mail.letters import outgoing
from fogdip.mail.outbox import queue, send_due
from fogdip.server.db import Database
from fogdip.server.models import OutboxMail

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl makes the test's certificate")


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("tls")
    key, cert = folder / "key.pem", folder / "cert.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1"),
            *("-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
    )
    return key, cert


class _Keep:
    def __init__(self) -> None:
        self.received: list[tuple[str, bytes]] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        with self.lock:
            self.received.append((str(session.authenticated), bytes(envelope.original_content or b"")))
        return "250 OK"


def _login(server: SMTP, session: Session, envelope: Envelope, mechanism: str, data: Any) -> AuthResult:
    ok = isinstance(data, LoginPassword) and (data.login, data.password) == (b"judge", b"s3cret pass")
    return AuthResult(success=ok)


class TlsRelay(Controller):
    def __init__(self, handler: _Keep, **kwargs: Any) -> None:
        super().__init__(handler, hostname="127.0.0.1", port=0, **kwargs)

    def _trigger_server(self) -> None:
        if self.server is not None and self.port == 0:
            self.port = int(next(iter(getattr(self.server, "sockets", ()))).getsockname()[1])
        super()._trigger_server()  # type: ignore[no-untyped-call]


def _context(certificate: tuple[Path, Path]) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(str(certificate[1]), str(certificate[0]))
    return context


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = Database(f"sqlite:///{tmp_path / 'relay.sqlite3'}")
    database.upgrade()
    yield database
    database.dispose()


def _one(db: Database) -> datetime:
    moment = datetime.now(UTC)
    with db.transaction() as session:
        queue(session, outgoing("ann@players.test", "hi", "body", sender="judge@judge.test"), moment)
    return moment


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")  # TLS from the first byte
@pytest.mark.parametrize("mode", ["starttls", "tls"])
def test_mail_goes_out_over_tls_with_a_login(db: Database, certificate: tuple[Path, Path], mode: str) -> None:
    handler = _Keep()
    context = _context(certificate)
    options: dict[str, Any] = {"authenticator": _login, "auth_required": True}
    if mode == "starttls":
        relay = TlsRelay(handler, tls_context=context, require_starttls=True, **options)
    else:
        # The connection is TLS from its first byte: aiosmtpd (1.4) does not know it for AUTH.
        relay = TlsRelay(handler, ssl_context=context, auth_require_tls=False, **options)
    relay.start()
    try:
        settings = MailSettings(
            domain="judge.test",
            relay=("127.0.0.1", relay.port),
            relay_tls=mode,
            relay_user="judge",
            relay_password="s3cret pass",
            relay_cafile=str(certificate[1]),
        )
        moment = _one(db)
        sent = send_due(db, settings, moment)
        with db.reading() as session:
            errors = session.execute(select(OutboxMail.last_error)).scalars().all()
        assert sent == 1, errors
        assert [who for who, _raw in handler.received] == ["True"]
        # A certificate nobody vouched for: not sent.
        untrusted = MailSettings(domain="judge.test", relay=("127.0.0.1", relay.port), relay_tls=mode)
        last = _one(db)
        assert send_due(db, untrusted, last) == 0
        assert send_due(db, settings, last + timedelta(minutes=5)) == 1  # tried again, and sent
        assert len(handler.received) == 2
    finally:
        relay.stop()


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_fogdip_serve_with_mail_trusts_the_relay_cafile_it_is_given(
    tmp_path: Path, certificate: tuple[Path, Path]
) -> None:
    from test_mail_process import PASSWORD, fogdip, free_port, wait

    from fogdip.client import FogdipClient

    handler = _Keep()
    relay = TlsRelay(handler, ssl_context=_context(certificate))
    relay.start()
    log = tmp_path / "serve.log"
    http = free_port()
    process = fogdip(
        [
            *("serve", "--data", str(tmp_path / "data"), "--port", str(http), "--mail", "--smtp-listen", "off"),
            *("--relay", f"127.0.0.1:{relay.port}", "--relay-tls", "tls", "--relay-cafile", str(certificate[1])),
            *("--domain", "judge.test"),
        ],
        log,
    )
    try:
        url = f"http://127.0.0.1:{http}"
        wait(lambda: httpx.get(f"{url}/healthz", timeout=1).status_code == 200, log)
        master = FogdipClient(url)
        master.sign_up("gmaster", PASSWORD)
        master.sign_in("gmaster", PASSWORD)
        game = master.create_game("fog-of-war", {}, name="tls").id
        master.request(
            "POST", f"/api/v1/games/{game}/mail-players", json={"power": "FRANCE", "address": "ann@players.test"}
        )
        wait(lambda: len(handler.received) == 1, log)  # the welcome, over TLS, its certificate checked
    finally:
        process.terminate()
        process.wait(timeout=30)
        relay.stop()
