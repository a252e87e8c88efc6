"""The live stream: one WebSocket per connection, ``/api/v1/games/{id}/stream``.

It tells a member of a game, as they happen, that a new phase is to be played (``phase``), that
the deadline was set, moved or stopped (``deadline``, with the new one), that a message came
(``message``: to the powers it was sent to, and the game master; a message to all reaches
observers too), how many powers are ready (``ready``, where the game tells it) and who votes
for a draw (``votes``, where votes are open): facts every member it goes to may know, so a
player's stream depends on nothing it may not know. What the new phase holds for
the player is its view (``GET .../view``), built from its own reports. Signed in as on the rest
of the API: the session cookie (from a page of this server: the Origin must be this host) or
``Authorization: Bearer <token>``. An account, and an address, may hold only so many streams
open at once (``FOGDIP_STREAMS_PER_ACCOUNT``, ``FOGDIP_STREAMS_PER_ADDRESS``): one more is
closed at once with 4429, saying which cap it met.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from fogdip.game import Refusal, Role
from fogdip.server.auth import Caller, caller_from, credential_of
from fogdip.server.errors import ApiError
from fogdip.server.events import REVOKED
from fogdip.server.limits import STREAM_SLOW_DOWN, address_of
from fogdip.server.state import ServerState
from fogdip.server.tables import actor, reading

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
    # The caps are the caller's own: whether a stream opens says nothing of anyone's games.
    address = address_of(websocket.scope)
    full = state.streams.take(caller.user_id, address)
    if full is not None:
        # Accepted to be closed with a code a page's script can read.
        await websocket.accept()
        await websocket.close(code=STREAM_SLOW_DOWN, reason=full)
        return
    try:
        await _serve(websocket, state, game_id, caller)
    finally:
        state.streams.give_back(caller.user_id, address)


async def _serve(websocket: WebSocket, state: ServerState, game_id: str, caller: Caller) -> None:
    """The stream of a caller whose slot is taken: its hello, then the game's events."""
    greeting = await run_in_threadpool(_hello, state, game_id, caller)
    if greeting is None:
        await websocket.close(code=_NOT_FOUND, reason="no such game, or it is not yours to see")
        return
    await websocket.accept()
    with state.hub.stream(game_id, caller.user_id, credential_of(websocket.headers, websocket.cookies)) as queue:
        hello = greeting
        await websocket.send_json(hello)
        sender = asyncio.create_task(_forward(websocket, queue))
        try:
            while True:  # the client may ping; anything it sends is otherwise ignored
                await websocket.receive_text()
        except WebSocketDisconnect:
            pass
        finally:
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender


async def _forward(websocket: WebSocket, queue: asyncio.Queue[dict[str, Any]]) -> None:
    """Send each event; the hub checks the connection's credential again before each one, so
    a stream ends when its token is revoked or its session ends, at the next event."""
    while True:
        event = await queue.get()
        if event is REVOKED:
            await websocket.close(code=_UNAUTHORIZED, reason="the token was revoked, or the session ended")
            return
        await websocket.send_json(event)


def _hello(state: ServerState, game_id: str, caller: Caller) -> dict[str, Any] | None:
    """The first message (the game, its turn and status, the caller's part in it); ``None`` if
    the caller is not a member (an open game's page is public, its stream is for its
    members)."""
    try:
        # One query decides whether the caller may see it: a private game is refused as
        # quickly as a game that does not exist.
        with reading(state, caller, game_id) as (_store, table):
            member = table.visible(actor(caller))
    except Refusal:
        return None
    if member.role is Role.NONE:
        return None
    return {
        "type": "hello",
        "game": game_id,
        "turn": table.turn,
        "status": table.status.value,
        "role": member.role.value,
        "power": member.power,
    }
