"""The site's first pages: what fogdip is, signing up and in, and, signed in, a game against
bots in one click, one's games, open games to join, and a new game. Each page and form is a
thin adapter over the same use cases as the API (:mod:`fogdip.game.table` through
:mod:`fogdip.server.tables`): a page can never allow what the API refuses.

Forms post with the session's CSRF token in a hidden field (a script sends it as the API's
header); an answer to a form that changed something is a redirect (the page a reload shows
is never a resubmission).
"""

from __future__ import annotations

import random
from typing import Annotated, Any

from fastapi import Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError
from sqlalchemy import or_, select

from fogdip.codec.api import GameIn
from fogdip.game import Refusal, Role, Status, Table
from fogdip.game.pages import page_of
from fogdip.game.settings import ObserverView, PhaseType, PressMode, PressRange
from fogdip.server.auth import (
    COOKIE,
    PASSWORDS,
    Caller,
    Server,
    caller_from,
    create_account,
    end_session,
    open_session,
    session_csrf,
    set_session_cookie,
)
from fogdip.server.errors import ApiError
from fogdip.server.games import keep, new_table
from fogdip.server.limits import address_of
from fogdip.server.models import GameRow, Observer, Seat
from fogdip.server.routing import Router, in_lane
from fogdip.server.state import ServerState
from fogdip.server.store import SqlStore, now
from fogdip.server.tables import actor
from fogdip.variants.options import PRESET_SUMMARIES
from fogdip.web.render import Pages

router = Router(include_in_schema=False)

#: The presets offered for a game against bots, in the order shown (fog first).
PLAYABLE = ("fog-of-war", "sighting", "deadman", "diplomyopia", "fog-1898", "standard")

Csrf = Annotated[str, Form(alias="csrf_token")]


def pages_of(request: Request) -> Pages:
    """The site's templates (kept on the app)."""
    pages: Pages = request.app.state.pages
    return pages


def visitor(request: Request, state: ServerState, csrf: str | None = None) -> Caller | None:
    """Who is asking: a browser's session (a change must carry its CSRF token, from the form
    or the header), or a token; ``None`` for someone not signed in."""
    return caller_from(request.headers, request.cookies, request.method, state, csrf=csrf)


def context(request: Request, state: ServerState, caller: Caller | None, **more: Any) -> dict[str, Any]:
    """What every page knows: who is signed in and their session's CSRF token."""
    return {
        "me": caller,
        "csrf": session_csrf(state, request.cookies) if caller is not None else None,
        "path": request.url.path,
        **more,
    }


@router.get("/", response_class=HTMLResponse)
def home(request: Request, state: Server) -> Response:
    caller = visitor(request, state)
    return _home(request, state, caller)


def _home(
    request: Request, state: ServerState, caller: Caller | None, error: str | None = None, status: int = 200
) -> Response:
    pages = pages_of(request)
    more: dict[str, Any] = {
        "error": error,
        "presets": [(name, PRESET_SUMMARIES[name]) for name in PLAYABLE],
        "all_presets": sorted(PRESET_SUMMARIES.items()),
        "press_modes": [mode.value for mode in PressMode],
        "deadline_hours": DEADLINE_HOURS,
    }
    if caller is not None:
        more.update(_lobby(state, caller))
    return pages.render("home.html", context(request, state, caller, **more), status)


def _lobby(state: ServerState, caller: Caller) -> dict[str, Any]:
    """The signed-in first page's lists: one's own games (with orders due and deadlines) and
    open games one may join."""
    who = actor(caller)
    mine, open_games = [], []
    with state.db.reading() as session:
        seated = select(Seat.game_id).where(Seat.user_id == caller.user_id)
        watched = select(Observer.game_id).where(Observer.user_id == caller.user_id)
        rows = list(
            session.execute(
                select(GameRow)
                .where(
                    or_(
                        GameRow.private.is_(False),
                        GameRow.master_id == caller.user_id,
                        GameRow.id.in_(seated),
                        GameRow.id.in_(watched),
                    )
                )
                .order_by(GameRow.created_at.desc())
                .limit(200)
            ).scalars()
        )
        for table in SqlStore(session, state.reads).listed(rows, caller.user_id):
            member = table.member(who)
            page = page_of(table, member)
            if member.role is Role.NONE:
                if table.status in (Status.FORMING, Status.ACTIVE) and any(not s.taken for s in table.seats):
                    open_games.append(page)
                continue
            due = (
                member.is_player
                and table.status is Status.ACTIVE
                and member.power is not None
                and member.power not in table.game.record.filed
                and member.power in table.still_in()
            )
            mine.append((page, due))
    return {"mine": mine, "open_games": open_games}


@router.post("/signup")
@in_lane(PASSWORDS)
def sign_up(
    request: Request,
    state: Server,
    name: Annotated[str, Form()],
    password: Annotated[str, Form()],
) -> Response:
    try:
        create_account(state, name, password)
    except ApiError as exc:
        return _home(request, state, None, exc.message, exc.status)
    return _session_opened(request, state, name, password)


@router.post("/signin")
@in_lane(PASSWORDS)
def sign_in(
    request: Request,
    state: Server,
    name: Annotated[str, Form()],
    password: Annotated[str, Form()],
) -> Response:
    return _session_opened(request, state, name, password)


def _session_opened(request: Request, state: ServerState, name: str, password: str) -> Response:
    """Signed in: the first page again, with the session's cookie (or the first page with why not)."""
    try:
        _signed, secret = open_session(state, name, password, address_of(request.scope))
    except ApiError as exc:
        return _home(request, state, None, exc.message, exc.status)
    answer = RedirectResponse("/", status_code=303)
    set_session_cookie(answer, secret, state)
    return answer


@router.post("/signout")
def sign_out(request: Request, state: Server, csrf: Csrf) -> Response:
    if visitor(request, state, csrf) is not None:
        end_session(state, request.cookies.get(COOKIE))
    answer = RedirectResponse("/", status_code=303)
    answer.delete_cookie(COOKIE, path="/")
    return answer


def _signed_in(request: Request, state: ServerState, csrf: str) -> Caller:
    try:
        caller = visitor(request, state, csrf)
    except ApiError as exc:
        raise Refusal.forbidden(exc.message) from None
    if caller is None:
        raise Refusal.forbidden("sign in first")
    return caller


@router.post("/play")
def play_against_bots(
    request: Request,
    state: Server,
    csrf: Csrf,
    preset: Annotated[str, Form()],
    power: Annotated[str, Form()] = "",
) -> Response:
    """A game against six bots, started at once: one click from the first page."""
    caller: Caller | None = None
    try:
        caller = _signed_in(request, state, csrf)
        made = new_table(GameIn(preset=preset, name="", private=True), caller)
        table = Table.against_bots(
            made.id,
            made.game,
            made.settings.with_changes(name=f"{preset} against bots"),
            actor(caller),
            power or None,
            moment=now(),
            invite=made.invite,
            rng=random.SystemRandom(),
        )
        keep(state, table)
    except Refusal as refusal:
        return _home(request, state, caller, refusal.message, 400)
    return RedirectResponse(f"/games/{table.id}", status_code=303)


@router.post("/new")
def create_game(
    request: Request,
    state: Server,
    csrf: Csrf,
    preset: Annotated[str, Form()],
    name: Annotated[str, Form(max_length=200)] = "",
    private: Annotated[bool, Form()] = False,
    press: Annotated[str, Form(max_length=20)] = "",
    press_range: Annotated[str, Form(max_length=20)] = "any",
    observers: Annotated[str, Form(max_length=20)] = "press",
    deadline: Annotated[str, Form(max_length=20)] = "",
) -> Response:
    """A new game one masters, as the API's ``POST /api/v1/games`` makes it: its variant, its
    press, what observers see, and a deadline per phase (none: the game master plays each
    turn); seats to fill, bots to seat, then its start."""
    caller: Caller | None = None
    try:
        caller = _signed_in(request, state, csrf)
        body = new_game_in(preset, name, private, press, press_range, observers, deadline)
        table = keep(state, new_table(body, caller))
    except Refusal as refusal:
        # Who asked is known from the form's token (asking again would want it as a header).
        return _home(request, state, caller, refusal.message, 400)
    return RedirectResponse(f"/games/{table.id}", status_code=303)


#: The deadlines the new-game form offers, in hours per phase (none: the game master plays).
DEADLINE_HOURS = ("", "0.25", "1", "12", "24", "48", "72")


def new_game_in(
    preset: str, name: str, private: bool, press: str, press_range: str, observers: str, deadline: str
) -> GameIn:
    """The API's request for the new-game form's answers, or what is wrong with them.

    >>> new_game_in("fog-of-war", "", True, "grey", "any", "board", "24").deadlines
    {'movement': 86400.0, 'retreats': 86400.0, 'adjustments': 86400.0}
    >>> try:
    ...     new_game_in("fog-of-war", "", True, "loud", "any", "press", "")
    ... except Refusal as refusal:
    ...     print(refusal.message)
    press is one of: the variant's own, none, public, white, grey, black, gunboat; not 'loud'
    """
    words: dict[str, Any] = {"preset": preset, "name": name.strip(), "private": private}
    choices = {
        "press": ("", *(mode.value for mode in PressMode)),
        "press_range": tuple(kind.value for kind in PressRange),
        "observers": tuple(kind.value for kind in ObserverView),
    }
    given = {"press": press, "press_range": press_range, "observers": observers}
    for field, value in given.items():
        if value not in choices[field]:
            shown = ", ".join("the variant's own" if each == "" else each for each in choices[field])
            raise Refusal.bad_request(f"{field.replace('_', ' ')} is one of: {shown}; not {value!r}")
        if value:
            words[field] = value
    if deadline.strip():
        try:
            hours = float(deadline)
        except ValueError:
            hours = -1.0
        if not 0 < hours <= 60 * 24:
            raise Refusal.bad_request(
                f"a deadline is a number of hours per phase, more than 0 and at most 1440 (60 days); not {deadline!r}"
            )
        words["deadlines"] = {kind.value: hours * 3600 for kind in PhaseType}
    if len(words["name"]) > NAME_LIMIT:
        raise Refusal.bad_request(f"a game's name is {NAME_LIMIT} characters at most")
    try:
        return GameIn(**words)
    except ValidationError as exc:
        raise Refusal.bad_request("; ".join(str(error["msg"]) for error in exc.errors())) from None


#: The longest name a game may have, as the API takes it.
NAME_LIMIT = 80


__all__ = ["PLAYABLE", "context", "pages_of", "router", "visitor"]
