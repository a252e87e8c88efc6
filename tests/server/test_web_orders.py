"""Orders on the game page, in a real browser (Debian's Chromium, driven by Playwright) against
a real ``fogdip serve``: by clicking on the map, by typing, by the keyboard alone; retreats and
builds; the deadman setup, espionage and peek; a sighting turn's conditional order; the turn's
states (draft, filed, ready) and the question before a ready with units unordered."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
import test_web_browser as browsing
from playwright.sync_api import Browser, Page, expect

from fogdip.codec.gamefiles import game_to_json
from fogdip.engine.map import standard_map
from fogdip.game.service import Game

from browser import PHONE, new_page
from servers import ServerProcess, account, unique

#: The browser and its page (with its check that no page breaks its Content-Security-Policy).
browser = browsing.browser
page = browsing.page
_sign_up = browsing._sign_up

#: The site's behaviour is the table's, the same on both databases.
DATABASES = ("sqlite",)

SUPPLY_CENTRES = frozenset(standard_map().supply_centers)


# --- a player's hands ----------------------------------------------------------------------------


def choices(page: Page) -> dict[str, Any]:
    """The choices the page was given (what the page's script lights up)."""
    data: dict[str, Any] = json.loads(page.locator("#choices").text_content() or "{}")
    return data


def lit(page: Page) -> list[str]:
    return sorted(
        set(page.locator("figure.map [data-province].lit").evaluate_all("els => els.map(e => e.dataset.province)"))
    )


def settled(page: Page, check: Any, seconds: float = 3.0) -> bool:
    """Whether ``check()`` holds within ``seconds``."""
    for _ in range(int(seconds * 20)):
        if check():
            return True
        page.wait_for_timeout(50)
    return bool(check())


def press(page: Page, point: list[float]) -> None:
    """A click with the mouse, or on a phone (a context with touch) a tap of the finger."""
    if page.evaluate("navigator.maxTouchPoints") > 0:
        page.touchscreen.tap(point[0], point[1])
    else:
        page.mouse.click(point[0], point[1])


def click_province(page: Page, province: str) -> None:
    """A mouse click on the map, on a spot of ``province`` that nothing else covers."""
    point = page.evaluate(
        """(p) => {
          const el = document.querySelector(`figure.map svg [data-province="${p}"]`);
          el.scrollIntoView({block: "center"});
          const box = el.getBoundingClientRect();
          // A spot well inside it: the province under the pointer and around it (a hovered
          // border is drawn wider).
          const mine = (x, y) => {
            const hit = document.elementFromPoint(x, y);
            return hit && hit.closest("[data-province]") === el && !hit.closest("[data-unit]");
          };
          let best = null;
          for (const margin of [8, 4, 0]) {
            for (let i = 1; i < 16 && !best; i++) for (let j = 1; j < 16 && !best; j++) {
              const x = box.left + box.width * i / 16, y = box.top + box.height * j / 16;
              const around = [[0, 0], [margin, 0], [-margin, 0], [0, margin], [0, -margin]];
              if (around.every(([dx, dy]) => mine(x + dx, y + dy))) best = [x, y];
            }
            if (best) return best;
          }
          return null;
        }""",
        province,
    )
    assert point, f"no spot of {province} to click on the map"
    press(page, point)


def click_unit(page: Page, province: str) -> None:
    """A mouse click on one's own unit in ``province``, on a spot the unit covers."""
    point = page.evaluate(
        """(p) => {
          const units = [...document.querySelectorAll("figure.map svg [data-unit].orderable")];
          const el = units.find((u) => u.dataset.unit.split("/")[0] === p);
          el.scrollIntoView({block: "center"});
          const box = el.getBoundingClientRect();
          for (let i = 1; i < 8; i++) for (let j = 1; j < 8; j++) {
            const x = box.left + box.width * i / 8, y = box.top + box.height * j / 8;
            const hit = document.elementFromPoint(x, y);
            if (hit && hit.closest("[data-unit]") === el) return [x, y];
          }
          return null;
        }""",
        province,
    )
    assert point, f"no spot of the unit in {province} to click on the map"
    press(page, point)


def order_by_clicks(page: Page, unit: dict[str, Any], pick: Any) -> str:
    """Click ``unit`` on the map, then the place ``pick`` chooses among those lit (and the
    first coast, where one is asked); the place clicked. The live stream may read the board
    again meanwhile (the page asks for it too): a click that met the old board is made again."""
    mine = re.compile(re.escape(unit["unit"]) + " ")
    for _attempt in range(3):
        click_unit(page, unit["province"])
        if not settled(page, lambda: lit(page) == sorted(unit["moves"])):
            continue
        target: str = pick(lit(page))
        click_province(page, target)
        texts = unit["moves"][target]
        if len(texts) > 1:  # a coast (or overland or by convoy) is asked
            if not settled(page, lambda: page.locator("#pick-help").inner_text().endswith("Choose one:")):
                continue
            page.locator("#pick-targets").get_by_role("button", name=texts[0], exact=True).click()
        if settled(page, lambda: any(mine.match(line) for line in page.locator("#lines").input_value().splitlines())):
            return target
    raise AssertionError(f"{unit['unit']} could not be given an order by clicks")


def hold_by_key(page: Page, unit: dict[str, Any]) -> None:
    """Click ``unit`` on the map and press H: it holds."""
    for _attempt in range(3):
        click_unit(page, unit["province"])
        page.keyboard.press("h")
        if settled(page, lambda: unit["hold"] in page.locator("#lines").input_value().splitlines()):
            return
    raise AssertionError(f"{unit['unit']} could not be told to hold by its key")


def ready(page: Page, turn: str) -> None:
    """Mark ready (filing a draft first, as the page does); every other seat is the bot's, so
    the turn is played and the next one shows without a reload."""
    page.get_by_role("button", name="Ready", exact=True).click()
    board, asked = page.locator("#board"), page.locator("dialog#ready-ask[open]")
    for _ in range(300):
        if board.get_attribute("data-turn") != turn:
            quiet(page)
            return
        if asked.count():
            asked.get_by_role("button", name="Ready anyway").click()
        page.wait_for_timeout(100)
    raise AssertionError(f"{turn} was not played")


def map_ready(page: Page) -> None:
    """The board's provinces are drawn inline (``map.js``): the map takes clicks."""
    expect(page.locator("figure.map[data-ready]")).to_be_attached()


def count_swaps(page: Page) -> None:
    page.evaluate(
        "document.addEventListener('htmx:afterSwap', (e) => {"
        " if (e.detail.target.id === 'board') window.boardSwaps = (window.boardSwaps || 0) + 1; })"
    )


def quiet(page: Page) -> None:
    """A new phase is read more than once (the ready's answer and the live stream both ask
    for it): wait until the board is read no more, and its map is drawn."""
    last = -1
    for _ in range(50):
        now = page.evaluate("window.boardSwaps || 0")
        if now == last:
            break
        last = now
        page.wait_for_timeout(400)
    map_ready(page)


def start_against_bots(page: Page, server: ServerProcess, preset: str) -> str:
    _sign_up(page, server)
    page.get_by_role("button", name=f"Play {preset}").click()
    expect(page.locator("#choices")).to_be_attached()
    count_swaps(page)
    quiet(page)
    return page.url.rsplit("/", 1)[-1]


def play_a_turn_by_clicking(page: Page, rng: random.Random, homes: set[str]) -> dict[str, Any]:
    """Every unit, site or centre the turn asks about, given an order by clicks on the map
    (and the army-or-fleet button a build asks)."""
    given = choices(page)
    turn = given["turn"]
    if given["phase"] == "R" and not given["units"]:
        expect(page.locator("#pick-help")).to_contain_text("there is nothing to order")
    if given["phase"] in ("M", "R"):
        # A simple strategy: on to a supply centre not yet ours, no two units to the same
        # place; in the Fall a unit on such a centre holds it (the centre is taken then).
        aimed: set[str] = set()
        for unit in given["units"]:
            if given["phase"] == "M" and turn.startswith("F") and unit["province"] in SUPPLY_CENTRES - homes:
                hold_by_key(page, unit)
                aimed.add(unit["province"])
                continue

            def pick(lit: list[str]) -> str:
                free = [t for t in lit if t not in aimed]
                wanted = [t for t in free if t in SUPPLY_CENTRES - homes]
                chosen: str = rng.choice(wanted or free or lit)
                return chosen

            aimed.add(order_by_clicks(page, unit, pick))
        expect(page.locator("#ordered-count")).to_contain_text(f"{len(given['units'])} of {len(given['units'])}")
    elif given["phase"] == "A" and given["adjust"]["due"] > 0:
        due = given["adjust"]["due"]
        expect(page.locator("#pick-help")).to_contain_text(f"You may build {due}")
        for site in sorted(given["adjust"]["sites"])[:due]:
            click_province(page, site)
            options = given["adjust"]["sites"][site]
            if len(options) > 1:
                page.locator("#pick-targets").get_by_role("button", name=options[0], exact=True).click()
            expect(page.locator("#lines")).to_have_value(re.compile(re.escape(site)))
    elif given["phase"] == "A" and given["adjust"]["due"] < 0:
        for site in sorted(given["adjust"]["removals"])[: -given["adjust"]["due"]]:
            click_unit(page, site)
            expect(page.locator("#lines")).to_have_value(re.compile(re.escape(f"{site} D")))
    if page.locator("#lines").input_value():
        expect(page.locator("#order-state")).to_have_attribute("data-state", "draft")
    ready(page, turn)
    return given


# --- the tests -----------------------------------------------------------------------------------


def test_a_newcomer_plays_two_years_by_clicking_on_the_map(page: Page, server: ServerProcess) -> None:
    start_against_bots(page, server, "fog-of-war")
    rng = random.Random(21)
    seen: list[dict[str, Any]] = []
    homes = {unit["province"] for unit in choices(page)["units"]}
    while page.locator("#board").get_attribute("data-turn") != "S1903M":
        seen.append(play_a_turn_by_clicking(page, rng, homes))
        assert len(seen) < 14, seen
    phases = [given["phase"] for given in seen]
    assert phases.count("M") == 4 and phases.count("A") == 2, phases
    # What was clicked was played: the report lists the orders of the last movement.
    expect(page.locator("pre.report")).to_contain_text("1902")
    # The centres taken are built on, by clicks. The bots (the fog-aware heuristic, drawing on
    # the OS's randomness) contest the neutral centres, so the newcomer's simple strategy may
    # take its first only later: it plays on, up to 1905, until it has built.
    while not any(given["adjust"] and given["adjust"]["due"] > 0 for given in seen):
        assert page.locator("#board").get_attribute("data-turn") != "S1906M", seen
        seen.append(play_a_turn_by_clicking(page, rng, homes))


def test_a_newcomer_plays_two_years_by_tapping_on_a_phone(browser: Browser, server: ServerProcess) -> None:
    """The same on a phone (390x844, touch): every order by a tap on the map."""
    watched = new_page(browser, **PHONE)
    page = watched.page
    start_against_bots(page, server, "fog-of-war")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    rng = random.Random(1902)
    seen: list[dict[str, Any]] = []
    homes = {unit["province"] for unit in choices(page)["units"]}
    while page.locator("#board").get_attribute("data-turn") != "S1903M":
        seen.append(play_a_turn_by_clicking(page, rng, homes))
        assert len(seen) < 14, seen
    assert [given["phase"] for given in seen].count("M") == 4
    watched.close()
    assert not watched.policy_violations(), watched.problems


def test_a_retreat_by_clicking(page: Page, server: ServerProcess) -> None:
    # France's A BUR is dislodged in Fall 1901 (a game master's game file); the newcomer
    # takes France and retreats it by clicking.
    game = Game.create("fog-of-war")
    game.file("FRANCE", ["A PAR - BUR"])
    game.file("GERMANY", ["A MUN - RUH", "A BER - MUN"])
    game.adjudicate()
    while game.turn != "F1901M":
        game.adjudicate()
    game.file("GERMANY", ["A RUH - BUR", "A MUN S A RUH - BUR"])
    game.adjudicate()
    assert game.turn == "F1901R"
    master = account(server, unique("gm"))
    made = master.import_game(game_to_json(game.record), name="a retreat", private=False)
    master.seat_bots(made.id, [p for p in game.powers if p != "FRANCE"])
    _sign_up(page, server)
    page.goto(f"{server.url}/games/{made.id}")
    page.get_by_role("button", name="Join (a free power)").click()
    expect(page.get_by_text("you play FRANCE")).to_be_visible()
    count_swaps(page)
    quiet(page)
    given = choices(page)
    assert given["phase"] == "R" and [u["unit"] for u in given["units"]] == ["A BUR"]
    expect(page.locator("#ordered-count")).to_have_text("0 of 1 dislodged units ordered")
    click_unit(page, "BUR")
    assert "MUN" in lit(page) and "PAR" in lit(page)
    click_province(page, "PIC")
    expect(page.locator("#lines")).to_have_value("A BUR R PIC")
    expect(page.locator("#ordered-count")).to_have_text("1 of 1 dislodged units ordered")
    ready(page, "F1901R")
    expect(page.locator("pre.report")).to_contain_text("A BUR R PIC")


def test_orders_by_typing_with_a_refused_line_and_nothing_lost(page: Page, server: ServerProcess) -> None:
    start_against_bots(page, server, "fog-of-war")
    for _year in (1901, 1902):
        for _season in range(5):
            given = choices(page)
            turn = given["turn"]
            box = page.locator("#lines")
            box.click()
            box.press("Control+a")
            box.press("Delete")
            lines = [next(iter(unit["moves"].values()))[0] for unit in given["units"]]
            if given["adjust"] and given["adjust"]["due"] > 0:
                lines = [texts[0] for texts in list(given["adjust"]["sites"].values())[: given["adjust"]["due"]]]
            elif given["adjust"] and given["adjust"]["due"] < 0:
                lines = list(given["adjust"]["removals"].values())[: -given["adjust"]["due"]]
            if turn == "S1901M":
                # A line that cannot be read is refused beside it; nothing is filed or lost.
                box.press_sequentially("\n".join([*lines, "A XYZ - BUR"]))
                expect(page.locator("#order-state")).to_have_attribute("data-state", "draft")
                page.get_by_role("button", name="File orders").click()
                expect(page.locator("#verdicts")).to_contain_text("Nothing was filed")
                expect(page.locator("#verdicts li.refused")).to_contain_text("unknown province")
                expect(page.locator("#verdicts li.ok")).to_have_count(len(lines))
                expect(box).to_have_value("\n".join([*lines, "A XYZ - BUR"]))
                # The typed lines show in the clicks' panel: each unit has its order.
                expect(page.locator("#ordered-count")).to_have_text(f"{len(lines)} of {len(lines)} units ordered")
                unit = given["units"][0]
                expect(page.locator("#pick-unit option", has_text=lines[0])).to_have_count(1)
                # Clicking a unit shows its typed move, lit; the wrong line is then deleted.
                click_unit(page, unit["province"])
                expect(page.locator("#pick-help")).to_contain_text(f"Now: {lines[0]}")
                box.click()
                box.press("Control+End")
                for _ in "A XYZ - BUR":
                    box.press("Backspace")
                box.press("Backspace")
                expect(page.locator("#verdicts li.refused")).to_have_class("refused stale")
            else:
                box.press_sequentially("\n".join(lines))
            if lines:
                page.get_by_role("button", name="File orders").click()
                expect(page.locator("#verdicts")).to_contain_text(f"Filed for {turn}")
                expect(page.locator("#order-state")).to_have_attribute("data-state", "filed")
            ready(page, turn)
    expect(page.locator("#board")).to_have_attribute("data-turn", "S1903M")


def test_ready_with_units_unordered_asks_first(page: Page, server: ServerProcess) -> None:
    game_id = start_against_bots(page, server, "fog-of-war")
    given = choices(page)
    click_unit(page, given["units"][0]["province"])
    page.get_by_role("button", name="Hold").click()
    total = len(given["units"])
    expect(page.locator("#ordered-count")).to_have_text(f"1 of {total} units ordered")
    # The live stream reads the board again (as app.js does when a message comes): the draft
    # and the unit chosen stay.
    drafted, targets = page.locator("#lines").input_value(), lit(page)
    page.evaluate("(id) => htmx.ajax('GET', `/games/${id}/board`, {target: '#board', swap: 'outerHTML'})", game_id)
    map_ready(page)
    expect(page.locator("#lines")).to_have_value(drafted)
    expect(page.locator("#order-state")).to_have_attribute("data-state", "draft")
    assert lit(page) == targets
    page.get_by_role("button", name="Ready", exact=True).click()
    dialog = page.locator("dialog#ready-ask")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(f"{total - 1} of your units have no order yet")
    # Filed first (it was a draft), not yet ready.
    expect(page.locator("#order-state")).to_have_attribute("data-state", "filed")
    dialog.get_by_role("button", name="Not yet").click()
    # A game against bots tells no ready count: none is shown.
    expect(page.locator("#ready-count")).to_have_count(0)
    expect(page.locator("#board")).to_have_attribute("data-turn", "S1901M")
    page.get_by_role("button", name="Ready", exact=True).click()
    dialog.get_by_role("button", name="Ready anyway").click()
    expect(page.locator("#board")).not_to_have_attribute("data-turn", "S1901M", timeout=30_000)


def test_the_keyboard_alone_files_an_order(page: Page, server: ServerProcess) -> None:
    start_against_bots(page, server, "fog-of-war")
    given = choices(page)
    page.locator("header.top .brand").focus()

    def tab_to(selector: str, back: bool = False) -> None:
        for _ in range(200):
            page.keyboard.press("Shift+Tab" if back else "Tab")
            if page.evaluate(f"document.activeElement.matches({selector!r})"):
                return
        raise AssertionError(f"Tab never reached {selector}")

    tab_to("figure.map [data-unit].orderable")
    page.keyboard.press("Enter")
    first = page.evaluate("document.activeElement.dataset.province")
    assert first in lit(page)
    # The arrows step among the lit places.
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.province")
    assert focused in lit(page) and (focused != first or len(lit(page)) == 1)
    page.keyboard.press("Enter")
    expect(page.locator("#lines")).not_to_have_value("")
    written = page.locator("#lines").input_value()
    unit = next(u for u in given["units"] if written in u["moves"].get(focused, ()))
    # H gives the unit's hold instead, by a key.
    page.keyboard.press("h")
    expect(page.locator("#lines")).to_have_value(unit["hold"])
    tab_to("form.orders button[type=submit]")
    page.keyboard.press("Enter")
    expect(page.locator("#verdicts li.ok")).to_have_count(1)
    expect(page.locator("#order-state")).to_have_attribute("data-state", "filed")


def test_a_deadman_game_from_its_free_setup_through_an_espionage_and_a_peek(page: Page, server: ServerProcess) -> None:
    start_against_bots(page, server, "deadman")
    given = choices(page)
    assert given["phase"] == "S"
    expect(page.locator("#ordered-count")).to_contain_text(f"0 of {len(given['setup'])} centres chosen")
    for centre, options in sorted(given["setup"].items()):
        click_province(page, centre)
        if len(options) > 1:  # the unit is asked; a lone choice is taken at once
            expect(page.locator("#pick-help")).to_have_text(f"The unit that starts in {centre}:")
            page.locator("#pick-targets").get_by_role("button", name=options[-1], exact=True).click()
        expect(page.locator("#lines")).to_have_value(re.compile(re.escape(options[-1])))
    expect(page.locator("#ordered-count")).to_contain_text(
        f"{len(given['setup'])} of {len(given['setup'])} centres chosen"
    )
    ready(page, "S1901S")
    # Spring 1901: the first unit spies on another power.
    given = choices(page)
    spy = given["units"][0]
    click_unit(page, spy["province"])
    label, text = spy["extras"][0]
    assert label.startswith("spy on")
    page.locator("#pick-extras button", has_text=label).click()
    expect(page.locator("#lines")).to_have_value(text)
    ready(page, "S1901M")
    expect(page.locator("pre.report")).to_contain_text(f"{text} (")
    while choices(page)["turn"] != "W1901A":
        ready(page, choices(page)["turn"])
    # The Winter's list holds the Spring 1902's orders: a peek among them.
    given = choices(page)
    assert given["peek"]
    page.locator("#peek-province").select_option("NTH")
    page.get_by_role("button", name="Peek", exact=True).click()
    expect(page.locator("#lines")).to_have_value(re.compile(re.escape("PAS NTH")))
    page.get_by_role("button", name="File orders").click()
    expect(page.locator("#verdicts")).to_contain_text("Filed for W1901A")
    page.get_by_role("button", name="Ready", exact=True).click()
    page.locator("dialog#ready-ask").get_by_role("button", name="Ready anyway").click()
    expect(page.locator("#board")).not_to_have_attribute("data-turn", "W1901A", timeout=30_000)
    expect(page.locator("pre.report")).to_contain_text("PAS NTH: ")


def test_a_sighting_turn_with_a_retreat_guess_and_a_conditional_order(page: Page, server: ServerProcess) -> None:
    start_against_bots(page, server, "sighting")
    given = choices(page)
    assert given["kinds"] == ["M", "R"]
    expect(page.locator("#order-help")).to_contain_text("Conditional: IF")
    unit = given["units"][0]
    click_unit(page, unit["province"])
    page.keyboard.press("g")
    guess = sorted(unit["guesses"])[0]
    click_province(page, guess)
    guess_line = unit["guesses"][guess][0]
    expect(page.locator("#lines")).to_have_value(guess_line)
    other = sorted(unit["guesses"])[-1]
    conditional = f"IF {unit['unit']} DISLODGED THEN {unit['unit']} R {other}"
    box = page.locator("#lines")
    box.click()
    box.press("Control+End")
    box.press_sequentially("\n" + conditional)
    # Neither is the unit's movement order: it still has none.
    expect(page.locator("#ordered-count")).to_contain_text(f"0 of {len(given['units'])}")
    page.get_by_role("button", name="File orders").click()
    expect(page.locator("#verdicts li.ok")).to_have_count(2)
    expect(page.locator("#verdicts")).to_contain_text(conditional)
    page.get_by_role("button", name="Ready", exact=True).click()
    page.locator("dialog#ready-ask").get_by_role("button", name="Ready anyway").click()
    expect(page.locator("#board")).not_to_have_attribute("data-turn", "S1901M", timeout=30_000)


def test_the_deadline_counts_down_and_says_so_in_its_last_tenth(page: Page, server: ServerProcess) -> None:
    master = account(server, unique("gm"))
    made = master.create_game(
        "fog-of-war", name="a timed game", private=False, deadlines={"movement": 3600}, ready_counts=True
    )
    master.seat_bots(made.id, [power for power in Game.create("fog-of-war").powers if power != "FRANCE"])
    page.clock.install()
    _sign_up(page, server)
    page.goto(f"{server.url}/games/{made.id}")
    page.get_by_role("button", name="Join (a free power)").click()
    master.start(made.id)
    page.reload()
    left, line = page.locator("#countdown-left"), page.locator("p.countdown")
    expect(left).to_contain_text(re.compile(r"0h 59m \d\ds left$"))
    expect(line).not_to_have_class(re.compile("late"))
    page.clock.fast_forward("54:30")
    expect(left).to_contain_text("left (hurry: the last tenth of the time)")
    expect(line).to_have_class(re.compile("late"))
    # This game tells how many seats are ready (in the head, kept live): the bots' six.
    expect(page.locator("#ready-count")).to_have_text("6 of 7 ready")


def test_a_support_by_its_key_and_two_clicks(page: Page, server: ServerProcess) -> None:
    start_against_bots(page, server, "fog-of-war")
    given = choices(page)
    unit = next(u for u in given["units"] if any(to for _other, to, _text in u["supports"]))
    other, to, text = next(s for s in unit["supports"] if s[1])
    click_unit(page, unit["province"])
    page.keyboard.press("s")
    # First the unit to support (every unit it may support is lit), then where it goes.
    assert lit(page) == sorted({s[0] for s in unit["supports"]})
    click_province(page, other)
    assert lit(page) == sorted({s[1] or s[0] for s in unit["supports"] if s[0] == other})
    click_province(page, to)
    expect(page.locator("#lines")).to_have_value(text)
    expect(page.locator("#ordered-count")).to_contain_text(f"1 of {len(given['units'])}")
    # Drawn over the map as written: one dashed line, no arrow; then a hold's ring, typed.
    drafts = page.locator("figure.map g.drafts")
    expect(drafts.locator(".draft")).to_have_count(1)
    expect(drafts.locator("line.draft-support")).to_have_count(1)
    # Back to moving: the same unit's moves are lit again, and its order is told.
    assert lit(page) == sorted(unit["moves"])
    expect(page.locator("#pick-help")).to_contain_text(f"Now: {text}.")
    holding = next(u for u in given["units"] if u is not unit)
    page.locator("#lines").fill(f"{text}\n{holding['hold']}")
    expect(drafts.locator("circle.draft-hold")).to_have_count(1)
    page.locator("#lines").fill("")
    expect(drafts.locator(".draft")).to_have_count(0)


def test_a_convoy_by_its_key_and_two_clicks(page: Page, server: ServerProcess) -> None:
    game = Game.create("fog-of-war")
    game.file("ENGLAND", ["F LON - NTH", "A LVP - YOR"])
    while game.turn != "F1901M":
        game.adjudicate()
    master = account(server, unique("gm"))
    made = master.import_game(game_to_json(game.record), name="a convoy", private=False)
    master.seat_bots(made.id, [p for p in game.powers if p != "ENGLAND"])
    _sign_up(page, server)
    page.goto(f"{server.url}/games/{made.id}")
    page.get_by_role("button", name="Join (a free power)").click()
    expect(page.get_by_text("you play ENGLAND")).to_be_visible()
    count_swaps(page)
    quiet(page)
    fleet = next(u for u in choices(page)["units"] if u["unit"] == "F NTH")
    click_unit(page, "NTH")
    page.get_by_role("button", name="Convoy").click()
    assert lit(page) == sorted({army for army, _to, _text in fleet["convoys"]}) == ["YOR"]
    click_province(page, "YOR")
    assert "NWY" in lit(page)
    click_province(page, "NWY")
    expect(page.locator("#lines")).to_have_value("F NTH C A YOR - NWY")
    # The army's own move by convoy is offered to it too.
    click_unit(page, "YOR")
    click_province(page, "NWY")
    expect(page.locator("#lines")).to_have_value(re.compile(r"^F NTH C A YOR - NWY\nA YOR - NWY( VIA)?$"))
    page.get_by_role("button", name="File orders").click()
    expect(page.locator("#verdicts li.ok")).to_have_count(2)


@pytest.mark.parametrize("preset", ["fog-1898", "diplomyopia", "standard"])
def test_each_presets_first_turn_by_clicking_is_accepted_whole(page: Page, server: ServerProcess, preset: str) -> None:
    start_against_bots(page, server, preset)
    given = choices(page)
    if given["phase"] == "S":  # the 1898 start: the one centre's unit, army or fleet
        (centre, options), *_ = given["setup"].items()
        expect(page.locator("#ordered-count")).to_have_text("0 of 1 centres chosen")
        click_province(page, centre)
        if len(options) > 1:
            page.locator("#pick-targets").get_by_role("button", name=options[-1], exact=True).click()
        expect(page.locator("#lines")).to_have_value(options[-1])
        ready(page, given["turn"])
        given = choices(page)
    for unit in given["units"]:
        order_by_clicks(page, unit, lambda lit: lit[0])
    lines = page.locator("#lines").input_value().splitlines()
    assert len(lines) == len(given["units"])
    page.get_by_role("button", name="File orders").click()
    expect(page.locator("#verdicts li.ok")).to_have_count(len(lines))
    expect(page.locator("#verdicts li.refused")).to_have_count(0)
