"""Seed 002's extra orders as values: their notation, and what espionage and peeks reveal.

Three orders join the movement phase in Deadman Diplomacy: **espionage** (``F NTH E FRANCE``),
**peek-a-sneak** (``PAS NTH``) and **disband in movement** (``F NTH DB``). This module reads
and writes them, and works out what a successful espionage or a peek tells whom;
:mod:`fogdip.variants.extra_orders` checks them and drives them through a turn.

>>> from fogdip.engine.map import standard_map
>>> board = standard_map()
>>> str(parse_extra_order("F Nth - Espionage France", board))
'F NTH E FRANCE'
>>> str(parse_extra_order("Peek-a-Sneak North Sea", board)), str(parse_extra_order("f nth-disbands", board))
('PAS NTH', 'F NTH DB')
>>> parse_extra_order("F NTH - ENG", board) is None  # an ordinary order, for the engine
True
>>> parse_extra_order("F NTH E ATLANTIS", board)
Traceback (most recent call last):
...
fogdip.engine.errors.InvalidOrder: cannot read order 'F NTH E ATLANTIS': unknown power 'ATLANTIS': name one of AUSTRIA, ENGLAND, FRANCE, GERMANY, ITALY, RUSSIA, TURKEY
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from fogdip.engine.errors import InvalidOrder
from fogdip.engine.map import Map
from fogdip.engine.notation import parse_order
from fogdip.engine.orders import Hold, UnitRef
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit
from fogdip.fog.observation import Notice, SeenUnit
from fogdip.fog.sight import province_sight


@dataclass(frozen=True, slots=True)
class Espionage:
    """``F NTH E FRANCE``: the unit holds and, after the season, learns where the target's
    units within one space stand."""

    unit: UnitRef
    target: str

    def __str__(self) -> str:
        return f"{self.unit} E {self.target}"


@dataclass(frozen=True, slots=True)
class DisbandNow:
    """``F NTH DB``: the unit is disbanded in a movement phase."""

    unit: UnitRef

    def __str__(self) -> str:
        return f"{self.unit} DB"


@dataclass(frozen=True, slots=True)
class Peek:
    """``PAS NTH``: a power's question whether a province is occupied after the season."""

    province: str

    def __str__(self) -> str:
        return f"PAS {self.province}"


ExtraOrder = Espionage | DisbandNow | Peek

_ESPIONAGE_WORDS = frozenset({"E", "ESPIONAGE", "ESPIONAGES", "SPY", "SPIES"})
#: "D" and "DISBAND(S)" are also the engine's words for a removal in Winter; only "DB" says
#: "disband in movement" whatever the phase (see :func:`is_movement_extra`).
_DISBAND_WORDS = frozenset({"DB", "D", "DISBAND", "DISBANDS"})
_PEEK_WORDS = frozenset({"PAS", "PEEK", "PEEKASNEAK"})


def _words(text: str) -> list[str]:
    """Upper-case words, with ``-`` (used as a separator in ``F Nth-Espionage France`` and
    ``Peek-a-Sneak``), ``.``, ``:`` and ``,`` dropped."""
    cleaned = text.upper()
    for mark in "-.:,":
        cleaned = cleaned.replace(mark, " ")
    return cleaned.split()


def is_movement_extra(text: str) -> bool:
    """Whether a line is unmistakably one of seed 002's movement orders (espionage, a peek or
    ``DB``), whatever phase it is filed for: for sorting the lines of a combined turn.

    ``D`` and ``DISBAND`` are left out: in Winter they are removals.

    >>> [is_movement_extra(t) for t in ("F NTH E FRANCE", "PAS-Nth", "F NTH DB", "F NTH D", "A PAR - BUR")]
    [True, True, True, False, False]
    """
    words = _words(text)
    if not words:
        return False
    return words[0] in _PEEK_WORDS or words[0] == "DB" or any(w in _ESPIONAGE_WORDS or w == "DB" for w in words[1:])


def parse_extra_order(text: str, board: Map) -> ExtraOrder | None:
    """Read an espionage, peek or disband-in-movement order.

    Returns ``None`` when the line is none of them (it is an ordinary order for the engine);
    raises :class:`InvalidOrder` when it is one of them but cannot be read. Accepted forms:
    ``F NTH E FRANCE``, ``F NTH ESPIONAGE FRANCE``, ``Fleet North Sea - Espionage French``,
    ``F NTH DB``, ``F Nth-Disbands``, ``DB F NTH``, ``PAS NTH``, ``PAS-Nth``,
    ``PEEK NTH``, ``Peek-a-Sneak North Sea``.

    >>> from fogdip.engine.map import standard_map
    >>> str(parse_extra_order("fleet st petersburg (north coast) spies on russia", standard_map()))
    'F STP/NC E RUSSIA'
    """
    words = _words(text)
    if not words:
        return None
    if words[0] in _PEEK_WORDS:
        return _peek(text, words, board)
    if words[0] in ("DB", "DISBAND") and len(words) > 1:
        return DisbandNow(_unit(text, words[1:], board, "DB"))
    if words[0] in _ESPIONAGE_WORDS:
        raise InvalidOrder(text, "write the spying unit first, then E and the power: F NTH E FRANCE")
    for index, word in enumerate(words[1:], start=1):
        if word in _ESPIONAGE_WORDS:
            unit = _unit(text, words[:index], board, "E FRANCE")
            return Espionage(unit, _power(text, words[index + 1 :], board))
        if word in _DISBAND_WORDS:
            if index + 1 < len(words):
                rest = " ".join(words[index + 1 :])
                raise InvalidOrder(text, f"unexpected {rest!r} after {word}: write F NTH DB")
            return DisbandNow(_unit(text, words[:index], board, "DB"))
    return None


def _unit(text: str, words: list[str], board: Map, example: str) -> UnitRef:
    # The engine's reader knows every name, alias and way of writing a coast: let it read the
    # unit as the unit of a hold.
    try:
        order = parse_order(" ".join(words) + " H", board)
    except InvalidOrder as exc:
        raise InvalidOrder(text, exc.reason) from None
    if not isinstance(order, Hold):
        raise InvalidOrder(text, f"write the unit, then the order: F NTH {example}")
    return order.unit


def _power(text: str, words: list[str], board: Map) -> str:
    if words[:1] == ["ON"]:
        words = words[1:]
    if not words:
        raise InvalidOrder(text, "name the power to spy on: F NTH E FRANCE")
    name = " ".join(words)
    for code, info in board.power_info.items():
        if name in (code.upper(), info.name.upper(), info.adjective.upper(), info.abbreviation.upper()):
            return code
    raise InvalidOrder(text, f"unknown power {name!r}: name one of {', '.join(board.powers)}")


def _peek(text: str, words: list[str], board: Map) -> Peek:
    rest = words[1:]
    if words[0] == "PEEK" and rest[:2] == ["A", "SNEAK"]:
        rest = rest[2:]
    if not rest:
        raise InvalidOrder(text, "name the province to peek at: PAS NTH")
    location = board.resolve_name(" ".join(rest))
    if location is None:
        raise InvalidOrder(text, f"unknown province {' '.join(rest)!r}: write PAS and a province, e.g. PAS NTH")
    return Peek(board.province_of(location))


# --- what espionage and peeks reveal ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SpyReport:
    """One successful espionage: who spied with which unit, on whom, and the provinces where
    the target's units were found (possibly none)."""

    spy: Unit
    target: str
    found: tuple[str, ...]


def spy(state: GameState, unit: Unit, target: str) -> SpyReport:
    """What ``unit``'s espionage on ``target`` finds in ``state`` (the position at the end of
    the move): the provinces within one space, over land or water, holding one of the
    target's units. Units dislodged and awaiting a retreat are not found: they no longer
    hold a province, and where they will stand is settled only by the retreat."""
    near = province_sight(state.board, unit.province)
    found = tuple(sorted(p for p in near if (other := state.units.get(p)) is not None and other.power == target))
    return SpyReport(unit, target, found)


def spy_sightings(report: SpyReport) -> tuple[SeenUnit, ...]:
    """The spy's sightings: provinces and owner, never the unit types."""
    return tuple(SeenUnit(province, report.target, None) for province in report.found)


def spy_notice(board: Map, report: SpyReport | None, unit: Unit, target: str) -> Notice:
    """The spy's notice: what was found, or that the espionage failed (``report`` None)."""
    order = f"{unit} E {target}"
    adjective = board.power_info[target].adjective
    if report is None:
        return Notice.make(
            "espionage",
            f"{order} failed: the unit was attacked, and nothing was learned",
            unit=str(unit),
            target=target,
            succeeded=False,
            provinces=(),
        )
    if report.found:
        text = f"{order}: {adjective} units at {', '.join(report.found)}"
    else:
        text = f"{order}: no {adjective} units within one space of {unit.province}"
    return Notice.make("espionage", text, unit=str(unit), target=target, succeeded=True, provinces=report.found)


def spied_notices(state: GameState, reports: Iterable[SpyReport]) -> dict[str, Notice]:
    """What each spied-on power is told: its units whose locations became known, each marked
    with one ``*`` per power that learned it this season, and, for each espionage, that a
    foreign unit stands within one space of the units it found. Never who spied, nor from
    where.

    >>> from fogdip.engine import GameState
    >>> state = GameState.initial()
    >>> reports = [SpyReport(Unit("ENGLAND", "F", "NTH"), "GERMANY", ("KIE",)),
    ...            SpyReport(Unit("RUSSIA", "A", "WAR"), "GERMANY", ("BER", "KIE"))]
    >>> notice = spied_notices(state, reports)["GERMANY"]
    >>> for sentence in notice.text.split(". "): print(sentence)
    Spied on: A BER*, F KIE** (each * is a power that has learned where the unit stands)
    A foreign unit stands within one space of A BER, F KIE
    A foreign unit stands within one space of F KIE.
    >>> notice.get("units")
    (('BER', 1), ('KIE', 2))
    """
    knowers: dict[str, dict[str, set[str]]] = {}
    groups: dict[str, list[tuple[str, ...]]] = {}
    for report in reports:
        if not report.found:
            continue
        for province in report.found:
            knowers.setdefault(report.target, {}).setdefault(province, set()).add(report.spy.power)
        groups.setdefault(report.target, []).append(report.found)
    out: dict[str, Notice] = {}
    for target, known in knowers.items():
        marked = sorted(known.items())
        listed = ", ".join(f"{state.units[p]}{'*' * len(powers)}" for p, powers in marked)
        near = sorted(groups[target])
        sentences = [
            f"Spied on: {listed} (each * is a power that has learned where the unit stands).",
            *(f"A foreign unit stands within one space of {', '.join(str(state.units[p]) for p in g)}." for g in near),
        ]
        out[target] = Notice.make(
            "spied",
            " ".join(sentences),
            units=tuple((p, len(powers)) for p, powers in marked),
            near=tuple(near),
        )
    return out


def peek_notice(state: GameState, peek: Peek, power: str) -> Notice:
    """The answer to ``power``'s peek: whether a unit stands in the province at the end of the
    season. A unit dislodged there does not count; its province always holds its attacker.
    Where the power's own unit stands, the peek tells it nothing new, and the answer says so
    (answer ``"own"``).

    >>> from fogdip.engine import GameState
    >>> state = GameState.initial()
    >>> peek_notice(state, Peek("PAR"), "FRANCE").text, peek_notice(state, Peek("PAR"), "GERMANY").text
    ('PAS PAR: your own A PAR stands there; a peek tells only of others', 'PAS PAR: occupied')
    """
    unit = state.units.get(peek.province)
    if unit is not None and unit.power == power:
        text = f"PAS {peek.province}: your own {unit} stands there; a peek tells only of others"
        return Notice.make("peek", text, province=peek.province, answer="own")
    answer = "empty" if unit is None else "occupied"
    return Notice.make("peek", f"PAS {peek.province}: {answer}", province=peek.province, answer=answer)
