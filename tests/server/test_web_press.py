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

from hypothesis import given
from hypothesis import strategies as st
from playwright.sync_api import Browser, Page, expect
from test_web_browser import browser  # noqa: F401  (the fixture: one Chromium for the module)
from web_players import Person, live, new_account, no_serious_axe_violation, person, web_client

from fogdip.web.press_pages import Line, Thread, read_up_to, thread_key

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
        # A reply ticks the thread's correspondents (and only them).
        b.get_by_role("button", name="Reply to FRANCE").click()
        expect(b.locator("#press-to-FRANCE")).to_be_checked()
        expect(b.locator("#press-to-GERMANY")).not_to_be_checked()
        expect(b.locator("#press-body")).to_be_focused()
        _send(b, [], "Only if you keep out of Belgium.")
        _send(b, ["all"], "England wishes everyone well.")
        expect(a.locator("#press-total")).to_contain_text("2 unread", timeout=LIVE_MS)
        expect(a.locator("details.thread", has_text="To all")).to_contain_text("1 unread")
        expect(a.locator("details.thread", has_text="With ENGLAND")).to_contain_text("1 unread")
        # Reading one thread leaves the other's message unread.
        a.locator("details.thread", has_text="With ENGLAND").locator("summary").click()
        expect(a.locator("details.thread", has_text="With ENGLAND")).not_to_contain_text("unread")
        expect(a.locator("#press-total")).to_contain_text("1 unread")
        no_serious_axe_violation(a)
        a.get_by_role("button", name="Mark all read").click()
        expect(a.locator("#press-total")).to_have_text("Nothing unread.")
        assert alice.api.messages(game_id).unread == 0

        # Signed out meanwhile: the message is not sent, the page says why, and keeps it.
        alice.context.clear_cookies()
        a.locator("#press-to-ENGLAND").check()
        a.locator("#press-body").fill("Are you still there?")
        a.locator("#press").get_by_role("button", name="Send").click()
        expect(a.locator("#press-compose p.refused")).to_contain_text("sign in first")
        expect(a.locator("#press-body")).to_have_value("Are you still there?")
        assert all(m.body != "Are you still there?" for m in bob.api.messages(game_id).messages)


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
        no_serious_axe_violation(g)
        no_serious_axe_violation(d)


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


# --- the read mark, as a property --------------------------------------------------------------

_THREADS = st.lists(st.tuples(st.sampled_from(["all", "FRANCE", "ENGLAND", "~anonymous"]), st.booleans()), max_size=30)


@given(_THREADS, st.sampled_from(["all", "FRANCE", "ENGLAND", "~anonymous", None]), st.integers(0, 30))
def test_reading_a_thread_reads_it_and_no_other_unread_message(
    messages: list[tuple[str, bool]], key: str | None, read: int
) -> None:
    """Reading a thread moves the one read mark as far as it may: every message of the thread
    before another thread's first unread one is read, and no other thread's unread message
    is (the mark never goes back either: the table keeps the larger)."""
    threads: dict[str, Thread] = {}
    for index, (thread, yours) in enumerate(messages, 1):
        line = Line(index, "S1901M", "x", "all", "hi", yours, index > read and not yours)
        threads.setdefault(thread, Thread(thread, thread)).lines.append(line)
    listed = list(threads.values())
    up_to = read_up_to(listed, key)
    everything = [line for each in listed for line in each.lines]
    if key is None:
        assert up_to == len(messages)
        return
    others_unread = [
        line.index for line in everything if line.new and threads.get(key) is not threads.get(_key(listed, line))
    ]
    assert all(index > up_to for index in others_unread)
    chosen = threads.get(key)
    if chosen is not None:
        first_other = min(others_unread, default=len(messages) + 1)
        assert all(line.index <= up_to for line in chosen.lines if line.index < first_other)


def _key(threads: list[Thread], line: Line) -> str:
    return next(thread.key for thread in threads if line in thread.lines)


def test_a_sender_is_never_shown_where_the_press_hides_it() -> None:
    """Grey press names nobody, and black press only the claim, to a recipient; the thread a
    message is in is named from what the recipient is shown only."""
    from fogdip.game.press import Message, shown
    from fogdip.game.seats import Member
    from fogdip.game.settings import PressMode, Role

    reader = Member(Role.PLAYER, "ENGLAND")
    message = Message("S1901M", "FRANCE", ("ENGLAND", "GERMANY"), "psst", claim="ITALY")
    for mode in (PressMode.GREY, PressMode.BLACK):
        item = shown(message, 1, reader, mode)
        key, title = thread_key(item, "ENGLAND")
        assert "FRANCE" not in key + title and "GERMANY" not in key + title


def _world(server: ServerProcess, press: str, sender: str, claim: str | None) -> tuple[str, str]:
    """A game where ``sender`` writes to ENGLAND under ``press``: ENGLAND's press, as its page
    loads it (with the game's id and the session's token taken out), and the game's id."""
    _gm, gm = new_account(server, "gm")
    made = gm.create_game("fog-of-war", press=press)
    name, england = new_account(server, "england")
    england.join(made.id, "ENGLAND", invite=made.invite)
    _name, writer = new_account(server, "writer")
    writer.join(made.id, sender, invite=made.invite)
    gm.seat_bots(made.id)
    gm.start(made.id)
    writer.send_message(made.id, ["ENGLAND"], "Someone wishes you well.", claim=claim)
    client, csrf = web_client(server, name)
    html = client.get(f"/games/{made.id}/press").text.replace(made.id, "GAME").replace(csrf, "TOKEN")
    for each in (client, gm, england, writer):
        each.close()
    return html, made.id


def test_who_really_wrote_a_grey_or_black_message_changes_nothing_its_reader_loads(server: ServerProcess) -> None:
    """Two worlds that differ only in which power sent a message (grey press; black press with
    the same claim): its recipient's press is the same, byte for byte."""
    for press, claim in (("grey", None), ("black", "ITALY")):
        one, _ = _world(server, press, "FRANCE", claim)
        other, _ = _world(server, press, "GERMANY", claim)
        assert "Someone wishes you well." in one
        assert one == other, press
