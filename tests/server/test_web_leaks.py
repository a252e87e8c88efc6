"""No unit outside sight in the DOM, nor in any response the page receives: a player plays a
fog game page (fog-of-war, sighting) in Debian's Chromium against a real ``fogdip serve`` (the
bot on every other seat), through several phases, loading its past phases; every HTTP answer's
body, every WebSocket frame the page receives, and the page's DOM at each phase are kept. The
game master's full position at every phase (through the API) gives each unit's forms
(``A MUN``, ``F STP/SC``, ``data-unit="MUN"``); those that none of the player's own API answers
carry (its view, its map at every phase, its messages) must appear in none of the captures."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Browser, Page, Response, WebSocket, expect
from playwright.sync_api import Error as PlaywrightError

from fogdip.client import FogdipClient

from browser import Watched, browser, new_page
from servers import PASSWORD, ServerProcess, account

__all__ = ["browser"]  # the fixture, shared (browser.py)

#: The site's behaviour is the table's, the same on both databases.
DATABASES = ("sqlite",)

#: Phases the player plays through (movement, retreats where the variant plays them, builds).
PHASES = 5


@dataclass
class Captured:
    """What the page received: each HTTP answer's body (by URL), each WebSocket frame, and
    the DOM at each phase."""

    answers: list[tuple[str, str]] = field(default_factory=list)
    frames: list[str] = field(default_factory=list)
    doms: list[tuple[str, str]] = field(default_factory=list)

    def listen(self, page: Page) -> None:
        def answered(response: Response) -> None:
            if 300 <= response.status < 400:
                return  # a redirect has no body
            try:
                body = response.body()
            except PlaywrightError:  # an answer the page dropped: nothing was read
                return
            self.answers.append((response.url, body.decode("utf-8", "replace")))

        def opened(socket: WebSocket) -> None:
            socket.on("framereceived", lambda payload: self.frames.append(str(payload)))

        page.on("response", answered)
        page.on("websocket", opened)

    def everything(self) -> list[tuple[str, str]]:
        return [
            *self.answers,
            *((f"frame #{i}", frame) for i, frame in enumerate(self.frames)),
            *((f"DOM at {turn}", dom) for turn, dom in self.doms),
        ]


def unit_forms(kind: str, location: str) -> tuple[str, ...]:
    """The ways a page may name a unit: its order text, and the map's unit ids.

    >>> unit_forms("F", "STP/SC")
    ('F STP/SC', 'data-unit="STP/SC"', 'data-unit="STP"')
    """
    province = location.partition("/")[0]
    forms = [f"{kind} {location}", f'data-unit="{location}"']
    if province != location:
        forms.append(f'data-unit="{province}"')
    return tuple(forms)


def _units_of(position: dict[str, object]) -> set[tuple[str, str]]:
    """Every unit of a position document (dislodged ones too), as (kind, location)."""
    out = set()
    for key in ("units", "dislodged"):
        listed = position.get(key) or {}
        assert isinstance(listed, dict)
        for lines in listed.values():
            for line in lines if isinstance(lines, list) else [lines]:
                words = str(line).lstrip("*").split()
                if len(words) >= 2 and words[0] in ("A", "F"):
                    out.add((words[0], words[1]))
    return out


def _contains(text: str, form: str) -> bool:
    return re.search(rf"(?<![A-Za-z]){re.escape(form)}(?![A-Za-z/])", text) is not None


@dataclass
class Game:
    id: str
    master: FogdipClient
    player: FogdipClient
    name: str


@pytest.fixture(params=["fog-of-war", "sighting"])
def game(request: pytest.FixtureRequest, server: ServerProcess) -> Iterator[Game]:
    """A fog game of each preset: France a person, the bot on every other seat, started."""
    master, player = account(server, "master"), account(server, "france")
    made = master.create_game(request.param, name="in the fog", private=True)
    player.join(made.id, "FRANCE", invite=made.invite)
    master.seat_bots(made.id)
    master.start(made.id)
    yield Game(made.id, master, player, player.me().name)
    master.close()
    player.close()


def told_to(api: FogdipClient, game_id: str, phases: list[str]) -> str:
    """Everything the player's own API answers carry now: its view, its map now and at each
    of ``phases``, the game, its messages."""
    base = f"/api/v1/games/{game_id}"
    answers = [api.request("GET", base + path).text for path in ("/view", "/map.svg", "", "/messages")]
    for phase in sorted(set(phases)):
        answers.append(api.request("GET", base + "/map.svg", params={"phase": phase}).text)
    return "\n".join(answers)


def hidden_forms(units: set[tuple[str, str]], told: str) -> set[str]:
    """The forms of ``units`` that nothing ``told`` carries."""
    return {form for unit in units for form in unit_forms(*unit) if not _contains(told, form)}


def test_no_unit_outside_sight_reaches_the_page(browser: Browser, server: ServerProcess, game: Game) -> None:
    """Each phase's captures (what came since the last phase was shown) are checked against
    the units of the game master's positions so far that the player's API answers at that
    phase never name; then everything against the whole game's."""
    watched: Watched = new_page(browser)
    page = watched.page
    captured = Captured()
    captured.listen(page)
    page.goto(server.url + "/")
    page.locator("#signin-name").fill(game.name)
    page.locator("#signin-password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page.get_by_text(f"Signed in as {game.name}")).to_be_visible()

    master_units: set[tuple[str, str]] = set()
    phases = ["start"]
    found: list[str] = []
    hidden_at: list[int] = []
    since = (0, 0)
    page.goto(f"{server.url}/games/{game.id}")
    board = page.locator("#board")
    for _ in range(PHASES):
        turn = board.get_attribute("data-turn") or ""
        master_units |= _units_of(game.master.view(game.id)["position"])
        # the past phases as this power saw them
        hrefs = [link.get_attribute("href") or "" for link in page.locator("nav.history a").all()]
        phases += [href.rsplit("phase=", 1)[1] for href in hrefs if "phase=" in href]
        for href in hrefs:
            if "phase=" in href:
                page.goto(server.url + href)
        page.goto(f"{server.url}/games/{game.id}")
        page.wait_for_load_state("networkidle")
        captured.doms.append((turn, page.content()))
        # this phase's captures, against what is hidden now
        hidden = hidden_forms(master_units, told_to(game.player, game.id, phases))
        hidden_at.append(len(hidden))
        window = [
            *captured.answers[since[0] :],
            *((f"frame #{i}", f) for i, f in enumerate(captured.frames[since[1] :], since[1])),
            (f"DOM at {turn}", captured.doms[-1][1]),
        ]
        found += [
            f"{form!r} in {where[:100]} at {turn}" for where, text in window for form in hidden if _contains(text, form)
        ]
        since = (len(captured.answers), len(captured.frames))
        if turn == "COMPLETED" or page.locator("#lines").count() == 0:
            break
        page.get_by_role("button", name="File orders").click()
        expect(page.locator("#verdicts")).to_contain_text("Filed for")
        page.get_by_role("button", name="Ready", exact=True).click()
        # Units without an order: the page asks first (or the turn is played at once).
        ask = page.locator("dialog#ready-ask")
        ask.locator("xpath=self::*[@open]").or_(page.locator(f"#board:not([data-turn='{turn}'])")).first.wait_for()
        if ask.is_visible():
            ask.get_by_role("button", name="Ready anyway").click()
        expect(board).not_to_have_attribute("data-turn", turn, timeout=15_000)  # live, no reload
        page.wait_for_load_state("networkidle")
        captured.doms.append((f"{turn} → next", page.content()))
    # every phase the player may step to now: the map the last phase was played on is one
    hrefs = [link.get_attribute("href") or "" for link in page.locator("nav.history a").all()]
    phases += [href.rsplit("phase=", 1)[1] for href in hrefs if "phase=" in href]
    watched.close()
    assert not watched.policy_violations(), watched.problems
    assert not found, "units outside sight reach the page:\n" + "\n".join(found[:20])

    # the whole game: forms hidden at its end found anywhere
    hidden = hidden_forms(master_units, told_to(game.player, game.id, phases))
    # the test has teeth: most of the board is out of France's sight, and the page was read
    assert min(hidden_at) >= 10 and len([f for f in hidden if not f.startswith("data-")]) >= 10, hidden
    assert captured.frames and len(captured.answers) > 10 and len(captured.doms) >= 6
    assert any(f"/games/{game.id}/board" in url for url, _body in captured.answers), "a live board update"
    found = [
        f"{form!r} in {where[:100]}"
        for where, text in captured.everything()
        for form in hidden
        if _contains(text, form)
    ]
    assert not found, "units outside sight reach the page:\n" + "\n".join(found[:20])
