"""Seats played by mail, on the web: the game master invites a mail player by address from the
console, and a player (or the game master) has its seat (its game) by mail too, from its own
page. Both are the API's rules (:mod:`fogdip.server.mail_seats`); the e-mail judge, where it
runs, mails the welcome with the seat's address at the judge.

A mail player's address is shown to the game master (on the console) and to that player (on
its own page) only: never in another member's page, and never the seat's secret, which only
the judge's mail carries.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Form, Request
from fastapi.responses import Response
from sqlalchemy import select
from sqlalchemy.orm import Session

from fogdip.game import Actor, Role, Table
from fogdip.server.auth import Server
from fogdip.server.mail_seats import invite_by_mail, switch_to_mail
from fogdip.server.models import MAIL_MASTER, MailPlayer
from fogdip.server.routing import Router
from fogdip.server.store import SqlStore, now
from fogdip.web.forms import Csrf, change_stored

router = Router(include_in_schema=False)


def mail_addresses(session: Session, game_id: str) -> dict[str, str]:
    """Each seat played by mail (and :data:`MAIL_MASTER`, the game master's mail): the address
    its mails go to. For the game master's eyes only."""
    rows = session.execute(select(MailPlayer.power, MailPlayer.address).where(MailPlayer.game_id == game_id))
    return {power: address for power, address in rows}


def own_mail(session: Session, table: Table, who: Actor) -> str | None:
    """Where ``who``'s own seat's mails go (the game master's: the game's), if it has them by
    mail; ``None`` for anyone else (an observer, a visitor)."""
    if who.account is None or not who.account.isdigit():
        return None
    member = table.visible(who)
    power = MAIL_MASTER if member.role is Role.MASTER else member.power if member.is_player else None
    if power is None:
        return None
    found = session.execute(
        select(MailPlayer.address).where(
            MailPlayer.game_id == table.id, MailPlayer.power == power, MailPlayer.user_id == int(who.account)
        )
    ).scalar_one_or_none()
    return None if found is None else str(found)


@router.post("/games/{game_id}/mail-players")
def invite_mail_player(
    game_id: str,
    request: Request,
    state: Server,
    csrf: Csrf,
    address: Annotated[str, Form(max_length=254)] = "",
    power: Annotated[str, Form(max_length=40)] = "",
) -> Response:
    """The game master seats a mail player at ``power`` (empty: any free seat) by address."""
    moment = now()

    def rule(store: SqlStore, table: Table, who: Any) -> None:
        invite_by_mail(store.session, table, who, power or None, address, moment)

    return change_stored(request, state, csrf, game_id, rule)


@router.post("/games/{game_id}/by-mail")
def play_by_mail(
    game_id: str, request: Request, state: Server, csrf: Csrf, address: Annotated[str, Form(max_length=254)] = ""
) -> Response:
    """A player has its seat by mail too (the game master, its game): its mails go to
    ``address``, and the judge mails it its address at the judge."""
    moment = now()

    def rule(store: SqlStore, table: Table, who: Any) -> None:
        switch_to_mail(store.session, table, who, address, moment)

    return change_stored(request, state, csrf, game_id, rule)


__all__ = ["mail_addresses", "own_mail", "router"]
