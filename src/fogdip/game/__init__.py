"""Games and their tables: the game itself (:class:`Game`), the rules of the table it is
played at (:class:`Table`: seats, settings, readiness, votes, press, deadlines), and the
stores that keep them.

>>> from fogdip.game import GameService, MemoryStore
>>> GameService(MemoryStore()).create("g1", "sighting").turn
'S1901M'
"""

from fogdip.game.events import TableEvent
from fogdip.game.refusals import Refusal, Refused
from fogdip.game.seats import Actor, Member, Seat
from fogdip.game.service import Game, GameError, MasterView, PowerView
from fogdip.game.settings import (
    DrawVotes,
    ObserverView,
    PhaseType,
    PressMode,
    PressRange,
    Role,
    Status,
    TableSettings,
    power_named,
)
from fogdip.game.store import FileStore, GameNotFound, GameStore, MemoryStore, TableStore
from fogdip.game.table import Played, ReadyMarked, Table
from fogdip.game.tables import GameService, Tables

__all__ = [
    "Actor",
    "DrawVotes",
    "FileStore",
    "Game",
    "GameError",
    "GameNotFound",
    "GameService",
    "GameStore",
    "MasterView",
    "Member",
    "MemoryStore",
    "ObserverView",
    "PhaseType",
    "Played",
    "PowerView",
    "PressMode",
    "PressRange",
    "ReadyMarked",
    "Refusal",
    "Refused",
    "Role",
    "Seat",
    "Status",
    "Table",
    "TableEvent",
    "TableSettings",
    "TableStore",
    "Tables",
    "power_named",
]
