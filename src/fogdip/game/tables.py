"""The use cases every front end calls: a table loaded from its store, changed by one of its
rules, saved, as one unit of work.

>>> from fogdip.game.store import MemoryStore
>>> games = GameService(MemoryStore())
>>> game = games.create("g1", "fog-of-war", {"end_year": 1902})
>>> with games.change("g1") as game:
...     _ = game.file("FRANCE", ["A PAR - BUR"])
...     _ = game.adjudicate()
>>> view = games.open("g1").view("FRANCE")
>>> view.next_turn, len(view.reports)
('S1901R', 2)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from fogdip.game.service import Game, GameError
from fogdip.game.settings import Status, TableSettings
from fogdip.game.store import CONSOLE, TableStore
from fogdip.game.table import Table


class Tables:
    """Tables by id, in one store: each use case loads the table, runs one of its rules and
    saves it, or reads it."""

    def __init__(self, store: TableStore) -> None:
        self.store = store

    def create(
        self,
        table_id: str,
        game: Game,
        settings: TableSettings,
        *,
        master: str | None = CONSOLE,
        status: Status = Status.FORMING,
        replace: bool = False,
    ) -> Table:
        """Keep a new table for ``game`` under ``table_id``."""
        if not replace and self.store.exists(table_id):
            raise GameError(f"a game is already kept as {table_id}: choose another name, or replace it")
        table = Table.new(table_id, game, settings, master=master, status=status)
        self.store.save(table)
        return table

    def open(self, table_id: str) -> Table:
        return self.store.load(table_id)

    @contextmanager
    def change(self, table_id: str) -> Iterator[Table]:
        """Open a table to change it; it is saved if the block ends without an error."""
        table = self.store.load(table_id)
        yield table
        self.store.save(table)


class GameService:
    """Games by id, in one store, each run as a postal game by the game master at the
    console: the game alone, for scripts and bots (a table's rules are :class:`Tables`')."""

    def __init__(self, store: TableStore) -> None:
        self.store = store

    def create(
        self, game_id: str, preset: str, options: Mapping[str, Any] | None = None, *, replace: bool = False
    ) -> Game:
        """Start a new game of ``preset`` with option overrides and keep it under ``game_id``
        (the options are a mapping, so no option's name can collide with these parameters)."""
        if not replace and self.store.exists(game_id):
            raise GameError(f"a game is already kept as {game_id}: choose another name, or replace it")
        game = Game(Game.create(preset, **dict(options or {})).record, game_id)
        settings = TableSettings.for_game(game, postal=True, accept_leaks=True)
        self.store.save(Table.new(game_id, game, settings, master=CONSOLE, status=Status.ACTIVE))
        return game

    def open(self, game_id: str) -> Game:
        return self.store.load(game_id).game

    def save(self, game_id: str, game: Game) -> None:
        if self.store.exists(game_id):
            table = self.store.load(game_id)
            table.game = game
        else:
            settings = TableSettings.for_game(game, postal=True, accept_leaks=True)
            table = Table.new(game_id, game, settings, master=CONSOLE, status=Status.ACTIVE)
        self.store.save(table)

    @contextmanager
    def change(self, game_id: str) -> Iterator[Game]:
        """Open a game to change it; it is saved if the block ends without an error."""
        table = self.store.load(game_id)
        yield table.game
        self.store.save(table)


__all__ = ["GameService", "Tables"]
