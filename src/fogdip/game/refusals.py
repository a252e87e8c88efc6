"""Why a table refuses what someone asks of it: a typed refusal every front end turns into its
own answer (an HTTP status, a line of a mail, a message on the console).

>>> refusal = Refusal.conflict("the game is over")
>>> refusal.kind, refusal.code, str(refusal)
(<Refused.CONFLICT: 'conflict'>, 'conflict', 'the game is over')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from types import MappingProxyType

from fogdip.engine.errors import FogdipError
from fogdip.variants.filing import LineCheck


class Refused(StrEnum):
    """The kinds of refusal, each with the answer a front end gives it."""

    #: What was asked is malformed or names what is not there (a power of another game).
    BAD_REQUEST = "bad-request"
    #: Not the asker's to do (a player acting as the game master).
    FORBIDDEN = "forbidden"
    #: No such game, or not the asker's to see: the same refusal either way.
    NOT_FOUND = "not-found"
    #: Not now: the game's state does not allow it (it is over, it has started).
    CONFLICT = "conflict"
    #: Asked for a turn that is no longer the next one (it was played meanwhile).
    STALE = "stale"
    #: Order lines refused by the filing check: every line's verdict is in ``detail``.
    LINES = "lines"
    #: Too much at once (failed sign-ins, open streams).
    TOO_MANY = "too-many"


class Refusal(FogdipError):
    """A request the table will not carry out, and why: ``message`` says what is wrong and how
    to put it right; ``code`` names the case for programs; ``detail`` holds more of it (the
    verdict of every line filed)."""

    def __init__(
        self,
        kind: Refused,
        message: str,
        code: str | None = None,
        detail: Mapping[str, object] | None = None,
        lines: Sequence[LineCheck] = (),
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.code = code or kind.value
        self.detail: Mapping[str, object] = MappingProxyType(dict(detail or {}))
        #: Order lines refused by the filing check: every line's verdict, as values.
        self.lines: tuple[LineCheck, ...] = tuple(lines)

    def __str__(self) -> str:
        return self.message

    @classmethod
    def bad_request(cls, message: str, code: str = "bad-request") -> Refusal:
        return cls(Refused.BAD_REQUEST, message, code)

    @classmethod
    def forbidden(cls, message: str) -> Refusal:
        return cls(Refused.FORBIDDEN, message, "forbidden")

    @classmethod
    def not_found(cls) -> Refusal:
        """The same words whether the game does not exist or is not the asker's to see."""
        return cls(Refused.NOT_FOUND, "no such game, or it is not yours to see; check its id", "not-found")

    @classmethod
    def conflict(cls, message: str) -> Refusal:
        return cls(Refused.CONFLICT, message, "conflict")

    @classmethod
    def stale(cls, asked: str, current: str) -> Refusal:
        """A request made for turn ``asked`` when ``current`` is the next one."""
        if current == "COMPLETED":
            now = "the game is over"
        else:
            now = f"the next turn is {current}"
        return cls(
            Refused.STALE,
            f"this was sent for {asked}, which is no longer the turn to play: {now}; "
            "look at the game again and send it for the turn now to play",
            "stale",
            {"turn": current},
        )


__all__ = ["Refusal", "Refused"]
