"""The server's way of running a table's use case: who is asking, load the table (its row
locked for a change), call its rule, save, answer. The rules are the table's
(:class:`fogdip.game.Table`); what is here is the transaction and the answer's form.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

from fogdip.bots.base import bot_named
from fogdip.codec.api import GameOut, OutcomeOut, ReadyCount, SeatOut
from fogdip.game import Actor, Table
from fogdip.game.pages import Page
from fogdip.game.table import BotPlayer
from fogdip.server.auth import Caller
from fogdip.server.state import ServerState
from fogdip.server.store import SqlStore, actor_of


def actor(caller: Caller | None) -> Actor:
    return actor_of(None if caller is None else caller.user_id)


@contextmanager
def changing(
    state: ServerState, caller: Caller, game_id: str, *, invite: str | None = None
) -> Iterator[tuple[SqlStore, Table]]:
    """The table, its row locked for this transaction, saved (and its members told) if the
    block ends without an error; nothing is kept if it raises."""
    with state.db.transaction() as session:
        store = SqlStore(session, state.reads)
        table = store.find(game_id, caller.user_id, lock=True, invite=invite)
        yield store, table
        store.save(table)


@contextmanager
def reading(state: ServerState, caller: Caller | None, game_id: str) -> Iterator[tuple[SqlStore, Table]]:
    """The table, to read (the same refusal whether it does not exist or is not the caller's
    to see)."""
    with state.db.reading() as session:
        store = SqlStore(session, state.reads)
        yield store, store.find(game_id, None if caller is None else caller.user_id)


def bots() -> tuple[BotPlayer, random.Random]:
    """The bot seats' player and its randomness: the operating system's, never a seed of what a
    player knows (the game, the turn, the power), or its orders could be foretold."""
    return bot_named, random.SystemRandom()


def game_out(page: Page) -> GameOut:
    """The game's page, as the API answers it."""
    outcome = page.outcome
    words = page.settings.words()
    del words["postal"]  # the game master's way of running it; no field of the page
    return GameOut(
        **words,
        id=page.id,
        variant=page.variant,
        status=page.status.value,
        turn=page.turn,
        seats=[
            SeatOut(
                power=s.power,
                taken=s.taken,
                bot=s.bot,
                bot_name=s.bot_name,
                yours=s.yours,
                ready=s.ready,
                draw=s.draw,
            )
            for s in page.seats
        ],
        role=page.role.value,
        power=page.power,
        invite=page.invite,
        deadline=page.deadline,
        ready=None if page.ready is None else ReadyCount(ready=page.ready.ready, of=page.ready.of),
        votes=None if page.votes is None else list(page.votes),
        outcome=None
        if outcome is None
        else OutcomeOut(
            result="solo" if outcome.result == "solo" else "draw",
            powers=list(outcome.powers),
            agreed=outcome.agreed,
            revealed=outcome.revealed,
        ),
    )


__all__ = ["actor", "bots", "changing", "game_out", "reading"]
