"""A game at its table: its seats, settings, status and clock around the game itself, and
every rule of who may do what, when, as plain methods. Every front end (the server's routes,
``fogdip gm``, the web pages, the e-mail judge) loads a table from its store, calls one method
with who is acting, saves it, and answers: the rules live here once.

A method returns what changed (and records, in :attr:`Table.events`, what the members are to
be told), or raises a :class:`~fogdip.game.refusals.Refusal` that says why not.

>>> from datetime import UTC, datetime
>>> from fogdip.game.service import Game
>>> game = Game.create("fog-of-war")
>>> table = Table.new("g1", game, TableSettings.for_game(game, private=False), master="gm")
>>> alice = Actor("alice")
>>> table.join(alice, "fra").power
'FRANCE'
>>> table.seat_bots(Actor("gm"))
>>> table.start(Actor("gm"), datetime(2026, 1, 1, tzinfo=UTC))
>>> [check.ok for check in table.file(alice, ["A PAR - BUR"], turn="S1901M")]
[True]
>>> table.mark_ready(alice, True, turn="S1901M", moment=datetime(2026, 1, 1, tzinfo=UTC)).played
'S1901M'
>>> table.turn, table.status
('S1901R', <Status.ACTIVE: 'active'>)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from fogdip.bots.base import DEFAULT_BOT, Bot, BotInput, bot_names
from fogdip.engine.errors import FogdipError
from fogdip.game.clock import Clock
from fogdip.game.events import DeadlineSet, MessageSent, PhasePlayed, ReadyCounted, SeatsSwapped, TableEvent, VotesCast
from fogdip.game.press import Message, address
from fogdip.game.refusals import Refusal, Refused
from fogdip.game.seats import NOBODY, Actor, Member, Seat
from fogdip.game.service import Game
from fogdip.game.settings import ObserverView, PressMode, PressRange, Role, Status, TableSettings, power_named
from fogdip.game.summary import Summary
from fogdip.variants import PRESETS
from fogdip.variants.filing import LineCheck

#: The bots, by name (:func:`fogdip.bots.base.bot_named`): each seat's plays its power from
#: what that power is told only (:class:`~fogdip.bots.base.BotInput`).
BotPlayer = Callable[[str], Bot]


def known_bot(name: str) -> str:
    """The bot's name as the registry knows it; a refusal naming the bots for any other."""
    wanted = name.strip().lower()
    if wanted not in bot_names():
        raise Refusal.bad_request(f"there is no bot named {name!r}: name one of {', '.join(bot_names())}")
    return wanted


def membership(
    account: str | None,
    seats: Iterable[tuple[str, str | None]],
    master: str | None,
    watching: bool,
    observers: ObserverView,
) -> Member:
    """What the account is in a game whose seats (power, player), master and observers are
    these: a player's seat comes first (someone who set up a game against bots and plays in it
    sees it as a player), then the game master, then an observer where the game takes them.
    The one rule, for a table and for the streams that follow who holds which seat."""
    if account is None:
        return NOBODY
    for power, player in seats:
        if player == account:
            return Member(Role.PLAYER, power)
    if account == master:
        return Member(Role.MASTER)
    if watching and observers is not ObserverView.NONE:
        return Member(Role.OBSERVER)
    return NOBODY


@dataclass(frozen=True)
class Played:
    """What a ready mark, the game master or a deadline did: the turn played (``None``: it
    still waits), the turn now to play, and whether the game is over."""

    played: str | None
    next: str
    completed: bool


@dataclass(frozen=True)
class ReadyMarked(Played):
    """A ready mark's answer: as :class:`Played`, and how many of the power's units its
    orders leave without one (each will hold, or take the game's default)."""

    unordered: int = 0


@dataclass(frozen=True)
class ReadyCount:
    ready: int
    of: int


@dataclass
class Table:
    """One game at its table. ``watching`` holds the observers the store read: all of them
    (a game file), or only the one asking (the server reads no more)."""

    id: str
    game: Game
    settings: TableSettings
    status: Status = Status.FORMING
    master: str | None = None
    seats: list[Seat] = field(default_factory=list)
    invite: str | None = None
    watching: set[str] = field(default_factory=set)
    clock: Clock = field(default_factory=Clock)
    #: Raised by every save that changes the game itself (a turn, a draw): what a copy read
    #: earlier is checked against.
    version: int = 0
    #: What happened, for the members, since the table was loaded.
    events: list[TableEvent] = field(default_factory=list)
    #: Messages sent since the table was loaded, for the store to keep.
    sent: list[Message] = field(default_factory=list)
    #: The game in brief, where a store listing games gave it without reading the game.
    summary: Summary | None = None

    @classmethod
    def new(
        cls,
        table_id: str,
        game: Game,
        settings: TableSettings,
        *,
        master: str | None,
        status: Status = Status.FORMING,
        invite: str | None = None,
    ) -> Table:
        """A new table for ``game``, with a free seat for every power."""
        if game.position.completed:
            status = Status.FINISHED
        return cls(table_id, game, settings, status, master, [Seat(power) for power in game.powers], invite)

    @classmethod
    def against_bots(
        cls,
        table_id: str,
        game: Game,
        settings: TableSettings,
        player: Actor,
        power: str | None,
        *,
        moment: datetime,
        invite: str | None = None,
        rng: random.Random | None = None,
        bot: str = DEFAULT_BOT,
    ) -> Table:
        """A game against the bot, set up and started at once by its one player: it plays
        ``power`` (or one at random), the bot named ``bot`` every other. Nothing is hidden from
        that player by who plays what: there the bot is ready at once and goes with its vote."""
        if player.account is None:
            raise Refusal.forbidden("sign in to play")
        bot = known_bot(bot)
        table = cls.new(table_id, game, settings, master=player.account, invite=invite)
        seat = (rng or random.SystemRandom()).choice(table.seats) if power is None else table.seat(power)
        seat.player = player.account
        for other in table.seats:
            other.bot = other is not seat
            other.bot_name = bot
        table.status = Status.ACTIVE
        table.clock = table.clock.schedule(settings.deadline_for(table.turn), moment)
        return table

    # --- who is who -------------------------------------------------------------------------

    @property
    def turn(self) -> str:
        return self.game.turn

    def seat(self, power: str) -> Seat:
        """The seat of ``power``, named leniently (``fra``, ``France``)."""
        wanted = power_named(power, [seat.power for seat in self.seats])
        return next(seat for seat in self.seats if seat.power == wanted)

    def member(self, actor: Actor) -> Member:
        """What ``actor`` is in this game. A player's seat comes first: someone who set up a
        game against bots and plays in it sees it as a player. A postal game's master acting
        for a power is that power's player."""
        account = actor.account
        if account is not None and actor.for_power is not None:
            if account == self.master and self.settings.postal:
                return Member(Role.PLAYER, self.seat(actor.for_power).power)
            raise Refusal.forbidden("only the master of a postal game acts for a power")
        return membership(
            account,
            ((seat.power, seat.player) for seat in self.seats),
            self.master,
            account in self.watching,
            self.settings.observers,
        )

    def may_see(self, member: Member, invite: str | None = None) -> bool:
        """Whether a member may see this game at all: any member, anyone if it is open, or
        whoever gives its invitation."""
        return (
            member.role is not Role.NONE or not self.settings.private or (invite is not None and invite == self.invite)
        )

    def visible(self, actor: Actor, invite: str | None = None) -> Member:
        """``actor``'s part in the game, or the refusal a game that does not exist gets."""
        member = self.member(actor)
        if not self.may_see(member, invite):
            raise Refusal.not_found()
        return member

    def master_only(self, actor: Actor) -> None:
        if self.visible(actor).role is not Role.MASTER:
            raise Refusal.forbidden("only the game master can do that")

    def player(self, actor: Actor, refusal: str) -> Seat:
        """The seat ``actor`` plays, or ``refusal``."""
        member = self.visible(actor)
        if member.power is None:
            raise Refusal.forbidden(refusal)
        return self.seat(member.power)

    # --- what is counted, once ----------------------------------------------------------------

    def still_in(self) -> tuple[str, ...]:
        """The powers still in the game (:meth:`Game.still_in`)."""
        return self.game.still_in()

    @property
    def bots_hidden(self) -> bool:
        """Whether a player may not know which seats the bot plays: in a gunboat game that
        someone other than its game master plays in. There the bot's seats are never ready and
        vote for a draw only as the game master casts their votes: were they counted ready, or
        for every draw, a player's lone mark or vote ending the turn or the game would tell it
        that every other seat is the bot's."""
        return self.settings.press is PressMode.GUNBOAT and any(
            seat.player not in (None, self.master) for seat in self.seats
        )

    def is_ready(self, seat: Seat) -> bool:
        """A player's seat once marked, the bot's always (but where it is hidden), an empty
        one never (but in a postal game, where the game master marks it as its player's
        letter says). The turn is played once every seat is."""
        return (seat.bot and not self.bots_hidden) or (self._answered(seat) and seat.ready)

    def _answered(self, seat: Seat) -> bool:
        """Whether someone answers for the seat: its player, or a postal game's master."""
        return seat.player is not None or self.settings.postal

    def ready_count(self) -> ReadyCount:
        return ReadyCount(sum(1 for seat in self.seats if self.is_ready(seat)), len(self.seats))

    def ready_told(self, member: Member) -> ReadyCount | None:
        """How many seats are ready, where the game tells its members (always, the game
        master)."""
        return self.ready_count() if self.settings.ready_counts or member.role is Role.MASTER else None

    def counts_for_draw(self, seat: Seat) -> bool:
        """Whether a seat's vote is for the draw: a power still in whose player votes for it,
        or the bot's (with the players, but where it is hidden: as the game master voted)."""
        if seat.power not in self.still_in():
            return False
        if seat.bot:
            return not self.bots_hidden or seat.draw
        return self._answered(seat) and seat.draw

    def open_votes(self) -> tuple[str, ...]:
        """The players' powers voting for a draw (the bot goes with them)."""
        return tuple(sorted(seat.power for seat in self.seats if seat.draw and not seat.bot))

    # --- seats --------------------------------------------------------------------------------

    def join(
        self, actor: Actor, power: str | None = None, invite: str | None = None, rng: random.Random | None = None
    ) -> Member:
        """Take a seat: ``power`` (named leniently), or a free one at random (always so in a
        gunboat game: which seats are free would tell, as they fill, who took which power)."""
        member = self.visible(actor, invite)
        if self.status is Status.FINISHED:
            raise Refusal.conflict("the game is over")
        if member.role is Role.PLAYER:
            raise Refusal.conflict("you already play a power in this game")
        if member.role is Role.MASTER:
            raise Refusal.conflict("the game master does not play a power of the same game")
        if (
            member.role is Role.OBSERVER
            and self.settings.observers is ObserverView.BOARD
            and self.status is not Status.FORMING
        ):
            raise Refusal.conflict(
                "you have watched this game's whole board: you may not play in it once it has started"
            )
        free = [seat for seat in self.seats if not seat.taken]
        if power is None:
            if not free:
                raise Refusal.conflict("every seat is taken")
            chosen = (rng or random.SystemRandom()).choice(free)
        elif self.settings.press is PressMode.GUNBOAT:
            raise Refusal.bad_request(
                "in a gunboat game nobody chooses a power: join without one and you are given a free power at random"
            )
        else:
            chosen = self.seat(power)
            if chosen not in free:
                raise Refusal.conflict(f"{chosen.power} is taken; choose a free power, or none for a random one")
        assert actor.account is not None  # a member is signed in
        chosen.player = actor.account
        self.watching.discard(actor.account)
        return Member(Role.PLAYER, chosen.power)

    def observe(self, actor: Actor, invite: str | None = None) -> Member:
        """Watch the game, as its settings let observers."""
        member = self.visible(actor, invite)
        if member.role in (Role.PLAYER, Role.MASTER):
            raise Refusal.conflict(
                f"you are this game's {'game master' if member.role is Role.MASTER else 'player'} already"
            )
        if self.settings.observers is ObserverView.NONE:
            raise Refusal.forbidden("this game takes no observers")
        assert actor.account is not None
        self.watching.add(actor.account)
        return Member(Role.OBSERVER)

    def seat_bots(self, actor: Actor, powers: Iterable[str] | None = None, bot: str = DEFAULT_BOT) -> None:
        """Seat the bot named ``bot`` on the powers named (a seat the bot holds already gets
        the bot named), or on every free seat (``None``)."""
        self.master_only(actor)
        bot = known_bot(bot)
        if self.status is Status.FINISHED:
            raise Refusal.conflict("the game is over")
        names = [seat.power for seat in self.seats]
        wanted = None if powers is None else {power_named(power, names) for power in powers}
        taken = sorted(seat.power for seat in self.seats if seat.player is not None and wanted and seat.power in wanted)
        if taken:
            raise Refusal.conflict(
                f"{', '.join(taken)} {'is' if len(taken) == 1 else 'are'} played by a person already"
            )
        for seat in self.seats:
            if seat.player is None and (seat.power in wanted if wanted is not None else not seat.bot):
                seat.bot = True
                seat.bot_name = bot

    def swap(self, actor: Actor, first: str, second: str) -> None:
        """Swap two seats' players (or the bot) before the start: powers drawn as the game
        master chooses. What each seat held (its press, what it read) goes with its player;
        what it filed and marked is dropped: it was for the other power."""
        self.master_only(actor)
        if self.status is not Status.FORMING:
            raise Refusal.conflict(f"the game is {self.status.value}: seats are swapped before it starts")
        one, other = self.seat(first), self.seat(second)
        if one is other:
            raise Refusal.bad_request(
                f"name two different powers of this game: {', '.join(seat.power for seat in self.seats)}"
            )
        one.player, other.player = other.player, one.player
        one.bot, other.bot = other.bot, one.bot
        one.bot_name, other.bot_name = other.bot_name, one.bot_name
        one.read, other.read = other.read, one.read
        for seat in (one, other):
            seat.ready = seat.draw = False
            self.game.record.filed.pop(seat.power, None)
        self.events.append(SeatsSwapped(self.turn, first=one.power, second=other.power))

    # --- the game's life ----------------------------------------------------------------------

    def start(self, actor: Actor, moment: datetime) -> None:
        """Start the game: its clock runs from ``moment`` (when the request came)."""
        self.master_only(actor)
        if self.status is not Status.FORMING:
            raise Refusal.conflict(f"the game is {self.status.value}, not forming")
        self.status = Status.ACTIVE
        self._set_clock(self.clock.schedule(self.settings.deadline_for(self.turn), moment))

    def pause(self, actor: Actor, moment: datetime) -> None:
        self.master_only(actor)
        if self.status is not Status.ACTIVE:
            raise Refusal.conflict(f"the game is {self.status.value}, not active")
        self.status = Status.PAUSED
        self._set_clock(self.clock.paused(moment))

    def resume(self, actor: Actor, moment: datetime) -> None:
        self.master_only(actor)
        if self.status is not Status.PAUSED:
            raise Refusal.conflict(f"the game is {self.status.value}, not paused")
        self.status = Status.ACTIVE
        self._set_clock(self.clock.resumed(self.settings.deadline_for(self.turn), moment))

    def extend(self, actor: Actor, seconds: float) -> None:
        """Move the current deadline later."""
        self.master_only(actor)
        if self.clock.deadline is None:
            raise Refusal.conflict("the game has no deadline running to extend")
        self._set_clock(self.clock.extended(seconds))

    def due(self, moment: datetime) -> bool:
        """Whether the game's deadline has passed: its turn is to be played now."""
        return self.status is Status.ACTIVE and self.clock.due(moment)

    def _set_clock(self, clock: Clock) -> None:
        """Set the clock, and tell the members its deadline (whenever one is set, and when one
        that ran is stopped; a game without deadlines is told nothing)."""
        before = self.clock.deadline
        self.clock = clock
        if clock.deadline is not None or before is not None:
            self.events.append(DeadlineSet(self.turn, deadline=clock.deadline))

    # --- turns --------------------------------------------------------------------------------

    def _check_turn(self, turn: str | None) -> None:
        """A request names the turn it is for: one sent for a turn played meanwhile is stale."""
        if turn is not None and turn.strip().upper() != self.turn:
            raise Refusal.stale(turn.strip().upper(), self.turn)

    def file(self, actor: Actor, lines: Sequence[str], *, turn: str | None, partial: bool = False) -> list[LineCheck]:
        """File the acting player's orders for ``turn``, replacing those it filed before;
        every line's verdict. If one is refused nothing is filed (unless ``partial``: the
        accepted ones are) and the refusal lists each refused line with why."""
        seat = self.player(actor, "only a player files orders, for its own power")
        if self.status not in (Status.FORMING, Status.ACTIVE):
            raise Refusal.conflict(f"the game is {self.status.value}: no orders are taken")
        self._check_turn(turn)
        if self.game.position.completed:
            raise Refusal.conflict("the game is over; no more orders can be filed")
        checks = self.game.file(seat.power, list(lines), partial=partial)
        refused = [check for check in checks if not check.ok]
        if refused and not partial:
            said = "; ".join(f"line {check.number} {check.text!r}: {check.error}" for check in refused)
            raise Refusal(
                Refused.LINES,
                f"{len(refused)} of {len(checks)} lines refused, so nothing was filed: {said}. Fix them and file again",
                "refused",
                {"filed": False, "lines": [_verdict(check) for check in checks]},
                checks,
            )
        return checks

    def mark_ready(
        self,
        actor: Actor,
        ready: bool,
        *,
        turn: str | None,
        moment: datetime,
        bots: BotPlayer | None = None,
        rng: random.Random | None = None,
    ) -> ReadyMarked:
        """Mark the acting player's orders ready (or not); once every seat is ready, the turn
        is played at once. The answer says how many of its units have no order."""
        seat = self.player(actor, "only a player marks its orders ready")
        if self.status is not Status.ACTIVE:
            raise Refusal.conflict(f"the game is {self.status.value}; orders are marked ready once it has started")
        self._check_turn(turn)
        unordered = self.game.unordered(seat.power)
        changed = seat.ready != ready
        seat.ready = ready
        if ready and all(self.is_ready(each) for each in self.seats):
            # Every seat is ready (an empty one waits for the game master, or the deadline; so
            # does the bot's in a gunboat game, where nobody may tell its seats).
            played = self._play(moment, bots, rng)
            return ReadyMarked(played, self.turn, self.game.position.completed, unordered)
        counted = self.ready_told(NOBODY)
        if changed and counted is not None:
            self.events.append(ReadyCounted(self.turn, ready=counted.ready, of=counted.of))
        return ReadyMarked(None, self.turn, self.game.position.completed, unordered)

    def adjudicate(
        self,
        actor: Actor,
        *,
        turn: str | None,
        moment: datetime,
        bots: BotPlayer | None = None,
        rng: random.Random | None = None,
    ) -> Played:
        """The game master plays the next turn now."""
        self.master_only(actor)
        if self.status is Status.FINISHED or self.game.position.completed:
            raise Refusal.conflict("the game is over; there is no turn to adjudicate")
        self._check_turn(turn)
        played = self._play(moment, bots, rng)
        return Played(played, self.turn, self.game.position.completed)

    def play_due(
        self, moment: datetime, bots: BotPlayer | None = None, rng: random.Random | None = None
    ) -> Played | None:
        """Play the turn whose deadline has passed (``None``: none has). The next deadline
        runs from the one passed."""
        if not self.due(moment) or self.game.position.completed:
            return None
        scheduled = self.clock.deadline
        assert scheduled is not None
        played = self._play(scheduled, bots, rng)
        return Played(played, self.turn, self.game.position.completed)

    def _play(self, moment: datetime, bots: BotPlayer | None, rng: random.Random | None) -> str:
        """Play the next turn: first every bot seat that has filed nothing files, from its own
        power's latest report only, as a player would; then every seat's turn is cleared, the
        members told, and the next deadline set from ``moment``."""
        game = self.game
        if bots is not None:
            for seat in self.seats:
                if seat.bot and seat.power not in game.record.filed:
                    # Never seeded from anything a player knows (the game, the turn, the power):
                    # its orders could be foretold, and in gunboat its seat told from a person's.
                    given = BotInput.of(game, seat.power)
                    lines = bots(seat.bot_name).orders(given, rng or random.SystemRandom())
                    if lines:  # none: the game's defaults (a setup's, holds, civil disorder)
                        game.file(seat.power, lines, partial=True)
        played = game.adjudicate()
        for seat in self.seats:
            seat.ready = False
        self.version += 1
        if game.position.completed:
            self.status = Status.FINISHED
            self.clock = Clock(None)
        counted = self.ready_told(NOBODY)
        self.events.append(
            PhasePlayed(
                self.turn,
                played=played.turn,
                ready=None if counted is None else counted.ready,
                of=None if counted is None else counted.of,
            )
        )
        if self.status is Status.ACTIVE:
            self._set_clock(self.clock.schedule(self.settings.deadline_for(self.turn), moment))
        return played.turn

    # --- draws --------------------------------------------------------------------------------

    def vote_draw(self, actor: Actor, vote: bool) -> bool:
        """Vote for a draw among the powers still in the game (or take the vote back); the
        game master casts the bot's votes. Whether the game ended in the draw."""
        member = self.visible(actor)
        if member.is_player:
            voting = [self.seat(member.power or "")]
        elif member.role is Role.MASTER and any(seat.bot for seat in self.seats):
            voting = [seat for seat in self.seats if seat.bot]
        else:
            raise Refusal.forbidden("only a player votes for a draw (and the game master, for the bot's seats)")
        if self.status not in (Status.ACTIVE, Status.PAUSED):
            raise Refusal.conflict(f"the game is {self.status.value}: draws are voted in a game under way")
        still_in = self.still_in()
        if member.is_player and voting[0].power not in still_in:
            raise Refusal.conflict("your power is out of the game: the powers still in it vote")
        changed = any(seat.draw != vote for seat in voting)
        for seat in voting:
            seat.draw = vote
        if vote and all(self.counts_for_draw(self.seat(power)) for power in still_in):
            played = self.turn
            self.game.agree_draw(still_in)
            for seat in self.seats:
                seat.ready = False
            self.version += 1
            self.status = Status.FINISHED
            self.clock = Clock(None)
            self.events.append(PhasePlayed(self.turn, played=played))
            return True
        if changed and self.settings.draw_votes.value == "open" and member.is_player:
            self.events.append(VotesCast(self.turn, votes=self.open_votes()))
        return False

    # --- press --------------------------------------------------------------------------------

    def reader(self, actor: Actor) -> Member:
        """Who may read the game's press: its members (observers, the messages to all)."""
        member = self.visible(actor)
        if member.role is Role.NONE:
            raise Refusal.forbidden("only the game's members read its press: join it, or watch it")
        return member

    def mark_read(self, actor: Actor, up_to: int, listed: int) -> Seat:
        """The acting player has read its messages up to ``up_to`` (of the ``listed`` in its
        list): a read mark never goes back, nor past the list."""
        member = self.reader(actor)
        if member.power is None:
            raise Refusal.forbidden("only players keep count of what they have read")
        seat = self.seat(member.power)
        seat.read = max(seat.read, min(up_to, listed))
        return seat

    @classmethod
    def create(
        cls,
        table_id: str,
        preset: str,
        options: Mapping[str, Any],
        *,
        master: Actor,
        invite: str | None = None,
        **settings: Any,
    ) -> Table:
        """A new game of ``preset`` with option overrides and settings (as
        :meth:`TableSettings.for_game` takes them), its creator its game master; refused if the
        preset, an option or a setting is not one a game may have."""
        if master.account is None:
            raise Refusal.forbidden("sign in to make a game")
        if preset not in PRESETS:
            raise Refusal.bad_request(f"no preset {preset!r}: use one of {', '.join(sorted(PRESETS))}", "bad-preset")
        try:
            game = Game.create(preset, **dict(options))
        except Refusal:
            raise
        except FogdipError as exc:
            raise Refusal.bad_request(str(exc), "bad-options") from None
        chosen = TableSettings.for_game(game, preset=preset, **settings)
        return cls.new(table_id, game, chosen, master=master.account, invite=invite)

    def in_range(self, power: str) -> list[str]:
        """The powers ``power`` may write to under adjacency-limited press: those whose units
        its latest report shows next to one of its own units. Only what ``power`` knows decides
        it, so a refusal tells it nothing it did not know."""
        latest = self.game.latest_report(power)
        board = self.game.variant.board
        own = [unit.province for unit in latest.units if unit.owner == power and not unit.dislodged]
        near = set().union(*(board.adjacent_provinces(province) for province in own)) if own else set()
        return sorted(
            {
                unit.owner
                for unit in latest.units
                if unit.owner is not None and unit.owner != power and not unit.dislodged and unit.province in near
            }
        )

    def send(self, actor: Actor, to: Sequence[str] | str, body: str, claim: str | None = None) -> Message:
        """Send a message from the acting player's power, under the game's press."""
        member = self.reader(actor)
        if member.power is None:
            raise Refusal.forbidden("only players write press")
        if self.settings.press is PressMode.NONE:
            raise Refusal.forbidden("this game has no press")
        if self.status is Status.FINISHED:
            raise Refusal.conflict("the game is over")
        powers = [seat.power for seat in self.seats]
        others = [power for power in powers if power != member.power]
        reach = self.in_range(member.power) if self.settings.press_range is PressRange.ADJACENT else others
        recipients, claimed = address(
            member.power,
            to,
            claim,
            powers=powers,
            press=self.settings.press,
            press_range=self.settings.press_range,
            reach=reach,
        )
        message = Message(self.turn, member.power, recipients, body, claimed)
        self.sent.append(message)
        self.events.append(MessageSent(self.turn, audience=message.audience))
        return message


def _verdict(check: LineCheck) -> dict[str, object]:
    return {"number": check.number, "text": check.text, "ok": check.ok, "error": check.error}


__all__ = ["BotPlayer", "Played", "ReadyCount", "ReadyMarked", "Table", "known_bot", "membership"]
