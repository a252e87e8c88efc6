"""Live updates: what happened to a game reaches every member's stream, on every process.

A change that members must hear of is written as an :class:`~fogdip.server.models.Event` row in
the same transaction as the change itself. On PostgreSQL the transaction also sends
``NOTIFY fogdip_events``: every process LISTENs, reads the new rows and hands each to the
streams of that game it holds. On SQLite (one process) the hub looks for new rows four times a
second. An event says only what every member may know: the game, what kind of thing
happened, and the turn now to be played.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import func, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session as DbSession
from starlette.concurrency import run_in_threadpool

from fogdip.game.seats import NOBODY, Member, membership
from fogdip.game.settings import ObserverView, Role
from fogdip.server.db import Database
from fogdip.server.models import ApiToken, Event, GameRow, Observer, Seat, Session

CHANNEL = "fogdip_events"
log = logging.getLogger("fogdip.server")


def publish(
    session: DbSession,
    game_id: str,
    kind: str,
    turn: str,
    audience: Iterable[str] | None = None,
    detail: Mapping[str, object] | None = None,
) -> None:
    """Record that ``kind`` happened to the game (delivered once the transaction commits), for
    every member, or only for the powers of ``audience`` (and the game master). ``detail``
    is more of the event, as JSON: only what everyone it is for may know."""
    listed = None if audience is None else ",".join(sorted(set(audience)))
    event = Event(
        game_id=game_id,
        kind=kind,
        turn=turn,
        created_at=datetime.now(UTC),
        audience=listed,
        detail=None if detail is None else json.dumps(dict(detail), separators=(",", ":")),
    )
    session.add(event)
    session.flush()
    session.info["published"] = True  # this process's hub looks at once, after the commit
    bind = session.get_bind()
    if bind.dialect.name == "postgresql":
        session.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": str(event.id)})


@dataclass(frozen=True)
class Credential:
    """How a stream's connection signed in, kept to check again before each event: an API
    token or a session, by the digest the database keys it with."""

    kind: Literal["token", "session"]
    digest: str


#: What a stream's queue is handed when its credential no longer holds: the stream ends.
REVOKED: dict[str, Any] = {"type": "revoked"}


@dataclass
class _Listener:
    account: int  # whose stream it is: whom it hears for is found again before each event
    credential: Credential


class EventCursor:
    """Which events a hub has handed on. Ids are drawn as transactions insert their events, and
    transactions commit in any order (PostgreSQL's, of several threads or processes): an event
    may come to light after one with a higher id was read. So the cursor keeps ``floor``, below
    and at which every id is done, and the ids above it handed on already; the hub reads every
    event above ``floor`` and hands on those it has not. An id still missing ``grace`` seconds
    after a higher one was seen was never committed (its transaction rolled back): it is passed.

    >>> cursor = EventCursor(10)
    >>> [e["id"] for e in cursor.take([{"id": 12}], now=0.0)]  # 11 is not committed yet
    [12]
    >>> cursor.floor
    10
    >>> [e["id"] for e in cursor.take([{"id": 11}, {"id": 12}], now=1.0)]  # now it is
    [11]
    >>> cursor.floor
    12
    """

    def __init__(self, floor: int, grace: float = 30.0) -> None:
        self.floor = floor
        self.grace = grace
        self._above: set[int] = set()
        self._gap_since: float | None = None

    def take(self, events: Iterable[dict[str, Any]], now: float) -> list[dict[str, Any]]:
        """Those of ``events`` (all above :attr:`floor`, in order of id) not handed on yet."""
        new = [event for event in events if event["id"] > self.floor and event["id"] not in self._above]
        self._above.update(event["id"] for event in new)
        self._close_up()
        if not self._above:
            self._gap_since = None
        elif self._gap_since is None:
            self._gap_since = now
        elif now - self._gap_since >= self.grace:
            self.floor = min(self._above) - 1  # the ids below it were never committed
            self._close_up()
            self._gap_since = now if self._above else None
        return new

    def _close_up(self) -> None:
        while self.floor + 1 in self._above:
            self.floor += 1
            self._above.remove(self.floor)


class Hub:
    """The streams one process holds, by game, and the loop that feeds them."""

    def __init__(self, db: Database) -> None:
        self.db = db
        #: By game: each connection's queue, with whom it hears for and its credential.
        self._streams: dict[str, dict[asyncio.Queue[dict[str, Any]], _Listener]] = {}
        self._wake = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._cursor = EventCursor(0)
        db.on_commit(self._committed)

    def _committed(self, session: DbSession) -> None:
        """A transaction of this process committed: look for new events now if it published
        one (called on the committing thread)."""
        if session.info.pop("published", False) and self._loop is not None:
            self._loop.call_soon_threadsafe(self._wake.set)

    @contextlib.contextmanager
    def stream(self, game_id: str, account: int, credential: Credential) -> Iterator[asyncio.Queue[dict[str, Any]]]:
        """A queue of the game's events for one connection of ``account`` while the block
        runs. Before each event, whom it hears for is found again (the seat the account holds
        now: a stream follows its holder's seat, swapped or taken), and it is handed
        :data:`REVOKED` instead once ``credential`` no longer holds."""
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=256)
        self._streams.setdefault(game_id, {})[queue] = _Listener(account, credential)
        try:
            yield queue
        finally:
            held = self._streams.get(game_id)
            if held is not None:
                held.pop(queue, None)
                if not held:
                    del self._streams[game_id]

    async def run(self) -> None:
        """Feed the streams until cancelled."""
        self._loop = asyncio.get_running_loop()
        self._cursor = EventCursor(await run_in_threadpool(self._latest))
        listener = asyncio.create_task(self._listen()) if not self.db.is_sqlite else None
        try:
            while True:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), timeout=0.25 if self.db.is_sqlite else 2.0)
                self._wake.clear()
                try:
                    await self._deliver()
                except Exception:
                    log.exception("the event hub could not deliver new events; it tries again")
        finally:
            if listener is not None:
                listener.cancel()

    async def _deliver(self) -> None:
        """Hand every new event to the queues it is for, once their credentials are checked
        again, all in one read."""
        events = self._cursor.take(await run_in_threadpool(self._since, self._cursor.floor), time.monotonic())
        if not events:
            return
        held = [
            (event, queue, listener)
            for event in events
            for queue, listener in list(self._streams.get(event["game"], {}).items())
        ]
        if not held:
            return
        valid, members = await run_in_threadpool(
            self._check,
            {listener.credential for _, _, listener in held},
            {event["game"] for event, _, _ in held},
            {listener.account for _, _, listener in held},
        )
        for event, queue, listener in held:
            member = members.get((event["game"], listener.account), NOBODY)
            if member.role is Role.NONE:
                continue  # no longer a member of the game: told nothing more of it
            audience = event["audience"]
            if audience is not None and member.listener is not None and member.listener not in audience:
                continue  # not for this connection's power: it is not told it happened
            if queue.full():
                continue  # a stalled connection misses updates; it can always re-read
            message = {"type": event["kind"], "game": event["game"], "turn": event["turn"], **event["detail"]}
            queue.put_nowait(message if listener.credential in valid else REVOKED)

    def _check(
        self, credentials: set[Credential], games: set[str], accounts: set[int]
    ) -> tuple[set[Credential], dict[tuple[str, int], Member]]:
        """Which credentials still hold, and what each listening account is in each game now,
        in one hop (a few reads, however many streams)."""
        return self._valid(credentials), self._members(games, accounts)

    def _members(self, games: set[str], accounts: set[int]) -> dict[tuple[str, int], Member]:
        with self.db.lookup() as connection:
            seats: dict[str, list[tuple[str, str | None]]] = {}
            for game_id, power, user_id in connection.execute(
                select(Seat.game_id, Seat.power, Seat.user_id).where(Seat.game_id.in_(sorted(games)))
            ):
                seats.setdefault(game_id, []).append((power, None if user_id is None else str(user_id)))
            rows = {
                game_id: (master_id, observers)
                for game_id, master_id, observers in connection.execute(
                    select(GameRow.id, GameRow.master_id, GameRow.observers).where(GameRow.id.in_(sorted(games)))
                )
            }
            watching = set(
                connection.execute(
                    select(Observer.game_id, Observer.user_id).where(
                        Observer.game_id.in_(sorted(games)), Observer.user_id.in_(sorted(accounts))
                    )
                ).tuples()
            )
        out: dict[tuple[str, int], Member] = {}
        for game_id, (master_id, observers) in rows.items():
            for account in accounts:
                out[(game_id, account)] = membership(
                    str(account),
                    seats.get(game_id, []),
                    str(master_id),
                    (game_id, account) in watching,
                    ObserverView(observers),
                )
        return out

    def _valid(self, credentials: set[Credential]) -> set[Credential]:
        """Those of ``credentials`` that still hold: tokens not revoked, sessions not ended."""
        tokens = [c.digest for c in credentials if c.kind == "token"]
        sessions = [c.digest for c in credentials if c.kind == "session"]
        held: set[Credential] = set()
        with self.db.lookup() as connection:
            if tokens:
                rows = connection.execute(
                    select(ApiToken.token_hash).where(ApiToken.token_hash.in_(tokens), ApiToken.revoked_at.is_(None))
                )
                held.update(Credential("token", digest) for digest in rows.scalars())
            if sessions:
                rows = connection.execute(
                    select(Session.secret_hash).where(
                        Session.secret_hash.in_(sessions), Session.expires_at > datetime.now(UTC)
                    )
                )
                held.update(Credential("session", digest) for digest in rows.scalars())
        return held

    async def _listen(self) -> None:
        """PostgreSQL's LISTEN: wake the loop as soon as any process commits an event."""
        import psycopg

        url = make_url(self.db.url).set(drivername="postgresql")
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    url.render_as_string(hide_password=False), autocommit=True
                ) as connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    self._wake.set()  # catch up on anything sent while (re)connecting
                    async for _notice in connection.notifies():
                        self._wake.set()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("LISTEN failed; reconnecting")
                await asyncio.sleep(1.0)

    def _latest(self) -> int:
        with self.db.reading() as session:
            latest: int | None = session.execute(select(func.max(Event.id))).scalar()
            return latest or 0

    def _since(self, last: int) -> list[dict[str, Any]]:
        with self.db.reading() as session:
            rows = session.execute(select(Event).where(Event.id > last).order_by(Event.id)).scalars()
            return [
                {
                    "id": e.id,
                    "game": e.game_id,
                    "kind": e.kind,
                    "turn": e.turn,
                    "audience": None if e.audience is None else frozenset(e.audience.split(",")),
                    "detail": {} if e.detail is None else json.loads(e.detail),
                }
                for e in rows
            ]
