"""A game's clock: when its next turn is played at the latest.

A deadline is set from a moment nobody's hidden work can move: the deadline just passed when a
turn is played at its deadline, else the moment the request that played it (or started or
resumed the game) arrived, in whole seconds. Set from the moment a turn *finished*, it would
carry how long the turn took (its bots, its reports), which depends on what the players
cannot see.

>>> from datetime import UTC, datetime
>>> clock = Clock(deadline=None)
>>> arrived = datetime(2026, 1, 1, 12, 0, 0, 734_512, tzinfo=UTC)
>>> clock.schedule(3600, arrived).deadline.isoformat()
'2026-01-01T13:00:00+00:00'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta


def whole_seconds(moment: datetime) -> datetime:
    """``moment`` without its fraction of a second."""
    return moment.replace(microsecond=0)


@dataclass(frozen=True)
class Clock:
    """The deadline of the next turn (``None``: none runs), and what was left of it when the
    game was paused (``None``: not paused with a deadline running)."""

    deadline: datetime | None = None
    paused_left: float | None = None

    def schedule(self, seconds: int | None, moment: datetime) -> Clock:
        """The next deadline, ``seconds`` after ``moment`` (in whole seconds); none if the
        turn has no deadline."""
        if not seconds:
            return Clock(None)
        return Clock(whole_seconds(moment) + timedelta(seconds=seconds))

    def stopped(self) -> Clock:
        return Clock(None)

    def paused(self, moment: datetime) -> Clock:
        """The clock stopped at ``moment``: what is left of its deadline is kept, in whole
        seconds."""
        if self.deadline is None:
            return Clock(None)
        left = max((self.deadline - whole_seconds(moment)).total_seconds(), 0.0)
        return Clock(None, float(int(left)))

    def resumed(self, seconds: int | None, moment: datetime) -> Clock:
        """The clock started again at ``moment``: with what was left, or a full deadline."""
        if self.paused_left is not None:
            return Clock(whole_seconds(moment) + timedelta(seconds=self.paused_left))
        return self.schedule(seconds, moment)

    def extended(self, seconds: float) -> Clock:
        if self.deadline is None:
            return self
        return replace(self, deadline=self.deadline + timedelta(seconds=round(seconds)))

    def due(self, moment: datetime) -> bool:
        return self.deadline is not None and self.deadline <= moment


__all__ = ["Clock", "whole_seconds"]
