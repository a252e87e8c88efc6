"""The bot's seats, played off every request. A turn's bot orders are chosen as soon as the
turn begins and filed at the moment the table set for them (:attr:`fogdip.game.Table.bots_due`:
the turn's start and the longest the bots seated may think), never sooner. No player's request
waits for a bot, and when the bot files depends on nothing hidden: how long it thought would
otherwise tell a player what it saw. Where every seat was ready first, the turn is played as
the bot files.

Each server process looks for such games whenever it saved one (at once) and every second
(for what another process saved, or a restart). Two processes may both choose for a seat: the
first to file wins, as the game's row is locked to file and a seat that has filed takes
nothing more."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

from sqlalchemy import and_, exists, or_, select
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from fogdip.bots.base import BotInput, bot_named
from fogdip.server.db import Database
from fogdip.server.models import GameRow, Seat
from fogdip.server.store import BOTS_WAITING, DamagedGame, ReadCache, SqlStore, now

log = logging.getLogger("fogdip.server")

#: Bot orders by power, for one turn of one game.
Chosen = dict[str, list[str]]


def games_waiting(db: Database) -> list[tuple[str, str, datetime | None]]:
    """Active games with a bot seat that has yet to file this turn: (game, turn, when it
    files; ``None``: at once)."""
    # As the table counts them (:meth:`fogdip.game.Table.bots_to_file`), for a game whose
    # moment was never set (one kept by an older fogdip).
    waiting_seat = exists(
        select(Seat.id).where(and_(Seat.game_id == GameRow.id, Seat.bot, ~Seat.ready, Seat.filed.is_(None)))
    )
    query = select(GameRow.id, GameRow.turn, GameRow.bots_due_at).where(
        GameRow.status == "active", or_(GameRow.bots_due_at.is_not(None), waiting_seat)
    )
    with db.reading() as session:
        return [(game_id, turn, due) for game_id, turn, due in session.execute(query).all()]


def choose(db: Database, reads: ReadCache, game_id: str, turn: str) -> Chosen | None:
    """What the bot files for each of the game's seats that have yet to, each from what its
    own power is told only (``None``: the game is no longer at ``turn``)."""
    with db.reading() as session:
        row = session.get(GameRow, game_id)
        if row is None or row.status != "active" or row.turn != turn:
            return None
        table = SqlStore(session, reads).table_of(row)
        given = [(seat.power, seat.bot_name, BotInput.of(table.game, seat.power)) for seat in table.bots_to_file()]
    # The operating system's randomness, never a seed of what a player knows.
    rng = random.SystemRandom()
    chosen: Chosen = {}
    for power, name, told in given:
        try:
            chosen[power] = bot_named(name).orders(told, rng)
        except Exception:  # a bot's fault must not stop the game: the seat takes the defaults
            log.exception("the bot %r failed for a seat of game %s; the seat takes the game's defaults", name, game_id)
            chosen[power] = []
    return chosen


def file_chosen(db: Database, reads: ReadCache, game_id: str, turn: str, chosen: Chosen) -> str | None:
    """File ``chosen`` for ``turn`` (dropped if the game moved on) and play the turn if every
    seat is ready: the turn played, if one was."""
    with db.transaction() as session:
        row = _locked(session, game_id)
        if row is None or row.status != "active" or row.turn != turn:
            return None
        store = SqlStore(session, reads)
        table = store.table_of(row)
        moment = now()
        played = table.file_for_bots(turn, chosen, moment)
        store.save(table, moment)
    if played is not None:
        log.info("bots: game %s played %s", game_id, played)
    return played


def _locked(session: Session, game_id: str) -> GameRow | None:
    return session.execute(select(GameRow).where(GameRow.id == game_id).with_for_update()).scalar_one_or_none()


class BotSeats:
    """One server process's player of the bot's seats (:meth:`run` until cancelled)."""

    def __init__(self, db: Database, reads: ReadCache, every: float) -> None:
        self.db, self.reads, self.every = db, reads, every
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        #: (game, turn) this process is choosing for now, and games it cannot read.
        self._busy: set[tuple[str, str]] = set()
        self._damaged: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        # The bot thinks on a thread of its own, one game at a time: never on the threads that
        # answer requests, which it would keep waiting.
        self._thinker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fogdip-bots")

    def committed(self, session: Session) -> None:
        """After a commit (on the committing thread): look at once if it saved a game whose
        bot has yet to file."""
        if session.info.pop(BOTS_WAITING, False) and self._loop is not None and self._wake is not None:
            self._loop.call_soon_threadsafe(self._wake.set)

    async def run(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._wake = wake = asyncio.Event()
        try:
            await self._look_every_time(wake)
        finally:
            self._thinker.shutdown(wait=False, cancel_futures=True)

    async def _look_every_time(self, wake: asyncio.Event) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), self.every)
            wake.clear()
            try:
                waiting = await run_in_threadpool(games_waiting, self.db)
            except Exception:  # the player must outlive a bad moment of the database
                log.exception("the bot seats' player failed to look for games; it tries again")
                continue
            for game_id, turn, due in waiting:
                if (game_id, turn) in self._busy or game_id in self._damaged:
                    continue
                self._busy.add((game_id, turn))
                task = asyncio.create_task(self._play(game_id, turn, due))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _play(self, game_id: str, turn: str, due: datetime | None) -> None:
        try:
            chosen = await asyncio.get_running_loop().run_in_executor(
                self._thinker, choose, self.db, self.reads, game_id, turn
            )
            if chosen is None:
                return
            if due is not None and (wait := (due - now()).total_seconds()) > 0:
                await asyncio.sleep(wait)
            await run_in_threadpool(file_chosen, self.db, self.reads, game_id, turn, chosen)
        except DamagedGame as exc:
            log.error("%s", exc)  # for the admin: the reason may name units
            self._damaged.add(game_id)
        except Exception:
            log.exception("the bot seats of game %s failed to file %s; they try again", game_id, turn)
        finally:
            self._busy.discard((game_id, turn))


__all__ = ["BotSeats", "choose", "file_chosen", "games_waiting"]
