"""Games over HTTP: create, list, join, seat bots, start, file orders, adjudicate, and each
member's own view and map. Every game action is the game service's (:class:`fogdip.game.Game`);
this module decides who may ask, keeps the game in the database, and answers.

A player receives only what its power's reports and knowledge hold: its view is
:func:`fogdip.codec.views.power_view_to_json` of the service's view, its map is drawn from it.
"""

from __future__ import annotations

import json
import logging
import random
from datetime import UTC, datetime, timedelta
from types import MappingProxyType
from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from fogdip.codec.api import (
    BotGameIn,
    BotsIn,
    ExtendIn,
    GameIn,
    GameOut,
    ImportIn,
    JoinIn,
    LineOut,
    OrdersIn,
    OrdersOut,
    ReadyIn,
    SeatOut,
    TurnOut,
)
from fogdip.codec.gamefiles import GameFileError, game_from_json
from fogdip.codec.turns import position_document
from fogdip.codec.views import power_view_to_json
from fogdip.engine.errors import FogdipError
from fogdip.game import Game
from fogdip.game.exports import mila_saved_game
from fogdip.maps import master_scene_of, power_scene_of, render_svg
from fogdip.server.auth import Caller, Server, SignedIn
from fogdip.server.errors import ApiError, bad_request, conflict, forbidden, not_found
from fogdip.server.events import publish
from fogdip.server.models import GameRow, Seat
from fogdip.server.security import new_secret, same
from fogdip.server.state import ServerState
from fogdip.server.turns import PHASE_TYPES, game_of, now, play_turn, save, schedule, seats_of
from fogdip.variants import PRESETS

router = APIRouter(prefix="/api/v1/games", tags=["games"])
log = logging.getLogger("fogdip.server")


def _role(row: GameRow, seats: list[Seat], caller: Caller | None) -> tuple[str, str | None]:
    """What the caller is in the game. A player's seat comes first: someone who both set up a
    game against bots and plays in it sees it as a player."""
    if caller is None:
        return "none", None
    for seat in seats:
        if seat.user_id == caller.user_id:
            return "player", seat.power
    if row.master_id == caller.user_id:
        return "master", None
    return "none", None


def _visible(row: GameRow | None, seats: list[Seat], caller: Caller | None) -> GameRow:
    """The game, if the caller may see it; the same 404 whether it exists or not otherwise."""
    if row is None:
        raise not_found()
    if not row.private or _role(row, seats, caller)[0] != "none":
        return row
    raise not_found()


def _out(row: GameRow, seats: list[Seat], caller: Caller | None, game: Game) -> GameOut:
    role, power = _role(row, seats, caller)
    return GameOut(
        id=row.id,
        name=row.name,
        preset=row.preset,
        variant=game.variant.name,
        status=row.status,
        turn=game.turn,
        private=row.private,
        seats=[
            SeatOut(power=s.power, taken=s.user_id is not None or s.bot, bot=s.bot, yours=s.power == power)
            for s in seats
        ],
        role=role,
        power=power,
        invite=row.invite if role == "master" else None,
        deadlines=json.loads(row.deadlines or "{}"),
        deadline=row.deadline_at,
        press=row.press,
    )


@router.post("", status_code=201, response_model=GameOut, summary="Create a game; you are its game master")
def create_game(body: GameIn, state: Server, caller: SignedIn) -> GameOut:
    if body.preset not in PRESETS:
        raise bad_request(f"no preset {body.preset!r}: use one of {', '.join(sorted(PRESETS))}", "bad-preset")
    try:
        game = Game.create(body.preset, **body.options)
    except FogdipError as exc:
        raise bad_request(str(exc), "bad-options") from None
    return _store_new(
        state,
        caller,
        game,
        name=body.name or f"{body.preset} game",
        preset=body.preset,
        private=body.private,
        status="forming",
        deadlines=_deadlines(body.deadlines),
        press=body.press or _VARIANT_PRESS[game.variant.options.press],
    )


def _store_new(
    state: ServerState,
    caller: Caller,
    game: Game,
    *,
    name: str,
    preset: str,
    private: bool,
    status: str,
    deadlines: dict[str, float],
    press: str,
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
        deadlines=json.dumps(deadlines),
        press=press,
    )
    save(row, game)
    with state.db.transaction() as session:
        session.add(row)
        session.flush()
        seats = [Seat(game_id=row.id, power=power, user_id=None, bot=False, ready=False) for power in game.powers]
        session.add_all(seats)
    return _out(row, seats, caller, game)


@router.get("", response_model=list[GameOut], summary="Open games, and the games you are in")
def list_games(state: Server, caller: SignedIn) -> list[GameOut]:
    with state.db.reading() as session:
        mine = select(Seat.game_id).where(Seat.user_id == caller.user_id)
        rows = session.execute(
            select(GameRow)
            .where(or_(GameRow.private.is_(False), GameRow.master_id == caller.user_id, GameRow.id.in_(mine)))
            .order_by(GameRow.created_at)
        ).scalars()
        return [_out(row, seats_of(session, row.id), caller, game_of(row)) for row in rows]


@router.get("/{game_id}", response_model=GameOut, summary="A game: its state and seats")
def get_game(game_id: str, state: Server, caller: SignedIn) -> GameOut:
    with state.db.reading() as session:
        seats = seats_of(session, game_id)
        row = _visible(session.get(GameRow, game_id), seats, caller)
        return _out(row, seats, caller, game_of(row))


@router.post("/{game_id}/join", response_model=GameOut, summary="Take a seat: a power, or a random free one")
def join_game(game_id: str, body: JoinIn, state: Server, caller: SignedIn) -> GameOut:
    with state.db.transaction() as session:
        row = session.get(GameRow, game_id)
        seats = seats_of(session, game_id)
        invited = row is not None and body.invite is not None and same(body.invite, row.invite)
        if row is None or (row.private and not invited and _role(row, seats, caller)[0] == "none"):
            raise not_found()
        if row.status == "finished":
            raise conflict("the game is over")
        if any(s.user_id == caller.user_id for s in seats):
            raise conflict("you already play a power in this game")
        if row.master_id == caller.user_id:
            raise conflict("the game master does not play a power of the same game")
        free = [s for s in seats if s.user_id is None and not s.bot]
        if body.power is None:
            if not free:
                raise conflict("every seat is taken")
            seat: Seat = random.SystemRandom().choice(free)
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
        return _out(row, seats, caller, game_of(row))


#: The press mode a game takes from its variant's ``press`` option, unless it is given one.
_VARIANT_PRESS = MappingProxyType({"full": "white", "gunboat": "gunboat", "black": "black", "none": "none"})


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


def _player_row(session: Session, game_id: str, caller: Caller, refusal: str) -> tuple[GameRow, list[Seat], str]:
    """The game, locked for a change, its seats and the caller's power; 403 with ``refusal``
    for a member who plays no power, 404 for anyone else."""
    row = session.execute(select(GameRow).where(GameRow.id == game_id).with_for_update()).scalar_one_or_none()
    seats = seats_of(session, game_id)
    row = _visible(row, seats, caller)
    role, power = _role(row, seats, caller)
    if role != "player" or power is None:
        raise forbidden(refusal)
    return row, seats, power


def _master_row(session: Session, game_id: str, caller: Caller, *, lock: bool) -> GameRow:
    query = select(GameRow).where(GameRow.id == game_id)
    row = session.execute(query.with_for_update() if lock else query).scalar_one_or_none()
    seats = seats_of(session, game_id)
    row = _visible(row, seats, caller)
    if row.master_id != caller.user_id:
        raise forbidden("only the game master can do that")
    return row


@router.post("/{game_id}/bots", response_model=GameOut, summary="Seat the built-in bot (game master)")
def seat_bots(game_id: str, body: BotsIn, state: Server, caller: SignedIn) -> GameOut:
    with state.db.transaction() as session:
        row = _master_row(session, game_id, caller, lock=True)
        seats = seats_of(session, game_id)
        wanted = None if body.powers is None else {p.strip().upper() for p in body.powers}
        for seat in seats:
            if seat.user_id is None and (wanted is None or seat.power in wanted):
                seat.bot = True
        return _out(row, seats, caller, game_of(row))


@router.post("/{game_id}/start", response_model=GameOut, summary="Start the game (game master)")
def start_game(game_id: str, state: Server, caller: SignedIn) -> GameOut:
    with state.db.transaction() as session:
        row = _master_row(session, game_id, caller, lock=True)
        if row.status != "forming":
            raise conflict(f"the game is {row.status}, not forming")
        row.status = "active"
        game = game_of(row)
        schedule(row, game)
        publish(session, row.id, "deadline", game.turn)
        return _out(row, seats_of(session, game_id), caller, game)


@router.get("/{game_id}/view", summary="Your view: a player's reports and knowledge, or the game master's board")
def view(game_id: str, state: Server, caller: SignedIn) -> dict[str, Any]:
    with state.db.reading() as session:
        seats = seats_of(session, game_id)
        row = _visible(session.get(GameRow, game_id), seats, caller)
        role, power = _role(row, seats, caller)
        game = game_of(row)
    if role == "player" and power is not None:
        try:
            return power_view_to_json(game.view(power))
        except GameFileError as exc:
            log.error("game %s: %s's view cannot be read: %s", row.id, power, exc)
            raise ApiError(
                500, "damaged", "this game's stored data cannot be read; the server's admin has been told"
            ) from None
    if role == "master":
        return {
            "next_turn": game.turn,
            "position": position_document(game.position, game.variant),
            "status": game.status(),
            "filed": game.filed,
        }
    raise forbidden("you play no power in this game; observers see its public page only")


@router.get("/{game_id}/map.svg", summary="Your map, as SVG", response_class=Response)
def map_svg(
    game_id: str,
    state: Server,
    caller: SignedIn,
    phase: Annotated[str | None, Query(description="the phase after which to draw it; none: the latest")] = None,
    crop: bool = False,
) -> Response:
    with state.db.reading() as session:
        seats = seats_of(session, game_id)
        row = _visible(session.get(GameRow, game_id), seats, caller)
        role, power = _role(row, seats, caller)
        game = game_of(row)
    try:
        if role == "player" and power is not None:
            scene = power_scene_of(game, power, phase)
        elif role == "master":
            scene = master_scene_of(game, phase)
        else:
            raise forbidden("you play no power in this game")
    except FogdipError as exc:
        raise bad_request(str(exc), "bad-phase") from None
    return Response(render_svg(scene, crop=crop), media_type="image/svg+xml")


@router.put(
    "/{game_id}/orders",
    response_model=OrdersOut,
    summary="File your power's orders (replaces earlier ones); 422 with every line's verdict if one is refused",
)
def file_orders(game_id: str, body: OrdersIn, state: Server, caller: SignedIn) -> OrdersOut:
    with state.db.transaction() as session:
        row, _seats, power = _player_row(session, game_id, caller, "only a player files orders, for its own power")
        if row.status not in ("forming", "active"):
            raise conflict(f"the game is {row.status}: no orders are taken")
        game = game_of(row)
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
        save(row, game)
    return OrdersOut(filed=True, lines=verdicts)


def _all_ready(seats: list[Seat]) -> bool:
    """Every seat is a bot or a player who marked its orders ready (an empty seat waits for the
    game master, or the deadline)."""
    return all(seat.bot or (seat.user_id is not None and seat.ready) for seat in seats)


@router.post("/{game_id}/adjudicate", response_model=TurnOut, summary="Adjudicate the next turn now (game master)")
def adjudicate(game_id: str, state: Server, caller: SignedIn) -> TurnOut:
    with state.db.transaction() as session:
        row = _master_row(session, game_id, caller, lock=True)
        game = game_of(row)
        if game.position.completed:
            raise conflict("the game is over; there is no turn to adjudicate")
        turn = play_turn(session, row, game)
        return TurnOut(adjudicated=turn, next=game.turn, completed=game.position.completed)


@router.post(
    "/{game_id}/ready",
    response_model=TurnOut,
    summary="Mark your orders ready (or not); the turn is adjudicated once every seat is ready",
)
def mark_ready(game_id: str, body: ReadyIn, state: Server, caller: SignedIn) -> TurnOut:
    with state.db.transaction() as session:
        row, seats, power = _player_row(session, game_id, caller, "only a player marks its orders ready")
        if row.status != "active":
            raise conflict(f"the game is {row.status}; orders are marked ready once it has started")
        mine = next(seat for seat in seats if seat.power == power)
        mine.ready = body.ready
        game = game_of(row)
        turn = play_turn(session, row, game) if body.ready and _all_ready(seats) else None
        return TurnOut(adjudicated=turn, next=game.turn, completed=game.position.completed)


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
        game = game_of(row)
        schedule(row, game)
        return _out(row, seats, caller, game)


@router.post("/{game_id}/pause", response_model=GameOut, summary="Pause the game: its deadline stops (game master)")
def pause(game_id: str, state: Server, caller: SignedIn) -> GameOut:
    with state.db.transaction() as session:
        row = _master_row(session, game_id, caller, lock=True)
        if row.status != "active":
            raise conflict(f"the game is {row.status}, not active")
        row.status = "paused"
        if row.deadline_at is not None:
            row.paused_left = max((_aware(row.deadline_at) - now()).total_seconds(), 0.0)
        row.deadline_at = None
        game = game_of(row)
        publish(session, row.id, "deadline", game.turn)
        return _out(row, seats_of(session, game_id), caller, game)


@router.post("/{game_id}/resume", response_model=GameOut, summary="Resume a paused game (game master)")
def resume(game_id: str, state: Server, caller: SignedIn) -> GameOut:
    with state.db.transaction() as session:
        row = _master_row(session, game_id, caller, lock=True)
        if row.status != "paused":
            raise conflict(f"the game is {row.status}, not paused")
        row.status = "active"
        game = game_of(row)
        if row.paused_left is not None:
            row.deadline_at = now() + timedelta(seconds=row.paused_left)
        else:
            schedule(row, game)
        row.paused_left = None
        publish(session, row.id, "deadline", game.turn)
        return _out(row, seats_of(session, game_id), caller, game)


@router.post("/{game_id}/extend", response_model=GameOut, summary="Extend the current deadline (game master)")
def extend(game_id: str, body: ExtendIn, state: Server, caller: SignedIn) -> GameOut:
    with state.db.transaction() as session:
        row = _master_row(session, game_id, caller, lock=True)
        if row.deadline_at is None:
            raise conflict("the game has no deadline running to extend")
        row.deadline_at = _aware(row.deadline_at) + timedelta(seconds=body.seconds)
        game = game_of(row)
        publish(session, row.id, "deadline", game.turn)
        return _out(row, seats_of(session, game_id), caller, game)


def _aware(moment: datetime) -> datetime:
    # SQLite gives back naive datetimes: they were written in UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@router.post(
    "/import",
    status_code=201,
    response_model=GameOut,
    summary="Bring a 'fogdip gm' game file into the server; you are its game master",
)
def import_game(body: ImportIn, state: Server, caller: SignedIn) -> GameOut:
    try:
        game = Game(game_from_json(body.game, "the game file"), "the imported game")
        for power in game.powers:  # every report and knowledge entry must read, now, not later
            game.view(power)
    except (FogdipError, GameFileError) as exc:
        # The file is the importer's own: its faults may be described to it in full.
        raise bad_request(str(exc), "bad-game-file") from None
    started = bool(game.record.history)
    return _store_new(
        state,
        caller,
        game,
        name=body.name or f"imported {game.variant.name} game",
        preset=game.variant.options.name.partition("+")[0],
        private=body.private,
        status="finished" if game.position.completed else "active" if started else "forming",
        deadlines={},
        press=_VARIANT_PRESS[game.variant.options.press],
    )


@router.get(
    "/{game_id}/export",
    summary="The whole game, as a 'fogdip gm' game file or as MILA JSON (game master; everyone once a game that reveals is over)",
)
def export_game(
    game_id: str,
    state: Server,
    caller: SignedIn,
    format: Annotated[str, Query(description="fogdip (a game file) or mila (MILA's saved game)")] = "fogdip",
) -> dict[str, Any]:
    with state.db.reading() as session:
        seats = seats_of(session, game_id)
        row = _visible(session.get(GameRow, game_id), seats, caller)
        role, _power = _role(row, seats, caller)
        game = game_of(row)
    revealed = game.position.completed and game.variant.options.reveal_at_end
    # The game master's: not a player's, even one who set up its game against bots.
    if role != "master" and not (revealed and role != "none"):
        raise forbidden(
            "the whole game is the game master's until it is over (and then only where the variant reveals it)"
        )
    if format == "fogdip":
        exported: dict[str, Any] = json.loads(row.record)
        return exported
    if format == "mila":
        return mila_saved_game(game, row.id)
    raise bad_request(f"export as fogdip or mila, not {format!r}", "bad-format")
