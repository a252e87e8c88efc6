"""The one bot interface: a bot is given exactly what its power is told, and returns order lines.

A :class:`BotInput` holds the power's own reports (the latest is :attr:`BotInput.seen`), the
:class:`~fogdip.fog.knowledge.Knowledge` built from them (ghosts: the last sighting of each
foreign unit, with its age), the variant (its public options, map and rules) and the turn to
be played. It never holds the game, the position, or another power's report: whatever a bot
computes, it computes from these, so two games that differ only in what the power cannot see
give it equal inputs (``tests/bots/test_no_peeking.py``).

A bot (:class:`Bot`) turns an input into order lines, filed as a player's are; randomness comes
from the generator the caller passes (the server draws from the operating system; a tournament
seeds it, so that a run replays). Bots are found by name (:func:`bot_named`).

>>> from fogdip.game import Game
>>> game = Game.create("fog-of-war")
>>> given = BotInput.of(game, "FRANCE")
>>> given.turn, given.kinds, sorted(str(u) for u in given.own_units)
('S1901M', ('M',), ['A MAR', 'A PAR', 'F BRE'])
>>> lines = bot_named("random").orders(given, random.Random(1))
>>> sorted(line.split()[1] for line in lines)
['BRE', 'MAR', 'PAR']
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Protocol

from fogdip.engine.units import Phase
from fogdip.fog.knowledge import Knowledge
from fogdip.fog.observation import Observation, SeenUnit
from fogdip.variants import setup as setups
from fogdip.variants.conditional import turn_kinds
from fogdip.variants.turn import COMPLETED, Variant

if TYPE_CHECKING:
    from fogdip.bots.picture import Picture
    from fogdip.game.service import Game

#: The kind of a turn that places the first units (deadman's free setup, the 1898 start).
SETUP = "setup"

#: The bot a seat gets when none is named: the server's, ``fogdip gm``'s and a game against bots.
DEFAULT_BOT = "heuristic"


@dataclass(frozen=True)
class BotInput:
    """What one power is told, and nothing else: its reports (the opening one first), the
    knowledge built from them, and the variant.

    ``knowledge`` must be built from ``reports`` (:meth:`of` and :meth:`from_reports` do so)."""

    variant: Variant
    power: str
    reports: tuple[Observation, ...]
    knowledge: Knowledge

    @classmethod
    def from_reports(cls, variant: Variant, power: str, reports: Sequence[Observation]) -> BotInput:
        """The input of ``power`` after ``reports`` (its own, in order, the opening one first)."""
        if not reports:
            raise ValueError(f"{power} has received no report yet: a bot plays from its reports")
        for report in reports:
            if report.power != power:
                raise ValueError(f"a report to {report.power} is not {power}'s to play from")
        return cls(variant, power, tuple(reports), Knowledge.rebuild(power, reports))

    @classmethod
    def of(cls, game: Game, power: str) -> BotInput:
        """The input of ``power`` in ``game``: its reports and knowledge, as the game keeps them."""
        return cls(game.variant, power, tuple(game.reports(power)), game.knowledge(power))

    @property
    def seen(self) -> Observation:
        """The latest report: what the power knows the board to be now."""
        return self.reports[-1]

    @property
    def turn(self) -> str:
        """The turn to be played (``S1901S`` for a setup turn, ``COMPLETED`` at the end)."""
        return self.seen.next_phase

    @property
    def over(self) -> bool:
        return self.turn == COMPLETED

    @property
    def phase(self) -> Phase | None:
        """The engine phase the turn starts with; ``None`` for a setup turn or at the end."""
        if self.over or (setups.is_setup_phase(self.turn) and self.variant.options.setup != "standard"):
            return None
        return Phase.parse(self.turn)

    @property
    def kinds(self) -> tuple[str, ...]:
        """The phase kinds the turn covers, in order: ``("M",)``, ``("R",)``, ``("A",)``, the
        combined turns' ``("M", "R", "A")``, ``("M", "R")`` and ``("A", "M")``, or
        ``(SETUP,)``; ``()`` once the game is over."""
        if self.over:
            return ()
        phase = self.phase
        if phase is None:
            return (SETUP,)
        return turn_kinds(self.variant.options, phase)

    @property
    def own_units(self) -> tuple[SeenUnit, ...]:
        """The power's own units on the board now (a dislodged one included, marked)."""
        return tuple(unit for unit in self.seen.units if unit.owner == self.power)

    @property
    def own_centers(self) -> tuple[str, ...]:
        """The centres the power holds, as its latest report tells them."""
        return tuple(center for center, owner in self.seen.centers if owner == self.power)


class Bot(Protocol):
    """A player that chooses its power's order lines from its :class:`BotInput` alone."""

    @property
    def name(self) -> str: ...

    def orders(self, given: BotInput, rng: random.Random) -> list[str]:
        """The lines to file for ``given.turn``: a line the game refuses is not filed, and a
        unit left without an order gets the game's default (hold, or civil disorder)."""
        ...


def _factories() -> Mapping[str, Callable[[], Bot]]:
    from fogdip.bots.belief import believe
    from fogdip.bots.heuristic import Heuristic
    from fogdip.bots.picture import picture_of
    from fogdip.bots.planned import PlannedBot
    from fogdip.bots.search import Search, search_for
    from fogdip.bots.tactics import RandomTactics

    def blind(given: BotInput) -> Picture:
        return believe(given, blind=True)

    def search(given: BotInput) -> Search:
        return search_for(given.variant)

    return MappingProxyType(
        {
            "random": lambda: PlannedBot("random", RandomTactics(), picture_of),
            "heuristic": lambda: PlannedBot("heuristic", Heuristic(), believe),
            "heuristic-blind": lambda: PlannedBot("heuristic-blind", Heuristic(), blind),
            "search": lambda: PlannedBot("search", search, believe),
        }
    )


def bot_names() -> tuple[str, ...]:
    """The names of the bots fogdip has, in order.

    >>> "random" in bot_names()
    True
    """
    return tuple(sorted(_factories()))


#: The longest each bot takes for one power's orders, with room to spare, on the 2-core machine
#: the bench measures (``bench/bots.py``: the heuristic's slowest is a few milliseconds; the
#: search stops at its 0.8 s budget). A server files a bot's orders this long after the turn
#: began, never sooner, so that when they are filed tells nobody how long the bot thought.
THINKING_SECONDS: Mapping[str, float] = MappingProxyType(
    {"random": 0.05, "heuristic": 0.1, "heuristic-blind": 0.1, "search": 1.5}
)


def thinking_time(name: str) -> float:
    """The longest the bot named ``name`` takes for one power's orders (seconds).

    >>> thinking_time("heuristic")
    0.1
    """
    return THINKING_SECONDS[name.strip().lower()]


def bot_named(name: str) -> Bot:
    """A bot by its name; a :class:`ValueError` naming the known ones for any other."""
    factory = _factories().get(name.strip().lower())
    if factory is None:
        raise ValueError(f"there is no bot named {name!r}: the bots are {', '.join(bot_names())}")
    return factory()


__all__ = ["DEFAULT_BOT", "SETUP", "THINKING_SECONDS", "Bot", "BotInput", "bot_named", "bot_names", "thinking_time"]
