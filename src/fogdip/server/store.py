"""Tables in the server's database: the store behind the same interface as ``fogdip gm``'s game
files (:class:`fogdip.game.store.TableStore`), within one transaction.

A table is read in a few small reads: the game's row (its settings, status, clock and the
position to play next), its seats, and whether the one asking watches it. The rest is read
only when a rule asks for it: one power's reports (never the others'), a turn's records, a
power's knowledge, a seat's filed lines. A turn played is appended as rows (the turn, and each
power's report and knowledge after it); nothing written before is written again.

A request's work depends only on what its caller may know: reading a player's view reads that
power's own rows; its messages are read through its own list (:class:`Delivery`); what other
seats filed is not even decoded.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, MutableMapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Text, cast, delete, select, update
from sqlalchemy.orm import Session

from fogdip.codec.gamefiles import game_from_json, turn_from_json, turn_to_json
from fogdip.codec.observations import (
    knowledge_from_json,
    knowledge_to_json,
    observation_from_json,
    observation_to_json,
)
from fogdip.codec.turns import position_document, position_from_document
from fogdip.engine.errors import FogdipError
from fogdip.fog.knowledge import Knowledge
from fogdip.fog.observation import Observation
from fogdip.game import Actor, Game, Refusal, Table
from fogdip.game.clock import Clock
from fogdip.game.events import SeatsSwapped
from fogdip.game.press import Message
from fogdip.game.seats import Member
from fogdip.game.seats import Seat as TableSeat
from fogdip.game.settings import SETTING_WORDS, Role, Status, TableSettings
from fogdip.game.summary import Outcome, Summary
from fogdip.maps.svg import FogOutlines
from fogdip.server.events import publish
from fogdip.server.models import Delivery, GameRow, MailPlayer, Observer, ReportRow, Seat, TurnRow
from fogdip.server.models import Message as MessageRow
from fogdip.server.queries import ALL, statements
from fogdip.variants import Position, Variant
from fogdip.variants.record import Ending, Filed, GameRecord, History, TurnRecord, filed_texts


def now() -> datetime:
    return datetime.now(UTC)


def actor_of(user_id: int | None) -> Actor:
    """The table's name for an account."""
    return Actor(None if user_id is None else str(user_id))


def _account(player: str | None) -> int | None:
    return None if player is None else int(player)


# --- what the process keeps read ------------------------------------------------------------


@dataclasses.dataclass
class _Kept:
    version: int
    variant: Variant
    position: Position
    drawn: dict[str, FogOutlines] = dataclasses.field(default_factory=dict)


#: Where :meth:`ReadCache.saved` lists, in a session's ``info``, the games its transaction saved.
_SAVED = "fogdip.saved"
#: Set on a session that saved a game whose bot seats have yet to file.
BOTS_WAITING = "fogdip.bots-waiting"
#: Where a session lists the games its transaction played a turn of (or ended, or seated a
#: mail player at): the e-mail judge, where it runs in the process, queues their mails in the
#: same transaction (``fogdip.mail.outbox``); the server itself knows nothing of mail.
GAMES_CHANGED = "fogdip.games-changed"


def changed_game(session: Session, game_id: str) -> None:
    """Note that this transaction changed ``game_id`` for its members' mails (:data:`GAMES_CHANGED`)."""
    session.info.setdefault(GAMES_CHANGED, set()).add(game_id)


class ReadCache:
    """Each game's variant and position as last read, by id and version (every save that
    changes the game raises it), so that a request does not build the variant again; and the
    fog outlines each viewer had drawn of it. A cache of what the database holds, never state
    another process needs. The outlines are kept per viewer: how long one's map takes never
    tells what anyone else drew."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._kept: OrderedDict[str, _Kept] = OrderedDict()
        self._lock = threading.Lock()

    def position(self, row: GameRow, read: Callable[[], tuple[Any, int]]) -> tuple[Variant, Position]:
        """The game's variant and position: each request its own position object, so that
        what the layers work out from it and keep with it (``GameState.memo``) is never
        written by two threads at once. ``read`` reads the position and its version."""
        with self._lock:
            kept = self._kept.get(row.id)
            if kept is not None and kept.version == row.version:
                self._kept.move_to_end(row.id)
                return kept.variant, _own(kept.position)
        document, version = read()
        variant, position = position_from_document(document)
        self._keep(row.id, version, variant, position)
        return variant, _own(position)

    def _keep(self, game_id: str, version: int, variant: Variant, position: Position) -> None:
        with self._lock:
            kept = self._kept.get(game_id)
            if kept is not None and kept.version >= version:
                return  # as new, or newer, kept already
            self._kept[game_id] = _Kept(version, variant, _own(position))
            self._kept.move_to_end(game_id)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def saved(self, session: Session, game_id: str, version: int, variant: Variant, position: Position) -> None:
        """A transaction saved the game at ``version``: keep it once it commits, so that the
        first read after a turn takes no longer than the next (how long a read takes never
        tells whether anyone read the game since)."""
        session.info.setdefault(_SAVED, []).append((game_id, version, variant, _own(position)))

    def committed(self, session: Session) -> None:
        """Keep each game the committed transaction saved (:meth:`saved`)."""
        for game_id, version, variant, position in session.info.pop(_SAVED, ()):
            self._keep(game_id, version, variant, position)

    def drawn(self, table: Table, viewer: str) -> FogOutlines:
        with self._lock:
            kept = self._kept.get(table.id)
            if kept is None or kept.version != table.version:
                return {}
            return kept.drawn.setdefault(viewer, {})


def _own(position: Position) -> Position:
    """A copy of ``position`` that shares its (never changed) values, with memos of its own."""
    return dataclasses.replace(position, state=dataclasses.replace(position.state))


# --- what is read only when asked for ------------------------------------------------------


class _StoredHistory(History):
    """A game's turns and reports, read from its rows only as they are asked for."""

    def __init__(self, session: Session, game_id: str, played: int) -> None:
        super().__init__({})
        self._session = session
        self._game = game_id
        self._played = played
        self._read: dict[int, TurnRecord] = {}
        self._opening: dict[str, Observation] | None = None  # type: ignore[assignment]
        #: Turns played since the table was read, for the store to append.
        self.appended: list[TurnRecord] = []

    def __len__(self) -> int:
        return self._played + len(self.appended)

    def __getitem__(self, index: int) -> TurnRecord:
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        if index >= self._played:
            return self.appended[index - self._played]
        if index not in self._read:
            self._read[index] = self._turn(index + 1)
        return self._read[index]

    def __iter__(self) -> Iterator[TurnRecord]:
        if len(self._read) < self._played:
            self._read_all()
        return iter([*(self._read[i] for i in range(self._played)), *self.appended])

    def append(self, turn: TurnRecord) -> None:
        self.appended.append(turn)

    @property
    def opening(self) -> dict[str, Observation]:
        if self._opening is None:
            rows = self._session.execute(
                select(ReportRow.power, ReportRow.report).where(ReportRow.game_id == self._game, ReportRow.seq == 0)
            ).all()
            self._opening = {power: _report(report, self._game, power) for power, report in rows}
        return self._opening

    def reports(self, power: str) -> list[Observation]:
        rows = self._session.execute(
            select(ReportRow.report)
            .where(ReportRow.game_id == self._game, ReportRow.power == power)
            .order_by(ReportRow.seq)
        ).scalars()
        out = [_report(report, self._game, power) for report in rows]
        out.extend(turn.reports[power] for turn in self.appended if power in turn.reports)
        return out

    def latest(self, power: str) -> Observation | None:
        for turn in reversed(self.appended):
            if power in turn.reports:
                return turn.reports[power]
        row = self._session.execute(
            select(ReportRow.report)
            .where(ReportRow.game_id == self._game, ReportRow.power == power)
            .order_by(ReportRow.seq.desc())
            .limit(1)
        ).scalar_one_or_none()
        return None if row is None else _report(row, self._game, power)

    def index_of(self, turn: str) -> int | None:
        for index, played in enumerate(self.appended):
            if played.turn == turn:
                return self._played + index
        seq = self._session.execute(
            select(TurnRow.seq).where(TurnRow.game_id == self._game, TurnRow.name == turn).order_by(TurnRow.seq.desc())
        ).first()
        return None if seq is None else int(seq[0]) - 1

    def names(self) -> list[str]:
        kept = self._session.execute(
            select(TurnRow.name).where(TurnRow.game_id == self._game).order_by(TurnRow.seq)
        ).scalars()
        return [*kept, *(turn.turn for turn in self.appended)]

    def _turn(self, seq: int) -> TurnRecord:
        record = self._session.execute(
            select(TurnRow.record).where(TurnRow.game_id == self._game, TurnRow.seq == seq)
        ).scalar_one()
        reports = self._session.execute(
            select(ReportRow.power, ReportRow.report).where(ReportRow.game_id == self._game, ReportRow.seq == seq)
        ).all()
        return turn_from_json({**record, "reports": dict(reports)}, f"game {self._game}")

    def _read_all(self) -> None:
        records: dict[int, Any] = dict(
            self._session.execute(
                select(TurnRow.seq, TurnRow.record).where(TurnRow.game_id == self._game).order_by(TurnRow.seq)
            ).all()
        )
        reports: dict[int, dict[str, Any]] = {}
        for seq, power, report in self._session.execute(
            select(ReportRow.seq, ReportRow.power, ReportRow.report).where(
                ReportRow.game_id == self._game, ReportRow.seq > 0
            )
        ).all():
            reports.setdefault(seq, {})[power] = report
        for seq, record in records.items():
            if seq - 1 not in self._read:
                self._read[seq - 1] = turn_from_json({**record, "reports": reports.get(seq, {})}, f"game {self._game}")


class _StoredKnowledge(dict[str, Knowledge]):
    """Each power's knowledge after its latest report, read when first asked for."""

    def __init__(self, session: Session, game_id: str) -> None:
        super().__init__()
        self._session = session
        self._game = game_id
        self._asked: set[str] = set()

    def get(self, power: str, default: Any = None) -> Any:
        if power not in self and power not in self._asked:
            self._asked.add(power)
            stored = self._session.execute(
                select(ReportRow.knowledge)
                .where(ReportRow.game_id == self._game, ReportRow.power == power, ReportRow.knowledge.is_not(None))
                .order_by(ReportRow.seq.desc())
                .limit(1)
            ).scalar_one_or_none()
            if stored is not None:
                known = knowledge_from_json(stored)
                if known.power == power:
                    self[power] = known
        return super().get(power, default)


class _FiledOnSeats(MutableMapping[str, Filed]):
    """The lines each seat filed for the next turn, decoded only for the power asked for: a
    player's request never reads what the others filed."""

    def __init__(self, seats: list[Seat]) -> None:
        self._rows = {seat.power: seat for seat in seats}
        self._read: dict[str, Filed | None] = {}
        self.changed: set[str] = set()

    def _lines(self, power: str) -> Filed | None:
        if power not in self._read:
            row = self._rows.get(power)
            self._read[power] = None if row is None or row.filed is None else list(json.loads(row.filed))
        return self._read[power]

    def __getitem__(self, power: str) -> Filed:
        lines = self._lines(power)
        if lines is None:
            raise KeyError(power)
        return lines

    def __contains__(self, power: object) -> bool:
        return isinstance(power, str) and (
            self._read[power] is not None
            if power in self._read
            else self._rows.get(power) is not None and self._rows[power].filed is not None
        )

    def __setitem__(self, power: str, lines: Filed) -> None:
        self._read[power] = lines
        self.changed.add(power)

    def __delitem__(self, power: str) -> None:
        if power not in self:
            raise KeyError(power)
        self._read[power] = None
        self.changed.add(power)

    def __iter__(self) -> Iterator[str]:
        return iter([power for power in self._rows if power in self])

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def clear(self) -> None:
        for power in self._rows:
            if power in self:
                self._read[power] = None
                self.changed.add(power)


def _report(data: Any, game_id: str, power: str) -> Observation:
    return observation_from_json(data, f"game {game_id}: a report of {power}")


# --- the store ------------------------------------------------------------------------------


class SqlStore:
    """Tables in the server's database, within one session (one transaction)."""

    def __init__(self, session: Session, reads: ReadCache) -> None:
        self.session = session
        self.reads = reads
        #: Each table read: its row, its seat rows, and whom the store read as watching it.
        self._rows: dict[str, tuple[GameRow, list[Seat], frozenset[str]]] = {}

    def find(self, game_id: str, user_id: int | None, *, lock: bool = False, invite: str | None = None) -> Table:
        """The game, if the user may see it (or gives its invitation); else the same refusal
        as for a game that does not exist, decided in one query."""
        prepared = statements()
        values: dict[str, object] = {"game": game_id, "user": user_id}
        if invite is not None:
            query = prepared.invited_game_locked if lock else prepared.invited_game
            values["invite"] = invite
        else:
            query = prepared.visible_game_locked if lock else prepared.visible_game
        row = self.session.execute(query, values).scalar_one_or_none()
        if row is None:
            raise Refusal.not_found()
        return self.table_of(row, user_id)

    def listed(self, rows: list[GameRow], user_id: int | None) -> list[Table]:
        """The tables of ``rows``, their seats and whether ``user_id`` watches each read in two
        reads, not two a game."""
        ids = [row.id for row in rows]
        seats: dict[str, list[Seat]] = {game_id: [] for game_id in ids}
        for seat in self.session.execute(select(Seat).where(Seat.game_id.in_(ids)).order_by(Seat.power)).scalars():
            seats[seat.game_id].append(seat)
        watched = set()
        if user_id is not None:
            watched = set(
                self.session.execute(
                    select(Observer.game_id).where(Observer.user_id == user_id, Observer.game_id.in_(ids))
                ).scalars()
            )
        return [
            self.table_of(row, user_id, seats=seats[row.id], watching=row.id in watched, summary=True) for row in rows
        ]

    def table_of(
        self,
        row: GameRow,
        user_id: int | None = None,
        *,
        seats: list[Seat] | None = None,
        watching: bool | None = None,
        summary: bool = False,
    ) -> Table:
        """The table a game's row holds (with whether ``user_id`` watches it, unless
        ``watching`` says; its seats read unless given). With ``summary`` its game is read
        only if a rule asks for it: its page is made from what the row keeps beside it."""
        if seats is None:
            seats = list(self.session.execute(statements().seats, {"game": row.id}).scalars())
        read_seats = seats
        watchers: set[str] = set()
        if user_id is not None and (self._watches(row.id, user_id) if watching is None else watching):
            watchers.add(str(user_id))
        table = Table(
            row.id,
            Game(lambda: self._record(row, read_seats), f"game {row.id}"),
            settings_of(row),
            Status(row.status),
            str(row.master_id),
            [
                TableSeat(
                    s.power, None if s.user_id is None else str(s.user_id), s.bot, s.ready, s.draw, s.read, s.bot_name
                )
                for s in seats
            ],
            row.invite,
            watchers,
            Clock(row.deadline_at, row.paused_left),
            row.version,
            summary=_summary(row) if summary else None,
            bots_due=row.bots_due_at,
        )
        if not summary:
            table.game.record  # noqa: B018 - read now, in this request's transaction, as a rule will
        self._rows[row.id] = (row, seats, frozenset(watchers))
        return table

    def _record(self, row: GameRow, seats: list[Seat]) -> GameRecord:
        variant, position = self.reads.position(row, lambda: self._position(row.id))
        return GameRecord(
            variant,
            position,
            _FiledOnSeats(seats),
            _StoredHistory(self.session, row.id, row.turns_played),
            _StoredKnowledge(self.session, row.id),
            None if row.ending is None else Ending(tuple(row.ending["draw"]), row.ending["turn"]),
        )

    def _position(self, game_id: str) -> tuple[Any, int]:
        """The game's position and the version it belongs to, in one read (under PostgreSQL's
        read committed, the row read earlier may be older than the position read now)."""
        position, version = self.session.execute(
            select(GameRow.position, GameRow.version).where(GameRow.id == game_id)
        ).one()
        if position is None:  # kept whole by an earlier fogdip, and it could not be read
            raise DamagedGame(f"game {game_id} is kept whole as an earlier fogdip kept it: run fogdip db upgrade")
        return position, int(version)

    def _watches(self, game_id: str, user_id: int) -> bool:
        return self.session.execute(statements().watching, {"game": game_id, "user": user_id}).first() is not None

    # --- writing ---------------------------------------------------------------------------

    def add(self, table: Table, moment: datetime) -> None:
        """Keep a new table: its row, its seats, and every report and turn its game holds (an
        imported game may have many)."""
        game = table.game
        words = table.settings.words()
        words["deadlines"] = json.dumps(words["deadlines"])
        row = GameRow(
            **words,
            id=table.id,
            invite=table.invite or "",
            master_id=_account(table.master),
            status=table.status.value,
            record="",
            version=table.version,
            created_at=moment,
            updated_at=moment,
            turns_played=0,
        )
        filed = game.record.filed
        seats = [
            Seat(
                game_id=row.id,
                power=s.power,
                user_id=_account(s.player),
                bot=s.bot,
                bot_name=s.bot_name,
                ready=s.ready,
                draw=s.draw,
                read=s.read,
                # What the game holds filed for its next turn (an imported game file may).
                filed=None if s.power not in filed else json.dumps(filed_texts(filed[s.power])),
            )
            for s in table.seats
        ]
        self.session.add(row)
        self.session.flush()
        self.session.add_all(seats)
        turns = list(game.record.history)
        for power, seen in game.record.history.opening.items():
            known = game.record.knowledge.get(power) if not turns else None
            self.session.add(
                ReportRow(
                    game_id=row.id,
                    power=power,
                    seq=0,
                    report=observation_to_json(seen),
                    knowledge=None if known is None else knowledge_to_json(known),
                )
            )
        self._rows[row.id] = (row, seats, frozenset())
        self._write_turns(row, game, turns, 1, moment)
        self._write_row(table, row, seats, moment, position=True)
        self.session.flush()

    def save(self, table: Table, moment: datetime | None = None) -> None:
        """Keep what the table's rules changed, append the turns it played, and tell its
        members (its events, delivered once the transaction commits)."""
        moment = moment or now()
        row, seats, watched = self._rows[table.id]
        history = table.game.record.history
        appended = list(history.appended) if isinstance(history, _StoredHistory) else []
        if appended:
            self._write_turns(row, table.game, appended, row.turns_played + 1, moment)
        changed = bool(appended) or table.version != row.version
        self._write_row(table, row, seats, moment, position=changed)
        if changed:
            changed_game(self.session, row.id)
        self._write_seats(table, seats)
        self._write_watching(table, row, watched)
        for message in table.sent:
            self._send(row, seats, message, moment)
        for event in table.events:
            if isinstance(event, SeatsSwapped):
                self._swap_press(row.id, event.first, event.second)
                self._swap_mail(row.id, event.first, event.second)
            else:
                publish(self.session, row.id, event.kind, event.turn, event.audience, event.detail() or None)
        table.sent.clear()
        table.events.clear()
        if isinstance(history, _StoredHistory):
            history.appended.clear()

    def _write_row(self, table: Table, row: GameRow, seats: list[Seat], moment: datetime, *, position: bool) -> None:
        game = table.game
        row.status = table.status.value
        row.deadline_at = table.clock.deadline
        row.bots_due_at = table.bots_due_at(moment)
        if row.bots_due_at is not None:
            self.session.info[BOTS_WAITING] = True  # this process's bot seats look at once
        row.paused_left = table.clock.paused_left
        if position:
            row.position = position_document(game.position, game.variant)
            row.version = table.version if table.version > row.version else row.version + 1
            table.version = row.version
            row.updated_at = moment
            self.reads.saved(self.session, row.id, row.version, game.variant, game.position)
        ending = game.record.ending
        row.ending = None if ending is None else {"draw": list(ending.draw), "turn": ending.turn}
        row.turn = game.turn
        row.variant_name = game.variant.name
        outcome = game.outcome()
        row.outcome = (
            None if outcome is None else json.dumps({**outcome, "revealed": game.variant.options.reveal_at_end})
        )

    def _write_seats(self, table: Table, seats: list[Seat]) -> None:
        filed = table.game.record.filed
        changed = filed.changed if isinstance(filed, _FiledOnSeats) else set(filed)
        by_power = {seat.power: seat for seat in table.seats}
        for row in seats:
            seat = by_power[row.power]
            row.user_id = _account(seat.player)
            row.bot, row.ready, row.draw, row.read = seat.bot, seat.ready, seat.draw, seat.read
            row.bot_name = seat.bot_name
            if row.power in changed or not isinstance(filed, _FiledOnSeats):
                lines = filed.get(row.power)
                row.filed = None if lines is None else json.dumps(filed_texts(lines))

    def _write_watching(self, table: Table, row: GameRow, watched: frozenset[str]) -> None:
        # The store read whether the one asking watches; so it writes no more than that.
        for account in table.watching - watched:
            self.session.add(Observer(game_id=row.id, user_id=int(account)))
        for account in watched - table.watching:
            self.session.execute(delete(Observer).where(Observer.game_id == row.id, Observer.user_id == int(account)))

    def _write_turns(self, row: GameRow, game: Game, turns: list[TurnRecord], first: int, moment: datetime) -> None:
        variant = game.variant
        for offset, turn in enumerate(turns):
            seq = first + offset
            document = turn_to_json(turn, variant)
            reports = document.pop("reports")
            self.session.add(TurnRow(game_id=row.id, seq=seq, name=turn.turn, record=document, created_at=moment))
            last = offset == len(turns) - 1
            for power, report in reports.items():
                known = game.record.knowledge.get(power) if last else None
                self.session.add(
                    ReportRow(
                        game_id=row.id,
                        power=power,
                        seq=seq,
                        report=report,
                        knowledge=None if known is None else knowledge_to_json(known),
                    )
                )
        row.turns_played = first + len(turns) - 1

    # --- press ----------------------------------------------------------------------------

    def _send(self, row: GameRow, seats: list[Seat], message: Message, moment: datetime) -> None:
        kept = MessageRow(
            game_id=row.id,
            turn=message.turn,
            sender=message.sender,
            shown_as=message.claim,
            recipients=ALL if message.recipients is None else ",".join(message.recipients),
            body=message.body,
            created_at=moment,
        )
        self.session.add(kept)
        self.session.flush()
        if message.recipients is None:
            readers = [*(seat.power for seat in seats), ALL]
        else:
            readers = sorted({message.sender, *message.recipients})
        self.session.add_all(Delivery(game_id=row.id, reader=reader, message_id=kept.id) for reader in readers)
        changed_game(self.session, row.id)  # (a mail player it reaches is mailed it)

    def _swap_press(self, game_id: str, first: str, second: str) -> None:
        """Before the start, two seats changed hands: their press goes with their players (each
        reader's list, and the sender of what each wrote), and every message stays addressed
        as it was written, so that nobody else's messages change (:meth:`Message.swapped`)."""
        names = {first: second, second: first}
        for kept in self.session.execute(
            select(MessageRow).where(MessageRow.game_id == game_id, MessageRow.sender.in_([first, second]))
        ).scalars():
            kept.sender = names[kept.sender]
        for reader in (first, second):
            self.session.execute(
                update(Delivery)
                .where(Delivery.game_id == game_id, Delivery.reader == reader)
                .values(reader=f"~{names[reader]}")
            )
        for reader in (first, second):
            self.session.execute(
                update(Delivery)
                .where(Delivery.game_id == game_id, Delivery.reader == f"~{reader}")
                .values(reader=reader)
            )

    def _swap_mail(self, game_id: str, first: str, second: str) -> None:
        """Before the start, two seats changed hands: a seat played by mail goes with its
        player too, whose address at the judge names its new power: it is welcomed again,
        with it (its secret stays its own)."""
        names = {first: second, second: first}
        for power in (first, second):
            self.session.execute(
                update(MailPlayer)
                .where(MailPlayer.game_id == game_id, MailPlayer.power == power)
                .values(power=f"~{names[power]}", welcomed=False)
            )
        for power in (first, second):
            self.session.execute(
                update(MailPlayer)
                .where(MailPlayer.game_id == game_id, MailPlayer.power == f"~{power}")
                .values(power=power)
            )
        changed_game(self.session, game_id)

    def messages(self, table: Table, member: Member) -> list[Message]:
        """The messages ``member`` may read, in order, read through its own list."""
        if member.role is Role.MASTER:
            query = select(MessageRow).where(MessageRow.game_id == table.id).order_by(MessageRow.id)
        else:
            reader = member.power if member.power is not None else ALL
            query = (
                select(MessageRow)
                .join(Delivery, Delivery.message_id == MessageRow.id)
                .where(Delivery.game_id == table.id, Delivery.reader == reader)
                .order_by(Delivery.message_id)
            )
        return [
            Message(
                kept.turn,
                kept.sender,
                None if kept.recipients == ALL else tuple(kept.recipients.split(",")),
                kept.body,
                kept.shown_as,
            )
            for kept in self.session.execute(query).scalars()
        ]

    # --- views, as stored -------------------------------------------------------------------

    def power_view(self, table: Table, power: str) -> str:
        """``power``'s view of its game as JSON text: its reports and knowledge sent as stored
        (never read into values and written again), the lines it filed, and, once a game that
        reveals is over, every turn's orders."""
        rows = self.session.execute(
            select(cast(ReportRow.report, Text), cast(ReportRow.knowledge, Text))
            .where(ReportRow.game_id == table.id, ReportRow.power == power)
            .order_by(ReportRow.seq)
        ).all()
        reports = [report for report, _known in rows]
        knowledge = next((known for _report, known in reversed(rows) if known is not None), None)
        if knowledge is None:
            knowledge = json.dumps(knowledge_to_json(table.game.knowledge(power)))
        revealed = table.game.revealed_history()
        filed = table.game.record.filed.get(power)
        return (
            f'{{"power":{json.dumps(power)},"next_turn":{json.dumps(table.turn)},'
            f'"filed":{json.dumps(filed_texts(filed or []))},"reports":[{",".join(reports)}],'
            f'"knowledge":{knowledge},"revealed_history":{json.dumps(revealed)}}}'
        )


def _summary(row: GameRow) -> Summary:
    """The game in brief, as its row keeps it beside the game (its turn, variant, outcome)."""
    outcome = None
    if row.outcome:
        told = json.loads(row.outcome)
        outcome = Outcome(told["result"], tuple(told["powers"]), told.get("agreed"), bool(told.get("revealed")))
    return Summary(row.turn, row.variant_name, outcome)


def settings_of(row: GameRow) -> TableSettings:
    """A game's settings, as its row keeps them (its deadlines as JSON)."""
    words = {name: getattr(row, name) for name in SETTING_WORDS}
    words["deadlines"] = json.loads(row.deadlines or "{}")
    return TableSettings.stored(words)


class DamagedGame(FogdipError):
    """A stored game that cannot be read: for the server's admin (its reason may name units),
    never for a client."""


def upgrade_game(session: Session, row: GameRow) -> None:
    """A game kept whole, as a game file in ``games.record`` (before migration 0007), turned
    into rows: read by the codec, which brings any game file an earlier fogdip wrote up to
    date. Its filed orders are on its seats already (migration 0006)."""
    try:
        record = game_from_json(json.loads(row.record or "{}"), f"game {row.id}")
    except (FogdipError, ValueError) as exc:
        raise DamagedGame(f"game {row.id} cannot be read: {exc}") from None
    variant = record.variant
    for power, seen in record.history.opening.items():
        session.add(ReportRow(game_id=row.id, power=power, seq=0, report=observation_to_json(seen)))
    turns = list(record.history)
    for seq, turn in enumerate(turns, 1):
        document = turn_to_json(turn, variant)
        reports = document.pop("reports")
        session.add(TurnRow(game_id=row.id, seq=seq, name=turn.turn, record=document, created_at=row.updated_at))
        for power, report in reports.items():
            session.add(ReportRow(game_id=row.id, power=power, seq=seq, report=report))
    session.flush()
    for power, known in record.knowledge.items():
        latest = (
            session.execute(
                select(ReportRow)
                .where(ReportRow.game_id == row.id, ReportRow.power == power)
                .order_by(ReportRow.seq.desc())
            )
            .scalars()
            .first()
        )
        if latest is not None:
            latest.knowledge = knowledge_to_json(known)
    row.position = position_document(record.position, variant)
    row.ending = None if record.ending is None else {"draw": list(record.ending.draw), "turn": record.ending.turn}
    row.turns_played = len(turns)
    row.record = ""
    session.flush()


def upgrade_games(session: Session) -> list[str]:
    """Every game still kept whole turned into rows (``fogdip db upgrade``); the reasons of
    those that cannot be read (left as they were, for the admin to look at)."""
    damaged = []
    for game_id in session.execute(select(GameRow.id).where(GameRow.record != "")).scalars().all():
        row = session.get_one(GameRow, game_id)
        try:
            with session.begin_nested():
                upgrade_game(session, row)
        except DamagedGame as exc:
            damaged.append(str(exc))
    return damaged


__all__ = [
    "BOTS_WAITING",
    "GAMES_CHANGED",
    "DamagedGame",
    "ReadCache",
    "SqlStore",
    "actor_of",
    "changed_game",
    "now",
    "settings_of",
    "upgrade_game",
    "upgrade_games",
]
