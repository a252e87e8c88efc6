"""A game's page: a player's own map and report, its orders with each line's verdict, its ready
mark and press; the game master's console; what an observer may see; and, for anyone of an
open game, its seats to join. Every change goes through the same table rules as the API
(:mod:`fogdip.server.tables`), and every view of the board is the one the API gives that member
(:func:`fogdip.game.pages.sight_of`): a page carries nothing its member's API answers do not.

The parts of the page a new phase changes (the map, the report, the orders) are one partial,
``/games/{id}/board``, which the page's script asks for again when the live stream says so.
"""

from __future__ import annotations

import random
import re
from typing import Annotated, Any

from fastapi import Form, Query, Request
from fastapi.responses import HTMLResponse, Response

from fogdip.engine.errors import FogdipError
from fogdip.fog.report import observation_text
from fogdip.game import Actor, Refusal, Refused, Role, Table
from fogdip.game.pages import NO_BOARD, Sight, page_of, sight_of
from fogdip.game.press import shown, unread
from fogdip.game.seats import Member
from fogdip.maps import master_scene_of, power_scene_of
from fogdip.maps.layers import board_of, layers_of
from fogdip.server.auth import Server
from fogdip.server.routing import Router
from fogdip.server.state import ServerState
from fogdip.server.store import SqlStore, now
from fogdip.server.tables import actor, changing, reading
from fogdip.variants.record import filed_texts
from fogdip.web.choices import choices_of
from fogdip.web.forms import Csrf, Turn, acting, change, not_found
from fogdip.web.history import history_steps, next_step, numbered_report, previous_step
from fogdip.web.mail_pages import own_mail
from fogdip.web.pages import context, pages_of, visitor

router = Router(include_in_schema=False)

#: A board's name in its URL: the map's name and its content's hash.
_BOARD_FILE = re.compile(r"^(?P<map>[a-z0-9-]+)\.(?P<key>[0-9a-f]{12})\.svg$")


@router.get("/maps/{file}")
def board_file(file: str, request: Request) -> Response:
    """A map's board (its static geography): the same for every viewer and every phase, named by
    its content's hash and so kept by the browser for good. It holds nothing of any game, so it
    is sent compressed where the browser takes it (no secret rides with it: no BREACH)."""
    wanted = _BOARD_FILE.match(file)
    board = None
    if wanted is not None:
        try:
            board = board_of(wanted["map"])
        except FogdipError:
            board = None
    if board is None or wanted is None or board.key != wanted["key"]:
        return Response(
            "No such board: a map's board is named as its game page gives it.\n", 404, media_type="text/plain"
        )
    headers = {"cache-control": "public, max-age=31536000, immutable", "vary": "accept-encoding"}
    if "gzip" in request.headers.get("accept-encoding", ""):
        headers["content-encoding"] = "gzip"
        return Response(board.gzipped, media_type="image/svg+xml", headers=headers)
    return Response(board.document, media_type="image/svg+xml", headers=headers)


def _shown(request: Request, state: ServerState, game_id: str, phase: str | None, template: str) -> Response:
    """The game as the asker may see it (the board at ``phase``, or now), in ``template``: the
    whole page, or the board partial a new phase asks for."""
    caller = visitor(request, state)
    try:
        with reading(state, caller, game_id) as (store, table):
            who = actor(caller)
            board = _board(store, table, who, phase)
            page = page_of(table, table.visible(who))
            my_mail = own_mail(store.session, table, who)
    except Refusal:
        return not_found(request, state, caller)
    return pages_of(request).render(
        template, context(request, state, caller, page=page, my_mail=my_mail, press_box=table.press_box, **board)
    )


@router.get("/games/{game_id}", response_class=HTMLResponse)
def game_page(
    game_id: str,
    request: Request,
    state: Server,
    phase: Annotated[str | None, Query()] = None,
) -> Response:
    return _shown(request, state, game_id, phase, "game.html")


@router.get("/games/{game_id}/board", response_class=HTMLResponse)
def board_partial(
    game_id: str, request: Request, state: Server, phase: Annotated[str | None, Query()] = None
) -> Response:
    """The parts of the game page a new phase changes, for the page's script."""
    return _shown(request, state, game_id, phase, "_board.html")


def _board(store: SqlStore, table: Table, who: Actor, phase: str | None) -> dict[str, Any]:
    """What ``who`` may see of the board, as the API would give it: the map's layers (the
    board's URL, and this phase's overlay), the report with its notices numbered as on the map,
    and the phases to step through."""
    out: dict[str, Any] = {"sight": None, "layers": None, "report": None, "steps": [], "phase": phase}
    member = table.visible(who)
    try:
        sight, _member = sight_of(table, who)
    except Refusal as refusal:
        out["no_board"] = refusal.message if member.role is Role.OBSERVER else None
        return out
    out["sight"] = sight.value
    game = table.game
    try:
        if sight is Sight.POWER and member.power is not None:
            reports = game.reports(member.power)
            told = [report.phase for report in reports if not report.opening]
            scene = power_scene_of(game, member.power, phase)
            chosen = next((r for r in reports if not r.opening and r.phase == (phase or "").upper()), None)
            shown_report = reports[-1] if chosen is None and phase is None else chosen or reports[0]
            out["report"] = numbered_report(observation_text(shown_report), scene.marks)
            out["steps"] = history_steps(["start", *told], phase)
            filed = game.record.filed.get(member.power)
            out["filed"] = "\n".join(filed_texts(filed)) if filed is not None else ""
            out["unordered"] = game.unordered(member.power)
            own = [unit for unit in reports[-1].units if unit.owner == member.power and not unit.dislodged]
            out["example"] = f"{own[0]} H" if own else "<unit> - <province>"
            out["messages"], out["unread"] = _press(store, table, member)
            out.update(_orders_data(table, member.power) if phase is None else {})
        else:
            out["steps"] = history_steps(game.record.history.names(), phase)
            scene = master_scene_of(game, phase)
    except FogdipError as exc:
        out["error"] = str(exc)
        return out
    # A player's map opens on the part of the board it knows (on a phone its names and units
    # read without zooming) and pans to the rest; the game master's and an observer's on the
    # whole board.
    out["layers"] = layers_of(scene, framed=sight is Sight.POWER)
    out["prev_step"], out["next_step"] = previous_step(out["steps"]), next_step(out["steps"])
    return out


def _orders_data(table: Table, power: str) -> dict[str, Any]:
    """What the orders panel needs beyond the report: the power's choices as data (the
    engine's legal orders as it may know them), its own ready mark and the turn's length."""
    game = table.game
    if game.position.completed:
        return {}
    choices = choices_of(game, power)
    return {
        "choices": choices.dumps(),
        "order_help": choices.help,
        "ready_mine": table.seat(power).ready,
        "turn_seconds": table.settings.deadline_for(table.turn),
    }


def _press(store: SqlStore, table: Table, member: Member) -> tuple[list[Any], int]:
    if not table.press_box or member.power is None:
        return [], 0
    listed = [
        shown(message, index, member, table.settings.press)
        for index, message in enumerate(store.messages(table, member), 1)
    ]
    return listed, unread(listed, table.seat(member.power).read)


# --- changes ---------------------------------------------------------------------------------


@router.post("/games/{game_id}/orders", response_class=HTMLResponse)
def file_orders(
    game_id: str,
    request: Request,
    state: Server,
    csrf: Csrf,
    turn: Turn,
    lines: Annotated[str, Form()] = "",
) -> Response:
    """Orders typed or clicked, as lines: every line's verdict beside it; nothing filed if one
    is refused, and nothing typed is lost."""
    written = [line.strip() for line in lines.splitlines() if line.strip()]
    verdicts: list[Any] = []
    note, filed = None, False
    try:
        caller = acting(request, state, csrf)
        with changing(state, caller, game_id) as (_store, table):
            verdicts = table.file(actor(caller), written, turn=turn)
            filed = True
            unordered = table.game.unordered(table.member(actor(caller)).power or "")
            note = f"Filed for {turn}." + (f" {unordered} of your units have no order yet." if unordered else "")
    except Refusal as refusal:
        if refusal.kind is Refused.LINES:
            verdicts = list(refusal.lines)
            note = "Nothing was filed: fix the lines marked, and file again."
        else:
            note = refusal.message
    return pages_of(request).render(
        "_verdicts.html", {"verdicts": verdicts, "note": note, "filed": filed, "lines": written, "turn": turn}
    )


@router.post("/games/{game_id}/ready", response_class=HTMLResponse)
def mark_ready(
    game_id: str,
    request: Request,
    state: Server,
    csrf: Csrf,
    turn: Turn,
    ready: Annotated[bool, Form()] = True,
) -> Response:
    try:
        caller = acting(request, state, csrf)
        with changing(state, caller, game_id) as (_store, table):
            marked = table.mark_ready(actor(caller), ready, turn=turn, moment=now())
    except Refusal as refusal:
        return pages_of(request).render("_ready.html", {"note": refusal.message, "refused": True})
    if marked.played is not None:
        note = f"Every seat was ready: {marked.played} is played. The board shows {marked.next} now."
    elif marked.bots_thinking:
        note = f"Every seat is ready: {turn} is played as soon as the bot has filed, within seconds."
    elif ready:
        left = f" ({marked.unordered} of your units have no order: they hold.)" if marked.unordered else ""
        note = f"Ready for {turn}.{left} The turn is played once every seat is ready, or at its deadline."
    else:
        note = "Not ready."
    return pages_of(request).render(
        "_ready.html",
        {
            "note": note,
            "played": marked.next if marked.played is not None else None,
            "ready": ready,
            "unordered": marked.unordered,
        },
    )


@router.post("/games/{game_id}/join")
def join(game_id: str, request: Request, state: Server, csrf: Csrf, power: Annotated[str, Form()] = "") -> Response:
    return change(
        request, state, csrf, game_id, lambda table, who: table.join(who, power or None, None, random.SystemRandom())
    )


@router.post("/games/{game_id}/observe")
def observe(game_id: str, request: Request, state: Server, csrf: Csrf) -> Response:
    return change(request, state, csrf, game_id, lambda table, who: table.observe(who))


__all__ = ["NO_BOARD", "router"]
