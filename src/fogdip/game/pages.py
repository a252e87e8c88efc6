"""What each role may see of a table: its page (status, seats, settings, votes, deadline), and
which view and map of the board it is shown.

A member is the game master, a player (of one power) or an observer. What an observer sees is
the game's ``observers`` setting: ``press`` (the page and public press; everything the variant
reveals once the game is over), ``board`` (also the game master's board as it stands, never
what is filed) or ``none`` (the game takes no observers). In a gunboat game no player learns
who plays any other power, nor which powers the bot plays.

>>> from fogdip.game.service import Game
>>> from fogdip.game.settings import TableSettings
>>> game = Game.create("fog-of-war")
>>> table = Table.new("g1", game, TableSettings.for_game(game), master="gm")
>>> page = page_of(table, table.member(Actor("gm")))
>>> page.role, page.turn, len(page.seats)
(<Role.MASTER: 'master'>, 'S1901M', 7)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from fogdip.codec.turns import position_document
from fogdip.game.refusals import Refusal
from fogdip.game.seats import Actor, Member
from fogdip.game.settings import DrawVotes, PressMode, Role, Status, TableSettings
from fogdip.game.summary import Outcome, Summary
from fogdip.game.table import ReadyCount, Table
from fogdip.variants.record import filed_texts


@dataclass(frozen=True)
class SeatShown:
    """A seat as one member may see it: whether it is taken and by the bot (``None``: not
    told), whether it is the member's own, and its own ready mark and draw vote."""

    power: str
    taken: bool | None
    bot: bool
    yours: bool
    ready: bool | None
    draw: bool | None
    #: Which bot, where the seat is shown to be the bot's.
    bot_name: str | None = None


@dataclass(frozen=True)
class Page:
    """A game as one member (or anyone, of an open game) may see it."""

    id: str
    settings: TableSettings
    variant: str
    status: Status
    turn: str
    seats: tuple[SeatShown, ...]
    role: Role
    power: str | None
    invite: str | None
    deadline: datetime | None
    ready: ReadyCount | None
    votes: tuple[str, ...] | None
    outcome: Outcome | None


def outcome_of(table: Table) -> Outcome | None:
    told = table.game.outcome()
    if told is None:
        return None
    return Outcome(told["result"], tuple(told["powers"]), told.get("agreed"), table.game.variant.options.reveal_at_end)


def summary_of(table: Table) -> Summary:
    """The game in brief, for its page: as a store listing games gave it, or from the game."""
    if table.summary is not None:
        return table.summary
    return Summary(table.turn, table.game.variant.name, outcome_of(table))


def page_of(table: Table, member: Member) -> Page:
    """The game's page as ``member`` may see it."""
    master = member.role is Role.MASTER
    # In gunboat press nobody learns which seats the bot plays (a bot is an identity too), nor
    # which seats are taken: they fill as people join and the bot is seated, so the order in
    # which they did would tell one from the other, and whoever knows when someone joined
    # the power that someone plays.
    bots_shown = master or table.settings.press is not PressMode.GUNBOAT
    seats = tuple(
        SeatShown(
            power=seat.power,
            taken=seat.taken if bots_shown or seat.power == member.power else None,
            bot=seat.bot and (bots_shown or seat.power == member.power),
            bot_name=seat.bot_name if seat.bot and (bots_shown or seat.power == member.power) else None,
            yours=seat.power == member.power,
            ready=seat.ready if seat.power == member.power else None,
            draw=seat.draw if seat.power == member.power else None,
        )
        for seat in table.seats
    )
    votes = table.open_votes() if table.settings.draw_votes is DrawVotes.OPEN or master else None
    summary = summary_of(table)
    return Page(
        id=table.id,
        settings=table.settings,
        variant=summary.variant,
        status=table.status,
        turn=summary.turn,
        seats=seats,
        role=member.role,
        power=member.power,
        invite=table.invite if master else None,
        deadline=table.clock.deadline,
        ready=table.ready_told(member),
        votes=votes,
        outcome=summary.outcome,
    )


def page(table: Table, actor: Actor, invite: str | None = None) -> Page:
    """The page ``actor`` may see (the refusal of a game that does not exist, if none)."""
    return page_of(table, table.visible(actor, invite))


class Sight(StrEnum):
    """Which view of the board a member is shown."""

    #: Its power's own: its reports, knowledge and map.
    POWER = "power"
    #: The whole board as it stands, and what is filed (the game master).
    MASTER = "master"
    #: The board as played, never what is filed (observers where allowed; everyone, once a
    #: revealing game is over).
    BOARD = "board"


NO_BOARD = (
    "observers of this game see its page and public press only"
    " (and everything, once the game is over, if its variant reveals it then)"
)


def revealed(table: Table) -> bool:
    """Whether the game is over and its variant revealed everything then."""
    return table.game.position.completed and table.game.variant.options.reveal_at_end


def sight_of(table: Table, actor: Actor) -> tuple[Sight, Member]:
    """Which view of the board ``actor`` is shown, or why none."""
    member = table.visible(actor)
    if member.is_player:
        return Sight.POWER, member
    if member.role is Role.MASTER:
        return Sight.MASTER, member
    if member.role is Role.OBSERVER and (table.settings.observers.value == "board" or revealed(table)):
        return Sight.BOARD, member
    if member.role is Role.OBSERVER:
        raise Refusal.forbidden(NO_BOARD)
    raise Refusal.forbidden("you play no power in this game")


def may_export(table: Table, actor: Actor) -> None:
    """The whole game is the game master's (not a player's, even one who set up its game
    against bots) until it is over, and then every member's if its variant reveals it."""
    member = table.visible(actor)
    if member.role is not Role.MASTER and not (revealed(table) and member.role is not Role.NONE):
        raise Refusal.forbidden(
            "the whole game is the game master's until it is over (and then only where the variant reveals it)"
        )


def master_board(table: Table) -> dict[str, Any]:
    """The game master's view (:meth:`fogdip.game.Game.master_view`): the board as it stands,
    what every seat filed and its state, and the outcome."""
    game = table.game
    view = game.master_view()
    return {
        "next_turn": view.next_turn,
        "position": position_document(view.position, game.variant),
        "status": seat_status(table),
        "filed": {power: list(lines) for power, lines in view.filed.items()},
        "outcome": game.outcome(),
    }


def observer_board(table: Table) -> dict[str, Any]:
    """An observer's view of the board: what is played, never what is filed (an observer
    could tell a player)."""
    game = table.game
    return {
        "next_turn": game.turn,
        "position": position_document(game.position, game.variant),
        "outcome": game.outcome(),
        "revealed_history": game.revealed_history(),
    }


def seat_status(table: Table) -> Mapping[str, str]:
    """Per power, for the game master: who plays it, what it filed, whether it is ready and
    votes for a draw, or that it is out."""
    still_in = table.still_in()
    out = {}
    for seat in table.seats:
        if seat.power not in still_in:
            out[seat.power] = "eliminated"
            continue
        who = (
            "bot"
            if seat.bot
            else "player"
            if seat.player is not None
            else "by post"
            if table.settings.postal
            else "empty"
        )
        lines = table.game.record.filed.get(seat.power)
        filed = "not filed" if lines is None else f"filed {len(filed_texts(lines))} line(s)"
        marks = [mark for mark, on in (("ready", table.is_ready(seat) and not seat.bot), ("draw", seat.draw)) if on]
        out[seat.power] = ", ".join([who, filed, *marks])
    return out


__all__ = [
    "NO_BOARD",
    "Outcome",
    "Page",
    "SeatShown",
    "Sight",
    "master_board",
    "may_export",
    "observer_board",
    "outcome_of",
    "page",
    "page_of",
    "revealed",
    "seat_status",
    "sight_of",
    "summary_of",
]
