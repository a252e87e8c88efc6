"""Polling an IMAP mailbox (fogdip.mail.imap) against a real IMAP server: a throwaway
Dovecot (Debian's ``dovecot-imapd``) on a free loopback port, with a temporary configuration
(passwd-file logins, maildirs in a temporary directory, no TLS), run as a user other than
root. Mail is delivered by writing it into the maildir, as a local delivery agent does, or by
IMAP APPEND. Skipped only where the ``dovecot`` program is not installed."""

from __future__ import annotations

import grp
import os
import pwd
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from imap_tools import MailBoxUnencrypted
from imap_tools.query import AND

from fogdip.mail.imap import ImapPoller, ImapSecurity, ImapSettings, Polled, poll_once
from fogdip.mail.reading import read_letter

DOVECOT = shutil.which("dovecot") or next(
    (path for path in ("/usr/sbin/dovecot", "/usr/local/sbin/dovecot") if os.access(path, os.X_OK)), None
)
pytestmark = pytest.mark.skipif(
    DOVECOT is None, reason="no dovecot here: install Debian's dovecot-imapd to test IMAP against a real server"
)
PASSWORD = "correct horse battery"
USERS = [f"judge{number}" for number in range(40)]

CONFIG = """\
base_dir = {home}/run
state_dir = {home}/state
log_path = {home}/dovecot.log
protocols = imap
listen = 127.0.0.1
{ssl}
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
first_valid_uid = 1
first_valid_gid = 1
mail_location = maildir:{home}/mail/%u
default_login_user = {user}
default_internal_user = {user}
default_internal_group = {group}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {home}/passwd
}}
userdb {{
  driver = static
  args = uid={user} gid={group} home={home}/home/%u
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {tls_port}
    ssl = {tls_on}
  }}
}}
service anvil {{
  chroot =
}}
service stats {{
  chroot =
}}
"""


OPENSSL = shutil.which("openssl")


def _certificate(home: Path) -> bool:
    """A self-signed certificate for 127.0.0.1 (``cert.pem``, ``key.pem``), if openssl is here."""
    if OPENSSL is None:
        return False
    made = subprocess.run(
        [
            OPENSSL,
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
            str(home / "key.pem"),
            "-out",
            str(home / "cert.pem"),
        ],
        capture_output=True,
        check=False,
    )
    return made.returncode == 0


@dataclass
class Dovecot:
    """A running throwaway Dovecot: its ports (IMAP, with STARTTLS where a certificate could
    be made; and IMAP over TLS then, else 0), its directory, and a login for each test."""

    home: Path
    port: int
    tls_port: int
    user: str
    process: subprocess.Popen[bytes]
    logins: Iterator[str] = field(default_factory=lambda: iter(USERS))

    def settings(self, login: str, **changes: object) -> ImapSettings:
        values: dict[str, object] = dict(
            password=PASSWORD, security=ImapSecurity.NONE, port=self.port, every=0.1, timeout=10
        )
        values.update(changes)
        return ImapSettings("127.0.0.1", login, **values)  # type: ignore[arg-type]

    def deliver(self, login: str, raw: bytes, name: str) -> None:
        """Write a message into the login's maildir, as a delivery agent does (tmp/, then new/)."""
        maildir = self.home / "mail" / login
        for sub in ("tmp", "new", "cur"):
            (maildir / sub).mkdir(parents=True, exist_ok=True)
        written = maildir / "tmp" / f"{time.time_ns()}.{name}.fogdip-test"
        written.write_bytes(raw)
        for path in (maildir, maildir / "tmp", maildir / "new", maildir / "cur", written):
            shutil.chown(path, self.user, self.user_group)
        written.rename(maildir / "new" / written.name)

    @property
    def user_group(self) -> str:
        return grp.getgrgid(pwd.getpwnam(self.user).pw_gid).gr_name


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def _stop(process: subprocess.Popen[bytes], home: Path) -> None:
    """Stop the Dovecot this module started: its master, by the pid it wrote (it stops and
    reaps its own children), then, should anything be left, the process group it was started in."""
    pidfile = home / "run" / "master.pid"
    try:
        os.kill(int(pidfile.read_text().strip()), signal.SIGTERM)
    except (OSError, ValueError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def dovecot() -> Iterator[Dovecot]:
    """Dovecot on a free loopback port, as the ``dovecot`` user where the tests run as root
    (as Debian's package runs it), else as the user running them."""
    assert DOVECOT is not None
    root = os.geteuid() == 0
    user = "dovecot" if root else pwd.getpwuid(os.geteuid()).pw_name
    group = grp.getgrgid(pwd.getpwnam(user).pw_gid).gr_name
    home = Path(tempfile.mkdtemp(prefix="fogdip-dovecot-"))
    home.chmod(0o755)
    for sub in ("run", "state", "mail", "home"):
        (home / sub).mkdir()
    (home / "passwd").write_text("".join(f"{login}:{{PLAIN}}{PASSWORD}\n" for login in USERS))
    tls = _certificate(home)
    ssl = f"ssl = yes\nssl_cert = <{home}/cert.pem\nssl_key = <{home}/key.pem" if tls else "ssl = no"
    started: Dovecot | None = None
    try:
        for _attempt in range(3):  # a free port may be taken before Dovecot binds it
            port, tls_port = _free_port(), _free_port() if tls else 0
            (home / "dovecot.conf").write_text(
                CONFIG.format(
                    home=home,
                    user=user,
                    group=group,
                    port=port,
                    ssl=ssl,
                    tls_port=tls_port,
                    tls_on="yes" if tls else "no",
                )
            )
            if root:
                for path in [home, *home.rglob("*")]:
                    shutil.chown(path, user, group)
            command = [DOVECOT, "-F", "-c", str(home / "dovecot.conf")]
            if root:
                command = ["runuser", "-u", user, "--", *command]
            process = subprocess.Popen(
                command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
            )
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and process.poll() is None and not _listening(port):
                time.sleep(0.05)
            if process.poll() is None and _listening(port):
                started = Dovecot(home, port, tls_port, user, process)
                break
            _stop(process, home)
        log = (home / "dovecot.log").read_text() if (home / "dovecot.log").exists() else ""
        assert started is not None, f"dovecot did not start:\n{log}"
        yield started
    finally:
        if started is not None:
            _stop(started.process, home)
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture
def login(dovecot: Dovecot) -> str:
    """A mailbox of its own for each test."""
    return next(dovecot.logins)


def letter(number: int, body: str = "A PAR - BUR\r\nREADY\r\n") -> bytes:
    return (
        f"From: Anne <anne@example.org>\r\nTo: g1-france-s3cret@judge.example\r\nSubject: orders {number}\r\n"
        f"Message-ID: <m{number}@example.org>\r\n\r\n{body}"
    ).encode()


def append(dovecot: Dovecot, login: str, raw: bytes, folder: str = "INBOX") -> None:
    with MailBoxUnencrypted("127.0.0.1", dovecot.port).login(login, PASSWORD) as box:
        box.append(raw, folder)


def unseen(dovecot: Dovecot, login: str, folder: str = "INBOX") -> int:
    with MailBoxUnencrypted("127.0.0.1", dovecot.port).login(login, PASSWORD, initial_folder=folder) as box:
        return len(box.uids(AND(seen=False)))


def count(dovecot: Dovecot, login: str, folder: str) -> int:
    with MailBoxUnencrypted("127.0.0.1", dovecot.port).login(login, PASSWORD, initial_folder=folder) as box:
        return len(box.uids("ALL"))


def test_each_message_is_handed_over_once_as_delivered(dovecot: Dovecot, login: str) -> None:
    delivered = [letter(1), letter(2, "PRESS TO GERMANY\r\nFrom Paris, with love\r\nENDPRESS\r\n")]
    dovecot.deliver(login, delivered[0], "one")
    append(dovecot, login, delivered[1])
    handed: list[bytes] = []
    settings = dovecot.settings(login)
    assert poll_once(settings, lambda raw: handed.append(raw) or True) == Polled(done=2)
    assert handed == delivered  # byte for byte: "From " lines unmangled
    assert read_letter(handed[1]).lines == ("PRESS TO GERMANY", "From Paris, with love", "ENDPRESS")
    assert poll_once(settings, lambda raw: handed.append(raw) or True) == Polled()
    assert len(handed) == 2
    assert unseen(dovecot, login) == 0 and count(dovecot, login, "INBOX") == 2


def test_a_message_not_done_waits_for_the_next_poll(dovecot: Dovecot, login: str) -> None:
    dovecot.deliver(login, letter(1), "one")
    settings = dovecot.settings(login)
    answers = iter([False, True])
    handed: list[bytes] = []

    def handle(raw: bytes) -> bool:
        handed.append(raw)
        return next(answers)

    assert poll_once(settings, handle) == Polled(left=1)
    assert unseen(dovecot, login) == 1
    assert poll_once(settings, handle) == Polled(done=1)
    assert poll_once(settings, handle) == Polled()
    assert handed == [letter(1), letter(1)]


def test_a_handler_that_fails_leaves_its_message_and_the_others_go_on(dovecot: Dovecot, login: str) -> None:
    dovecot.deliver(login, letter(1), "one")
    dovecot.deliver(login, letter(2), "two")
    handed: list[bytes] = []

    def handle(raw: bytes) -> bool:
        if b"orders 1" in raw and not handed:
            handed.append(b"failed")
            raise RuntimeError("the database is away")
        handed.append(raw)
        return True

    settings = dovecot.settings(login)
    first = poll_once(settings, handle)
    assert first == Polled(done=1, left=1)
    assert poll_once(settings, handle) == Polled(done=1)
    assert sorted(handed) == sorted([b"failed", letter(1), letter(2)])


def test_done_messages_move_to_the_done_folder(dovecot: Dovecot, login: str) -> None:
    append(dovecot, login, letter(1))
    append(dovecot, login, letter(2))
    settings = dovecot.settings(login, done_folder="Judged")
    handed: list[bytes] = []
    assert poll_once(settings, lambda raw: handed.append(raw) or True) == Polled(done=2)
    assert count(dovecot, login, "INBOX") == 0
    assert count(dovecot, login, "Judged") == 2
    assert poll_once(settings, lambda raw: handed.append(raw) or True) == Polled()
    assert handed == [letter(1), letter(2)]


def test_another_folder_is_polled(dovecot: Dovecot, login: str) -> None:
    with MailBoxUnencrypted("127.0.0.1", dovecot.port).login(login, PASSWORD) as box:
        box.folder.create("Judge")
    append(dovecot, login, letter(1), "Judge")
    append(dovecot, login, letter(2))
    handed: list[bytes] = []
    assert poll_once(dovecot.settings(login, folder="Judge"), lambda raw: handed.append(raw) or True) == Polled(done=1)
    assert handed == [letter(1)]
    assert unseen(dovecot, login) == 1


def test_the_poller_hands_each_message_over_once_and_stops(dovecot: Dovecot, login: str) -> None:
    handed: list[bytes] = []
    lock = threading.Lock()

    def handle(raw: bytes) -> bool:
        with lock:
            handed.append(raw)
        return True

    poller = ImapPoller(dovecot.settings(login, every=0.05), handle).start()
    try:
        dovecot.deliver(login, letter(1), "one")
        _wait(lambda: len(handed) >= 1)
        polls = poller.polls
        _wait(lambda: poller.polls >= polls + 3)  # more polls: nothing handed twice
        append(dovecot, login, letter(2))
        _wait(lambda: len(handed) >= 2)
        polls = poller.polls
        _wait(lambda: poller.polls >= polls + 3)
    finally:
        poller.stop(timeout=15)
    assert not poller.running
    assert handed == [letter(1), letter(2)]
    assert poller.failures == 0
    stopped_at = poller.polls
    time.sleep(0.2)
    assert poller.polls == stopped_at


def test_the_poller_outlives_a_failing_poll() -> None:
    """A server away (nothing listens on the port): each poll fails, is counted, and the next
    one tries again. (A wrong password is not tried here: Dovecot then makes every later
    login from the address wait, whoever's.)"""
    settings = ImapSettings("127.0.0.1", "judge", "pw", ImapSecurity.NONE, port=_free_port(), every=0.05, timeout=2)
    poller = ImapPoller(settings, lambda raw: True).start()
    try:
        _wait(lambda: poller.failures >= 2)
        assert poller.running
    finally:
        poller.stop(timeout=15)
    assert not poller.running


def _wait(condition: object, seconds: float = 20) -> None:
    assert callable(condition)
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


@pytest.mark.parametrize("security", [ImapSecurity.TLS, ImapSecurity.STARTTLS])
def test_over_tls(dovecot: Dovecot, login: str, security: ImapSecurity) -> None:
    """TLS from the start and STARTTLS, the server's certificate checked (against the one the
    fixture made, given as ``ca_file``); a certificate not trusted is refused."""
    if not dovecot.tls_port:
        pytest.skip("no openssl here to make the server a certificate")
    port = dovecot.tls_port if security is ImapSecurity.TLS else dovecot.port
    append(dovecot, login, letter(1))
    trusting = dovecot.settings(login, security=security, port=port, ca_file=str(dovecot.home / "cert.pem"))
    handed: list[bytes] = []
    assert poll_once(trusting, lambda raw: handed.append(raw) or True) == Polled(done=1)
    assert handed == [letter(1)]
    with pytest.raises(ssl.SSLCertVerificationError):
        poll_once(dovecot.settings(login, security=security, port=port), lambda raw: True)
