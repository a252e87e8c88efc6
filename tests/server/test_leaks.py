"""What a player receives from the server depends only on what its power may know: two games
that differ in one hidden fact give its player byte-identical answers."""

from __future__ import annotations

import httpx

from fogdip.client import FogdipClient

from servers import ServerProcess

PASSWORD = "correct horse battery"


def account(server: ServerProcess, name: str) -> FogdipClient:
    client = FogdipClient(server.url)
    client.sign_up(name, PASSWORD)
    client.sign_in(name, PASSWORD)
    return client


def test_a_hidden_move_changes_nothing_a_player_receives(server: ServerProcess) -> None:
    """Germany's army in Munich holds in one game and goes to the Ruhr in the other, out of
    France's sight. France's view, map, game page and the verdicts on its orders, including a
    support of the unit it cannot see, are the same bytes in both."""
    master, france, germany = account(server, "master"), account(server, "france"), account(server, "germany")
    answers: list[list[bytes]] = []
    boards: list[object] = []
    for german_orders in (["A MUN H"], ["A MUN - RUH"]):
        game = master.create_game("fog-of-war", {"end_year": 1902})
        france.join(game.id, "FRANCE", invite=game.invite)
        germany.join(game.id, "GERMANY", invite=game.invite)
        master.start(game.id)
        france.file_orders(game.id, ["A PAR H", "A MAR H", "F BRE H"])
        germany.file_orders(game.id, german_orders)
        master.adjudicate(game.id)  # Spring 1901
        master.adjudicate(game.id)  # its retreat season
        raw = httpx.Client(
            base_url=server.url, cookies=france._http.cookies, headers={"X-CSRF-Token": france._csrf or ""}
        )
        seen = [
            raw.get(f"/api/v1/games/{game.id}/view").content,
            raw.get(f"/api/v1/games/{game.id}/map.svg").content,
            raw.put(f"/api/v1/games/{game.id}/orders", json={"lines": ["A PAR S A MUN - BUR", "A MAR - BUR"]}).content,
            raw.put(
                f"/api/v1/games/{game.id}/orders", json={"lines": ["A PAR S A MUN", "F BRE S A MUN - RUH"]}
            ).content,
        ]
        page = raw.get(f"/api/v1/games/{game.id}").json()
        page.pop("id")
        seen.append(repr(page).encode())
        answers.append(seen)
        boards.append(master.view(game.id)["position"]["units"]["GERMANY"])
    assert answers[0] == answers[1]
    # ... while the games do differ, as the game master sees
    assert "A MUN" in boards[0] and "A RUH" in boards[1]
