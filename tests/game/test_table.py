"""The table's rules, in-process: seats, joining and watching, swaps, the clock, filing and
readiness, the game master's turn, draws, press, and what each role may see. Every front end
(the server's routes, ``fogdip gm``, the web pages, the e-mail judge) calls these same methods,
so this is where the rules are tested; ``tests/server`` tests what needs a real process."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from fogdip.bots.base import THINKING_SECONDS, Bot, BotInput, thinking_time
from fogdip.game import Actor, Game, Refusal, Refused, Role, Status, Table, TableSettings
from fogdip.game.events import DeadlineSet, MessageSent, PhasePlayed, ReadyCounted, SeatsSwapped, VotesCast
from fogdip.game.pages import Sight, page, page_of, seat_status, sight_of
from fogdip.game.press import Message, shown, unread
from fogdip.game.seats import Member
from fogdip.game.settings import ObserverView, PressMode
from fogdip.game.table import BOTS_GRACE, ReadyMarked

T0 = datetime(2026, 3, 1, 12, 0, 0, 250_000, tzinfo=UTC)
GM, ALICE, BOB, CAROL = Actor("gm"), Actor("alice"), Actor("bob"), Actor("carol")


def _table(preset: str = "fog-of-war", **settings: object) -> Table:
    game = Game.create(preset, end_year=1903)
    chosen = TableSettings.for_game(game, **{"private": False, **settings})  # type: ignore[arg-type]
    return Table.new("g", game, chosen, master="gm", invite="secret")


def _refused(kind: Refused, call: object, *args: object, **kwargs: object) -> Refusal:
    with pytest.raises(Refusal) as caught:
        call(*args, **kwargs)  # type: ignore[operator]
    assert caught.value.kind is kind, caught.value.message
    return caught.value


def _started(preset: str = "fog-of-war", **settings: object) -> Table:
    table = _table(preset, **settings)
    table.join(ALICE, "france")
    table.seat_bots(GM)
    table.start(GM, T0)
    table.events.clear()
    return table


# --- powers are named one way, read leniently ---------------------------------------------------


@pytest.mark.parametrize(
    "france, germany", [("fra", "ger"), ("France", "Germany"), ("FRANCE", "GERMANY"), (" france ", "germ")]
)
def test_a_power_is_read_leniently_everywhere(france: str, germany: str) -> None:
    table = _table()
    assert table.join(ALICE, france).power == "FRANCE"
    assert table.seat(france).player == "alice"
    table.seat_bots(GM, [germany])
    assert table.seat("GERMANY").bot and not table.seat("ENGLAND").bot
    table.start(GM, T0)
    assert table.send(ALICE, [germany], "hello").recipients == ("GERMANY",)


def test_an_unknown_power_is_refused_with_the_names_to_use() -> None:
    refusal = _refused(Refused.BAD_REQUEST, _table().join, ALICE, "Prussia")
    assert "unknown power 'Prussia'" in refusal.message and "FRANCE" in refusal.message


# --- joining, watching, seats ---------------------------------------------------------------------


def test_joining_takes_a_free_seat_once() -> None:
    table = _table()
    table.join(ALICE, "FRANCE")
    assert _refused(Refused.CONFLICT, table.join, BOB, "FRANCE").message.startswith("FRANCE is taken")
    assert "already play" in _refused(Refused.CONFLICT, table.join, ALICE, "ENGLAND").message
    assert "game master does not play" in _refused(Refused.CONFLICT, table.join, GM, "ENGLAND").message
    member = table.join(BOB, rng=random.Random(1))
    assert member.role is Role.PLAYER and member.power not in (None, "FRANCE")


def test_a_private_game_is_not_found_without_its_invitation() -> None:
    table = _table(private=True)
    assert _refused(Refused.NOT_FOUND, table.join, ALICE, "FRANCE").message == Refusal.not_found().message
    _refused(Refused.NOT_FOUND, table.join, ALICE, "FRANCE", "wrong")
    assert table.join(ALICE, "FRANCE", "secret").power == "FRANCE"
    _refused(Refused.NOT_FOUND, page, table, BOB)


def test_in_a_gunboat_game_nobody_chooses_a_power() -> None:
    table = _table(press="gunboat")
    assert "nobody chooses" in _refused(Refused.BAD_REQUEST, table.join, ALICE, "FRANCE").message
    assert table.join(ALICE).role is Role.PLAYER


def test_an_observer_who_watched_the_board_may_not_join_once_the_game_started() -> None:
    table = _table(observers="board")
    table.observe(CAROL)
    assert table.member(CAROL).role is Role.OBSERVER
    table.start(GM, T0)
    refusal = _refused(Refused.CONFLICT, table.join, CAROL, "ENGLAND")
    assert "watched this game's whole board" in refusal.message
    # Before the start the board is the start, which everyone knows; watching press only
    # shows what players see too.
    forming = _table(observers="board")
    forming.observe(CAROL)
    assert forming.join(CAROL, "ENGLAND").power == "ENGLAND" and "carol" not in forming.watching
    press_only = _table(observers="press")
    press_only.observe(CAROL)
    press_only.start(GM, T0)
    assert press_only.join(CAROL, "ENGLAND").power == "ENGLAND"


def test_observers_only_where_the_game_takes_them() -> None:
    table = _table(observers="none")
    assert "takes no observers" in _refused(Refused.FORBIDDEN, table.observe, CAROL).message
    table.join(ALICE, "FRANCE")
    assert "game master already" in _refused(Refused.CONFLICT, table.observe, GM).message
    assert "player already" in _refused(Refused.CONFLICT, table.observe, ALICE).message


def test_only_the_game_master_seats_the_bot_and_never_on_a_person() -> None:
    table = _table()
    table.join(ALICE, "FRANCE")
    assert _refused(Refused.FORBIDDEN, table.seat_bots, ALICE).message == "only the game master can do that"
    assert "played by a person" in _refused(Refused.CONFLICT, table.seat_bots, GM, ["france"]).message
    unknown = _refused(Refused.BAD_REQUEST, table.seat_bots, GM, None, "dumbbot").message
    assert "no bot named 'dumbbot'" in unknown and "heuristic" in unknown and "random" in unknown
    table.seat_bots(GM)
    assert [seat.power for seat in table.seats if not seat.bot] == ["FRANCE"]


def test_a_swap_moves_what_each_seat_held_with_its_player_before_the_start() -> None:
    table = _table(press="gunboat")
    table.join(ALICE, rng=random.Random(3))
    first = table.member(ALICE).power
    assert first is not None
    other = next(seat.power for seat in table.seats if seat.power != first)
    table.file(ALICE, [], turn="S1901M")
    table.seat(first).read = 4
    table.swap(GM, first, other)
    assert table.member(ALICE).power == other
    assert table.seat(other).read == 4 and table.seat(first).read == 0
    assert first not in table.game.record.filed and other not in table.game.record.filed
    assert table.events == [SeatsSwapped("S1901M", first=first, second=other)]
    table.start(GM, T0)
    assert "before it starts" in _refused(Refused.CONFLICT, table.swap, GM, first, other).message
    assert "two different powers" in _refused(Refused.BAD_REQUEST, _table().swap, GM, "fra", "France").message


# --- the clock --------------------------------------------------------------------------------------


def test_deadlines_run_from_when_asked_in_whole_seconds_never_from_when_the_turn_finished() -> None:
    table = _table(deadlines={"movement": 3600, "retreats": 600})
    table.join(ALICE, "FRANCE")
    table.seat_bots(GM)
    table.start(GM, T0)
    assert table.clock.deadline == datetime(2026, 3, 1, 13, 0, 0, tzinfo=UTC)
    assert table.events == [DeadlineSet("S1901M", deadline=table.clock.deadline)]
    table.events.clear()
    asked = T0 + timedelta(minutes=5, microseconds=123)
    # Two turns played from the same request moment give the same next deadline however long
    # the turn took to play (with the bot's orders, or without).
    slow, quick = (
        _started(deadlines={"movement": 3600, "retreats": 600}),
        _started(deadlines={"movement": 3600, "retreats": 600}),
    )
    slow.file(ALICE, ["A PAR - BUR"], turn="S1901M")
    quick.file(ALICE, ["A PAR - BUR"], turn="S1901M")
    slow.think(_slow_bots, random.Random(1), asked)
    quick.file_for_bots("S1901M", {seat.power: [] for seat in quick.seats if seat.bot}, asked)
    slow.mark_ready(ALICE, True, turn="S1901M", moment=asked)
    quick.mark_ready(ALICE, True, turn="S1901M", moment=asked)
    assert slow.clock.deadline == quick.clock.deadline == datetime(2026, 3, 1, 12, 15, 0, tzinfo=UTC)
    # Every deadline after a turn is told, not only the first.
    assert [type(e) for e in slow.events] == [PhasePlayed, DeadlineSet]


@dataclass(frozen=True)
class _SlowBot:
    name: str = "slow"

    def orders(self, given: BotInput, rng: random.Random) -> list[str]:
        time.sleep(0.02)
        return []


def _slow_bots(name: str) -> Bot:
    return _SlowBot()


def test_a_turn_played_at_its_deadline_sets_the_next_from_the_deadline_passed() -> None:
    table = _started(deadlines={"movement": 3600, "retreats": 600})
    deadline = table.clock.deadline
    assert deadline is not None
    assert table.play_due(deadline - timedelta(seconds=1)) is None
    late = deadline + timedelta(seconds=0, microseconds=900_000)
    played = table.play_due(late)
    assert played is not None and played.played == "S1901M"
    assert table.clock.deadline == deadline + timedelta(seconds=600)


def test_pause_keeps_what_was_left_and_resume_gives_it_back() -> None:
    table = _started(deadlines={"movement": 3600})
    table.pause(GM, T0 + timedelta(minutes=10))
    assert table.status is Status.PAUSED and table.clock.deadline is None and table.clock.paused_left == 3000
    assert not table.due(T0 + timedelta(days=3))
    _refused(Refused.CONFLICT, table.pause, GM, T0)
    assert "no orders are taken" in _refused(Refused.CONFLICT, table.file, ALICE, [], turn="S1901M").message
    table.resume(GM, T0 + timedelta(hours=5))
    assert table.clock.deadline == datetime(2026, 3, 1, 17, 50, 0, tzinfo=UTC)
    table.extend(GM, 90)
    assert table.clock.deadline == datetime(2026, 3, 1, 17, 51, 30, tzinfo=UTC)
    _refused(Refused.FORBIDDEN, table.extend, ALICE, 90)
    assert "no deadline" in _refused(Refused.CONFLICT, _started().extend, GM, 90).message


# --- orders, ready marks, turns ------------------------------------------------------------------


def test_a_refused_filing_lists_each_refused_line_and_files_nothing() -> None:
    table = _started()
    table.file(ALICE, ["A PAR - BUR"], turn="S1901M")
    refusal = _refused(Refused.LINES, table.file, ALICE, ["A PAR - PIC", "A PAR - NTH", "F KIE H"], turn="S1901M")
    assert "2 of 3 lines refused" in refusal.message
    assert "line 2 'A PAR - NTH': an army cannot move to North Sea, a sea" in refusal.message
    assert "line 3 'F KIE H': FRANCE has no unit in KIE" in refusal.message
    assert [check.ok for check in refusal.lines] == [True, False, False]
    assert table.game.filed["FRANCE"] == ["A PAR - BUR"]


def test_orders_ready_marks_and_the_game_master_s_turn_name_their_turn() -> None:
    table = _started()
    table.file(ALICE, ["A PAR - BUR"], turn="s1901m")
    table.adjudicate(GM, turn="S1901M", moment=T0)
    # Sent for the turn just played: refused, never applied to the next.
    stale = _refused(Refused.STALE, table.file, ALICE, ["A PAR - PIC"], turn="S1901M")
    assert "no longer the turn to play: the next turn is S1901R" in stale.message
    assert stale.detail == {"turn": "S1901R"}
    _refused(Refused.STALE, table.mark_ready, ALICE, True, turn="S1901M", moment=T0)
    # Two game masters' requests for the same turn play it once.
    _refused(Refused.STALE, table.adjudicate, GM, turn="S1901M", moment=T0)
    assert [turn.turn for turn in table.game.record.history] == ["S1901M"]


def test_a_ready_mark_says_how_many_units_have_no_order() -> None:
    table = _table()
    table.join(ALICE, "FRANCE")
    table.join(BOB, "ENGLAND")
    table.start(GM, T0)
    assert table.mark_ready(ALICE, True, turn="S1901M", moment=T0).unordered == 3
    table.file(ALICE, ["A PAR - BUR", "F BRE - MAO"], turn="S1901M")
    marked = table.mark_ready(ALICE, True, turn="S1901M", moment=T0)
    assert marked.unordered == 1 and marked.played is None


def test_the_turn_is_played_once_every_seat_is_ready_and_empty_seats_wait() -> None:
    table = _table(ready_counts=True)
    table.join(ALICE, "FRANCE")
    table.join(BOB, "ENGLAND")
    table.seat_bots(GM, ["GERMANY", "ITALY", "AUSTRIA", "RUSSIA"])
    table.start(GM, T0)
    table.events.clear()
    table.mark_ready(ALICE, True, turn="S1901M", moment=T0)
    assert table.events == [ReadyCounted("S1901M", ready=5, of=7)]
    table.mark_ready(BOB, True, turn="S1901M", moment=T0)
    assert table.turn == "S1901M"  # Turkey's seat is empty: it waits for the game master
    table.mark_ready(ALICE, False, turn="S1901M", moment=T0)
    table.seat_bots(GM, ["TURKEY"])
    # Every seat is ready, but the bot has yet to file: it never thinks in a player's request.
    marked = table.mark_ready(ALICE, True, turn="S1901M", moment=T0)
    assert marked.played is None and marked.bots_thinking and table.turn == "S1901M"
    bots = {seat.power: [] for seat in table.seats if seat.bot}
    assert table.file_for_bots("S1901M", bots, T0) == "S1901M"
    assert table.turn == "S1901R" and not any(seat.ready for seat in table.seats)


def test_ready_counts_are_told_only_where_the_game_tells_them() -> None:
    table = _table()  # fog: not told
    table.join(ALICE, "FRANCE")
    table.join(BOB, "ENGLAND")
    table.start(GM, T0)
    table.events.clear()
    table.mark_ready(ALICE, True, turn="S1901M", moment=T0)
    assert table.events == []
    assert page_of(table, table.member(BOB)).ready is None
    assert page_of(table, table.member(GM)).ready is not None


def test_in_gunboat_the_bot_s_seats_are_never_counted_ready() -> None:
    table = _table(press="gunboat")
    table.join(ALICE)
    table.seat_bots(GM)
    table.start(GM, T0)
    assert table.bots_hidden
    marked = table.mark_ready(ALICE, True, turn="S1901M", moment=T0)
    assert marked.played is None and table.ready_count().ready == 1
    # A game against bots hides nothing from its one player: there the bot is ready at once.
    alone = Table.against_bots(
        "a",
        Game.create("fog-of-war"),
        TableSettings.for_game(Game.create("fog-of-war"), press="gunboat"),
        ALICE,
        "fra",
        moment=T0,
    )
    assert not alone.bots_hidden and alone.member(ALICE) == Member(Role.PLAYER, "FRANCE")
    assert alone.mark_ready(ALICE, True, turn="S1901M", moment=T0).bots_thinking
    assert alone.think(_slow_bots, random.Random(1), T0) == "S1901M"


def test_the_bot_files_for_its_seats_from_its_own_report_before_the_turn() -> None:
    seen: list[tuple[str, str]] = []

    @dataclass(frozen=True)
    class Told:
        name: str

        def orders(self, given: BotInput, rng: random.Random) -> list[str]:
            assert given.reports == tuple(table.game.reports(given.power))  # its own, and all of them
            seen.append((self.name, given.power))
            return ["A BER - KIE"] if given.power == "GERMANY" else []

    table = _started()
    table.seat("ENGLAND").bot_name = "random"
    table.adjudicate(GM, turn="S1901M", moment=T0, bots=Told)
    assert sorted(seen) == [
        ("heuristic", "AUSTRIA"),
        ("heuristic", "GERMANY"),
        ("heuristic", "ITALY"),
        ("heuristic", "RUSSIA"),
        ("heuristic", "TURKEY"),
        ("random", "ENGLAND"),
    ]
    assert table.game.record.history[-1].orders["GERMANY"] == ("A BER - KIE",)


def test_the_bot_files_at_a_moment_set_by_the_seats_alone_and_a_ready_mark_never_waits_for_it() -> None:
    table = _started(deadlines={"movement": 3600, "retreats": 600})
    # Due after the longest each seated bot may think: public, whatever the bot sees.
    assert table.bots_due == T0 + timedelta(seconds=6 * thinking_time("heuristic"))
    table.seat("ENGLAND").bot_name = "search"
    assert {seat.power for seat in table.bots_to_file()} == set(table.game.powers) - {"FRANCE"}
    table.file(ALICE, ["A PAR - BUR"], turn="S1901M")
    marked = table.mark_ready(ALICE, True, turn="S1901M", moment=T0)
    assert (marked.played, marked.bots_thinking) == (None, True)
    # Filing for some seats plays nothing; orders for a turn played meanwhile are dropped.
    assert table.file_for_bots("S1901M", {"GERMANY": ["A BER - KIE"]}, T0) is None
    assert table.file_for_bots("F1901M", {"ITALY": ["A VEN - TYR"]}, T0) is None
    assert "ITALY" not in table.game.record.filed and table.turn == "S1901M"
    # A seat that has filed takes nothing more (another process chose for it too).
    table.file_for_bots("S1901M", {"GERMANY": ["A BER - SIL"]}, T0)
    rest = {power: [] for power in ("AUSTRIA", "ENGLAND", "ITALY", "RUSSIA", "TURKEY")}
    moment = T0 + timedelta(seconds=2)
    assert table.file_for_bots("S1901M", rest, moment) == "S1901M"
    assert table.game.record.history[-1].orders["GERMANY"] == ("A BER - KIE",)
    # The next turn's bots are due from when the turn was played (a retreat turn: 6 bots).
    assert table.bots_due == moment + timedelta(seconds=5 * 0.1 + thinking_time("search"))
    # The bot's seat is never marked by a person (a postal game's master acting for it).
    postal = _table(postal=True)
    postal.seat_bots(GM, ["GERMANY"])
    postal.start(GM, T0)
    refusal = _refused(Refused.CONFLICT, postal.mark_ready, Actor("gm", for_power="ger"), True, turn=None, moment=T0)
    assert refusal.message == "the bot plays GERMANY: it files, and is ready, by itself"


def test_in_gunboat_the_bot_files_unseen_and_the_turn_still_waits_for_its_deadline() -> None:
    table = _table(press="gunboat", deadlines={"movement": 3600})
    power = table.join(ALICE, rng=random.Random(1)).power
    table.seat_bots(GM)
    table.start(GM, T0)
    table.think(_slow_bots, random.Random(1), T0)
    assert not table.bots_to_file() and table.ready_count().ready == 0
    units = len(table.game.reports(power or "")[-1].units)
    assert table.mark_ready(ALICE, True, turn="S1901M", moment=T0) == ReadyMarked(None, "S1901M", False, units)
    assert table.play_due(T0 + timedelta(hours=1)) is not None and table.turn != "S1901M"


def test_a_deadline_waits_for_the_bot_and_the_turn_is_played_as_it_files() -> None:
    table = _started(deadlines={"movement": 60, "retreats": 60})
    deadline = table.clock.deadline
    assert deadline is not None and table.bots_due is not None and table.bots_due < deadline
    late = deadline + timedelta(seconds=5)
    table.bots_due = deadline + timedelta(seconds=1)  # a bot not yet filed when the deadline passes
    assert table.due(late) and table.waits_for_bots(late) and table.play_due(late) is None
    assert table.turn == "S1901M"
    quiet = {seat.power: [] for seat in table.seats if seat.bot}
    assert table.file_for_bots("S1901M", quiet, late) == "S1901M"
    # The next deadline runs from the one passed, as a deadline's turn's always does.
    assert table.clock.deadline == deadline + timedelta(seconds=60)
    # A bot player that never files is waited for 30 s past its moment, then no longer.
    stalled = _started(deadlines={"movement": 60})
    assert stalled.bots_due is not None
    after = stalled.bots_due + BOTS_GRACE + timedelta(seconds=61)
    assert not stalled.waits_for_bots(after)
    assert stalled.play_due(after, _slow_bots, random.Random(1)) is not None


def test_the_bot_s_moment_is_set_again_on_resuming_and_seating_and_counts_no_hidden_seat() -> None:
    table = _started()
    table.pause(GM, T0)
    assert table.bots_to_file() == () and table.bots_due_at(T0) is None  # paused: none files
    resumed = T0 + timedelta(hours=1)
    table.resume(GM, resumed)
    assert table.bots_due == resumed + timedelta(seconds=6 * thinking_time("heuristic"))
    # Seated while the game is under way: it files from then, for this turn too.
    late = _table()
    late.join(ALICE, "FRANCE")
    late.seat_bots(GM, ["GERMANY"])
    late.start(GM, T0)
    seated = T0 + timedelta(minutes=3)
    late.seat_bots(GM, ["ITALY"], "search", moment=seated)
    assert late.bots_due == seated + timedelta(seconds=thinking_time("heuristic") + thinking_time("search"))
    # A game kept without a moment for its bot (an older fogdip's): counted from when it is saved.
    late.bots_due = None
    assert late.bots_due_at(seated) == seated + timedelta(seconds=0.1 + 1.5)
    # Where the bot's seats are hidden, the moment is the slowest bot's on every seat.
    hidden = _table(press="gunboat")
    hidden.join(ALICE)
    hidden.seat_bots(GM, bot="random")
    hidden.start(GM, T0)
    assert hidden.bots_hidden
    assert hidden.bots_due == T0 + timedelta(seconds=7 * max(THINKING_SECONDS.values()))


def test_only_a_player_files_and_only_the_game_master_adjudicates() -> None:
    table = _started()
    assert "only a player files" in _refused(Refused.FORBIDDEN, table.file, GM, [], turn="S1901M").message
    _refused(Refused.FORBIDDEN, table.adjudicate, ALICE, turn="S1901M", moment=T0)
    # A postal game's master acts for each power, as its player's letters ask.
    postal = _table(postal=True)
    postal.file(Actor("gm", for_power="fra"), ["A PAR - BUR"], turn=None)
    assert postal.game.filed["FRANCE"] == ["A PAR - BUR"]
    _refused(Refused.FORBIDDEN, _table().file, Actor("gm", for_power="fra"), [], turn=None)


# --- draws ------------------------------------------------------------------------------------------


def test_a_unanimous_draw_of_the_powers_still_in_ends_the_game() -> None:
    table = _table(draw_votes="open")
    table.join(ALICE, "FRANCE")
    table.join(BOB, "ENGLAND")
    table.seat_bots(GM)
    table.start(GM, T0)
    table.events.clear()
    assert not table.vote_draw(ALICE, True)
    assert table.events == [VotesCast("S1901M", votes=("FRANCE",))]
    assert table.vote_draw(BOB, True)
    assert table.status is Status.FINISHED and table.game.outcome() == {
        "result": "draw",
        "powers": list(table.game.powers),
        "agreed": "S1901M",
    }
    assert "draws are voted in a game under way" in _refused(Refused.CONFLICT, table.vote_draw, ALICE, True).message


def test_secret_votes_tell_nobody_and_the_hidden_bot_votes_as_the_game_master_casts() -> None:
    table = _table(press="gunboat")
    table.join(ALICE)
    table.seat_bots(GM)
    table.start(GM, T0)
    table.events.clear()
    assert not table.vote_draw(ALICE, True) and table.events == []
    assert table.status is Status.ACTIVE  # the bot's seats do not go with her: they are hidden
    assert table.vote_draw(GM, True)
    assert "only a player votes" in _refused(Refused.FORBIDDEN, _table().vote_draw, GM, True).message


# --- press --------------------------------------------------------------------------------------------


def test_press_is_addressed_by_the_game_s_rules() -> None:
    table = _started(press="black")
    table.join(BOB, "ENGLAND") if table.seat("ENGLAND").player is None and not table.seat("ENGLAND").bot else None
    message = table.send(ALICE, ["eng", "Germany"], "hello", claim="ita")
    assert message == Message("S1901M", "FRANCE", ("ENGLAND", "GERMANY"), "hello", "ITALY")
    assert table.events == [MessageSent("S1901M", audience=frozenset({"FRANCE", "ENGLAND", "GERMANY"}))]
    assert shown(message, 1, Member(Role.PLAYER, "ENGLAND"), PressMode.BLACK).sender == "ITALY"
    assert shown(message, 1, Member(Role.MASTER), PressMode.BLACK).sender == "FRANCE"
    assert "yourself" in _refused(Refused.BAD_REQUEST, table.send, ALICE, ["FRANCE"], "x").message
    assert "not 'PRUSSIA'" in _refused(Refused.BAD_REQUEST, table.send, ALICE, ["PRUSSIA"], "x").message
    white = _started(press="white")
    assert "only black press" in _refused(Refused.BAD_REQUEST, white.send, ALICE, "all", "x", "ENGLAND").message
    public = _started(press="public")
    assert "send to 'all'" in _refused(Refused.FORBIDDEN, public.send, ALICE, ["ENGLAND"], "x").message
    assert "no press" in _refused(Refused.FORBIDDEN, _started(press="none").send, ALICE, "all", "x").message
    assert "only players write" in _refused(Refused.FORBIDDEN, white.send, GM, "all", "x").message


def test_adjacency_limited_press_reaches_only_the_neighbours_a_power_sees() -> None:
    table = _started("diplomyopia", press_range="adjacent")
    assert "name them" in _refused(Refused.FORBIDDEN, table.send, ALICE, "all", "x").message
    refusal = _refused(Refused.FORBIDDEN, table.send, ALICE, ["TURKEY"], "x")
    assert "not TURKEY" in refusal.message
    with pytest.raises(Refusal, match="adjacency-limited press needs units that see every neighbour"):
        _table("fog-of-war", press_range="adjacent")
    with pytest.raises(Refusal, match="signed press only"):
        _table("diplomyopia", press_range="adjacent", press="grey")


def test_one_s_own_messages_are_never_unread() -> None:
    mine = shown(Message("S1901M", "FRANCE", None, "hi"), 1, Member(Role.PLAYER, "FRANCE"), PressMode.WHITE)
    theirs = shown(Message("S1901M", "ENGLAND", None, "yo"), 2, Member(Role.PLAYER, "FRANCE"), PressMode.WHITE)
    assert unread([mine, theirs], 0) == 1 and unread([mine, theirs], 2) == 0


# --- settings that would tell ----------------------------------------------------------------------


def test_settings_that_would_tell_players_what_is_hidden_are_refused() -> None:
    game = Game.create("fog-of-war", hold_empty_retreats=False)
    with pytest.raises(Refusal, match="whether a retreat season is played tells every power") as caught:
        TableSettings.for_game(game)
    assert caught.value.code == "leaky-options"
    assert TableSettings.for_game(game, accept_leaks=True).press is PressMode.WHITE
    with pytest.raises(Refusal, match="gunboat games vote for draws in secret"):
        TableSettings.for_game(Game.create("fog-of-war"), press="gunboat", draw_votes="open")
    with pytest.raises(Refusal, match="gunboat games do not count who is ready"):
        TableSettings.for_game(Game.create("fog-of-war"), press="gunboat", ready_counts=True)
    with pytest.raises(Refusal, match="deadlines are given per phase type"):
        TableSettings.for_game(Game.create("fog-of-war"), deadlines={"winter": 10})


# --- what each role sees --------------------------------------------------------------------------


def test_what_each_role_sees_of_the_page_and_the_board() -> None:
    table = _table(press="gunboat", observers="board")
    table.join(ALICE)
    table.seat_bots(GM)
    table.observe(CAROL)
    table.start(GM, T0)
    alice = table.member(ALICE).power
    as_alice = page(table, ALICE)
    assert [s.taken for s in as_alice.seats if s.power != alice] == [None] * 6
    assert not any(s.bot for s in as_alice.seats) and as_alice.invite is None
    as_master = page(table, GM)
    assert all(s.taken for s in as_master.seats) and as_master.invite == "secret"
    assert sight_of(table, ALICE)[0] is Sight.POWER
    assert sight_of(table, GM)[0] is Sight.MASTER
    assert sight_of(table, CAROL)[0] is Sight.BOARD
    assert page(table, Actor("dave")).role is Role.NONE
    _refused(Refused.FORBIDDEN, sight_of, table, Actor("dave"))
    press_only = _table(observers="press")
    press_only.observe(CAROL)
    assert "observers of this game see" in _refused(Refused.FORBIDDEN, sight_of, press_only, CAROL).message


def test_the_game_master_sees_every_seat_s_state() -> None:
    table = _table()
    table.join(ALICE, "FRANCE")
    table.join(BOB, "ITALY")
    table.seat_bots(GM)
    table.start(GM, T0)
    table.file(ALICE, ["A PAR - BUR"], turn="S1901M")
    table.mark_ready(ALICE, True, turn="S1901M", moment=T0)
    status = seat_status(table)
    assert status["FRANCE"] == "player, filed 1 line(s), ready"
    assert status["ENGLAND"] == "bot, not filed"


def test_observer_settings_are_typed() -> None:
    assert _table(observers="board").settings.observers is ObserverView.BOARD
    with pytest.raises(Refusal, match="observers is one of none, press, board"):
        _table(observers="everything")


def test_a_game_is_made_with_its_settings_or_refused_with_why() -> None:
    table = Table.create("n", "fog-of-war", {"end_year": 1905}, master=GM, name="mine", press="grey")
    assert table.master == "gm" and table.settings.name == "mine" and table.settings.press is PressMode.GREY
    assert table.status is Status.FORMING and table.game.variant.options.end_year == 1905
    assert _refused(Refused.BAD_REQUEST, Table.create, "n", "chess", {}, master=GM).code == "bad-preset"
    assert _refused(Refused.BAD_REQUEST, Table.create, "n", "fog-of-war", {"nope": 1}, master=GM).code == "bad-options"
    refused = _refused(Refused.BAD_REQUEST, Table.create, "n", "fog-of-war", {"hold_empty_retreats": False}, master=GM)
    assert refused.code == "leaky-options"
    _refused(Refused.FORBIDDEN, Table.create, "n", "fog-of-war", {}, master=Actor.nobody())


def test_only_members_read_press_and_only_players_keep_a_read_mark() -> None:
    table = _started()
    table.observe(CAROL)
    assert table.reader(CAROL).role is Role.OBSERVER
    assert "only the game's members" in _refused(Refused.FORBIDDEN, table.reader, Actor("dave")).message
    assert table.mark_read(ALICE, 5, 3).read == 3  # never past the list
    assert table.mark_read(ALICE, 1, 3).read == 3  # never back
    assert "only players keep count" in _refused(Refused.FORBIDDEN, table.mark_read, CAROL, 1, 3).message
