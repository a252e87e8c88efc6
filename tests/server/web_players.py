"""People at the site for the browser tests: an account made through the API, signed in on
the first page of its own browser context (each context its own cookies: its own person), with
every console error and Content-Security-Policy violation kept to be checked."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import httpx
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, expect

from fogdip.client import FogdipClient

from servers import PASSWORD, ServerProcess

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


@dataclass
class Person:
    """Someone at the site: their name, their API client (for what the test sets up), and
    their browser page."""

    name: str
    api: FogdipClient
    page: Page
    context: BrowserContext
    problems: list[str] = field(default_factory=list)

    def csp_problems(self) -> list[str]:
        return [p for p in self.problems if "Content Security Policy" in p or "Refused" in p]


def new_account(server: ServerProcess, name: str) -> tuple[str, FogdipClient]:
    named = f"{name[:20]}{uuid.uuid4().hex[:6]}"
    client = FogdipClient(server.url)
    client.sign_up(named, PASSWORD)
    client.sign_in(named, PASSWORD)
    return named, client


@contextmanager
def person(
    browser: Browser, server: ServerProcess, name: str, viewport: dict[str, int] | None = None
) -> Iterator[Person]:
    """A new account, signed in on the first page of a browser context of its own."""
    named, client = new_account(server, name)
    context = browser.new_context(viewport=viewport or DESKTOP)  # type: ignore[arg-type]
    page = context.new_page()
    someone = Person(named, client, page, context)

    def heard(message: ConsoleMessage) -> None:
        if message.type == "error":
            someone.problems.append(message.text)

    page.on("console", heard)
    page.on("pageerror", lambda error: someone.problems.append(str(error)))
    page.goto(server.url + "/")
    page.locator("#signin-name").fill(named)
    page.locator("#signin-password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_text(f"Signed in as {named}")).to_be_visible()
    try:
        yield someone
    finally:
        context.close()
        client.close()
    assert not someone.csp_problems(), someone.csp_problems()


def web_client(server: ServerProcess, name: str) -> tuple[httpx.Client, str]:
    """A signed-in browser session without a browser (for pages compared byte for byte): the
    client, and its session's CSRF token."""
    client = httpx.Client(base_url=server.url, follow_redirects=True, timeout=30)
    answer = client.post("/signin", data={"name": name, "password": PASSWORD})
    found = re.search(r'name="csrf_token" value="([^"]+)"', answer.text)
    assert found, answer.text[:500]
    return client, found.group(1)


def live(page: Page) -> None:
    """Wait until the page listens on its game's stream."""
    expect(page.locator("body")).to_have_attribute("data-live", "open", timeout=10_000)


def no_serious_axe_violation(page: Page) -> None:
    """axe-core (run in the page) finds no serious or critical accessibility violation in the
    parts of the page these tests are about (the board, #board, has its own tests)."""
    from axe_playwright_python.sync_playwright import Axe

    context = {"exclude": [["#board"]]} if page.locator("#board").count() else None
    results = Axe().run(page, context=context)
    serious = [
        f"{violation['id']}: {violation['help']} ({len(violation['nodes'])} nodes: "
        f"{[node['html'][:120] for node in violation['nodes'][:3]]})"
        for violation in results.response["violations"]
        if violation.get("impact") in ("serious", "critical")
    ]
    assert not serious, f"{page.url}: {serious}"
