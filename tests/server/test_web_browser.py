"""The site in a real browser: Debian's Chromium, driven by Playwright (launched by its path;
no browser is downloaded), against a real ``fogdip serve``. A newcomer signs up on the first
page, starts a fog game against bots in one click, files orders by typing (a refused line is
told beside it, and nothing typed is lost), marks ready, and sees the next phase without
reloading; the page runs under its Content-Security-Policy without a violation."""

from __future__ import annotations

import uuid

from playwright.sync_api import Page, expect

from browser import CHROMIUM_FLAGS, browser, chromium_path, page
from servers import PASSWORD, ServerProcess

# The fixtures and launch flags live in browser.py, shared by every browser test; still
# importable from here.
__all__ = ["CHROMIUM_FLAGS", "browser", "chromium_path", "page"]

#: The site's behaviour is the table's, the same on both databases.
DATABASES = ("sqlite",)


def _sign_up(page: Page, server: ServerProcess) -> str:
    name = f"new{uuid.uuid4().hex[:8]}"
    page.goto(server.url + "/")
    expect(page.get_by_role("heading", name="Diplomacy in the fog")).to_be_visible()
    page.get_by_label("Name", exact=True).first.fill(name)
    page.locator("#signup-password").fill(PASSWORD)
    page.get_by_role("button", name="Sign up and play").click()
    expect(page.get_by_text(f"Signed in as {name}")).to_be_visible()
    return name


def test_a_newcomer_plays_a_fog_game_against_bots_from_the_first_page(page: Page, server: ServerProcess) -> None:
    _sign_up(page, server)
    page.get_by_role("button", name="Play fog-of-war").click()
    expect(page).to_have_url(f"{server.url}/games/" + page.url.rsplit("/", 1)[-1])
    board = page.locator("#board")
    expect(board).to_have_attribute("data-turn", "S1901M")
    expect(page.locator("figure.map > svg")).to_be_visible()
    expect(page.locator("pre.report")).to_contain_text("Spring 1901")
    # A line that cannot be read is refused beside it, and what was typed stays.
    page.locator("#lines").fill("A XYZ H")
    page.get_by_role("button", name="File orders").click()
    expect(page.locator("#verdicts")).to_contain_text("Nothing was filed")
    expect(page.locator("#verdicts li.refused")).to_contain_text("unknown province")
    expect(page.locator("#lines")).to_have_value("A XYZ H")
    # Nothing filed: every unit holds; ready plays the turn (the bots are ready at once).
    page.locator("#lines").fill("")
    page.get_by_role("button", name="File orders").click()
    expect(page.locator("#verdicts")).to_contain_text("Filed for S1901M")
    page.get_by_role("button", name="Ready", exact=True).click()
    # Units without an order: the page asks first (they hold).
    page.locator("dialog#ready-ask").get_by_role("button", name="Ready anyway").click()
    expect(board).not_to_have_attribute("data-turn", "S1901M", timeout=10_000)
    expect(page.locator("#turn-title")).not_to_have_text("Spring 1901 movement")


def test_the_api_is_described_offline(page: Page, server: ServerProcess) -> None:
    page.goto(server.url + "/docs")
    expect(page.get_by_text("Diplomacy with hidden information").first).to_be_visible(timeout=15_000)
    expect(page.locator(".opblock").first).to_be_visible()
