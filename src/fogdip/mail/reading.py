"""STAND-IN (helper B writes the real one): an incoming mail as the judge reads it.

>>> letter = read_letter(b"Message-ID: <a@b>\\r\\nFrom: x@y\\r\\nTo: J@D\\r\\nSubject: hi\\r\\n\\r\\nREADY\\r\\n")
>>> letter.message_id, letter.recipients, letter.lines
('a@b', ('j@d',), ('READY',))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses


@dataclass(frozen=True)
class Letter:
    """An incoming mail as the judge reads it."""

    message_id: str | None
    sender: str
    recipients: tuple[str, ...]
    subject: str
    lines: tuple[str, ...]
    problems: tuple[str, ...]


def read_letter(raw: bytes, *, envelope_sender: str | None = None, envelope_recipients: Sequence[str] = ()) -> Letter:
    """The letter ``raw`` holds (never raises)."""
    problems: list[str] = []
    try:
        message = BytesParser(policy=policy.default).parsebytes(raw)
    except Exception:
        return Letter(
            None, envelope_sender or "", tuple(r.lower() for r in envelope_recipients), "", (), ("unreadable",)
        )
    assert isinstance(message, EmailMessage)
    identifier = str(message.get("Message-ID", "") or "").strip().strip("<>") or None
    sender = envelope_sender or next((a for _n, a in getaddresses([str(message.get("From", ""))]) if a), "")
    recipients = tuple(r.lower() for r in envelope_recipients) or tuple(
        a.lower() for _n, a in getaddresses([str(message.get("To", "")), str(message.get("Cc", ""))]) if a
    )
    text = ""
    try:
        part = message.get_body(preferencelist=("plain",))
        if part is None:
            problems.append("the mail has no plain text part")
        else:
            text = str(part.get_content())
    except Exception:
        problems.append("the mail's text could not be read")
    lines: list[str] = []
    for line in text.splitlines():
        if line == "-- ":
            break
        if line.startswith(">"):
            continue
        lines.append(line.rstrip())
    return Letter(identifier, sender, recipients, str(message.get("Subject", "") or ""), tuple(lines), tuple(problems))


__all__ = ["Letter", "read_letter"]
