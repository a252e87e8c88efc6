"""What the judge mails of its own accord: a welcome when a seat is taken by mail, each turn's
mails (each mail player its own power's report and map; the game master the whole turn), and
reminders before a deadline.

Each mail row counts the game's turns whose mails are queued (``mailed_turns``), and the
count moves on in the transaction that queues them, in the judge's loop (:func:`catch_up`),
never in the transaction that plays the turn: a turn's request takes no longer, and holds the
database no longer, however many seats play by mail. Where the judge runs in the process that
plays a turn, the turn's commit wakes the loop (:func:`install`); where another process played
it (``fogdip serve`` beside ``fogdip mail``), the loop's next look finds it. Either way every
turn is mailed once (the counter moves in the transaction that queues its mails), and none is
lost (a crash before the loop ran leaves the counter behind the game's).

Only the power's own report and the table's public facts go into a power's mail (the
letters are built by :mod:`fogdip.mail.letters` from them only).
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from functools import partial
from typing import Any

from sqlalchemy import event, select
from sqlalchemy.orm import Session

from fogdip.fog.knowledge import Knowledge
from fogdip.fog.observation import Observation
from fogdip.game import Table
from fogdip.game.service import Game
from fogdip.game.settings import Status
from fogdip.mail.commands import HELP
from fogdip.mail.config import MailSettings
from fogdip.mail.letters import master_letter, outgoing, reminder_letter, turn_letter
from fogdip.mail.outbox import held_from, held_until, queue
from fogdip.mail.press import queue_press
from fogdip.maps import master_scene_of, render_svg
from fogdip.maps.png import PngUnavailable, svg_to_png
from fogdip.maps.scene import Scene, power_scene
from fogdip.server.db import Database
from fogdip.server.models import MAIL_MASTER, Delivery, GameRow, MailPlayer, Seat, TurnRow
from fogdip.server.store import GAMES_CHANGED, ReadCache, SqlStore, now


def log() -> logging.Logger:
    """The judge's log (looked up when used: nothing is kept at module level)."""
    return logging.getLogger("fogdip.mail")


def png(scene: Scene, settings: MailSettings) -> bytes | None:
    """A map as PNG (``None`` where maps are off, or Cairo is missing)."""
    if not settings.maps:
        return None
    try:
        return svg_to_png(render_svg(scene))
    except PngUnavailable:
        return None


def power_scene_after(game: Game, power: str, report: Observation) -> Scene:
    """``power``'s map after the turn it was told of in ``report``, from its reports up to
    that one only: the same whenever it is drawn (even once the game is over and, in a variant
    that reveals everything at the end, its latest map would show everyone's)."""
    reports = game.view(game.power_named(power)).reports
    index = next(i for i, seen in enumerate(reports) if seen is report or seen == report)
    knowledge = Knowledge.rebuild(power, reports[: index + 1])
    return power_scene(game.position.state.board, reports[index], knowledge)


def seat_address(row: MailPlayer, settings: MailSettings) -> str:
    return settings.seat_address(row.game_id, row.power, row.secret)


def rules_summary(table: Table) -> str:
    """The game's rules in brief, as every member may know them.

    >>> from fogdip.game import Actor
    >>> print(rules_summary(Table.create("g1", "fog-of-war", {}, master=Actor("gm"), name="Friday")))
    Game: Friday (g1), fog-of-war
    Press: white
    Deadlines: none: the game master adjudicates
    Draw votes: secret
    Status: forming; next turn S1901M
    """
    words = table.settings.words()
    deadlines = words["deadlines"] or {}
    timing = ", ".join(f"{kind} {seconds / 3600:g} h" for kind, seconds in sorted(deadlines.items()))
    return "\n".join(
        [
            f"Game: {table.settings.name} ({table.id}), {table.game.variant.name}",
            f"Press: {words['press']}" + (" (to neighbours only)" if words["press_range"] == "adjacent" else ""),
            f"Deadlines: {timing or 'none: the game master adjudicates'}",
            f"Draw votes: {words['draw_votes']}",
            f"Status: {table.status.value}; next turn {table.turn}",
        ]
    )


def welcome_letter(table: Table, row: MailPlayer, settings: MailSettings) -> EmailMessage:
    """The welcome mail of a seat (or the game master) taken by mail."""
    address = seat_address(row, settings)
    who = "the game master" if row.power == MAIL_MASTER else row.power
    body = (
        f"Welcome to {table.settings.name}: you play it by mail, as {who}.\n\n"
        f"Your address at the judge is\n\n    {address}\n\n"
        "Write to it (answering this mail does) with your commands, one a line; it holds your "
        "secret, so keep it to yourself (NEWADDRESS gives you a new one).\n\n"
        f"{rules_summary(table)}\n\n{HELP}\n"
    )
    return outgoing(
        row.address, f"fogdip {table.settings.name}: welcome", body, sender=settings.judge, reply_to=address
    )


def ending_words(outcome: Mapping[str, Any] | None) -> str:
    """How a game ended, as every member is told it.

    >>> ending_words({"result": "draw", "powers": ["FRANCE", "ITALY"], "agreed": "F1903M"})
    'The game is over: a draw between FRANCE and ITALY, agreed before F1903M.'
    >>> ending_words({"result": "solo", "powers": ["RUSSIA"]})
    'The game is over: RUSSIA won alone.'
    """
    if outcome is None:
        return "The game is over."
    powers = [str(power) for power in outcome.get("powers") or []]
    if outcome.get("result") == "solo" and powers:
        return f"The game is over: {powers[0]} won alone."
    shared = " and ".join([", ".join(powers[:-1]), powers[-1]] if len(powers) > 1 else powers) or "nobody"
    agreed = outcome.get("agreed")
    return f"The game is over: a draw between {shared}" + (f", agreed before {agreed}." if agreed else ".")


def ending_letter(
    table: Table, row: MailPlayer, settings: MailSettings, moment: datetime | None = None
) -> EmailMessage:
    """The mail that the game is over, and how it ended (a public fact), dated ``moment``
    (when it ended)."""
    body = f"{ending_words(table.game.outcome())}\n\n{rules_summary(table)}\n\nThank you for playing.\n"
    subject = f"fogdip {table.settings.name}: the game is over"
    return outgoing(
        row.address, subject, body, sender=settings.judge, reply_to=seat_address(row, settings), moment=moment
    )


@dataclass(frozen=True)
class _Due:
    """What is due to one mail row, built from what was read: the row's counters as read
    (queued only if they are still so), the mails (each with the moment of the event it
    follows, which it is held after, :func:`~fogdip.mail.outbox.held_until`: ``None``, its
    own seat's event, not held), and the counters once they are queued."""

    row_id: int
    read: tuple[bool, int, bool]
    mails: tuple[tuple[EmailMessage, datetime | None], ...]
    after: tuple[bool, int, bool]


def _turn_moments(session: Session, game_id: str, first: int) -> dict[int, datetime]:
    """When each turn of ``game_id`` from ``first`` on was played, in whole seconds."""
    rows = session.execute(
        select(TurnRow.seq, TurnRow.created_at).where(TurnRow.game_id == game_id, TurnRow.seq >= first)
    ).all()
    return {int(seq): created.replace(microsecond=0) for seq, created in rows}


def turn_mail(
    table: Table, row: MailPlayer, seq: int, settings: MailSettings, moment: datetime | None, *, last: bool
) -> EmailMessage | None:
    """The mail of the game's ``seq``-th turn (from 1) to ``row``: the game master's the whole
    turn and board, a player's its own power's report and map (``None``: the power was told
    nothing of that turn). It says the same whenever it is built: the map after that turn;
    the deadline if its next turn (``last``: the game's latest) is still to play, else that
    it was played; dated ``moment``, when the turn was played."""
    turn = table.game.record.history[seq - 1]
    letter: Callable[..., EmailMessage]
    if row.power == MAIL_MASTER:
        picture = png(master_scene_of(table.game, turn.turn), settings)
        letter = partial(master_letter, table, turn)
    elif row.power in turn.reports:
        picture = png(power_scene_after(table.game, row.power, turn.reports[row.power]), settings)
        letter = partial(turn_letter, table, row.power, turn)
    else:
        return None
    return letter(
        map_png=picture,
        deadline=table.clock.deadline if last else None,
        to=row.address,
        sender=settings.judge,
        reply_to=seat_address(row, settings),
        moment=moment,
        played=not last,
    )


def _plan_game(session: Session, reads: ReadCache, settings: MailSettings, game_id: str) -> list[_Due]:
    """The mails due to the mail players of ``game_id`` (welcomes, turns not yet mailed, the
    end), built from what ``session`` reads: nothing is written. A turn's mails are held after
    the turn's moment, the end's after the game's last change."""
    rows = list(
        session.execute(select(MailPlayer).where(MailPlayer.game_id == game_id).order_by(MailPlayer.id)).scalars()
    )
    game = session.get(GameRow, game_id)
    if not rows or game is None:
        return []
    over = game.status == Status.FINISHED.value
    waiting = [
        row for row in rows if not row.welcomed or row.mailed_turns < game.turns_played or (over and not row.ended)
    ]
    if not waiting:
        return []
    table = SqlStore(session, reads).table_of(game)
    played = _turn_moments(session, game_id, min(row.mailed_turns for row in waiting) + 1)
    ended = game.updated_at.replace(microsecond=0)
    plans = []
    for row in waiting:
        mails: list[tuple[EmailMessage, datetime | None]] = []
        if not row.welcomed:
            mails.append((welcome_letter(table, row, settings), None))  # its own seat's event
        for seq in range(row.mailed_turns + 1, game.turns_played + 1):
            mail = turn_mail(table, row, seq, settings, played.get(seq), last=seq == game.turns_played)
            if mail is not None:
                mails.append((mail, played.get(seq)))
        if over and not row.ended:
            mails.append((ending_letter(table, row, settings, ended), ended))
        plans.append(
            _Due(
                row.id,
                (row.welcomed, row.mailed_turns, row.ended),
                tuple(mails),
                (True, game.turns_played, row.ended or over),
            )
        )
    return plans


def queue_game(
    db: Database,
    reads: ReadCache,
    settings: MailSettings,
    game_id: str,
    moment: datetime,
    chance: random.Random | None = None,
    *,
    noticed: datetime | None = None,
) -> int:
    """Queue what is due to the mail players of ``game_id`` (welcomes, turns not yet mailed,
    the end): the mails built (their maps drawn) from a read of the game, outside any write
    transaction; then queued, and counted as queued, in one short transaction, for each row
    whose counters are still as read (a row another process moved on meanwhile is left: its
    mails were queued there). Each is held after its event (:func:`_plan_game`), to
    :func:`~fogdip.mail.outbox.held_until` (a draw of its own from ``chance``, default the
    OS's randomness), counted from the event's moment or from ``noticed``, when the loop saw
    it, if later (:func:`~fogdip.mail.outbox.held_from`); built after its hold ran out (a slow machine), it is due at once, and
    the log says so, naming no seat. How many mails were queued."""
    with db.reading() as session:
        plans = _plan_game(session, reads, settings, game_id)
    if not plans:
        return 0
    built = now()
    holds = [
        held_from(event, noticed) + timedelta(seconds=settings.hold)
        for plan in plans
        for _mail, event in plan.mails
        if event is not None
    ]
    if settings.hold > 0 and holds and built > min(holds) and built - min(holds) < timedelta(hours=1):
        # (A turn an hour old is a judge that was down, not one that was slow.)
        log().warning(
            "the mails of game %s were built after their hold of %g s ran out: they go out now; "
            "the hold is too short for this machine (--mail-hold)",
            game_id,
            settings.hold,
        )
    count = 0
    with db.transaction() as session:
        # Locked (PostgreSQL; SQLite has one writer): two judges never both queue a row's mails.
        rows = {
            row.id: row
            for row in session.execute(
                select(MailPlayer).where(MailPlayer.id.in_([plan.row_id for plan in plans])).with_for_update()
            ).scalars()
        }
        for plan in plans:
            row = rows.get(plan.row_id)
            if row is None or (row.welcomed, row.mailed_turns, row.ended) != plan.read:
                continue
            for mail, event in plan.mails:
                held = None if event is None else held_until(held_from(event, noticed), settings, chance)
                queue(session, mail, moment, held)
                count += 1
            row.welcomed, row.mailed_turns, row.ended = plan.after
    return count


def queue_welcomes(
    session: Session, reads: ReadCache, settings: MailSettings, games: set[str], moment: datetime
) -> int:
    """Queue, in this transaction, the welcome of each mail player of ``games`` not yet
    welcomed (a text, no map: as cheap as the seating itself). How many were queued."""
    rows = list(
        session.execute(
            select(MailPlayer)
            .where(MailPlayer.game_id.in_(sorted(games)), MailPlayer.welcomed.is_(False))
            .order_by(MailPlayer.id)
        ).scalars()
    )
    tables: dict[str, Table] = {}
    for row in rows:
        if row.game_id not in tables:
            game = session.get_one(GameRow, row.game_id)
            tables[row.game_id] = SqlStore(session, reads).table_of(game)
        queue(session, welcome_letter(tables[row.game_id], row, settings), moment)
        row.welcomed = True
    return len(rows)


def install(db: Database, settings: MailSettings, wake: threading.Event) -> None:
    """In every transaction of ``db`` in this process that changed a game for its mail
    players: a mail player just seated is welcomed in the same transaction (a text: cheap),
    and once it commits the judge's loop is woken (``wake``), which builds and queues the
    turn's mails (a map drawn for each) and the press delivered to mail players at once, off
    the request: neither a turn's request nor a message's takes longer for the seats played by
    mail (their count is hidden in gunboat; whom a message reaches by mail, everywhere). The turn's transaction
    builds none: the mail rows' counters (``mailed_turns``, ``ended``), behind the game's, are
    what is due, durable with the turn, so that a crash before the loop ran loses nothing.
    The game is read in the transaction through a cache of its own, never the process's
    (which keeps only what is committed)."""

    def before_commit(session: Session) -> None:
        games = session.info.pop(GAMES_CHANGED, None)  # (the savepoint's commit comes here too)
        if games:
            session.flush()
            try:
                with session.begin_nested():
                    moment = now()
                    queue_welcomes(session, ReadCache(size=4), settings, set(games), moment)
            except Exception:
                log().exception("the welcomes of games %s could not be queued; tried again", sorted(games))
            session.info[GAMES_CHANGED] = games  # for :func:`committed`

    def committed(session: Session) -> None:
        if session.info.pop(GAMES_CHANGED, None):
            wake.set()

    event.listen(db.sessions, "before_commit", before_commit)
    db.on_commit(committed)


def catch_up(
    db: Database,
    reads: ReadCache,
    settings: MailSettings,
    chance: random.Random | None = None,
    *,
    noticed: datetime | None = None,
) -> int:
    """Queue the mails of every game whose turns were played (or mail players seated, or that
    ended) and are not yet mailed, and the press not yet mailed: each game in a transaction of
    its own, each held mail's moment drawn from ``chance`` (default: the OS's randomness) and
    held from its event's moment or ``noticed`` (default: when this call looked, before
    building anything), whichever is later: a clock of the process that played the turn
    behind the judge's does not cut the hold short. How many were queued."""
    noticed = noticed or now()
    with db.reading() as session:
        games = sorted(
            set(
                session.execute(
                    select(MailPlayer.game_id)
                    .join(GameRow, GameRow.id == MailPlayer.game_id)
                    .where(
                        (MailPlayer.mailed_turns < GameRow.turns_played)
                        | MailPlayer.welcomed.is_(False)
                        | ((GameRow.status == Status.FINISHED.value) & MailPlayer.ended.is_(False))
                    )
                ).scalars()
            )
        )
        pressed = sorted(
            set(
                session.execute(
                    select(MailPlayer.game_id)
                    .join(Delivery, (Delivery.game_id == MailPlayer.game_id) & (Delivery.reader == MailPlayer.power))
                    .where(MailPlayer.power != MAIL_MASTER, Delivery.message_id > MailPlayer.mailed_press)
                ).scalars()
            )
        )
    count = 0
    for game_id in pressed:
        try:
            with db.transaction() as session:
                count += queue_press(session, settings, game_id, now(), chance, noticed=noticed)
        except Exception:
            log().exception("the press of game %s could not be queued; it is tried again", game_id)
    for game_id in games:
        try:
            count += queue_game(db, reads, settings, game_id, now(), chance, noticed=noticed)
        except Exception:
            log().exception("the mails of game %s could not be queued; they are tried again", game_id)
    return count


def remind(
    db: Database, reads: ReadCache, settings: MailSettings, moment: datetime, chance: random.Random | None = None
) -> int:
    """Queue a reminder for each mail player who asked for one (``SET REMIND``), whose game's
    deadline is that near, and who has filed nothing for the turn: once a turn, held after
    when it was due (:func:`~fogdip.mail.outbox.held_until`, its draw from ``chance``), never
    past the deadline."""
    with db.reading() as session:
        candidates = session.execute(
            select(MailPlayer.id, MailPlayer.remind_hours, GameRow.deadline_at, GameRow.turn, MailPlayer.reminded_turn)
            .join(GameRow, GameRow.id == MailPlayer.game_id)
            .join(Seat, (Seat.game_id == MailPlayer.game_id) & (Seat.power == MailPlayer.power))
            .where(
                MailPlayer.remind_hours.is_not(None),
                GameRow.status == Status.ACTIVE.value,
                GameRow.deadline_at.is_not(None),
                Seat.filed.is_(None),
                Seat.user_id == MailPlayer.user_id,
            )
        ).all()
    wanted = [
        ident
        for ident, hours, deadline, turn, reminded in candidates
        if reminded != turn
        and deadline is not None
        and hours is not None
        and deadline - timedelta(hours=hours) <= moment < deadline
    ]
    count = 0
    for ident in wanted:
        with db.transaction() as session:
            row = session.get_one(MailPlayer, ident)
            game = session.get_one(GameRow, row.game_id)
            seat = session.execute(
                select(Seat).where(Seat.game_id == row.game_id, Seat.power == row.power)
            ).scalar_one()
            if row.reminded_turn == game.turn or seat.filed is not None or game.deadline_at is None:
                continue
            table = SqlStore(session, reads).table_of(game)
            # Due at the same moment to every player who asked for the same hours: dated
            # then, and held like a turn's mails (never past the deadline), so that when
            # each goes out says nothing of how many there are.
            due_at = (game.deadline_at - timedelta(hours=row.remind_hours or 0)).replace(microsecond=0)
            mail = reminder_letter(
                table,
                row.power,
                deadline=game.deadline_at,
                to=row.address,
                sender=settings.judge,
                reply_to=seat_address(row, settings),
                moment=due_at,
            )
            queue(session, mail, moment, min(game.deadline_at, held_until(due_at, settings, chance)))
            row.reminded_turn = game.turn
            count += 1
    return count


__all__ = ["catch_up", "install", "png", "queue_game", "queue_welcomes", "remind", "rules_summary", "welcome_letter"]
