"""What every browser test shares: Debian's Chromium launched by its path (no browser is
downloaded) with the flags a closed machine needs, and a page whose console errors and
Content-Security-Policy violations fail the test that opened it.

A test module takes the fixtures by importing them (``from browser import browser, page``);
:func:`new_page` opens more pages the same way (another player, a phone)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, sync_playwright

#: What a headless Chromium needs here: no sandbox as root, no GPU, nothing fetched from
#: outside (this machine's network is closed).
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

#: The viewports every page is looked at in: a laptop, and a phone (with touch).
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 900}}
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}


def chromium_path() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    assert found, "Debian's chromium is needed for the browser tests: apt install chromium (.ci/run does)"
    return found


@dataclass
class Watched:
    """A page, with the problems its console and scripts reported."""

    page: Page
    context: BrowserContext
    problems: list[str] = field(default_factory=list)

    def policy_violations(self) -> list[str]:
        """The Content-Security-Policy violations (and refused loads) among the problems."""
        return [p for p in self.problems if "Content Security Policy" in p or "Refused" in p]

    def close(self) -> None:
        self.context.close()


def new_page(browser: Browser, **options: Any) -> Watched:
    """A page in a context of its own (its own cookies: its own account), with ``options``
    for the context (:data:`DESKTOP` unless told), its console errors and script errors
    kept."""
    context = browser.new_context(**(options or DESKTOP))
    opened = context.new_page()
    watched = Watched(opened, context)

    def heard(message: ConsoleMessage) -> None:
        if message.type == "error":
            watched.problems.append(message.text)

    opened.on("console", heard)
    opened.on("pageerror", lambda error: watched.problems.append(str(error)))
    return watched


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A desktop page; the test fails if it broke the Content-Security-Policy."""
    watched = new_page(browser)
    yield watched.page
    watched.close()
    assert not watched.policy_violations(), watched.problems


__all__ = ["CHROMIUM_FLAGS", "DESKTOP", "PHONE", "Watched", "browser", "chromium_path", "new_page", "page"]
