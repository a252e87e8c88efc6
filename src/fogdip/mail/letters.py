"""The judge's letters: one mail to one recipient, and what each is sent. After a turn each
mail player gets its power's own report with its map (:func:`turn_letter`), the game master
the whole turn (:func:`master_letter`); before a deadline a player who has not filed gets a
reminder (:func:`reminder_letter`).

A letter to a power is built from that power's own report and the table's public facts (the
game's name, the deadline) only; its headers name the judge, the recipient and the seat's own
address, nothing about another seat.

>>> from fogdip.game import Game, Table, TableSettings
>>> game = Game.create("fog-of-war")
>>> _ = game.adjudicate()
>>> table = Table.new("g1", game, TableSettings.for_game(game, name="Lepanto"), master="gm")
>>> letter = turn_letter(table, "FRANCE", game.record.history[-1], map_png=None, deadline=None,
...                      to="anne@example.org", sender="judge@judge.example",
...                      reply_to="g1-france-s3cret@judge.example")
>>> letter["Subject"], letter["To"], letter["Reply-To"]
('fogdip Lepanto: S1901M played — FRANCE', 'anne@example.org', 'g1-france-s3cret@judge.example')
>>> print(letter.get_content().split("\\n\\n")[0])
FRANCE, Spring 1901 movement (S1901M), fog-of-war
Orders:
  A MAR H (ok)
  A PAR H (ok)
  F BRE H (ok)
Units seen:
  FRANCE: F BRE, A MAR, A PAR
Centres known:
  FRANCE: BRE MAR PAR
Visible: BRE BUR ENG GAS MAO MAR PAR PIC PIE SPA
"""

from __future__ import annotations

import email.policy
import hashlib
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime

from fogdip.engine.errors import PhaseError
from fogdip.engine.units import Phase
from fogdip.fog.report import observation_text
from fogdip.game.service import Game
from fogdip.game.table import Table
from fogdip.game.turn_text import turn_text
from fogdip.maps.png import PngUnavailable, svg_to_png
from fogdip.maps.svg import render_svg
from fogdip.maps.views import master_scene_of, power_scene_of
from fogdip.variants.record import TurnRecord

#: A played turn's name when the game is over.
COMPLETED = "COMPLETED"

#: The end of every player's letter: how to write back.
PLAYER_FOOTER = (
    "Reply to this mail to write to the judge (it goes to your seat's own address: keep it to yourself).\n"
    "One command a line: ORDERS and then your orders, or the order lines alone; READY; DRAW or NODRAW;\n"
    "PRESS TO FRANCE, GERMANY ... ENDPRESS; STATUS; HISTORY; MAP; HELP for every command."
)
#: The end of the game master's letter.
MASTER_FOOTER = (
    "Reply to this mail to write to the judge. One command a line: ADJUDICATE, PAUSE, RESUME, EXTEND <hours>,\n"
    "STATUS; HELP for every command."
)


def outgoing(
    to: str,
    subject: str,
    body: str,
    *,
    sender: str,
    reply_to: str | None = None,
    in_reply_to: str | None = None,
    attachments: Sequence[tuple[str, str, bytes]] = (),
    moment: datetime | None = None,
    auto_submitted: str = "auto-generated",
) -> EmailMessage:
    """One mail to one recipient (no Cc, nothing about other seats in any header):
    ``From`` the judge's ``sender``, ``Reply-To`` the seat's own address, a fresh random
    ``Message-ID`` in the sender's domain (:func:`message_id`), ``In-Reply-To`` and ``References`` where it answers
    the mail whose Message-ID (with or without ``<>``) is ``in_reply_to``; its text in UTF-8;
    ``attachments`` as (filename, MIME type, bytes). ``moment`` dates it (default: now).
    ``Auto-Submitted`` (RFC 3834) says a machine wrote it, so that no auto-responder answers
    it: ``auto-generated`` (turn mails, reminders, press), ``auto-replied`` (answers).

    >>> mail = outgoing("anne@example.org", "Re: orders", "Filed: A PAR - BUR (ok)",
    ...                 sender="judge@judge.example", in_reply_to="abc@example.org")
    >>> mail["In-Reply-To"], mail["References"], mail["Message-ID"].endswith("@judge.example>")
    ('<abc@example.org>', '<abc@example.org>', True)
    >>> outgoing("a@example.org, b@example.org", "x", "y", sender="judge@judge.example")
    Traceback (most recent call last):
    ...
    ValueError: a letter goes to exactly one address, not 'a@example.org, b@example.org'
    """
    recipient = _one_address(to)
    judge = _one_address(sender)
    message = EmailMessage()
    message["From"] = judge
    message["To"] = recipient
    if reply_to is not None:
        message["Reply-To"] = _one_address(reply_to)
    message["Subject"] = _one_line(subject)
    message["Date"] = format_datetime((moment or datetime.now(UTC)).astimezone(UTC))
    message["Message-ID"] = message_id(judge.domain or "localhost")
    message["Auto-Submitted"] = auto_submitted
    if in_reply_to:
        answered = "<" + "".join(in_reply_to.split()).strip("<>") + ">"
        message["In-Reply-To"] = answered
        message["References"] = answered
    message.set_content(body if body.endswith("\n") else body + "\n", charset="utf-8")
    digest = hashlib.sha256(body.encode("utf-8", "replace"))
    for filename, kind, data in attachments:
        maintype, _sep, subtype = kind.partition("/")
        message.add_attachment(data, maintype=maintype, subtype=subtype or "octet-stream", filename=filename)
        digest.update(b"\0" + filename.encode("utf-8", "replace") + b"\0" + kind.encode() + b"\0" + data)
    if attachments:
        # The parts' boundary follows from what the letter holds, not from chance, so that
        # two letters that say the same are the same bytes (but for Date and Message-ID).
        message.set_boundary(f"=_fogdip_{digest.hexdigest()[:40]}")
    return message


def message_id(domain: str) -> str:
    """A fresh Message-ID: 128 random bits at ``domain``, nothing else (no clock, no process:
    when a mail was built, or how many were built before it, is no one's to read).

    >>> import re
    >>> bool(re.fullmatch(r"<[0-9a-f]{32}@judge\\.example>", message_id("judge.example")))
    True
    """
    return f"<{secrets.token_hex(16)}@{domain}>"


def _one_address(text: str) -> Address:
    """The one address ``text`` names (a bare address, or ``Name <address>``)."""
    header = EmailMessage()
    try:
        header["To"] = text
        addresses = header["To"].addresses
    except (ValueError, IndexError, TypeError):
        addresses = ()
    if len(addresses) != 1 or "@" not in addresses[0].addr_spec:
        raise ValueError(f"a letter goes to exactly one address, not {text!r}")
    return Address(addresses[0].display_name, addr_spec=addresses[0].addr_spec)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def as_bytes(message: EmailMessage) -> bytes:
    """The letter as it goes over SMTP (CRLF line ends)."""
    return message.as_bytes(policy=email.policy.SMTP)


# --- what a letter says ---------------------------------------------------------------------


def turn_name(name: str) -> str:
    """A turn in words with its name: ``Spring 1901 movement (S1901M)``.

    >>> turn_name("F1901R"), turn_name("S1901S"), turn_name("COMPLETED")
    ('Fall 1901 retreats (F1901R)', 'setup before Spring 1901 (S1901S)', 'the end of the game')
    """
    if name == COMPLETED:
        return "the end of the game"
    if len(name) > 2 and name[0] == "S" and name[-1] == "S" and name[1:-1].isdigit():
        return f"setup before Spring {name[1:-1]} ({name})"
    try:
        return f"{Phase.parse(name).long_name} ({name})"
    except (PhaseError, ValueError):
        return name


def moment_text(moment: datetime) -> str:
    """A deadline as the judge writes it, in UTC.

    >>> moment_text(datetime(2026, 1, 7, 12, 0, tzinfo=UTC))
    '2026-01-07 12:00 UTC (Wednesday)'
    """
    when = moment.astimezone(UTC)
    return f"{when:%Y-%m-%d %H:%M} UTC ({when:%A})"


def _next_line(next_turn: str, deadline: datetime | None, played: bool = False) -> str:
    """What comes next: the next turn and its deadline, or (``played``: a mail of an earlier
    turn, built once later ones were played) that it was played already.

    >>> _next_line("F1901M", None, played=True)
    'Next: Fall 1901 movement (F1901M); it has been played already: its own mail follows.'
    """
    if next_turn == COMPLETED:
        return "The game is over."
    if played:
        return f"Next: {turn_name(next_turn)}; it has been played already: its own mail follows."
    due = (
        f"your orders are due by {moment_text(deadline)}"
        if deadline is not None
        else "it has no deadline: the game master plays it when every seat is ready, or at will"
    )
    return f"Next: {turn_name(next_turn)}; {due}."


def _game_name(table: Table) -> str:
    return _one_line(table.settings.name) or table.id


def turn_letter(
    table: Table,
    power: str,
    turn: TurnRecord,
    *,
    map_png: bytes | None,
    deadline: datetime | None,
    to: str,
    sender: str,
    reply_to: str,
    moment: datetime | None = None,
    played: bool = False,
) -> EmailMessage:
    """What one mail player gets after a turn: its power's text report for the turn
    (:func:`fogdip.fog.report.observation_text` of ``turn.reports[power]``, its own orders
    marked ``(ok)`` or ``(fails)`` in it), the next turn and its ``deadline`` (``played``: the
    next turn was played already), and its map as a PNG attachment. Built from the power's own report and the table's public facts only."""
    power = table.seat(power).power
    seen = turn.reports[power]
    name = _game_name(table)
    parts = [observation_text(seen), _next_line(seen.next_phase, deadline, played)]
    attachments: list[tuple[str, str, bytes]] = []
    if map_png is not None:
        filename = f"{power.lower()}-{seen.phase}.png"
        parts.append(f"Your map after this turn is attached ({filename}).")
        attachments.append((filename, "image/png", map_png))
    body = "\n\n".join(parts) + "\n\n-- \n" + PLAYER_FOOTER
    subject = f"fogdip {name}: {seen.phase} played — {power}"
    return outgoing(to, subject, body, sender=sender, reply_to=reply_to, attachments=attachments, moment=moment)


def master_letter(
    table: Table,
    turn: TurnRecord,
    *,
    map_png: bytes | None,
    deadline: datetime | None,
    to: str,
    sender: str,
    reply_to: str | None = None,
    moment: datetime | None = None,
    played: bool = False,
) -> EmailMessage:
    """The game master's mail: the whole turn (:func:`fogdip.game.turn_text.turn_text`), the
    next deadline (``played``: the next turn was played already), and the whole board as a
    PNG attachment."""
    name = _game_name(table)
    parts = [turn_text(turn), _next_line(turn.position.name, deadline, played)]
    attachments: list[tuple[str, str, bytes]] = []
    if map_png is not None:
        filename = f"board-{turn.turn}.png"
        parts.append(f"The whole board after this turn is attached ({filename}).")
        attachments.append((filename, "image/png", map_png))
    body = "\n\n".join(parts) + "\n\n-- \n" + MASTER_FOOTER
    subject = f"fogdip {name}: {turn.turn} played — the whole turn"
    return outgoing(to, subject, body, sender=sender, reply_to=reply_to, attachments=attachments, moment=moment)


def reminder_letter(
    table: Table,
    power: str,
    *,
    deadline: datetime,
    to: str,
    sender: str,
    reply_to: str,
    moment: datetime | None = None,
) -> EmailMessage:
    """A reminder to a player who has not filed for the next turn: the turn and its
    deadline, and how to answer. It says nothing of the other seats.

    >>> from fogdip.game import Game, Table, TableSettings
    >>> game = Game.create("standard")
    >>> table = Table.new("g1", game, TableSettings.for_game(game, name="Lepanto"), master="gm")
    >>> letter = reminder_letter(table, "FRANCE", deadline=datetime(2026, 1, 7, 12, 0, tzinfo=UTC),
    ...                          to="anne@example.org", sender="judge@judge.example", reply_to="x@judge.example")
    >>> letter["Subject"]
    'fogdip Lepanto: reminder: orders for S1901M due 2026-01-07 12:00 UTC (Wednesday) — FRANCE'
    """
    power = table.seat(power).power
    name = _game_name(table)
    turn = table.turn
    body = (
        f"{power}: you have not filed your orders for {turn_name(turn)} in {name}.\n"
        f"They are due by {moment_text(deadline)}; units without an order hold (or take the game's "
        "default).\n\n-- \n" + PLAYER_FOOTER
    )
    subject = f"fogdip {name}: reminder: orders for {turn} due {moment_text(deadline)} — {power}"
    return outgoing(to, subject, body, sender=sender, reply_to=reply_to, moment=moment)


# --- maps -----------------------------------------------------------------------------------


def _game(table_or_game: Table | Game) -> Game:
    return table_or_game.game if isinstance(table_or_game, Table) else table_or_game


def power_map_png(table_or_game: Table | Game, power: str, phase: str | None = None) -> bytes | None:
    """``power``'s map as a PNG, after ``phase`` (default: its latest report), drawn from its
    own reports as everywhere else (:func:`fogdip.maps.views.power_scene_of`); ``None``
    where PNG cannot be drawn here (no Cairo)."""
    try:
        return svg_to_png(render_svg(power_scene_of(_game(table_or_game), power, phase)))
    except PngUnavailable:
        return None


def master_map_png(table_or_game: Table | Game, turn: str | None = None) -> bytes | None:
    """The whole board after ``turn`` (default: the latest) as a PNG, for the game master;
    ``None`` where PNG cannot be drawn here."""
    try:
        return svg_to_png(render_svg(master_scene_of(_game(table_or_game), turn)))
    except PngUnavailable:
        return None


__all__ = [
    "MASTER_FOOTER",
    "PLAYER_FOOTER",
    "as_bytes",
    "master_letter",
    "master_map_png",
    "moment_text",
    "outgoing",
    "power_map_png",
    "reminder_letter",
    "turn_letter",
    "turn_name",
]
