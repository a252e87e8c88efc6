"""Rate limits: a client that asks too often is told to slow down, and others are not."""

from __future__ import annotations

import json
import re
import time
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from fogdip.client import ApiFailure, FogdipClient
from fogdip.server.config import SettingError, Settings

from servers import ServerProcess, start_server

PASSWORD = "correct horse battery"


def test_too_many_requests_get_429_with_when_to_try_again(tmp_path: Path) -> None:
    server = start_server(tmp_path / "data", env={"FOGDIP_RATE": "15"})
    try:
        alice, bob = FogdipClient(server.url), FogdipClient(server.url)
        alice.sign_up("alice", PASSWORD)
        token = FogdipClient(server.url, token=None)
        token.sign_in("alice", PASSWORD)
        alice_bot = FogdipClient(server.url, token=token.make_token("bot"))
        failures = []
        for _ in range(20):
            try:
                alice_bot.me()
            except ApiFailure as exc:
                failures.append(exc)
        assert failures and all(f.status == 429 and f.code == "slow-down" for f in failures)
        assert "at most 15 a minute" in failures[0].message
        answer = httpx.get(server.url + "/api/v1/me", headers={"Authorization": "Bearer " + "x" * 40})
        assert answer.status_code == 401  # another client is still answered
        bob.sign_up("bob", PASSWORD)
        bob.sign_in("bob", PASSWORD)
        assert bob.me().name == "bob"
        # Still limited after others were answered. The windows are whole minutes of the clock,
        # so one may have begun meanwhile: then 15 more pass, and the 16th is refused.
        with httpx.Client(headers={"Authorization": alice_bot._http.headers["Authorization"]}) as again:
            statuses = []
            for _ in range(16):
                limited = again.get(server.url + "/api/v1/me")
                statuses.append(limited.status_code)
                if limited.status_code == 429:
                    break
        assert statuses[-1] == 429 and int(limited.headers["Retry-After"]) >= 1, statuses
        assert statuses.count(200) in (0, 15), statuses  # none, or a new minute's 15
    finally:
        server.stop()


# --- the client's address behind a reverse proxy ---------------------------------------------


def test_trusted_proxies_are_addresses_or_networks(tmp_path: Path) -> None:
    env = {"FOGDIP_DATA": str(tmp_path), "FOGDIP_TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8,::1"}
    assert Settings.from_env(env).trusted_proxies == ("127.0.0.1", "10.0.0.0/8", "::1")
    assert Settings.from_env({"FOGDIP_DATA": str(tmp_path)}).trusted_proxies == ()  # none by default
    for wrong in ("*", "proxy.example", "10.0.0.300"):
        with pytest.raises(SettingError, match=f"not '{re.escape(wrong)}'"):
            Settings.from_env({**env, "FOGDIP_TRUSTED_PROXIES": wrong})


def _statuses(server: ServerProcess, count: int, headers: dict[str, str]) -> list[int]:
    with httpx.Client(base_url=server.url) as http:
        return [http.get("/healthz", headers=headers).status_code for _ in range(count)]


def test_invented_forwarded_addresses_do_not_escape_the_address_limit(tmp_path: Path) -> None:
    # No proxy is trusted (the default): X-Forwarded-For is anyone's invention, and ignored.
    server = start_server(tmp_path / "data", env={"FOGDIP_RATE": "5"})
    try:
        with httpx.Client(base_url=server.url) as http:
            statuses = [
                http.get("/healthz", headers={"X-Forwarded-For": f"203.0.113.{i}"}).status_code for i in range(30)
            ]
        # 5 a minute from the one real address, in one-minute windows: at most 10 of 30 pass
        # even if the run straddles two windows
        assert statuses.count(429) >= 20
    finally:
        server.stop()


def test_behind_a_trusted_proxy_each_forwarded_address_is_limited_on_its_own(tmp_path: Path) -> None:
    server = start_server(tmp_path / "data", env={"FOGDIP_RATE": "5"}, args=["--trusted-proxy", "127.0.0.1"])
    try:
        alice = {"X-Forwarded-For": "198.51.100.7"}
        bob = FogdipClient(server.url)
        bob._http.headers["X-Forwarded-For"] = "198.51.100.8"
        bob.sign_up("bob", PASSWORD)
        bob.sign_in("bob", PASSWORD)
        bob_bot = FogdipClient(server.url, token=bob.make_token("bot"))
        bob_bot._http.headers["X-Forwarded-For"] = "198.51.100.8"
        # Alice's address floods with junk credentials, past its own limit (four clients' worth).
        with httpx.Client(base_url=server.url) as http:
            junk = [
                http.get("/api/v1/me", headers={**alice, "Authorization": f"Bearer junk{i}"}).status_code
                for i in range(50)
            ]
        assert junk.count(429) >= 10 and junk[-1] == 429
        # Bob, behind the same proxy, is not held back by it.
        assert [bob_bot.me().name for _ in range(4)] == ["bob"] * 4
        # The proxy's own requests (no header) count as its own address, apart from both.
        assert _statuses(server, 3, {}) == [200] * 3
    finally:
        server.stop()


# --- live streams ----------------------------------------------------------------------------


def _stream(server: ServerProcess, game_id: str, token: str, address: str | None = None) -> ClientConnection:
    headers = {"Authorization": f"Bearer {token}"}
    if address is not None:
        headers["X-Forwarded-For"] = address
    url = server.url.replace("http://", "ws://") + f"/api/v1/games/{game_id}/stream"
    return connect(url, additional_headers=headers, open_timeout=10)


def _hello_or_close(connection: ClientConnection) -> tuple[str, int | None, str]:
    """``("hello", None, "")`` if the stream opened, else ``("closed", code, reason)``."""
    try:
        message = json.loads(connection.recv(timeout=10))
    except ConnectionClosed as closed:
        assert closed.rcvd is not None
        return "closed", closed.rcvd.code, closed.rcvd.reason
    assert message["type"] == "hello"
    return "hello", None, ""


def _open(
    streams: ExitStack, server: ServerProcess, game_id: str, token: str, address: str | None = None
) -> ClientConnection:
    """A stream that opened (its hello came), held until ``streams`` closes."""
    connection = streams.enter_context(_stream(server, game_id, token, address))
    assert _hello_or_close(connection) == ("hello", None, "")
    return connection


def _refused(server: ServerProcess, game_id: str, token: str, address: str | None = None) -> tuple[int | None, str]:
    with _stream(server, game_id, token, address) as connection:
        kind, code, reason = _hello_or_close(connection)
    assert kind == "closed"
    return code, reason


def _game_with_two_players(server: ServerProcess) -> tuple[str, str, str]:
    """A game with Alice and Bob in it, and a token of each."""
    master = FogdipClient(server.url)
    master.sign_up("master", PASSWORD)
    master.sign_in("master", PASSWORD)
    game = master.create_game("fog-of-war")
    tokens = []
    for name, power in (("alice", "FRANCE"), ("bob", "ENGLAND")):
        player = FogdipClient(server.url)
        player.sign_up(name, PASSWORD)
        player.sign_in(name, PASSWORD)
        player.join(game.id, power, invite=game.invite)
        tokens.append(player.make_token("stream"))
    return game.id, tokens[0], tokens[1]


def test_open_streams_are_capped_per_account_and_per_address(tmp_path: Path) -> None:
    limits = {"FOGDIP_STREAMS_PER_ACCOUNT": "2", "FOGDIP_STREAMS_PER_ADDRESS": "3"}
    server = start_server(tmp_path / "data", env={**limits, "FOGDIP_TRUSTED_PROXIES": "127.0.0.1"})
    here, there = "198.51.100.7", "198.51.100.8"
    try:
        game_id, alice, bob = _game_with_two_players(server)
        with ExitStack() as streams:
            _open(streams, server, game_id, alice, here)
            second = _open(streams, server, game_id, alice, here)
            code, reason = _refused(server, game_id, alice, there)  # a third, from anywhere
            assert code == 4429 and "at most 2 streams open per account" in reason and "close one" in reason
            # Closing a stream frees its slot (the server hears of the close a moment later).
            second.close()
            _open_within(streams, server, game_id, alice, here, seconds=5)
            # Bob's first stream from the same address fills the address's three; his second
            # is refused there, by the address's cap, and opens from another address.
            _open(streams, server, game_id, bob, here)
            code, reason = _refused(server, game_id, bob, here)
            assert code == 4429 and "at most 3 streams open per address" in reason
            _open(streams, server, game_id, bob, there)
    finally:
        server.stop()


def _open_within(
    streams: ExitStack, server: ServerProcess, game_id: str, token: str, address: str, seconds: float
) -> ClientConnection:
    """A stream that opens within ``seconds`` (tried again while it is refused)."""
    deadline = time.monotonic() + seconds
    while True:
        connection = streams.enter_context(_stream(server, game_id, token, address))
        kind, code, reason = _hello_or_close(connection)
        if kind == "hello":
            return connection
        assert time.monotonic() < deadline, f"the slot was not freed: {code} {reason}"
        time.sleep(0.05)


def test_a_stream_s_handshake_counts_against_the_rate_limit(tmp_path: Path) -> None:
    server = start_server(tmp_path / "data", env={"FOGDIP_RATE": "10"})
    try:
        game_id, alice, _bob = _game_with_two_players(server)
        outcomes = []
        for _ in range(21):  # 10 a minute for the token: at most 20 even across two windows
            with _stream(server, game_id, alice) as connection:
                outcomes.append(_hello_or_close(connection))
        refused = [outcome for outcome in outcomes if outcome[0] == "closed"]
        assert refused and all(code == 4429 and "too many requests" in reason for _, code, reason in refused)
    finally:
        server.stop()
