"""Load on a real ``fogdip serve``: simulated players on loopback, through ``fogdip.client``.

    python bench/load.py                                  # SQLite (a fresh data directory), one process
    python bench/load.py --database postgresql            # a throwaway PostgreSQL 15 cluster
    python bench/load.py --database postgresql --processes 2
    python bench/load.py --all --json load.json           # the three configurations, one after another
    python bench/load.py --players 100 --games 20 --rounds 3   # a quick look

By default 500 players play 100 games of the ``fog-of-war`` preset: five human seats a game,
the other two seated with the default bot (``heuristic``) by the game master. Every player signs up, makes a
personal API token (so that the load itself never hashes a password), joins its game with the
invitation, and holds the game's WebSocket stream open for the whole run, counting what it
hears. Each round (one phase of its game) every player, with a think time between requests:
lists its games, reads its view (and picks the random bot's lines for its own units from its
latest report, ``fogdip.bots.seen_bot.bot_lines``), reads its map, reads its new messages,
sends a message, files its orders, and marks them ready. It plays in a browser too (a session
cookie of its own): each round it loads the first page (its games), the game page, the game
page's scripts, styles and other static files with a warm cache (each a conditional request,
as a reload makes: ``304 Not Modified``; a file served without validators, such as the map's
geography, is not asked for again), and, once its orders are filed, the board partial
the page reads again. The last ready mark adjudicates the
turn; in a fifth of the games (``--master-share``) the players do not mark ready and the game
master adjudicates once all have filed. A game plays ``--rounds`` phases (or rounds until
``--duration`` seconds have passed). Players act through a pool of ``--workers`` threads,
each request a task due at its moment: the table also says how late the tasks started, so a
load generator that fell behind shows.

PostgreSQL's programs are taken from ``/usr/lib/postgresql/15/bin`` (or ``PATH``); as root
they run as the ``postgres`` user (``runuser``). ``--processes 2`` starts two ``fogdip serve``
on two ports sharing the database, and splits the players between them (streams included).

Every server is started with ``FOGDIP_RATE`` raised (``--rate``, default 1,000,000 a minute):
all players come from 127.0.0.1, whose per-address limit is four times a client's (and with
``FOGDIP_STREAMS_PER_ADDRESS`` raised, for all their streams). It prints
requests per second and p50/p95/p99 latency per kind of request, the lag from a turn's
adjudication to each stream hearing of it, the CPU the server and the bench used, and every
error (status, code, message); a run should have none. Needs ``websockets`` (``pip install
".[test]"``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import heapq
import itertools
import json
import math
import os
import queue
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from fogdip.bots.seen_bot import bot_lines
from fogdip.client import ApiFailure, FogdipClient
from fogdip.codec.api import TurnOut
from fogdip.codec.observations import observation_from_json
from fogdip.game import Game
from fogdip.server.auth import COOKIE
from fogdip.variants import Variant

PASSWORD = "correct horse battery staple"
PRESET = "fog-of-war"

#: Each kind of request, in the order the table shows them, with what it is.
KINDS: dict[str, str] = {
    "orders": "PUT .../orders (file orders)",
    "view": "GET .../view",
    "map": "GET .../map.svg",
    "game": "GET /games/{id}",
    "lobby": "GET /games (own games only)",
    "messages": "GET .../messages?since=",
    "send": "POST .../messages",
    "ready": "POST .../ready (turn waits)",
    "ready+adj": "POST .../ready (adjudicates)",
    "adjudicate": "POST .../adjudicate (game master)",
    "home": "GET / (first page, signed in)",
    "page": "GET /games/{id} (the game page)",
    "board": "GET /games/{id}/board (partial)",
    "static": "GET static file (warm cache: 304)",
}
#: What a player does in a round, in order; a game the game master adjudicates has no 'ready'.
STEPS = ("home", "page", "static", "lobby", "view", "map", "game", "messages", "send", "orders", "board", "ready")
#: The kinds the target (p99 under 100 ms on SQLite) is about.
TARGET_KINDS = ("orders", "view", "map", "game")
TARGET_MS = 100.0
#: The pages a browser loads: their p99 is reported against the same target.
PAGE_KINDS = ("home", "page", "board", "static")

#: A page's links to the server's own immutable files (scripts, styles, the map's geography, which the
#: map's script reads from ``data-board``).
_ASSET = re.compile(r'(?:src|href|data-board)="(/(?:static|maps)/[^"]+)"')


# --- servers: ``fogdip serve`` processes and a throwaway PostgreSQL cluster -------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    """A running ``fogdip serve``: its address and process."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def cpu_seconds(self) -> float:
        """User and system CPU time the process has used so far."""
        return _proc_cpu(self.process.pid)

    def memory_mb(self) -> float:
        """The process's resident memory at its highest so far, in MB."""
        return _proc_memory(self.process.pid)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def _proc_cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # After the command's closing parenthesis: state is field 3, utime 14 and stime 15.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _proc_memory(pid: int) -> float:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    return int(fields.get("VmHWM", "0 kB").split()[0]) / 1024


@contextmanager
def _collector_held() -> Iterator[None]:
    """The bench's own garbage collector kept from full passes while it measures.

    A full pass over the bench's objects (hundreds of clients and streams, every latency
    recorded) stops all its threads for a fifth of a second or more, and each request waiting
    for its answer then would be counted late by that much: the bench's pause, not the
    server's. What exists at the start is frozen and only young objects are collected during
    the run (the quick passes that free most garbage); a full pass follows it.
    """
    thresholds = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(thresholds[0], thresholds[1], 1_000_000_000)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()
        gc.collect()


def _machine_busy() -> tuple[float, float]:
    """The machine's (busy, total) CPU time so far, from /proc/stat, in clock ticks."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return float(sum(values) - idle), float(sum(values))


def start_server(data: Path, database: str | None, rate: int, env: dict[str, str] | None = None) -> Server:
    """``fogdip serve`` on a free port, waited for until ``/healthz`` answers. Every player
    comes from 127.0.0.1: the rate (``rate``) and the streams an address may hold are raised
    for it; ``env`` sets more."""
    port = free_port()
    data.mkdir(parents=True, exist_ok=True)
    log = data / f"server-{port}.log"
    command = [sys.executable, "-m", "fogdip", "serve", "--data", str(data), "--port", str(port)]
    if database:
        command += ["--database", database]
    env = {
        **os.environ,
        "FOGDIP_LOG_LEVEL": "warning",
        "FOGDIP_RATE": str(rate),
        "FOGDIP_STREAMS_PER_ADDRESS": "100000",
        **(env or {}),
    }
    with log.open("ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"fogdip serve exited with {process.returncode}:\n{log.read_text()}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return Server(url, process, log)
        time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"fogdip serve did not answer within 60 s:\n{log.read_text()}")


def _pg_bin(name: str) -> str:
    for version in ("15", "16", "17"):
        candidate = Path(f"/usr/lib/postgresql/{version}/bin/{name}")
        if candidate.exists():
            return str(candidate)
    found = shutil.which(name)
    if found:
        return found
    raise SystemExit(f"PostgreSQL's {name} was not found (Debian: apt install postgresql-15)")


def _as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: its programs run as the ``postgres`` user then."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@contextmanager
def postgres_database() -> Iterator[str]:
    """A fresh database on a PostgreSQL cluster made for the run (removed after): its URL."""
    directory = Path(tempfile.mkdtemp(prefix="fogdip-load-pg-"))
    data = directory / "data"
    if os.geteuid() == 0:
        shutil.chown(directory, "postgres", "postgres")
    port = free_port()
    initdb = [_pg_bin("initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8"]
    subprocess.run(_as_postgres(initdb), check=True, capture_output=True)
    options = f"-p {port} -c listen_addresses=127.0.0.1 -k {directory} -c max_connections=200"
    start = [_pg_bin("pg_ctl"), "-D", str(data), "-o", options, "-l", str(directory / "pg.log"), "-w", "start"]
    subprocess.run(_as_postgres(start), check=True, capture_output=True)
    try:
        name = f"fogdip_load_{uuid.uuid4().hex[:8]}"
        createdb = [_pg_bin("createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", name]
        subprocess.run(_as_postgres(createdb), check=True, capture_output=True)
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/{name}"
    finally:
        stop = [_pg_bin("pg_ctl"), "-D", str(data), "-m", "fast", "stop"]
        subprocess.run(_as_postgres(stop), capture_output=True)
        shutil.rmtree(directory, ignore_errors=True)


def _postgres_cpu(database: str) -> float:
    """CPU time used so far by the processes of the cluster serving ``database`` (found by
    its port on their command lines, or as children of its postmaster)."""
    port = database.rsplit(":", 1)[1].split("/", 1)[0]
    postmasters = set()
    children: dict[int, list[int]] = defaultdict(list)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue
        children[parent].append(int(entry.name))
        if "postgres" in command and f"-p {port}" in command:
            postmasters.add(int(entry.name))
    total = 0.0
    for pid in postmasters:
        total += _proc_cpu(pid) + sum(_proc_cpu(child) for child in children[pid])
    return total


# --- measurements ---------------------------------------------------------------------------


@dataclass
class Failure:
    kind: str
    status: int
    code: str
    message: str


@dataclass
class Recorder:
    """Every request's latency by kind, every failure, and how late each task started."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    #: Every answered request: its kind, when it started (``time.perf_counter``) and its latency.
    samples: list[tuple[str, float, float]] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    start_lags: list[float] = field(default_factory=list)
    first: float = math.inf
    last: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def call(self, kind: str, action: Callable[[], Any], classify: Callable[[Any], str] | None = None) -> Any:
        """Run one request, timing it; a failure is recorded (and ``None`` returned)."""
        start = time.perf_counter()
        try:
            answer = action()
        except ApiFailure as exc:
            self._failed(kind, start, exc.status, exc.code, exc.message)
            return None
        except httpx.HTTPError as exc:
            self._failed(kind, start, 0, type(exc).__name__, str(exc)[:200])
            return None
        end = time.perf_counter()
        if classify is not None:
            kind = classify(answer)
        with self.lock:
            self.latencies[kind].append(end - start)
            self.samples.append((kind, start, end - start))
            self.first = min(self.first, start)
            self.last = max(self.last, end)
        return answer

    def _failed(self, kind: str, start: float, status: int, code: str, message: str) -> None:
        with self.lock:
            self.failures.append(Failure(kind, status, code, message))
            self.first = min(self.first, start)
            self.last = max(self.last, time.perf_counter())


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of ``values`` (``share`` from 0 to 1)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


# --- the simulated players -------------------------------------------------------------------


@dataclass
class Player:
    name: str
    client: FogdipClient
    token: str
    url: str
    browser: httpx.Client  # its browser: the session's cookie
    game: GameRun | None = None
    power: str = ""
    step: int = 0
    seen: int = 0  # the index of the last message it has read
    lines: list[str] = field(default_factory=list)
    turn: str = "S1901M"  # the turn its view showed: its orders and ready mark name it
    #: The static files its game page names, with the validator its browser keeps for each.
    assets: dict[str, dict[str, str]] = field(default_factory=dict)


@dataclass
class GameRun:
    id: str
    master: FogdipClient
    invite: str
    by_master: bool  # the game master adjudicates; else the last ready mark does
    players: list[Player] = field(default_factory=list)
    turn: str = "S1901M"  # the turn to play: the game master's adjudication names it
    rounds: int = 0
    done: int = 0  # players through this round
    over: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)


class Scheduler:
    """Tasks due at moments, run by a pool of threads; ``wait`` returns once nothing is due,
    running or left to be scheduled (tasks schedule their successors). One dispatcher thread
    watches the clock and hands each due task to one worker (a queue): waking every worker at
    each moment would cost the bench more CPU than the requests it makes."""

    def __init__(self, workers: int, recorder: Recorder) -> None:
        self._heap: list[tuple[float, int, Callable[[], None]]] = []
        self._count = itertools.count()
        self._cond = threading.Condition()
        self._outstanding = 0  # scheduled and not yet finished
        self._done = threading.Condition()
        self._ready: queue.SimpleQueue[tuple[float, Callable[[], None]] | None] = queue.SimpleQueue()
        self._closed = False
        self._recorder = recorder
        self._threads = [threading.Thread(target=self._work, daemon=True) for _ in range(workers)]
        self._dispatcher = threading.Thread(target=self._dispatch, daemon=True)
        for thread in (*self._threads, self._dispatcher):
            thread.start()

    def at(self, due: float, task: Callable[[], None]) -> None:
        with self._done:
            self._outstanding += 1
        with self._cond:
            heapq.heappush(self._heap, (due, next(self._count), task))
            self._cond.notify()  # only the dispatcher waits here: it looks at the new earliest

    def _dispatch(self) -> None:
        while True:
            with self._cond:
                while not self._closed and (not self._heap or self._heap[0][0] > time.perf_counter()):
                    self._cond.wait(None if not self._heap else self._heap[0][0] - time.perf_counter())
                if self._closed:
                    return
                due, _, task = heapq.heappop(self._heap)
            self._ready.put((due, task))

    def _work(self) -> None:
        while True:
            item = self._ready.get()
            if item is None:
                return
            due, task = item
            with self._recorder.lock:
                self._recorder.start_lags.append(time.perf_counter() - due)
            try:
                task()
            finally:
                with self._done:
                    self._outstanding -= 1
                    if self._outstanding == 0:
                        self._done.notify_all()

    def wait(self) -> None:
        with self._done:
            while self._outstanding:
                self._done.wait(1.0)
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        for _ in self._threads:
            self._ready.put(None)


@dataclass
class Plan:
    rounds: int
    duration: float | None
    think: float
    spread: float
    gap: float


class Load:
    """The players' rounds: each step one request, each game's next round once its turn is
    adjudicated."""

    def __init__(self, plan: Plan, variant: Variant, recorder: Recorder, scheduler: Scheduler, seed: int) -> None:
        self.plan = plan
        self.variant = variant
        self.recorder = recorder
        self.scheduler = scheduler
        self.rng = random.Random(seed)
        self.rng_lock = threading.Lock()
        self.started = 0.0
        #: When each (game, turn) became the turn to play, by the clock of the request that did it.
        self.turn_times: dict[tuple[str, str], float] = {}

    def _uniform(self, low: float, high: float) -> float:
        with self.rng_lock:
            return self.rng.uniform(low, high)

    def start(self, games: list[GameRun]) -> None:
        self.started = time.perf_counter()
        for game in games:
            self._round(game, self.started)

    def _round(self, game: GameRun, moment: float) -> None:
        game.done = 0
        for player in game.players:
            player.step = 0
            self.scheduler.at(moment + self._uniform(0, self.plan.spread), lambda p=player: self._step(p))

    def _steps(self, game: GameRun) -> tuple[str, ...]:
        return STEPS[:-1] if game.by_master else STEPS

    def _step(self, player: Player) -> None:
        game = player.game
        assert game is not None
        steps = self._steps(game)
        kind = steps[player.step]
        last = player.step == len(steps) - 1
        player.step += 1
        round_number = game.rounds
        self._request(player, game, kind)
        if not last:
            think = self._uniform(0.5, 1.5) * self.plan.think
            self.scheduler.at(time.perf_counter() + think, lambda: self._step(player))
            return
        with game.lock:
            if game.rounds != round_number:
                return  # this player's ready mark adjudicated the turn: the next round is under way
            game.done += 1
            everyone = game.done == len(game.players)
        if everyone:
            # The game master's turn to adjudicate (or, after a failed ready mark, its stand-in).
            think = self._uniform(0.5, 1.5) * self.plan.think
            self.scheduler.at(time.perf_counter() + think, lambda: self._adjudicate(game))

    def _request(self, player: Player, game: GameRun, kind: str) -> None:
        client, record = player.client, self.recorder.call
        if kind == "home":
            record(kind, lambda: _load(player.browser, "/"))
        elif kind == "page":
            page = record(kind, lambda: _load(player.browser, f"/games/{game.id}"))
            if page is not None and not player.assets:
                player.assets = _validators(player.browser, page.text)
        elif kind == "static":
            for path, validators in player.assets.items():
                record(kind, lambda p=path, v=validators: _load(player.browser, p, v, expect=304))
        elif kind == "board":
            record(kind, lambda: _load(player.browser, f"/games/{game.id}/board"))
        elif kind == "lobby":
            record(kind, client.games)
        elif kind == "view":
            player.lines = []  # a view not read: no orders (the power holds), never last turn's
            view = record(kind, lambda: client.view(game.id))
            if view is not None:
                player.turn = view["next_turn"]
                with self.rng_lock:
                    seed = self.rng.random()
                seen = observation_from_json(view["reports"][-1])
                player.lines = bot_lines(self.variant, seen, random.Random(seed))
        elif kind == "map":
            record(kind, lambda: client.map_svg(game.id))
        elif kind == "game":
            record(kind, lambda: client.game(game.id))
        elif kind == "messages":
            read = record(kind, lambda: client.messages(game.id, since=player.seen))
            if read is not None and read.messages:
                player.seen = read.messages[-1].index
        elif kind == "send":
            others = [p.power for p in game.players if p is not player]
            with self.rng_lock:
                to: list[str] | str = "all" if self.rng.random() < 0.5 else [self.rng.choice(others)]
            body = f"{player.power} in round {game.rounds + 1}: shall we talk about the border?"
            record(kind, lambda: client.send_message(game.id, to, body))
        elif kind == "orders":
            record(kind, lambda: client.file_orders(game.id, player.lines, turn=player.turn))
        elif kind == "ready":
            turn = record(
                kind,
                lambda: client.ready(game.id, turn=player.turn),
                lambda t: "ready+adj" if t.adjudicated else "ready",
            )
            if turn is not None and turn.adjudicated:
                self._advanced(game, turn)

    def _adjudicate(self, game: GameRun) -> None:
        # Every seat was ready but the bot's still thinking: the turn is played as it files
        # (within a second of the turn's start), so the master looks before it adjudicates.
        now = self.recorder.call("game", lambda: game.master.game(game.id))
        if now is not None and (now.turn != game.turn or now.status == "finished"):
            self._advanced(game, TurnOut(adjudicated=game.turn, next=now.turn, completed=now.status == "finished"))
            return
        turn = self.recorder.call("adjudicate", lambda: game.master.adjudicate(game.id, turn=game.turn))
        if turn is not None:
            self._advanced(game, turn)

    def _advanced(self, game: GameRun, turn: TurnOut) -> None:
        moment = time.perf_counter()
        with game.lock:
            game.rounds += 1
            game.turn = turn.next
            self.turn_times[(game.id, turn.next)] = moment
            more = game.rounds < self.plan.rounds and not turn.completed
            if self.plan.duration is not None:
                more = not turn.completed and moment - self.started < self.plan.duration
            game.over = not more
        if more:
            self._round(game, moment + self.plan.gap)


# --- the streams ------------------------------------------------------------------------------


@dataclass
class Streams:
    """Every player's WebSocket stream, held open in one asyncio thread; each event counted,
    and when each phase event arrived."""

    opened: int = 0
    refused: list[str] = field(default_factory=list)
    events: Counter[str] = field(default_factory=Counter)
    phase_arrivals: list[tuple[str, str, float]] = field(default_factory=list)
    closed_early: int = 0
    _loop: asyncio.AbstractEventLoop | None = None
    _thread: threading.Thread | None = None
    _stop: asyncio.Event | None = None
    _ready: threading.Event = field(default_factory=threading.Event)

    def open(self, players: list[Player]) -> None:
        """Open every stream; return once each has said hello (or was refused)."""
        self._thread = threading.Thread(target=lambda: asyncio.run(self._main(players)), daemon=True)
        self._thread.start()
        self._ready.wait()

    async def _main(self, players: list[Player]) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        gate = asyncio.Semaphore(50)
        hellos = [asyncio.Event() for _ in players]
        tasks = [asyncio.create_task(self._hold(p, gate, hello)) for p, hello in zip(players, hellos, strict=True)]
        await asyncio.gather(*(hello.wait() for hello in hellos))
        self._ready.set()
        await self._stop.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _hold(self, player: Player, gate: asyncio.Semaphore, hello: asyncio.Event) -> None:
        assert player.game is not None and self._stop is not None
        url = player.url.replace("http://", "ws://") + f"/api/v1/games/{player.game.id}/stream"
        try:
            async with gate:
                connection = await connect(url, additional_headers={"Authorization": f"Bearer {player.token}"})
            async with connection:
                self.opened += 1
                async for raw in connection:
                    event = json.loads(raw)
                    self.events[event["type"]] += 1
                    if event["type"] == "hello":
                        hello.set()
                    elif event["type"] == "phase":
                        self.phase_arrivals.append((event["game"], event["turn"], time.perf_counter()))
            if not self._stop.is_set():
                self.closed_early += 1
        except ConnectionClosed:
            if not self._stop.is_set():
                self.closed_early += 1
        except Exception as exc:  # refused, or the server went away: reported, not fatal
            self.refused.append(f"{player.name}: {type(exc).__name__}: {exc}")
        finally:
            hello.set()

    def close(self) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(timeout=30)


# --- one configuration ------------------------------------------------------------------------


@dataclass
class Config:
    database: str  # sqlite or postgresql
    processes: int

    @property
    def label(self) -> str:
        if self.database == "sqlite":
            return "SQLite, 1 process"
        return f"PostgreSQL, {self.processes} process{'es' if self.processes > 1 else ''}"


def _account(url: str, name: str) -> tuple[str, FogdipClient, str]:
    """A new account, its API token (the client speaks with it) and a browser session's
    cookie."""
    with FogdipClient(url) as signing:
        signing.sign_up(name, PASSWORD)
        signing.sign_in(name, PASSWORD)
        token = signing.make_token("load")
        cookie = signing._http.cookies.get(COOKIE) or ""
    return token, FogdipClient(url, token=token), cookie


def _browser(url: str, cookie: str) -> httpx.Client:
    """A browser signed in by its session's cookie, keeping its connections as one does."""
    return httpx.Client(
        base_url=url, cookies={COOKIE: cookie}, timeout=30.0, limits=httpx.Limits(keepalive_expiry=60.0)
    )


def _load(browser: httpx.Client, path: str, headers: dict[str, str] | None = None, expect: int = 200) -> httpx.Response:
    """A page or file as a browser loads it; any other status than ``expect`` is a failure."""
    answer = browser.get(path, headers=headers)
    if answer.status_code != expect:
        raise ApiFailure(answer.status_code, "page", f"GET {path}: {answer.text[:200]}")
    return answer


def _validators(browser: httpx.Client, page: str) -> dict[str, dict[str, str]]:
    """The static files a page names, each loaded once (the browser's cache, cold), with the
    headers a reload sends to revalidate it."""
    out = {}
    for path in sorted(set(_ASSET.findall(page))):
        answer = browser.get(path.replace("&amp;", "&"))
        if answer.status_code == 200:
            kept = {
                "if-none-match": answer.headers.get("etag", ""),
                "if-modified-since": answer.headers.get("last-modified", ""),
            }
            validators = {name: value for name, value in kept.items() if value}
            if validators:  # a file without them is never asked for again while it is kept
                out[path.replace("&amp;", "&")] = validators
    return out


def _seats(players: int, games: int) -> list[int]:
    """Human seats per game: ``players`` spread evenly over ``games``, at most seven each."""
    base, extra = divmod(players, games)
    seats = [base + (1 if i < extra else 0) for i in range(games)]
    if max(seats) > 7 or min(seats) < 1:
        raise SystemExit(f"{players} players over {games} games: a game has from 1 to 7 human seats")
    return seats


def run_config(config: Config, args: argparse.Namespace) -> dict[str, Any]:
    """Start the servers, set the games up, run the load, and return the figures."""
    with contextlib.ExitStack() as stack:
        data = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="fogdip-load-")))
        database = stack.enter_context(postgres_database()) if config.database == "postgresql" else None
        servers: list[Server] = []
        stack.callback(lambda: [server.stop() for server in servers])
        for number in range(config.processes):
            servers.append(start_server(data / f"server{number}", database, args.rate))
        print(
            f"\n== {config.label}: {args.players} players, {args.games} games of {PRESET}; "
            f"servers {', '.join(s.url for s in servers)}; FOGDIP_RATE={args.rate} (raised for the bench), "
            "FOGDIP_LOG_LEVEL=warning",
            flush=True,
        )
        return _run(config, args, servers, database)
    raise AssertionError("unreachable")


def _run(config: Config, args: argparse.Namespace, servers: list[Server], database: str | None) -> dict[str, Any]:
    rng = random.Random(args.seed)
    seats = _seats(args.players, args.games)
    variant = Game.create(PRESET).variant
    powers = list(Game.create(PRESET).powers)
    run_tag = uuid.uuid4().hex[:6]
    clients: list[FogdipClient] = []

    # Accounts (each password hashed once at sign-up and once at sign-in: the slow part of setup).
    setup_start = time.perf_counter()
    masters_count = max(1, min(args.masters, args.games))
    names = [f"gm{g}-{run_tag}" for g in range(masters_count)] + [f"p{i}-{run_tag}" for i in range(args.players)]
    urls = [servers[i % len(servers)].url for i in range(len(names))]
    with ThreadPoolExecutor(args.setup_workers) as pool:
        made = list(pool.map(_account, urls, names))
    clients.extend(client for _, client, _ in made)
    masters = [client for _, client, _ in made[:masters_count]]
    players = [
        Player(name, client, token, url, _browser(url, cookie))
        for name, (token, client, cookie), url in zip(
            names[masters_count:], made[masters_count:], urls[masters_count:], strict=True
        )
    ]
    accounts_seconds = time.perf_counter() - setup_start

    # Games: created private, joined by invitation, bots on the free seats, started.
    runs: list[GameRun] = []
    masters_share = max(0, min(args.games, round(args.games * args.master_share)))
    next_player = iter(players)

    def make_game(number: int) -> GameRun:
        master = masters[number % len(masters)]
        created = master.create_game(PRESET, name=f"load {number}", private=True)
        assert created.invite is not None
        return GameRun(created.id, master, created.invite, by_master=number < masters_share)

    with ThreadPoolExecutor(args.setup_workers) as pool:
        runs = list(pool.map(make_game, range(args.games)))
    for run, count in zip(runs, seats, strict=True):
        for power in rng.sample(powers, count):
            player = next(next_player)
            player.game, player.power = run, power
            run.players.append(player)

    def seat_and_start(run: GameRun) -> None:
        for player in run.players:
            player.client.join(run.id, player.power, invite=run.invite)
        run.master.seat_bots(run.id)
        run.master.start(run.id)

    with ThreadPoolExecutor(args.setup_workers) as pool:
        list(pool.map(seat_and_start, runs))
    setup_seconds = time.perf_counter() - setup_start
    print(
        f"setup: {len(names)} accounts with tokens in {accounts_seconds:.1f} s; games made, joined and "
        f"started in {setup_seconds - accounts_seconds:.1f} s",
        flush=True,
    )

    streams = Streams()
    streams.open(players)
    print(f"streams: {streams.opened} open, {len(streams.refused)} refused", flush=True)

    recorder = Recorder()
    plan = Plan(args.rounds, args.duration, args.think, args.spread, args.gap)
    cpu_before = [server.cpu_seconds() for server in servers]
    pg_before = _postgres_cpu(database) if database else 0.0
    busy_before = _machine_busy()
    bench_before = time.process_time()
    wall_start = time.perf_counter()
    profilers = _profile(servers, args.profile, config) if args.profile else []
    scheduler = Scheduler(args.workers, recorder)
    load = Load(plan, variant, recorder, scheduler, args.seed)
    with _collector_held():
        load.start(runs)
        scheduler.wait()
    wall = time.perf_counter() - wall_start
    bench_cpu = time.process_time() - bench_before
    busy_after = _machine_busy()
    server_cpu = [server.cpu_seconds() - before for server, before in zip(servers, cpu_before, strict=True)]
    server_memory = [server.memory_mb() for server in servers]
    pg_cpu = (_postgres_cpu(database) - pg_before) if database else 0.0
    for profiler in profilers:
        profiler.send_signal(signal.SIGINT)
        profiler.wait(timeout=60)
    time.sleep(1.5)  # the last phase events (SQLite's hub looks four times a second)
    streams.close()

    lobby = _lobby_probe(servers[0].url, masters[0], args.open_games) if args.open_games else None
    for client in clients:
        client.close()
    for player in players:
        player.browser.close()

    turns = sum(run.rounds for run in runs)
    lags = []
    early = 0
    for game_id, turn, arrived in streams.phase_arrivals:
        done = load.turn_times.get((game_id, turn))
        if done is not None:
            if arrived < done:
                early += 1
            lags.append(max(0.0, arrived - done))
    expected_phase_events = sum(run.rounds * len(run.players) for run in runs)
    window = recorder.last - recorder.first
    if args.samples is not None:
        _write_samples(args.samples, config, recorder)
    result = {
        "config": config.label,
        "players": args.players,
        "games": args.games,
        "processes": config.processes,
        "database": config.database,
        "turns": turns,
        "rounds_per_game": args.rounds if args.duration is None else None,
        "duration": args.duration,
        "think": args.think,
        "wall_seconds": wall,
        "requests": sum(len(v) for v in recorder.latencies.values()) + len(recorder.failures),
        "rps": (sum(len(v) for v in recorder.latencies.values()) + len(recorder.failures)) / window,
        "kinds": {
            kind: {
                "count": len(values),
                "rps": len(values) / window,
                "p50": percentile(values, 0.50) * 1000,
                "p95": percentile(values, 0.95) * 1000,
                "p99": percentile(values, 0.99) * 1000,
                "max": max(values) * 1000,
            }
            for kind in KINDS
            if (values := recorder.latencies.get(kind))
        },
        "start_lag_p99": percentile(recorder.start_lags, 0.99) * 1000,
        "start_lag_max": max(recorder.start_lags, default=0.0) * 1000,
        "stream": {
            "opened": streams.opened,
            "refused": streams.refused,
            "closed_early": streams.closed_early,
            "events": dict(streams.events),
            "phase_events": len(streams.phase_arrivals),
            "phase_events_expected": expected_phase_events,
            "lag_p50": percentile(lags, 0.50) * 1000,
            "lag_p95": percentile(lags, 0.95) * 1000,
            "lag_p99": percentile(lags, 0.99) * 1000,
            "lag_max": max(lags, default=math.nan) * 1000,
            "before_response": early,
        },
        "errors": [vars(failure) for failure in recorder.failures],
        "server_cpu": server_cpu,
        "server_memory_mb": server_memory,
        "bench_memory_mb": _proc_memory(os.getpid()),
        "postgres_cpu": pg_cpu,
        "bench_cpu": bench_cpu,
        "machine_busy": (busy_after[0] - busy_before[0]) / max(busy_after[1] - busy_before[1], 1.0),
        "other_cpu": (busy_after[0] - busy_before[0]) / os.sysconf("SC_CLK_TCK") - sum(server_cpu) - pg_cpu - bench_cpu,
        "setup_seconds": setup_seconds,
        "lobby_probe": lobby,
        "unfinished_games": sum(1 for run in runs if not run.over),
    }
    print_result(result)
    return result


def _profile(servers: list[Server], directory: Path, config: Config) -> list[subprocess.Popen[bytes]]:
    """py-spy recording each server while the load runs: samples of the thread holding the GIL
    (what the server's Python spends its time on), as raw collapsed stacks."""
    directory.mkdir(parents=True, exist_ok=True)
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    tag = f"{config.database}-{config.processes}"
    profilers = []
    for number, server in enumerate(servers):
        output = directory / f"{tag}-server{number}.txt"
        command = [spy, "record", "--pid", str(server.process.pid), "--gil", "--rate", "200", "--format", "raw"]
        profilers.append(subprocess.Popen([*command, "--output", str(output)], stdout=subprocess.DEVNULL))
        print(f"profiling {server.url} into {output}", flush=True)
    return profilers


def _lobby_probe(url: str, master: FogdipClient, open_games: int) -> dict[str, float]:
    """After the load: how long ``GET /api/v1/games`` takes once ``open_games`` open (public)
    games are listed to everyone, read one at a time by a newcomer."""
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda n: master.create_game(PRESET, name=f"open {n}", private=False), range(open_games)))
    _token, newcomer, _cookie = _account(url, f"newcomer-{uuid.uuid4().hex[:6]}")
    with newcomer:
        times = []
        for _ in range(30):
            start = time.perf_counter()
            listed = newcomer.games()
            times.append(time.perf_counter() - start)
    return {
        "open_games": len(listed),
        "p50": percentile(times, 0.5) * 1000,
        "max": max(times) * 1000,
    }


# --- reporting ------------------------------------------------------------------------------


def _write_samples(path: Path, config: Config, recorder: Recorder) -> None:
    """Append every request of the run to ``path``, a JSON object a line: the configuration,
    the kind, when it started (seconds from the run's first request) and its latency in ms; to
    see when the slowest requests came, and what else was happening then."""
    with path.open("a") as out:
        for kind, start, latency in sorted(recorder.samples, key=lambda sample: sample[1]):
            line = {"config": config.label, "kind": kind, "start": start - recorder.first, "ms": latency * 1000}
            out.write(json.dumps(line) + "\n")


def print_result(result: dict[str, Any]) -> None:
    window = result["requests"] / result["rps"] if result["rps"] else 0.0
    print(
        f"\n{result['config']}: {result['requests']} requests in {window:.1f} s = {result['rps']:.0f} requests/s; "
        f"{result['turns']} turns adjudicated; think time {result['think']} s; server CPU "
        f"{1000 * (sum(result['server_cpu']) + result['postgres_cpu']) / max(result['requests'], 1):.1f} ms a request"
        + (" (PostgreSQL's included)" if result["database"] == "postgresql" else "")
    )
    print(f"{'request':<34} {'count':>6} {'req/s':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for kind, row in result["kinds"].items():
        print(
            f"{KINDS[kind]:<34} {row['count']:>6} {row['rps']:>7.1f} {row['p50']:>8.1f} {row['p95']:>8.1f} "
            f"{row['p99']:>8.1f} {row['max']:>8.1f}"
        )
    stream = result["stream"]
    print(
        f"{'stream: phase event lag':<34} {stream['phase_events']:>6} {'':>7} {stream['lag_p50']:>8.1f} "
        f"{stream['lag_p95']:>8.1f} {stream['lag_p99']:>8.1f} {stream['lag_max']:>8.1f}"
    )
    print(
        f"streams: {stream['opened']} held open, {stream['closed_early']} closed early, "
        f"{len(stream['refused'])} refused; events heard {stream['events']}; phase events "
        f"{stream['phase_events']} of {stream['phase_events_expected']} expected "
        f"({stream['before_response']} arrived before the adjudicating response; lag counted as 0)"
    )
    print(
        f"load generator: tasks started late by p99 {result['start_lag_p99']:.1f} ms, max "
        f"{result['start_lag_max']:.1f} ms; CPU: server {' + '.join(f'{c:.1f}' for c in result['server_cpu'])} s"
        + (f", PostgreSQL {result['postgres_cpu']:.1f} s" if result["database"] == "postgresql" else "")
        + f", bench {result['bench_cpu']:.1f} s over {result['wall_seconds']:.1f} s; machine "
        f"{result['machine_busy'] * 100:.0f}% busy, of which {result['other_cpu']:.1f} CPU s by other work; "
        f"server memory at its highest {' + '.join(f'{m:.0f}' for m in result['server_memory_mb'])} MB, "
        f"bench {result['bench_memory_mb']:.0f} MB"
    )
    if result["lobby_probe"]:
        probe = result["lobby_probe"]
        print(
            f"lobby probe: GET /api/v1/games listing {probe['open_games']} open games: "
            f"p50 {probe['p50']:.1f} ms, max {probe['max']:.1f} ms (one request at a time, after the load)"
        )
    if result["unfinished_games"]:
        print(f"games that stopped short of their rounds: {result['unfinished_games']}")
    if result["database"] == "sqlite":
        worst = max(result["kinds"][k]["p99"] for k in TARGET_KINDS if k in result["kinds"])
        verdict = "met" if worst < TARGET_MS and not result["errors"] else "NOT met"
        print(
            f"target (p99 < {TARGET_MS:.0f} ms for orders and reads, no errors): {verdict} (worst p99 {worst:.1f} ms)"
        )
        pages = [result["kinds"][k]["p99"] for k in PAGE_KINDS if k in result["kinds"]]
        if pages:
            verdict = "met" if max(pages) < TARGET_MS else "NOT met"
            print(
                f"pages (p99 < {TARGET_MS:.0f} ms for the pages and files a browser loads): {verdict} (worst p99 {max(pages):.1f} ms)"
            )
    print(f"errors: {len(result['errors'])}")
    for failure in result["errors"][:50]:
        print(f"  {failure['kind']}: {failure['status']} {failure['code']}: {failure['message']}")
    if len(result["errors"]) > 50:
        print(f"  ... and {len(result['errors']) - 50} more")


def print_summary(results: list[dict[str, Any]]) -> None:
    print(f"\n== summary ({date.today().isoformat()}): p99 ms per kind")
    kinds = [k for k in KINDS if any(k in r["kinds"] for r in results)]
    print(
        f"{'configuration':<24} {'req/s':>6} " + " ".join(f"{k:>10}" for k in kinds) + f" {'lag p99':>8} {'errors':>6}"
    )
    for r in results:
        cells = " ".join(f"{r['kinds'][k]['p99'] if k in r['kinds'] else math.nan:>10.1f}" for k in kinds)
        print(f"{r['config']:<24} {r['rps']:>6.0f} {cells} {r['stream']['lag_p99']:>8.1f} {len(r['errors']):>6}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n", 1)[0], formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument(
        "--processes", type=int, choices=(1, 2), default=1, help="fogdip serve processes (2: PostgreSQL only)"
    )
    parser.add_argument("--all", action="store_true", help="SQLite; PostgreSQL with 1 process; PostgreSQL with 2")
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=6, help="phases each game plays (default 6)")
    parser.add_argument(
        "--duration", type=float, default=None, help="seconds: start new rounds until then (instead of --rounds)"
    )
    parser.add_argument(
        "--think", type=float, default=10.0, help="mean seconds between one player's requests (default 10)"
    )
    parser.add_argument(
        "--spread", type=float, default=10.0, help="seconds over which a round's players start (default 10)"
    )
    parser.add_argument(
        "--gap", type=float, default=1.0, help="seconds from a turn's adjudication to its next round (default 1)"
    )
    parser.add_argument(
        "--master-share", type=float, default=0.2, help="share of games the game master adjudicates (default 0.2)"
    )
    parser.add_argument("--workers", type=int, default=200, help="threads driving the players (default 200)")
    parser.add_argument(
        "--masters",
        type=int,
        default=20,
        help="game master accounts, each mastering its share of the games (default 20)",
    )
    parser.add_argument("--setup-workers", type=int, default=8)
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        help="record each server with py-spy (--gil, raw stacks) into this directory",
    )
    parser.add_argument(
        "--open-games", type=int, default=100, help="open games for the lobby probe after the load (0: none)"
    )
    parser.add_argument("--rate", type=int, default=1_000_000, help="FOGDIP_RATE for the servers (default 1,000,000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument(
        "--samples", type=Path, default=None, help="append every request (kind, start, latency) here, a JSON line each"
    )
    args = parser.parse_args(argv)
    if args.duration is not None:
        args.rounds = 10**9
    if args.processes == 2 and args.database != "postgresql" and not args.all:
        parser.error("two processes share a PostgreSQL database: add --database postgresql")
    configs = (
        [Config("sqlite", 1), Config("postgresql", 1), Config("postgresql", 2)]
        if args.all
        else [Config(args.database, args.processes)]
    )
    results = [run_config(config, args) for config in configs]
    if len(results) > 1:
        print_summary(results)
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2, default=str))
    return 1 if any(r["errors"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
