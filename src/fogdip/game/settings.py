"""How a game is run beside its variant: its status, press, observers, votes and deadlines, as
typed values, and the checks that refuse settings which would tell players what the game
hides from them.

>>> from fogdip.game.service import Game
>>> game = Game.create("fog-of-war")
>>> settings = TableSettings.for_game(game)
>>> settings.press, settings.draw_votes, settings.ready_counts
(<PressMode.WHITE: 'white'>, <DrawVotes.SECRET: 'secret'>, False)
>>> power_named("fra", game.powers), power_named("France", game.powers)
('FRANCE', 'FRANCE')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

from fogdip.game.refusals import Refusal

if TYPE_CHECKING:
    from fogdip.game.service import Game


class Status(StrEnum):
    """Where a game is in its life."""

    #: Seats are being filled; orders may be filed ahead, nothing is played.
    FORMING = "forming"
    #: Turns are played (at deadlines, when every seat is ready, or by the game master).
    ACTIVE = "active"
    #: The game master stopped the clock: nothing is played, nothing filed.
    PAUSED = "paused"
    #: Over: won, drawn, or its last year played.
    FINISHED = "finished"


class Role(StrEnum):
    """What someone is in a game."""

    MASTER = "master"
    PLAYER = "player"
    OBSERVER = "observer"
    #: Anyone else: sees an open game's page, nothing of a private one.
    NONE = "none"


class PressMode(StrEnum):
    """What players may write to each other, and what a message tells of its sender."""

    NONE = "none"
    #: To all only, signed.
    PUBLIC = "public"
    #: Signed.
    WHITE = "white"
    #: Anonymous.
    GREY = "grey"
    #: A message may claim any power as its sender: only the game master sees the real one.
    BLACK = "black"
    #: Anonymous, and no identity anywhere: nor which seats the bot plays.
    GUNBOAT = "gunboat"

    @property
    def signed(self) -> bool:
        """Whether a message shows the power that sent it."""
        return self in (PressMode.WHITE, PressMode.PUBLIC)


class PressRange(StrEnum):
    #: A power writes to any other.
    ANY = "any"
    #: A power writes only to powers whose units its latest report shows next to its own.
    ADJACENT = "adjacent"


class ObserverView(StrEnum):
    #: The game takes no observers.
    NONE = "none"
    #: Its page and public press (and everything the variant reveals once it is over).
    PRESS = "press"
    #: Also the game master's board as it stands (never what is filed).
    BOARD = "board"


class DrawVotes(StrEnum):
    #: Every member sees which powers vote for a draw.
    OPEN = "open"
    #: Each player sees its own vote; everyone the result.
    SECRET = "secret"


class PhaseType(StrEnum):
    """What a deadline is given for, by the engine's phase letter (a setup counts as
    movement)."""

    MOVEMENT = "movement"
    RETREATS = "retreats"
    ADJUSTMENTS = "adjustments"

    @classmethod
    def of_turn(cls, turn: str) -> PhaseType:
        """The phase type of the turn named ``turn``.

        >>> [PhaseType.of_turn(turn).value for turn in ("F1901R", "W1901A", "S1901S")]
        ['retreats', 'adjustments', 'movement']
        """
        return _PHASE_TYPES.get(turn[-1:].upper(), cls.MOVEMENT) if len(turn) == 6 else cls.MOVEMENT


_E = TypeVar("_E", bound=StrEnum)

_PHASE_TYPES = MappingProxyType({"R": PhaseType.RETREATS, "A": PhaseType.ADJUSTMENTS})

#: The press a game takes from its variant's ``press`` option, unless it is given one.
VARIANT_PRESS = MappingProxyType(
    {"full": PressMode.WHITE, "gunboat": PressMode.GUNBOAT, "black": PressMode.BLACK, "none": PressMode.NONE}
)

#: The longest deadline a phase may have, and the shortest, in seconds.
LONGEST_DEADLINE = 60 * 86400
SHORTEST_DEADLINE = 1


@dataclass(frozen=True)
class TableSettings:
    """How a game is run, beside its variant."""

    name: str = "a game"
    #: The preset it was made from (its variant's name may add option overrides).
    preset: str = "standard"
    #: A private game is joined by its invitation only, and hidden from everyone else.
    private: bool = True
    press: PressMode = PressMode.WHITE
    press_range: PressRange = PressRange.ANY
    observers: ObserverView = ObserverView.PRESS
    draw_votes: DrawVotes = DrawVotes.SECRET
    ready_counts: bool = False
    #: Seconds per phase type; none for a type: the game master adjudicates it.
    deadlines: Mapping[PhaseType, int] = field(default_factory=lambda: MappingProxyType({}))
    #: A postal game: the game master files, marks ready and votes for each power, as its
    #: player's letters ask (``fogdip gm``).
    postal: bool = False

    @classmethod
    def for_game(
        cls,
        game: Game,
        *,
        name: str | None = None,
        preset: str | None = None,
        private: bool = True,
        press: PressMode | str | None = None,
        press_range: PressRange | str = PressRange.ANY,
        observers: ObserverView | str = ObserverView.PRESS,
        draw_votes: DrawVotes | str | None = None,
        ready_counts: bool | None = None,
        deadlines: Mapping[str, float] | None = None,
        postal: bool = False,
        accept_leaks: bool = False,
    ) -> TableSettings:
        """A game's settings: each one given, or its default for the game's variant; refused
        (:class:`Refusal`) where it would tell players what the game hides from them, and
        where the variant's options would let its schedule tell every power what happened out
        of sight, unless the game master ``accept_leaks``."""
        options = game.variant.options
        leaks = options.schedule_leaks()
        if leaks and not accept_leaks:
            raise Refusal.bad_request(
                "these options let the schedule tell every power what happened out of sight: "
                f"{'; '.join(leaks)}; or accept it (accept_leaks) to run the game so",
                "leaky-options",
            )
        mode = VARIANT_PRESS[options.press] if press is None else _enum(PressMode, press, "press")
        hidden = options.fog_enabled or mode is PressMode.GUNBOAT
        votes = (DrawVotes.SECRET if hidden else DrawVotes.OPEN) if draw_votes is None else draw_votes
        settings = cls(
            name=name if name else f"{options.name.partition('+')[0]} game",
            preset=preset or options.name.partition("+")[0],
            private=private,
            press=mode,
            press_range=_enum(PressRange, press_range, "press_range"),
            observers=_enum(ObserverView, observers, "observers"),
            draw_votes=_enum(DrawVotes, votes, "draw_votes"),
            ready_counts=(not hidden) if ready_counts is None else ready_counts,
            deadlines=deadlines_of(deadlines or {}),
            postal=postal,
        )
        settings.check(game)
        return settings

    def check(self, game: Game) -> None:
        """Refuse settings that would tell players what the game hides from them."""
        if self.press_range is PressRange.ADJACENT:
            if self.press is not PressMode.WHITE:
                raise Refusal.bad_request(
                    f"adjacency-limited press is signed press only (press 'white'), not {self.press.value!r}: a "
                    "recipient knows its neighbours, so an anonymous message would name its sender",
                    "bad-press",
                )
            if not game.variant.fog.sees_every_neighbour:
                raise Refusal.bad_request(
                    "adjacency-limited press needs units that see every neighbour, and "
                    f"{game.variant.options.fog!r} sight does not: a message would tell its recipient of a unit "
                    "it cannot see (use it with standard, diplomyopia or fog-1898 sight)",
                    "bad-press",
                )
        if self.press is PressMode.GUNBOAT and self.draw_votes is DrawVotes.OPEN:
            raise Refusal.bad_request(
                "gunboat games vote for draws in secret: open votes would tell the players' seats from the bot's",
                "bad-votes",
            )
        if self.press is PressMode.GUNBOAT and self.ready_counts:
            raise Refusal.bad_request(
                "gunboat games do not count who is ready: the bot's seats are always ready, so counts would tell them",
                "bad-ready-counts",
            )

    def words(self) -> dict[str, Any]:
        """The settings as a store keeps them: plain words and numbers, by name (each store
        keeps them under these names; :meth:`stored` reads them back).

        >>> TableSettings(press=PressMode.GREY, deadlines={PhaseType.MOVEMENT: 60}).words()["deadlines"]
        {'movement': 60}
        """
        return {
            "name": self.name,
            "preset": self.preset,
            "private": self.private,
            "press": self.press.value,
            "press_range": self.press_range.value,
            "observers": self.observers.value,
            "draw_votes": self.draw_votes.value,
            "ready_counts": self.ready_counts,
            "deadlines": {kind.value: seconds for kind, seconds in self.deadlines.items()},
            "postal": self.postal,
        }

    @classmethod
    def stored(cls, words: Mapping[str, Any]) -> TableSettings:
        """Settings as a store kept them (:meth:`words`), read back: checked when the game was
        made, so not checked again."""
        return cls(
            name=str(words["name"]),
            preset=str(words["preset"]),
            private=bool(words["private"]),
            press=PressMode(words["press"]),
            press_range=PressRange(words["press_range"]),
            observers=ObserverView(words["observers"]),
            draw_votes=DrawVotes(words["draw_votes"]),
            ready_counts=bool(words["ready_counts"]),
            deadlines=MappingProxyType(
                {PhaseType(kind): round(seconds) for kind, seconds in dict(words["deadlines"]).items()}
            ),
            postal=bool(words["postal"]),
        )

    def with_changes(self, **changes: Any) -> TableSettings:
        return replace(self, **changes)

    def deadline_for(self, turn: str) -> int | None:
        """The seconds the turn ``turn`` is given, or ``None``: the game master plays it."""
        return self.deadlines.get(PhaseType.of_turn(turn))


def deadlines_of(given: Mapping[str, float]) -> Mapping[PhaseType, int]:
    """Deadlines per phase type from their names, in whole seconds (refused if a name is not
    a phase type, or a deadline is out of range)."""
    unknown = sorted(set(given) - {kind.value for kind in PhaseType})
    if unknown:
        raise Refusal.bad_request(
            f"deadlines are given per phase type: {', '.join(kind.value for kind in PhaseType)}; "
            f"not {', '.join(unknown)}",
            "bad-deadlines",
        )
    if any(not SHORTEST_DEADLINE <= seconds <= LONGEST_DEADLINE for seconds in given.values()):
        raise Refusal.bad_request("a deadline is from 1 second to 60 days, in seconds", "bad-deadlines")
    return MappingProxyType({PhaseType(kind): round(seconds) for kind, seconds in given.items()})


def power_named(name: str, powers: Iterable[str]) -> str:
    """The power ``name`` stands for: its full name or at least its first three letters, in
    any case (``fra``, ``France``, ``FRANCE``); refused if it names none, or several.

    >>> power_named(" aus ", ["AUSTRIA", "ENGLAND"])
    'AUSTRIA'
    >>> power_named("Fr", ["FRANCE"])
    Traceback (most recent call last):
    ...
    fogdip.game.refusals.Refusal: unknown power 'Fr': use one of FRANCE (a full name, or its first three letters or more)
    """
    known = tuple(powers)
    wanted = name.strip().upper()
    if wanted in known:
        return wanted
    found = [power for power in known if len(wanted) >= 3 and power.startswith(wanted)]
    if len(found) == 1:
        return found[0]
    raise Refusal.bad_request(
        f"unknown power {name.strip()!r}: use one of {', '.join(known)} (a full name, or its first three letters or more)",
        "bad-power",
    )


def _enum(kind: type[_E], value: object, what: str) -> _E:
    try:
        return kind(str(value))
    except ValueError:
        raise Refusal.bad_request(
            f"{what} is one of {', '.join(member.value for member in kind)}, not {value!r}", f"bad-{what}"
        ) from None


#: The names of the settings a store keeps (:meth:`TableSettings.words`).
SETTING_WORDS = (
    "name",
    "preset",
    "private",
    "press",
    "press_range",
    "observers",
    "draw_votes",
    "ready_counts",
    "deadlines",
    "postal",
)

__all__ = [
    "SETTING_WORDS",
    "VARIANT_PRESS",
    "DrawVotes",
    "ObserverView",
    "PhaseType",
    "PressMode",
    "PressRange",
    "Role",
    "Status",
    "TableSettings",
    "deadlines_of",
    "power_named",
]
