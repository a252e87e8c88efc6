"""Games as a service: create, file, adjudicate and view games kept in any store.

>>> from fogdip.game import GameService, MemoryStore
>>> GameService(MemoryStore()).create("g1", "sighting").turn
'S1901M'
"""

from fogdip.game.service import Game, GameError, GameService, MasterView, PowerView
from fogdip.game.store import FileStore, GameNotFound, GameStore, MemoryStore

__all__ = [
    "FileStore",
    "Game",
    "GameError",
    "GameNotFound",
    "GameService",
    "GameStore",
    "MasterView",
    "MemoryStore",
    "PowerView",
]
