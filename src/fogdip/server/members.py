"""Who someone is in a game, what that lets them see of it, and the game's page as they see it.

A member is the game master, a player (of one power) or an observer. Anyone else is told the
same 404 whether the game exists or not, unless the game is open (not private): then its page
is public. What an observer sees is the game's ``observers`` setting: ``press`` (the default:
the page and public press; everything the variant reveals once the game is over), ``board``
(also the game master's board as it stands) or ``none`` (the game takes no observers).

In a gunboat game no player learns who plays any other power, nor which powers the bot plays.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal, cast

from sqlalchemy.orm import Session

from fogdip.codec.api import DrawVotes, GameOut, ObserverView, OutcomeOut, PressRange, ReadyCount, SeatOut
from fogdip.server.auth import Caller
from fogdip.server.errors import forbidden, not_found
from fogdip.server.models import GameRow, Seat
from fogdip.server.queries import statements
from fogdip.server.turns import ready_detail, seats_of

Role = Literal["master", "player", "observer", "none"]

#: How the event hub knows an observer's stream: never the name of a power, so events meant
#: for some powers only never reach it.
OBSERVER = "+observer"


@dataclass(frozen=True)
class Member:
    """The caller's part in one game: its role, and its power if it plays one."""

    role: Role
    power: str | None = None

    @property
    def listener(self) -> str | None:
        """Whom the caller's stream hears for: its power, every event (the game master:
        ``None``) or what every member may hear (an observer)."""
        if self.role == "master":
            return None
        return self.power if self.role == "player" else OBSERVER


def member_of(
    session: Session, row: GameRow, seats: list[Seat], caller: Caller | None, *, watching: bool | None = None
) -> Member:
    """The caller's part in the game. A player's seat comes first: someone who set up a game
    against bots and plays in it sees it as a player. Whether the caller watches the game is
    asked of the database unless ``watching`` says."""
    if caller is None:
        return Member("none")
    for seat in seats:
        if seat.user_id == caller.user_id:
            return Member("player", seat.power)
    if row.master_id == caller.user_id:
        return Member("master")
    if watching is None:
        watching = session.execute(statements().watching, {"game": row.id, "user": caller.user_id}).first() is not None
    if watching and row.observers != "none":
        return Member("observer")
    return Member("none")


def find_game(
    session: Session, game_id: str, caller: Caller | None, *, lock: bool = False, invite: str | None = None
) -> tuple[GameRow, list[Seat], Member]:
    """The game (locked for a change if ``lock``), its seats and the caller's part in it; the
    same 404 whether it exists or not if it is private and the caller is no member (nor gives
    its ``invite``). Whether the caller may see it is one query, so that a private game takes
    no longer to refuse than a game that does not exist."""
    prepared = statements()
    # No account (NULL) is the master, a player or an observer of any game: open games only.
    values: dict[str, object] = {"game": game_id, "user": None if caller is None else caller.user_id}
    if invite is not None:
        query = prepared.invited_game_locked if lock else prepared.invited_game
        values["invite"] = invite
    else:
        query = prepared.visible_game_locked if lock else prepared.visible_game
    row = session.execute(query, values).scalar_one_or_none()
    if row is None:
        raise not_found()
    seats = seats_of(session, game_id)
    return row, seats, member_of(session, row, seats, caller)


def player_game(session: Session, game_id: str, caller: Caller, refusal: str) -> tuple[GameRow, list[Seat], str]:
    """The game, locked for a change, its seats and the caller's power; 403 with ``refusal``
    for a member who plays no power."""
    row, seats, member = find_game(session, game_id, caller, lock=True)
    if member.role != "player" or member.power is None:
        raise forbidden(refusal)
    return row, seats, member.power


def master_game(session: Session, game_id: str, caller: Caller, *, lock: bool) -> tuple[GameRow, list[Seat]]:
    row, seats, member = find_game(session, game_id, caller, lock=lock)
    if member.role != "master":
        raise forbidden("only the game master can do that")
    return row, seats


def sees_board(row: GameRow, member: Member) -> bool:
    """Whether the caller sees the whole board: the game master; an observer of a game that
    shows observers the board; or an observer once the game is over and revealed."""
    if member.role == "master":
        return True
    if member.role != "observer":
        return False
    return row.observers == "board" or (row.status == "finished" and revealed_at_end(row))


def revealed_at_end(row: GameRow) -> bool:
    """Whether the game is over and its variant revealed everything then."""
    return row.outcome is not None and OutcomeOut.model_validate_json(row.outcome).revealed


def game_out(row: GameRow, seats: list[Seat], member: Member) -> GameOut:
    """The game's page as the caller may see it."""
    master = member.role == "master"
    # In gunboat press nobody learns which seats the bot plays (a bot is an identity too), nor
    # which seats are taken: they fill as people join and the bot is seated, so the order in
    # which they did would tell one from the other, and whoever knows when someone joined
    # the power that someone plays.
    bots_shown = master or row.press != "gunboat"
    outcome = OutcomeOut.model_validate_json(row.outcome) if row.outcome else None
    votes = None
    if row.draw_votes == "open" or master:
        votes = sorted(seat.power for seat in seats if seat.draw and not seat.bot)
    return GameOut(
        id=row.id,
        name=row.name,
        preset=row.preset,
        variant=row.variant_name,
        status=row.status,
        turn=row.turn,
        private=row.private,
        seats=[
            SeatOut(
                power=seat.power,
                taken=(seat.user_id is not None or seat.bot) if bots_shown or seat.power == member.power else None,
                bot=seat.bot and (bots_shown or seat.power == member.power),
                yours=seat.power == member.power,
                ready=seat.ready if seat.power == member.power else None,
                draw=seat.draw if seat.power == member.power else None,
            )
            for seat in seats
        ],
        role=member.role,
        power=member.power,
        invite=row.invite if master else None,
        deadlines=json.loads(row.deadlines or "{}"),
        deadline=row.deadline_at,
        press=row.press,
        press_range=cast(PressRange, row.press_range),
        observers=cast(ObserverView, row.observers),
        draw_votes=cast(DrawVotes, row.draw_votes),
        ready_counts=row.ready_counts,
        ready=ReadyCount(**counted) if (counted := ready_detail(row, seats, force=master)) else None,
        votes=votes,
        outcome=outcome,
    )
