"""Pages that show a game as someone else sees it: the game master's "see as FRANCE" (exactly
FRANCE's board, read-only), the invitation a player opens to join, and, once a game whose
variant reveals everything is over, the whole game as the game master saw it.

"See as" shows what FRANCE's own page shows, built by the same code from the same reports
(:func:`fogdip.web.game_pages._board`, :func:`fogdip.game.pages.sight_of`): the game master is
seated as FRANCE's clerk on a copy of the table that is only read (the way a postal game's
master acts for a power), so nothing of the game master's own sight is added.
"""

from __future__ import annotations

import dataclasses
import random
import re
from typing import Annotated, Any

from fastapi import Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from fogdip.engine.errors import FogdipError
from fogdip.game import Actor, Refusal, Refused, Role
from fogdip.game.pages import may_export, page_of
from fogdip.game.seats import Member
from fogdip.maps import master_scene_of, render_svg
from fogdip.server.auth import Server
from fogdip.server.routing import Router
from fogdip.server.state import ServerState
from fogdip.server.store import SqlStore, actor_of
from fogdip.server.tables import actor, reading
from fogdip.web.forms import Csrf, change, not_found
from fogdip.web.game_pages import _board
from fogdip.web.pages import context, pages_of, visitor
from fogdip.web.press_pages import press_view

router = Router(include_in_schema=False)

_PROLOGUE = re.compile(r"^<\?xml[^>]*>\s*", re.S)


def _refused(request: Request, state: ServerState, refusal: Refusal, back: str) -> Response:
    caller = visitor(request, state)
    if refusal.kind is Refused.NOT_FOUND:
        return not_found(request, state, caller)
    status = {Refused.BAD_REQUEST: 400, Refused.CONFLICT: 409}.get(refusal.kind, 403)
    return pages_of(request).render(
        "message.html", context(request, state, caller, title="Not shown", message=refusal.message, back=back), status
    )


@router.get("/games/{game_id}/as/{power}", response_class=HTMLResponse)
def see_as(
    game_id: str,
    power: str,
    request: Request,
    state: Server,
    phase: Annotated[str | None, Query(max_length=20)] = None,
) -> Response:
    """The game master sees ``power``'s page as its player does, without its forms."""
    caller = visitor(request, state)
    try:
        with reading(state, caller, game_id) as (store, table):
            who = actor(caller)
            table.master_only(who)
            seat = table.seat(power)
            clerk = dataclasses.replace(table, settings=table.settings.with_changes(postal=True))
            board = _board(store, clerk, Actor(who.account, for_power=seat.power), phase)
            member = Member(Role.PLAYER, seat.power)
            page = page_of(table, member)
            press = press_view(store, table, member)
    except Refusal as refusal:
        return _refused(request, state, refusal, f"/games/{game_id}")
    if press is not None:
        press = dataclasses.replace(press, writes=False)
    # Its forms are the player's: here the board is only shown.
    board["sight"] = "seen"
    more = {**board, "page": page, "press": press, "seen_as": seat.power, "read_only": True}
    return pages_of(request).render("seen_as.html", context(request, state, caller, **more))


# --- the invitation -------------------------------------------------------------------------


def _invited(store: SqlStore, game_id: str, caller_id: int | None, code: str) -> Any:
    table = store.find(game_id, caller_id, invite=code)
    return table, table.visible(actor_of(caller_id), code)


@router.get("/games/{game_id}/invite/{code}", response_class=HTMLResponse)
def invitation(game_id: str, code: str, request: Request, state: Server) -> Response:
    """The page an invitation link opens: the game, and joining or watching it."""
    caller = visitor(request, state)
    try:
        with state.db.reading() as session:
            table, member = _invited(
                SqlStore(session, state.reads), game_id, None if caller is None else caller.user_id, code
            )
            page = page_of(table, member)
            free = [seat.power for seat in table.seats if not seat.taken]
    except Refusal:
        return not_found(request, state, caller)
    if member.role is not Role.NONE:
        return RedirectResponse(f"/games/{game_id}", status_code=303)
    more = {"page": page, "code": code, "free": free}
    return pages_of(request).render("invite.html", context(request, state, caller, **more))


@router.post("/games/{game_id}/invite/{code}/join")
def join_invited(
    game_id: str,
    code: str,
    request: Request,
    state: Server,
    csrf: Csrf,
    power: Annotated[str, Form(max_length=40)] = "",
) -> Response:
    return _by_invitation(
        request,
        state,
        csrf,
        game_id,
        code,
        lambda table, who: table.join(who, power or None, code, random.SystemRandom()),
    )


@router.post("/games/{game_id}/invite/{code}/observe")
def observe_invited(game_id: str, code: str, request: Request, state: Server, csrf: Csrf) -> Response:
    return _by_invitation(request, state, csrf, game_id, code, lambda table, who: table.observe(who, code))


def _by_invitation(request: Request, state: ServerState, csrf: str, game_id: str, code: str, rule: Any) -> Response:
    return change(request, state, csrf, game_id, rule, invite=code, back=f"/games/{game_id}/invite/{code}")


# --- the whole game, revealed at its end ----------------------------------------------------


@router.get("/games/{game_id}/revealed", response_class=HTMLResponse)
def revealed_game(
    game_id: str, request: Request, state: Server, phase: Annotated[str | None, Query(max_length=20)] = None
) -> Response:
    """Every phase's map as the game master saw it, and every power's orders of the turn:
    the game master's, and every member's once a game whose variant reveals it is over (the
    API's export rule, :func:`fogdip.game.pages.may_export`)."""
    caller = visitor(request, state)
    try:
        with reading(state, caller, game_id) as (_store, table):
            who = actor(caller)
            may_export(table, who)
            history = table.game.revealed_history()
            if history is None:
                raise Refusal.forbidden("the whole game is shown once it is over, where its variant reveals it")
            page = page_of(table, table.visible(who))
            turns = [str(entry["turn"]) for entry in history]
            chosen = (phase or turns[-1]).strip().upper()
            entry = next((each for each in history if each["turn"] == chosen), None)
            if entry is None:
                raise Refusal.bad_request(f"no turn {chosen} was played; choose one of {', '.join(turns)}")
            drawing = _PROLOGUE.sub("", render_svg(master_scene_of(table.game, chosen)))
    except Refusal as refusal:
        return _refused(request, state, refusal, f"/games/{game_id}")
    except FogdipError as exc:
        return _refused(request, state, Refusal.bad_request(str(exc)), f"/games/{game_id}")
    orders = [
        {
            "unit": unit,
            "power": told.get("power") or "",
            "order": told.get("order") or "",
            "result": ", ".join(told.get("result") or [])
            if isinstance(told.get("result"), list)
            else told.get("result"),
        }
        for unit, told in dict(entry["orders"]).items()
    ]
    orders.sort(key=lambda row: (row["power"], row["unit"]))
    more = {"page": page, "turns": turns, "chosen": chosen, "drawing": drawing, "orders": orders}
    return pages_of(request).render("revealed.html", context(request, state, caller, **more))


__all__ = ["router"]
