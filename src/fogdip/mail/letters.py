"""STAND-IN (helper B writes the real one): the mails the judge sends.

>>> mail = outgoing("p@x.example", "hi", "body", sender="judge@j.example")
>>> mail["To"], mail["Subject"]
('p@x.example', 'hi')
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

from fogdip.fog.report import observation_text
from fogdip.game import Table
from fogdip.game.turn_text import turn_text
from fogdip.maps import master_scene_of, power_scene_of, render_svg
from fogdip.maps.png import PngUnavailable, svg_to_png
from fogdip.variants.record import TurnRecord


def outgoing(
    to: str,
    subject: str,
    body: str,
    *,
    sender: str,
    reply_to: str | None = None,
    in_reply_to: str | None = None,
    attachments: Sequence[tuple[str, str, bytes]] = (),
) -> EmailMessage:
    """One mail to one recipient."""
    mail = EmailMessage()
    mail["From"] = sender
    mail["To"] = to
    if reply_to:
        mail["Reply-To"] = reply_to
    mail["Subject"] = subject
    mail["Date"] = format_datetime(datetime.now().astimezone())
    mail["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or None)
    if in_reply_to:
        mail["In-Reply-To"] = f"<{in_reply_to}>"
        mail["References"] = f"<{in_reply_to}>"
    mail.set_content(body)
    for filename, mime, data in attachments:
        main, _, sub = mime.partition("/")
        mail.add_attachment(data, maintype=main, subtype=sub, filename=filename)
    return mail


def power_map_png(table: Table, power: str, phase: str | None = None) -> bytes | None:
    """``power``'s map as PNG (``None`` where Cairo is missing)."""
    try:
        return svg_to_png(render_svg(power_scene_of(table.game, power, phase)))
    except PngUnavailable:
        return None


def _deadline(deadline: datetime | None) -> str:
    return "none" if deadline is None else deadline.strftime("%Y-%m-%d %H:%M UTC")


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
) -> EmailMessage:
    """One mail player's turn mail: its report, the next turn and deadline, its map."""
    body = f"{observation_text(turn.reports[power])}\n\nNext: {turn.position.name}; deadline {_deadline(deadline)}.\n"
    files = [] if map_png is None else [(f"{power.lower()}-{turn.turn}.png", "image/png", map_png)]
    subject = f"fogdip {table.settings.name}: {turn.turn} played - {power}"
    return outgoing(to, subject, body, sender=sender, reply_to=reply_to, attachments=files)


def master_letter(
    table: Table, turn: TurnRecord, *, map_png: bytes | None, deadline: datetime | None, to: str, sender: str
) -> EmailMessage:
    """The game master's turn mail: the whole turn."""
    files = [] if map_png is None else [(f"board-{turn.turn}.png", "image/png", map_png)]
    body = f"{turn_text(turn)}\n\nDeadline {_deadline(deadline)}.\n"
    return outgoing(to, f"fogdip {table.settings.name}: {turn.turn} played", body, sender=sender, attachments=files)


def master_map_png(table: Table) -> bytes | None:
    """The board as PNG (``None`` where Cairo is missing)."""
    try:
        return svg_to_png(render_svg(master_scene_of(table.game)))
    except PngUnavailable:
        return None


def reminder_letter(
    table: Table, power: str, *, deadline: datetime, to: str, sender: str, reply_to: str
) -> EmailMessage:
    """A reminder to a player that has filed nothing."""
    body = f"{power}: you have filed no orders for {table.turn}; the deadline is {_deadline(deadline)}.\n"
    return outgoing(to, f"fogdip {table.settings.name}: reminder - {power}", body, sender=sender, reply_to=reply_to)


__all__ = ["master_letter", "master_map_png", "outgoing", "power_map_png", "reminder_letter", "turn_letter"]
