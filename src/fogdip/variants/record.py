"""What a game keeps between turns, whatever stores it: the next position, the orders filed
for it, every turn played as typed values (the lines filed, the engine's records, each
power's report, the position reached), each power's opening report and knowledge.

The values are kept as they were made; they are turned into JSON only where they leave the
process (a game file, the database, an answer). A store may read a long history lazily, a turn
or one power's reports at a time (:class:`History` is what it overrides).

>>> from fogdip.variants import Variant
>>> variant = Variant.named("fog-of-war")
>>> position = variant.start()
>>> played = variant.play(position, {"FRANCE": ["A PAR - BUR"]})
>>> turn = TurnRecord.of(played, {"FRANCE": ["A PAR - BUR"]})
>>> turn.turn, turn.position.name, turn.reports["FRANCE"].phase
('S1901M', 'S1901R', 'S1901M')
>>> history = History(variant.opening_observations(position), [turn])
>>> [report.phase for report in history.reports("FRANCE")]
['S1901M', 'S1901M']
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from fogdip.engine.outcomes import RejectedOrder, Resolution
from fogdip.fog.knowledge import Knowledge
from fogdip.fog.observation import Observation
from fogdip.variants.screening import Screening
from fogdip.variants.turn import Position, TurnResult, Variant

#: What a power filed for the next turn: its screening (the lines as values, each with its
#: verdict, kept as filed), or, read back from where it was kept, its lines' words.
Filed = Screening | Sequence[str]


def filed_texts(filed: Filed) -> list[str]:
    """The words of the lines filed (a screening's accepted ones)."""
    return list(filed.texts if isinstance(filed, Screening) else filed)


@dataclass(frozen=True)
class TurnRecord:
    """One played turn: the lines each power filed, the engine's record of each phase it
    played (every order, its outcome and reason), the lines set aside before the engine saw
    them, each power's report, and the position reached."""

    turn: str
    orders: Mapping[str, tuple[str, ...]]
    resolutions: tuple[Resolution, ...]
    rejected: tuple[RejectedOrder, ...]
    reports: Mapping[str, Observation]
    position: Position

    @classmethod
    def of(cls, played: TurnResult, orders: Mapping[str, Filed]) -> TurnRecord:
        """The record of a turn just played with ``orders``."""
        return cls(
            played.turn,
            MappingProxyType({power: tuple(filed_texts(lines)) for power, lines in orders.items()}),
            played.resolutions,
            played.rejected,
            MappingProxyType(dict(played.observations)),
            played.position,
        )

    def as_played(self) -> TurnResult:
        """The turn as :meth:`Variant.play` returned it (without the variant's own events,
        which only its reports needed)."""
        return TurnResult(self.turn, self.resolutions, self.rejected, self.reports, self.position)


class History:
    """Every turn a game has played, in order, and each power's opening report: read whole,
    turn by turn, or one power's reports alone, and appended to as turns are played.

    This one holds them all in memory; a store that keeps long games may subclass it to read
    them lazily (the server reads one power's reports without the others')."""

    def __init__(self, opening: Mapping[str, Observation], turns: Iterable[TurnRecord] = ()) -> None:
        self._opening = dict(opening)
        self._turns = list(turns)

    def __len__(self) -> int:
        return len(self._turns)

    def __getitem__(self, index: int) -> TurnRecord:
        return self._turns[index]

    def __iter__(self) -> Iterator[TurnRecord]:
        return iter(self._turns)

    def append(self, turn: TurnRecord) -> None:
        self._turns.append(turn)

    @property
    def opening(self) -> Mapping[str, Observation]:
        """Each power's opening report."""
        return MappingProxyType(self._opening)

    def reports(self, power: str) -> list[Observation]:
        """Every report ``power`` received, the opening one first."""
        out = [self._opening[power]] if power in self._opening else []
        out.extend(turn.reports[power] for turn in self._turns if power in turn.reports)
        return out

    def latest(self, power: str) -> Observation | None:
        """The last report ``power`` received."""
        for turn in reversed(self._turns):
            if power in turn.reports:
                return turn.reports[power]
        return self._opening.get(power)

    def index_of(self, turn: str) -> int | None:
        """Where the turn named ``turn`` stands in the history."""
        return next((index for index, played in enumerate(self._turns) if played.turn == turn), None)

    def names(self) -> list[str]:
        return [turn.turn for turn in self._turns]


@dataclass(frozen=True)
class Ending:
    """A game ended by agreement: the powers that share the draw, agreed before ``turn``."""

    draw: tuple[str, ...]
    turn: str


@dataclass
class GameRecord:
    """A game between turns. ``knowledge`` holds each power's knowledge after the last turn;
    a power missing from it (a game file from before it was kept) has it rebuilt from its
    reports when it is first asked for."""

    variant: Variant
    position: Position
    filed: MutableMapping[str, Filed] = field(default_factory=dict)
    history: History = field(default_factory=lambda: History({}))
    knowledge: dict[str, Knowledge] = field(default_factory=dict)
    #: How a game ended other than by playing its last turn: a draw the powers agreed.
    ending: Ending | None = None

    @property
    def opening(self) -> Mapping[str, Observation]:
        return self.history.opening

    def copy(self) -> GameRecord:
        """A copy to change apart from this one: the turns played are shared (they never
        change), what changes as a turn is played is copied."""
        return GameRecord(
            self.variant,
            self.position,
            dict(self.filed.items()),
            History(self.history.opening, self.history),
            {power: copy.deepcopy(known) for power, known in self.knowledge.items()},
            self.ending,
        )


__all__ = ["Ending", "Filed", "GameRecord", "History", "TurnRecord", "filed_texts"]
