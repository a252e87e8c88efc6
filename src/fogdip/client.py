"""A small typed client for a fogdip server, for bots, scripts and tests (httpx).

>>> client = FogdipClient("http://127.0.0.1:8500", token="...")
>>> client.base_url
'http://127.0.0.1:8500'

A player's whole turn::

    client = FogdipClient(url)
    client.sign_in("alice", "correct horse battery")
    view = client.view(game_id)                     # only what Alice's power may know
    client.file_orders(game_id, ["A PAR - BUR"])    # every line's verdict; raises if one fails
"""

from __future__ import annotations

import time
from types import TracebackType
from typing import Any

import httpx

from fogdip.codec.api import (
    CSRF_HEADER,
    AccountOut,
    GameOut,
    MessageOut,
    MessagesOut,
    OrdersOut,
    ReadyOut,
    SessionOut,
    TokenOut,
    TurnOut,
)


class ApiFailure(Exception):
    """The server answered with an error: its status, code and message. A refused filing's
    message goes on to name each refused line and why (its ``body`` holds every line's verdict),
    so that whoever runs a script sees what to fix:

    >>> body = {"lines": [{"number": 1, "text": "A PAR - BUR", "ok": True, "error": None},
    ...                   {"number": 2, "text": "A PAR - NTH", "ok": False, "error": "an army cannot move to North Sea, a sea"}]}
    >>> print(ApiFailure(422, "refused", "1 of 2 lines refused", body))
    422 refused: 1 of 2 lines refused; line 2 'A PAR - NTH': an army cannot move to North Sea, a sea
    """

    def __init__(self, status: int, code: str, message: str, body: Any = None) -> None:
        message += "".join(f"; {refusal}" for refusal in _refused_lines(body))
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.body = body


def _refused_lines(body: Any) -> list[str]:
    """Each refused line of a filing's answer, as ``line 2 'A PAR - NTH': why``."""
    lines = body.get("lines") if isinstance(body, dict) else None
    if not isinstance(lines, list):
        return []
    return [
        f"line {line.get('number')} {line.get('text')!r}: {line.get('error') or 'refused'}"
        for line in lines
        if isinstance(line, dict) and line.get("ok") is False
    ]


class FogdipClient:
    """One account's connection to one server: a personal API token, or a signed-in session
    (whose CSRF token it sends with every change)."""

    def __init__(self, base_url: str, token: str | None = None, *, timeout: float = 30.0) -> None:
        self.base_url = base_url.rstrip("/")
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        # Idle connections are kept a minute (the server keeps them longer): a player or a bot
        # that thinks between requests reuses its connection instead of opening another.
        limits = httpx.Limits(keepalive_expiry=60.0)
        self._http = httpx.Client(base_url=self.base_url, headers=headers, timeout=timeout, limits=limits)
        self._csrf: str | None = None

    def __enter__(self) -> FogdipClient:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def use_server(self, base_url: str) -> None:
        """Talk to another address of the same server (a restarted process, another of its
        processes), keeping the session or token."""
        self.base_url = base_url.rstrip("/")
        self._http.base_url = httpx.URL(self.base_url)

    # --- plumbing ------------------------------------------------------------------------

    def request(
        self, method: str, path: str, *, json: Any = None, params: dict[str, Any] | None = None
    ) -> httpx.Response:
        """Any request; raises :class:`ApiFailure` on an error answer."""
        headers = {CSRF_HEADER: self._csrf} if self._csrf and method not in ("GET", "HEAD") else {}
        response = self._http.request(method, path, json=json, params=params, headers=headers)
        if response.status_code >= 400:
            try:
                body = response.json()
                error = body["error"]
                raise ApiFailure(response.status_code, error["code"], error["message"], body)
            except (ValueError, KeyError, TypeError):
                raise ApiFailure(response.status_code, "http", response.text[:200]) from None
        return response

    def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        return self.request(method, path, **kwargs).json()

    # --- the server and accounts -------------------------------------------------------------

    def healthz(self) -> dict[str, str]:
        answer: dict[str, str] = self._json("GET", "/healthz")
        return answer

    def sign_up(self, name: str, password: str) -> AccountOut:
        return AccountOut.model_validate(
            self._json("POST", "/api/v1/accounts", json={"name": name, "password": password})
        )

    def sign_in(self, name: str, password: str) -> SessionOut:
        session = SessionOut.model_validate(
            self._json("POST", "/api/v1/session", json={"name": name, "password": password})
        )
        self._csrf = session.csrf_token
        return session

    def sign_out(self) -> None:
        self.request("DELETE", "/api/v1/session")
        self._csrf = None

    def me(self) -> AccountOut:
        return AccountOut.model_validate(self._json("GET", "/api/v1/me"))

    def make_token(self, label: str = "bot") -> str:
        """A new personal API token (the only time the server shows it)."""
        made = TokenOut.model_validate(self._json("POST", "/api/v1/tokens", json={"label": label}))
        assert made.token is not None
        return made.token

    def tokens(self) -> list[TokenOut]:
        return [TokenOut.model_validate(item) for item in self._json("GET", "/api/v1/tokens")]

    def revoke_token(self, token_id: int) -> None:
        self.request("DELETE", f"/api/v1/tokens/{token_id}")

    def reset_password(self, name: str, password: str) -> None:
        """Set another account's password (the server's admin only)."""
        self.request("POST", "/api/v1/admin/password", json={"name": name, "password": password})

    # --- games -----------------------------------------------------------------------------

    def create_game(
        self,
        preset: str,
        options: dict[str, Any] | None = None,
        *,
        name: str = "",
        private: bool = True,
        deadlines: dict[str, float] | None = None,
        press: str | None = None,
        press_range: str = "any",
        observers: str = "press",
        draw_votes: str | None = None,
        ready_counts: bool | None = None,
        accept_leaks: bool = False,
    ) -> GameOut:
        """A new game you master; ``deadlines`` in seconds per phase type (``movement``,
        ``retreats``, ``adjustments``); ``press`` its press mode (default: the variant's);
        the rest as :class:`fogdip.codec.api.GameIn` describes them."""
        body = {
            "preset": preset,
            "options": options or {},
            "name": name,
            "private": private,
            "deadlines": deadlines,
            "press": press,
            "press_range": press_range,
            "observers": observers,
            "draw_votes": draw_votes,
            "ready_counts": ready_counts,
            "accept_leaks": accept_leaks,
        }
        return GameOut.model_validate(self._json("POST", "/api/v1/games", json=body))

    def games(self) -> list[GameOut]:
        return [GameOut.model_validate(item) for item in self._json("GET", "/api/v1/games")]

    def game(self, game_id: str) -> GameOut:
        return GameOut.model_validate(self._json("GET", f"/api/v1/games/{game_id}"))

    def against_bots(
        self, preset: str, options: dict[str, Any] | None = None, power: str | None = None, bot: str | None = None
    ) -> GameOut:
        """A game against bots, started at once: you play ``power`` (or a random one), the bot
        named ``bot`` (the server's default: ``heuristic``) every other."""
        body: dict[str, Any] = {"preset": preset, "options": options or {}, "power": power}
        if bot is not None:
            body["bot"] = bot
        return GameOut.model_validate(self._json("POST", "/api/v1/games/against-bots", json=body))

    def ready(self, game_id: str, ready: bool = True, *, turn: str | None = None) -> ReadyOut:
        """Mark your orders for ``turn`` ready; the turn is adjudicated once every seat is.
        ``turn`` is the turn you read (:meth:`_turn`: the game's turn now, if not given)."""
        body = {"ready": ready, "turn": self._turn(game_id, turn)}
        return ReadyOut.model_validate(self._json("POST", f"/api/v1/games/{game_id}/ready", json=body))

    def wait_until_played(self, game_id: str, turn: str, *, timeout: float = 60.0, every: float = 0.1) -> GameOut:
        """The game once ``turn`` has been played (its turn is another, or it is over): after
        every seat is ready, the bot files for its seats within seconds and the turn is played
        then (:attr:`ReadyOut.adjudicated` is ``None`` meanwhile). A :class:`TimeoutError`
        after ``timeout`` seconds. A long-lived client listens to the game's stream instead."""
        give_up = time.monotonic() + timeout
        while True:
            game = self.game(game_id)
            if game.turn != turn.strip().upper() or game.status == "finished":
                return game
            if time.monotonic() > give_up:
                raise TimeoutError(f"{turn} of game {game_id} was not played within {timeout:g} seconds")
            time.sleep(every)

    def _turn(self, game_id: str, turn: str | None) -> str:
        """The turn a request is for: as given, or the game's turn as it is now (a script that
        read the board earlier should pass the turn it read, so that a turn played meanwhile
        is refused rather than its orders filed for the next)."""
        return turn if turn is not None else self.game(game_id).turn

    def join(self, game_id: str, power: str | None = None, invite: str | None = None) -> GameOut:
        body = {"power": power, "invite": invite}
        return GameOut.model_validate(self._json("POST", f"/api/v1/games/{game_id}/join", json=body))

    def observe(self, game_id: str, invite: str | None = None) -> GameOut:
        """Watch a game (a private one with its invitation), as its settings let observers."""
        return GameOut.model_validate(self._json("POST", f"/api/v1/games/{game_id}/observe", json={"invite": invite}))

    def vote_draw(self, game_id: str, vote: bool = True) -> GameOut:
        """Vote for a draw among the powers still in the game, or take the vote back."""
        return GameOut.model_validate(self._json("POST", f"/api/v1/games/{game_id}/draw", json={"vote": vote}))

    def seat_bots(self, game_id: str, powers: list[str] | None = None, bot: str | None = None) -> GameOut:
        """Seat the bot named ``bot`` (the server's default: ``heuristic``) on ``powers`` (none:
        every free seat)."""
        body: dict[str, Any] = {"powers": powers}
        if bot is not None:
            body["bot"] = bot
        return GameOut.model_validate(self._json("POST", f"/api/v1/games/{game_id}/bots", json=body))

    def swap_seats(self, game_id: str, first: str, second: str) -> GameOut:
        """Swap two seats' players (or the bot) before the start (game master)."""
        body = {"powers": [first, second]}
        return GameOut.model_validate(self._json("POST", f"/api/v1/games/{game_id}/swap", json=body))

    def start(self, game_id: str) -> GameOut:
        return GameOut.model_validate(self._json("POST", f"/api/v1/games/{game_id}/start"))

    def pause(self, game_id: str) -> GameOut:
        return GameOut.model_validate(self._json("POST", f"/api/v1/games/{game_id}/pause"))

    def resume(self, game_id: str) -> GameOut:
        return GameOut.model_validate(self._json("POST", f"/api/v1/games/{game_id}/resume"))

    def extend(self, game_id: str, seconds: float) -> GameOut:
        return GameOut.model_validate(self._json("POST", f"/api/v1/games/{game_id}/extend", json={"seconds": seconds}))

    def import_game(self, game_file: dict[str, Any], *, name: str = "", private: bool = True) -> GameOut:
        """Bring a 'fogdip gm' game file into the server; you are its game master."""
        body = {"game": game_file, "name": name, "private": private}
        return GameOut.model_validate(self._json("POST", "/api/v1/games/import", json=body))

    def export_game(self, game_id: str, format: str = "fogdip") -> dict[str, Any]:
        """The whole game as a game file (``fogdip``) or MILA's saved game (``mila``)."""
        answer: dict[str, Any] = self._json("GET", f"/api/v1/games/{game_id}/export", params={"format": format})
        return answer

    def view(self, game_id: str) -> dict[str, Any]:
        """A player's view (reports, knowledge, filed lines), or the game master's board."""
        answer: dict[str, Any] = self._json("GET", f"/api/v1/games/{game_id}/view")
        return answer

    def map_svg(self, game_id: str, phase: str | None = None, *, crop: bool = False) -> str:
        params: dict[str, Any] = {"crop": crop}
        if phase is not None:
            params["phase"] = phase
        return self.request("GET", f"/api/v1/games/{game_id}/map.svg", params=params).text

    def send_message(self, game_id: str, to: list[str] | str, body: str, *, claim: str | None = None) -> MessageOut:
        """Send a message to powers (or ``"all"``); ``claim``: black press's claimed sender."""
        payload = {"to": to, "body": body, "claim": claim}
        return MessageOut.model_validate(self._json("POST", f"/api/v1/games/{game_id}/messages", json=payload))

    def messages(self, game_id: str, since: int = 0) -> MessagesOut:
        return MessagesOut.model_validate(
            self._json("GET", f"/api/v1/games/{game_id}/messages", params={"since": since})
        )

    def mark_read(self, game_id: str, up_to: int) -> MessagesOut:
        return MessagesOut.model_validate(
            self._json("POST", f"/api/v1/games/{game_id}/messages/read", json={"up_to": up_to})
        )

    def file_orders(self, game_id: str, lines: list[str], *, turn: str | None = None) -> OrdersOut:
        """File the power's orders for ``turn`` (:meth:`_turn`), replacing earlier ones; raises
        :class:`ApiFailure` (422, with every line's verdict in ``body``) if a line is refused,
        and nothing is filed; 409 (``stale``) if the turn was played meanwhile."""
        body = {"lines": lines, "turn": self._turn(game_id, turn)}
        return OrdersOut.model_validate(self._json("PUT", f"/api/v1/games/{game_id}/orders", json=body))

    def adjudicate(self, game_id: str, *, turn: str | None = None) -> TurnOut:
        """Play ``turn`` now (:meth:`_turn`): the game master's."""
        body = {"turn": self._turn(game_id, turn)}
        return TurnOut.model_validate(self._json("POST", f"/api/v1/games/{game_id}/adjudicate", json=body))
