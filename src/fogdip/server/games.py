"""Games over HTTP: create, list, join or watch, seat bots, start, file orders, adjudicate,
and each member's own view and map. Every game action is the game service's (:class:`fogdip.game.Game`);
this module decides who may ask, keeps the game in the database, and answers.

A player receives only what its power's reports and knowledge hold: its view is
:func:`fogdip.codec.views.power_view_to_json` of the service's view, its map is drawn from it.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Annotated, Any

from fastapi import Query, Response
from sqlalchemy import delete, or_, select

from fogdip.codec.api import (
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
    SwapIn,
    TurnOut,
)
from fogdip.codec.gamefiles import GameFileError
from fogdip.codec.turns import position_document
from fogdip.codec.views import power_view_to_json
from fogdip.engine.errors import FogdipError
from fogdip.game import Game
from fogdip.maps import master_scene_of, power_scene_of, render_svg
from fogdip.server.auth import Caller, Server, SignedIn
from fogdip.server.errors import ERROR_RESPONSES, ApiError, bad_request, conflict, forbidden
from fogdip.server.events import publish
from fogdip.server.members import (
    Member,
    find_game,
    game_out,
    master_game,
    member_of,
    player_game,
    sees_board,
)
from fogdip.server.models import GameRow, Observer, Seat
from fogdip.server.routing import Router
from fogdip.server.security import new_secret
from fogdip.server.state import ServerState
from fogdip.server.turns import (
    PHASE_TYPES,
    GameCache,
    now,
    play_turn,
    publish_deadline,
    ready_detail,
    ready_seats,
    save,
    schedule,
    seats_of,
)
from fogdip.variants import PRESETS

router = Router(prefix="/api/v1/games", tags=["games"], responses=ERROR_RESPONSES)
log = logging.getLogger("fogdip.server")


@router.post("", status_code=201, response_model=GameOut, summary="Create a game; you are its game master")
def create_game(body: GameIn, state: Server, caller: SignedIn) -> GameOut:
    if body.preset not in PRESETS:
        raise bad_request(f"no preset {body.preset!r}: use one of {', '.join(sorted(PRESETS))}", "bad-preset")
    try:
        game = Game.create(body.preset, **body.options)
    except FogdipError as exc:
        raise bad_request(str(exc), "bad-options") from None
    press = body.press or VARIANT_PRESS[game.variant.options.press]
    _check_settings(game, body, press)
    settings = GameSettings(
        press=press,
        press_range=body.press_range,
        observers=body.observers,
        draw_votes=body.draw_votes or default_draw_votes(game, press),
        ready_counts=body.ready_counts if body.ready_counts is not None else default_ready_counts(game, press),
        deadlines=_deadlines(body.deadlines),
    )
    return store_new(
        state,
        caller,
        game,
        name=body.name or f"{body.preset} game",
        preset=body.preset,
        private=body.private,
        status="forming",
        settings=settings,
    )


def _check_settings(game: Game, body: GameIn, press: str) -> None:
    """Refuse settings that would tell players what the game hides from them."""
    if body.press_range == "adjacent":
        if press != "white":
            raise bad_request(
                f"adjacency-limited press is signed press only (press 'white'), not {press!r}: a recipient "
                "knows its neighbours, so an anonymous message would name its sender",
                "bad-press",
            )
        if not game.variant.fog.sees_every_neighbour:
            raise bad_request(
                f"adjacency-limited press needs units that see every neighbour, and {game.variant.options.fog!r} "
                "sight does not: a message would tell its recipient of a unit it cannot see "
                "(use it with standard, diplomyopia or fog-1898 sight)",
                "bad-press",
            )
    if press == "gunboat" and body.draw_votes == "open":
        raise bad_request(
            "gunboat games vote for draws in secret: open votes would tell the players' seats from the bot's",
            "bad-votes",
        )
    if press == "gunboat" and body.ready_counts:
        raise bad_request(
            "gunboat games do not count who is ready: the bot's seats are always ready, so counts would tell them",
            "bad-ready-counts",
        )


@dataclass(frozen=True)
class GameSettings:
    """How a game is run, beside its variant: press, observers, votes, deadlines."""

    press: str
    press_range: str = "any"
    observers: str = "press"
    draw_votes: str = "secret"
    ready_counts: bool = False
    deadlines: Mapping[str, float] = field(default_factory=dict)

    @classmethod
    def of_variant(cls, game: Game) -> GameSettings:
        """A game's settings where none are given: its variant's press, and the defaults."""
        press = VARIANT_PRESS[game.variant.options.press]
        return cls(
            press=press,
            draw_votes=default_draw_votes(game, press),
            ready_counts=default_ready_counts(game, press),
        )


def default_ready_counts(game: Game, press: str) -> bool:
    """Counted unless the variant hides whether others have ordered (fog), or who plays
    (gunboat: the bot's seats are always ready)."""
    return not (game.variant.options.fog_enabled or press == "gunboat")


def default_draw_votes(game: Game, press: str) -> str:
    """Votes are secret where the variant hides things (fog) or players (gunboat)."""
    return "secret" if game.variant.options.fog_enabled or press == "gunboat" else "open"


def store_new(
    state: ServerState,
    caller: Caller,
    game: Game,
    *,
    name: str,
    preset: str,
    private: bool,
    status: str,
    settings: GameSettings,
) -> GameOut:
    """Keep a new game, with its caller as game master and a free seat for every power."""
    made = now()
    row = GameRow(
        id=new_secret()[:12].replace("-", "x").replace("_", "y"),
        name=name,
        preset=preset,
        private=private,
        invite=new_secret()[:24],
        master_id=caller.user_id,
        status=status,
        record="",
        version=0,
        created_at=made,
        updated_at=made,
        deadlines=json.dumps(dict(settings.deadlines)),
        press=settings.press,
        press_range=settings.press_range,
        observers=settings.observers,
        draw_votes=settings.draw_votes,
        ready_counts=settings.ready_counts,
    )
    seats = [
        Seat(game_id=row.id, power=power, user_id=None, bot=False, ready=False, draw=False, read=0)
        for power in game.powers
    ]
    with state.db.transaction() as session:
        save(session, row, game, seats)
        session.add(row)
        session.flush()
        session.add_all(seats)
    return game_out(row, seats, Member("master"))


@router.get("", response_model=list[GameOut], summary="Open games, and the games you are in")
def list_games(state: Server, caller: SignedIn) -> list[GameOut]:
    with state.db.reading() as session:
        mine = select(Seat.game_id).where(Seat.user_id == caller.user_id)
        rows = list(
            session.execute(
                select(GameRow)
                .where(or_(GameRow.private.is_(False), GameRow.master_id == caller.user_id, GameRow.id.in_(mine)))
                .order_by(GameRow.created_at)
            ).scalars()
        )
        # Every listed game's seats, and those the caller watches, in two reads (not two a game).
        ids = [row.id for row in rows]
        seats: dict[str, list[Seat]] = {game_id: [] for game_id in ids}
        for seat in session.execute(select(Seat).where(Seat.game_id.in_(ids)).order_by(Seat.power)).scalars():
            seats[seat.game_id].append(seat)
        watched = set(
            session.execute(
                select(Observer.game_id).where(Observer.user_id == caller.user_id, Observer.game_id.in_(ids))
            ).scalars()
        )
        return [
            game_out(row, seats[row.id], member_of(session, row, seats[row.id], caller, watching=row.id in watched))
            for row in rows
        ]


@router.get("/{game_id}", response_model=GameOut, summary="A game: its state and seats")
def get_game(game_id: str, state: Server, caller: SignedIn) -> GameOut:
    with state.db.reading() as session:
        return game_out(*find_game(session, game_id, caller))


@router.post("/{game_id}/join", response_model=GameOut, summary="Take a seat: a power, or a random free one")
def join_game(game_id: str, body: JoinIn, state: Server, caller: SignedIn) -> GameOut:
    with state.db.transaction() as session:
        row, seats, member = find_game(session, game_id, caller, lock=True, invite=body.invite)
        if row.status == "finished":
            raise conflict("the game is over")
        if member.role == "player":
            raise conflict("you already play a power in this game")
        if member.role == "master":
            raise conflict("the game master does not play a power of the same game")
        free = [s for s in seats if s.user_id is None and not s.bot]
        if body.power is None:
            if not free:
                raise conflict("every seat is taken")
            seat: Seat = random.SystemRandom().choice(free)
        elif row.press == "gunboat":
            # Which seats are free would tell, as they fill, who took which power.
            raise bad_request(
                "in a gunboat game nobody chooses a power: join without one and you are given a free power at random"
            )
        else:
            wanted = body.power.strip().upper()
            named = next((s for s in seats if s.power == wanted), None)
            if named is None:
                raise bad_request(
                    f"{wanted} is not a power of this game: use one of {', '.join(s.power for s in seats)}"
                )
            if named not in free:
                raise conflict(f"{wanted} is taken; choose a free power, or none for a random one")
            seat = named
        seat.user_id = caller.user_id
        session.execute(delete(Observer).where(Observer.game_id == game_id, Observer.user_id == caller.user_id))
        return game_out(row, seats, Member("player", seat.power))


@router.post("/{game_id}/observe", response_model=GameOut, summary="Watch a game, as its settings let observers")
def observe(game_id: str, body: ObserveIn, state: Server, caller: SignedIn) -> GameOut:
    with state.db.transaction() as session:
        row, seats, member = find_game(session, game_id, caller, lock=True, invite=body.invite)
        if member.role in ("player", "master"):
            raise conflict(f"you are this game's {'game master' if member.role == 'master' else 'player'} already")
        if row.observers == "none":
            raise forbidden("this game takes no observers")
        if member.role == "none":
            session.add(Observer(game_id=game_id, user_id=caller.user_id))
        return game_out(row, seats, Member("observer"))


#: The press mode a game takes from its variant's ``press`` option, unless it is given one.
VARIANT_PRESS = MappingProxyType({"full": "white", "gunboat": "gunboat", "black": "black", "none": "none"})


def _deadlines(given: dict[str, float] | None) -> dict[str, float]:
    if not given:
        return {}
    unknown = sorted(set(given) - set(PHASE_TYPES.values()))
    if unknown:
        raise bad_request(
            f"deadlines are given per phase type: {', '.join(PHASE_TYPES.values())}; not {', '.join(unknown)}",
            "bad-deadlines",
        )
    if any(not 1 <= seconds <= 60 * 86400 for seconds in given.values()):
        raise bad_request("a deadline is from 1 second to 60 days, in seconds", "bad-deadlines")
    return dict(given)


@router.post("/{game_id}/bots", response_model=GameOut, summary="Seat the built-in bot (game master)")
def seat_bots(game_id: str, body: BotsIn, state: Server, caller: SignedIn) -> GameOut:
    with state.db.transaction() as session:
        row, seats = master_game(session, game_id, caller, lock=True)
        wanted = None if body.powers is None else {p.strip().upper() for p in body.powers}
        unknown = sorted((wanted or set()) - {seat.power for seat in seats})
        if unknown:
            raise bad_request(
                f"{', '.join(unknown)} {'is not a power' if len(unknown) == 1 else 'are not powers'} of this game: "
                f"use {', '.join(seat.power for seat in seats)}"
            )
        taken = sorted(seat.power for seat in seats if seat.user_id is not None and wanted and seat.power in wanted)
        if taken:
            raise conflict(f"{', '.join(taken)} {'is' if len(taken) == 1 else 'are'} played by a person already")
        for seat in seats:
            if seat.user_id is None and (wanted is None or seat.power in wanted):
                seat.bot = True
        return game_out(row, seats, Member("master"))


@router.post(
    "/{game_id}/swap",
    response_model=GameOut,
    summary="Swap two seats' players (or the bot) before the start (game master): powers drawn as you choose",
)
def swap_seats(game_id: str, body: SwapIn, state: Server, caller: SignedIn) -> GameOut:
    """In a gunboat game nobody chooses a power (``join``); a game master who draws the powers
    another way (a tournament's draw, say) seats each player with this."""
    with state.db.transaction() as session:
        row, seats = master_game(session, game_id, caller, lock=True)
        if row.status != "forming":
            raise conflict(f"the game is {row.status}: seats are swapped before it starts")
        named = [power.strip().upper() for power in body.powers]
        by_power = {seat.power: seat for seat in seats}
        unknown = [power for power in named if power not in by_power]
        if unknown or named[0] == named[1]:
            raise bad_request(f"name two different powers of this game: {', '.join(by_power)}")
        first, second = by_power[named[0]], by_power[named[1]]
        first.user_id, second.user_id = second.user_id, first.user_id
        first.bot, second.bot = second.bot, first.bot
        return game_out(row, seats, Member("master"))


@router.post("/{game_id}/start", response_model=GameOut, summary="Start the game (game master)")
def start_game(game_id: str, state: Server, caller: SignedIn) -> GameOut:
    with state.db.transaction() as session:
        row, seats = master_game(session, game_id, caller, lock=True)
        if row.status != "forming":
            raise conflict(f"the game is {row.status}, not forming")
        row.status = "active"
        schedule(row)
        publish_deadline(session, row)
        return game_out(row, seats, Member("master"))


@router.get(
    "/{game_id}/view",
    summary="Your view: a player's reports and knowledge; the board for the game master (and observers where allowed)",
)
def view(game_id: str, state: Server, caller: SignedIn) -> dict[str, Any]:
    with state.db.reading() as session:
        row, seats, member = find_game(session, game_id, caller)
        game = state.games.reading(session, row, seats)
    if member.role == "player" and member.power is not None:
        try:
            return power_view_to_json(game.view(member.power))
        except GameFileError as exc:
            log.error("game %s: %s's view cannot be read: %s", row.id, member.power, exc)
            raise ApiError(
                500, "damaged", "this game's stored data cannot be read; the server's admin has been told"
            ) from None
    if member.role == "master":
        return {
            "next_turn": game.turn,
            "position": position_document(game.position, game.variant),
            "status": game.status(),
            "filed": game.filed,
            "outcome": game.outcome(),
        }
    if sees_board(row, member):
        # What is played, never what is filed: an observer could tell a player.
        return {
            "next_turn": game.turn,
            "position": position_document(game.position, game.variant),
            "outcome": game.outcome(),
            "revealed_history": game.revealed_history(),
        }
    raise forbidden(_NO_BOARD)


_NO_BOARD = (
    "observers of this game see its page and public press only"
    " (and everything, once the game is over, if its variant reveals it then)"
)


@router.get("/{game_id}/map.svg", summary="Your map, as SVG", response_class=Response)
def map_svg(
    game_id: str,
    state: Server,
    caller: SignedIn,
    phase: Annotated[str | None, Query(description="the phase after which to draw it; none: the latest")] = None,
    crop: bool = False,
) -> Response:
    with state.db.reading() as session:
        row, seats, member = find_game(session, game_id, caller)
        game = state.games.reading(session, row, seats)
    try:
        if member.role == "player" and member.power is not None:
            scene, viewer = power_scene_of(game, member.power, phase), member.power
        elif sees_board(row, member):
            scene, viewer = master_scene_of(game, phase), member.role
        else:
            raise forbidden(_NO_BOARD if member.role == "observer" else "you play no power in this game")
    except FogdipError as exc:
        raise bad_request(str(exc), "bad-phase") from None
    return Response(render_svg(scene, crop=crop, drawn=state.games.drawn(row, viewer)), media_type="image/svg+xml")


@router.put(
    "/{game_id}/orders",
    response_model=OrdersOut,
    summary="File your power's orders (replaces earlier ones; none: clear them); 422 with every line's verdict if one is refused",
)
def file_orders(game_id: str, body: OrdersIn, state: Server, caller: SignedIn) -> OrdersOut:
    with state.db.transaction() as session:
        row, seats, power = player_game(session, game_id, caller, "only a player files orders, for its own power")
        if row.status not in ("forming", "active"):
            raise conflict(f"the game is {row.status}: no orders are taken")
        # Filing changes the power's seat only: the game itself is read, not saved.
        game = state.games.reading(session, row, seats)
        try:
            checks = game.file(power, body.lines)
        except FogdipError as exc:
            raise ApiError(409, "not-now", str(exc)) from None
        verdicts = [LineOut(number=c.number, text=c.text, ok=c.ok, error=c.error) for c in checks]
        refused = [c for c in checks if not c.ok]
        if refused:
            raise ApiError(
                422,
                "refused",
                f"{len(refused)} of {len(checks)} lines refused (see 'lines'); nothing was filed: fix them and file again",
                {"filed": False, "lines": [v.model_dump() for v in verdicts]},
            )
        next(seat for seat in seats if seat.power == power).filed = json.dumps(game.filed[power])
    return OrdersOut(filed=True, lines=verdicts)


@router.post("/{game_id}/adjudicate", response_model=TurnOut, summary="Adjudicate the next turn now (game master)")
def adjudicate(game_id: str, state: Server, caller: SignedIn) -> TurnOut:
    with state.db.transaction() as session:
        row, seats = master_game(session, game_id, caller, lock=True)
        if row.status == "finished":
            raise conflict("the game is over; there is no turn to adjudicate")
        game = GameCache.changing(row, seats)
        turn = play_turn(session, row, game, seats)
        return TurnOut(adjudicated=turn, next=game.turn, completed=game.position.completed)


@router.post(
    "/{game_id}/ready",
    response_model=TurnOut,
    summary="Mark your orders ready (or not); the turn is adjudicated once every seat is ready",
)
def mark_ready(game_id: str, body: ReadyIn, state: Server, caller: SignedIn) -> TurnOut:
    with state.db.transaction() as session:
        row, seats, power = player_game(session, game_id, caller, "only a player marks its orders ready")
        if row.status != "active":
            raise conflict(f"the game is {row.status}; orders are marked ready once it has started")
        mine = next(seat for seat in seats if seat.power == power)
        changed = mine.ready != body.ready
        mine.ready = body.ready
        if body.ready and ready_seats(row, seats) == len(seats):
            # Every seat is ready (an empty one waits for the game master, or the deadline; so
            # does the bot's in a gunboat game, where nobody may tell its seats).
            turn: str | None = play_turn(session, row, GameCache.changing(row, seats), seats)
        else:
            turn = None
            counts = ready_detail(row, seats)
            if changed and counts is not None:
                publish(session, row.id, "ready", row.turn, detail=counts)
        return TurnOut(adjudicated=turn, next=row.turn, completed=row.status == "finished")


@router.post(
    "/against-bots",
    status_code=201,
    response_model=GameOut,
    summary="Start a game against bots in one call: you play one power, the bot every other",
)
def against_bots(body: BotGameIn, state: Server, caller: SignedIn) -> GameOut:
    if body.power is not None and body.preset in PRESETS:
        powers = Game.create(body.preset).powers
        if body.power.strip().upper() not in powers:
            raise bad_request(
                f"{body.power.strip().upper()} is not a power of this game: use one of {', '.join(powers)}"
            )
    created = create_game(GameIn(preset=body.preset, options=body.options, name="", private=True), state, caller)
    with state.db.transaction() as session:
        row = session.execute(select(GameRow).where(GameRow.id == created.id).with_for_update()).scalar_one()
        seats = seats_of(session, row.id)
        wanted = None if body.power is None else body.power.strip().upper()
        if wanted is not None and wanted not in {seat.power for seat in seats}:
            raise bad_request(f"{wanted} is not a power of this game: use one of {', '.join(s.power for s in seats)}")
        mine = random.SystemRandom().choice(seats) if wanted is None else next(s for s in seats if s.power == wanted)
        for seat in seats:
            if seat is mine:
                seat.user_id = caller.user_id
            else:
                seat.bot = True
        row.name = f"{body.preset} against bots"
        row.status = "active"
        schedule(row)
        return game_out(row, seats, Member("player", mine.power))
