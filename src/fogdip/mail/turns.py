"""What the judge mails of its own accord: a welcome when a seat is taken by mail, each turn's
mails (each mail player its own power's report and map; the game master the whole turn), and
reminders before a deadline.

Each mail row counts the game's turns whose mails are queued (``mailed_turns``), and the
count moves on in the transaction that queues them: where the judge runs in the process that
plays a turn, that is the turn's own transaction (:func:`install`, before it commits); where
another process played it (``fogdip serve`` beside ``fogdip mail``), the judge's next look
(:func:`catch_up`). Either way every turn is mailed once, and none is lost.

Only the power's own report and the table's public facts go into a power's mail (the
letters are built by :mod:`fogdip.mail.letters` from them only).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import Any

from sqlalchemy import event, select
from sqlalchemy.orm import Session

from fogdip.game import Table
from fogdip.game.settings import Status
from fogdip.mail.commands import HELP
from fogdip.mail.config import MailSettings
from fogdip.mail.letters import master_letter, outgoing, reminder_letter, turn_letter
from fogdip.mail.outbox import queue
from fogdip.maps import master_scene_of, power_scene_of, render_svg
from fogdip.maps.png import PngUnavailable, svg_to_png
from fogdip.maps.scene import Scene
from fogdip.server.db import Database
from fogdip.server.models import MAIL_MASTER, GameRow, MailPlayer, Seat
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


def ending_letter(table: Table, row: MailPlayer, settings: MailSettings) -> EmailMessage:
    """The mail that the game is over, and how it ended (a public fact)."""
    body = f"{ending_words(table.game.outcome())}\n\n{rules_summary(table)}\n\nThank you for playing.\n"
    subject = f"fogdip {table.settings.name}: the game is over"
    return outgoing(row.address, subject, body, sender=settings.judge, reply_to=seat_address(row, settings))


def queue_game(session: Session, reads: ReadCache, settings: MailSettings, game_id: str, moment: datetime) -> int:
    """Queue what is due to the mail players of ``game_id`` (welcomes, turns not yet mailed),
    and count it as queued, in this transaction. How many mails were queued."""
    # Locked: a turn's transaction and the catch-up of another process never both queue a turn
    # (the one that waits reads what the other moved on). Neither waits for the game's row here.
    rows = list(
        session.execute(
            select(MailPlayer).where(MailPlayer.game_id == game_id).order_by(MailPlayer.id).with_for_update()
        ).scalars()
    )
    game = session.get(GameRow, game_id)
    if not rows or game is None:
        return 0
    over = game.status == Status.FINISHED.value
    waiting = [
        row for row in rows if not row.welcomed or row.mailed_turns < game.turns_played or (over and not row.ended)
    ]
    if not waiting:
        return 0
    table = SqlStore(session, reads).table_of(game)
    history = table.game.record.history
    dated = moment.replace(microsecond=0)  # the turn's moment: not how long its mails took to build
    count = 0
    for row in waiting:
        if not row.welcomed:
            queue(session, welcome_letter(table, row, settings), moment)
            row.welcomed = True
            count += 1
        for seq in range(row.mailed_turns + 1, game.turns_played + 1):
            turn = history[seq - 1]
            last = seq == game.turns_played
            deadline = table.clock.deadline if last else None
            if row.power == MAIL_MASTER:
                picture = png(master_scene_of(table.game, turn.turn), settings) if last else None
                mail = master_letter(
                    table,
                    turn,
                    map_png=picture,
                    deadline=deadline,
                    to=row.address,
                    sender=settings.judge,
                    reply_to=seat_address(row, settings),
                    moment=dated,
                )
            elif row.power in turn.reports:
                picture = png(power_scene_of(table.game, row.power), settings) if last else None
                mail = turn_letter(
                    table,
                    row.power,
                    turn,
                    map_png=picture,
                    deadline=deadline,
                    to=row.address,
                    sender=settings.judge,
                    reply_to=seat_address(row, settings),
                    moment=dated,
                )
            else:
                continue
            queue(session, mail, moment)
            count += 1
        row.mailed_turns = game.turns_played
        if over and not row.ended:
            queue(session, ending_letter(table, row, settings), moment)
            row.ended = True
            count += 1
    return count


def queue_games(session: Session, reads: ReadCache, settings: MailSettings, games: Iterable[str]) -> None:
    """:func:`queue_game` for each game, each in a savepoint: a mail that cannot be made is
    logged and left for :func:`catch_up`, never the cause of a turn's loss."""
    moment = now()
    for game_id in sorted(games):
        try:
            with session.begin_nested():
                queue_game(session, reads, settings, game_id, moment)
        except Exception:
            log().exception("the mails of game %s could not be queued with its turn; they are tried again", game_id)


def install(db: Database, settings: MailSettings) -> None:
    """Queue each game's mails in the transaction that played its turn (or seated a mail
    player), in every transaction of ``db`` in this process. The game is read in the
    transaction, before it commits: through a cache of its own, never the process's (which
    keeps only what is committed)."""

    def before_commit(session: Session) -> None:
        games = session.info.pop(GAMES_CHANGED, None)
        if games:
            session.flush()
            queue_games(session, ReadCache(size=4), settings, games)

    event.listen(db.sessions, "before_commit", before_commit)


def catch_up(db: Database, reads: ReadCache, settings: MailSettings) -> int:
    """Queue the mails of every game whose turns were played (or mail players seated) where
    the judge was not running: each game in a transaction of its own. How many were queued."""
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
    count = 0
    for game_id in games:
        with db.transaction() as session:
            session.info.pop(GAMES_CHANGED, None)
            count += queue_game(session, reads, settings, game_id, now())
            session.info.pop(GAMES_CHANGED, None)
    return count


def remind(db: Database, reads: ReadCache, settings: MailSettings, moment: datetime) -> int:
    """Queue a reminder for each mail player who asked for one (``SET REMIND``), whose game's
    deadline is that near, and who has filed nothing for the turn: once a turn."""
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
            mail = reminder_letter(
                table,
                row.power,
                deadline=game.deadline_at,
                to=row.address,
                sender=settings.judge,
                reply_to=seat_address(row, settings),
            )
            queue(session, mail, moment)
            row.reminded_turn = game.turn
            count += 1
    return count


__all__ = ["catch_up", "install", "png", "queue_game", "queue_games", "remind", "rules_summary", "welcome_letter"]
