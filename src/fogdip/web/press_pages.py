"""Press on the game page: a member's messages in threads (to all, and one per set of
correspondents), unread counts, the sender's form, and reading them; with draw votes and
the seats beside them. Every change is the table's own rule (:meth:`fogdip.game.Table.send`,
:meth:`~fogdip.game.Table.mark_read`, :meth:`~fogdip.game.Table.vote_draw`), as the API's
routes (:mod:`fogdip.server.press`) use it; what a member is shown of a message is
:func:`fogdip.game.press.shown`, never more.

Each part is a partial the page's script asks for again when the live stream says it
changed: ``/games/{id}/press`` (``?part=threads``: the threads alone, so that what the player
is writing is never touched), ``/games/{id}/seats``, ``/games/{id}/head``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from fogdip.game import Refusal, Refused, Role, Status, Table
from fogdip.game.pages import page_of
from fogdip.game.press import Message, Shown, shown, unread
from fogdip.game.seats import Member
from fogdip.game.settings import PressMode, PressRange
from fogdip.server.auth import Caller, Server
from fogdip.server.routing import Router
from fogdip.server.state import ServerState
from fogdip.server.store import SqlStore
from fogdip.server.tables import actor, changing, reading
from fogdip.web.forms import Csrf, acting, change, not_found
from fogdip.web.pages import context, pages_of, visitor

router = Router(include_in_schema=False)

#: The longest message, as the API takes it (:class:`fogdip.codec.api.MessageIn`).
MESSAGE_LIMIT = 4000


@dataclass(frozen=True)
class Line:
    """One message as the page shows it: whom it says it is from (and, in black press, that
    the claim may be false), whom it went to, and whether it is new to the reader."""

    index: int
    turn: str
    sender: str
    to: str
    body: str
    yours: bool
    new: bool
    #: Black press: the sender it claims (the page says the claim may be false).
    claimed: str | None = None
    #: The game master's view of a black-press message: who really sent it.
    true_sender: str | None = None


@dataclass
class Thread:
    """The messages between one set of correspondents (or to all), oldest first."""

    key: str
    title: str
    lines: list[Line] = field(default_factory=list)

    @property
    def unread(self) -> int:
        return sum(1 for line in self.lines if line.new)

    @property
    def last(self) -> int:
        return self.lines[-1].index if self.lines else 0


@dataclass(frozen=True)
class PressView:
    """What a member is shown of a game's press, and what it may write."""

    mode: PressMode
    threads: list[Thread]
    unread: int
    #: Whether the member writes (a player, in a game under way or forming).
    writes: bool
    #: The powers it may write to (under adjacency-limited press: those it sees next to its
    #: units, as the table decides it).
    reach: list[str]
    to_all: bool
    #: Black press: the powers a message may claim to come from.
    claims: list[str]
    master: bool
    power: str | None


def thread_key(item: Shown, power: str | None) -> tuple[str, str]:
    """The thread a message belongs to, and its title, for the member playing ``power``
    (``None``: the game master or an observer, who see messages between others).

    >>> thread_key(Shown(1, "S1901M", None, "FRANCE", False, "hi"), "ENGLAND")
    ('all', 'To all')
    >>> thread_key(Shown(2, "S1901M", ("ENGLAND",), "FRANCE", False, "hi"), "ENGLAND")
    ('FRANCE', 'With FRANCE')
    >>> thread_key(Shown(3, "S1901M", ("ENGLAND",), None, False, "hi"), "ENGLAND")
    ('~anonymous', 'Anonymous, to you')
    """
    if item.to is None:
        return "all", "To all"
    people = set(item.to) | ({item.sender} if item.sender else set())
    people.discard(power or "")
    if not people or (item.sender is None and not item.yours):
        return "~anonymous", "Anonymous, to you"
    names = sorted(people)
    return "+".join(names), ("With " if power else "Between ") + ", ".join(names)


def press_view(store: SqlStore, table: Table, member: Member) -> PressView | None:
    """The member's press (``None``: the game has no press box, or the member reads none)."""
    mode = table.settings.press
    if not table.press_box or member.role is Role.NONE:
        return None
    raw: list[Message] = store.messages(table, member)
    listed = [shown(message, index, member, mode) for index, message in enumerate(raw, 1)]
    power = member.power if member.is_player else None
    read = table.seat(power).read if power is not None else len(listed)
    master = member.role is Role.MASTER
    threads: dict[str, Thread] = {}
    for message, item in zip(raw, listed, strict=True):
        key, title = thread_key(item, power)
        thread = threads.setdefault(key, Thread(key, title))
        thread.lines.append(_line(message, item, read, master, mode))
    writes = power is not None and table.status in (Status.FORMING, Status.ACTIVE, Status.PAUSED)
    others = [seat.power for seat in table.seats if seat.power != power]
    adjacent = table.settings.press_range is PressRange.ADJACENT
    reach = (
        (table.in_range(power) if adjacent else others) if power is not None and mode is not PressMode.PUBLIC else []
    )
    ordered = sorted(threads.values(), key=lambda thread: (thread.key != "all", -thread.last))
    return PressView(
        mode=mode,
        threads=ordered,
        unread=unread(listed, read),
        writes=writes,
        reach=reach,
        to_all=not adjacent,
        claims=[seat.power for seat in table.seats] if mode is PressMode.BLACK else [],
        master=master,
        power=power,
    )


def _line(message: Message, item: Shown, read: int, master: bool, mode: PressMode) -> Line:
    to = "all" if item.to is None else ", ".join(item.to)
    new = item.index > read and not item.yours
    if item.yours:
        # The writer may be reminded of the sender it claimed: it chose it.
        claimed = message.claim if mode is PressMode.BLACK else None
        return Line(item.index, item.turn, "you", to, item.body, True, False, claimed)
    if master:
        claimed = message.claim if mode is PressMode.BLACK else None
        return Line(item.index, item.turn, item.sender or "?", to, item.body, False, new, claimed, item.sender)
    if mode is PressMode.BLACK:
        if item.sender is None:
            return Line(item.index, item.turn, "no sender claimed", to, item.body, False, new)
        return Line(item.index, item.turn, item.sender, to, item.body, False, new, item.sender)
    return Line(item.index, item.turn, item.sender or "anonymous", to, item.body, False, new)


def render_press(
    request: Request,
    state: ServerState,
    caller: Caller | None,
    game_id: str,
    part: str = "",
    status: int = 200,
    **more: Any,
) -> Response:
    """The press section (or its threads alone) for ``caller`` (who asked: a change's caller
    was checked with its form's CSRF token already)."""
    try:
        with reading(state, caller, game_id) as (store, table):
            member = table.visible(actor(caller))
            page = page_of(table, member)
            press = press_view(store, table, member)
    except Refusal:
        return not_found(request, state, caller)
    template = "_press_threads.html" if part == "threads" else "_press.html"
    return pages_of(request).render(template, context(request, state, caller, page=page, press=press, **more), status)


@router.get("/games/{game_id}/press", response_class=HTMLResponse)
def press_partial(
    game_id: str, request: Request, state: Server, part: Annotated[str, Query(max_length=10)] = ""
) -> Response:
    return render_press(request, state, visitor(request, state), game_id, part)


def _htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


@router.post("/games/{game_id}/messages", response_class=HTMLResponse)
def send(
    game_id: str,
    request: Request,
    state: Server,
    csrf: Csrf,
    body: Annotated[str, Form()] = "",
    to: Annotated[list[str] | None, Form()] = None,
    claim: Annotated[str, Form(max_length=40)] = "",
) -> Response:
    """Send a message, as the API's ``POST .../messages`` does (the table's rule)."""
    chosen: list[str] = [name for name in (to or []) if name]
    recipients: list[str] | str = "all" if "all" in chosen else chosen
    error = None
    caller: Caller | None = None
    try:
        caller = acting(request, state, csrf)
        if not body.strip():
            raise Refusal.bad_request("write something to send")
        if len(body) > MESSAGE_LIMIT:
            raise Refusal.bad_request(f"a message is {MESSAGE_LIMIT} characters at most; this one is {len(body)}")
        if not chosen:
            raise Refusal.bad_request("choose whom it goes to: tick 'all', or one power or more")
        with changing(state, caller, game_id) as (_store, table):
            table.send(actor(caller), recipients, body, claim or None)
    except Refusal as refusal:
        if refusal.kind is Refused.NOT_FOUND or caller is None:
            return _refused(request, state, refusal, game_id)
        error = refusal.message
    if error is None:
        if not _htmx(request):
            return RedirectResponse(f"/games/{game_id}#press", status_code=303)
        return render_press(request, state, caller, game_id, note="Sent.")
    drafted: dict[str, Any] = {"draft": body, "drafted_to": chosen, "drafted_claim": claim}
    return render_press(request, state, caller, game_id, error=error, status=200 if _htmx(request) else 400, **drafted)


@router.post("/games/{game_id}/press/read", response_class=HTMLResponse)
def mark_read(
    game_id: str,
    request: Request,
    state: Server,
    csrf: Csrf,
    thread: Annotated[str, Form(max_length=200)] = "",
) -> Response:
    """The player read a thread (``thread``; none: every message): its read mark moves up to
    the last message of that thread that comes before any unread one of another thread (a
    read mark is one count of its list, as the API's ``messages/read`` keeps it)."""
    caller: Caller | None = None
    try:
        caller = acting(request, state, csrf)
        with changing(state, caller, game_id) as (store, table):
            member = table.reader(actor(caller))
            press = press_view(store, table, member)
            if press is not None and member.is_player:
                listed = sum(len(each.lines) for each in press.threads)
                table.mark_read(actor(caller), read_up_to(press.threads, thread or None), listed)
    except Refusal as refusal:
        if refusal.kind is Refused.NOT_FOUND or caller is None:
            return _refused(request, state, refusal, game_id)
    if not _htmx(request):
        return RedirectResponse(f"/games/{game_id}#press", status_code=303)
    return render_press(request, state, caller, game_id, "threads")


def read_up_to(threads: list[Thread], key: str | None) -> int:
    """How far the read mark may go once thread ``key`` (``None``: all) is read: to its last
    message, but not past another thread's first unread one (one count is kept of what a
    player has read: a later thread read first stays counted unread until the earlier ones
    are read, or all are marked read).

    >>> def line(index):
    ...     return Line(index, "S1901M", "FRANCE", "all", "hi", False, True)
    >>> first = Thread("all", "To all", [line(1), line(2)])
    >>> then = Thread("FRANCE", "With FRANCE", [line(3)])
    >>> read_up_to([first, then], "all"), read_up_to([first, then], "FRANCE"), read_up_to([first, then], None)
    (2, 0, 3)
    """
    everything = [line for thread in threads for line in thread.lines]
    if key is None:
        return max((line.index for line in everything), default=0)
    chosen = next((thread for thread in threads if thread.key == key), None)
    if chosen is None:
        return 0
    mine = {line.index for line in chosen.lines}
    others_unread = [line.index for line in everything if line.new and line.index not in mine]
    limit = min(others_unread, default=None)
    wanted = [index for index in mine if limit is None or index < limit]
    return max(wanted, default=0)


# --- seats and draw votes, and the page's head ------------------------------------------------


def render_part(
    request: Request, state: ServerState, caller: Caller | None, game_id: str, template: str, **more: Any
) -> Response:
    try:
        with reading(state, caller, game_id) as (_store, table):
            page = page_of(table, table.visible(actor(caller)))
    except Refusal:
        return not_found(request, state, caller)
    return pages_of(request).render(template, context(request, state, caller, page=page, **more))


@router.get("/games/{game_id}/seats", response_class=HTMLResponse)
def seats_partial(game_id: str, request: Request, state: Server) -> Response:
    return render_part(request, state, visitor(request, state), game_id, "_seats.html")


@router.get("/games/{game_id}/head", response_class=HTMLResponse)
def head_partial(game_id: str, request: Request, state: Server) -> Response:
    """The game's head (its turn, deadline and ready count), for the page's script."""
    return render_part(request, state, visitor(request, state), game_id, "_head.html")


@router.get("/games/{game_id}/ending", response_class=HTMLResponse)
def ending_partial(game_id: str, request: Request, state: Server) -> Response:
    """The end of the game (empty before it), for the page's script."""
    return render_part(request, state, visitor(request, state), game_id, "_ending.html")


@router.post("/games/{game_id}/draw", response_class=HTMLResponse)
def vote_draw(game_id: str, request: Request, state: Server, csrf: Csrf, vote: Annotated[bool, Form()]) -> Response:
    """Vote for a draw (or take it back), as the API's ``POST .../draw``."""
    if not _htmx(request):
        return change(request, state, csrf, game_id, lambda table, who: table.vote_draw(who, vote))
    error = None
    caller: Caller | None = None
    try:
        caller = acting(request, state, csrf)
        with changing(state, caller, game_id) as (_store, table):
            table.vote_draw(actor(caller), vote)
    except Refusal as refusal:
        if refusal.kind is Refused.NOT_FOUND or caller is None:
            return _refused(request, state, refusal, game_id)
        error = refusal.message
    return render_part(request, state, caller, game_id, "_seats.html", error=error)


def _refused(request: Request, state: ServerState, refusal: Refusal, game_id: str) -> Response:
    """A change refused before it was known who asked (no session, or a bad CSRF token), or of
    a game that is not the caller's to see."""
    if refusal.kind is Refused.NOT_FOUND:
        return not_found(request, state, None)
    return pages_of(request).render(
        "_note.html", {"note": f"Not done: {refusal.message}. Reload the page and try again."}, 403
    )


__all__ = ["Line", "PressView", "Thread", "press_view", "read_up_to", "router", "thread_key"]
