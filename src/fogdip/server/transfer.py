"""Games in and out of the server: a ``fogdip gm`` game file imported, and a game exported as
its game file or as MILA's saved game (the game master's; every member's once a game whose
variant reveals everything is over)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Query

from fogdip.codec.api import GameOut, ImportIn
from fogdip.codec.gamefiles import GameFileError, game_from_json, game_to_json
from fogdip.engine.errors import FogdipError
from fogdip.game import Game, Refusal, Status, Table, TableSettings
from fogdip.game.exports import mila_saved_game
from fogdip.game.pages import may_export, page
from fogdip.maps import master_scene_of, power_scene_of
from fogdip.server.auth import Server, SignedIn
from fogdip.server.errors import ERROR_RESPONSES
from fogdip.server.games import keep, new_id
from fogdip.server.routing import Router, in_lane
from fogdip.server.security import new_secret
from fogdip.server.tables import actor, game_out, reading

router = Router(prefix="/api/v1/games", tags=["games"], responses=ERROR_RESPONSES)

#: The lane imports run in, one at a time (:class:`fogdip.server.routing.Lanes`): checking a
#: whole game file takes nearly half a second of the interpreter, and a few at once on the
#: request workers would hold up every other request.
IMPORTS = "imports"


@router.post(
    "/import",
    status_code=201,
    response_model=GameOut,
    summary="Bring a 'fogdip gm' game file into the server; you are its game master",
)
@in_lane(IMPORTS)
def import_game(body: ImportIn, state: Server, caller: SignedIn) -> GameOut:
    try:
        game = Game(game_from_json(body.game, "the game file"), "the imported game")
    except (FogdipError, GameFileError) as exc:
        # The file is the importer's own: its faults may be described to it in full.
        raise Refusal.bad_request(str(exc), "bad-game-file") from None
    _check_whole(game)
    started = bool(len(game.record.history))
    status = Status.FINISHED if game.position.completed else Status.ACTIVE if started else Status.FORMING
    # A game file's options were chosen where it was made, and its game has been played so.
    settings = TableSettings.for_game(
        game, name=body.name or f"imported {game.variant.name} game", private=body.private, accept_leaks=True
    )
    table = keep(
        state, Table.new(new_id(), game, settings, master=str(caller.user_id), status=status, invite=new_secret()[:24])
    )
    return game_out(page(table, actor(caller)))


def _check_whole(game: Game) -> None:
    """Use every part of an imported game once, now: each power's view and maps, every turn
    on the game master's map, the MILA export and the next turn played on a copy. A part that
    is damaged would otherwise fail later, for whoever asks."""
    try:
        for power in game.powers:
            game.view(power)
            power_scene_of(game, power)
        for played in game.record.history:
            master_scene_of(game, played.turn)
        mila_saved_game(game, "import")
        if not game.position.completed:
            Game(game.record.copy()).adjudicate()
    except (FogdipError, GameFileError) as exc:
        raise Refusal.bad_request(str(exc), "bad-game-file") from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise Refusal.bad_request(
            f"the game file is damaged: a part of it is not as fogdip writes it ({type(exc).__name__}); "
            "export it again from where it was made",
            "bad-game-file",
        ) from None


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
    if format not in ("fogdip", "mila"):
        raise Refusal.bad_request(f"export as fogdip or mila, not {format!r}", "bad-format")
    with reading(state, caller, game_id) as (_store, table):
        may_export(table, actor(caller))
        if format == "mila":
            return mila_saved_game(table.game, game_id)
        # The game itself: its table (who played which seat, the press) stays on the server.
        return game_to_json(table.game.record)
