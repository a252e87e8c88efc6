"""Mail in over SMTP: an embedded SMTP server (aiosmtpd) that a mail server forwards the
judge's domain to. A mail is acknowledged (``250``) only once the judge's transaction, with
all it changed, its answer and its Message-ID, has committed; an error answers ``451`` (the
sending server tries again later) and changes nothing. A mail over the size limit is refused
(``552``) by the server before it is read. Only the judge's domain is taken (``550`` for any
other recipient: the server relays nothing). Whatever became of a mail taken (acted on, acted
on already, named no seat), the server says the same ``250 OK``: it tells no secret's worth.

>>> handler = JudgeHandler(None, "judge.example")  # type: ignore[arg-type]
>>> handler.takes("ab-france-00@Judge.Example"), handler.takes("someone@else.example")
(True, False)
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from fogdip.mail.judge import Judge


def log() -> logging.Logger:
    """The judge's log (looked up when used: nothing is kept at module level)."""
    return logging.getLogger("fogdip.mail")


class JudgeHandler:
    """The SMTP server's handler: each mail's recipients checked, then the judge."""

    def __init__(self, judge: Judge, domain: str) -> None:
        self.judge = judge
        self.domain = domain.lower()

    def takes(self, address: str) -> bool:
        return address.rpartition("@")[2].lower() == self.domain

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        if not self.takes(address):
            return "550 5.1.1 not a mailbox of this judge"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or envelope.content
        if not isinstance(raw, bytes):
            raw = str(raw or "").encode("utf-8", "replace")
        try:
            handled = await asyncio.to_thread(
                self.judge.handle_raw,
                raw,
                envelope_sender=envelope.mail_from or None,
                envelope_recipients=tuple(envelope.rcpt_tos),
            )
        except Exception:
            log().exception("a mail could not be acted on; its sender is asked to try again")
            return "451 4.3.0 the judge could not act on it now: try again later"
        del handled  # acted on, already, or no seat's: the same answer (no oracle of secrets)
        return "250 OK"


class JudgeController(Controller):
    """The SMTP server on ``hostname:port`` (port 0: a free one, read back into ``port``
    once started)."""

    def __init__(self, judge: Judge, hostname: str, port: int, *, domain: str, max_size: int, **kwargs: Any) -> None:
        super().__init__(
            JudgeHandler(judge, domain),
            hostname=hostname,
            port=port,
            data_size_limit=max_size,
            server_hostname=domain,
            ident="fogdip judge",
            **kwargs,
        )

    def _trigger_server(self) -> None:
        if self.server is not None and self.port == 0:
            sockets: list[Any] = list(getattr(self.server, "sockets", ()))  # an asyncio.Server's
            self.port = int(sockets[0].getsockname()[1])
        super()._trigger_server()  # type: ignore[no-untyped-call]


__all__ = ["JudgeController", "JudgeHandler"]
