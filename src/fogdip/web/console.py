"""The game master's console: who plays each seat, the invitation, the bot, swapping seats,
the start, adjudicating now, pausing, resuming and extending the deadline, what every power
filed for the turn, the draw votes, and the game exported. Each change is the table's own rule
(:mod:`fogdip.server.tables`), as the API's routes make it; the console itself is the game
master's only (anyone else is answered as for a game that does not exist).

The console is a partial, ``/games/{id}/console``, that the game page asks for and the page's
script asks for again when the live stream says something changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Form, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy import select

from fogdip.bots.base import DEFAULT_BOT, bot_names
from fogdip.game import Refusal, Table
from fogdip.game.pages import page_of, seat_status
from fogdip.server.auth import Server
from fogdip.server.models import MAIL_MASTER, User
from fogdip.server.routing import Router
from fogdip.server.store import SqlStore, now
from fogdip.server.tables import actor, bots, reading
from fogdip.variants.record import filed_texts
from fogdip.web.forms import Csrf, Turn, change, not_found
from fogdip.web.mail_pages import mail_addresses
from fogdip.web.pages import context, pages_of, visitor

router = Router(include_in_schema=False)

#: How the names of the accounts made for mail players begin (:func:`fogdip.server.mail_seats.mail_account`).
MAIL_ACCOUNT = "~mail-"

#: The longest extension the console offers, in hours (the API's: 30 days).
LONGEST_EXTENSION_HOURS = 30 * 24


@dataclass(frozen=True)
class SeatRow:
    """A seat as the game master sees it."""

    power: str
    #: Who plays it: an account's name, the bot, or nobody yet.
    who: str
    bot: bool
    free: bool
    #: The table's own words for it: who, what is filed, ready, draw (or eliminated).
    status: str
    #: What it filed for the current turn (``None``: nothing).
    filed: list[str] | None
    ready: bool
    draw: bool
    #: Where its mails go, if it is played by mail (the game master's eyes only).
    mail: str | None = None


def seat_rows(store: SqlStore, table: Table) -> list[SeatRow]:
    """Every seat, with its player's name (read in one query), and the address of a seat
    played by mail."""
    by_mail = mail_addresses(store.session, table.id)
    ids = [int(seat.player) for seat in table.seats if seat.player is not None and seat.player.isdigit()]
    names: dict[str, str] = {}
    if ids:
        names = {
            str(key): name for key, name in store.session.execute(select(User.id, User.name).where(User.id.in_(ids)))
        }
    statuses = seat_status(table)
    rows = []
    for seat in table.seats:
        filed = table.game.record.filed.get(seat.power)
        who = (
            f"the bot ({seat.bot_name})"
            if seat.bot
            else names.get(seat.player, "someone")
            if seat.player is not None
            else "free"
        )
        if who.startswith(MAIL_ACCOUNT):  # an account made for a mail player: nobody's name
            who = "a mail player"
        rows.append(
            SeatRow(
                power=seat.power,
                who=who,
                bot=seat.bot,
                free=not seat.taken,
                status=statuses.get(seat.power, ""),
                filed=None if filed is None else filed_texts(filed),
                ready=table.is_ready(seat) and not seat.bot,
                draw=seat.draw,
                mail=by_mail.get(seat.power) if seat.taken and not seat.bot else None,
            )
        )
    return rows


def invite_url(request: Request, game_id: str, invite: str | None) -> str | None:
    """The invitation as a link a player opens (the server's own address, as the browser
    reached it)."""
    if invite is None:
        return None
    return f"{str(request.base_url).rstrip('/')}/games/{game_id}/invite/{invite}"


@router.get("/games/{game_id}/console", response_class=HTMLResponse)
def console_partial(game_id: str, request: Request, state: Server) -> Response:
    caller = visitor(request, state)
    try:
        with reading(state, caller, game_id) as (store, table):
            who = actor(caller)
            table.master_only(who)
            page = page_of(table, table.visible(who))
            rows = seat_rows(store, table)
            completed = table.game.position.completed
            master_mail = mail_addresses(store.session, table.id).get(MAIL_MASTER)
            has_bots = any(seat.bot for seat in table.seats)
    except Refusal:
        return not_found(request, state, caller)
    more: dict[str, Any] = {
        "console": True,
        "page": page,
        "rows": rows,
        "invite_url": invite_url(request, game_id, page.invite),
        "completed": completed,
        "has_bots": has_bots,
        "bot_names": bot_names(),
        "default_bot": DEFAULT_BOT,
        "longest_extension": LONGEST_EXTENSION_HOURS,
        "master_mail": master_mail,
    }
    return pages_of(request).render("_console.html", context(request, state, caller, **more))


@router.post("/games/{game_id}/bots")
def seat_bots(
    game_id: str,
    request: Request,
    state: Server,
    csrf: Csrf,
    power: Annotated[str, Form(max_length=40)] = "",
    bot: Annotated[str, Form(max_length=32)] = DEFAULT_BOT,
) -> Response:
    """The bot named ``bot`` on one free seat (``power``), or on every free one."""
    powers = [power] if power else None
    return change(request, state, csrf, game_id, lambda table, who: table.seat_bots(who, powers, bot, moment=now()))


@router.post("/games/{game_id}/swap")
def swap(
    game_id: str,
    request: Request,
    state: Server,
    csrf: Csrf,
    first: Annotated[str, Form(max_length=40)] = "",
    second: Annotated[str, Form(max_length=40)] = "",
) -> Response:
    def rule(table: Table, who: Any) -> None:
        if not first or not second:
            raise Refusal.bad_request("choose the two powers whose seats change hands")
        table.swap(who, first, second)

    return change(request, state, csrf, game_id, rule)


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


@router.post("/games/{game_id}/pause")
def pause(game_id: str, request: Request, state: Server, csrf: Csrf) -> Response:
    moment = now()
    return change(request, state, csrf, game_id, lambda table, who: table.pause(who, moment))


@router.post("/games/{game_id}/resume")
def resume(game_id: str, request: Request, state: Server, csrf: Csrf) -> Response:
    moment = now()
    return change(request, state, csrf, game_id, lambda table, who: table.resume(who, moment))


@router.post("/games/{game_id}/extend")
def extend(
    game_id: str, request: Request, state: Server, csrf: Csrf, hours: Annotated[str, Form(max_length=20)] = ""
) -> Response:
    """Move the deadline later by ``hours`` (as the API's ``extend``, which takes seconds)."""

    def rule(table: Table, who: Any) -> None:
        table.extend(who, extension_seconds(hours))

    return change(request, state, csrf, game_id, rule)


def extension_seconds(hours: str) -> float:
    """The seconds an extension of ``hours`` (as typed) is, or why it is not one.

    >>> extension_seconds("1.5")
    5400.0
    >>> try:
    ...     extension_seconds("soon")
    ... except Refusal as refusal:
    ...     print(refusal.message)
    extend by more than 0 hours and at most 720 (30 days), such as 1 or 0.5; not 'soon'
    """
    try:
        value = float(hours.strip())
    except ValueError:
        value = float("nan")
    if not 0 < value <= LONGEST_EXTENSION_HOURS:
        raise Refusal.bad_request(
            f"extend by more than 0 hours and at most {LONGEST_EXTENSION_HOURS} (30 days), such as 1 or 0.5; "
            f"not {hours.strip()!r}"
        )
    return value * 3600


@router.post("/games/{game_id}/bot-draw")
def bot_draw(game_id: str, request: Request, state: Server, csrf: Csrf, vote: Annotated[bool, Form()]) -> Response:
    """The game master casts the bot's seats' draw votes (the table's ``vote_draw``)."""
    return change(request, state, csrf, game_id, lambda table, who: table.vote_draw(who, vote))


__all__ = ["SeatRow", "extension_seconds", "invite_url", "router", "seat_rows"]
