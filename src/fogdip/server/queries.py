"""The statements every request runs, built once with bound parameters: building a SQLAlchemy
statement costs more than SQLite takes to run it, and these run on every request (who is
asking, the game and its seats, a member's messages).

>>> sql = str(statements().seats)
>>> "FROM seats" in sql and ":game" in sql
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from sqlalchemy import BindParameter, Executable, String, bindparam, exists, literal, or_, select

from fogdip.server.models import ApiToken, GameRow, Message, Observer, Seat, Session, User

#: What a message's ``recipients`` holds when it went to all.
ALL = "*"


@dataclass(frozen=True)
class Statements:
    """Prepared statements; the names of their parameters are given with each."""

    #: ``digest``: the account of a live API token: id, name, is_admin.
    token_caller: Executable
    #: ``digest``: the account of a session: id, name, is_admin, the CSRF token, expiry.
    session_caller: Executable
    #: ``game``, ``user``: the game, if the user may see it (open, or a member of it).
    visible_game: Executable
    #: ``game``, ``user``: the same, its row locked for a change.
    visible_game_locked: Executable
    #: ``game``, ``user``, ``invite``: the game, if the user may see it or gives its invitation.
    invited_game: Executable
    #: ``game``, ``user``, ``invite``: the same, locked.
    invited_game_locked: Executable
    #: ``game``: its seats, by power.
    seats: Executable
    #: ``game``, ``user``: whether the user watches the game.
    watching: Executable
    #: ``game``: every message, in order (the game master's).
    messages_all: Executable
    #: ``game``: the messages to all, in order (an observer's).
    messages_public: Executable
    #: ``game``, ``power``: a power's own messages and those to it, in order.
    messages_of_power: Executable


def _visible_to_user() -> Any:
    user: BindParameter[int] = bindparam("user")
    seated = exists().where(Seat.game_id == GameRow.id, Seat.user_id == user)
    watching = exists().where(Observer.game_id == GameRow.id, Observer.user_id == user)
    return or_(GameRow.private.is_(False), GameRow.master_id == user, seated, watching)


@cache
def statements() -> Statements:
    """The statements, built on first use (immutable: one set for the process)."""
    digest: BindParameter[str] = bindparam("digest")
    game: BindParameter[str] = bindparam("game")
    visible = select(GameRow).where(GameRow.id == game, _visible_to_user())
    invited = select(GameRow).where(GameRow.id == game, or_(_visible_to_user(), GameRow.invite == bindparam("invite")))
    messages = select(Message).where(Message.game_id == game).order_by(Message.id)
    # A power is among a message's recipients: the comma-separated list, bracketed by commas.
    listed = (literal(",") + Message.recipients + literal(",")).contains(
        literal(",") + bindparam("power", type_=String) + literal(",")
    )
    return Statements(
        token_caller=select(User.id, User.name, User.is_admin)
        .join(ApiToken, ApiToken.user_id == User.id)
        .where(ApiToken.token_hash == digest, ApiToken.revoked_at.is_(None)),
        session_caller=select(User.id, User.name, User.is_admin, Session.csrf_token, Session.expires_at)
        .join(Session, Session.user_id == User.id)
        .where(Session.secret_hash == digest),
        visible_game=visible,
        visible_game_locked=visible.with_for_update(),
        invited_game=invited,
        invited_game_locked=invited.with_for_update(),
        seats=select(Seat).where(Seat.game_id == game).order_by(Seat.power),
        watching=select(Observer.id).where(Observer.game_id == game, Observer.user_id == bindparam("user")),
        messages_all=messages,
        messages_public=messages.where(Message.recipients == ALL),
        messages_of_power=messages.where(
            or_(Message.recipients == ALL, Message.sender == bindparam("power", type_=String), listed)
        ),
    )
