"""Every page, in Debian's Chromium against a real ``fogdip serve``, on a laptop and on a phone
(390x844, touch): axe-core finds no serious or critical violation, the page never scrolls
sideways, and on a phone the map fills the width.

The pages are listed once (:data:`PAGES`): who looks (signed out, a player, the game master,
an observer under each ``observers`` setting) at which address of which game. Add a page there
and it is checked on both screens."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from fogdip.client import FogdipClient
from fogdip.server.auth import COOKIE

from browser import DESKTOP, PHONE, Watched, browser, new_page
from servers import ServerProcess, account

__all__ = ["browser"]  # the fixture, shared (browser.py)

DATABASES = ("sqlite",)

#: The impacts that fail a page.
FAILING = ("serious", "critical")


@dataclass(frozen=True)
class Look:
    """A page as someone sees it: ``who`` (an account of :class:`Site`, or ``None``: signed
    out) at ``path`` (``{game}``: a game of :class:`Site`'s, by name)."""

    name: str
    who: str | None
    path: str
    game: str | None = None
    has_map: bool = False
    #: axe rules a page is known to break, each with why it is not fixed here: the test fails
    #: on any other, and once a known one is gone (then remove it from here).
    known: tuple[tuple[str, str], ...] = ()
    #: What is done on the page before it is checked (a form sent, a partial swapped in).
    then: Callable[[Page], None] | None = None


def _refused_sign_in(page: Page) -> None:
    page.locator("#signin-name").fill("nobody-at-all")
    page.locator("#signin-password").fill("not the password")
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page.locator(".error")).to_be_visible()


def _refused_line(page: Page) -> None:
    page.locator("#lines").fill("A PAR H\nA XYZ H")
    page.get_by_role("button", name="File orders").click()
    expect(page.locator("#verdicts li.refused")).to_be_visible()


#: Every page a person can load, by whom: the one list to extend.
PAGES: tuple[Look, ...] = (
    Look("first page, signed out (sign in and sign up)", None, "/"),
    Look("a refused sign-in", None, "/", then=_refused_sign_in),
    Look("first page, signed in (play, my games, open games, new game)", "player", "/"),
    Look("a new game, forming (its game master)", "master", "/games/{game}", "forming"),
    Look("a game against bots (its player)", "player", "/games/{game}", "bots", has_map=True),
    Look("a game with press (a player)", "player", "/games/{game}", "fog", has_map=True),
    Look("orders with a refused line", "player", "/games/{game}", "bots", has_map=True, then=_refused_line),
    Look("a game with press (its game master)", "master", "/games/{game}", "fog", has_map=True),
    Look("a game, observers see the board", "watcher", "/games/{game}", "fog", has_map=True),
    Look("a game, observers see the press only", "watcher", "/games/{game}", "press-only"),
    Look("a past phase (a player)", "player", "/games/{game}?phase=S1901M", "fog", has_map=True),
    Look("a gunboat game (a player)", "player", "/games/{game}", "gunboat", has_map=True),
    Look("an open game (someone not in it)", "stranger", "/games/{game}", "open"),
    Look("an invitation (someone not in the game)", "stranger", "/games/{game}/invite/{invite}", "forming"),
    Look("see as France (its game master)", "master", "/games/{game}/as/FRANCE", "fog", has_map=True),
    Look("no such game", "player", "/games/nosuchgame"),
    Look("the API (Swagger UI, with fogdip's colours and its inner links made plain)", None, "/docs"),
)


@dataclass
class Site:
    """The accounts and games every look is taken of."""

    server: ServerProcess
    accounts: dict[str, FogdipClient]
    games: dict[str, str]
    invites: dict[str, str]


@pytest.fixture(scope="module")
def site(server: ServerProcess) -> Iterator[Site]:
    accounts = {key: account(server, key) for key in ("master", "player", "watcher", "stranger", "other")}
    master, player = accounts["master"], accounts["player"]
    games = {"bots": player.against_bots("fog-of-war", power="FRANCE").id}
    forming = master.create_game("fog-of-war", name="forming")
    games["forming"] = forming.id
    invites = {"forming": forming.invite or ""}
    for key, observers, press in (
        ("fog", "board", "white"),
        ("press-only", "press", "white"),
        ("gunboat", "press", "gunboat"),
    ):
        made = master.create_game("fog-of-war", name=key, press=press, observers=observers)
        if press == "gunboat":
            drawn = player.join(made.id, invite=made.invite).power
            assert drawn is not None
            if drawn != "FRANCE":
                master.swap_seats(made.id, drawn, "FRANCE")
        else:
            player.join(made.id, "FRANCE", invite=made.invite)
        accounts["watcher"].observe(made.id, invite=made.invite)
        master.seat_bots(made.id)
        master.start(made.id)
        if press == "white":
            master.adjudicate(made.id)  # a past phase to look at
            player.send_message(made.id, "all", "Hello, everyone.")
        games[key] = made.id
    opened = master.create_game("fog-of-war", name="open to all", private=False)
    accounts["other"].join(opened.id, "ENGLAND")
    games["open"] = opened.id
    yield Site(server, accounts, games, invites)
    for client in accounts.values():
        client.close()


def _open(browser: Browser, site: Site, look: Look, screen: dict[str, Any]) -> Watched:
    watched = new_page(browser, **screen)
    if look.who is not None:
        cookie = site.accounts[look.who]._http.cookies.get(COOKIE)
        assert cookie, "the account is signed in"
        watched.context.add_cookies([{"name": COOKIE, "value": cookie, "url": site.server.url}])
    path = look.path
    if look.game:
        path = path.replace("{game}", site.games[look.game]).replace("{invite}", site.invites.get(look.game, ""))
    watched.page.goto(site.server.url + path)
    watched.page.wait_for_load_state("networkidle")
    if look.then is not None:
        look.then(watched.page)
        watched.page.wait_for_load_state("networkidle")
    return watched


def serious_violations(page: Page) -> dict[str, str]:
    """axe-core's serious and critical violations on the page, by rule, each with where."""
    results = Axe().run(page)
    return {
        v["id"]: f"{v['impact']} {v['id']}: {v['help']} at {[n['target'] for n in v['nodes']][:4]}"
        for v in results.response["violations"]
        if v["impact"] in FAILING
    }


SCREENS = {"desktop": DESKTOP, "phone": PHONE}


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("look", PAGES, ids=[look.name for look in PAGES])
def test_every_page_is_accessible_on_every_screen(browser: Browser, site: Site, look: Look, screen: str) -> None:
    watched = _open(browser, site, look, SCREENS[screen])
    page = watched.page
    try:
        assert page.locator("body").count() == 1
        shots = os.environ.get("FOGDIP_SHOTS")  # a folder: each page's screenshot, to look at
        if shots:
            page.screenshot(path=str(Path(shots) / f"{look.name.replace(' ', '-')}-{screen}.png"), full_page=True)
        found = serious_violations(page)
        known = dict(look.known)
        new = [text for rule, text in found.items() if rule not in known]
        assert not new, f"axe-core on {look.name} ({screen}):\n" + "\n".join(new)
        gone = sorted(set(known) - set(found))
        assert not gone, f"{look.name} no longer breaks {gone}: remove them from its known violations"
        width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], f"{look.name} scrolls sideways on a {screen}: {width[0]} px in {width[1]}"
        if look.has_map:
            shown = page.locator("figure.map svg").first.bounding_box()
            assert shown is not None, f"{look.name}: no map"
            if screen == "phone":
                assert shown["width"] >= 0.9 * width[1], f"the map is {shown['width']} px wide of {width[1]}"
    finally:
        watched.close()
    assert not watched.policy_violations(), watched.problems
