"""Timing attacks, played: how long an answer takes must not tell a hidden fact. Both were
found by an attacker review and fail on the code before their fix (docs/server.md, "What
timing tells"); each compares many timings, so that the noise of one does not decide.

- The fog outline of a map was kept for the whole process by the set of provinces fogged. A
  power's fog is where its own units stand, so whether a fog was drawn already told whether
  some player had drawn that exact fog: France's player guesses Germany's first moves, plays
  the guess as Germany in a game of its own against the bots, and times its first map. Now
  each power keeps the outlines of its own maps only.
- A stranger's stream to a private game was refused after reading the game, its seats and
  whether the caller watches it, and at once for a game that does not exist: whoever holds a
  game's id could tell whether it exists. Now one query decides, as over HTTP.
- The last ready mark of a turn let the bot choose for its seats in that request, from the
  boards its powers see: how long the answer took told the player something of those hidden
  boards. Now the bot chooses off every request from the turn's start, and files at a moment
  the seats alone set; the ready mark answers at once, and the turn is played then.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from fogdip.bots.base import thinking_time
from fogdip.client import FogdipClient

from servers import ServerProcess, account, start_server

#: Germany's first-turn orders: each leaves a fog of its own (and none the fog of HOLD), and
#: none can be bounced or dislodged by anything another power can do in Spring 1901.
GUESSES = [
    ["A MUN H", "A BER H", "F KIE - HOL"],
    ["A MUN H", "A BER - KIE", "F KIE - HOL"],
    ["A MUN H", "A BER H", "F KIE - DEN"],
    ["A MUN H", "A BER - KIE", "F KIE - DEN"],
    ["A MUN H", "A BER H", "F KIE - BAL"],
    ["A MUN H", "A BER - KIE", "F KIE - BAL"],
    ["A MUN H", "A BER H", "F KIE - HEL"],
    ["A MUN H", "A BER - KIE", "F KIE - HEL"],
    ["A MUN - RUH", "A BER H", "F KIE H"],
    ["A MUN - RUH", "A BER H", "F KIE - HOL"],
    ["A MUN - RUH", "A BER - KIE", "F KIE - HOL"],
    ["A MUN - RUH", "A BER H", "F KIE - DEN"],
    ["A MUN - RUH", "A BER - KIE", "F KIE - DEN"],
    ["A MUN - RUH", "A BER H", "F KIE - BAL"],
    ["A MUN - RUH", "A BER - KIE", "F KIE - BAL"],
    ["A MUN - RUH", "A BER H", "F KIE - HEL"],
]
HOLD = ["A MUN H", "A BER H", "F KIE H"]
FRENCH = ["A PAR H", "A MAR H", "F BRE H"]


@pytest.fixture
def quiet_server(tmp_path: object) -> Iterator[ServerProcess]:
    # A quiet server: no full garbage-collector pass, nor deadline keeper, in the middle of an
    # ask (on a busy server the attacker only needs more turns to see past the noise).
    quiet = {"FOGDIP_RATE": "100000", "FOGDIP_DEADLINE_CHECK": "30", "FOGDIP_GC_EVERY": "3600"}
    running = start_server(tmp_path / "data", env=quiet)  # type: ignore[operator]
    yield running
    running.stop()


def _first_ask_excess(http: httpx.Client, game_id: str) -> float:
    """How much longer the first ask for the map takes than the quickest of the next eight."""
    time.sleep(0.3)  # let the turn's event reach the hub, away from the asks
    assert http.get(f"/api/v1/games/{game_id}/view").status_code == 200  # all else warm
    times = []
    for _ in range(9):
        start = time.perf_counter()
        answer = http.get(f"/api/v1/games/{game_id}/map.svg")
        times.append(time.perf_counter() - start)
        assert answer.status_code == 200
    return times[0] - min(times[1:])


def test_a_map_s_time_does_not_tell_where_another_power_s_units_are(quiet_server: ServerProcess) -> None:
    server = quiet_server
    master, france, germany = (account(server, name) for name in ("rvmaster", "rvfrance", "rvgermany"))
    token = france.make_token("attack")
    attacker = FogdipClient(server.url, token=token)
    http = httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}, timeout=30)
    german_http = httpx.Client(
        base_url=server.url, headers={"Authorization": f"Bearer {germany.make_token('v')}"}, timeout=30
    )
    played = [i % 2 == 0 for i in range(len(GUESSES))]  # the hidden fact: did Germany play the guess?
    excess = []
    for guess, right in zip(GUESSES, played, strict=True):
        # The victim's game: Germany plays the guess, or holds; then looks at its map.
        game = master.create_game("fog-of-war", name="victim")
        attacker.join(game.id, "FRANCE", invite=game.invite)
        germany.join(game.id, "GERMANY", invite=game.invite)
        master.start(game.id)
        attacker.file_orders(game.id, FRENCH)
        germany.file_orders(game.id, guess if right else HOLD)
        master.adjudicate(game.id)
        assert german_http.get(f"/api/v1/games/{game.id}/map.svg").status_code == 200
        # The attack: the guess played in a game of France's player's own, against the bots.
        own = attacker.against_bots("fog-of-war", power="GERMANY")
        attacker.file_orders(own.id, guess)
        attacker.ready(own.id)
        attacker.wait_until_played(own.id, "S1901M")
        excess.append(_first_ask_excess(http, own.id))
    quick_when_right = sum(
        excess[i] < excess[j] for i in range(len(GUESSES)) if played[i] for j in range(len(GUESSES)) if not played[j]
    )
    millis = [round(e * 1000, 2) for e in excess]
    assert quick_when_right < 56, (
        "France's player tells Germany's real moves from how long its own map takes to draw: "
        f"quicker when right in {quick_when_right} of 64 pairs; first-ask excess in ms {millis}, "
        f"guess right: {played}"
    )


def test_a_stranger_s_stream_is_refused_as_quickly_whether_the_game_exists(quiet_server: ServerProcess) -> None:
    server = quiet_server
    master, stranger = account(server, "rvmaster"), account(server, "rvstranger")
    token = stranger.make_token("probe")
    game = master.create_game("fog-of-war")  # private: the stranger has its id, not its invitation
    missing = "x" * len(game.id)

    def handshake(game_id: str) -> float:
        url = server.url.replace("http://", "ws://") + f"/api/v1/games/{game_id}/stream"
        start = time.perf_counter()
        with pytest.raises(InvalidStatus) as refused:
            connect(url, additional_headers={"Authorization": f"Bearer {token}"}, open_timeout=10)
        assert refused.value.response.status_code == 403
        return time.perf_counter() - start

    for _ in range(20):  # warm up
        handshake(game.id)
        handshake(missing)
    times: dict[str, list[float]] = {game.id: [], missing: []}
    for round_ in range(800):
        for game_id in (game.id, missing) if round_ % 2 else (missing, game.id):  # drift falls on both
            times[game_id].append(handshake(game_id))
    exists, absent = times[game.id], times[missing]
    longer = _alike(exists, absent)
    assert longer < 0.55, (
        f"a private game's stream takes longer to refuse than a missing game's in {longer:.0%} of pairs "
        f"(medians {sorted(exists)[400] * 1000:.2f} ms and {sorted(absent)[400] * 1000:.2f} ms)"
    )


def _alike(one: list[float], other: list[float]) -> float:
    """How often a time of ``one`` exceeds a time of ``other``, over every pair: a half when
    the two come from one distribution."""
    return sum(a > b for a in one for b in other) / (len(one) * len(other))


def test_a_player_s_reads_take_no_longer_when_others_talk_or_file(quiet_server: ServerProcess) -> None:
    """A review found that a player's message list was read by scanning every message of the
    game (slower when others exchange private press), and every read of a game decoded what
    every seat had filed (slower when others have filed). A request's work must depend only on
    what its caller may know: France's reads are timed in two games that differ only in what
    England and Germany say to each other and file."""
    server = quiet_server
    master = account(server, "rtmaster")
    france, england, germany = (account(server, name) for name in ("rtfrance", "rtengland", "rtgermany"))
    games = []
    for loud in (False, True):
        game = master.create_game("fog-of-war", name="timing")
        for client, power in ((france, "FRANCE"), (england, "ENGLAND"), (germany, "GERMANY")):
            client.join(game.id, power, invite=game.invite)
        master.start(game.id)
        france.send_message(game.id, "all", "hello from France")
        if loud:
            for number in range(150):
                england.send_message(game.id, ["GERMANY"], f"a secret, number {number}, " + "x" * 200)
                germany.send_message(game.id, ["ENGLAND"], f"an answer, number {number}, " + "y" * 200)
            england.file_orders(game.id, ["F LON - ENG", "F EDI - NTH", "A LVP - YOR"])
            germany.file_orders(game.id, ["A MUN - RUH", "A BER - KIE", "F KIE - HOL"])
        games.append(game.id)
    http = httpx.Client(
        base_url=server.url, headers={"Authorization": f"Bearer {france.make_token('probe')}"}, timeout=30
    )
    for path in ("/messages", "/view", ""):
        times: dict[str, list[float]] = {game_id: [] for game_id in games}
        for round_ in range(320):
            for game_id in games if round_ % 2 else reversed(games):  # interleaved: drift falls on both
                start = time.perf_counter()
                answer = http.get(f"/api/v1/games/{game_id}{path}")
                elapsed = time.perf_counter() - start
                assert answer.status_code == 200
                if round_ >= 20:  # warm up first
                    times[game_id].append(elapsed)
        quiet, loud = (times[game_id] for game_id in games)
        longer = _alike(loud, quiet)
        assert 0.4 < longer < 0.6, (
            f"France's GET {path or 'game'} takes longer when others talk and file in {longer:.0%} of pairs "
            f"(medians {sorted(loud)[150] * 1000:.2f} ms and {sorted(quiet)[150] * 1000:.2f} ms)"
        )


def test_the_last_ready_mark_never_waits_for_the_bot_and_the_turn_is_played_when_the_seats_say(
    quiet_server: ServerProcess,
) -> None:
    """How long the bot thinks depends on the boards its powers see, hidden from the player; so
    the ready mark that completes a turn must not wait for it. Timed against the slowest bot
    and the quickest (the contrast of what the old code spent thinking in that request,
    0.2 s to a second against well under a millisecond): the answers must be alike. The turn
    is then played when the bot files, at the moment the seats set (the turn's start and the
    longest each bot may think), not before."""
    server = quiet_server
    player = account(server, "rbplayer")
    # Played once the bot filed, at the seats' moment: six bots' longest thinking after the
    # turn began; not before, and not long after (the bot chose meanwhile).
    for bot in ("random", "search"):
        began = time.monotonic()
        made = player.against_bots("fog-of-war", power="FRANCE", bot=bot)
        player.ready(made.id, turn="S1901M")
        after = player.wait_until_played(made.id, "S1901M", timeout=60, every=0.02)
        waited, pause = time.monotonic() - began, 6 * thinking_time(bot)
        assert after.turn != "S1901M" and pause <= waited <= pause + 5, (bot, waited, pause)
    times: dict[str, list[float]] = {"search": [], "random": []}
    for round_ in range(12):
        for bot in ("search", "random") if round_ % 2 else ("random", "search"):  # drift falls on both
            made = player.against_bots("fog-of-war", power="FRANCE", bot=bot)
            player.file_orders(made.id, FRENCH, turn="S1901M")
            start = time.perf_counter()
            marked = player.ready(made.id, turn="S1901M")
            times[bot].append(time.perf_counter() - start)
            assert marked.adjudicated is None and marked.note and "as soon as the bot has filed" in marked.note
    slow, quick = times["search"], times["random"]
    assert _alike(slow, quick) < 0.8 and max(slow) < 0.25, (
        f"the last ready mark waits for the bot: against search {[round(t * 1000, 1) for t in slow]} ms, "
        f"against random {[round(t * 1000, 1) for t in quick]} ms"
    )
