"""Seats played by mail: the game master invites a mail player by address (the table's
``join`` decides, as for anyone joining), and a web player, or the game master, has the game
by mail too. Each gets a secret of its own, which makes its address at the e-mail judge
(``<game>-<power>-<secret>@<domain>``); the address's secret, never a mail's ``From:``,
says who is writing. The server keeps the rows; the judge (``fogdip.mail``) queues the
welcome and the turns' mails, in the transaction that seats the player where it runs in the
same process, else as soon as it next looks (:data:`fogdip.server.store.GAMES_CHANGED`).

>>> checked_address("ann@example.org")
'ann@example.org'
"""

from __future__ import annotations

import random
import re
import secrets
from datetime import datetime

from pydantic import BaseModel, Field
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from fogdip.game import Actor, Refusal, Table
from fogdip.game.settings import Role
from fogdip.server.auth import Server, SignedIn
from fogdip.server.errors import ERROR_RESPONSES
from fogdip.server.models import MAIL_MASTER, Delivery, GameRow, MailPlayer, User
from fogdip.server.routing import Router
from fogdip.server.security import mail_secret
from fogdip.server.store import changed_game, now
from fogdip.server.tables import actor, changing

router = Router(prefix="/api/v1/games", tags=["mail"], responses=ERROR_RESPONSES)

#: An address as a person gives it: a plain local part (RFC 5322's atom characters and dots),
#: one ``@``, a dotted domain (ASCII: no control character, no quoting, nothing to mislead).
_ADDRESS = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9.-]{1,189}\.[A-Za-z0-9-]{2,63}$")


def checked_address(address: str) -> str:
    """``address`` stripped, if it is one a mail can go to; else a refusal saying so.

    >>> checked_address(" Ann@Example.org ")
    'Ann@Example.org'
    >>> checked_address("a\\x00b@example.org")
    Traceback (most recent call last):
    ...
    fogdip.game.refusals.Refusal: 'a\\x00b@example.org' is not an e-mail address: give one like name@example.org
    """
    address = address.strip()
    if not _ADDRESS.match(address):
        raise Refusal.bad_request(f"{address!r} is not an e-mail address: give one like name@example.org")
    return address


def mail_account(session: Session, moment: datetime) -> User:
    """An account for a mail player with no web account: nobody can sign in to it (its
    password hash is none Argon2 makes), its name one no sign-up may take."""
    name = f"~mail-{secrets.token_hex(8)}"
    user = User(name=name, name_key=name, password_hash="!", is_admin=False, created_at=moment)
    session.add(user)
    session.flush()
    return user


def seat_by_mail(
    session: Session, table: Table, power: str, user_id: int, address: str, moment: datetime
) -> MailPlayer:
    """The mail row of ``power``'s seat (or :data:`MAIL_MASTER`): a new secret, this address;
    the turns played so far are not mailed (the welcome says where the game stands)."""
    row = session.execute(
        select(MailPlayer).where(MailPlayer.game_id == table.id, MailPlayer.power == power)
    ).scalar_one_or_none()
    played = session.execute(select(GameRow.turns_played).where(GameRow.id == table.id)).scalar_one()
    if row is None:
        row = MailPlayer(game_id=table.id, game_key=table.id.lower(), power=power, created_at=moment)
        session.add(row)
    row.user_id = user_id
    row.address = address
    row.secret = mail_secret()
    row.mailed_turns = played
    # The press already in its list is not mailed (the welcome says where the game stands).
    row.mailed_press = int(
        session.execute(
            select(func.max(Delivery.message_id)).where(Delivery.game_id == table.id, Delivery.reader == power)
        ).scalar_one_or_none()
        or 0
    )
    row.welcomed = False
    row.ended = False
    row.reminded_turn = None
    session.flush()
    changed_game(session, table.id)
    return row


def invite_by_mail(
    session: Session, table: Table, master: Actor, power: str | None, address: str, moment: datetime
) -> MailPlayer:
    """The game master seats a mail player at ``power`` (``None``: a free one at random), as
    the table's ``join`` lets anyone join."""
    table.master_only(master)
    address = checked_address(address)
    user = mail_account(session, moment)
    member = table.join(Actor(str(user.id)), power, table.invite, random.SystemRandom())
    assert member.power is not None
    return seat_by_mail(session, table, member.power, user.id, address, moment)


def switch_to_mail(session: Session, table: Table, who: Actor, address: str, moment: datetime) -> MailPlayer:
    """A player has its seat by mail too (its address gets its mails), or the game master its
    game."""
    member = table.visible(who)
    address = checked_address(address)
    if member.role is Role.MASTER:
        power = MAIL_MASTER
    elif member.is_player and member.power is not None:
        power = member.power
    else:
        raise Refusal.forbidden("only a game's players and its game master have it by mail")
    assert who.account is not None
    return seat_by_mail(session, table, power, int(who.account), address, moment)


class MailPlayerIn(BaseModel):
    power: str | None = Field(default=None, description="the power; none: a free one at random (gunboat: always)")
    address: str = Field(max_length=254, description="the mail player's own e-mail address")


class MailIn(BaseModel):
    address: str = Field(max_length=254, description="your e-mail address, where the game's mails go")


class MailSeatOut(BaseModel):
    power: str | None = Field(description="the power played by mail (none: the game master's mail)")
    address: str = Field(description="where its mails go; its address at the judge comes by mail")


@router.post(
    "/{game_id}/mail-players",
    status_code=201,
    response_model=MailSeatOut,
    summary="Invite a player by e-mail to a seat (game master); it gets its address at the judge by mail",
)
def invite(game_id: str, body: MailPlayerIn, state: Server, caller: SignedIn) -> MailSeatOut:
    moment = now()
    with changing(state, caller, game_id) as (store, table):
        row = invite_by_mail(store.session, table, actor(caller), body.power, body.address, moment)
        return MailSeatOut(power=row.power, address=row.address)


@router.post(
    "/{game_id}/mail",
    response_model=MailSeatOut,
    summary="Have your seat (or, game master, your game) by e-mail too: its mails go to this address",
)
def by_mail(game_id: str, body: MailIn, state: Server, caller: SignedIn) -> MailSeatOut:
    moment = now()
    with changing(state, caller, game_id) as (store, table):
        row = switch_to_mail(store.session, table, actor(caller), body.address, moment)
        return MailSeatOut(power=None if row.power == MAIL_MASTER else row.power, address=row.address)


__all__ = [
    "checked_address",
    "invite_by_mail",
    "mail_account",
    "router",
    "seat_by_mail",
    "switch_to_mail",
]
