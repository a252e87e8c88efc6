"""A mail's commands carried out against its table, through the table's own rules (those the
web's routes call), and the answer that quotes each line with what was understood and, for
each order, the filing check's verdict (the same :class:`LineCheck` the web shows).

Orders first: every order line of the mail, as one set, replacing what was filed (if one line
is refused, nothing is filed, as on the web, and the answer says so plainly); then each command
in its order. A command the table refuses gets its refusal's words; the others still go.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field
from datetime import datetime

from fogdip.bots.base import bot_named
from fogdip.engine.errors import FogdipError
from fogdip.fog.observation import Observation
from fogdip.fog.report import observation_text
from fogdip.game import Actor, Refusal, Table
from fogdip.game.settings import Role
from fogdip.game.turn_text import turn_text
from fogdip.mail import commands as c
from fogdip.mail.config import MailSettings
from fogdip.mail.turns import png, rules_summary
from fogdip.maps import master_scene_of, power_scene_of
from fogdip.server.models import MAIL_MASTER, MailPlayer
from fogdip.server.security import mail_secret
from fogdip.server.store import SqlStore
from fogdip.variants.filing import LineCheck
from fogdip.variants.record import filed_texts

#: The longest message, as the web takes it (:class:`fogdip.codec.api.MessageIn`).
LONGEST_PRESS = 4000


@dataclass
class Answer:
    """The answer's lines, and what is attached to it (``(filename, mime type, bytes)``).

    >>> answer = Answer()
    >>> answer.said(("READY",), "ready")
    >>> answer.lines
    ['> READY', '  ready']
    """

    lines: list[str] = field(default_factory=list)
    attachments: list[tuple[str, str, bytes]] = field(default_factory=list)

    def said(self, quoted: tuple[str, ...], *words: str) -> None:
        self.lines.extend(f"> {line}" for line in quoted)
        self.lines.extend(f"  {word}" for word in words)


def _deadline(moment: datetime | None) -> str:
    return "none" if moment is None else moment.strftime("%Y-%m-%d %H:%M UTC")


def _file(table: Table, actor: Actor, steps: list[c.Step], answer: Answer) -> None:
    """File the mail's order lines as one set; each line's verdict, and plainly whether
    anything was filed."""
    orders = [step for step in steps if isinstance(step.command, (c.OrderLine, c.OrdersStart))]
    lines = [step.command.text for step in orders if isinstance(step.command, c.OrderLine)]
    if not orders:
        return
    checks: list[LineCheck] = []
    refusal: Refusal | None = None
    try:
        checks = table.file(actor, lines, turn=None)
    except Refusal as exc:
        refusal = exc
        checks = list(exc.lines)
    verdicts = iter(checks)
    for step in orders:
        if isinstance(step.command, c.OrdersStart):
            answer.said(step.quoted, "understood: your orders, as the lines below")
            continue
        check = next(verdicts, None)
        if check is None:
            answer.said(step.quoted, "an order line (not checked: see below)")
        elif check.ok:
            answer.said(step.quoted, "order: accepted")
        else:
            answer.said(step.quoted, f"order: REFUSED: {check.error}")
    answer.lines.append("")
    if refusal is None:
        answer.lines.append(f"FILED: {len(lines)} order line(s) for {table.turn}, replacing what you filed before.")
    elif refusal.lines:
        bad = sum(1 for check in checks if not check.ok)
        answer.lines.append(
            f"NOTHING WAS FILED: {bad} of {len(checks)} order lines refused. Fix them and send all your orders again."
        )
    else:
        answer.lines.append(f"NOTHING WAS FILED: {refusal}.")
    answer.lines.append("")


def _status(table: Table, actor: Actor, row: MailPlayer) -> list[str]:
    member = table.member(actor)
    lines = rules_summary(table).splitlines()
    lines.append(f"Deadline: {_deadline(table.clock.deadline)}")
    counted = table.ready_told(member)
    if counted is not None:
        lines.append(f"Ready: {counted.ready} of {counted.of}")
    if member.power is not None:
        seat = table.seat(member.power)
        filed = table.game.record.filed.get(member.power)
        lines.append(
            f"You play {member.power}: {'ready' if seat.ready else 'not ready'}; draw vote {'yes' if seat.draw else 'no'}"
        )
        lines.append("Filed: " + ("nothing" if filed is None else "; ".join(filed_texts(filed)) or "no orders"))
    remind = "none" if row.remind_hours is None else f"{row.remind_hours:g} h before each deadline"
    lines.append(f"Reminder: {remind}")
    return lines


def _history(table: Table, member_power: str | None, phase: str | None) -> list[str]:
    if member_power is None:
        history = table.game.record.history
        if not len(history):
            return ["no turn has been played yet"]
        index = len(history) - 1 if phase is None else history.index_of(phase)
        if index is None:
            return [f"no turn {phase} has been played; played: {', '.join(history.names())}"]
        return turn_text(history[index]).splitlines()
    reports = table.game.reports(member_power)
    chosen: Observation | None
    if phase is None:
        chosen = reports[-1]
    elif phase == "START":
        chosen = reports[0]
    else:  # the report of the turn played (the opening report is named for the turn it opens)
        chosen = next((seen for seen in reversed(reports) if seen.phase == phase), None)
    if chosen is None:
        return [f"no report of {phase}; yours: START, {', '.join(seen.phase for seen in reports[1:])}"]
    return observation_text(chosen).splitlines()


def _map(table: Table, power: str | None, phase: str | None, settings: MailSettings, answer: Answer) -> str:
    scene = power_scene_of(table.game, power, phase) if power else master_scene_of(table.game, phase)
    picture = png(scene, settings)
    if picture is None:
        return "no map: maps cannot be drawn as PNG here"
    name = f"{(power or 'board').lower()}-{phase or table.turn}.png"
    answer.attachments.append((name, "image/png", picture))
    return f"your map is attached ({name})"


def _one(
    table: Table,
    actor: Actor,
    row: MailPlayer,
    command: c.Command,
    moment: datetime,
    store: SqlStore,
    settings: MailSettings,
    answer: Answer,
) -> str | list[str]:
    """Carry out one command; what to say of it (a list: several lines)."""
    member = table.member(actor)
    power = member.power
    if isinstance(command, c.MASTER_COMMANDS) and member.role is not Role.MASTER:
        return "only the game master can do that: nothing done"
    match command:
        case c.SignOn():
            return f"signed on as {'the game master' if power is None else power}"
        case c.SignOff():
            return "nothing below this line is read"
        case c.Help():
            return ["the commands:", *c.HELP.splitlines()]
        case c.Unknown(why=why):
            return f"NOT UNDERSTOOD: {why}; nothing done with this line"
        case c.Press() if not table.press_box:
            return f"REFUSED: this game has no press ({table.settings.press.value}): nobody writes messages in it"
        case c.Press(closed=False):
            return "NOT SENT: a message ends with a line ENDPRESS (none was found)"
        case c.Press(to=to, claim=claim, body=body):
            if not body.strip():
                return "NOT SENT: the message has no text"
            if len(body) > LONGEST_PRESS:
                return f"NOT SENT: a message holds at most {LONGEST_PRESS} characters (as on the web), not {len(body)}"
            message = table.send(actor, list(to) if to is not None else "all", body, claim)
            where = "everyone" if message.recipients is None else ", ".join(message.recipients)
            return f"message sent to {where}" + (f", claiming to be from {message.claim}" if message.claim else "")
        case c.Ready(ready=ready):
            marked = table.mark_ready(actor, ready, turn=None, moment=moment)
            if marked.played is not None:
                return f"ready: every seat was ready, {marked.played} was played (its mail follows)"
            if not ready:
                return "not ready"
            note = f"; {marked.unordered} of your units have no order" if marked.unordered else ""
            return f"ready{note}"
        case c.Draw(vote=vote):
            ended = table.vote_draw(actor, vote)
            return (
                "the game ended in a draw"
                if ended
                else ("you vote for a draw" if vote else "you do not vote for a draw")
            )
        case c.Status():
            return ["the game's status:", *_status(table, actor, row)]
        case c.History(phase=phase):
            return ["your report:" if power else "the turn:", *_history(table, power, phase)]
        case c.MapAsk(phase=phase):
            return _map(table, power, phase, settings, answer)
        case c.SetRemind(hours=hours):
            if row.power == MAIL_MASTER:
                return "reminders are for players"
            row.remind_hours = hours
            return (
                "no reminders"
                if hours is None
                else f"a reminder {hours:g} h before each deadline, if you filed nothing"
            )
        case c.NewAddress():
            row.secret = mail_secret()
            return f"your new address is {settings.seat_address(row.game_id, row.power, row.secret)}: the old one works no more"
        case c.Adjudicate():
            played = table.adjudicate(actor, turn=None, moment=moment, bots=bot_named, rng=random.SystemRandom())
            return f"{played.played} was played; next: {played.next}"
        case c.Pause():
            table.pause(actor, moment)
            return "the game is paused"
        case c.Resume():
            table.resume(actor, moment)
            return f"the game runs again; deadline {_deadline(table.clock.deadline)}"
        case c.Extend(hours=hours):
            table.extend(actor, hours * 3600)
            return f"the deadline is now {_deadline(table.clock.deadline)}"
    return "nothing done"


def carry_out(
    table: Table,
    actor: Actor,
    row: MailPlayer,
    steps: list[c.Step],
    moment: datetime,
    store: SqlStore,
    settings: MailSettings,
) -> Answer:
    """Carry out the mail's commands (orders first), and the answer to them."""
    answer = Answer()
    _file(table, actor, steps, answer)
    had_orders = any(isinstance(step.command, (c.OrderLine, c.OrdersStart)) for step in steps)
    for step in steps:
        if isinstance(step.command, (c.OrderLine, c.OrdersStart)):
            continue
        try:
            # Each command in a savepoint: one that fails is answered as its own error, and
            # what it wrote is undone; the rest of the mail stands (never a retry loop).
            with store.session.begin_nested():
                said = _one(table, actor, row, step.command, moment, store, settings, answer)
        except Refusal as exc:
            said = f"REFUSED: {exc}"
        except FogdipError as exc:
            said = f"NOT DONE: {exc}"
        except Exception:
            logging.getLogger("fogdip.mail").exception("a mail's command failed: %r", step.command)
            said = "NOT DONE: the judge failed at this command; nothing of it was kept"
        answer.said(step.quoted, *([said] if isinstance(said, str) else said))
    if not steps:
        answer.lines.append("This mail held no commands and no orders: nothing was done. HELP lists the commands.")
    if not had_orders and table.member(actor).power is not None:
        answer.lines.extend(["", "No orders were filed (this mail held no order lines)."])
    return answer


__all__ = ["Answer", "carry_out"]
