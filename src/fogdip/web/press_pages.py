"""Press and draw votes from the game page, by the table's own rules."""

from __future__ import annotations

from typing import Annotated

from fastapi import Form, Request
from fastapi.responses import Response

from fogdip.server.auth import Server
from fogdip.server.routing import Router
from fogdip.web.forms import Csrf, change

router = Router(include_in_schema=False)


@router.post("/games/{game_id}/draw")
def vote_draw(game_id: str, request: Request, state: Server, csrf: Csrf, vote: Annotated[bool, Form()]) -> Response:
    return change(request, state, csrf, game_id, lambda table, who: table.vote_draw(who, vote))


@router.post("/games/{game_id}/messages")
def send(
    game_id: str,
    request: Request,
    state: Server,
    csrf: Csrf,
    body: Annotated[str, Form()],
    to: Annotated[list[str], Form()],
) -> Response:
    recipients: list[str] | str = "all" if "all" in to else to
    return change(request, state, csrf, game_id, lambda table, who: table.send(who, recipients, body))


__all__ = ["router"]
