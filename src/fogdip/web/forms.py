"""What every form of the game page shares: who is acting (a signed-in browser whose form
carries its session's CSRF token), a change made by a table rule and answered with the page
again, and the page for a game one may not see."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Form, Request
from fastapi.responses import RedirectResponse, Response

from fogdip.game import Refusal, Refused
from fogdip.server.auth import Caller
from fogdip.server.errors import ApiError
from fogdip.server.state import ServerState
from fogdip.server.tables import actor, changing
from fogdip.web.pages import context, pages_of, visitor

Csrf = Annotated[str, Form(alias="csrf_token")]
Turn = Annotated[str, Form()]


def not_found(request: Request, state: ServerState, caller: Caller | None) -> Response:
    return pages_of(request).render(
        "message.html",
        context(request, state, caller, title="No such game", message=Refusal.not_found().message),
        404,
    )


def acting(request: Request, state: ServerState, csrf: str) -> Caller:
    """Who sends a form: a signed-in browser whose form carries its session's CSRF token."""
    try:
        caller = visitor(request, state, csrf)
    except ApiError as exc:
        # A form's token is the page's: a stale one means a page from an earlier session.
        message = "this page is from an earlier session: reload it and try again" if exc.code == "csrf" else exc.message
        raise Refusal.forbidden(message) from None
    if caller is None:
        raise Refusal.forbidden("sign in first")
    return caller


def redirect_back(game_id: str) -> Response:
    return RedirectResponse(f"/games/{game_id}", status_code=303)


def change(
    request: Request,
    state: ServerState,
    csrf: str,
    game_id: str,
    rule: Any,
    *,
    invite: str | None = None,
    back: str | None = None,
) -> Response:
    """A change from a form of the game page (or of its invitation, ``invite``): done by the
    table's rule, then the page again (or the page with why not, leading ``back``)."""
    return change_stored(
        request, state, csrf, game_id, lambda _store, table, who: rule(table, who), invite=invite, back=back
    )


def change_stored(
    request: Request,
    state: ServerState,
    csrf: str,
    game_id: str,
    rule: Any,
    *,
    invite: str | None = None,
    back: str | None = None,
) -> Response:
    """:func:`change`, with a rule that takes the store too (``rule(store, table, who)``): one
    that keeps rows of its own beside the table's (a seat played by mail)."""
    caller: Caller | None = None
    try:
        caller = acting(request, state, csrf)
        with changing(state, caller, game_id, invite=invite) as (store, table):
            rule(store, table, actor(caller))
    except Refusal as refusal:
        # Who asked is known from the form's CSRF token (asking again would want the header).
        asking = caller
        if refusal.kind is Refused.NOT_FOUND:
            return not_found(request, state, asking)
        status = {Refused.CONFLICT: 409}.get(refusal.kind, 400)
        return pages_of(request).render(
            "message.html",
            context(
                request, state, asking, title="Not done", message=refusal.message, back=back or f"/games/{game_id}"
            ),
            status,
        )
    return redirect_back(game_id)


__all__ = ["Csrf", "Turn", "acting", "change", "change_stored", "not_found", "redirect_back"]
