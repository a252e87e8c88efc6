"""Each request makes one hop to a worker thread (``fogdip.server.routing``): every route's
endpoint is a coroutine and has no plain dependency, either of which FastAPI would run on a
worker thread of its own; and who is asking is checked on that one thread, before the endpoint."""

from __future__ import annotations

import asyncio
import inspect
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import pytest
from fastapi import Request
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from starlette.routing import BaseRoute

from fogdip.server.app import create_app
from fogdip.server.config import Settings
from fogdip.server.routing import SignInCheck, one_hop


def _dependencies(dependant: Dependant) -> list[Dependant]:
    found = []
    for sub in dependant.dependencies:
        found.append(sub)
        found.extend(_dependencies(sub))
    return found


def _api_routes(routes: Sequence[BaseRoute]) -> list[APIRoute]:
    """The app's routes, those of included routers too (FastAPI may keep them in the router
    included rather than copy them)."""
    found: list[APIRoute] = []
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            found.extend(_api_routes(included.routes))
        elif isinstance(route, APIRoute):
            found.append(route)
    return found


def test_every_api_route_makes_one_hop(tmp_path: Path) -> None:
    app = create_app(Settings(data_dir=tmp_path), upgrade=False)
    routes = _api_routes(app.routes)
    assert len(routes) > 30
    for route in routes:
        assert inspect.iscoroutinefunction(route.endpoint), f"{route.path}: a plain endpoint costs two more hops"
        plain = [d.call for d in _dependencies(route.dependant) if d.call and not inspect.iscoroutinefunction(d.call)]
        assert not plain, f"{route.path}: plain dependencies {plain} each cost a hop"
    # The routes that need who is asking get the request, to check it on the worker thread.
    games = next(r for r in routes if r.path == "/api/v1/games/{game_id}" and "GET" in r.methods)
    assert "request" in inspect.signature(games.endpoint).parameters
    assert "caller" not in inspect.signature(games.endpoint).parameters


#: What the functions below did, in order, on which thread.
seen: list[tuple[str, int]] = []


def check(request: Any) -> str:
    seen.append(("check", threading.get_ident()))
    if request == "stranger":
        raise PermissionError("sign in first")
    return f"caller of {request}"


def test_the_caller_is_checked_on_the_endpoint_s_thread_before_it_runs() -> None:
    seen.clear()

    def endpoint(game: str, caller: Annotated[str, SignInCheck(check)]) -> str:
        seen.append(("endpoint", threading.get_ident()))
        return f"{game} for {caller}"

    wrapped = one_hop(endpoint)
    assert list(inspect.signature(wrapped).parameters) == ["game", "request"]
    assert inspect.signature(wrapped).parameters["request"].annotation is Request
    assert asyncio.run(wrapped(game="g1", request="alice")) == "g1 for caller of alice"
    assert [step for step, _ in seen] == ["check", "endpoint"]
    assert seen[0][1] == seen[1][1] != threading.get_ident()
    seen.clear()
    with pytest.raises(PermissionError):
        asyncio.run(wrapped(game="g1", request="stranger"))
    assert [step for step, _ in seen] == ["check"]


def test_an_endpoint_that_takes_the_request_keeps_it() -> None:
    def endpoint(request: Request, caller: Annotated[str, SignInCheck(check)]) -> str:
        return f"{request} / {caller}"

    wrapped = one_hop(endpoint)
    assert list(inspect.signature(wrapped).parameters) == ["request"]
    assert asyncio.run(wrapped(request="req")) == "req / caller of req"
