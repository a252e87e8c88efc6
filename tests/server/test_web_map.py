"""The game page's map: the board served once (immutable, by its content's hash) with a target
per province, and each phase's overlay, which names no unit its scene lacks and is the same
whatever the power cannot see; in a real Chromium against a real ``fogdip serve``, the map pans
and zooms by wheel, drag, keys and buttons, steps through past phases by the arrow keys, and a
new phase fetches no board again, on a laptop and on a phone."""

from __future__ import annotations

import gzip
import re
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import httpx
import pytest
import test_web_browser
from axe_playwright_python.sync_playwright import Axe
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Browser, Page, expect

from fogdip.fog.report import observation_text
from fogdip.game import Game
from fogdip.maps.geometry import load_geometry
from fogdip.maps.layers import board_of, layers_of
from fogdip.maps.views import master_scene_of, power_scene_of
from fogdip.web.history import numbered_report

from servers import PASSWORD, ServerProcess

DATABASES = ("sqlite",)
#: The browser tests' Chromium and page, shared.
browser = test_web_browser.browser
page = test_web_browser.page
SVG = "{http://www.w3.org/2000/svg}"
UNIT = re.compile(r'data-unit="([^"]+)"')
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


# -- in process ---------------------------------------------------------------------------------


def test_the_board_has_one_target_per_province_and_names_no_game() -> None:
    board = board_of("standard")
    root = ET.fromstring(board.document)
    targets = sorted(e.get("data-province") or "" for e in root.iter() if e.get("data-province"))
    regions = load_geometry("standard").regions.values()
    assert targets == sorted(r.id for r in regions if r.kind in ("land", "sea", "impassable"))
    assert "data-unit" not in board.document and "fog" not in board.document
    assert gzip.decompress(board.gzipped).decode() == board.document
    assert board.url == f"/maps/standard.{board.key}.svg"


def _played(turns: int) -> Game:
    game = Game.create("fog-of-war", end_year=1903)
    for _ in range(turns):
        game.adjudicate()
    return game


@pytest.mark.parametrize("turns", [0, 1, 3])
def test_an_overlay_names_exactly_the_units_its_scene_holds(turns: int) -> None:
    game = _played(turns)
    for power in game.powers:
        scene = power_scene_of(game, power)
        layers = layers_of(scene, framed=True)
        drawn = sorted(UNIT.findall(layers.overlay + repr(layers.legend) + layers.fog + layers.defs))
        assert drawn == sorted(unit.location for unit in scene.units), power
    master = layers_of(master_scene_of(game))
    assert len(UNIT.findall(master.overlay)) == len(game.position.state.units) + len(game.position.state.dislodged)


TURKEY = {
    "A CON": ["A CON H", "A CON - BUL", "A CON - SMY"],
    "F ANK": ["F ANK H", "F ANK - BLA", "F ANK - CON", "F ANK - ARM"],
    "A SMY": ["A SMY H", "A SMY - ARM", "A SMY - SYR"],
}
ENGLAND = {
    "F LON": ["F LON H", "F LON - NTH", "F LON - ENG"],
    "F EDI": ["F EDI H", "F EDI - NWG", "F EDI - NTH"],
    "A LVP": ["A LVP H", "A LVP - YOR", "A LVP - WAL"],
}


def _lines(choices: dict[str, list[str]]) -> st.SearchStrategy[list[str]]:
    return st.tuples(*(st.sampled_from(options) for options in choices.values())).map(list)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(england=_lines(ENGLAND), turkey=_lines(TURKEY), other=_lines(TURKEY))
def test_two_worlds_differing_in_hidden_units_give_england_the_same_overlay(
    england: list[str], turkey: list[str], other: list[str]
) -> None:
    """Turkey's moves, far from England, put its units in other places: England's overlay (and
    its frame and legend) is byte for byte the same."""
    seen = []
    for lines in (turkey, other):
        game = Game.create("fog-of-war", end_year=1902)
        game.file("TURKEY", lines)
        game.file("ENGLAND", england)
        game.adjudicate()
        seen.append(layers_of(power_scene_of(game, "ENGLAND"), framed=True))
    assert seen[0] == seen[1]


# -- over HTTP -----------------------------------------------------------------------------------


def test_the_board_is_served_for_good_and_compressed(server: ServerProcess) -> None:
    board = board_of("standard")
    plain = httpx.get(server.url + board.url, headers={"accept-encoding": "identity"})
    assert plain.status_code == 200 and plain.text == board.document
    assert plain.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert plain.headers["content-type"].startswith("image/svg+xml")
    packed = httpx.get(server.url + board.url, headers={"accept-encoding": "gzip"})
    assert packed.headers["content-encoding"] == "gzip" and packed.text == board.document
    assert int(packed.headers["content-length"]) < len(board.document) / 2
    for wrong in ("/maps/standard.000000000000.svg", "/maps/nowhere.svg", f"/maps/other.{board.key}.svg"):
        answer = httpx.get(server.url + wrong)
        assert answer.status_code == 404 and "No such board" in answer.text


# -- in Chromium ---------------------------------------------------------------------------------


def _start(page: Page, server: ServerProcess) -> None:
    page.goto(server.url + "/")
    page.locator("#signup-name").fill(f"map{uuid.uuid4().hex[:8]}")
    page.locator("#signup-password").fill(PASSWORD)
    page.get_by_role("button", name="Sign up and play").click()
    page.get_by_role("button", name="Play fog-of-war").click()
    expect(page.locator("figure.map")).to_have_attribute("data-ready", "true")


def _view(page: Page) -> list[float]:
    return [float(n) for n in (page.locator("svg.map-view").get_attribute("viewBox") or "").split()]


def _serious(page: Page) -> list[str]:
    """The serious or critical accessibility violations axe-core finds on the page."""
    found = Axe().run(page).response["violations"]
    return [f"{v['id']}: {v['help']}" for v in found if v["impact"] in ("serious", "critical")]


def _ready(page: Page) -> None:
    turn = page.locator("#board").get_attribute("data-turn")
    page.get_by_role("button", name="Ready").click()
    expect(page.locator("#board")).not_to_have_attribute("data-turn", turn or "", timeout=15_000)
    expect(page.locator("figure.map")).to_have_attribute("data-ready", "true")


@pytest.fixture(params=list(SIZES))
def sized(request: pytest.FixtureRequest, page: Page) -> Iterator[Page]:
    page.set_viewport_size(SIZES[request.param])
    yield page


def test_the_map_pans_and_zooms_by_wheel_drag_keys_and_buttons(sized: Page, server: ServerProcess) -> None:
    page = sized
    _start(page, server)
    assert page.locator("[data-province]").count() == 76
    assert page.locator("[data-unit][data-power]").count() >= 3
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scroll
    assert page.locator("svg.map-view").bounding_box()["width"] >= width * (0.9 if width < 500 else 0.4)  # type: ignore[index]
    framed = _view(page)
    assert framed[2] < 1500  # opened on what the power knows
    page.get_by_role("button", name="Zoom in").click()
    assert _view(page)[2] < framed[2]
    page.get_by_role("button", name="Zoom out").click()
    page.get_by_role("button", name="Zoom out").click()
    assert _view(page)[2] > framed[2]
    page.get_by_role("button", name="Whole board").click()
    whole = _view(page)
    assert whole[2] >= 1499 or whole[3] >= board_of("standard").height - 1
    page.locator("svg.map-view").focus()
    page.keyboard.press("+")
    zoomed = _view(page)
    assert zoomed[2] < whole[2]
    page.keyboard.press("ArrowRight")
    assert _view(page)[0] > zoomed[0]
    page.keyboard.press("ArrowDown")
    assert _view(page)[1] > zoomed[1]
    page.keyboard.press("-")
    assert _view(page)[2] > zoomed[2]
    page.keyboard.press("0")
    assert _view(page)[2] == pytest.approx(whole[2], abs=0.2)
    box = page.locator("svg.map-view").bounding_box()
    assert box is not None
    middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.move(*middle)
    page.mouse.wheel(0, -300)
    expect(page.locator("svg.map-view")).not_to_have_attribute("viewBox", " ".join(f"{n:.1f}" for n in whole))
    wheeled = _view(page)
    assert wheeled[2] < whole[2]
    # A drag pans, and the click it ends in reaches no province.
    page.evaluate(
        "window.clicked = 0; document.addEventListener('click', e => { if (e.target.closest('[data-province], [data-unit]')) window.clicked++; })"
    )
    page.mouse.move(*middle)
    page.mouse.down()
    page.mouse.move(middle[0] - 12, middle[1] - 8, steps=4)  # a short drag: within one province
    page.mouse.up()
    dragged = _view(page)
    assert dragged[0] > wheeled[0] and dragged[1] > wheeled[1]
    assert page.evaluate("window.clicked") == 0
    # A plain click does reach the province under it.
    page.mouse.click(*middle)
    assert page.evaluate("window.clicked") >= 1


def test_history_steps_by_arrow_keys_and_a_new_phase_fetches_no_board(sized: Page, server: ServerProcess) -> None:
    page = sized
    _start(page, server)
    loaded = page.evaluate("performance.getEntriesByType('resource').filter(e => e.name.includes('/maps/')).length")
    assert loaded >= 1
    page.evaluate("performance.clearResourceTimings()")
    _ready(page)
    _ready(page)
    # The new phases' maps came without the board: every board read since was the browser's own copy.
    board_reads = page.evaluate(
        "performance.getEntriesByType('resource').filter(e => e.name.includes('/maps/')).map(e => e.transferSize)"
    )
    assert all(size == 0 for size in board_reads), board_reads
    assert not _serious(page)
    steps = page.locator("nav.history .steps a")
    assert steps.count() >= 3
    expect(page.locator("nav.history .steps a[aria-current]")).to_have_text("now")
    report = page.locator("pre.report").inner_text()
    page.locator("h1").click()  # the page, not a field or the map, has the keys
    page.keyboard.press("ArrowLeft")
    expect(page).to_have_url(re.compile(r"\?phase="))
    expect(page.locator("nav.history .steps a[aria-current]")).not_to_have_text("now")
    expect(page.locator("figure.map")).to_have_attribute("data-ready", "true")
    assert page.locator("pre.report").inner_text() != report
    assert page.locator("#lines").count() == 0  # a past phase takes no orders
    first = page.locator("nav.history .steps a[aria-current]").inner_text()
    page.keyboard.press("ArrowLeft")
    expect(page.locator("nav.history .steps a[aria-current]")).not_to_have_text(first)
    page.keyboard.press("ArrowRight")
    expect(page.locator("nav.history .steps a[aria-current]")).to_have_text(first)
    page.get_by_role("link", name="Later →").click()
    expect(page.locator("nav.history .steps a[aria-current]")).to_have_text("now")
    expect(page.locator("#lines")).to_be_visible()
    assert not _serious(page)
    # Typing in a field moves no phase.
    page.locator("#lines").press("ArrowLeft")
    expect(page.locator("nav.history .steps a[aria-current]")).to_have_text("now")
    board_reads = page.evaluate(
        "performance.getEntriesByType('resource').filter(e => e.name.includes('/maps/')).map(e => e.transferSize)"
    )
    assert all(size == 0 for size in board_reads), board_reads


def test_the_map_shows_without_scripts(browser: Browser, server: ServerProcess) -> None:
    context = browser.new_context(java_script_enabled=False, viewport=SIZES["desktop"])
    plain = context.new_page()
    plain.goto(server.url + "/")
    plain.locator("#signup-name").fill(f"plain{uuid.uuid4().hex[:8]}")
    plain.locator("#signup-password").fill(PASSWORD)
    plain.get_by_role("button", name="Sign up and play").click()
    plain.get_by_role("button", name="Play fog-of-war").click()
    image = plain.locator("svg.map-view image.map-board")
    expect(image).to_have_count(1)
    board = board_of("standard")
    assert image.get_attribute("href") == board.url
    assert plain.evaluate("document.querySelector('svg.map-view image').getBBox().width") == pytest.approx(1500, abs=1)
    assert plain.locator("[data-unit]").count() >= 3
    context.close()


def test_the_reports_notices_are_numbered_as_the_maps_marks() -> None:
    game = Game.create("diplomyopia", end_year=1902)
    game.adjudicate()
    numbered = 0
    for power in game.powers:
        scene = power_scene_of(game, power)
        lines = numbered_report(observation_text(game.reports(power)[-1]), scene.marks)
        told = {line.number: line.text.strip() for line in lines if line.number is not None}
        assert told == {mark.number: mark.text for mark in scene.marks}, power
        assert layers_of(scene).legend.marks == scene.marks
        numbered += len(told)
    assert numbered  # diplomyopia's first turn tells of units seen: some are marked


def test_two_fingers_pinch_the_map(browser: Browser, server: ServerProcess) -> None:
    context = browser.new_context(viewport=SIZES["phone"], has_touch=True, is_mobile=True)
    phone = context.new_page()
    _start(phone, server)
    before = _view(phone)
    box = phone.locator("svg.map-view").bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    touch = context.new_cdp_session(phone)

    def fingers(kind: str, apart: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x - apart, "y": y, "id": 0}, {"x": x + apart, "y": y, "id": 1}]
        touch.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    fingers("touchStart", 20)
    for apart in (30, 45, 60, 80):
        fingers("touchMove", apart)
    fingers("touchEnd", 0)
    after = _view(phone)
    assert after[2] < before[2] / 2  # spread four times apart: zoomed in about that much
    assert phone.evaluate("document.documentElement.scrollWidth") <= SIZES["phone"]["width"]
    context.close()
