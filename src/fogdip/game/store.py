"""Where tables are kept: one small interface, and the stores fogdip ships.

A store keeps each table (its game with every turn played, its seats, settings, clock and
press) under an id, and gives back a fresh copy on every load, so a table changed and not saved
changes nothing, and two tables never share a value. ``fogdip gm`` uses :class:`FileStore`
(one game file per game); tests and bots use :class:`MemoryStore`; the server keeps tables in
its database behind the same methods (``fogdip.server.store``).

>>> from fogdip.game.service import Game
>>> from fogdip.game.table import Table
>>> from fogdip.game.settings import TableSettings
>>> store = MemoryStore()
>>> game = Game.create("standard")
>>> store.save(Table.new("g1", game, TableSettings.for_game(game, postal=True), master="gm"))
>>> store.exists("g1"), store.load("g1").turn
(True, 'S1901M')
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from datetime import UTC
from pathlib import Path
from typing import Any, Protocol

from fogdip.codec.gamefiles import (
    GameFileError,
    MessageJSON,
    SeatJSON,
    TableJSON,
    game_to_json,
    read_game_file,
)
from fogdip.engine.errors import FogdipError
from fogdip.game.clock import Clock
from fogdip.game.events import SeatsSwapped
from fogdip.game.press import Message
from fogdip.game.seats import Member, Seat
from fogdip.game.service import Game
from fogdip.game.settings import SETTING_WORDS, Status, TableSettings
from fogdip.game.table import Table

#: Who keeps a game file's table when nobody else is named: the game master at the console.
CONSOLE = "gm"


class GameNotFound(FogdipError):
    """No game is kept under the id asked for."""


class TableStore(Protocol):
    """Keeps tables by id. ``load`` raises :class:`GameNotFound` for an unknown id and
    :class:`fogdip.codec.gamefiles.GameFileError` for a damaged one."""

    def exists(self, table_id: str) -> bool: ...

    def load(self, table_id: str) -> Table: ...

    def save(self, table: Table) -> None:
        """Keep the table as it now is: its game, seats, settings and clock, and the
        messages it sent (:attr:`Table.sent`)."""
        ...

    def messages(self, table: Table, member: Member) -> list[Message]:
        """The messages ``member`` may read, in the order sent."""
        ...


#: The older name: a store keeps tables, each with its game.
GameStore = TableStore


def table_json(table: Table, messages: Iterable[Message] = ()) -> TableJSON:
    """The table part of a game file."""
    return TableJSON(
        **table.settings.words(),
        status=table.status.value,
        invite=table.invite,
        master=table.master,
        seats=[
            SeatJSON(
                power=s.power,
                player=s.player,
                bot=s.bot,
                bot_name=s.bot_name,
                ready=s.ready,
                draw=s.draw,
                read=s.read,
            )
            for s in table.seats
        ],
        watching=sorted(table.watching),
        deadline=table.clock.deadline,
        paused_left=table.clock.paused_left,
        messages=[
            MessageJSON(
                turn=m.turn,
                sender=m.sender,
                recipients=None if m.recipients is None else list(m.recipients),
                body=m.body,
                claim=m.claim,
                readers=None if m.readers is None else sorted(m.readers),
            )
            for m in messages
        ],
    )


def table_of(table_id: str, game: Game, part: TableJSON | None) -> tuple[Table, list[Message]]:
    """The table a game file keeps (and its press): a file without one (written by an earlier
    fogdip, or for a game alone) is a postal game the game master at the console runs."""
    if part is None:
        settings = TableSettings.for_game(game, postal=True, accept_leaks=True)
        table = Table.new(table_id, game, settings, master=CONSOLE, status=Status.ACTIVE)
        return table, []
    words = part.model_dump(include=set(SETTING_WORDS))
    words["name"] = words["name"] or f"{game.variant.name} game"
    words["preset"] = words["preset"] or game.variant.options.name.partition("+")[0]
    settings = TableSettings.stored(words)
    by_power = {seat.power: seat for seat in part.seats}
    seats = [
        Seat(power, known.player, known.bot, known.ready, known.draw, known.read, known.bot_name)
        if (known := by_power.get(power)) is not None
        else Seat(power)
        for power in game.powers
    ]
    deadline = part.deadline if part.deadline is None or part.deadline.tzinfo else part.deadline.replace(tzinfo=UTC)
    table = Table(
        table_id,
        game,
        settings,
        Status(part.status),
        part.master,
        seats,
        part.invite,
        set(part.watching),
        Clock(deadline, part.paused_left),
    )
    return table, _messages(part)


def swapped_press(messages: list[Message], table: Table) -> list[Message]:
    """The press after the seats the table swapped changed hands (:meth:`Message.swapped`)."""
    powers = [seat.power for seat in table.seats]
    for event in table.events:
        if isinstance(event, SeatsSwapped):
            messages = [message.swapped(event.first, event.second, powers) for message in messages]
    return messages


def _messages(part: TableJSON) -> list[Message]:
    return [
        Message(
            m.turn,
            m.sender,
            None if m.recipients is None else tuple(m.recipients),
            m.body,
            m.claim,
            None if m.readers is None else frozenset(m.readers),
        )
        for m in part.messages
    ]


def readable(messages: Iterable[Message], member: Member) -> list[Message]:
    """The messages ``member`` may read: every one (the game master), those to all (an
    observer), a player's own and those sent to it."""
    if member.power is None:
        return [m for m in messages if m.to_all] if member.role.value != "master" else list(messages)
    return [m for m in messages if m.reaches(member.power)]


class _DocumentStore:
    """A store that keeps each table as its game file's JSON document."""

    def _read(self, table_id: str) -> dict[str, Any]:
        raise NotImplementedError

    def _write(self, table_id: str, document: dict[str, Any]) -> None:
        raise NotImplementedError

    def load(self, table_id: str) -> Table:
        record, part = read_game_file(self._read(table_id), self._where(table_id))
        return table_of(table_id, Game(record, self._where(table_id)), part)[0]

    def save(self, table: Table) -> None:
        press = self._press(table.id) if self.exists(table.id) else []
        press = swapped_press(press, table) + list(table.sent)
        self._write(table.id, game_to_json(table.game.record, table_json(table, press)))
        table.sent.clear()
        table.events.clear()

    def messages(self, table: Table, member: Member) -> list[Message]:
        return readable(self._press(table.id) if self.exists(table.id) else [], member)

    def exists(self, table_id: str) -> bool:
        raise NotImplementedError

    def _press(self, table_id: str) -> list[Message]:
        part = self._read(table_id).get("table")
        if not isinstance(part, dict):
            return []
        return _messages(TableJSON.model_validate(part))

    def _where(self, table_id: str) -> str:
        return f"game {table_id!r}"


class MemoryStore(_DocumentStore):
    """Tables kept in this process as their game files' JSON: every load reads it afresh."""

    def __init__(self) -> None:
        self._games: dict[str, str] = {}

    def exists(self, table_id: str) -> bool:
        return table_id in self._games

    def _read(self, table_id: str) -> dict[str, Any]:
        if table_id not in self._games:
            raise GameNotFound(f"no game {table_id!r}")
        document: dict[str, Any] = json.loads(self._games[table_id])
        return document

    def _write(self, table_id: str, document: dict[str, Any]) -> None:
        self._games[table_id] = json.dumps(document, sort_keys=True)


class FileStore(_DocumentStore):
    """One game file per game; the id is the file's path (relative to ``root``, if given).

    Writes are atomic: a temporary file in the same directory, flushed to disk, then renamed
    over the old one, so a crash leaves either the old game or the new one, never a torn file.
    """

    def __init__(self, root: Path | None = None) -> None:
        self.root = root

    def path(self, table_id: str) -> Path:
        return Path(table_id) if self.root is None else self.root / table_id

    def exists(self, table_id: str) -> bool:
        return self.path(table_id).exists()

    def _where(self, table_id: str) -> str:
        return str(self.path(table_id))

    def _read(self, table_id: str) -> dict[str, Any]:
        path = self.path(table_id)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise GameNotFound(
                f"no game file at {path}: start one with 'fogdip gm new --variant NAME {path}'"
            ) from None
        except OSError as exc:
            raise GameFileError(f"cannot read {path}: {exc.strerror}") from None
        return _json(text, path)

    def _write(self, table_id: str, document: dict[str, Any]) -> None:
        _write_atomically(self.path(table_id), json.dumps(document, indent=1, sort_keys=True) + "\n")


def _json(text: str, path: Path) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise GameFileError(f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}") from None
    if not isinstance(value, dict):
        raise GameFileError(f"{path} is not a fogdip game file: it holds no JSON object")
    return value


def _write_atomically(path: Path, payload: str) -> None:
    directory = path.parent if str(path.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    try:
        descriptor = os.open(directory, os.O_RDONLY)
    except OSError:  # pragma: no cover - some systems cannot open directories
        return
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


__all__ = [
    "CONSOLE",
    "FileStore",
    "GameNotFound",
    "GameStore",
    "MemoryStore",
    "TableStore",
    "readable",
    "swapped_press",
    "table_json",
    "table_of",
]
