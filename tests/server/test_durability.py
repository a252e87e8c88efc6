"""Many players at once, and a server killed with SIGKILL mid-work: every acknowledged order
and turn survives, nothing is done twice, and the game reads back whole."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from fogdip.client import FogdipClient

from servers import ServerProcess, start_server

PASSWORD = "correct horse battery"
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
#: Two sets of legal orders per power for Spring 1901, to file in turn.
ORDERS = {
    "AUSTRIA": (["A VIE H", "A BUD H", "F TRI H"], ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"]),
    "ENGLAND": (["F LON H", "F EDI H", "A LVP H"], ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"]),
    "FRANCE": (["A PAR H", "A MAR H", "F BRE H"], ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"]),
    "GERMANY": (["A BER H", "A MUN H", "F KIE H"], ["A BER - KIE", "A MUN - RUH", "F KIE - DEN"]),
    "ITALY": (["A ROM H", "A VEN H", "F NAP H"], ["A ROM - APU", "A VEN - PIE", "F NAP - ION"]),
    "RUSSIA": (
        ["A MOS H", "A WAR H", "F SEV H", "F STP/SC H"],
        ["A MOS - UKR", "A WAR - GAL", "F SEV - BLA", "F STP/SC - BOT"],
    ),
    "TURKEY": (["A CON H", "A SMY H", "F ANK H"], ["A CON - BUL", "A SMY - ARM", "F ANK - BLA"]),
}


def seven_players(server: ServerProcess) -> tuple[str, dict[str, FogdipClient]]:
    master = FogdipClient(server.url)
    master.sign_up("master", PASSWORD)
    master.sign_in("master", PASSWORD)
    game = master.create_game("fog-of-war", {"end_year": 1910})
    players = {}
    for power in POWERS:
        client = FogdipClient(server.url)
        client.sign_up(power.lower(), PASSWORD)
        client.sign_in(power.lower(), PASSWORD)
        client.join(game.id, power, invite=game.invite)
        players[power] = client
    master.start(game.id)
    return game.id, players


def test_seven_players_file_at_the_same_instant(fresh_server: ServerProcess) -> None:
    server = fresh_server  # a server of the test's own: these tests kill it
    game_id, players = seven_players(server)
    start = threading.Barrier(len(players))

    def file(power: str) -> bool:
        start.wait()
        return players[power].file_orders(game_id, ORDERS[power][1]).filed

    with ThreadPoolExecutor(len(players)) as pool:
        assert all(pool.map(file, POWERS))
    for power, client in players.items():
        assert client.view(game_id)["filed"] == ORDERS[power][1]


def test_no_acknowledged_order_is_lost_when_the_server_is_killed(fresh_server: ServerProcess, tmp_path: Path) -> None:
    """Seven players file again and again; the server is killed with SIGKILL in the middle.
    On restart each power's filed orders are the last ones acknowledged to it, or the one
    request that was in flight when the server died."""
    server = fresh_server  # a server of the test's own: these tests kill it
    game_id, players = seven_players(server)
    acknowledged: dict[str, list[str]] = {}
    in_flight: dict[str, list[list[str]]] = {power: [] for power in POWERS}
    stop = threading.Event()

    def keep_filing(power: str) -> None:
        count = 0
        while not stop.is_set():
            lines = ORDERS[power][count % 2]
            in_flight[power].append(lines)
            try:
                players[power].file_orders(game_id, lines)
            except Exception:  # the server died under it
                return
            acknowledged[power] = lines
            in_flight[power] = []
            count += 1

    threads = [threading.Thread(target=keep_filing, args=(power,)) for power in POWERS]
    for thread in threads:
        thread.start()
    time.sleep(1.5)
    server.kill()
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    assert len(acknowledged) == len(POWERS), "every player had orders acknowledged before the kill"
    restarted = start_server(server.log.parent, _database_of(server))
    try:
        for power, client in players.items():
            client.use_server(restarted.url)
            filed = client.view(game_id)["filed"]
            assert filed == acknowledged[power] or filed in in_flight[power], power
    finally:
        restarted.stop()


def test_no_acknowledged_message_is_lost_when_the_server_is_killed(fresh_server: ServerProcess) -> None:
    """Seven players write to each other and to all as fast as they can; the server is killed
    with SIGKILL in the middle. On restart every acknowledged message is there, once, for its
    sender and each recipient; at most the one in flight per sender besides."""
    server = fresh_server  # a server of the test's own: these tests kill it
    game_id, players = seven_players(server)
    sent: dict[str, list[str]] = {power: [] for power in POWERS}
    in_flight: dict[str, str | None] = dict.fromkeys(POWERS)
    stop = threading.Event()

    def keep_writing(power: str) -> None:
        count = 0
        others = [other for other in POWERS if other != power]
        while not stop.is_set():
            body = f"{power} #{count}"
            to: list[str] | str = "all" if count % 3 == 0 else [others[count % len(others)]]
            in_flight[power] = body
            try:
                players[power].send_message(game_id, to, body)
            except Exception:  # the server died under it
                return
            sent[power].append(body)
            in_flight[power] = None
            count += 1

    threads = [threading.Thread(target=keep_writing, args=(power,)) for power in POWERS]
    for thread in threads:
        thread.start()
    time.sleep(1.5)
    server.kill()
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    assert all(sent.values()), "every player had messages acknowledged before the kill"
    restarted = start_server(server.log.parent, _database_of(server))
    try:
        for power, client in players.items():
            client.use_server(restarted.url)
            mine = client.messages(game_id).messages
            bodies = [message.body for message in mine]
            assert len(bodies) == len(set(bodies)), f"{power} reads a message twice"
            assert [m.index for m in mine] == list(range(1, len(mine) + 1))
            own = [message.body for message in mine if message.yours]
            extra = own[len(sent[power]) :]
            assert own[: len(sent[power])] == sent[power] and extra in ([], [in_flight[power]]), power
        for power, client in players.items():  # every recipient has what was sent to it
            received = {message.body for message in client.messages(game_id).messages if not message.yours}
            for sender, bodies in sent.items():
                others = [other for other in POWERS if other != sender]
                for count, body in enumerate(bodies):
                    meant = count % 3 == 0 or others[count % len(others)] == power
                    if sender != power and meant:
                        assert body in received, f"{power} lost {body!r}"
        # the game is whole: it goes on
        assert players["FRANCE"].file_orders(game_id, ORDERS["FRANCE"][1]).filed
    finally:
        restarted.stop()


def test_every_turn_is_adjudicated_once_when_the_server_is_killed(fresh_server: ServerProcess) -> None:
    server = fresh_server  # a server of the test's own: these tests kill it
    player = FogdipClient(server.url)
    player.sign_up("player", PASSWORD)
    player.sign_in("player", PASSWORD)
    game = player.against_bots("fog-of-war", {"end_year": 1950}, power="FRANCE")
    played: list[str] = []
    stop = threading.Event()

    def keep_playing() -> None:
        while not stop.is_set():
            try:
                playing = player.game(game.id).turn
                player.ready(game.id, turn=playing)
                player.wait_until_played(game.id, playing, timeout=10)  # as soon as the bot has filed
            except Exception:
                return
            played.append(playing)

    thread = threading.Thread(target=keep_playing)
    thread.start()
    # A turn takes the bot's time to file (0.6 s) and more on a busy machine: several are
    # played before the kill, wherever it falls.
    give_up = time.monotonic() + 60
    while len(played) < 3 and time.monotonic() < give_up:
        time.sleep(0.1)
    time.sleep(0.3)
    server.kill()
    stop.set()
    thread.join(timeout=30)
    assert len(played) >= 2
    restarted = start_server(server.log.parent, _database_of(server))
    try:
        player.use_server(restarted.url)
        history = [report["phase"] for report in player.view(game.id)["reports"][1:]]
        assert len(history) == len(set(history)), "a turn was adjudicated twice"
        # every acknowledged turn is there, in order; at most the one in flight besides
        assert history[: len(played)] == played and len(history) - len(played) in (0, 1)
        playing = player.game(game.id).turn
        player.ready(game.id, turn=playing)
        player.wait_until_played(game.id, playing, timeout=30)  # the bot plays on after the restart
        assert player.view(game.id)["reports"][-1]["phase"] == playing
    finally:
        restarted.stop()


def _database_of(server: ServerProcess) -> str | None:
    """The database URL a server was started with (None: its embedded SQLite)."""
    args = server.process.args
    assert isinstance(args, list)
    return str(args[args.index("--database") + 1]) if "--database" in args else None


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def test_the_bot_s_process_goes_with_its_server_however_the_server_ends(fresh_server: ServerProcess) -> None:
    """The bot thinks in a process of its own (fogdip.server.bot_seats): a server stopped, or
    killed outright, leaves none behind (a test run once left 94, 76 MB each)."""
    for ending in ("stop", "kill"):
        server = fresh_server if ending == "stop" else start_server(fresh_server.log.parent / "again")
        player = FogdipClient(server.url)
        player.sign_up(f"lone{ending}", PASSWORD)
        player.sign_in(f"lone{ending}", PASSWORD)
        game = player.against_bots("fog-of-war", power="FRANCE")
        player.ready(game.id, turn="S1901M")
        player.wait_until_played(game.id, "S1901M", timeout=60)  # the bot's process has thought
        bots = _children(server.process.pid)
        assert bots, "the bot thinks in a process of its own"
        server.stop() if ending == "stop" else server.kill()
        give_up = time.monotonic() + 15
        while any(Path(f"/proc/{pid}").exists() for pid in bots) and time.monotonic() < give_up:
            time.sleep(0.2)
        left = [
            pid
            for pid in bots
            if Path(f"/proc/{pid}/stat").exists() and " Z " not in Path(f"/proc/{pid}/stat").read_text()
        ]
        assert not left, f"the bot's process outlived its server ({ending}): {left}"
