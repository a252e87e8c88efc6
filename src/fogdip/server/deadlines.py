"""The deadline keeper: every server process looks, every second, for games whose deadline has
passed, and adjudicates each exactly once. The database decides who does it: a due game's row
is locked for the turn (``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so another process skips it;
SQLite's single writer on one process), and is due no more once its next deadline is set in
the same transaction. What is played is the table's rule (:meth:`fogdip.game.Table.play_due`):
the bot files first (it is waited for: it files by its own moment, off every request, and plays
the turn then), players who filed nothing get the game's defaults, and the next deadline runs
from the one passed."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from sqlalchemy import ColumnElement, and_, select
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from fogdip.server.db import Database
from fogdip.server.models import GameRow
from fogdip.server.store import DamagedGame, ReadCache, SqlStore, now
from fogdip.server.tables import bots

log = logging.getLogger("fogdip.server")


def _is_due(moment: datetime) -> ColumnElement[bool]:
    return and_(GameRow.status == "active", GameRow.deadline_at.is_not(None), GameRow.deadline_at <= moment)


def any_due(session: Session, moment: datetime) -> bool:
    """Whether any game's deadline has passed (a read: no lock is taken)."""
    return session.execute(select(GameRow.id).where(_is_due(moment)).limit(1)).first() is not None


def due_games(session: Session, moment: datetime, limit: int = 10) -> list[GameRow]:
    """Active games whose deadline has passed, locked for this transaction; rows another
    process holds are skipped (it is adjudicating them)."""
    query = (
        select(GameRow)
        .where(_is_due(moment))
        .order_by(GameRow.deadline_at)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    return list(session.execute(query).scalars())


def adjudicate_due(db: Database, reads: ReadCache, moment: datetime | None = None) -> list[tuple[str, str]]:
    """Adjudicate every game due at ``moment`` (default: now): ``(game id, turn)`` of each."""
    done: list[tuple[str, str]] = []
    moment = moment or now()
    with db.reading() as session:
        if not any_due(session, moment):
            return done  # the usual second: no writer's lock taken
    player, rng = bots()
    with db.transaction() as session:
        store = SqlStore(session, reads)
        for row in due_games(session, moment):
            try:
                table = store.table_of(row)
            except DamagedGame as exc:
                log.error("%s", exc)  # for the admin: the reason may name units
                row.deadline_at = None  # the admin must look, not a loop
                continue
            played = table.play_due(moment, player, rng)
            if played is None and table.due(moment) and table.waits_for_bots(moment):
                continue  # the bot files first, within seconds, and plays the turn then
            if played is None or played.played is None:
                row.deadline_at = None
                continue
            store.save(table, moment)
            done.append((row.id, played.played))
    for game_id, turn in done:
        log.info("deadline: game %s adjudicated %s", game_id, turn)
    return done


async def keep_deadlines(db: Database, reads: ReadCache, every: float) -> None:
    """Run :func:`adjudicate_due` every ``every`` seconds until cancelled."""
    while True:
        await asyncio.sleep(every)
        try:
            await run_in_threadpool(adjudicate_due, db, reads)
        except Exception:  # the keeper must outlive a bad moment of the database
            log.exception("the deadline keeper failed; it tries again")
