"""The server's API as values: every request and response body, as Pydantic models. The server
(:mod:`fogdip.server`) answers with them, :mod:`fogdip.client` reads them back, and
``/docs`` describes them.

>>> GameIn(preset="fog-of-war").private
True
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from fogdip.bots.base import DEFAULT_BOT, bot_names
from fogdip.variants import PRESETS

CSRF_HEADER = "X-CSRF-Token"

#: none; public (to all only, signed); white (signed); grey (anonymous); black (any claimed
#: sender: only the game master sees the real one); gunboat (anonymous, and no player's
#: identity anywhere).
PressMode = Literal["none", "public", "white", "grey", "black", "gunboat"]
#: any: a power writes to any other; adjacent: only to powers it sees a unit of next to its own.
PressRange = Literal["any", "adjacent"]
#: none: the game takes no observers; press: its page and public press (and everything the
#: variant reveals once it is over); board: also the game master's board as it stands.
ObserverView = Literal["none", "press", "board"]
#: open: every member sees which powers vote for a draw; secret: only the result is told.
DrawVotes = Literal["open", "secret"]


class ErrorBody(BaseModel):
    code: str
    message: str


class ErrorOut(BaseModel):
    """Every answer that is not a success."""

    error: ErrorBody


class Credentials(BaseModel):
    name: str = Field(description="3 to 40 letters, digits, '_', '.' or '-', starting with a letter or digit")
    password: str = Field(description="at least 10 characters")


class AccountOut(BaseModel):
    name: str
    is_admin: bool = False


class SessionOut(AccountOut):
    csrf_token: str = Field(description=f"send it back in the {CSRF_HEADER} header with every change")


class TokenIn(BaseModel):
    label: str = Field(default="token", max_length=80)


class TokenOut(BaseModel):
    id: int
    label: str
    created_at: datetime
    revoked: bool
    token: str | None = Field(default=None, description="the token itself: shown once, when it is made")


class PasswordReset(BaseModel):
    name: str
    password: str


class GameIn(BaseModel):
    preset: str = Field(description=f"one of: {', '.join(sorted(PRESETS))}")
    options: dict[str, Any] = Field(
        default_factory=dict, description="option overrides, as 'fogdip variants' lists them"
    )
    name: str = Field(default="", max_length=80)
    private: bool = Field(default=True, description="a private game is joined by its invitation only")
    deadlines: dict[str, float] | None = Field(
        default=None,
        description="seconds per phase type: movement, retreats, adjustments; none: the game master adjudicates",
    )
    press: PressMode | None = Field(default=None, description="the game's press; none: the variant's own")
    press_range: PressRange = Field(
        default="any", description="adjacent: a power writes only to powers it sees a unit of next to its own"
    )
    observers: ObserverView = Field(
        default="press", description="what observers see: none (no observers), press (public press), board"
    )
    draw_votes: DrawVotes | None = Field(
        default=None, description="open or secret draw votes; none: secret under fog or gunboat press, else open"
    )
    ready_counts: bool | None = Field(
        default=None,
        description="whether members are told how many powers are ready; none: yes unless the variant has fog",
    )
    accept_leaks: bool = Field(
        default=False,
        description="options that let the schedule tell every power what happened out of sight are refused "
        "unless this is true",
    )


class SeatOut(BaseModel):
    power: str
    taken: bool | None = Field(
        description="someone (or the bot) plays it; not told to players of a gunboat game, but of their own seat"
    )
    bot: bool = Field(description="the built-in bot plays it (not shown to players in gunboat games)")
    bot_name: str | None = Field(
        default=None,
        description="which bot plays it, where the seat is shown to be the bot's (random, heuristic, search)",
    )
    yours: bool
    ready: bool | None = Field(default=None, description="whether your orders are marked ready (your seat only)")
    draw: bool | None = Field(default=None, description="whether you vote for a draw (your seat only)")


class ReadyCount(BaseModel):
    ready: int = Field(description="seats whose orders are marked ready (the bot's always are)")
    of: int


class OutcomeOut(BaseModel):
    result: Literal["solo", "draw"]
    powers: list[str] = Field(description="the winner, or the powers that share the draw")
    agreed: str | None = Field(default=None, description="a draw agreed by vote: the turn it was agreed before")
    revealed: bool = Field(description="the variant reveals the whole game now: every view shows its history")


class GameOut(BaseModel):
    id: str
    name: str
    preset: str
    variant: str
    status: str
    turn: str
    private: bool
    seats: list[SeatOut]
    role: str = Field(description="what the asker is in this game: master, player, observer, or none")
    power: str | None = Field(default=None, description="the asker's power, if it plays one")
    invite: str | None = Field(default=None, description="the invitation secret: shown to the game master only")
    deadlines: dict[str, float] = Field(default_factory=dict, description="seconds per phase type")
    press: str = Field(default="white", description="the game's press mode")
    deadline: datetime | None = Field(default=None, description="when the current turn is adjudicated at the latest")
    press_range: PressRange = "any"
    observers: ObserverView = "press"
    draw_votes: DrawVotes = "secret"
    ready_counts: bool = False
    ready: ReadyCount | None = Field(default=None, description="how many are ready, where the game tells it")
    votes: list[str] | None = Field(
        default=None, description="the powers voting for a draw, where votes are open (the bot goes with the players)"
    )
    outcome: OutcomeOut | None = Field(default=None, description="how the game ended, once it has")


#: What a bot seat's ``bot`` field says.
_BOT = f"which bot plays: one of {', '.join(bot_names())} (default {DEFAULT_BOT})"


class BotGameIn(BaseModel):
    preset: str = Field(description=f"one of: {', '.join(sorted(PRESETS))}")
    options: dict[str, Any] = Field(
        default_factory=dict, description="option overrides, as 'fogdip variants' lists them"
    )
    power: str | None = Field(default=None, description="the power you play; none: a random one")
    bot: str = Field(default=DEFAULT_BOT, max_length=32, description=_BOT)


class ExtendIn(BaseModel):
    seconds: float = Field(gt=0, le=30 * 86400, description="how much longer the current turn has")


#: Every request that changes what a turn holds names the turn it is for: one sent for a turn
#: played meanwhile is refused (409, code ``stale``) rather than applied to the next.
_TURN = "the turn this is for, as the game shows it (e.g. S1901M); a turn played meanwhile gets a 409"


class ReadyIn(BaseModel):
    ready: bool = True
    turn: str = Field(max_length=16, description=_TURN)


class AdjudicateIn(BaseModel):
    turn: str = Field(max_length=16, description=_TURN)


class DrawIn(BaseModel):
    vote: bool = Field(default=True, description="true: vote for a draw among the powers still in the game")


class ObserveIn(BaseModel):
    invite: str | None = Field(default=None, description="the invitation secret of a private game")


class JoinIn(BaseModel):
    power: str | None = Field(
        default=None, description="the power to play; none: a random free one (always so in a gunboat game)"
    )
    invite: str | None = Field(default=None, description="the invitation secret of a private game")


class SwapIn(BaseModel):
    powers: list[str] = Field(
        min_length=2, max_length=2, description="two powers whose seats change hands (their players, or the bot)"
    )


class BotsIn(BaseModel):
    powers: list[str] | None = Field(default=None, description="the powers for the bot; none: every free seat")
    bot: str = Field(default=DEFAULT_BOT, max_length=32, description=_BOT)


class OrdersIn(BaseModel):
    lines: list[str] = Field(max_length=200, description="order lines, one per line as in 'fogdip gm orders'")
    turn: str = Field(max_length=16, description=_TURN)


class LineOut(BaseModel):
    number: int
    text: str
    ok: bool
    error: str | None


class OrdersOut(BaseModel):
    filed: bool
    lines: list[LineOut]


class TurnOut(BaseModel):
    adjudicated: str | None = Field(description="the turn just adjudicated; none if the turn still waits")
    next: str
    completed: bool


class ReadyOut(TurnOut):
    unordered: int = Field(
        default=0,
        description="how many of your units your orders leave without one (each holds, or takes the game's default)",
    )
    note: str | None = Field(default=None, description="what the mark leaves to the game's defaults, in words")


class MessageIn(BaseModel):
    to: list[str] | Literal["all"] = Field(description="the powers it goes to, or 'all'")
    body: str = Field(min_length=1, max_length=4000)
    claim: str | None = Field(default=None, description="black press only: the power it claims to come from")


class MessageOut(BaseModel):
    index: int = Field(description="its place among the messages you may read, from 1")
    turn: str = Field(description="the turn it was sent in")
    to: list[str] | Literal["all"]
    sender: str | None = Field(description="who it says it is from, as the press mode shows it (none: anonymous)")
    yours: bool = Field(description="you sent it")
    body: str


class MessagesOut(BaseModel):
    messages: list[MessageOut]
    unread: int


class ReadIn(BaseModel):
    up_to: int = Field(ge=0, description="the index of the last message read")


class ImportIn(BaseModel):
    game: dict[str, Any] = Field(description="a fogdip game file, as 'fogdip gm' writes it")
    name: str = Field(default="", max_length=80)
    private: bool = True
