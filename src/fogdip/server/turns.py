"""Turns of a stored game: reading it, saving it, playing its next turn (bots first), and its
deadline. Shared by the API (a game master's order, every seat ready) and the deadline
keeper (a deadline passed)."""

from __future__ import annotations

import dataclasses
import json
import logging
import random
import threading
from collections import OrderedDict
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from sqlalchemy import ColumnElement, and_, select
from sqlalchemy.orm import Session

from fogdip.bots.seen_bot import bot_lines
from fogdip.codec.gamefiles import GameFileError, game_from_json, game_to_json
from fogdip.codec.observations import observation_from_json
from fogdip.engine.units import Phase
from fogdip.game import Game
from fogdip.maps.svg import FogOutlines
from fogdip.server.db import Database
from fogdip.server.errors import ApiError
from fogdip.server.events import publish
from fogdip.server.models import GameRow, Seat
from fogdip.server.queries import statements

log = logging.getLogger("fogdip.server")

#: The phase types a game's deadlines are given for, by the engine's phase letter.
PHASE_TYPES = {"M": "movement", "R": "retreats", "A": "adjustments"}


def now() -> datetime:
    return datetime.now(UTC)


def read_game(row: GameRow) -> Game:
    """The game kept in the row, read afresh, with no orders filed (they are on the seats:
    :meth:`GameCache.changing` puts them in)."""
    try:
        return Game(game_from_json(json.loads(row.record), f"game {row.id}"), f"game {row.id}")
    except (GameFileError, ValueError) as exc:
        raise _damaged(row.id, exc) from None


def _damaged(game_id: str, exc: Exception) -> ApiError:
    # The reason can name units: it goes to the server's log, never to a client.
    log.error("game %s cannot be read: %s", game_id, exc)
    return ApiError(500, "damaged", "this game's stored data cannot be read; the server's admin has been told")


def filed_on(seats: Sequence[Seat]) -> dict[str, list[str]]:
    """The lines each power has filed for the next turn, from its seat."""
    return {seat.power: json.loads(seat.filed) for seat in seats if seat.filed is not None}


class GameCache:
    """Stored games read back, kept by id and version, so that the requests that only read a
    game (views, maps, press ranges) do not each parse its record: every save raises the
    version, so a game any process changed is read afresh. A process-local cache of what the
    database holds, never state another process needs.

    A game saved by this process is kept as it commits: the first request to read it after
    a turn takes no longer than the next, so how long a read takes never tells whether someone
    else has read the game since.

    A game given by :meth:`reading` shares its turns, reports and knowledge with every
    request of the process: it may be filed into (its orders are its own), never played."""

    def __init__(self, db: Database, size: int = 128) -> None:
        self.size = size
        self._games: OrderedDict[str, _Kept] = OrderedDict()
        self._lock = threading.Lock()
        db.on_commit(self._committed)

    def reading(self, session: Session, row: GameRow, seats: Sequence[Seat]) -> Game:
        """The game as it stands, its filed orders from ``seats``, to read (or file into)."""
        with self._lock:
            kept = self._games.get(row.id)
            if kept is not None and kept.version == row.version:
                self._games.move_to_end(row.id)
        if kept is None or kept.version != row.version:
            # The record with the version it belongs to, in one read (the row's own version may
            # be older under PostgreSQL's read committed: then the newer game is kept).
            record, version = session.execute(select(GameRow.record, GameRow.version).where(GameRow.id == row.id)).one()
            try:
                game = Game(game_from_json(json.loads(record), f"game {row.id}"), f"game {row.id}")
            except (GameFileError, ValueError) as exc:
                raise _damaged(row.id, exc) from None
            kept = self._keep(row.id, version, game)
        shared = kept.game
        return Game(dataclasses.replace(shared.record, filed=filed_on(seats)), shared.name)

    def drawn(self, row: GameRow, viewer: str) -> FogOutlines:
        """The fog outlines ``viewer`` (a power, or the role of one who plays none) had drawn
        for the game as it stands: kept for that viewer alone, so how long its map takes never
        tells what anyone else drew (:meth:`fogdip.maps.svg.Painter.fog_path`)."""
        with self._lock:
            kept = self._games.get(row.id)
            if kept is None or kept.version != row.version:
                return {}
            return kept.drawn.setdefault(viewer, {})

    @staticmethod
    def changing(row: GameRow, seats: Sequence[Seat]) -> Game:
        """The game read afresh from its row (locked by the caller), its filed orders from
        ``seats``: the caller's own, to play or change and :func:`save`."""
        game = read_game(row)
        game.record.filed = filed_on(seats)
        return game

    def _keep(self, game_id: str, version: int, game: Game) -> _Kept:
        with self._lock:
            kept = self._games.get(game_id)
            if kept is not None and kept.version >= version:
                return kept if kept.version == version else _Kept(version, game)  # newer kept already
            kept = self._games[game_id] = _Kept(version, game)
            self._games.move_to_end(game_id)
            while len(self._games) > self.size:
                self._games.popitem(last=False)
            return kept

    def _committed(self, session: Session) -> None:
        """Keep each game the committed transaction saved (:func:`save` lists them)."""
        for game_id, version, game in session.info.pop(_SAVED, ()):
            self._keep(game_id, version, game)


@dataclasses.dataclass
class _Kept:
    """A game kept read (:class:`GameCache`), with the fog outlines each viewer had drawn."""

    version: int
    game: Game
    drawn: dict[str, FogOutlines] = dataclasses.field(default_factory=dict)


#: Where :func:`save` lists, in the session's ``info``, the games its transaction saved.
_SAVED = "fogdip.saved"


def save(session: Session, row: GameRow, game: Game, seats: Sequence[Seat]) -> None:
    """Keep the game in its row (its filed orders on ``seats``), with the copies of its turn,
    variant and outcome that lists and pages read instead of the record. Once the transaction
    commits, the game is kept read (:class:`GameCache`): the caller must change it no more."""
    stored = dataclasses.replace(game.record, filed={})
    row.record = json.dumps(game_to_json(stored), separators=(",", ":"))
    for seat in seats:
        lines = game.record.filed.get(seat.power)
        seat.filed = None if lines is None else json.dumps(lines)
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
    session.info.setdefault(_SAVED, []).append((row.id, row.version, Game(stored, f"game {row.id}")))


def seats_of(session: Session, game_id: str) -> list[Seat]:
    return list(session.execute(statements().seats, {"game": game_id}).scalars())


def play_turn(session: Session, row: GameRow, game: Game, seats: Sequence[Seat]) -> str:
    """Adjudicate the next turn of ``game`` (from :meth:`GameCache.changing`): first every bot
    files its lines, from its own power's latest report only, as a player would
    (``Game.file``); then the game is saved and every seat's 'ready' mark cleared."""
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
    save(session, row, game, seats)
    schedule(row)
    for seat in seats:
        seat.ready = False
    publish(session, row.id, "phase", game.turn, detail=ready_detail(row, seats))
    return played.turn


def bots_hidden(row: GameRow, seats: Sequence[Seat]) -> bool:
    """Whether a player may not know which seats the bot plays: in a gunboat game that
    someone other than its game master plays in. There the bot's seats are never ready and
    vote for a draw only as the game master casts their votes: were they counted ready, or for
    every draw, a player's lone mark or vote ending the turn or the game would tell it that
    every other seat is the bot's."""
    return row.press == "gunboat" and any(seat.user_id not in (None, row.master_id) for seat in seats)


def ready_seats(row: GameRow, seats: Sequence[Seat]) -> int:
    """How many seats are ready: a player's once marked, the bot's always (but where it is
    hidden, :func:`bots_hidden`), an empty one never. The turn is played once all are."""
    bots_ready = not bots_hidden(row, seats)
    return sum(1 for seat in seats if (seat.bot and bots_ready) or (seat.user_id is not None and seat.ready))


def ready_detail(row: GameRow, seats: Sequence[Seat], *, force: bool = False) -> dict[str, int] | None:
    """How many seats are ready (:func:`ready_seats`), where the game tells its members (or
    ``force``: the game master)."""
    if not (row.ready_counts or force):
        return None
    return {"ready": ready_seats(row, seats), "of": len(seats)}


def phase_type(turn: str) -> str:
    """``movement``, ``retreats`` or ``adjustments`` (a setup counts as movement)."""
    try:
        return PHASE_TYPES.get(Phase.parse(turn).kind, "movement")
    except ValueError:
        return "movement"


def schedule(row: GameRow, moment: datetime | None = None) -> None:
    """Set the game's next deadline from its deadlines per phase type (none if it has none
    for the coming turn, is over, or is not running)."""
    seconds = json.loads(row.deadlines or "{}").get(phase_type(row.turn))
    if row.status != "active" or not seconds:
        row.deadline_at = None
        return
    row.deadline_at = (moment or now()) + timedelta(seconds=float(seconds))


def publish_deadline(session: Session, row: GameRow) -> None:
    """Tell the game's members its deadline was set, moved or stopped, and when it now is."""
    when = None if row.deadline_at is None else row.deadline_at.isoformat()
    publish(session, row.id, "deadline", row.turn, detail={"deadline": when})


def _is_due(moment: datetime) -> ColumnElement[bool]:
    return and_(GameRow.status == "active", GameRow.deadline_at.is_not(None), GameRow.deadline_at <= moment)


def any_due(session: Session, moment: datetime) -> bool:
    """Whether any game's deadline has passed (a read: no lock is taken)."""
    return session.execute(select(GameRow.id).where(_is_due(moment)).limit(1)).first() is not None


def due_games(session: Session, moment: datetime, limit: int = 10) -> list[GameRow]:
    """Active games whose deadline has passed, locked for this transaction; rows another
    process holds are skipped (it is adjudicating them)."""
    query = (
        select(GameRow)
        .where(_is_due(moment))
        .order_by(GameRow.deadline_at)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    return list(session.execute(query).scalars())
