"""What one running server holds: its settings, its database, and the limits it keeps per
client, kept on the app (never at module level: tests run several servers in one process)."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request

from fogdip.server.config import Settings
from fogdip.server.db import Database
from fogdip.server.events import Hub
from fogdip.server.limits import SignInThrottle, StreamSlots
from fogdip.server.store import ReadCache


@dataclass(frozen=True)
class ServerState:
    settings: Settings
    db: Database
    hub: Hub
    reads: ReadCache
    #: Failed sign-ins, per name and address and per address.
    sign_ins: SignInThrottle
    #: Open live streams, per account and per address.
    streams: StreamSlots


async def server(request: Request) -> ServerState:
    """The state of the server handling ``request`` (a FastAPI dependency; ``async`` because it
    does no I/O: FastAPI runs a plain function in a worker thread, a hop per dependency)."""
    state: ServerState = request.app.state.fogdip
    return state
