"""Errors of the engine. Each message quotes the input and says how to put it right."""

from __future__ import annotations


class FogdipError(ValueError):
    """Base class of fogdip's input errors."""


class InvalidOrder(FogdipError):
    """An order that cannot be read: bad syntax or an unknown name."""

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"cannot read order {text!r}: {reason}")
        self.text = text
        self.reason = reason


class IllegalOrder(FogdipError):
    """An order that can be read but is not legal in the position and phase."""

    def __init__(self, text: str, reason: str, phase: str = "") -> None:
        where = f" in {phase}" if phase else ""
        super().__init__(f"order {text!r} is not legal{where}: {reason}")
        self.text = text
        self.reason = reason
        self.phase = phase


class InvalidPosition(FogdipError):
    """A game state or phase document that does not describe a possible position."""
