"""What every answer of the server says to the browser about itself: a Content-Security-Policy
that runs no script, style or font but the server's own files (no inline script, nothing from
another site), never in a frame; no guessing of content types; no referrer sent elsewhere.

>>> policy = CONTENT_SECURITY_POLICY
>>> "'unsafe-inline'" in policy, "frame-ancestors 'none'" in policy
(False, True)
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        # the live stream: a WebSocket to this server ('self' covers ws: and wss: to it)
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)

_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
)


class SecurityHeaders:
    """Adds the headers above to every HTTP answer (a plain ASGI middleware: no task or stream
    of its own a request)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name for name, _value in message.get("headers", [])}
                message["headers"] = [
                    *message.get("headers", []),
                    *((name, value) for name, value in _HEADERS if name not in present),
                ]
            await send(message)

        await self.app(scope, receive, with_headers)


__all__ = ["CONTENT_SECURITY_POLICY", "SecurityHeaders"]
