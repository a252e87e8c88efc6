"""Mail that comes by an IMAP mailbox: polled every so often (``imap-tools``), each unseen
message handed, as the bytes delivered, to the judge's ``handle(raw) -> bool``.

``True`` means the judge is done with it (what it changed is committed): the message is then
marked seen, or moved to a done folder. ``False`` (or an error) leaves it unseen for the next
poll. A message is fetched without marking it seen (``BODY.PEEK``) and marked only after its
handler returned ``True``; if the process dies between the two, the next poll hands it over
again, and the judge acts once on a Message-ID it has seen.

>>> settings = ImapSettings("imap.example.org", "judge", "secret", every=30)
>>> settings.security, settings.port_used, settings.folder
(<ImapSecurity.TLS: 'tls'>, 993, 'INBOX')
>>> "secret" in repr(settings)
False
"""

from __future__ import annotations

import logging
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from imap_tools import BaseMailBox, MailBox, MailBoxStartTls, MailBoxUnencrypted, MailMessage
from imap_tools.query import AND

#: What the judge does with one message: ``True`` when done with it.
Handler = Callable[[bytes], bool]


class ImapSecurity(StrEnum):
    """How the connection is protected: TLS from the start (port 993), STARTTLS (143), or
    nothing (a mailbox on this machine, or a test)."""

    TLS = "tls"
    STARTTLS = "starttls"
    NONE = "none"


@dataclass(frozen=True)
class ImapSettings:
    """Where the judge's mailbox is and how often to look into it."""

    host: str
    user: str
    password: str = field(repr=False)
    security: ImapSecurity = ImapSecurity.TLS
    #: ``None``: the usual port for ``security`` (993 for TLS, else 143).
    port: int | None = None
    folder: str = "INBOX"
    #: Where handled messages go (created if missing); ``None``: they stay, marked seen.
    done_folder: str | None = None
    #: Seconds between polls.
    every: float = 60.0
    #: Seconds to wait for the server before a poll gives up (and the next one tries again).
    timeout: float = 30.0
    #: A file of CA certificates to trust besides the system's (a server whose certificate
    #: is its own); the server's name is checked against its certificate either way.
    ca_file: str | None = None

    @property
    def port_used(self) -> int:
        if self.port is not None:
            return self.port
        return 993 if self.security is ImapSecurity.TLS else 143


@dataclass(frozen=True)
class Polled:
    """What one poll did: messages handed over and done, and those left for the next poll."""

    done: int = 0
    left: int = 0


class _RawMessage(MailMessage):
    """A fetched message that keeps the bytes as delivered (``MailMessage.obj`` is a parsed
    copy, whose bytes may differ)."""

    def __init__(self, fetch_data: list[object]) -> None:
        super().__init__(fetch_data)
        self.raw: bytes = self._get_message_data_parts(fetch_data)[0]


def _context(settings: ImapSettings) -> ssl.SSLContext:
    context = ssl.create_default_context()
    if settings.ca_file is not None:
        context.load_verify_locations(cafile=settings.ca_file)
    return context


def _mailbox(settings: ImapSettings) -> BaseMailBox:
    host, port, timeout = settings.host, settings.port_used, settings.timeout
    if settings.security is ImapSecurity.TLS:
        box: BaseMailBox = MailBox(host, port, timeout=timeout, ssl_context=_context(settings))
    elif settings.security is ImapSecurity.STARTTLS:
        box = MailBoxStartTls(host, port, timeout=timeout, ssl_context=_context(settings))
    else:
        box = MailBoxUnencrypted(host, port, timeout=timeout)
    box.email_message_class = _RawMessage
    return box


def poll_once(settings: ImapSettings, handle: Handler, *, log: logging.Logger | None = None) -> Polled:
    """Log in, hand every unseen message of the folder to ``handle`` (oldest first), mark
    those it is done with seen (or move them to the done folder), and log out. A handler's
    error leaves its message for the next poll and goes on with the others; a connection's
    error is raised (:class:`ImapPoller` logs it and tries again at the next poll)."""
    log = log or logging.getLogger("fogdip.mail")
    done = left = 0
    with _mailbox(settings).login(settings.user, settings.password, initial_folder=settings.folder) as box:
        if settings.done_folder is not None and not box.folder.exists(settings.done_folder):
            box.folder.create(settings.done_folder)
        for message in box.fetch(AND(seen=False), mark_seen=False, bulk=False):
            assert isinstance(message, _RawMessage)
            uid = message.uid
            try:
                handled = bool(handle(message.raw))
            except Exception:
                log.exception("the judge failed on message %s of %s: left for the next poll", uid, settings.folder)
                handled = False
            if not handled or uid is None:
                left += 1
                continue
            if settings.done_folder is not None:
                box.move(uid, settings.done_folder)
            else:
                status, _data = box.client.uid("STORE", uid, "+FLAGS", r"(\Seen)")
                if status != "OK":
                    raise ConnectionError(f"the IMAP server would not mark message {uid} seen: {status}")
            done += 1
    return Polled(done, left)


class ImapPoller:
    """Polls a mailbox every ``settings.every`` seconds in a thread of its own, until
    :meth:`stop`. A poll that fails (the server away, a wrong password) is logged and the next
    one tries again.

    >>> poller = ImapPoller(ImapSettings("127.0.0.1", "u", "p", ImapSecurity.NONE, port=9), lambda raw: True)
    >>> poller.running
    False
    """

    def __init__(self, settings: ImapSettings, handle: Handler, *, log: logging.Logger | None = None) -> None:
        self.settings = settings
        self.handle = handle
        self.log = log or logging.getLogger("fogdip.mail")
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        #: Polls done since it started (failed ones too), for whoever watches it.
        self.polls = 0
        self.failures = 0

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> ImapPoller:
        if self.running:
            return self
        self._stopping.clear()
        self._thread = threading.Thread(target=self.run, name="fogdip-imap", daemon=True)
        self._thread.start()
        return self

    def run(self) -> None:
        """Poll until stopped (in the caller's thread: :meth:`start` runs it in its own)."""
        while not self._stopping.is_set():
            try:
                polled = poll_once(self.settings, self.handle, log=self.log)
                if polled.done or polled.left:
                    self.log.info("IMAP %s: %d handled, %d left", self.settings.folder, polled.done, polled.left)
            except Exception as exc:
                self.failures += 1
                self.log.warning("IMAP poll of %s@%s failed: %s", self.settings.user, self.settings.host, exc)
            self.polls += 1
            self._stopping.wait(self.settings.every)

    def stop(self, timeout: float | None = None) -> None:
        """Stop after the poll under way (if any) ends; wait up to ``timeout`` seconds."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout if timeout is not None else self.settings.timeout + 5)


__all__ = ["Handler", "ImapPoller", "ImapSecurity", "ImapSettings", "Polled", "poll_once"]
