"""A form refused by the game's rules answers with a page that says why, never the API's bare
JSON: joining by an invitation when one already has a seat, or with a wrong code, and a
change without the session's CSRF token."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from web_worlds import Site, open_site


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    with ExitStack() as held:
        yield open_site(Path(tmp_path_factory.mktemp("forms")), held)


def test_joining_twice_by_the_invitation_says_why_on_a_page(site: Site) -> None:
    master, france = site.accounts["master"], site.accounts["france"]
    game = master.client.create_game("fog-of-war", name="invited", private=True)
    assert game.invite is not None
    france.client.join(game.id, "FRANCE", invite=game.invite)
    answer = france.browser.post(f"/games/{game.id}/invite/{game.invite}/join", data={"csrf_token": france.csrf})
    assert answer.status_code in (400, 409)
    assert answer.headers["content-type"].startswith("text/html")
    assert "Not done" in answer.text and "you already play a power in this game" in answer.text
    assert f'href="/games/{game.id}/invite/{game.invite}"' in answer.text


def test_a_wrong_invitation_is_no_such_game(site: Site) -> None:
    master, stranger = site.accounts["master"], site.accounts["stranger"]
    game = master.client.create_game("fog-of-war", name="hidden", private=True)
    answer = stranger.browser.post(f"/games/{game.id}/invite/not-the-code/join", data={"csrf_token": stranger.csrf})
    assert answer.status_code == 404
    assert answer.headers["content-type"].startswith("text/html")
    assert "No such game" in answer.text


def test_a_change_without_the_csrf_token_is_refused_on_a_page(site: Site) -> None:
    master, germany = site.accounts["master"], site.accounts["germany"]
    game = master.client.create_game("fog-of-war", name="csrf", private=False)
    answer = germany.browser.post(f"/games/{game.id}/join", data={"csrf_token": "forged"})
    assert answer.status_code == 400
    assert answer.headers["content-type"].startswith("text/html")
    assert "this page is from an earlier session: reload it and try again" in answer.text
    assert germany.client.game(game.id).power is None, "nothing was done"


def test_the_console_seats_the_bot_it_names_and_refuses_one_it_does_not_know(site: Site) -> None:
    master = site.accounts["master"]
    game = master.client.create_game("fog-of-war", name="bots by name", private=True)
    seated = master.browser.post(
        f"/games/{game.id}/bots", data={"csrf_token": master.csrf, "power": "ITALY", "bot": "search"}
    )
    assert seated.status_code < 400
    master.browser.post(f"/games/{game.id}/bots", data={"csrf_token": master.csrf})  # the rest: the default
    names = {seat.power: seat.bot_name for seat in master.client.game(game.id).seats}
    assert names["ITALY"] == "search" and {names[p] for p in names if p != "ITALY"} == {"heuristic"}
    console = master.browser.get(f"/games/{game.id}/console")
    assert "the bot (search)" in console.text and "the bot (heuristic)" in console.text
    refused = master.browser.post(
        f"/games/{game.id}/bots", data={"csrf_token": master.csrf, "power": "ITALY", "bot": "dumbbot"}
    )
    assert refused.status_code == 400 and "no bot named" in refused.text and "heuristic" in refused.text
