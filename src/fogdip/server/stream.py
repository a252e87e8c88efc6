"""The live stream: one WebSocket per connection, ``/api/v1/games/{id}/stream``.

It tells a member of a game, as they happen, that a new phase is to be played (``phase``) and
that the deadline was set, moved or stopped (``deadline``): public facts, the same for every
member, so a player's stream depends on nothing it may not know. What the new phase holds for
the player is its view (``GET .../view``), built from its own reports. Signed in as on the rest
of the API: the session cookie (from a page of this server: the Origin must be this host) or
``Authorization: Bearer <token>``.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from sqlalchemy import select
from starlette.concurrency import run_in_threadpool

from fogdip.server.auth import caller_from
from fogdip.server.errors import ApiError
from fogdip.server.models import GameRow, Seat
from fogdip.server.state import ServerState
from fogdip.server.turns import game_of

router = APIRouter(prefix="/api/v1/games", tags=["stream"])

#: Close codes: the application's range (4000-4999), mirroring HTTP.
_UNAUTHORIZED, _NOT_FOUND = 4401, 4404


@router.websocket("/{game_id}/stream")
async def stream(websocket: WebSocket, game_id: str) -> None:
    state: ServerState = websocket.app.state.fogdip
    origin = websocket.headers.get("origin")
    if origin is not None and origin.split("://", 1)[-1] != websocket.headers.get("host"):
        await websocket.close(code=_UNAUTHORIZED, reason="a stream is opened from a page of this server only")
        return
    try:
        caller = await run_in_threadpool(caller_from, websocket.headers, websocket.cookies, "GET", state)
    except ApiError as exc:
        await websocket.close(code=_UNAUTHORIZED, reason=exc.message[:120])
        return
    if caller is None:
        await websocket.close(code=_UNAUTHORIZED, reason="sign in first, or send a bearer token")
        return
    hello = await run_in_threadpool(_hello, state, game_id, caller.user_id)
    if hello is None:
        await websocket.close(code=_NOT_FOUND, reason="no such game, or it is not yours to see")
        return
    await websocket.accept()
    with state.hub.stream(game_id, hello.pop("power")) as queue:
        await websocket.send_json(hello)
        sender = asyncio.create_task(_forward(websocket, queue, state))
        try:
            while True:  # the client may ping; anything it sends is otherwise ignored
                await websocket.receive_text()
        except WebSocketDisconnect:
            pass
        finally:
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender


async def _forward(websocket: WebSocket, queue: asyncio.Queue[dict[str, Any]], state: ServerState) -> None:
    """Send each event, once the connection's credential is checked again: a stream ends when
    its token is revoked or its session ends, at the next event."""
    while True:
        event = await queue.get()
        try:
            still = await run_in_threadpool(caller_from, websocket.headers, websocket.cookies, "GET", state)
        except ApiError:
            still = None
        if still is None:
            await websocket.close(code=_UNAUTHORIZED, reason="the token was revoked, or the session ended")
            return
        await websocket.send_json(event)


def _hello(state: ServerState, game_id: str, user_id: int) -> dict[str, Any] | None:
    """The first message: the game and its turn; ``None`` if the caller is not a member (an
    open game's page is public, its stream is for its members)."""
    with state.db.reading() as session:
        row = session.get(GameRow, game_id)
        if row is None:
            return None
        seated = session.execute(select(Seat.power).where(Seat.game_id == game_id, Seat.user_id == user_id)).first()
        if seated is None and row.master_id != user_id:
            return None
        power = None if seated is None else seated[0]
        return {"type": "hello", "game": game_id, "turn": game_of(row).turn, "status": row.status, "power": power}
