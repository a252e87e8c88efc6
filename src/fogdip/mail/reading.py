"""Reading an incoming mail as the judge reads it: who to answer, where it was sent, and the
lines it says, from its text (or its HTML made text), without the quoted reply or the
signature. Whatever the mail holds, reading it never fails: what could not be read is said
in :attr:`Letter.problems`, in words for the sender.

>>> raw = (b"From: Anne <anne@example.org>\\r\\nTo: g1-france-s3cret@judge.example\\r\\n"
...        b"Subject: Re: orders\\r\\nMessage-ID: <abc@example.org>\\r\\n\\r\\n"
...        b"A PAR - BUR\\r\\nREADY\\r\\n\\r\\nOn Mon, 5 Jan 2026, the judge wrote:\\r\\n> S1901M played\\r\\n")
>>> letter = read_letter(raw)
>>> letter.message_id, letter.sender, letter.recipients, letter.subject
('abc@example.org', 'anne@example.org', ('g1-france-s3cret@judge.example',), 'Re: orders')
>>> letter.lines, letter.problems
(('A PAR - BUR', 'READY'), ())
"""

from __future__ import annotations

import codecs
import email.policy
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from email import errors as email_errors
from email.message import Message
from email.parser import BytesParser
from email.utils import getaddresses
from types import MappingProxyType

from fogdip.mail.html_text import html_reading, html_text

#: The most text read from a letter, in characters: orders and press fit many times over.
MAX_TEXT = 100_000


@dataclass(frozen=True)
class Letter:
    """An incoming mail as the judge reads it."""

    #: The Message-ID header, stripped of ``<>``; ``None`` if absent.
    message_id: str | None
    #: The envelope (or ``From:``) address, ONLY to answer to: it never says who is writing.
    sender: str
    #: The addresses it was sent to (the envelope's, else its headers'), lowercased.
    recipients: tuple[str, ...]
    subject: str
    #: The text it says: its text/plain part (or its HTML as text), without quoted replies
    #: (``> ...`` lines, and all from an ``On ... wrote:`` or ``-----Original Message-----``
    #: line) or signature (a ``-- `` line and below); trailing whitespace stripped.
    lines: tuple[str, ...]
    #: What could not be read, in words for the sender (no text part, broken MIME, too large...).
    problems: tuple[str, ...]
    #: Sent by a machine, not a person (a bounce, an out-of-office reply, a delivery report:
    #: RFC 3834): the judge should carry out nothing and answer nothing, or two machines may
    #: write to each other for ever.
    automatic: bool = False


def read_letter(raw: bytes, *, envelope_sender: str | None = None, envelope_recipients: Sequence[str] = ()) -> Letter:
    """The letter in ``raw`` (the message as delivered, headers and body). The envelope's
    sender and recipients, where the mail came by SMTP, are taken over the headers'.

    >>> read_letter(b"\\xff\\xfe not a mail at all", envelope_sender="x@example.org").sender
    'x@example.org'
    """
    try:
        message = BytesParser(policy=email.policy.default).parsebytes(raw)
    except Exception:  # the parser is lenient; this is the last guard
        return Letter(None, envelope_sender or "", _lowered(envelope_recipients), "", (), (UNREADABLE,))
    problems: list[str] = []
    try:
        message_id = _message_id(message)
        sender = (envelope_sender or "").strip().strip("<>") or _first_address(message, ("From", "Sender", "Reply-To"))
        recipients = _lowered(envelope_recipients) or _header_recipients(message)
        subject = " ".join(_header(message, "Subject").split())
        automatic = _automatic(message, envelope_sender)
    except Exception:
        return Letter(None, envelope_sender or "", _lowered(envelope_recipients), "", (), (UNREADABLE,))
    try:
        text = _body_text(message, problems)
    except Exception:
        text = ""
        problems.append(UNREADABLE)
    if len(text) > MAX_TEXT:
        text = text[:MAX_TEXT]
        problems.append(f"the text is too long: only its first {MAX_TEXT:,} characters were read")
    broken = _defects(message)
    if broken:
        problems.insert(0, f"the mail's structure is broken ({broken}): only what could be read was read")
    return Letter(message_id, sender, recipients, subject, said_lines(text), tuple(dict.fromkeys(problems)), automatic)


UNREADABLE = "the mail could not be read at all: send it again as plain text"
#: The answer to an HTML-only mail that could hide text from its sender: nothing in it is read.
HTML_HIDING = (
    "the mail is in HTML only and holds {hiding}: the judge reads plain text only for such mail, so"
    " nothing in it was read or carried out; send your orders as plain text"
)
NO_TEXT = "the mail has no text to read (no plain-text or HTML part): write the commands in the mail's own text"


# --- headers --------------------------------------------------------------------------------


def _clean(text: str) -> str:
    """A header's or a part's text with any undecodable bytes the parser kept replaced."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeError:
        return text.encode("utf-8", "replace").decode("utf-8")


def _header(message: Message, name: str) -> str:
    try:
        value = message.get(name)
        return "" if value is None else _clean(str(value))
    except Exception:
        return ""


def _message_id(message: Message) -> str | None:
    found = _header(message, "Message-ID").strip()
    found = "".join(found.split()).strip("<>")
    return found or None


def _addresses(message: Message, names: Iterable[str]) -> list[str]:
    headers: list[str] = []
    for name in names:
        try:
            values = message.get_all(name) or []
        except Exception:
            continue
        headers.extend(_clean(str(value)) for value in values)
    return [address.strip() for _name, address in getaddresses(headers) if "@" in address]


def _automatic(message: Message, envelope_sender: str | None) -> bool:
    """Whether a machine sent it: a null envelope sender (a bounce), ``Auto-Submitted`` other
    than ``no``, ``Precedence: bulk``, an autoresponder's own header, or a delivery report."""
    if envelope_sender is not None and envelope_sender.strip() in ("", "<>"):
        return True
    submitted = _header(message, "Auto-Submitted").strip().lower()
    if submitted and not submitted.startswith("no"):
        return True
    if _header(message, "Precedence").strip().lower() in ("bulk", "junk", "auto_reply"):
        return True
    if any(_header(message, name) for name in ("X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress")):
        return True
    return message.get_content_type() == "multipart/report"


def _first_address(message: Message, names: Iterable[str]) -> str:
    for name in names:
        found = _addresses(message, (name,))
        if found:
            return found[0]
    return ""


def _lowered(addresses: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(a.strip().lower() for a in addresses if a.strip()))


def _header_recipients(message: Message) -> tuple[str, ...]:
    """Where the headers say it went: To and Cc, then what a mailbox that gathers many
    addresses writes of the one it was delivered to."""
    return _lowered(_addresses(message, ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To")))


# --- the body -------------------------------------------------------------------------------

_DEFECTS: tuple[tuple[type[email_errors.MessageDefect], str], ...] = (
    (email_errors.NoBoundaryInMultipartDefect, "a multipart without its boundary"),
    (email_errors.StartBoundaryNotFoundDefect, "the parts' boundary never appears"),
    (email_errors.CloseBoundaryNotFoundDefect, "the last part is never closed"),
    (email_errors.FirstHeaderLineIsContinuationDefect, "a damaged header"),
    (email_errors.MisplacedEnvelopeHeaderDefect, "a damaged header"),
    (email_errors.MissingHeaderBodySeparatorDefect, "no blank line between headers and text"),
    (email_errors.MultipartInvariantViolationDefect, "a multipart that is not one"),
    (email_errors.InvalidMultipartContentTransferEncodingDefect, "a multipart with an encoding"),
    (email_errors.InvalidBase64PaddingDefect, "damaged base64"),
    (email_errors.InvalidBase64CharactersDefect, "damaged base64"),
    (email_errors.InvalidBase64LengthDefect, "damaged base64"),
)


def _defects(message: Message) -> str:
    """The structural faults the parser found anywhere in the mail, in words."""
    found: list[str] = []
    try:
        for part in message.walk():
            for defect in part.defects:
                found.append(next((w for kind, w in _DEFECTS if isinstance(defect, kind)), "malformed MIME"))
    except Exception:
        found.append("malformed MIME")
    return ", ".join(dict.fromkeys(found))


def _body_text(message: Message, problems: list[str]) -> str:
    """The first text/plain part that is not an attachment, else the first such HTML part as
    text; every attachment passed over is named in ``problems``."""
    plain: Message | None = None
    html: Message | None = None
    for part in message.walk():
        if part.is_multipart():
            continue
        kind = part.get_content_type()
        attached = part.get_content_disposition() == "attachment"
        if not attached and kind == "text/plain" and plain is None:
            plain = part
        elif not attached and kind == "text/html" and html is None:
            html = part
        elif attached:
            problems.append(_ignored(part))
    if plain is not None:
        return _decoded(plain, problems)
    if html is not None:
        text, hiding = html_reading(_decoded(html, problems))
        if hiding is not None:
            problems.append(HTML_HIDING.format(hiding=hiding))
            return ""
        return text
    problems.append(NO_TEXT)
    return ""


def _ignored(part: Message) -> str:
    name = _clean(part.get_filename() or "") or part.get_content_type()
    payload = part.get_payload()
    size = len(payload) - payload.count("\n") - payload.count("\r") if isinstance(payload, str) else 0
    if str(part.get("Content-Transfer-Encoding", "")).strip().lower() == "base64":
        size = size * 3 // 4
    return f"the attachment {name!r} ({_size(size)}) was ignored: only the mail's own text is read"


def _size(count: int) -> str:
    """A size in words.

    >>> _size(10 * 1024 * 1024), _size(2048), _size(12)
    ('10.0 MB', '2 KB', '12 bytes')
    """
    if count >= 1024 * 1024:
        return f"{count / (1024 * 1024):.1f} MB"
    if count >= 1024:
        return f"{count // 1024} KB"
    return f"{count} bytes"


def _decoded(part: Message, problems: list[str]) -> str:
    """A text part's words: its transfer encoding undone, its charset applied, any byte the
    charset cannot read replaced (and said)."""
    payload = part.get_payload(decode=True)
    data = payload if isinstance(payload, bytes) else b""
    declared = part.get_content_charset()
    charset = (declared or "us-ascii").strip().lower()
    try:
        codecs.lookup(charset)
    except (LookupError, ValueError):
        problems.append(f"the text's charset {_clean(charset)!r} is not known here: it was read as UTF-8")
        charset = "utf-8"
    if charset in ("us-ascii", "ascii") and not data.isascii():
        if declared is None:
            problems.append("the text has non-ASCII characters but does not say its charset: it was read as UTF-8")
        else:
            problems.append("the text says it is plain ASCII but is not: it was read as UTF-8")
        charset = "utf-8"
    try:
        text = data.decode(charset, "replace")
    except Exception:  # a codec that fails on its own terms
        text = data.decode("utf-8", "replace")
    if "\ufffd" in text and "\ufffd" not in data.decode("utf-8", "ignore"):
        problems.append(f"some characters could not be read as {charset} and are shown as \ufffd")
    return text


# --- what the letter says -------------------------------------------------------------------

_ATTRIBUTION = re.compile(
    r"^\s*((on|le|el|il|op)\b.*\b(wrote|a écrit|escribió|ha scritto|schreef)\s*:?|am\b(?=.*\bschrieb\b).*:)\s*$",
    re.IGNORECASE,
)
_ATTRIBUTION_START = re.compile(r"^\s*(on|le|am|el|il|op)\s", re.IGNORECASE)
_ORIGINAL = re.compile(r"^\s*-{2,}\s*(original message|forwarded message|message d'origine)\s*-{2,}\s*$", re.I)
_RULE = re.compile(r"^\s*_{10,}\s*$")
_SENT_FROM = re.compile(r"^\s*sent from my \S", re.IGNORECASE)
_INVISIBLE = MappingProxyType(str.maketrans({"\u00a0": " ", "\u200b": None, "\ufeff": None}))


_HEADER_FROM = re.compile(r"^\s*\**\s*(from|von|de)\s*:\**\s*\S", re.IGNORECASE)
_HEADER_NEXT = re.compile(
    r"^\s*\**\s*(sent|date|to|subject|gesendet|envoy[ée]|datum|an|objet|betreff)\s*:", re.IGNORECASE
)


def _header_block(lines: Sequence[str], index: int) -> bool:
    """Whether a quoted mail's header block begins at ``index``: a ``From:`` line and, within
    the next three lines, a ``Sent:``, ``Date:``, ``To:`` or ``Subject:`` one. That is how
    Outlook quotes the mail it answers, with no ``>`` marks and no "wrote:" line: the judge's
    own letter below it (a message of press, a report) must never be read as the writer's."""
    if not _HEADER_FROM.match(lines[index]):
        return False
    following = [line for line in lines[index + 1 : index + 5] if line.strip()][:3]
    return any(_HEADER_NEXT.match(line) for line in following)


def said_lines(text: str) -> tuple[str, ...]:
    """The lines a letter says: quoted lines (``>``) left out; everything from a quoted
    reply's heading (``On ... wrote:``, ``-----Original Message-----``) or a signature (a
    ``-- `` line) on left out; trailing whitespace stripped, blank lines at either end dropped.

    Where ``On ... wrote:`` heads a quote marked ``>`` line by line, the lines between the
    quotes are the writer's own answers (written below the quote) and are kept.

    >>> said_lines("ORDERS\\nA PAR H\\n\\n-- \\nAnne, Paris\\n")
    ('ORDERS', 'A PAR H')
    >>> said_lines("On Tue, 6 Jan 2026 at 10:00, Judge\\n<judge@x.example> wrote:\\n> HELP\\n\\nA PAR H")
    ('A PAR H',)
    >>> said_lines("READY\\n-----Original Message-----\\nFrom: judge\\nA MAR H")
    ('READY',)
    >>> said_lines("READY\\n\\nFrom: judge@j.example\\nSent: Saturday 10:03\\nSubject: x\\n\\nDRAW")
    ('READY',)

    A press block closed by its ``ENDPRESS`` is the writer's message, kept whole: its lines
    that begin with ``>`` and a ``-- `` line in it are the message's own (:class:`_Marks`).

    >>> said_lines("PRESS TO ITALY\\n> you said Tyrolia\\n-- \\nyour friend\\nENDPRESS\\n-- \\nAnne")
    ('PRESS TO ITALY', '> you said Tyrolia', '--', 'your friend', 'ENDPRESS')

    A block whose ``ENDPRESS`` lies only past a quoted or forwarded mail's heading is not closed
    (the quoted mail is not the writer's): reading stops at the heading as ever.

    >>> said_lines("PRESS TO ITALY\\nlook\\n-------- Forwarded message --------\\nPRESS\\nx\\nENDPRESS\\nDRAW")
    ('PRESS TO ITALY', 'look')

    Each line is looked at a bounded number of times, so reading takes time in proportion to
    the text, whatever it holds.
    """
    lines = [line.rstrip() for line in text.translate(_INVISIBLE).splitlines()]
    marks = _Marks.of(lines)
    kept: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        end = marks.press_end(index)
        if end is not None:
            kept.extend(lines[index : end + 1])
            index = end + 1
            continue
        if line == "--" or (marks.stop[index] == index and not marks.heading[index]):
            break
        heading = marks.heading[index]
        if heading:
            if not marks.next_said(index + heading).lstrip().startswith(">"):
                break
            index += heading
            continue
        if not line.lstrip().startswith(">"):
            kept.append(line)
        index += 1
    while kept and (not kept[-1].strip() or _SENT_FROM.match(kept[-1])):
        kept.pop()
    while kept and not kept[0].strip():
        kept.pop(0)
    return tuple(kept)


@dataclass(frozen=True)
class _Marks:
    """What each line of a letter is, found in one pass from the end (so that reading is
    linear in the text): for each index ``i`` (and ``len(lines)``, where each holds
    ``len(lines)``), the first line at or after ``i`` that is not blank, that is ``ENDPRESS``,
    and that ends the writer's own text (a stop: a quoted or forwarded mail's heading); and the
    length of the quote heading that begins at ``i`` (0: none).

    >>> marks = _Marks.of(["PRESS TO ITALY", "", "ENDPRESS", "-----Original Message-----", "ENDPRESS"])
    >>> marks.nonblank[1], marks.endpress[0], marks.stop[0], marks.press_end(0)
    (2, 2, 3, 2)
    >>> _Marks.of(["PRESS TO ITALY", "> hi", "endpress"]).press_end(0), _Marks.of(["PRESS", "> hi"]).press_end(0)
    (2, None)
    >>> _Marks.of(["> PRESS TO ITALY", "ENDPRESS"]).press_end(0) is None
    True
    """

    lines: tuple[str, ...]
    nonblank: tuple[int, ...]
    endpress: tuple[int, ...]
    stop: tuple[int, ...]
    heading: tuple[int, ...]

    @classmethod
    def of(cls, lines: Sequence[str]) -> _Marks:
        """The marks of ``lines``."""
        count = len(lines)
        nonblank, endpress, stop = [count] * (count + 1), [count] * (count + 1), [count] * (count + 1)
        heading = [0] * (count + 1)
        for at in range(count - 1, -1, -1):
            line = lines[at]
            nonblank[at] = at if line.strip() else nonblank[at + 1]
            endpress[at] = at if line.strip().upper() == "ENDPRESS" else endpress[at + 1]
            heading[at] = _attribution_length(lines, at)
            following = lines[nonblank[at + 1]] if nonblank[at + 1] < count else ""
            rule_then_from = _RULE.match(line) is not None and following.strip().lower().startswith("from:")
            ends = _ORIGINAL.match(line) is not None or rule_then_from or _header_block(lines, at) or heading[at] > 0
            stop[at] = at if ends else stop[at + 1]
        return cls(tuple(lines), tuple(nonblank), tuple(endpress), tuple(stop), tuple(heading))

    def next_said(self, index: int) -> str:
        """The first line at or after ``index`` that is not blank (``""``: none)."""
        found = self.nonblank[index]
        return self.lines[found] if found < len(self.lines) else ""

    def press_end(self, index: int) -> int | None:
        """Where the press block that begins at ``index`` ends (the index of its ``ENDPRESS``
        line), or ``None``: no block begins there (a line whose first word is ``PRESS`` or
        ``BROADCAST``, not quoted), or it is not closed before the end or before a line that
        ends the writer's own text (a forwarded or quoted mail's heading: an ``ENDPRESS`` below
        it is that mail's). Nothing in the block is read but whether a line is ``ENDPRESS``, as
        :func:`fogdip.mail.commands.parse` reads it, or such a heading; an unclosed block keeps
        the quote and signature stripping (a forgotten ``ENDPRESS`` never sends the quoted mail
        below it as press)."""
        words = self.lines[index].split(maxsplit=1)
        if not words or words[0].upper() not in ("PRESS", "BROADCAST"):
            return None
        end = self.endpress[index + 1]
        return end if end < len(self.lines) and end < self.stop[index + 1] else None


def _attribution_length(lines: Sequence[str], index: int) -> int:
    """How many lines the quote's heading at ``index`` takes (one, or two where a client
    wrapped it), or 0 if none starts there."""
    line = lines[index]
    if _ATTRIBUTION.match(line):
        return 1 if _dated(line) else 0
    if _ATTRIBUTION_START.match(line) and index + 1 < len(lines):
        joined = f"{line} {lines[index + 1]}"
        return 2 if _ATTRIBUTION.match(joined) and _dated(joined) else 0
    return 0


def _dated(heading: str) -> bool:
    """Whether a quote's heading names a date or an address, as every mail client's does (so
    that a line of press such as "On Monday you wrote:" is not taken for one)."""
    return any(c.isdigit() for c in heading) or "@" in heading


__all__ = ["MAX_TEXT", "Letter", "html_text", "read_letter", "said_lines"]
