"""Press and the live page in a real browser (Debian's Chromium, two browser contexts: two
people) against a real ``fogdip serve``: one player files and marks ready and the other's page
shows the ready count within a second; they write to each other under white, grey and black
press, each message and unread count showing live without touching what the other is
writing; a thread opened is read; adjacency-limited press offers only the powers the table
allows; gunboat has no press box; a dropped connection (the server restarted) reconnects and
catches up."""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Browser, Page, expect
from test_web_browser import browser  # noqa: F401  (the fixture: one Chromium for the module)
from web_players import Person, live, new_account, person, web_client

from servers import ServerProcess, start_server

#: The site's behaviour is the table's, the same on both databases.
DATABASES = ("sqlite",)

#: What "within a second" allows for the page, after the change is acknowledged.
LIVE_MS = 1000


def _game(gm: Person, players: dict[str, Person], *, preset: str = "standard", **settings: object) -> str:
    """A game the game master makes and starts, with ``players`` on their powers and the bot on
    every other seat."""
    made = gm.api.create_game(preset, name=f"{preset} {settings.get('press', '')}", **settings)  # type: ignore[arg-type]
    for power, someone in players.items():
        someone.api.join(made.id, power, invite=made.invite)
    gm.api.seat_bots(made.id)
    gm.api.start(made.id)
    return made.id


def _open(someone: Person, server: ServerProcess, game_id: str) -> Page:
    someone.page.goto(f"{server.url}/games/{game_id}")
    live(someone.page)
    return someone.page


def _send(page: Page, to: list[str], body: str, claim: str | None = None) -> None:
    press = page.locator("#press")
    for power in to:
        press.locator(f"#press-to-{power}").check()
    if claim is not None:
        press.locator("#press-claim").select_option(claim)
    press.locator("#press-body").fill(body)
    press.get_by_role("button", name="Send").click()
    expect(press.locator("#press-compose .note")).to_have_text("Sent.")


def test_white_press_and_the_ready_count_show_live(browser: Browser, server: ServerProcess) -> None:  # noqa: F811
    with (
        person(browser, server, "gm") as gm,
        person(browser, server, "alice") as alice,
        person(browser, server, "bob") as bob,
    ):
        game_id = _game(gm, {"FRANCE": alice, "ENGLAND": bob})
        a, b = _open(alice, server, game_id), _open(bob, server, game_id)
        head = b.locator("#game-head, #board .game-head").first
        expect(head).to_contain_text("5 of 7 ready")  # the bot's seats are ready at once
        # Bob is writing when things happen: nothing he writes, ticks or opens is lost.
        b.locator("#press-to-GERMANY").check()
        b.locator("#press-body").fill("Half a thought")
        b.locator("#press-body").focus()

        # Alice files and marks ready: Bob's page counts it within a second.
        a.locator("#lines").fill("A PAR H")
        a.get_by_role("button", name="File orders").click()
        expect(a.locator("#verdicts")).to_contain_text("Filed for S1901M")
        a.get_by_role("button", name="Ready").click()
        expect(a.locator("#ready-note")).to_contain_text("Ready for S1901M")
        expect(head).to_contain_text("6 of 7 ready", timeout=LIVE_MS)

        # Alice writes to Bob: his page shows it, and its unread count, within a second.
        _send(a, ["ENGLAND"], "Shall we split the Channel?")
        threads = b.locator("#press-threads")
        expect(threads).to_contain_text("1 unread", timeout=LIVE_MS)
        thread = b.locator("details.thread", has_text="With FRANCE")
        expect(thread.locator("summary")).to_contain_text("1 unread")
        expect(b.locator("#press-body")).to_have_value("Half a thought")
        expect(b.locator("#press-to-GERMANY")).to_be_checked()
        # Signed press: the sender is named.
        thread.locator("summary").click()
        expect(thread.locator("li.message")).to_contain_text("FRANCE")
        expect(thread.locator("li.message")).to_contain_text("Shall we split the Channel?")
        # Opening the thread read it (the API's read mark agrees).
        expect(b.locator("#press-total")).to_have_text("Nothing unread.")
        assert bob.api.messages(game_id).unread == 0
        expect(b.locator("details.thread", has_text="With FRANCE")).to_have_attribute("open", "")

        # Bob answers, to Alice and to all; her page shows both, unread, in their threads.
        b.locator("#press-body").fill("")
        b.locator("#press-to-GERMANY").uncheck()
        _send(b, ["FRANCE"], "Only if you keep out of Belgium.")
        _send(b, ["all"], "England wishes everyone well.")
        expect(a.locator("#press-total")).to_contain_text("2 unread", timeout=LIVE_MS)
        expect(a.locator("details.thread", has_text="To all")).to_contain_text("1 unread")
        expect(a.locator("details.thread", has_text="With ENGLAND")).to_contain_text("1 unread")
        # Reading one thread leaves the other's message unread.
        a.locator("details.thread", has_text="With ENGLAND").locator("summary").click()
        expect(a.locator("details.thread", has_text="With ENGLAND")).not_to_contain_text("unread")
        expect(a.locator("#press-total")).to_contain_text("1 unread")


def test_grey_press_is_anonymous_and_black_press_carries_its_claim(browser: Browser, server: ServerProcess) -> None:  # noqa: F811
    with (
        person(browser, server, "gm") as gm,
        person(browser, server, "carol") as carol,
        person(browser, server, "dave") as dave,
    ):
        grey = _game(gm, {"FRANCE": carol, "ENGLAND": dave}, press="grey")
        c, d = _open(carol, server, grey), _open(dave, server, grey)
        expect(c.locator("#press")).to_contain_text("Grey press")
        _send(c, ["ENGLAND"], "Someone is watching you.")
        thread = d.locator("details.thread", has_text="Anonymous, to you")
        expect(thread).to_contain_text("1 unread", timeout=LIVE_MS)
        thread.locator("summary").click()
        expect(thread.locator("li.message .from")).to_have_text("anonymous")
        assert "FRANCE" not in d.locator("#press-threads").inner_html()
        # The game master knows who wrote it.
        g = _open(gm, server, grey)
        expect(g.locator("#press")).to_contain_text("FRANCE")

        black = _game(gm, {"FRANCE": carol, "ENGLAND": dave}, preset="fog-of-war", press="black")
        c, d = _open(carol, server, black), _open(dave, server, black)
        _send(c, ["ENGLAND"], "Germany here: trust France.", claim="GERMANY")
        message = d.locator("li.message", has_text="trust France")
        expect(message).to_be_attached(timeout=LIVE_MS)
        expect(message.locator(".from")).to_have_text("claims to be GERMANY (the claim may be false)")
        assert "FRANCE" not in d.locator("#press-threads").inner_html().replace("trust France", "")
        # The writer is reminded of its claim; the game master sees the true sender.
        expect(c.locator("li.message", has_text="trust France").locator(".from")).to_contain_text(
            "claiming to be GERMANY"
        )
        g = _open(gm, server, black)
        expect(g.locator("li.message", has_text="trust France").locator(".from")).to_have_text(
            "FRANCE (claiming to be GERMANY)"
        )


def test_adjacent_and_gunboat_press_offer_only_what_the_table_allows(server: ServerProcess) -> None:

    _gm_name, gm = new_account(server, "gm")
    name, player = new_account(server, "erin")
    near = gm.create_game("standard", press="white", press_range="adjacent")
    player.join(near.id, "FRANCE", invite=near.invite)
    gm.seat_bots(near.id)
    gm.start(near.id)
    browser_like, csrf = web_client(server, name)
    press = browser_like.get(f"/games/{near.id}/press").text
    # At the start no other power's unit is next to France's: nobody is offered, not even all.
    assert 'name="to"' not in press
    assert "nobody to write to" in press
    refused = browser_like.post(
        f"/games/{near.id}/messages",
        data={"csrf_token": csrf, "to": "ENGLAND", "body": "hello"},
        headers={"HX-Request": "true"},
    )
    assert "press is limited to powers whose units you see next to yours" in refused.text
    assert player.messages(near.id).messages == []

    boats = gm.create_game("fog-of-war", press="gunboat")
    player.join(boats.id, invite=boats.invite)
    page = browser_like.get(f"/games/{boats.id}").text
    assert 'id="press"' not in page and "press-compose" not in page
    for client in (gm, player, browser_like):
        client.close()


def test_a_dropped_connection_reconnects_and_catches_up(browser: Browser, tmp_path: Path) -> None:  # noqa: F811
    from servers import free_port

    port = free_port()
    server = start_server(tmp_path / "data", port=port)
    try:
        with person(browser, server, "gm") as gm, person(browser, server, "frank") as frank:
            game_id = _game(gm, {"FRANCE": frank}, deadlines={"movement": 86400})
            page = _open(frank, server, game_id)
            page.locator("#press-body").fill("still here after the restart")
            server.kill()
            expect(page.locator("body")).to_have_attribute("data-live", "closed", timeout=10_000)
            server = start_server(tmp_path / "data", port=port)
            # A phase played while the page was not listening: it shows once it listens again.
            gm.api.adjudicate(game_id)
            started = time.monotonic()
            expect(page.locator("#board")).to_have_attribute("data-turn", "F1901M", timeout=20_000)
            live(page)
            assert time.monotonic() - started < 20
            # And it listens: the next change shows within a second.
            gm.api.pause(game_id)
            expect(page.locator("#game-head, #board .game-head").first).to_contain_text("paused", timeout=LIVE_MS)
            expect(page.locator("#press-body")).to_have_value("still here after the restart")
    finally:
        server.stop()
