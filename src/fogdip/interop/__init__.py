"""Reading and writing games in other formats: MILA/Cicero saved games and fogdip's records."""

from fogdip.interop.mila import (
    SavedGame,
    game_from_data,
    load_fogdip_game,
    load_game,
    load_saved_game,
    saved_game_from_phases,
    to_fogdip_game,
    to_saved_game,
)

__all__ = [
    "SavedGame",
    "game_from_data",
    "load_fogdip_game",
    "load_game",
    "load_saved_game",
    "saved_game_from_phases",
    "to_fogdip_game",
    "to_saved_game",
]
