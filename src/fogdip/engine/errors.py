"""Every error fogdip raises about its input, under one base: :class:`FogdipError`.

Each error has a ``reason``: what is wrong and how to put it right, in words a player or a
game master can act on. ``str(error)`` is the whole message, which may quote the input too.

>>> try:
...     raise InvalidOrder("A PAR - MARS", "unknown province 'MARS'")
... except FogdipError as exc:
...     print(exc.reason, "|", exc)
unknown province 'MARS' | cannot read order 'A PAR - MARS': unknown province 'MARS'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fogdip.engine.reasons import Reason


class FogdipError(ValueError):
    """Base class of fogdip's input errors; ``reason`` says what is wrong."""

    def __init__(self, reason: str, message: str | None = None) -> None:
        super().__init__(reason if message is None else message)
        self.reason = reason


class InvalidOrder(FogdipError):
    """An order that cannot be read: bad syntax or an unknown name."""

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(reason, f"cannot read order {text!r}: {reason}")
        self.text = text


class IllegalOrder(FogdipError):
    """An order that can be read but is not legal in the position and phase."""

    def __init__(self, text: str, reason: str, phase: str = "") -> None:
        where = f" in {phase}" if phase else ""
        super().__init__(reason, f"order {text!r} is not legal{where}: {reason}")
        self.text = text
        self.phase = phase


class OrderRejected(FogdipError):
    """An order that commands no unit of the power (or no order of the phase at all): it is
    set aside with its reason, and commands nothing. ``cause`` is the engine's structured
    reason (:class:`fogdip.engine.reasons.Reason`), where it has one; a variant's own refusals
    have only their words."""

    def __init__(self, reason: str, message: str | None = None, *, cause: Reason | None = None) -> None:
        super().__init__(reason, message)
        self.cause = cause


class InvalidPosition(FogdipError):
    """A game state or phase document that does not describe a possible position."""


class PhaseError(InvalidPosition):
    """A phase name is malformed, or names a phase that does not exist."""


class MapError(FogdipError):
    """A map file is malformed or inconsistent, or no map has the name asked for."""
