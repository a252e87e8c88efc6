"""A running game's life: the game master pauses and resumes it and extends its deadline; the
players end it early by a unanimous vote for a draw.

Draw votes are ``open`` (every member sees which powers vote for one) or ``secret`` (each
player sees only its own vote; everyone is told the result). A game whose variant hides
things is secret by default. Every power still in the game must vote for the draw; a bot's
seat goes with the players, and an empty seat never votes. In a gunboat game (which nobody
may tell the bot's seats in) the bot votes only as the game master casts its votes (the same
call, by the game master): counted for every draw, a player's lone vote ending the game would
tell it that every other seat is the bot's. A vote stands until it is taken back, across turns.
"""

from __future__ import annotations

from datetime import timedelta

from fogdip.codec.api import DrawIn, ExtendIn, GameOut
from fogdip.server.auth import Server, SignedIn
from fogdip.server.errors import ERROR_RESPONSES, conflict, forbidden
from fogdip.server.events import publish
from fogdip.server.members import Member, find_game, game_out, master_game
from fogdip.server.routing import Router
from fogdip.server.turns import GameCache, bots_hidden, now, publish_deadline, save, schedule

router = Router(prefix="/api/v1/games", tags=["games"], responses=ERROR_RESPONSES)


@router.post("/{game_id}/pause", response_model=GameOut, summary="Pause the game: its deadline stops (game master)")
def pause(game_id: str, state: Server, caller: SignedIn) -> GameOut:
    with state.db.transaction() as session:
        row, seats = master_game(session, game_id, caller, lock=True)
        if row.status != "active":
            raise conflict(f"the game is {row.status}, not active")
        row.status = "paused"
        if row.deadline_at is not None:
            row.paused_left = max((row.deadline_at - now()).total_seconds(), 0.0)
        row.deadline_at = None
        publish_deadline(session, row)
        return game_out(row, seats, Member("master"))


@router.post("/{game_id}/resume", response_model=GameOut, summary="Resume a paused game (game master)")
def resume(game_id: str, state: Server, caller: SignedIn) -> GameOut:
    with state.db.transaction() as session:
        row, seats = master_game(session, game_id, caller, lock=True)
        if row.status != "paused":
            raise conflict(f"the game is {row.status}, not paused")
        row.status = "active"
        if row.paused_left is not None:
            row.deadline_at = now() + timedelta(seconds=row.paused_left)
        else:
            schedule(row)
        row.paused_left = None
        publish_deadline(session, row)
        return game_out(row, seats, Member("master"))


@router.post("/{game_id}/extend", response_model=GameOut, summary="Extend the current deadline (game master)")
def extend(game_id: str, body: ExtendIn, state: Server, caller: SignedIn) -> GameOut:
    with state.db.transaction() as session:
        row, seats = master_game(session, game_id, caller, lock=True)
        if row.deadline_at is None:
            raise conflict("the game has no deadline running to extend")
        row.deadline_at = row.deadline_at + timedelta(seconds=body.seconds)
        publish_deadline(session, row)
        return game_out(row, seats, Member("master"))


@router.post(
    "/{game_id}/draw",
    response_model=GameOut,
    summary="Vote for a draw among the powers still in the game (or take the vote back); unanimous ends the game",
)
def vote_draw(game_id: str, body: DrawIn, state: Server, caller: SignedIn) -> GameOut:
    with state.db.transaction() as session:
        row, seats, member = find_game(session, game_id, caller, lock=True)
        if member.role == "player":
            voting = [seat for seat in seats if seat.power == member.power]
        elif member.role == "master" and any(seat.bot for seat in seats):
            voting = [seat for seat in seats if seat.bot]  # the game master votes for the bot
        else:
            raise forbidden("only a player votes for a draw (and the game master, for the bot's seats)")
        if row.status not in ("active", "paused"):
            raise conflict(f"the game is {row.status}: draws are voted in a game under way")
        game = GameCache.changing(row, seats)
        position = game.position
        still_in = [seat for seat in seats if position.setup_pending or not position.state.is_eliminated(seat.power)]
        if member.role == "player" and voting[0] not in still_in:
            raise conflict("your power is out of the game: the powers still in it vote")
        changed = any(seat.draw != body.vote for seat in voting)
        for seat in voting:
            seat.draw = body.vote
        # The bot goes with the players, unless nobody may tell its seats (gunboat): then it
        # votes as the game master casts its votes.
        bots_agree = not bots_hidden(row, seats)
        if body.vote and all(
            (seat.bot and (bots_agree or seat.draw)) or (seat.user_id is not None and seat.draw) for seat in still_in
        ):
            game.agree_draw(seat.power for seat in still_in)
            save(session, row, game, seats)
            publish(session, row.id, "phase", game.turn)
        elif changed and row.draw_votes == "open" and member.role == "player":
            votes = sorted(seat.power for seat in seats if seat.draw and not seat.bot)
            publish(session, row.id, "votes", game.turn, detail={"votes": votes})
        return game_out(row, seats, member)
