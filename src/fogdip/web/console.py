"""The game master's console: seats and bots, start, adjudicate now; each by the table's own
rule, as the API does it."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import Response

from fogdip.server.auth import Server
from fogdip.server.routing import Router
from fogdip.server.store import now
from fogdip.server.tables import bots
from fogdip.web.forms import Csrf, Turn, change

router = Router(include_in_schema=False)


@router.post("/games/{game_id}/bots")
def seat_bots(game_id: str, request: Request, state: Server, csrf: Csrf) -> Response:
    return change(request, state, csrf, game_id, lambda table, who: table.seat_bots(who))


@router.post("/games/{game_id}/start")
def start(game_id: str, request: Request, state: Server, csrf: Csrf) -> Response:
    moment = now()
    return change(request, state, csrf, game_id, lambda table, who: table.start(who, moment))


@router.post("/games/{game_id}/adjudicate")
def adjudicate(game_id: str, request: Request, state: Server, csrf: Csrf, turn: Turn) -> Response:
    moment = now()
    player, rng = bots()
    return change(
        request,
        state,
        csrf,
        game_id,
        lambda table, who: table.adjudicate(who, turn=turn, moment=moment, bots=player, rng=rng),
    )


__all__ = ["router"]
