"""Turns of a stored game: reading it, saving it, playing its next turn (bots first), and its
deadline. Shared by the API (a game master's order, every seat ready) and the deadline
keeper (a deadline passed)."""

from __future__ import annotations

import json
import logging
import random
from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from fogdip.bots.seen_bot import bot_lines
from fogdip.codec.gamefiles import GameFileError, game_from_json, game_to_json
from fogdip.codec.observations import observation_from_json
from fogdip.engine.units import Phase
from fogdip.game import Game
from fogdip.server.errors import ApiError
from fogdip.server.events import publish
from fogdip.server.models import GameRow, Seat

log = logging.getLogger("fogdip.server")

#: The phase types a game's deadlines are given for, by the engine's phase letter.
PHASE_TYPES = {"M": "movement", "R": "retreats", "A": "adjustments"}


def now() -> datetime:
    return datetime.now(UTC)


def game_of(row: GameRow) -> Game:
    try:
        return Game(game_from_json(json.loads(row.record), f"game {row.id}"), f"game {row.id}")
    except (GameFileError, ValueError) as exc:
        # The reason can name units: it goes to the server's log, never to a client.
        log.error("game %s cannot be read: %s", row.id, exc)
        raise ApiError(
            500, "damaged", "this game's stored data cannot be read; the server's admin has been told"
        ) from None


def save(row: GameRow, game: Game) -> None:
    """Keep the game in its row, with the copies of its turn, variant and outcome that lists
    and pages read instead of the record."""
    row.record = json.dumps(game_to_json(game.record), separators=(",", ":"))
    row.version += 1
    row.updated_at = now()
    row.turn = game.turn
    row.variant_name = game.variant.name
    outcome = game.outcome()
    if outcome is None:
        row.outcome = None
    else:
        row.outcome = json.dumps({**outcome, "revealed": game.variant.options.reveal_at_end})
    if game.position.completed:
        row.status = "finished"
        row.deadline_at = None


def seats_of(session: Session, game_id: str) -> list[Seat]:
    return list(session.execute(select(Seat).where(Seat.game_id == game_id).order_by(Seat.power)).scalars())


def play_turn(session: Session, row: GameRow, game: Game) -> str:
    """Adjudicate the next turn: first every bot files its lines, from its own power's latest
    report only, as a player would (``Game.file``); then the game is saved and every seat's
    'ready' mark cleared."""
    seats = seats_of(session, row.id)
    for seat in seats:
        if seat.bot and not game.filed.get(seat.power):
            seen = observation_from_json(game.report_documents(seat.power)[-1], f"{seat.power}'s latest report")
            # Never seeded from anything a player knows (the game, the turn, the power): its
            # orders could be foretold, and in gunboat its seat told from a person's.
            rng = random.SystemRandom()
            lines = bot_lines(game.variant, seen, rng)
            if lines:  # none: the game's defaults (a setup's, holds, civil disorder)
                game.file(seat.power, lines, partial=True)
    played = game.adjudicate()
    save(row, game)
    schedule(row, game)
    for seat in seats:
        seat.ready = False
    publish(session, row.id, "phase", game.turn, detail=ready_detail(row, seats))
    return played.turn


def ready_detail(row: GameRow, seats: list[Seat], *, force: bool = False) -> dict[str, int] | None:
    """How many seats are ready (the bot's always are; an empty seat never is), where the game
    tells its members (or ``force``: the game master)."""
    if not (row.ready_counts or force):
        return None
    return {
        "ready": sum(1 for seat in seats if seat.bot or (seat.user_id is not None and seat.ready)),
        "of": len(seats),
    }


def phase_type(turn: str) -> str:
    """``movement``, ``retreats`` or ``adjustments`` (a setup counts as movement)."""
    try:
        return PHASE_TYPES.get(Phase.parse(turn).kind, "movement")
    except ValueError:
        return "movement"


def schedule(row: GameRow, game: Game, moment: datetime | None = None) -> None:
    """Set the game's next deadline from its deadlines per phase type (none if it has none
    for the coming turn, is over, or is not running)."""
    seconds = json.loads(row.deadlines or "{}").get(phase_type(game.turn))
    if row.status != "active" or game.position.completed or not seconds:
        row.deadline_at = None
        return
    row.deadline_at = (moment or now()) + timedelta(seconds=float(seconds))


def publish_deadline(session: Session, row: GameRow) -> None:
    """Tell the game's members its deadline was set, moved or stopped, and when it now is."""
    when = None if row.deadline_at is None else row.deadline_at.isoformat()
    publish(session, row.id, "deadline", row.turn, detail={"deadline": when})


def due_games(session: Session, moment: datetime, limit: int = 10) -> list[GameRow]:
    """Active games whose deadline has passed, locked for this transaction; rows another
    process holds are skipped (it is adjudicating them)."""
    query = (
        select(GameRow)
        .where(GameRow.status == "active", GameRow.deadline_at.is_not(None), GameRow.deadline_at <= moment)
        .order_by(GameRow.deadline_at)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    return list(session.execute(query).scalars())
