"""A running game's life over HTTP: the game master pauses and resumes it and extends its
deadline; the players end it early by a unanimous vote for a draw. The rules are the table's
(:meth:`fogdip.game.Table.pause`, ``resume``, ``extend``, ``vote_draw``)."""

from __future__ import annotations

from fogdip.codec.api import DrawIn, ExtendIn, GameOut
from fogdip.game.pages import page
from fogdip.server.auth import Server, SignedIn
from fogdip.server.errors import ERROR_RESPONSES
from fogdip.server.routing import Router
from fogdip.server.store import now
from fogdip.server.tables import actor, changing, game_out

router = Router(prefix="/api/v1/games", tags=["games"], responses=ERROR_RESPONSES)


@router.post("/{game_id}/pause", response_model=GameOut, summary="Pause the game: its deadline stops (game master)")
def pause(game_id: str, state: Server, caller: SignedIn) -> GameOut:
    moment = now()
    with changing(state, caller, game_id) as (_store, table):
        table.pause(actor(caller), moment)
        return game_out(page(table, actor(caller)))


@router.post("/{game_id}/resume", response_model=GameOut, summary="Resume a paused game (game master)")
def resume(game_id: str, state: Server, caller: SignedIn) -> GameOut:
    moment = now()
    with changing(state, caller, game_id) as (_store, table):
        table.resume(actor(caller), moment)
        return game_out(page(table, actor(caller)))


@router.post("/{game_id}/extend", response_model=GameOut, summary="Extend the current deadline (game master)")
def extend(game_id: str, body: ExtendIn, state: Server, caller: SignedIn) -> GameOut:
    with changing(state, caller, game_id) as (_store, table):
        table.extend(actor(caller), body.seconds)
        return game_out(page(table, actor(caller)))


@router.post(
    "/{game_id}/draw",
    response_model=GameOut,
    summary="Vote for a draw among the powers still in the game (or take the vote back); unanimous ends the game",
)
def vote_draw(game_id: str, body: DrawIn, state: Server, caller: SignedIn) -> GameOut:
    with changing(state, caller, game_id) as (_store, table):
        table.vote_draw(actor(caller), body.vote)
        return game_out(page(table, actor(caller)))
