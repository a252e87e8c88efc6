"""The game master's console, observers and the end of a game in a real browser (Debian's
Chromium, a browser context per person) against a real ``fogdip serve``: a game made with the
new-game form, a player joining by the invitation link, seats swapped in a gunboat game, the
bot seated, the start, the deadline extended, the game paused and resumed, a turn played now
(each shown live on the player's page), every power's filed orders, "see as" giving exactly
the player's own map and report, the game exported and imported again; observers shown only
what the game's ``observers`` setting allows; draw votes to the end of a game, and the whole
game revealed."""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, expect
from test_web_browser import browser  # noqa: F401  (the fixture: one Chromium for the module)
from web_players import live, new_account, no_serious_axe_violation, person, web_client

from fogdip.bots.base import THINKING_SECONDS
from fogdip.game.service import Game

from servers import ServerProcess

#: The site's behaviour is the table's, the same on both databases.
DATABASES = ("sqlite",)

LIVE_MS = 1000

_SVG = re.compile(r'<figure class="map".*?</figure>', re.S)
_REPORT = re.compile(r'<pre class="report"[^>]*>.*?</pre>', re.S)


def _row(page: Page, power: str) -> object:
    return page.locator(f"#console tr[data-power='{power}']")


def _hold(power: str) -> str:
    """A hold order for one of ``power``'s units at the start (the units every power knows)."""
    report = Game.create("fog-of-war").latest_report(power)
    unit = next(unit for unit in report.units if unit.owner == power)
    return f"{unit} H"


def test_the_game_master_runs_a_gunboat_game_from_the_console(
    browser: Browser,  # noqa: F811
    server: ServerProcess,
    tmp_path: Path,
) -> None:
    with person(browser, server, "gm") as gm, person(browser, server, "gina") as gina:
        g = gm.page
        # The new-game form: variant, press, observers, deadline.
        g.locator("#new-preset").select_option("fog-of-war")
        g.locator("#new-name").fill("Console test")
        g.locator("#new-press").select_option("gunboat")
        g.locator("#new-observers").select_option("board")
        g.locator("#new-deadline").select_option("24")
        g.get_by_role("button", name="Create, as its game master").click()
        console = g.locator("#console")
        expect(console).to_contain_text("Game master's console")
        expect(console).to_contain_text("press gunboat")
        expect(console).to_contain_text("observers: board")
        game_id = g.url.rsplit("/", 1)[-1]
        invite = g.locator("#invite-link").input_value()
        assert invite.startswith(f"{server.url}/games/{game_id}/invite/")
        g.get_by_role("button", name="Copy").click()
        expect(console.locator(".copied")).to_have_text("Copied.")

        # The player opens the invitation and joins: in gunboat, a power at random.
        p = gina.page
        p.goto(invite)
        expect(p.get_by_text("nobody chooses a power")).to_be_visible()
        no_serious_axe_violation(p)
        p.get_by_role("button", name="Join the game").click()
        expect(p).to_have_url(f"{server.url}/games/{game_id}")
        drawn = gina.api.game(game_id).power
        assert drawn is not None
        g.reload()
        expect(_row(g, drawn)).to_contain_text(gina.name)

        # Swapped onto the power the game master draws for her.
        wanted = "ENGLAND" if drawn != "ENGLAND" else "FRANCE"
        g.locator("#swap-first").select_option(drawn)
        g.locator("#swap-second").select_option(wanted)
        g.get_by_role("button", name="Swap").click()
        expect(_row(g, wanted)).to_contain_text(gina.name)
        expect(_row(g, drawn)).to_contain_text("free")
        assert gina.api.game(game_id).power == wanted

        g.get_by_role("button", name="Seat the bot on every free seat").click()
        expect(_row(g, drawn)).to_contain_text("the bot")
        g.get_by_role("button", name="Start the game").click()
        expect(console).to_contain_text("active")
        no_serious_axe_violation(g)

        p.goto(f"{server.url}/games/{game_id}")
        live(p)
        head = p.locator("#game-head, #board .game-head").first
        expect(head).to_contain_text(f"you play {wanted}")
        before = p.locator("time#deadline").get_attribute("datetime")

        # Extend, pause, resume: the player's page shows each within a second.
        g.locator("#extend-hours").fill("2")
        g.get_by_role("button", name="Extend").click()
        expect(p.locator("time#deadline")).not_to_have_attribute("datetime", before or "", timeout=LIVE_MS)
        g.get_by_role("button", name="Pause").click()
        expect(head).to_contain_text("paused", timeout=LIVE_MS)
        resumed = time.monotonic()
        g.get_by_role("button", name="Resume").click()
        expect(head).to_contain_text("active", timeout=LIVE_MS)

        # Every power's filed orders for the turn.
        order = _hold(wanted)
        gina.api.file_orders(game_id, [order])
        g.reload()
        expect(_row(g, wanted)).to_contain_text(order)
        # The bot files for its seats off every request, at the moment the table sets: in
        # gunboat, where its seats are hidden, what the slowest bot would take on all seven
        # (10.5 s; docs/server.md), so a player's page cannot tell the bot's seats by when
        # they file. Waited for until well past it, counted from the resume.
        hidden_moment = 7 * max(THINKING_SECONDS.values())
        while "bot, filed" not in _row(g, drawn).inner_text() and time.monotonic() - resumed < hidden_moment + 10:
            g.wait_for_timeout(500)
            g.reload()
        expect(_row(g, drawn)).to_contain_text("bot, filed")

        # "See as": exactly the player's own map and report, and no form.
        _row(g, wanted).get_by_role("link", name=f"See as {wanted}").click()
        expect(g.locator(".seen-as-banner")).to_contain_text(f"Seen as {wanted}")
        expect(g.locator("#board figure.map > svg")).to_be_visible()
        assert g.locator("#board form, #board textarea").count() == 0
        no_serious_axe_violation(g)
        theirs, _ = web_client(server, gina.name)
        mine, _ = web_client(server, gm.name)
        own = theirs.get(f"/games/{game_id}/board").text
        seen = mine.get(f"/games/{game_id}/as/{wanted}").text
        assert _SVG.findall(seen) == _SVG.findall(own) != []
        assert _REPORT.findall(seen) == _REPORT.findall(own) != []
        theirs.close()
        mine.close()

        # Adjudicate now: the player's board shows the next phase without a reload.
        g.goto(f"{server.url}/games/{game_id}")
        g.get_by_role("button", name="Adjudicate S1901M now").click()
        expect(p.locator("#board")).not_to_have_attribute("data-turn", "S1901M", timeout=LIVE_MS + 1000)
        turn = gm.api.game(game_id).turn
        expect(p.locator("#board")).to_have_attribute("data-turn", turn)

        # Export, then import: a new game the game master runs, at the same turn.
        with g.expect_download() as download:
            g.get_by_role("link", name="as a fogdip game file").click()
        saved = tmp_path / "game.json"
        download.value.save_as(saved)
        g.locator("#import-file").set_input_files(str(saved))
        g.locator("#import-name").fill("Imported again")
        g.get_by_role("button", name="Import", exact=True).click()
        expect(g).not_to_have_url(f"{server.url}/games/{game_id}")
        expect(g.locator("#console")).to_contain_text("Game master's console")
        expect(g.locator("h1").first).to_have_text("Imported again")
        expect(g.locator("#board")).to_have_attribute("data-turn", turn)


def test_observers_see_only_what_the_game_lets_them(browser: Browser, server: ServerProcess) -> None:  # noqa: F811
    with (
        person(browser, server, "gm") as gm,
        person(browser, server, "hal") as hal,
        person(browser, server, "ivy") as ivy,
    ):
        games = {}
        for observers in ("press", "board", "none"):
            made = gm.api.create_game("fog-of-war", observers=observers)
            hal.api.join(made.id, "FRANCE", invite=made.invite)
            gm.api.seat_bots(made.id)
            gm.api.start(made.id)
            hal.api.file_orders(made.id, ["A PAR - BUR"])
            hal.api.send_message(made.id, "all", "France greets the world")
            hal.api.send_message(made.id, ["ENGLAND"], "A secret for England")
            games[observers] = made
        o = ivy.page
        for observers in ("press", "board"):
            made = games[observers]
            o.goto(f"{server.url}/games/{made.id}/invite/{made.invite}")
            o.get_by_role("button", name="Watch instead").click()
            expect(o).to_have_url(f"{server.url}/games/{made.id}")
            live(o)
            expect(o.locator("#press")).to_contain_text("France greets the world")
            html = o.content()
            assert "A secret for England" not in html
            assert "PAR - BUR" not in html  # what is filed is never an observer's
            assert o.locator("#press-compose, #lines, #console, form.orders").count() == 0
            no_serious_axe_violation(o)
            if observers == "press":
                expect(o.locator("figure.map")).to_have_count(0)
                expect(o.locator("#board")).to_contain_text("observers of this game see its page and public press")
            else:
                expect(o.locator("figure.map > svg")).to_be_visible()
        made = games["none"]
        o.goto(f"{server.url}/games/{made.id}/invite/{made.invite}")
        expect(o.get_by_text("Every seat is taken.")).to_be_visible()
        expect(o.get_by_role("button", name="Watch instead")).to_have_count(0)


def _vote(page: Page) -> None:
    page.get_by_role("button", name="Vote for a draw").click()
    expect(page.locator("#my-draw")).to_have_text("for a draw")


def test_draw_votes_end_the_game_and_reveal_it(browser: Browser, server: ServerProcess) -> None:  # noqa: F811
    with (
        person(browser, server, "gm") as gm,
        person(browser, server, "jo") as jo,
        person(browser, server, "kim") as kim,
    ):
        pages: dict[str, Page] = {}

        def start(preset: str) -> str:
            made = gm.api.create_game(preset)
            jo.api.join(made.id, "FRANCE", invite=made.invite)
            kim.api.join(made.id, "ENGLAND", invite=made.invite)
            gm.api.seat_bots(made.id)
            gm.api.start(made.id)
            for someone in (jo, kim):
                someone.page.goto(f"{server.url}/games/{made.id}")
                live(someone.page)
                pages[someone.name] = someone.page
            return made.id

        # Open votes (a game without fog): the other player sees a vote within a second.
        start("standard")
        j, k = pages[jo.name], pages[kim.name]
        _vote(j)
        expect(k.locator("#draw-votes")).to_contain_text("FRANCE", timeout=LIVE_MS)
        j.get_by_role("button", name="Withdraw my draw vote").click()
        expect(j.locator("#my-draw")).to_have_text("none")
        expect(k.locator("#draw-votes")).not_to_contain_text("FRANCE", timeout=LIVE_MS)

        # Secret votes under fog; the game ends when both vote, and reveals everything.
        game_id = start("fog-of-war")
        gm.api.adjudicate(game_id)
        j, k = pages[jo.name], pages[kim.name]
        expect(j.locator("#board")).not_to_have_attribute("data-turn", "S1901M", timeout=LIVE_MS)
        # Before the end, nobody but the game master has the whole game.
        client, _ = web_client(server, jo.name)
        early = client.get(f"/games/{game_id}/revealed")
        assert early.status_code == 403 and "until it is over" in early.text
        _vote(j)
        expect(k.locator("#draw-votes")).to_contain_text("secret")
        expect(k.locator("#seats")).not_to_contain_text("FRANCE · votes")
        _vote_ends(k, j)
        # The whole game as the game master saw it: every phase's map, every power's orders.
        j.get_by_role("link", name="the whole game as the game master saw it").click()
        expect(j.locator("figure.map > svg")).to_be_visible()
        expect(j.locator("nav.history")).to_contain_text("S1901M")
        orders = j.locator("table.revealed-orders")
        for power in ("AUSTRIA", "GERMANY", "TURKEY"):
            expect(orders).to_contain_text(power)
        no_serious_axe_violation(j)
        assert client.get(f"/games/{game_id}/revealed").status_code == 200
        client.close()


def _vote_ends(last: Page, other: Page) -> None:
    last.get_by_role("button", name="Vote for a draw").click()
    for page in (last, other):
        ending = page.locator("#ending")
        expect(ending).to_be_visible(timeout=LIVE_MS + 1000)
        expect(ending).to_contain_text("A draw between")
        expect(page.locator("#game-head, #board .game-head").first).to_contain_text("finished")


def test_bad_answers_to_the_console_and_the_new_game_form_say_what_to_fix(server: ServerProcess) -> None:
    name, api = new_account(server, "lee")
    client, csrf = web_client(server, name)
    made = client.post("/new", data={"csrf_token": csrf, "preset": "fog-of-war", "deadline": "soon"})
    assert made.status_code == 400 and "a deadline is a number of hours per phase" in made.text
    made = client.post("/new", data={"csrf_token": csrf, "preset": "fog-of-war", "press": "loud"})
    assert made.status_code == 400 and "press is one of" in made.text
    made = client.post("/new", data={"csrf_token": csrf, "preset": "fog-of-war", "press": "grey", "deadline": "1"})
    game_id = str(made.url).rsplit("/", 1)[-1]
    assert api.game(game_id).press == "grey" and api.game(game_id).role == "master"
    client.post(f"/games/{game_id}/bots", data={"csrf_token": csrf})
    client.post(f"/games/{game_id}/start", data={"csrf_token": csrf})
    refused = client.post(f"/games/{game_id}/extend", data={"csrf_token": csrf, "hours": "later"})
    assert refused.status_code == 400 and "extend by more than 0 hours" in refused.text
    refused = client.post(f"/games/{game_id}/resume", data={"csrf_token": csrf})
    # (the same status as the API gives it: a conflict with the game as it stands)
    assert refused.status_code == 409 and "not paused" in refused.text
    # Without the form's CSRF token nothing is done.
    assert client.post(f"/games/{game_id}/pause", data={}).status_code in (403, 422)
    assert api.game(game_id).status == "active"
    # Someone else of this open game gets no console, and sees no power as its player does.
    other_name, _other = new_account(server, "mo")
    other, _ = web_client(server, other_name)
    assert other.get(f"/games/{game_id}/console").status_code == 404
    seen = other.get(f"/games/{game_id}/as/FRANCE")
    assert seen.status_code == 403 and "only the game master" in seen.text and "<svg" not in seen.text
    for each in (client, other, api, _other):
        each.close()
