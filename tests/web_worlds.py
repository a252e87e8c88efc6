"""Two worlds for the site's pages: the same accounts on two sites (``fogdip.web.create_site``,
in-process, each on its own SQLite database), where every game is made alike in both but for
one fact a party may not know. A *probe* gathers every page and partial a party can load about
the game, as bytes, in the same order in both worlds (:data:`PAGES`, :data:`CHANGES`: the one
list to extend when the site grows a page).

Only what differs between two sites by construction is normalised, each by its exact value:
every game's id and invitation (each pair of games, made alike in both worlds, gets one label),
and the party's CSRF token (its session's, on each site).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from fogdip.client import FogdipClient
from fogdip.server.config import Settings
from fogdip.web import create_site

PASSWORD = "correct horse battery"

#: The accounts of both worlds; their names are unlike anything a game holds, so that finding
#: one in a page is a finding.
KEYS = ("master", "france", "germany", "england", "italy", "watcher", "stranger")

#: Lines France files about units it may not see (Germany's army in Munich; the Ruhr, where it
#: may have gone) with ordinary ones, then supports of unseen units (filed: under fog the map
#: alone judges them), and its own.
PROBE_LINES = (
    "A MUN H",
    "A MUN - RUH",
    "A RUH - BUR",
    "A PAR S A MUN",
    "A PAR S A MUN - BUR",
    "A MAR S A RUH - BUR",
    "F BRE S A RUH - BEL",
    "A PAR - RUH",
    "A MAR - MUN",
    "F BRE - ENG",
)
SUPPORT_LINES = ("A PAR S A MUN - BUR", "A MAR S A RUH - BUR", "F BRE - ENG")
OWN_LINES = ("A PAR H", "A MAR H", "F BRE H")


# --- the pages and partials a party can load: the one list ---------------------------------------


@dataclass(frozen=True)
class Probe:
    """One page, partial or form answer of the site, as a party asks for it.

    ``route`` is the path as the site declares it (``{game_id}`` is the game's id,
    ``{code}`` its invitation, ``{power}`` Germany, unless ``fill`` says otherwise);
    ``query`` is added to it (``{phase}``: once for every phase the party was told, the
    opening, and one never played); ``form`` makes the form posted (with the party's CSRF
    token); ``htmx`` asks as htmx does (its answer may be a partial); ``parties`` are those
    who try it (``None``: every party)."""

    name: str
    method: str
    route: str
    query: str = ""
    form: Callable[[World, str], dict[str, Any]] | None = None
    parties: frozenset[str] | None = None
    fill: tuple[tuple[str, str], ...] = ()
    htmx: bool = False

    def path(self, world: World) -> str:
        values = {"game_id": world.id, "code": world.invite, "power": "GERMANY", **dict(self.fill)}
        path = self.route
        for name, value in values.items():
            path = path.replace("{" + name + "}", value)
        return path

    def tried_by(self, label: str) -> bool:
        return self.parties is None or label in self.parties


NOT_MASTER = frozenset({"FRANCE", "watcher", "outsider"})
PLAYER = frozenset({"FRANCE"})


def _lines(lines: Sequence[str]) -> Callable[[World, str], dict[str, Any]]:
    return lambda world, _label: {"lines": "\n".join(lines), "turn": world.turn}


def _restored(world: World, label: str) -> dict[str, Any]:
    return {"lines": "\n".join(world.filed.get(label, [])), "turn": world.turn}


#: What a party loads: the first page (its games, open games), the game page and its board
#: partial now and at every past phase. A page's links to more of the site are followed too
#: (:meth:`World.probe`), so a partial a page names is loaded even before it is listed here.
PAGES: tuple[Probe, ...] = (
    Probe("first page", "GET", "/"),
    Probe("game page", "GET", "/games/{game_id}"),
    Probe("board partial", "GET", "/games/{game_id}/board"),
    Probe("game page, past phase", "GET", "/games/{game_id}", "phase={phase}"),
    Probe("board partial, past phase", "GET", "/games/{game_id}/board", "phase={phase}"),
    Probe("board partial (htmx)", "GET", "/games/{game_id}/board", htmx=True),
    Probe("head partial", "GET", "/games/{game_id}/head"),
    Probe("head partial (htmx)", "GET", "/games/{game_id}/head", htmx=True),
    Probe("seats partial", "GET", "/games/{game_id}/seats"),
    Probe("press partial", "GET", "/games/{game_id}/press"),
    Probe("press threads partial", "GET", "/games/{game_id}/press", "part=threads"),
    Probe("press partial (htmx)", "GET", "/games/{game_id}/press", htmx=True),
    Probe("press threads partial (htmx)", "GET", "/games/{game_id}/press", "part=threads", htmx=True),
    Probe("ending partial", "GET", "/games/{game_id}/ending"),
    Probe("revealed game", "GET", "/games/{game_id}/revealed"),
    Probe("revealed game, past phase", "GET", "/games/{game_id}/revealed", "phase={phase}"),
    Probe("console partial", "GET", "/games/{game_id}/console"),
    Probe("see as Germany", "GET", "/games/{game_id}/as/{power}"),
    Probe("see as France", "GET", "/games/{game_id}/as/{power}", fill=(("power", "FRANCE"),)),
    Probe("see as Germany, past phase", "GET", "/games/{game_id}/as/{power}", "phase={phase}"),
    Probe("invitation page", "GET", "/games/{game_id}/invite/{code}"),
    Probe("invitation page, a wrong code", "GET", "/games/{game_id}/invite/{code}", fill=(("code", "wrongcode"),)),
)

#: The forms a party may post, and their answers (a partial, a redirect, a refusal): each
#: undone or made alike in both worlds. Orders, ready and draw marks never complete a turn or
#: the game: the worlds keep seats empty.
CHANGES: tuple[Probe, ...] = (
    Probe("orders: lines about unseen units", "POST", "/games/{game_id}/orders", form=_lines(PROBE_LINES)),
    Probe("orders: a turn played", "POST", "/games/{game_id}/orders", form=lambda w, who: {"lines": "A PAR H", "turn": "W1900A"}),
    Probe("orders: supports of unseen units", "POST", "/games/{game_id}/orders", form=_lines(SUPPORT_LINES), parties=PLAYER),
    Probe("orders: own", "POST", "/games/{game_id}/orders", form=_lines(OWN_LINES), parties=PLAYER),
    Probe("orders: restored", "POST", "/games/{game_id}/orders", form=_restored, parties=PLAYER),
    Probe("ready", "POST", "/games/{game_id}/ready", form=lambda w, who: {"turn": w.turn, "ready": "true"}),
    Probe("not ready", "POST", "/games/{game_id}/ready", form=lambda w, who: {"turn": w.turn, "ready": "false"}),
    Probe("draw vote", "POST", "/games/{game_id}/draw", form=lambda w, who: {"vote": "true"}),
    Probe("draw vote withdrawn", "POST", "/games/{game_id}/draw", form=lambda w, who: {"vote": "false"}),
    Probe("press to all", "POST", "/games/{game_id}/messages", form=lambda w, who: {"to": ["all"], "body": f"{w.tag}: {who} to all"}),
    Probe("press to Germany", "POST", "/games/{game_id}/messages", form=lambda w, who: {"to": ["GERMANY"], "body": f"{w.tag}: {who} to one"}),
    Probe("press to a power not in the game", "POST", "/games/{game_id}/messages", form=lambda w, who: {"to": ["SPAIN"], "body": "x"}),
    Probe("join Germany's seat", "POST", "/games/{game_id}/join", form=lambda w, who: {"power": "GERMANY"}, parties=NOT_MASTER),
    Probe("watch", "POST", "/games/{game_id}/observe", form=lambda w, who: {}, parties=PLAYER),
    Probe("seat the bot", "POST", "/games/{game_id}/bots", form=lambda w, who: {}, parties=NOT_MASTER),
    Probe("start", "POST", "/games/{game_id}/start", form=lambda w, who: {}, parties=NOT_MASTER),
    Probe("adjudicate", "POST", "/games/{game_id}/adjudicate", form=lambda w, who: {"turn": w.turn}, parties=NOT_MASTER),
    Probe("swap seats", "POST", "/games/{game_id}/swap", form=lambda w, who: {"first": "FRANCE", "second": "GERMANY"}, parties=NOT_MASTER),
    Probe("pause", "POST", "/games/{game_id}/pause", form=lambda w, who: {}, parties=NOT_MASTER),
    Probe("resume", "POST", "/games/{game_id}/resume", form=lambda w, who: {}, parties=NOT_MASTER),
    Probe("extend", "POST", "/games/{game_id}/extend", form=lambda w, who: {"hours": "1"}, parties=NOT_MASTER),
    Probe("the bots' draw vote", "POST", "/games/{game_id}/bot-draw", form=lambda w, who: {"vote": "true"}, parties=NOT_MASTER),
    Probe("press to all (htmx)", "POST", "/games/{game_id}/messages", form=lambda w, who: {"to": ["all"], "body": f"{w.tag}: {who} to all, htmx"}, htmx=True),
    Probe("press claiming Turkey (htmx)", "POST", "/games/{game_id}/messages", form=lambda w, who: {"to": ["all"], "body": "from Turkey", "claim": "TURKEY"}, htmx=True),
    Probe("press with nothing written (htmx)", "POST", "/games/{game_id}/messages", form=lambda w, who: {"to": ["GERMANY"], "body": " "}, htmx=True),
    Probe("draw vote (htmx)", "POST", "/games/{game_id}/draw", form=lambda w, who: {"vote": "true"}, htmx=True),
    Probe("draw vote withdrawn (htmx)", "POST", "/games/{game_id}/draw", form=lambda w, who: {"vote": "false"}, htmx=True),
    Probe("press read", "POST", "/games/{game_id}/press/read", form=lambda w, who: {"thread": "all"}, htmx=True),
    Probe("press all read", "POST", "/games/{game_id}/press/read", form=lambda w, who: {}),
    # by mail: refused to all but the game master; a seat's own switch is tried by those who
    # hold none (a player's switch gives its page a fresh random address: tests/server/test_web_mail.py)
    Probe("invite a mail player", "POST", "/games/{game_id}/mail-players", form=lambda w, who: {"address": "ann@example.org", "power": "GERMANY"}, parties=NOT_MASTER),
    Probe("play by mail without a seat", "POST", "/games/{game_id}/by-mail", form=lambda w, who: {"address": "x@example.org"}, parties=frozenset({"watcher", "outsider"})),
    # with a wrong code (the right one makes an observer of an outsider), and a seat taken
    # (a seat drawn at random would differ: an observer may join by the invitation it had)
    Probe("join by a wrong invitation", "POST", "/games/{game_id}/invite/{code}/join", form=lambda w, who: {"power": "GERMANY"}, fill=(("code", "wrongcode"),)),
    Probe("watch by a wrong invitation", "POST", "/games/{game_id}/invite/{code}/observe", form=lambda w, who: {}, fill=(("code", "wrongcode"),)),
)  # fmt: skip

#: The site's routes no probe tries, and why: none is a page about a game that a party's
#: knowledge could change.
NOT_PROBED: dict[tuple[str, str], str] = {
    ("GET", "/docs"): "the API's description: the same for everyone",
    ("GET", "/maps/{file}"): "the board's geography, the same for every game: loaded from the pages' links to it",
    ("POST", "/signup"): "makes an account: nothing of any game",
    ("POST", "/signin"): "opens a session: nothing of any game",
    ("POST", "/signout"): "ends the session the probe uses",
    ("POST", "/play"): "a new game against bots, its power drawn at random; its page is a game page",
    ("POST", "/new"): "a new game of one's own; its page is a game page",
}


def site_routes(app: FastAPI) -> set[tuple[str, str]]:
    """The site's own routes (not the API's, nor its static files): ``(method, path)``."""
    found: set[tuple[str, str]] = set()

    def walk(routes: Sequence[Any], prefix: str = "") -> None:
        for route in routes:
            inner = getattr(route, "original_router", None)
            if inner is not None:
                walk(inner.routes, prefix + getattr(getattr(route, "include_context", None), "prefix", ""))
                continue
            path = prefix + str(getattr(route, "path", ""))
            for method in getattr(route, "methods", None) or ():
                if method != "HEAD" and not path.startswith(("/api/", "/static", "/openapi.json", "/healthz")):
                    found.add((method, path))

    walk(app.routes)
    return found


# --- two sites ---------------------------------------------------------------------------------------


@dataclass
class Party:
    """One account on one site: an API client (to set worlds up; raises on an error answer),
    and a browser's session (its cookie and CSRF token) for the pages."""

    name: str
    client: FogdipClient
    browser: TestClient
    csrf: str


@dataclass
class Site:
    app: FastAPI
    accounts: dict[str, Party]


def open_site(folder: Path, held: ExitStack) -> Site:
    """A site on a fresh SQLite database with every account of :data:`KEYS`, signed in."""
    app = create_site(Settings(folder, rate_per_minute=10**9, log_level="warning", deadline_check=3600))
    held.enter_context(TestClient(app))  # its lifespan: the database brought up to date
    accounts = {}
    for key in KEYS:
        name = f"zq{key}"
        client = FogdipClient("http://testserver")
        client._http.close()
        client._http = held.enter_context(TestClient(app))  # the API's answers, in-process
        client.sign_up(name, PASSWORD)
        client.sign_in(name, PASSWORD)
        browser = held.enter_context(TestClient(app, follow_redirects=False))
        browser.post("/signin", data={"name": name, "password": PASSWORD})
        home = browser.get("/").text
        found = re.search(r'name="csrf_token" value="([^"]+)"', home)
        assert found, "a signed-in page carries its session's CSRF token"
        accounts[key] = Party(name, client, browser, found.group(1))
    return Site(app, accounts)


@dataclass
class Worlds:
    """The two sites, and the label of every game made in both so far."""

    sites: tuple[Site, Site]
    labels: list[dict[str, str]] = field(default_factory=lambda: [{}, {}])

    def label(self, side: int, value: str, label: str) -> None:
        self.labels[side][value] = label


def two_sites(root: Path) -> Iterator[Worlds]:
    with ExitStack() as held:
        yield Worlds((open_site(root / "one", held), open_site(root / "other", held)))


# --- a world: one game on one site ----------------------------------------------------------------


class World:
    """One game on one side of :class:`Worlds`: players on ``players`` (power: account key), every
    other seat empty (so no ready mark or draw vote of a probe ever completes a turn or the
    game), the watcher observing where the game takes observers."""

    def __init__(
        self,
        worlds: Worlds,
        side: int,
        preset: str,
        *,
        players: dict[str, str],
        probed: Sequence[str] = ("FRANCE", "watcher", "outsider"),
        private: bool = True,
        **settings: Any,
    ) -> None:
        self.site = worlds.sites[side]
        self.worlds, self.side = worlds, side
        master = self.site.accounts["master"].client
        game = master.create_game(preset, name="two worlds", private=private, **settings)
        assert game.invite is not None
        self.id, self.invite = game.id, game.invite
        number = len(worlds.labels[side])
        worlds.label(side, self.id, f"<GAME {number}>")
        worlds.label(side, self.invite, f"<INVITE {number}>")
        self.players = {power: self.site.accounts[key] for power, key in players.items()}
        for power, party in self.players.items():
            party.client.join(self.id, power, invite=self.invite)
        if settings.get("observers", "press") != "none":
            self.site.accounts["watcher"].client.observe(self.id, invite=self.invite)
        self.parties = {label: self._party(label) for label in (*probed, "master")}
        self.filed: dict[str, list[str]] = {}
        self.played: list[str] = []
        self.tag = "start"
        master.start(self.id)
        self.turn = master.game(self.id).turn
        self.received: dict[str, list[tuple[str, bytes]]] = {label: [] for label in self.parties}

    def _party(self, label: str) -> Party:
        key = {"master": "master", "watcher": "watcher", "outsider": "stranger"}.get(label)
        return self.site.accounts[key] if key else self.players[label]

    # --- what happens in the game ------------------------------------------------------------

    def file(self, power: str, lines: Sequence[str]) -> None:
        self.players[power].client.file_orders(self.id, list(lines), turn=self.turn)
        self.filed[power] = list(lines)

    def send(self, power: str, to: list[str] | str, body: str, claim: str | None = None) -> None:
        self.players[power].client.send_message(self.id, to, body, claim=claim)

    def adjudicate(self) -> None:
        turn = self.site.accounts["master"].client.adjudicate(self.id, turn=self.turn)
        assert turn.adjudicated is not None
        self.played.append(turn.adjudicated)
        self.turn = turn.next
        self.filed = {}

    # --- probes ------------------------------------------------------------------------------

    def checkpoint(self, tag: str) -> None:
        """Probe every party, in the same order in both worlds (a probe's press to all reaches
        the parties probed after it)."""
        self.tag = tag
        for label in self.parties:
            self.probe(label)

    def probe(self, label: str) -> None:
        party = self.parties[label]
        out = self.received[label]
        asked: set[str] = set()

        def record(what: str, method: str, url: str, form: dict[str, Any] | None = None, htmx: bool = False) -> str:
            data = {**form, "csrf_token": party.csrf} if form is not None else None
            headers = {"HX-Request": "true"} if htmx else None
            answer = party.browser.request(method, url, data=data, headers=headers)
            head = f"{answer.status_code} {answer.headers.get('content-type')} {answer.headers.get('location')}\n"
            out.append((f"{self.tag} {what}", head.encode() + answer.content))
            asked.add(url)
            return answer.text

        phases = ["start", *self.played, "F1999M"]
        for probe in PAGES:
            if not probe.tried_by(label):
                continue
            path = probe.path(self)
            if "{phase}" in probe.query:
                for phase in phases:
                    url = f"{path}?{probe.query.replace('{phase}', phase)}"
                    record(f"{probe.name} {phase}", "GET", url, htmx=probe.htmx)
            else:
                page = record(probe.name, "GET", path + (f"?{probe.query}" if probe.query else ""), htmx=probe.htmx)
                # what the page links to on this game, followed once
                for link in sorted({found.replace("&amp;", "&") for found in _LINK.findall(page)}):
                    if link.startswith((f"/games/{self.id}", "/maps/")) and link not in asked:
                        record(f"{probe.name} → {link.replace(self.id, '<GAME>')}", "GET", link)
        if label == "master":  # the game master's changes would change the game
            return
        for probe in CHANGES:
            if probe.tried_by(label):
                assert probe.form is not None
                record(probe.name, "POST", probe.path(self), probe.form(self, label), probe.htmx)
        record("game page, after the changes", "GET", f"/games/{self.id}")

    def transcript(self, label: str) -> list[tuple[str, bytes]]:
        """Everything the party received, normalised: each game's id and invitation by its
        label, the party's CSRF token."""
        replace = [(v.encode(), k.encode()) for v, k in self.worlds.labels[self.side].items()]
        replace.append((self.parties[label].csrf.encode(), b"<CSRF>"))
        out = []
        for what, raw in self.received[label]:
            for value, by in replace:
                raw = raw.replace(value, by)
            out.append((what, raw))
        assert len({what for what, _ in out}) == len(out), "every answer is named once"
        return out


#: Same-site links a page carries: ``href``, ``src``, ``hx-get``, ``action`` and ``data-*``
#: URLs (a partial a script loads).
_LINK = re.compile(r'(?:href|src|hx-get|data-[a-z-]+)="(/[^"]*)"')


# --- comparing ---------------------------------------------------------------------------------------


def differences(one: World, other: World, label: str, tags: Sequence[str] | None = None) -> list[str]:
    """Where the party's pages differ between the worlds (at the checkpoints ``tags``, or
    all), each explained."""
    a, b = dict(one.transcript(label)), dict(other.transcript(label))
    found = []
    for what in [*a, *(w for w in b if w not in a)]:
        if tags is not None and what.split(" ", 1)[0] not in tags:
            continue
        x, y = a.get(what, b"<nothing>"), b.get(what, b"<nothing>")
        if x != y:
            at = next((i for i, (p, q) in enumerate(zip(x, y, strict=False)) if p != q), min(len(x), len(y)))
            start = max(at - 150, 0)
            found.append(
                f"{what}: differs at byte {at} (lengths {len(x)} and {len(y)})\n"
                f"    one:   {x[start : at + 150]!r}\n    other: {y[start : at + 150]!r}"
            )
    return found


def assert_same(one: World, other: World, *labels: str, tags: Sequence[str] | None = None) -> None:
    for label in labels:
        found = differences(one, other, label, tags)
        assert not found, f"{label} receives different pages in the two worlds:\n" + "\n".join(found[:6])
        assert len(one.transcript(label)) > 10  # the probe did probe


def assert_differs(one: World, other: World, label: str, where: str) -> None:
    """What ``label`` receives does differ, at a page whose name holds ``where``: the worlds
    differ, and the harness sees it."""
    found = [line.partition(":")[0] for line in differences(one, other, label)]
    assert any(where in name for name in found), f"{label} should see the worlds differ at {where!r}: {found}"


def assert_no_account_names(world: World, *labels: str) -> None:
    """No other account's name anywhere in what each party receives."""
    for label in labels:
        received = b"\n".join(raw for _what, raw in world.transcript(label)).lower()
        own = world.parties[label].name
        for party in world.site.accounts.values():
            if party.name != own:
                assert party.name.encode() not in received, f"{label} receives {party.name!r}"


__all__ = [
    "CHANGES",
    "NOT_PROBED",
    "OWN_LINES",
    "PAGES",
    "Probe",
    "World",
    "Worlds",
    "assert_differs",
    "assert_no_account_names",
    "assert_same",
    "differences",
    "site_routes",
    "two_sites",
]
