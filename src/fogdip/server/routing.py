"""Routes that cost one hop to a worker thread.

FastAPI runs a plain (``def``) endpoint on a worker thread, and also each plain dependency and,
for a plain endpoint, the check of its answer against its response model: three hops for a
typical request here (who is asking, the endpoint, its answer). A hop costs as much CPU as a
small request's whole work, and under load each one waits for the interpreter's lock again.
fogdip's endpoints do blocking database work, so they stay plain functions; :class:`Router`
turns each into a coroutine that makes one hop, where who is asking is checked first and then
the endpoint runs. Its answer is then checked on the event loop, without a hop. (So FastAPI's
``dependency_overrides`` do not reach the sign-in check of these routes: tests sign in for real.)

An endpoint marked :func:`in_lane` makes its hop to a lane of its own instead (:class:`Lanes`):
work that holds a thread long (a password's hash, a game's import) waits there for its turn, so
however much of it comes, it never takes the worker threads that serve everything else.

>>> import asyncio, inspect
>>> def hello(name: str) -> dict[str, str]:
...     return {"hello": name}
>>> wrapped = one_hop(hello)
>>> inspect.iscoroutinefunction(wrapped), str(inspect.signature(wrapped))
(True, '(*, name: str) -> dict[str, str]')
>>> asyncio.run(wrapped(name="you"))
{'hello': 'you'}
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Coroutine
from typing import Annotated, Any, TypeVar, get_args, get_origin

import anyio.to_thread
from anyio import CapacityLimiter
from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

Endpoint = TypeVar("Endpoint", bound=Callable[..., Any])

#: The attribute :func:`in_lane` marks an endpoint with: the name of its lane.
_LANE = "_fogdip_lane"


class Lanes:
    """Lanes of their own for slow work, by name, each running at most its size at once, on
    threads apart from the request workers; kept on the app (``app.state.lanes``).

    >>> lanes = Lanes({"passwords": 1})
    >>> lanes["passwords"].total_tokens
    1
    """

    def __init__(self, sizes: dict[str, int]) -> None:
        self._limiters = {name: CapacityLimiter(size) for name, size in sizes.items()}

    def __getitem__(self, name: str) -> CapacityLimiter:
        return self._limiters[name]


def in_lane(name: str) -> Callable[[Endpoint], Endpoint]:
    """Mark an endpoint to run in the lane ``name`` of the app's :class:`Lanes`."""

    def mark(endpoint: Endpoint) -> Endpoint:
        setattr(endpoint, _LANE, name)
        return endpoint

    return mark


class SignInCheck:
    """The mark, in a parameter's ``Annotated`` type, of the caller a route needs: the
    parameter is filled on the worker thread by ``check(request)``, before the endpoint runs."""

    def __init__(self, check: Callable[[Request], Any]) -> None:
        self.check = check


class Router(APIRouter):
    """An ``APIRouter`` whose plain endpoints each make one hop to a worker thread
    (:func:`one_hop`)."""

    def add_api_route(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        super().add_api_route(path, one_hop(endpoint), **kwargs)


def one_hop(endpoint: Callable[..., Any]) -> Callable[..., Coroutine[Any, Any, Any]]:
    """``endpoint`` as a coroutine that runs it on a worker thread (or in its lane: :func:`in_lane`),
    its caller first checked there (each parameter marked with a :class:`SignInCheck`); a
    coroutine is left as it is.

    FastAPI sees the endpoint's own parameters, less the marked ones, plus the request if the
    endpoint does not take it already."""
    if inspect.iscoroutinefunction(endpoint):
        return endpoint
    signature = inspect.signature(endpoint, eval_str=True)
    checks = {name: check for name, p in signature.parameters.items() if (check := _sign_in_check(p.annotation))}
    shown = [p for name, p in signature.parameters.items() if name not in checks]
    takes_request = next((p.name for p in shown if p.annotation is Request), None)
    request_name = takes_request or "request"
    lane: str | None = getattr(endpoint, _LANE, None)
    needs_request = bool(checks) or lane is not None
    if needs_request and takes_request is None:
        if any(p.name == request_name for p in shown):
            raise TypeError(f"{endpoint.__qualname__}: a parameter named 'request' must be the request")
        shown.append(inspect.Parameter(request_name, inspect.Parameter.KEYWORD_ONLY, annotation=Request))

    @functools.wraps(endpoint)
    async def run(**values: Any) -> Any:
        request: Any = values[request_name] if needs_request else None
        if needs_request and takes_request is None:
            del values[request_name]

        def work() -> Any:
            for name, check in checks.items():
                values[name] = check.check(request)
            return endpoint(**values)

        if lane is not None:
            lanes: Lanes = request.app.state.lanes
            return await anyio.to_thread.run_sync(work, limiter=lanes[lane])
        return await run_in_threadpool(work)

    run.__signature__ = signature.replace(parameters=_ordered(shown))  # type: ignore[attr-defined]
    return run


def _sign_in_check(annotation: Any) -> SignInCheck | None:
    if get_origin(annotation) is not Annotated:
        return None
    return next((m for m in get_args(annotation)[1:] if isinstance(m, SignInCheck)), None)


def _ordered(parameters: list[inspect.Parameter]) -> list[inspect.Parameter]:
    """Parameters in an order a signature accepts (keyword-only ones last); FastAPI passes
    every one by name."""
    return [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in parameters]
