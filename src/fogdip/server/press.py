"""Press over HTTP: messages between the powers of a game, under its press mode, stored
durably in the transaction that acknowledges them, each delivered to its recipients' streams
and counted unread until read. What may be sent, and what each member is shown of a message,
are the table's rules (:mod:`fogdip.game.press`); a member's messages are read through its own
list, so reading them takes what that list holds, whatever others write to each other.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Query

from fogdip.codec.api import MessageIn, MessageOut, MessagesOut, ReadIn
from fogdip.game import Table
from fogdip.game.press import Message, Shown, shown, unread
from fogdip.game.seats import Member
from fogdip.server.auth import Server, SignedIn
from fogdip.server.errors import ERROR_RESPONSES
from fogdip.server.routing import Router
from fogdip.server.store import SqlStore
from fogdip.server.tables import actor, changing, reading

router = Router(prefix="/api/v1/games", tags=["press"], responses=ERROR_RESPONSES)


def _out(item: Shown) -> MessageOut:
    return MessageOut(
        index=item.index,
        turn=item.turn,
        to="all" if item.to is None else list(item.to),
        sender=item.sender,
        yours=item.yours,
        body=item.body,
    )


def _listed(store: SqlStore, table: Table, member: Member) -> list[Shown]:
    messages: list[Message] = store.messages(table, member)
    return [shown(message, index, member, table.settings.press) for index, message in enumerate(messages, 1)]


@router.post("/{game_id}/messages", status_code=201, response_model=MessageOut, summary="Send a message")
def send(game_id: str, body: MessageIn, state: Server, caller: SignedIn) -> MessageOut:
    with changing(state, caller, game_id) as (store, table):
        message = table.send(actor(caller), body.to, body.body, body.claim)
        member = table.member(actor(caller))
        store.save(table)
        listed = store.messages(table, member)
    return _out(shown(message, len(listed), member, table.settings.press))


@router.get("/{game_id}/messages", response_model=MessagesOut, summary="Your messages, and how many are unread")
def read_messages(
    game_id: str,
    state: Server,
    caller: SignedIn,
    since: Annotated[int, Query(ge=0, description="only those after this index")] = 0,
) -> MessagesOut:
    with reading(state, caller, game_id) as (store, table):
        member = table.reader(actor(caller))
        listed = _listed(store, table, member)
    read = table.seat(member.power).read if member.power is not None else len(listed)
    return MessagesOut(messages=[_out(item) for item in listed if item.index > since], unread=unread(listed, read))


@router.post("/{game_id}/messages/read", response_model=MessagesOut, summary="Mark messages read, up to an index")
def mark_read(game_id: str, body: ReadIn, state: Server, caller: SignedIn) -> MessagesOut:
    with changing(state, caller, game_id) as (store, table):
        member = table.reader(actor(caller))
        listed = _listed(store, table, member)
        seat = table.mark_read(actor(caller), body.up_to, len(listed))
        return MessagesOut(messages=[], unread=unread(listed, seat.read))
