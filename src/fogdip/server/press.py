"""Press: messages between the powers of a game, under its press mode, stored durably, each
delivered to its recipients' streams and counted unread until read.

What a player receives of a message is what the mode lets it know: in ``white`` and ``public``
press the sending power and every recipient; in ``grey`` and ``gunboat`` press nobody; in
``black`` press the sender the message claims (only the game master sees the real one). In
the anonymous modes a recipient of a message not sent to all is told only that it was sent to
it: the other recipients would name the sender by elimination. No message carries an
account name or a timestamp, and a player's messages are numbered in its own list, so it
cannot count the messages it was not sent.

Observers read the messages sent to all, as players do. With adjacency-limited press
(``press_range`` ``adjacent``) a power writes only to powers whose units its latest report
shows next to its own, and never to all.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import Query
from sqlalchemy.orm import Session

from fogdip.codec.api import MessageIn, MessageOut, MessagesOut, ReadIn
from fogdip.codec.observations import observation_from_json
from fogdip.game import Game
from fogdip.server.auth import Caller, Server, SignedIn
from fogdip.server.errors import ERROR_RESPONSES, bad_request, conflict, forbidden
from fogdip.server.events import publish
from fogdip.server.members import Member, find_game
from fogdip.server.models import GameRow, Message, Seat
from fogdip.server.queries import ALL, statements
from fogdip.server.routing import Router
from fogdip.server.turns import now

router = Router(prefix="/api/v1/games", tags=["press"], responses=ERROR_RESPONSES)

#: Modes whose messages show their sending power; that hide it.
_SIGNED = frozenset({"white", "public"})


def _member(session: Session, game_id: str, caller: Caller) -> tuple[GameRow, list[Seat], Member]:
    """The game, its seats and the caller's part in it; 404 for a private game's outsiders,
    whether it exists or not."""
    row, seats, member = find_game(session, game_id, caller)
    if member.role == "none":
        raise forbidden("only the game's members read its press: join it, or watch it (POST .../observe)")
    return row, seats, member


def in_range(game: Game, power: str) -> list[str]:
    """The powers ``power`` may write to under adjacency-limited press: those whose units its
    latest report shows next to one of its own units. Only what ``power`` knows decides it,
    so a refusal tells it nothing it did not know."""
    latest = observation_from_json(game.report_documents(power)[-1], f"{power}'s latest report")
    board = game.position.state.board
    own = [unit.province for unit in game.position.state.units.values() if unit.power == power]
    near = set().union(*(board.adjacent_provinces(province) for province in own)) if own else set()
    return sorted(
        {
            unit.owner
            for unit in latest.units
            if unit.owner is not None and unit.owner != power and not unit.dislodged and unit.province in near
        }
    )


def _visible(session: Session, game_id: str, member: Member) -> list[Message]:
    """The messages the member may read, in order: every one for the game master, those to
    all for an observer, and a player's own and those sent to it (chosen by the database)."""
    prepared = statements()
    if member.role == "master":
        return list(session.execute(prepared.messages_all, {"game": game_id}).scalars())
    if member.role == "observer" or member.power is None:
        return list(session.execute(prepared.messages_public, {"game": game_id}).scalars())
    found = session.execute(prepared.messages_of_power, {"game": game_id, "power": member.power}).scalars()
    # The database's LIKE matched the power among the recipients; checked exactly here.
    power = member.power
    return [m for m in found if m.sender == power or m.recipients == ALL or power in m.recipients.split(",")]


def _shown(message: Message, index: int, member: Member, press: str) -> MessageOut:
    to: list[str] | Literal["all"] = "all" if message.recipients == ALL else message.recipients.split(",")
    power = member.power
    if power is not None and message.sender != power and press not in _SIGNED and to != "all":
        # Who else a message went to would name its sender by elimination (the sender is never
        # among its recipients): in anonymous press a recipient is told only that it got it.
        to = [power]
    if member.role == "master":  # the game master sees who really sent it
        sender: str | None = message.sender
    elif message.sender == power:
        sender = power
    elif press in _SIGNED:
        sender = message.sender
    elif press == "black":
        sender = message.shown_as
    else:
        sender = None
    return MessageOut(
        index=index, turn=message.turn, to=to, sender=sender, yours=message.sender == power, body=message.body
    )


@router.post("/{game_id}/messages", status_code=201, response_model=MessageOut, summary="Send a message")
def send(game_id: str, body: MessageIn, state: Server, caller: SignedIn) -> MessageOut:
    with state.db.transaction() as session:
        row, seats, member = _member(session, game_id, caller)
        power = member.power
        if power is None:
            raise forbidden("only players write press")
        press = row.press
        if press == "none":
            raise forbidden("this game has no press")
        if row.status == "finished":
            raise conflict("the game is over")
        powers = {seat.power for seat in seats}
        game = state.games.reading(session, row, seats)
        reach = in_range(game, power) if row.press_range == "adjacent" else sorted(powers - {power})
        if body.to == "all":
            if row.press_range == "adjacent":
                raise forbidden(
                    "press is limited to powers whose units you see next to yours: name them "
                    f"({', '.join(reach) or 'none now'})"
                )
            recipients = ALL
        else:
            wanted = sorted({name.strip().upper() for name in body.to} - {power})
            unknown = [name for name in wanted if name not in powers]
            if unknown or not wanted:
                raise bad_request(
                    f"send to 'all' or to other powers of this game ({', '.join(sorted(powers - {power}))}), "
                    f"not {', '.join(unknown) or 'yourself'}",
                    "bad-recipients",
                )
            if press == "public":
                raise forbidden("this game's press is public: send to 'all'")
            beyond = [name for name in wanted if name not in reach]
            if beyond:
                raise forbidden(
                    f"press is limited to powers whose units you see next to yours; not {', '.join(beyond)} "
                    f"(you may write to {', '.join(reach) or 'nobody now'})"
                )
            recipients = ",".join(wanted)
        claim = None
        if body.claim is not None:
            if press != "black":
                raise bad_request("only black press lets a message claim a sender", "no-claim")
            claim = body.claim.strip().upper()
            if claim not in powers:
                raise bad_request(f"a message can claim to come from a power of this game, not {claim}", "no-claim")
        message = Message(
            game_id=game_id,
            turn=game.turn,
            sender=power,
            shown_as=claim,
            recipients=recipients,
            body=body.body,
            created_at=now(),
        )
        session.add(message)
        session.flush()
        audience = None if recipients == ALL else [power, *recipients.split(",")]
        publish(session, game_id, "message", message.turn, audience)
        mine = _visible(session, game_id, member)
        return _shown(message, len(mine), member, press)


@router.get("/{game_id}/messages", response_model=MessagesOut, summary="Your messages, and how many are unread")
def read_messages(
    game_id: str,
    state: Server,
    caller: SignedIn,
    since: Annotated[int, Query(ge=0, description="only those after this index")] = 0,
) -> MessagesOut:
    with state.db.reading() as session:
        row, seats, member = _member(session, game_id, caller)
        mine = _visible(session, game_id, member)
        seat = next((s for s in seats if s.power == member.power), None)
        read = seat.read if seat is not None else len(mine)
        shown = [_shown(m, i, member, row.press) for i, m in enumerate(mine, 1) if i > since]
        return MessagesOut(messages=shown, unread=max(len(mine) - read, 0))


@router.post("/{game_id}/messages/read", response_model=MessagesOut, summary="Mark messages read, up to an index")
def mark_read(game_id: str, body: ReadIn, state: Server, caller: SignedIn) -> MessagesOut:
    with state.db.transaction() as session:
        _row, seats, member = _member(session, game_id, caller)
        seat = next((s for s in seats if s.power == member.power), None)
        if seat is None:
            raise forbidden("only players keep count of what they have read")
        total = len(_visible(session, game_id, member))
        seat.read = max(seat.read, min(body.up_to, total))
        return MessagesOut(messages=[], unread=total - seat.read)
