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
>>> marked = table.mark_ready(alice, True, turn="S1901M", moment=datetime(2026, 1, 1, tzinfo=UTC))
>>> marked.played, marked.bots_thinking
(None, True)

The bot's seats think off the request (a server's :mod:`fogdip.server.bot_seats`); here, now:

>>> import random
>>> from fogdip.bots.base import bot_named
>>> table.think(bot_named, random.Random(1), datetime(2026, 1, 1, 0, 0, 1, tzinfo=UTC))
'S1901M'
>>> table.turn, table.status
('S1901R', <Status.ACTIVE: 'active'>)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from fogdip.bots.base import DEFAULT_BOT, THINKING_SECONDS, Bot, BotInput, bot_names, thinking_time
from fogdip.engine.errors import FogdipError
from fogdip.game.answers import Played, ReadyCount, ReadyMarked
from fogdip.game.clock import Clock
from fogdip.game.events import DeadlineSet, PhasePlayed, ReadyCounted, SeatsSwapped, TableEvent, VotesCast
from fogdip.game.press import Message
from fogdip.game.refusals import Refusal, Refused
from fogdip.game.seats import NOBODY, Actor, Member, Seat, membership
from fogdip.game.service import Game
from fogdip.game.settings import ObserverView, PressMode, Role, Status, TableSettings, power_named
from fogdip.game.summary import Summary
from fogdip.game.table_press import PressRules
from fogdip.variants import PRESETS
from fogdip.variants.filing import LineCheck

#: The bots, by name (:func:`fogdip.bots.base.bot_named`): each seat's plays its power from
#: what that power is told only (:class:`~fogdip.bots.base.BotInput`).
BotPlayer = Callable[[str], Bot]

SECOND = timedelta(seconds=1)
#: How long past the bot's moment a turn whose deadline passed waits for it to file (a bot
#: player stalled, or none running), before the bot chooses then and there.
BOTS_GRACE = 30 * SECOND


def known_bot(name: str) -> str:
    """The bot's name as the registry knows it; a refusal naming the bots for any other."""
    wanted = name.strip().lower()
    if wanted not in bot_names():
        raise Refusal.bad_request(f"there is no bot named {name!r}: name one of {', '.join(bot_names())}")
    return wanted


@dataclass
class Table(PressRules):
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
    #: When the bot's seats file this turn's orders (``None``: at once, if any has yet to).
    #: They think from the turn's start, off every request, and file at this moment, which
    #: nothing hidden moves: when the turn is played then tells nobody what the bot saw, nor
    #: how long it thought (:meth:`bots_to_file`).
    bots_due: datetime | None = None

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
        table.bots_due = table._bots_due_from(moment)
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
        """A player's seat once marked, the bot's always (but where it is hidden: never), an
        empty one never (but in a postal game, where the game master marks it as its player's
        letter says). The turn is played once every seat is, and the bot has filed."""
        if seat.bot:
            return not self.bots_hidden
        return self._answered(seat) and seat.ready

    def bots_to_file(self) -> tuple[Seat, ...]:
        """The bot's seats that have yet to file this turn's orders. A bot's seat is marked
        ready once it has: the table's own mark, shown to nobody (the bot's seat always counts
        as ready, where it is not hidden). Orders filed for its power otherwise (by a postal
        game's master, or kept from an older fogdip) are kept: the bot files none over them."""
        if self.status is not Status.ACTIVE:
            return ()
        waiting = tuple(seat for seat in self.seats if seat.bot and not seat.ready)
        if not waiting or self.game.position.completed:
            return ()
        filed = self.game.record.filed
        return tuple(seat for seat in waiting if seat.power not in filed)

    def _bots_due_from(self, began: datetime) -> datetime | None:
        """When the bot's seats file, for a turn that began (or a game resumed, or a bot was
        seated) at ``began``: after the longest each bot to file may think, one after the
        other (all public: the bots seated). Where the bot's seats are hidden, after what the
        slowest bot would take on every seat: how many are the bot's is not told by when."""
        waiting = self.bots_to_file()
        if not waiting:
            return None
        if self.bots_hidden:
            return began + len(self.seats) * max(THINKING_SECONDS.values()) * SECOND
        return began + sum(thinking_time(seat.bot_name) for seat in waiting) * SECOND

    def bots_due_at(self, moment: datetime) -> datetime | None:
        """When the bot's seats file (``None``: none has yet to), counted from ``moment`` if no
        moment was set for them (a game kept by an older fogdip)."""
        return (self.bots_due or self._bots_due_from(moment)) if self.bots_to_file() else None

    def waits_for_bots(self, moment: datetime) -> bool:
        """Whether a turn to be played at ``moment`` (its deadline passed) waits for the bot to
        file first: it has yet to, and its moment is not long past (a stalled bot is waited
        for no longer: it chooses then and there)."""
        return bool(self.bots_to_file()) and self.bots_due is not None and moment < self.bots_due + BOTS_GRACE

    def file_for_bots(self, turn: str, orders: Mapping[str, Sequence[str]], moment: datetime) -> str | None:
        """File what the bot chose for its seats for ``turn`` (each power's lines as a player's,
        a refused line dropped; none: the game's defaults), and play the turn if every seat is
        ready now: the turn played (``None``: it still waits). What is for a turn played
        meanwhile, or for a seat the bot no longer holds or that has filed, is dropped."""
        if turn != self.turn:
            return None
        for seat in self.bots_to_file():
            if seat.power in orders:
                self._file_bot_lines(seat.power, orders[seat.power])
                seat.ready = True
        if self.bots_to_file():
            return None
        self.bots_due = None
        if self.status is Status.ACTIVE and all(self.is_ready(seat) for seat in self.seats):
            return self._play(moment, None, None)
        if self.due(moment) and self.clock.deadline is not None:  # the deadline waited for the bot
            return self._play(self.clock.deadline, None, None)
        return None

    def think(self, bots: BotPlayer, rng: random.Random, moment: datetime) -> str | None:
        """The bot files for its seats now, in the caller's own time (``fogdip gm``, a test:
        never a request a player times), and the turn is played if every seat is ready."""
        return self.file_for_bots(self.turn, self._bot_choices(bots, rng), moment)

    def _bot_choices(self, bots: BotPlayer, rng: random.Random) -> dict[str, list[str]]:
        """What the bot chooses now for each seat that has yet to file, from its power's own
        reports only (never seeded from anything a player knows: the game, the turn, the
        power; its orders could be foretold, and in gunboat its seat told from a person's)."""
        return {
            seat.power: bots(seat.bot_name).orders(BotInput.of(self.game, seat.power), rng)
            for seat in self.bots_to_file()
        }

    def _file_bot_lines(self, power: str, lines: Sequence[str]) -> None:
        if lines:  # none: the game's defaults (a setup's, holds, civil disorder)
            self.game.file(power, list(lines), partial=True)

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

    def seat_bots(
        self,
        actor: Actor,
        powers: Iterable[str] | None = None,
        bot: str = DEFAULT_BOT,
        *,
        moment: datetime | None = None,
    ) -> None:
        """Seat the bot named ``bot`` on the powers named (a seat the bot holds already gets
        the bot named), or on every free seat (``None``). In a game under way, the bot files
        for them from ``moment`` as at a turn's start."""
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
                seat.ready = False  # it files what it chooses, for this turn too
        if moment is not None:
            self.bots_due = self._bots_due_from(moment)

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
        self.bots_due = self._bots_due_from(moment)

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
        self.bots_due = self._bots_due_from(moment)

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
    ) -> ReadyMarked:
        """Mark the acting player's orders ready (or not); once every seat is ready, the turn
        is played at once, or once the bot has filed for its seats (it never thinks in a
        player's request: how long that took would tell what it saw). The answer says how
        many of its units have no order."""
        seat = self.player(actor, "only a player marks its orders ready")
        if seat.bot:
            raise Refusal.conflict(f"the bot plays {seat.power}: it files, and is ready, by itself")
        if self.status is not Status.ACTIVE:
            raise Refusal.conflict(f"the game is {self.status.value}; orders are marked ready once it has started")
        self._check_turn(turn)
        unordered = self.game.unordered(seat.power)
        changed = seat.ready != ready
        seat.ready = ready
        everyone = ready and all(self.is_ready(each) for each in self.seats)
        # Every seat is ready (an empty one waits for the game master, or the deadline; so does
        # the bot's in a gunboat game, where nobody may tell its seats), and the bot has filed.
        if everyone and not self.bots_to_file():
            played = self._play(moment, None, None)
            return ReadyMarked(played, self.turn, self.game.position.completed, unordered)
        counted = self.ready_told(NOBODY)
        if changed and counted is not None:
            self.events.append(ReadyCounted(self.turn, ready=counted.ready, of=counted.of))
        return ReadyMarked(None, self.turn, self.game.position.completed, unordered, bots_thinking=everyone)

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
        if not self.due(moment) or self.game.position.completed or self.waits_for_bots(moment):
            return None
        scheduled = self.clock.deadline
        assert scheduled is not None
        played = self._play(scheduled, bots, rng)
        return Played(played, self.turn, self.game.position.completed)

    def _play(self, moment: datetime, bots: BotPlayer | None, rng: random.Random | None) -> str:
        """Play the next turn: first every bot seat that has not filed files (with ``bots``:
        the game master's or a deadline's turn, in nobody's request but the master's), from
        its own power's reports only, as a player would; then every seat's turn is cleared,
        the members told, and the next deadline set from ``moment``."""
        game = self.game
        if bots is not None:
            for power, lines in self._bot_choices(bots, rng or random.SystemRandom()).items():
                self._file_bot_lines(power, lines)
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
        self.bots_due = self._bots_due_from(moment)
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


def _verdict(check: LineCheck) -> dict[str, object]:
    return {"number": check.number, "text": check.text, "ok": check.ok, "error": check.error}


__all__ = ["BotPlayer", "Played", "ReadyCount", "ReadyMarked", "Table", "known_bot", "membership"]
