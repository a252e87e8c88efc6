"""Games over HTTP: create, list, join or watch, seat bots, swap, start, file orders, mark
ready, adjudicate, and each member's own view and map. Every rule is the table's
(:class:`fogdip.game.Table`); a route decides who is asking, loads the table, calls the rule,
saves it and answers.

A player receives only what its power's reports and knowledge hold: its view is its stored
reports sent as stored, its map is drawn from them.
"""

from __future__ import annotations

import json
import random
from typing import Annotated, Any

from fastapi import Query, Response
from sqlalchemy import ColumnElement, or_, select

from fogdip.codec.api import (
    AdjudicateIn,
    BotGameIn,
    BotsIn,
    GameIn,
    GameOut,
    JoinIn,
    LineOut,
    ObserveIn,
    OrdersIn,
    OrdersOut,
    ReadyIn,
    ReadyOut,
    SwapIn,
    TurnOut,
)
from fogdip.engine.errors import FogdipError
from fogdip.game import Refusal, Table
from fogdip.game.pages import Sight, master_board, observer_board, page, page_of, sight_of
from fogdip.maps import master_scene_of, power_scene_of, render_svg
from fogdip.server.auth import Caller, MaybeSignedIn, Server, SignedIn
from fogdip.server.errors import ERROR_RESPONSES
from fogdip.server.models import GameRow, Observer, Seat
from fogdip.server.routing import Router
from fogdip.server.security import new_secret
from fogdip.server.state import ServerState
from fogdip.server.store import SqlStore, now
from fogdip.server.tables import actor, bots, changing, game_out, reading

router = Router(prefix="/api/v1/games", tags=["games"], responses=ERROR_RESPONSES)


def new_table(body: GameIn, caller: Caller) -> Table:
    """The table a creation asks for (:meth:`fogdip.game.Table.create`: its rules)."""
    return Table.create(
        new_id(),
        body.preset,
        body.options,
        master=actor(caller),
        invite=new_secret()[:24],
        **body.model_dump(exclude={"preset", "options", "name"}),
        name=body.name or f"{body.preset} game",
    )


def keep(state: ServerState, table: Table) -> Table:
    """Keep a new table."""
    with state.db.transaction() as session:
        SqlStore(session, state.reads).add(table, now())
    return table


def new_id() -> str:
    return new_secret()[:12].replace("-", "x").replace("_", "y")


@router.post("", status_code=201, response_model=GameOut, summary="Create a game; you are its game master")
def create_game(body: GameIn, state: Server, caller: SignedIn) -> GameOut:
    table = keep(state, new_table(body, caller))
    return game_out(page_of(table, table.member(actor(caller))))


@router.get("", response_model=list[GameOut], summary="Open games (to anyone), and the games you are in (signed in)")
def list_games(state: Server, caller: MaybeSignedIn) -> list[GameOut]:
    with state.db.reading() as session:
        visible: ColumnElement[bool] = GameRow.private.is_(False)
        if caller is not None:
            mine = select(Seat.game_id).where(Seat.user_id == caller.user_id)
            watched = select(Observer.game_id).where(Observer.user_id == caller.user_id)
            visible = or_(visible, GameRow.master_id == caller.user_id, GameRow.id.in_(mine), GameRow.id.in_(watched))
        rows = list(session.execute(select(GameRow).where(visible).order_by(GameRow.created_at)).scalars())
        store = SqlStore(session, state.reads)
        who = actor(caller)
        user = None if caller is None else caller.user_id
        return [game_out(page_of(table, table.member(who))) for table in store.listed(rows, user)]


@router.get("/{game_id}", response_model=GameOut, summary="A game: its state and seats (anyone, for an open game)")
def get_game(game_id: str, state: Server, caller: MaybeSignedIn) -> GameOut:
    with reading(state, caller, game_id) as (_store, table):
        return game_out(page(table, actor(caller)))


@router.post("/{game_id}/join", response_model=GameOut, summary="Take a seat: a power, or a random free one")
def join_game(game_id: str, body: JoinIn, state: Server, caller: SignedIn) -> GameOut:
    with changing(state, caller, game_id, invite=body.invite) as (_store, table):
        member = table.join(actor(caller), body.power, body.invite, random.SystemRandom())
        return game_out(page_of(table, member))


@router.post("/{game_id}/observe", response_model=GameOut, summary="Watch a game, as its settings let observers")
def observe(game_id: str, body: ObserveIn, state: Server, caller: SignedIn) -> GameOut:
    with changing(state, caller, game_id, invite=body.invite) as (_store, table):
        return game_out(page_of(table, table.observe(actor(caller), body.invite)))


@router.post("/{game_id}/bots", response_model=GameOut, summary="Seat the built-in bot (game master)")
def seat_bots(game_id: str, body: BotsIn, state: Server, caller: SignedIn) -> GameOut:
    with changing(state, caller, game_id) as (_store, table):
        table.seat_bots(actor(caller), body.powers, body.bot, moment=now())
        return game_out(page(table, actor(caller)))


@router.post(
    "/{game_id}/swap",
    response_model=GameOut,
    summary="Swap two seats' players (or the bot) before the start (game master): powers drawn as you choose",
)
def swap_seats(game_id: str, body: SwapIn, state: Server, caller: SignedIn) -> GameOut:
    """In a gunboat game nobody chooses a power (``join``); a game master who draws the powers
    another way (a tournament's draw, say) seats each player with this. What each seat held
    before the start (its press, what it read) goes with its player."""
    with changing(state, caller, game_id) as (_store, table):
        table.swap(actor(caller), body.powers[0], body.powers[1])
        return game_out(page(table, actor(caller)))


@router.post("/{game_id}/start", response_model=GameOut, summary="Start the game (game master)")
def start_game(game_id: str, state: Server, caller: SignedIn) -> GameOut:
    moment = now()
    with changing(state, caller, game_id) as (_store, table):
        table.start(actor(caller), moment)
        return game_out(page(table, actor(caller)))


@router.get(
    "/{game_id}/view",
    summary="Your view: a player's reports and knowledge; the board for the game master (and observers where allowed)",
)
def view(game_id: str, state: Server, caller: SignedIn) -> Response:
    with reading(state, caller, game_id) as (store, table):
        sight, member = sight_of(table, actor(caller))
        if sight is Sight.POWER and member.power is not None:
            return Response(store.power_view(table, member.power), media_type="application/json")
        board: dict[str, Any] = master_board(table) if sight is Sight.MASTER else observer_board(table)
    return _json(board)


def _json(value: Any) -> Response:
    return Response(json.dumps(value, separators=(",", ":")), media_type="application/json")


@router.get("/{game_id}/map.svg", summary="Your map, as SVG", response_class=Response)
def map_svg(
    game_id: str,
    state: Server,
    caller: SignedIn,
    phase: Annotated[str | None, Query(description="the phase after which to draw it; none: the latest")] = None,
    crop: bool = False,
) -> Response:
    with reading(state, caller, game_id) as (_store, table):
        sight, member = sight_of(table, actor(caller))
        try:
            if sight is Sight.POWER and member.power is not None:
                scene, viewer = power_scene_of(table.game, member.power, phase), member.power
            else:
                scene, viewer = master_scene_of(table.game, phase), member.role.value
        except FogdipError as exc:
            raise Refusal.bad_request(str(exc), "bad-phase") from None
        drawn = state.reads.drawn(table, viewer)
    return Response(render_svg(scene, crop=crop, drawn=drawn), media_type="image/svg+xml")


@router.put(
    "/{game_id}/orders",
    response_model=OrdersOut,
    summary="File your power's orders for a turn (replaces earlier ones; none: clear them); 422 with every line's verdict if one is refused",
)
def file_orders(game_id: str, body: OrdersIn, state: Server, caller: SignedIn) -> OrdersOut:
    with changing(state, caller, game_id) as (_store, table):
        checks = table.file(actor(caller), body.lines, turn=body.turn)
    return OrdersOut(filed=True, lines=[LineOut(number=c.number, text=c.text, ok=c.ok, error=c.error) for c in checks])


@router.post("/{game_id}/adjudicate", response_model=TurnOut, summary="Adjudicate a turn now (game master)")
def adjudicate(game_id: str, body: AdjudicateIn, state: Server, caller: SignedIn) -> TurnOut:
    moment = now()
    player, rng = bots()
    with changing(state, caller, game_id) as (_store, table):
        played = table.adjudicate(actor(caller), turn=body.turn, moment=moment, bots=player, rng=rng)
    return TurnOut(adjudicated=played.played, next=played.next, completed=played.completed)


@router.post(
    "/{game_id}/ready",
    response_model=ReadyOut,
    summary="Mark your orders for a turn ready (or not); the turn is adjudicated once every seat is ready and the bot has filed",
)
def mark_ready(game_id: str, body: ReadyIn, state: Server, caller: SignedIn) -> ReadyOut:
    moment = now()
    with changing(state, caller, game_id) as (_store, table):
        marked = table.mark_ready(actor(caller), body.ready, turn=body.turn, moment=moment)
    notes = []
    if body.ready and marked.unordered:
        notes.append(
            f"{marked.unordered} of your units {'has' if marked.unordered == 1 else 'have'} no order: "
            "each holds (or takes the game's default)"
        )
    if marked.bots_thinking:
        notes.append("every seat is ready: the turn is played as soon as the bot has filed, within seconds")
    note = "; ".join(notes) or None
    return ReadyOut(
        adjudicated=marked.played, next=marked.next, completed=marked.completed, unordered=marked.unordered, note=note
    )


@router.post(
    "/against-bots",
    status_code=201,
    response_model=GameOut,
    summary="Start a game against bots in one call: you play one power, the bot every other",
)
def against_bots(body: BotGameIn, state: Server, caller: SignedIn) -> GameOut:
    made = new_table(GameIn(preset=body.preset, options=body.options, name="", private=True), caller)
    table = Table.against_bots(
        made.id,
        made.game,
        made.settings.with_changes(name=f"{body.preset} against bots"),
        actor(caller),
        body.power,
        moment=now(),
        invite=made.invite,
        rng=random.SystemRandom(),
        bot=body.bot,
    )
    keep(state, table)
    return game_out(page(table, actor(caller)))
