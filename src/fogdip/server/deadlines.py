"""The deadline keeper: every server process looks, every second, for games whose deadline has
passed, and adjudicates each exactly once. The database decides who does it: a due game's row
is locked for the turn (``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so another process skips it;
SQLite's single writer on one process), and is due no more once its next deadline is set in
the same transaction. Players who filed nothing get the game's defaults; bots file first."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from starlette.concurrency import run_in_threadpool

from fogdip.server.db import Database
from fogdip.server.errors import ApiError
from fogdip.server.turns import GameCache, any_due, due_games, now, play_turn, seats_of

log = logging.getLogger("fogdip.server")


def adjudicate_due(db: Database, moment: datetime | None = None) -> list[tuple[str, str]]:
    """Adjudicate every game due at ``moment`` (default: now): ``(game id, turn)`` of each."""
    done: list[tuple[str, str]] = []
    moment = moment or now()
    with db.reading() as session:
        if not any_due(session, moment):
            return done  # the usual second: no writer's lock taken
    with db.transaction() as session:
        for row in due_games(session, moment):
            seats = seats_of(session, row.id)
            try:
                game = GameCache.changing(row, seats)
            except ApiError:
                row.deadline_at = None  # damaged: logged by game_of; the admin must look, not a loop
                continue
            if game.position.completed:
                row.deadline_at = None
                continue
            done.append((row.id, play_turn(session, row, game, seats)))
    for game_id, turn in done:
        log.info("deadline: game %s adjudicated %s", game_id, turn)
    return done


async def keep_deadlines(db: Database, every: float) -> None:
    """Run :func:`adjudicate_due` every ``every`` seconds until cancelled."""
    while True:
        await asyncio.sleep(every)
        try:
            await run_in_threadpool(adjudicate_due, db)
        except Exception:  # the keeper must outlive a bad moment of the database
            log.exception("the deadline keeper failed; it tries again")
