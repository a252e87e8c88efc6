"""The bot's seats, played off every request. A turn's bot orders are chosen as soon as the
turn begins and filed at the moment the table set for them (:attr:`fogdip.game.Table.bots_due`:
the turn's start and the longest the bots seated may think), never sooner; a bot that overran
that moment files at the next whole second after it. No player's request waits for a bot, and
when the bot files depends on nothing hidden: how long it thought would otherwise tell a
player what it saw. Where every seat was ready first, the turn is played as the bot files.

The bot thinks in a process of its own, at a lower priority: not on the server's threads, nor
holding its interpreter's lock, where its thinking would show as slower answers to whoever asks
meanwhile. Each server process looks for games whose bot has yet to file whenever it saved one
(at once) and every second (for what another process saved, or a restart). Two processes may
both choose for a seat: the first to file wins, as the game's row is locked to file and a seat
that has filed takes nothing more."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import multiprocessing
import os
import random
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime, timedelta

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


#: What each bot seat's power is told, by power: (power, the bot's name, its input).
Told = list[tuple[str, str, BotInput]]

#: A bot that overran its moment files at the next whole second after it: when is then told
#: by the clock, not by how long it thought.
GRID = timedelta(seconds=1)


def told_to_bots(db: Database, reads: ReadCache, game_id: str, turn: str) -> Told | None:
    """What each of the game's bot seats that have yet to file is told, its own power's only
    (``None``: the game is no longer at ``turn``)."""
    with db.reading() as session:
        row = session.get(GameRow, game_id)
        if row is None or row.status != "active" or row.turn != turn:
            return None
        table = SqlStore(session, reads).table_of(row)
        return [(seat.power, seat.bot_name, BotInput.of(table.game, seat.power)) for seat in table.bots_to_file()]


def choose(given: Told) -> Chosen:
    """What the bot files for each seat, from what its power is told (in the bot's process)."""
    # The operating system's randomness, never a seed of what a player knows.
    rng = random.SystemRandom()
    chosen: Chosen = {}
    for power, name, told in given:
        try:
            chosen[power] = bot_named(name).orders(told, rng)
        except Exception:  # a bot's fault must not stop the game: the seat takes the defaults
            log.exception("the bot %r failed for %s; the seat takes the game's defaults", name, power)
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


def _until(due: datetime | None, moment: datetime) -> float:
    """Seconds from ``moment`` to when the bot files: its moment, or (overrun) the next whole
    second after it.

    >>> from datetime import UTC
    >>> due = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC)
    >>> _until(due, due - timedelta(seconds=0.25)), _until(due, due + timedelta(seconds=1.5))
    (0.25, 0.5)
    """
    if due is None:
        return 0.0
    late = moment - due
    if late <= timedelta(0):
        return -late.total_seconds()
    return (math.ceil(late / GRID) * GRID - late).total_seconds()


def _lower_priority() -> None:
    """Set up the bot's process: below the server in priority, and gone with it (a server
    killed outright leaves no bot's process behind)."""
    os.nice(10)
    server = os.getppid()

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="fogdip-bots-watch", daemon=True).start()


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
        self._thinker: ProcessPoolExecutor | None = None
        self._one_at_a_time = asyncio.Lock()

    def _thinking(self) -> ProcessPoolExecutor:
        # The bot thinks in a process of its own, at a lower priority, one game at a time:
        # never on the server's threads, nor holding its interpreter's lock, where how long it
        # thought would show as slower answers to whoever asks meanwhile.
        if self._thinker is None:
            self._thinker = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=_lower_priority
            )
        return self._thinker

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
            if self._thinker is not None:
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
            # One game at a time, each read just before the bot thinks: a turn played meanwhile
            # (a game master adjudicating turn after turn) costs no thinking.
            async with self._one_at_a_time:
                given = await run_in_threadpool(told_to_bots, self.db, self.reads, game_id, turn)
                if given is None:
                    return
                try:
                    chosen = await asyncio.get_running_loop().run_in_executor(self._thinking(), choose, given)
                except BrokenProcessPool:  # the bot's process died (killed, out of memory): a new one
                    self._thinker = None
                    raise
            await asyncio.sleep(_until(due, now()))
            await run_in_threadpool(file_chosen, self.db, self.reads, game_id, turn, chosen)
        except DamagedGame as exc:
            log.error("%s", exc)  # for the admin: the reason may name units
            self._damaged.add(game_id)
        except Exception:
            log.exception("the bot seats of game %s failed to file %s; they try again", game_id, turn)
        finally:
            self._busy.discard((game_id, turn))


__all__ = ["BotSeats", "choose", "file_chosen", "games_waiting", "told_to_bots"]
