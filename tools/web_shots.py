"""Screenshots of the site as a newcomer sees it, on a laptop and on a phone: the first page,
signed out and in, and a game page of each preset against bots. Written into ``docs/web/``.

    python tools/web_shots.py [--out docs/web]

Needs Debian's chromium (``apt install chromium``) and Playwright for Python; starts its own
``fogdip serve`` on a fresh data directory.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import uuid
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

PRESETS = ("fog-of-war", "sighting", "deadman", "diplomyopia", "fog-1898")
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run", "--disable-sync"]


# The same server as the page-bytes bench: this checkout's code, whichever fogdip is installed.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from page_bytes import serve  # noqa: E402

SOURCE = Path(__file__).resolve().parents[1] / "src"


def _shoot(page: Page, out: Path, name: str) -> None:
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        if page.locator("figure.map").count():
            page.wait_for_selector("figure.map[data-ready]")  # the board drawn inline
        page.screenshot(path=str(out / f"{name}-{size}.png"), full_page=True)


def _ordering(page: Page, out: Path) -> None:
    """Orders by clicking: one unit ordered to move, and the next chosen, its targets lit."""
    page.set_viewport_size(SIZES["desktop"])
    page.wait_for_selector("figure.map[data-ready]")
    power = page.locator(".orders-panel").get_attribute("data-power")
    units = page.locator(f"figure.map [data-unit][data-power='{power}']:not([data-ghost])")
    units.nth(0).click()
    page.locator("figure.map [data-province].lit").first.click()
    units.nth(1).click()
    page.wait_for_selector("figure.map [data-province].lit")
    _shoot(page, out, "game-ordering")


def _history(page: Page, out: Path) -> None:
    """A fog game played on for a turn, then its first phase again, as the power saw it; and
    its map zoomed in and panned by the keys."""
    page.set_viewport_size(SIZES["desktop"])
    turn = page.locator("#board").get_attribute("data-turn")
    page.get_by_role("button", name="Ready", exact=True).click()
    page.locator("dialog#ready-ask").get_by_role("button", name="Ready anyway").click()  # units unordered
    page.wait_for_function("turn => document.getElementById('board').dataset.turn !== turn", arg=turn, timeout=30_000)
    page.wait_for_selector("figure.map[data-ready]")
    page.locator("svg.map-view").focus()
    for key in ("+", "+", "ArrowLeft"):
        page.keyboard.press(key)
    _shoot(page, out, "game-zoomed")
    page.locator("h1").click()
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("nav.history .steps a[aria-current]:not(:text('now'))")
    _shoot(page, out, "game-history")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("docs/web"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("install Debian's chromium first: apt install chromium")
    with tempfile.TemporaryDirectory() as folder:
        process, url = serve(SOURCE, Path(folder))
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, args=FLAGS)
                page = browser.new_page(viewport=SIZES["desktop"])
                page.goto(url + "/")
                _shoot(page, args.out, "first-page")
                page.set_viewport_size(SIZES["desktop"])
                page.locator("#signup-name").fill(f"player{uuid.uuid4().hex[:6]}")
                page.locator("#signup-password").fill("correct horse battery")
                page.get_by_role("button", name="Sign up and play").click()
                page.wait_for_selector("text=Play a fog game against bots")
                _shoot(page, args.out, "signed-in")
                for preset in PRESETS:
                    page.set_viewport_size(SIZES["desktop"])
                    page.goto(url + "/")
                    page.get_by_role("button", name=f"Play {preset}").click()
                    page.wait_for_selector("#board")
                    _shoot(page, args.out, f"game-{preset}")
                    if preset == "fog-of-war":
                        _ordering(page, args.out)
                        _history(page, args.out)
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=10)
    print(f"screenshots in {args.out}")


if __name__ == "__main__":
    main()
