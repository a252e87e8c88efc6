"""Rate limits: a client that asks too often is told to slow down, and others are not."""

from __future__ import annotations

from pathlib import Path

import httpx

from fogdip.client import ApiFailure, FogdipClient

from servers import start_server

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
        limited = httpx.get(
            server.url + "/api/v1/me", headers={"Authorization": alice_bot._http.headers["Authorization"]}
        )
        assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1
    finally:
        server.stop()
