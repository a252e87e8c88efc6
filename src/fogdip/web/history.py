"""The game page's past: the phases a member may step through (each as it saw it), and the
report beside the map with its notices numbered as the map numbers them.

>>> [(s.label, s.phase, s.current) for s in history_steps(["start", "S1901M", "F1901M"], None)]
[('start', 'start', False), ('S1901M', 'S1901M', False), ('now', None, True)]
>>> steps = history_steps(["start", "S1901M", "F1901M"], "s1901m")
>>> [s.label for s in steps if s.current], previous_step(steps), next_step(steps)
(['S1901M'], '?phase=start', '')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fogdip.maps.scene import Mark


@dataclass(frozen=True, slots=True)
class Step:
    """One phase to step to: its label, its ``?phase=`` value (``None``: now), whether shown."""

    label: str
    phase: str | None
    current: bool

    @property
    def query(self) -> str:
        """The step's query string (empty for now)."""
        return f"?phase={self.phase}" if self.phase is not None else ""


def history_steps(phases: Sequence[str], shown: str | None) -> list[Step]:
    """The steps through ``phases`` (oldest first, as the member was told of them): every one
    but the last by its name, the last as *now* (it is the page's map today)."""
    if not phases:
        return []
    wanted = (shown or "").strip().upper()
    last = len(phases) - 1
    steps = []
    for index, phase in enumerate(phases):
        if index == last:
            steps.append(Step("now", None, not wanted or wanted == phase.upper()))
        else:
            steps.append(Step(phase, phase, wanted == phase.upper()))
    return steps


def previous_step(steps: Sequence[Step]) -> str | None:
    """The query of the step before the one shown (``None``: none)."""
    index = next((i for i, step in enumerate(steps) if step.current), None)
    return steps[index - 1].query if index else None


def next_step(steps: Sequence[Step]) -> str | None:
    """The query of the step after the one shown (``None``: none; ``""``: now)."""
    index = next((i for i, step in enumerate(steps) if step.current), None)
    return steps[index + 1].query if index is not None and index + 1 < len(steps) else None


@dataclass(frozen=True, slots=True)
class ReportLine:
    """A line of the report; ``number`` is the map's number for a notice it marks."""

    text: str
    number: int | None = None


def numbered_report(text: str, marks: Sequence[Mark]) -> list[ReportLine]:
    """The report's lines, each notice the map marks numbered as on the map.

    >>> lines = numbered_report("FRANCE\\nNotices:\\n  A stand-off in BUR\\n  Quiet\\nVisible: PAR",
    ...                         [Mark(1, "A stand-off in BUR", ("BUR",))])
    >>> [(line.number, line.text) for line in lines]
    [(None, 'FRANCE'), (None, 'Notices:'), (1, '  A stand-off in BUR'), (None, '  Quiet'), (None, 'Visible: PAR')]
    """
    waiting = list(marks)
    lines: list[ReportLine] = []
    in_notices = False
    for line in text.splitlines():
        if not line.startswith(" "):
            in_notices = line == "Notices:"
        number = None
        mark = next((m for m in waiting if m.text == line.strip()), None) if in_notices else None
        if mark is not None:
            waiting.remove(mark)
            number = mark.number
        lines.append(ReportLine(line, number))
    return lines


__all__ = ["ReportLine", "Step", "history_steps", "next_step", "numbered_report", "previous_step"]
