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
from collections.abc import Iterable, Iterator, Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from fogdip.server.db import Database
from fogdip.server.models import Event

CHANNEL = "fogdip_events"
log = logging.getLogger("fogdip.server")


def publish(
    session: Session,
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
    bind = session.get_bind()
    if bind.dialect.name == "postgresql":
        session.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": str(event.id)})


class Hub:
    """The streams one process holds, by game, and the loop that feeds them."""

    def __init__(self, db: Database) -> None:
        self.db = db
        #: By game: each connection's queue, with whom it hears for (``None``: the game
        #: master, every event; a power; an observer, who is never in an audience).
        self._streams: dict[str, dict[asyncio.Queue[dict[str, Any]], str | None]] = {}
        self._wake = asyncio.Event()
        self._last = 0

    @contextlib.contextmanager
    def stream(self, game_id: str, power: str | None) -> Iterator[asyncio.Queue[dict[str, Any]]]:
        """A queue of the game's events for one connection that hears for ``power``
        (:attr:`fogdip.server.members.Member.listener`), while the block runs."""
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=256)
        self._streams.setdefault(game_id, {})[queue] = power
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
        self._last = await run_in_threadpool(self._latest)
        listener = asyncio.create_task(self._listen()) if not self.db.is_sqlite else None
        try:
            while True:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), timeout=0.25 if self.db.is_sqlite else 2.0)
                self._wake.clear()
                try:
                    events = await run_in_threadpool(self._since, self._last)
                except Exception:
                    log.exception("the event hub could not read new events; it tries again")
                    continue
                for event in events:
                    self._last = max(self._last, event["id"])
                    audience = event["audience"]
                    for queue, power in list(self._streams.get(event["game"], {}).items()):
                        if audience is not None and power is not None and power not in audience:
                            continue  # not for this connection's power: it is not told it happened
                        if queue.full():
                            continue  # a stalled connection misses updates; it can always re-read
                        queue.put_nowait(
                            {"type": event["kind"], "game": event["game"], "turn": event["turn"], **event["detail"]}
                        )
        finally:
            if listener is not None:
                listener.cancel()

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
