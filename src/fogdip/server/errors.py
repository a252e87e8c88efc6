"""Errors as the API answers them: a status and a message that says what is wrong and how to
put it right, as ``{"error": {"code": ..., "message": ...}}``. Nothing else reaches a client:
no traceback, no stored data, no hidden fact."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from fogdip.codec.api import ErrorOut


class ApiError(Exception):
    """An answer other than success: ``status`` (4xx), a short ``code`` and the ``message``."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        extra: dict[str, object] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        #: More of the answer, beside ``error`` (a refused filing's verdict on every line).
        self.extra = extra or {}
        #: Headers of the answer (a 429's ``Retry-After``).
        self.headers = headers


def not_found(what: str = "game") -> ApiError:
    """The same answer whether the thing does not exist or is not the asker's to see."""
    return ApiError(404, "not-found", f"no such {what}, or it is not yours to see; check its id")


def unauthorized() -> ApiError:
    return ApiError(
        401,
        "unauthorized",
        "sign in first (POST /api/v1/session), or send 'Authorization: Bearer <token>' with a personal API token",
    )


def forbidden(message: str) -> ApiError:
    return ApiError(403, "forbidden", message)


def bad_request(message: str, code: str = "bad-request") -> ApiError:
    return ApiError(400, code, message)


def conflict(message: str) -> ApiError:
    return ApiError(409, "conflict", message)


def slow_down(code: str, message: str, wait: int) -> ApiError:
    """429: try again in ``wait`` seconds (said in the message too)."""
    return ApiError(429, code, message, headers={"Retry-After": str(wait)})


#: Every error answer an API route may give, as the OpenAPI description shows them.
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut, "description": what}
    for status, what in MappingProxyType(
        {
            400: "the request is wrong: the message says what to fix",
            401: "not signed in",
            403: "not yours to do",
            404: "no such thing, or not yours to see",
            409: "not now: the game's state does not allow it",
            413: "the request is too large",
            422: "the request's body or parameters do not have the form this operation takes",
            429: "too many requests: wait and try again",
        }
    ).items()
}
