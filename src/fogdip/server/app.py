"""The ASGI application: routes, error answers, limits, and the pages a person opens first.

``create_app(settings)`` makes one; ``fogdip serve`` runs it under uvicorn. It keeps no game
logic: every game action is the game service's.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import MappingProxyType

import anyio.to_thread
from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy import text
from sqlalchemy.exc import DataError
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fogdip.game import Refusal, Refused
from fogdip.server import auth, games, lifecycle, mail_seats, press, stream, transfer
from fogdip.server.bot_seats import BotSeats
from fogdip.server.config import Settings
from fogdip.server.db import Database
from fogdip.server.deadlines import keep_deadlines
from fogdip.server.errors import ApiError
from fogdip.server.events import Hub
from fogdip.server.limits import STREAM_SLOW_DOWN, SignInThrottle, StreamSlots, address_of
from fogdip.server.memory import collect_garbage, take_over
from fogdip.server.routing import Lanes, one_hop
from fogdip.server.security import token_digest
from fogdip.server.state import ServerState
from fogdip.server.store import DamagedGame, ReadCache
from fogdip.version import __version__

log = logging.getLogger("fogdip.server")


def create_app(settings: Settings, *, upgrade: bool = True) -> FastAPI:
    """A fogdip server with ``settings``; its database is brought up to date when it starts
    (unless ``upgrade`` is false)."""
    database = Database(settings.database_url)
    hub = Hub(database)
    reads = ReadCache()
    database.on_commit(reads.committed)
    bot_seats = BotSeats(database, reads, settings.deadline_check)
    database.on_commit(bot_seats.committed)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if upgrade:
            for reason in database.upgrade():
                log.error("%s; it was left as it was", reason)
        # Sync routes run on the event loop's default thread pool (anyio's): sized here.
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.threads
        collector = None
        if settings.gc_every > 0:
            take_over()
            collector = asyncio.create_task(collect_garbage(settings.gc_every))
        keeper = asyncio.create_task(keep_deadlines(database, reads, settings.deadline_check))
        bot_player = asyncio.create_task(bot_seats.run())
        feeder = asyncio.create_task(hub.run())
        yield
        keeper.cancel()
        bot_player.cancel()
        feeder.cancel()
        if collector is not None:
            collector.cancel()
        database.dispose()

    app = FastAPI(
        title="fogdip",
        summary="Diplomacy with hidden information: fog of war, blind and gunboat variants.",
        version=__version__,
        lifespan=lifespan,
        # The API's description is drawn at /docs by the site (fogdip.web), from files it serves
        # itself: FastAPI's own page fetches Swagger UI from a CDN.
        docs_url=None,
        redoc_url=None,
        # No redirects to a slash-ended path: they would echo the request's Host header.
        redirect_slashes=False,
    )
    app.state.fogdip = ServerState(
        settings,
        database,
        hub,
        reads,
        SignInThrottle(),
        StreamSlots(settings.streams_per_account, settings.streams_per_address),
    )
    # Slow work waits in lanes of its own, one at a time, never on the request workers:
    # passwords' hashes (sign-up, sign-in, a reset) and games' imports.
    app.state.lanes = Lanes({auth.PASSWORDS: 1, transfer.IMPORTS: 1})
    app.include_router(auth.router)
    app.include_router(transfer.router)
    app.include_router(games.router)
    app.include_router(lifecycle.router)
    app.include_router(press.router)
    app.include_router(mail_seats.router)
    app.include_router(stream.router)
    _errors(app)
    _limits(app, settings)

    @app.get("/healthz", tags=["server"], summary="Is the server up, and its database reachable")
    @one_hop
    def healthz() -> dict[str, str]:
        with database.reading() as session:
            session.execute(text("SELECT 1"))
        return {"status": "ok", "database": "sqlite" if database.is_sqlite else "postgresql"}

    return app


def _errors(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(
            {"error": {"code": exc.code, "message": exc.message}, **exc.extra},
            status_code=exc.status,
            headers=exc.headers,
        )

    @app.exception_handler(Refusal)
    async def refused(_request: Request, exc: Refusal) -> JSONResponse:
        return JSONResponse(
            {"error": {"code": exc.code, "message": exc.message}, **dict(exc.detail)}, status_code=_STATUS[exc.kind]
        )

    @app.exception_handler(DamagedGame)
    async def damaged(_request: Request, exc: DamagedGame) -> JSONResponse:
        # The reason can name units: it goes to the server's log, never to a client.
        log.error("%s", exc)
        return JSONResponse(
            {
                "error": {
                    "code": "damaged",
                    "message": "this game's stored data cannot be read; the server's admin has been told",
                }
            },
            status_code=500,
        )

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(
            {"error": {"code": "invalid", "message": _explain(exc)}},
            status_code=422,
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = {
            404: "no such page; the API is under /api/v1 and described at /docs",
            405: "that method is not allowed here",
        }
        codes = {400: "bad-request", 404: "not-found", 405: "method", 413: "too-large"}
        return JSONResponse(
            {
                "error": {
                    "code": codes.get(exc.status_code, "http"),
                    "message": message.get(exc.status_code, str(exc.detail)),
                }
            },
            status_code=exc.status_code,
        )

    @app.exception_handler(DataError)
    async def unstorable(_request: Request, exc: DataError) -> JSONResponse:
        return _unstorable()

    @app.exception_handler(OverflowError)
    async def overflow(_request: Request, exc: OverflowError) -> JSONResponse:
        return _unstorable()

    @app.exception_handler(Exception)
    async def internal(_request: Request, exc: Exception) -> JSONResponse:
        # Logged for the admin; the client learns nothing of what the server held.
        log.exception("internal error")
        return JSONResponse(
            {"error": {"code": "internal", "message": "the server failed; nothing was changed; please report it"}},
            status_code=500,
        )


#: The answer to each kind of refusal a table gives.
_STATUS = MappingProxyType(
    {
        Refused.BAD_REQUEST: 400,
        Refused.FORBIDDEN: 403,
        Refused.NOT_FOUND: 404,
        Refused.CONFLICT: 409,
        Refused.STALE: 409,
        Refused.LINES: 422,
        Refused.TOO_MANY: 429,
    }
)


def _unstorable() -> JSONResponse:
    return JSONResponse(
        {
            "error": {
                "code": "unstorable",
                "message": "a value of the request cannot be stored: a text holds a NUL character, "
                "a number is out of range, or a text is too long; send plain text and numbers in range",
            }
        },
        status_code=400,
    )


def _explain(exc: RequestValidationError) -> str:
    """Each wrong part of a request and what it should be, by where it is (``lines.0``); the
    alternatives of a part that may take several forms joined by "or"."""
    said: dict[str, list[str]] = {}
    for error in exc.errors():
        loc = tuple(error.get("loc", ()))
        inside = loc[1:] if loc[:1] in (("body",), ("query",), ("path",)) else loc
        where = ".".join(str(p) for p in inside if not _is_type_tag(p))
        kind = error.get("type", "")
        if kind == "json_invalid":
            said.setdefault("", []).append(
                "the body is not valid JSON: " + str(error.get("ctx", {}).get("error", "")).strip()
            )
        elif kind == "missing":
            said.setdefault(where, []).append(f"{where or 'the request'} is missing")
        else:
            said.setdefault(where, []).append(error.get("msg", "invalid"))
    parts = []
    for where, messages in list(said.items())[:5]:
        text = " or ".join(dict.fromkeys(messages))
        parts.append(text if not where or text.startswith(where) else f"{where}: {text}")
    return "; ".join(parts) + "; see /docs for the request's form"


#: The names Pydantic gives a union's members in an error's location (``list[str]``).
_TYPE_TAGS = frozenset({"str", "int", "float", "bool", "dict", "list", "none", "null"})


def _is_type_tag(part: object) -> bool:
    return isinstance(part, str) and ("[" in part or part in _TYPE_TAGS)


def _limits(app: FastAPI, settings: Settings) -> None:
    # Added first, so it runs innermost: what it raises while the body is read reaches the
    # route's own error handling, not another middleware's.
    app.add_middleware(BodyGuard, limit=settings.max_body, imports=settings.max_import)
    app.add_middleware(RateGuard, per_minute=settings.rate_per_minute)


class RateGuard:
    """At most ``per_minute`` requests a minute per client (its token or session, else its
    address), and four times as many per address, whatever credentials it sends: several
    people may share an address, but no one gets round the limit by inventing credentials.
    A live stream's handshake is a request too: refused, the stream is closed at once with
    4429. The address is the one the request came from (:func:`fogdip.server.limits.address_of`).
    A plain ASGI middleware: Starlette's ``BaseHTTPMiddleware`` costs a task and a stream
    per request."""

    def __init__(self, app: ASGIApp, per_minute: int) -> None:
        self.app = app
        self.per_minute = per_minute
        self.per_client = RateLimiter(per_minute)
        self.per_address = RateLimiter(per_minute * 4)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        address = "a:" + address_of(scope)
        wait = self.per_address.spend(address)
        if wait is None:
            wait = self.per_client.spend(_client_key(Headers(scope=scope), address))
        if wait is None:
            await self.app(scope, receive, send)
            return
        message = f"too many requests: at most {self.per_minute} a minute; try again in {wait} s"
        if scope["type"] == "websocket":
            # Accepted to be closed with a code a page's script can read (a refused handshake
            # reaches it as a bare failure).
            await receive()  # the client's websocket.connect
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": STREAM_SLOW_DOWN, "reason": message})
            return
        answer = JSONResponse(
            {"error": {"code": "slow-down", "message": message}}, status_code=429, headers={"Retry-After": str(wait)}
        )
        await answer(scope, receive, send)


#: Where game files are imported (their bodies are whole games).
IMPORT_PATH = "/api/v1/games/import"


class BodyGuard:
    """Request bodies: at most ``limit`` bytes, whether the length is told first or the body
    comes in chunks (counted as it is read); no NUL character, in the body or the path
    (PostgreSQL cannot store one; SQLite could, and the two must answer alike); and no half of
    a UTF-16 surrogate pair written alone as ``\\udxxx`` in JSON (no database can store it, nor
    can it be sent back)."""

    def __init__(self, app: ASGIApp, limit: int, imports: int | None = None) -> None:
        self.app = app
        self.limit = limit
        #: A game file imported is a whole game: it may be larger (``FOGDIP_MAX_IMPORT``).
        self.imports = max(limit, imports or limit)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        if "\x00" in path:
            await _refuse(400, "unstorable", "the path holds a NUL character", scope, receive, send)
            return
        limit = self.imports if path == IMPORT_PATH else self.limit
        too_large = f"a request body may have at most {limit:,} bytes"
        length = dict(scope.get("headers", ())).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _refuse(413, "too-large", too_large, scope, receive, send)
            return
        read = 0
        tail = b""
        chunks: list[bytes] = []
        escaped_surrogate = False

        async def counted() -> Message:
            nonlocal read, tail, escaped_surrogate
            message = await receive()
            if message["type"] == "http.request":
                body = message.get("body", b"")
                read += len(body)
                if read > limit:
                    raise HTTPException(413, too_large)
                chunks.append(body)
                seen = tail + body
                if b"\x00" in seen or b"\\u0000" in seen:
                    raise HTTPException(400, "a text holds a NUL character; send plain text")
                escaped_surrogate = escaped_surrogate or b"\\ud" in seen.lower()
                tail = seen[-5:]
                if escaped_surrogate and not message.get("more_body", False) and _lone_surrogate(b"".join(chunks)):
                    raise HTTPException(
                        400,
                        "a text holds half of a UTF-16 surrogate pair (\\ud800 to \\udfff alone); send valid Unicode",
                    )
            return message

        await self.app(scope, counted, send)


def _lone_surrogate(body: bytes) -> bool:
    """Whether a JSON body holds a string with a lone surrogate (a pair read back is one
    character); a body that is not JSON is left for the route to refuse."""
    try:
        value = json.loads(body)
    except ValueError:
        return False
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
    return False


async def _refuse(status: int, code: str, message: str, scope: Scope, receive: Receive, send: Send) -> None:
    await JSONResponse({"error": {"code": code, "message": message}}, status_code=status)(scope, receive, send)


class RateLimiter:
    """Requests per minute per client, counted in fixed one-minute windows, in this process
    (each process of a scaled-out server counts its own share)."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._windows: dict[str, tuple[int, int]] = {}

    def spend(self, key: str, moment: float | None = None) -> int | None:
        """Count one request of ``key``: ``None`` if allowed, else the seconds to wait."""
        moment = time.time() if moment is None else moment
        window = int(moment // 60)
        start, used = self._windows.get(key, (window, 0))
        if start != window:
            start, used = window, 0
            if len(self._windows) > 10_000:  # forget finished windows now and then
                self._windows = {k: v for k, v in self._windows.items() if v[0] == window}
        if used >= self.per_minute:
            return max(1, int(60 - moment % 60))
        self._windows[key] = (start, used + 1)
        return None


def _client_key(headers: Headers, address: str) -> str:
    """Whose requests these are: the token or session (hashed), else the address."""
    credential = headers.get("authorization") or cookie_parser(headers.get("cookie", "")).get(auth.COOKIE)
    return "c:" + token_digest(credential) if credential else address
