"""Where games are kept: a small repository interface, and the stores fogdip ships.

A store keeps each game's record under an id and gives back a fresh copy on every load, so a
game changed and not saved changes nothing, and two games never share a value. ``fogdip gm``
uses :class:`FileStore` (one game file per game); tests and bots use :class:`MemoryStore`;
the server plugs in a database behind the same three methods.

>>> from fogdip.variants import Variant
>>> from fogdip.variants.record import GameRecord
>>> store = MemoryStore()
>>> variant = Variant.named("standard")
>>> store.save("g1", GameRecord(variant, variant.start()))
>>> store.exists("g1"), store.load("g1").position.name
(True, 'S1901M')
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Protocol

from fogdip.codec.gamefiles import GameFileError, game_from_json, game_to_json
from fogdip.engine.errors import FogdipError
from fogdip.variants.record import GameRecord


class GameNotFound(FogdipError):
    """No game is kept under the id asked for."""


class GameStore(Protocol):
    """Keeps game records by id. ``load`` raises :class:`GameNotFound` for an unknown id and
    :class:`fogdip.codec.gamefiles.GameFileError` for a damaged record."""

    def exists(self, game_id: str) -> bool: ...

    def load(self, game_id: str) -> GameRecord: ...

    def save(self, game_id: str, record: GameRecord) -> None: ...


class MemoryStore:
    """Games kept in this process as their game-file JSON: every load reads it afresh."""

    def __init__(self) -> None:
        self._games: dict[str, str] = {}

    def exists(self, game_id: str) -> bool:
        return game_id in self._games

    def load(self, game_id: str) -> GameRecord:
        if game_id not in self._games:
            raise GameNotFound(f"no game {game_id!r}")
        return game_from_json(json.loads(self._games[game_id]), f"game {game_id!r}")

    def save(self, game_id: str, record: GameRecord) -> None:
        self._games[game_id] = json.dumps(game_to_json(record), sort_keys=True)


class FileStore:
    """One game file per game; the id is the file's path (relative to ``root``, if given).

    Writes are atomic: a temporary file in the same directory, flushed to disk, then renamed
    over the old one, so a crash leaves either the old game or the new one, never a torn file.
    """

    def __init__(self, root: Path | None = None) -> None:
        self.root = root

    def path(self, game_id: str) -> Path:
        return Path(game_id) if self.root is None else self.root / game_id

    def exists(self, game_id: str) -> bool:
        return self.path(game_id).exists()

    def load(self, game_id: str) -> GameRecord:
        path = self.path(game_id)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise GameNotFound(
                f"no game file at {path}: start one with 'fogdip gm new --variant NAME {path}'"
            ) from None
        except OSError as exc:
            raise GameFileError(f"cannot read {path}: {exc.strerror}") from None
        return game_from_json(_json(text, path), str(path))

    def save(self, game_id: str, record: GameRecord) -> None:
        _write_atomically(self.path(game_id), json.dumps(game_to_json(record), indent=1, sort_keys=True) + "\n")


def _json(text: str, path: Path) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise GameFileError(f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}") from None


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


__all__ = ["FileStore", "GameNotFound", "GameStore", "MemoryStore"]
