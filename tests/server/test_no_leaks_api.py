"""No information leaks, as a property of the whole API: two games that differ in one fact a
party may not know give that party byte-identical answers, on every endpoint and its stream.

A *world* is one game set up through the API with a given hidden fact. A *probe* gathers every
answer a party (a player's account, an observer's, the game master's) can get about its game,
as bytes: its page, its entry in the games list, the view, every map it may ask for, the
messages, the exports, and the answers to changes it may try (orders naming units it cannot
see, its own orders, ready and draw marks, messages to all and to some, joining and
watching, the game master's actions), each change undone or made alike in both worlds. The
party's WebSocket stream is opened before the game starts and read until the game master's
last adjudication reaches it, and a little after. Only the game's id (and, for the game
master, its invitation) is normalised; nothing else differs between two games.

Each case runs two worlds on one server and asserts that what the probed parties receive is
the same, while what the game master (or whoever may know the fact) receives is not: the
harness sees a difference where there is one to see.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from fogdip.client import FogdipClient

from servers import PASSWORD, ServerProcess, start_server, take_seat

#: The accounts of every world, by part: the same accounts play alike in both worlds. Their
#: names are unlike anything a game holds, so that finding one in an answer is a finding.
KEYS = ("master", "france", "germany", "england", "italy", "alice", "bob", "watcher", "stranger")

#: How long a stream is still read once the last phase reached it.
GRACE = 0.4

#: Lines a power files about units it may not see (Germany's army in Munich, out of France's
#: sight; the Ruhr, where it may have gone), with ordinary ones: filed together, each line's
#: verdict is part of the answer. Then lines France may file, two of them supports of unseen
#: units (filed: under fog the map alone judges them), and its usual ones.
PROBE_LINES = (
    "A MUN H",
    "A MUN - RUH",
    "A RUH - BUR",
    "A RUH H",
    "A PAR S A MUN",
    "A PAR S A MUN - BUR",
    "A MAR S A RUH - BUR",
    "F BRE S A RUH - BEL",
    "A PAR - RUH",
    "A MAR - MUN",
    "A PAR - BUR",
    "F BRE - ENG",
)
SUPPORT_LINES = ("A PAR S A MUN - BUR", "A MAR S A RUH - BUR", "F BRE - ENG")
OWN_LINES = ("A PAR H", "A MAR H", "F BRE H")

#: Messages a party tries to send: to all, to one power, to two, to itself, to no power, and
#: claiming another sender (black press only).
PROBE_MESSAGES: tuple[dict[str, Any], ...] = (
    {"to": "all"},
    {"to": ["GERMANY"]},
    {"to": ["ENGLAND", "ITALY"]},
    {"to": ["FRANCE"]},
    {"to": ["SPAIN"]},
    {"to": "all", "claim": "TURKEY"},
)

#: The game master's changes, tried by everyone else.
MASTER_ONLY: tuple[tuple[str, str, dict[str, Any] | None], ...] = (
    ("POST", "adjudicate", None),
    ("POST", "start", None),
    ("POST", "pause", None),
    ("POST", "resume", None),
    ("POST", "extend", {"seconds": 60}),
    ("POST", "bots", {"powers": ["RUSSIA"]}),
)


@dataclass
class Account:
    name: str
    token: str
    client: FogdipClient  # sets worlds up; raises on an error answer
    http: httpx.Client  # the probe's: every answer as it comes


@dataclass
class Env:
    server: ServerProcess
    accounts: dict[str, Account]


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def env(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Env]:
    """One server for every world of this module (each case's games side by side), with its
    accounts; the rate limit raised, since one address makes every request."""
    database = request.getfixturevalue("postgres").new_database() if request.param == "postgresql" else None
    running = start_server(tmp_path_factory.mktemp("no-leaks") / "data", database, env={"FOGDIP_RATE": "1000000"})
    accounts = {}
    try:
        for key in KEYS:
            name = f"zq{key}"
            with FogdipClient(running.url) as session:
                session.sign_up(name, PASSWORD)
                session.sign_in(name, PASSWORD)
                token = session.make_token("no-leaks")
            http = httpx.Client(base_url=running.url, headers={"Authorization": f"Bearer {token}"}, timeout=30)
            accounts[key] = Account(name, token, FogdipClient(running.url, token=token), http)
        yield Env(running, accounts)
    finally:
        for account in accounts.values():
            account.client.close()
            account.http.close()
        running.stop()


# --- a world: one game, its parties, what each received -----------------------------------------


class World:
    """One game with its hidden fact, set up through the API: players on ``players`` (power:
    account key), the bot on ``bots``, every other seat empty (so no ready mark or draw vote
    of a probe ever completes a turn or the game), the watcher observing; each probed party's
    stream open from before the start."""

    def __init__(
        self,
        env: Env,
        preset: str,
        *,
        players: dict[str, str],
        bots: Sequence[str] = (),
        probed: Sequence[str] = ("FRANCE", "observer"),
        private: bool = True,
        **settings: Any,
    ) -> None:
        self.env = env
        master = env.accounts["master"].client
        game = master.create_game(preset, name="no leaks", private=private, **settings)
        assert game.invite is not None
        self.id, self.invite = game.id, game.invite
        self.players = {power: env.accounts[key] for power, key in players.items()}
        for power, account in self.players.items():
            take_seat(account.client, master, self.id, power, self.invite)
        if bots:
            master.seat_bots(self.id, list(bots))
        env.accounts["watcher"].client.observe(self.id, invite=self.invite)
        self.parties: dict[str, Account] = {label: self._account(label) for label in (*probed, "master")}
        self.filed: dict[str, list[str]] = {}
        self.played: list[str] = []
        #: The turn to play now: every change a probe tries names it, as a client does.
        self.turn = game.turn
        self.mapped: set[tuple[str, str]] = set()
        self.answers: dict[str, list[tuple[str, bytes]]] = {label: [] for label in self.parties}
        self.heard: dict[str, list[bytes]] = {label: [] for label in self.parties}
        self.streams: dict[str, ClientConnection] = {}
        self._held = contextlib.ExitStack()
        for label, account in self.parties.items():
            url = env.server.url.replace("http://", "ws://") + f"/api/v1/games/{self.id}/stream"
            try:
                stream = self._held.enter_context(
                    connect(
                        url,
                        additional_headers={"Authorization": f"Bearer {account.token}"},
                        open_timeout=10,
                        max_queue=None,
                    )
                )
            except InvalidStatus as refused:  # not a member: the stream is refused, alike
                self.heard[label].append(f"refused: {refused.response.status_code}".encode())
                continue
            self.streams[label] = stream
            # the hello comes once the stream hears the game's events: none is missed after it
            self.heard[label].append(_bytes(stream.recv(timeout=10)))
        master.start(self.id)

    def _account(self, label: str) -> Account:
        if label == "master":
            return self.env.accounts["master"]
        if label == "observer":
            return self.env.accounts["watcher"]
        if label == "outsider":  # no member of the game: probed where the game is open
            return self.env.accounts["stranger"]
        return self.players[label]

    # --- what happens in the game ------------------------------------------------------------

    def file(self, power: str, lines: list[str]) -> None:
        self.players[power].client.file_orders(self.id, lines, turn=self.turn)
        self.filed[power] = lines

    def send(self, power: str, to: list[str] | str, body: str, claim: str | None = None) -> None:
        self.players[power].client.send_message(self.id, to, body, claim=claim)

    def adjudicate(self) -> None:
        turn = self.env.accounts["master"].client.adjudicate(self.id, turn=self.turn)
        assert turn.adjudicated is not None
        self.played.append(turn.adjudicated)
        self.turn = turn.next
        self.filed = {}  # a played turn's orders are gone

    # --- probes --------------------------------------------------------------------------

    def checkpoint(self, tag: str) -> None:
        """Probe every party, in the same order in every world (a probe's messages to all
        reach the parties probed after it)."""
        for label in self.parties:
            self._probe(tag, label)
        for label in self.streams:
            self._pump(label)

    def _probe(self, tag: str, label: str) -> None:
        http = self.parties[label].http
        game = f"/api/v1/games/{self.id}"
        out = self.answers[label]

        def ask(what: str, method: str, path: str, **kwargs: Any) -> httpx.Response:
            answer = http.request(method, game + path, **kwargs)
            head = f"{answer.status_code} {answer.headers.get('content-type')}\n".encode()
            out.append((f"{tag} {what}", head + answer.content))
            return answer

        ask("GET game", "GET", "")
        listed = http.get("/api/v1/games")
        entry = next((g for g in listed.json() if g["id"] == self.id), None) if listed.status_code == 200 else {}
        out.append((f"{tag} GET games (its entry)", f"{listed.status_code} {json.dumps(entry)}".encode()))
        ask("GET view", "GET", "/view")
        ask("GET map", "GET", "/map.svg")
        # the map after each phase told so far (and the opening one, cropped too), asked once:
        # it never changes once drawn; and a phase never played, whose refusal lists those told
        for phase in ("start", *self.played):
            if (label, phase) not in self.mapped:
                self.mapped.add((label, phase))
                ask(f"GET map phase={phase}", "GET", "/map.svg", params={"phase": phase})
                if phase == "start":
                    ask("GET map phase=start crop", "GET", "/map.svg", params={"phase": phase, "crop": "true"})
        ask("GET map phase=F1999M", "GET", "/map.svg", params={"phase": "F1999M"})
        ask("GET messages", "GET", "/messages")
        ask("GET messages since=1", "GET", "/messages", params={"since": 1})
        for form in ("fogdip", "mila"):
            ask(f"GET export {form}", "GET", "/export", params={"format": form})
        if label == "master":  # the game master's changes would change the game
            return
        if label != "outsider":  # it would make it an observer
            ask("POST observe", "POST", "/observe", json={})
        ask("POST join GERMANY", "POST", "/join", json={"power": "GERMANY"})
        turn = self.turn
        ask("PUT orders (probe lines)", "PUT", "/orders", json={"lines": list(PROBE_LINES), "turn": turn})
        ask("PUT orders (a turn played)", "PUT", "/orders", json={"lines": list(OWN_LINES), "turn": "W1900A"})
        if label in self.players:  # the others are refused before their lines are read
            ask("PUT orders (supports)", "PUT", "/orders", json={"lines": list(SUPPORT_LINES), "turn": turn})
            ask("PUT orders (own)", "PUT", "/orders", json={"lines": list(OWN_LINES), "turn": turn})
            restored = {"lines": self.filed.get(label, []), "turn": turn}
            ask("PUT orders (restored)", "PUT", "/orders", json=restored)
        for flag in (True, False):
            ask(f"POST ready {flag}", "POST", "/ready", json={"ready": flag, "turn": turn})
        for flag in (True, False):
            ask(f"POST draw {flag}", "POST", "/draw", json={"vote": flag})
        for number, message in enumerate(PROBE_MESSAGES):
            body = {**message, "body": f"{tag}: {label}'s probe {number}"}
            ask(f"POST messages {message}", "POST", "/messages", json=body)
        ask("GET messages (after)", "GET", "/messages")
        ask("POST messages/read", "POST", "/messages/read", json={"up_to": 1000})
        for method, path, change in MASTER_ONLY:
            body = {"turn": turn} if path == "adjudicate" else change
            ask(f"{method} {path}", method, f"/{path}", json=body)

    def _pump(self, label: str) -> None:
        """What the party's stream has received so far."""
        stream = self.streams[label]
        while True:
            try:
                self.heard[label].append(_bytes(stream.recv(timeout=0)))
            except TimeoutError:
                return

    # --- the end ---------------------------------------------------------------------------

    def wait_for_last_phase(self) -> None:
        """Read every stream until it has heard of every turn played."""
        for label, stream in self.streams.items():
            deadline = time.monotonic() + 20
            while sum(json.loads(raw)["type"] == "phase" for raw in self.heard[label]) < len(self.played):
                self.heard[label].append(_bytes(stream.recv(timeout=max(deadline - time.monotonic(), 0.01))))

    def close(self) -> None:
        for label in self.streams:
            self._pump(label)
        self._held.close()

    def transcript(self, label: str) -> list[tuple[str, bytes]]:
        """Everything the party received, the game's id and invitation normalised."""
        said = [*self.answers[label], *((f"stream #{i}", raw) for i, raw in enumerate(self.heard[label]))]
        assert len({what for what, _raw in said}) == len(said), "every answer is named once"
        return [
            (what, raw.replace(self.id.encode(), b"<GAME>").replace(self.invite.encode(), b"<INVITE>"))
            for what, raw in said
        ]


def _bytes(message: str | bytes) -> bytes:
    return message if isinstance(message, bytes) else message.encode()


def run(
    build: Callable[[object], World], play: Callable[[World, object], None], facts: tuple[object, object]
) -> tuple[World, World]:
    """Both worlds: each built and played with its fact; then the game master adjudicates in
    each (the streams' last marker), and every stream is read to its end."""
    worlds = []
    for fact in facts:
        world = build(fact)
        play(world, fact)
        worlds.append(world)
    for world in worlds:
        world.adjudicate()
    for world in worlds:
        world.wait_for_last_phase()
    time.sleep(GRACE)
    for world in worlds:
        world.close()
    return worlds[0], worlds[1]


# --- comparing ------------------------------------------------------------------------------------


def differences(one: World, other: World, label: str) -> list[str]:
    """Where the party's answers differ between the worlds, each explained."""
    a, b = dict(one.transcript(label)), dict(other.transcript(label))
    found = []
    for what in [*a, *(w for w in b if w not in a)]:
        x, y = a.get(what, b"<nothing>"), b.get(what, b"<nothing>")
        if x != y:
            at = next((i for i, (p, q) in enumerate(zip(x, y, strict=False)) if p != q), min(len(x), len(y)))
            start = max(at - 120, 0)
            found.append(
                f"{what}: differs at byte {at} (lengths {len(x)} and {len(y)})\n"
                f"    one:   {x[start : at + 120]!r}\n    other: {y[start : at + 120]!r}"
            )
    return found


def assert_same(one: World, other: World, *labels: str) -> None:
    for label in labels:
        found = differences(one, other, label)
        assert not found, f"{label} receives different answers in the two worlds:\n" + "\n".join(found[:8])
        assert len(one.transcript(label)) > 20  # the probe did probe


def assert_differs(one: World, other: World, label: str, where: str) -> None:
    """What ``label`` receives does differ, at an answer whose name holds ``where``: the
    worlds differ, and the harness sees it."""
    found = differences(one, other, label)
    assert any(where in line.partition(":")[0] for line in found), (
        f"{label} should see the worlds differ at {where!r}; differences: {[f.partition(':')[0] for f in found]}"
    )


def assert_no_account_names(world: World, *labels: str) -> None:
    """No other account's name anywhere in what each party receives."""
    for label in labels:
        received = b"\n".join(raw for _what, raw in world.transcript(label)).lower()
        own = world.parties[label].name
        for account in world.env.accounts.values():
            if account.name != own:
                assert account.name.encode() not in received, f"{label} receives {account.name!r}"


#: The games a case is played in: fog of war with its own press (white), fog of war with
#: gunboat press, and the standard game (no fog) with gunboat press.
KIND_GAMES = {
    "fog": ("fog-of-war", None),
    "gunboat": ("fog-of-war", "gunboat"),
    "standard-gunboat": ("standard", "gunboat"),
}


def game_of_kind(env: Env, kind: str, players: dict[str, str], **more: Any) -> World:
    """A world of one of :data:`KIND_GAMES`."""
    preset, press = KIND_GAMES[kind]
    return World(env, preset, players=players, press=press, **more)


KINDS = pytest.mark.parametrize("kind", ["fog", "gunboat"])


# --- the cases ------------------------------------------------------------------------------------


@KINDS
def test_orders_out_of_sight(env: Env, kind: str) -> None:
    """Germany's army in Munich holds, or goes to the Ruhr, out of France's sight: across the
    turn, its retreat season and the next turn, France and the observer receive the same
    bytes, orders naming the unseen unit included; Germany and the game master do not."""
    players = {"FRANCE": "france", "GERMANY": "germany"}

    def build(_fact: object) -> World:
        # Germany, who knows where its army went, is probed too (once is enough); the game is
        # open, so that someone who is no member of it is probed too
        probed = ("FRANCE", "observer", "outsider", "GERMANY") if kind == "fog" else ("FRANCE", "observer")
        return game_of_kind(env, kind, players, probed=probed, private=kind != "fog")

    def play(world: World, german: object) -> None:
        world.file("FRANCE", list(OWN_LINES))
        world.file("GERMANY", [str(german), "A BER H", "F KIE H"])
        world.checkpoint("S1901M")
        world.adjudicate()
        world.checkpoint("S1901R")
        world.adjudicate()
        world.checkpoint("F1901M")

    one, other = run(build, play, ("A MUN H", "A MUN - RUH"))
    assert_same(one, other, *(label for label in one.parties if label in ("FRANCE", "observer", "outsider")))
    assert_differs(one, other, "master", "F1901M GET view")
    if kind == "fog":
        assert_differs(one, other, "GERMANY", "F1901M GET view")
    assert_no_account_names(one, *one.parties)


@KINDS
def test_whether_another_power_filed_and_is_ready(env: Env, kind: str) -> None:
    """Germany files its orders and marks them ready, or does nothing; ready counts are not
    told in a fog game."""
    players = {"FRANCE": "france", "GERMANY": "germany"}

    def play(world: World, ready: object) -> None:
        world.file("FRANCE", list(OWN_LINES))
        if ready:
            world.file("GERMANY", ["A MUN - RUH", "A BER H", "F KIE H"])
            world.players["GERMANY"].client.ready(world.id)
        world.checkpoint("S1901M")

    one, other = run(lambda _fact: game_of_kind(env, kind, players), play, (True, False))
    assert one.env.accounts["master"].client.game(one.id).ready_counts is False
    assert_same(one, other, "FRANCE", "observer")
    assert_differs(one, other, "master", "GET game")


@KINDS
def test_secret_draw_votes(env: Env, kind: str) -> None:
    """Germany votes for a draw, or does not; the votes are secret (the empty seats keep the
    draw from being agreed, whatever the probes vote)."""
    players = {"FRANCE": "france", "GERMANY": "germany"}

    def play(world: World, votes: object) -> None:
        if votes:
            world.players["GERMANY"].client.vote_draw(world.id)
        world.checkpoint("S1901M")

    one, other = run(lambda _fact: game_of_kind(env, kind, players), play, (True, False))
    assert one.env.accounts["master"].client.game(one.id).draw_votes == "secret"
    assert_same(one, other, "FRANCE", "observer")
    assert_differs(one, other, "master", "GET game")


@pytest.mark.parametrize(("preset", "press"), [("fog-of-war", "black"), ("fog-1898", None), ("fog-of-war", "gunboat")])
def test_who_really_sent_a_message(env: Env, preset: str, press: str | None) -> None:
    """A message to France and one to all, claiming to be Turkey's in black press, anonymous
    in the others, come from England or from Italy: France (a recipient), Germany (not one,
    but of the message to all) and the observer receive the same bytes."""
    players = {"FRANCE": "france", "GERMANY": "germany", "ENGLAND": "england", "ITALY": "italy"}

    def build(_fact: object) -> World:
        return World(env, preset, players=players, probed=("FRANCE", "GERMANY", "observer"), press=press)

    def play(world: World, sender: object) -> None:
        claim = "TURKEY" if world.env.accounts["master"].client.game(world.id).press == "black" else None
        world.send(str(sender), ["FRANCE"], "Shall we share Belgium?", claim=claim)
        world.send(str(sender), "all", "Peace to everyone.", claim=claim)
        world.checkpoint("start")

    one, other = run(build, play, ("ENGLAND", "ITALY"))
    assert_same(one, other, "FRANCE", "GERMANY", "observer")
    assert_differs(one, other, "master", "GET messages")
    assert_no_account_names(one, "FRANCE", "GERMANY", "observer")


@KINDS
def test_press_between_other_powers(env: Env, kind: str) -> None:
    """England writes to Germany, to Germany and Italy, and Italy answers, or none of it
    happens; then England writes to all in both. France and the observer receive the same
    bytes: nothing of the private messages, not even a gap in their numbering."""
    players = {"FRANCE": "france", "GERMANY": "germany", "ENGLAND": "england", "ITALY": "italy"}

    def play(world: World, talk: object) -> None:
        if talk:
            world.send("ENGLAND", ["GERMANY"], "Just us.")
            world.send("ENGLAND", ["GERMANY", "ITALY"], "The three of us.")
            world.send("ITALY", ["ENGLAND"], "Agreed.")
        world.send("ENGLAND", "all", "Hello, everyone.")
        world.checkpoint("S1901M")
        if talk:
            world.send("GERMANY", ["ENGLAND"], "And after the turn?")
        world.adjudicate()
        world.checkpoint("S1901R")

    one, other = run(lambda _fact: game_of_kind(env, kind, players), play, (True, False))
    assert_same(one, other, "FRANCE", "observer")
    assert_differs(one, other, "master", "GET messages")


@pytest.mark.parametrize(
    ("kind", "players"),
    [
        ("fog", ("alice", "bob")),
        ("gunboat", ("alice", "bob")),
        ("gunboat", ("alice", "bot")),
        # Ready counts, were they told, would count the bot's seats as always ready and say
        # how many seats it plays: gunboat games never tell them.
        ("standard-gunboat", ("alice", "bot")),
    ],
)
def test_who_plays_germany(env: Env, kind: str, players: tuple[str, str]) -> None:
    """Germany is played by one account or another (or, in gunboat, by the bot or a person):
    France, the observer and someone who is no member of the (open) game receive the same
    bytes, and no account's name."""
    people = "bot" not in players
    probed = ("FRANCE", "observer", "outsider")

    def build(who: object) -> World:
        seated = {"FRANCE": "france"} if who == "bot" else {"FRANCE": "france", "GERMANY": str(who)}
        bots = ("GERMANY",) if who == "bot" else ()
        return game_of_kind(env, kind, seated, bots=bots, probed=probed, private=False)

    def play(world: World, who: object) -> None:
        world.file("FRANCE", list(OWN_LINES))
        if who != "bot":
            world.file("GERMANY", ["A MUN H", "A BER H", "F KIE H"])
        if people:  # the bot writes nothing; people write alike
            world.send("GERMANY", ["FRANCE"], "Hello, France.")
            world.send("GERMANY", "all", "Hello, all.")
            world.players["GERMANY"].client.vote_draw(world.id)
        world.checkpoint("S1901M")

    one, other = run(build, play, players)
    assert_same(one, other, *probed)
    assert_no_account_names(one, *probed)
    assert_no_account_names(other, *probed)
    if people:  # the worlds differ for Alice: she plays in one only
        alice = env.accounts["alice"].http
        assert [alice.get(f"/api/v1/games/{w.id}").json()["role"] for w in (one, other)] == ["player", "none"]
    else:
        assert_differs(one, other, "master", "GET game")
