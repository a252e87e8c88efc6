"""A mail's lines as the judge's commands, one a line, in the judges' tradition.

A line whose first word is a command is that command; a press block (``PRESS TO ...`` or
``BROADCAST`` up to ``ENDPRESS``) is message text, never read for commands; ``SIGNOFF`` ends
what is read; any other line that reads like an order (``A PAR - BUR``, ``F NTH R NWG``,
``WAIVE``, ``IF ...``) is an order line, and every order line of a mail, together, is the set
filed for the turn (as the web files them). A line that is neither is an :class:`Unknown`.

>>> steps = parse(["ORDERS", "A PAR - BUR", "READY", "PRESS TO france, ger", "READY here is text", "ENDPRESS", "Hi!"])
>>> [type(step.command).__name__ for step in steps]
['OrdersStart', 'OrderLine', 'Ready', 'Press', 'Unknown']
>>> steps[3].command
Press(to=('france', 'ger'), claim=None, body='READY here is text', closed=True)
>>> parse(["SET REMIND 6", "EXTEND 1.5", "HISTORY s1901m"])[0].command
SetRemind(hours=6.0)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SignOn:
    """``SIGNON <POWER> <GAME> <SECRET>``: who is writing, for a mail sent to the judge's
    general address (the first line only)."""

    power: str
    game: str
    secret: str


@dataclass(frozen=True)
class OrdersStart:
    """``ORDERS``: the order lines follow (none: no orders are filed, replacing any)."""


@dataclass(frozen=True)
class OrderLine:
    text: str


@dataclass(frozen=True)
class Press:
    """A message: to the powers named (``None``: everyone, ``BROADCAST``), perhaps claiming
    another sender (black press: ``FROM <POWER>``). ``closed``: its ``ENDPRESS`` was there."""

    to: tuple[str, ...] | None
    claim: str | None
    body: str
    closed: bool


@dataclass(frozen=True)
class Ready:
    ready: bool


@dataclass(frozen=True)
class Draw:
    vote: bool


@dataclass(frozen=True)
class Status:
    pass


@dataclass(frozen=True)
class History:
    phase: str | None


@dataclass(frozen=True)
class MapAsk:
    phase: str | None


@dataclass(frozen=True)
class Help:
    pass


@dataclass(frozen=True)
class SetRemind:
    """``SET REMIND <hours>`` before each deadline, if nothing is filed (``OFF``: never)."""

    hours: float | None


@dataclass(frozen=True)
class NewAddress:
    pass


@dataclass(frozen=True)
class Adjudicate:
    pass


@dataclass(frozen=True)
class Pause:
    pass


@dataclass(frozen=True)
class Resume:
    pass


@dataclass(frozen=True)
class Extend:
    hours: float


@dataclass(frozen=True)
class SignOff:
    """``SIGNOFF``: nothing below is read."""


@dataclass(frozen=True)
class Unknown:
    """A line that is no command and does not read as an order: why, and how to fix it."""

    why: str


Command = (
    SignOn
    | OrdersStart
    | OrderLine
    | Press
    | Ready
    | Draw
    | Status
    | History
    | MapAsk
    | Help
    | SetRemind
    | NewAddress
    | Adjudicate
    | Pause
    | Resume
    | Extend
    | SignOff
    | Unknown
)

#: What only the game master may do.
MASTER_COMMANDS = (Adjudicate, Pause, Resume, Extend)


@dataclass(frozen=True)
class Step:
    """A command and the lines of the mail it was read from (to quote in the answer)."""

    quoted: tuple[str, ...]
    command: Command


HELP = """Commands, one a line (capitals or not):
  ORDERS                    the order lines below it are your orders (any order line is, without it);
                            they replace what you filed, as a set; none below it: no orders
  A PAR - BUR               an order line (the notation of the web and of fogdip gm)
  PRESS TO FRANCE, GERMANY  a message to those powers: the lines below it, up to ENDPRESS
  BROADCAST                 a message to every power, up to ENDPRESS
                            (black press: PRESS TO FRANCE FROM ENGLAND claims another sender)
  ENDPRESS                  ends a message
  READY / NOTREADY          mark your orders ready (the turn is played once every seat is)
  DRAW / NODRAW             vote for a draw, or take your vote back
  STATUS                    the game, the turn, its deadline, what you filed
  HISTORY [phase]           your report of a turn (default: the latest; START: the opening one)
  MAP [phase]               your map after a turn, as a PNG attached (default: the latest; START)
  SET REMIND <hours>        a reminder that many hours before each deadline, if you filed nothing (OFF: none)
  NEWADDRESS                a new secret address for your seat (the old one stops working)
  SIGNOFF                   nothing below it is read
  HELP                      this
The game master's: ADJUDICATE, PAUSE, RESUME, EXTEND <hours>.
Write to your seat's own address (it holds your secret); or to the judge's address with a
first line SIGNON <POWER> <GAME> <SECRET>."""

#: First words of an order line (besides a province's, three letters or fewer).
_ORDER_WORDS = frozenset(
    {"A", "F", "ARMY", "FLEET", "IF", "WAIVE", "BUILD", "REMOVE", "DISBAND", "RETREAT", "MOVEMENT", "ADJUSTMENT"}
    | {"ADJUSTMENTS", "RETREATS", "HOLD", "NONE"}
)
_NUMBER = re.compile(r"^\d+(\.\d+)?$")
#: The most hours one EXTEND gives (as a reminder is set at most two weeks ahead).
LONGEST_EXTEND = 24 * 14
#: The commands that take YES or NO after them, and nothing else.
_YES_NO = frozenset({"READY", "DRAW"})
#: What follows a province in an order written without its unit's type.
_ORDER_VERBS = frozenset(
    {"-", "->", "H", "HOLD", "HOLDS", "S", "SUPPORT", "SUPPORTS", "C", "CONVOY", "CONVOYS", "R", "RETREAT"}
    | {"RETREATS", "D", "DISBAND", "DISBANDS", "B", "BUILD", "BUILDS", "M", "MOVE", "MOVES", "TO", "V", "VIA"}
)


def _short_order(words: list[str]) -> bool:
    """Whether a line that starts with a word of three letters or fewer reads as an order: a
    province and then what it does (``PAR H``, ``MAR S PAR``), never a word alone or a short
    word of a sign-off (``Jo``, ``Ok``, ``No thanks``).

    >>> _short_order(["PAR", "H"]), _short_order(["Ok"]), _short_order(["No", "thanks"])
    (True, False, False)
    """
    head = words[0]
    return len(words) > 1 and len(head) <= 3 and head.isalpha() and words[1].upper() in _ORDER_VERBS


def _words(line: str) -> list[str]:
    return line.split()


#: A list's bullet, as a mail program writes a bulleted line out as text (Outlook's HTML
#: lists read as "· READY").
_BULLET = re.compile(r"^\s*[\u00b7\u2022\u25e6\u25aa\u2023\u2043]\s+")


def _unbulleted(line: str) -> str:
    """``line`` without a list bullet at its start.

    >>> _unbulleted("· READY"), _unbulleted("  • A PAR - BUR"), _unbulleted("A PAR - BUR")
    ('READY', 'A PAR - BUR', 'A PAR - BUR')
    """
    return _BULLET.sub("", line)


def _hours(word: str | None) -> float | None:
    if word is None or not _NUMBER.match(word):
        return None
    return float(word)


def _phase(words: list[str]) -> str | None:
    return words[1].upper() if len(words) > 1 else None


def _press_head(words: list[str]) -> tuple[tuple[str, ...] | None, str | None, str | None]:
    """The recipients and claim of ``PRESS TO A, B [FROM C]`` / ``BROADCAST [FROM C]``, or
    why it cannot be read."""
    rest = " ".join(words[1:])
    claim = None
    found = re.search(r"\bFROM\b", rest, flags=re.IGNORECASE)
    if found:
        claim = rest[found.end() :].strip().strip(",") or None
        rest = rest[: found.start()].strip()
        if claim is None:
            return None, None, "FROM names the power the message claims to be from"
    if words[0].upper() == "BROADCAST":
        return None, claim, None if not rest else "BROADCAST goes to everyone: name nobody after it"
    if not rest.upper().startswith("TO"):
        return None, None, "write PRESS TO FRANCE, GERMANY (or BROADCAST for everyone)"
    names = tuple(name for name in re.split(r"[,\s]+", rest[2:].strip()) if name)
    if not names:
        return None, None, "name the powers after PRESS TO, separated by commas"
    return names, claim, None


def _one(line: str, words: list[str], first: bool) -> Command:
    """The command of one line outside a press block."""
    head = words[0].upper().rstrip(":")
    second = words[1].upper() if len(words) > 1 else None
    simple: dict[str, Command] = {
        "ORDERS": OrdersStart(),
        "READY": Ready(second != "NO"),
        "NOTREADY": Ready(False),
        "UNREADY": Ready(False),
        "DRAW": Draw(second != "NO"),
        "NODRAW": Draw(False),
        "STATUS": Status(),
        "HELP": Help(),
        "NEWADDRESS": NewAddress(),
        "ADJUDICATE": Adjudicate(),
        "PAUSE": Pause(),
        "RESUME": Resume(),
        "SIGNOFF": SignOff(),
    }
    if head in simple and (len(words) == 1 or (head in _YES_NO and len(words) == 2 and second in ("YES", "NO"))):
        return simple[head]
    if head == "HISTORY" and len(words) <= 2:
        return History(_phase(words))
    if head == "MAP" and len(words) <= 2:
        return MapAsk(_phase(words))
    if head == "SIGNON":
        if not first:
            return Unknown("SIGNON is read on a mail's first line only")
        if len(words) != 4:
            return Unknown("write SIGNON <POWER> <GAME> <SECRET>")
        return SignOn(words[1], words[2], words[3])
    if head == "EXTEND":
        hours = _hours(second)
        if hours is None or not 0 < hours <= LONGEST_EXTEND or len(words) != 2:
            return Unknown(f"write EXTEND <hours>, at most {LONGEST_EXTEND}, e.g. EXTEND 24")
        return Extend(hours)
    if head == "SET":
        if second != "REMIND" or len(words) != 3:
            return Unknown("the one setting is SET REMIND <hours> (or SET REMIND OFF)")
        if words[2].upper() in ("OFF", "NEVER", "0"):
            return SetRemind(None)
        hours = _hours(words[2])
        if hours is None or not 0 < hours <= 24 * 14:
            return Unknown("write SET REMIND <hours before the deadline>, e.g. SET REMIND 6, or SET REMIND OFF")
        return SetRemind(hours)
    if head in _YES_NO:
        return Unknown(f"write {head} alone (or {head} YES, {head} NO); the rest of the line was not read")
    if head in simple or head in ("HISTORY", "MAP"):
        return Unknown(f"{head} takes {'one phase at most' if head in ('HISTORY', 'MAP') else 'nothing after it'}")
    if head in _ORDER_WORDS or " - " in line or _short_order(words):
        return OrderLine(line.strip())
    return Unknown(f"there is no command {words[0]!r}, and it does not read as an order: HELP lists the commands")


def parse(lines: Sequence[str]) -> list[Step]:
    """The commands of a mail's lines (blank lines skipped); a press block's text is kept
    whole and never read for commands."""
    steps: list[Step] = []
    index = 0
    first = True
    while index < len(lines):
        line = _unbulleted(lines[index].rstrip())
        index += 1
        words = _words(line)
        if not words:
            continue
        head = words[0].upper()
        if head in ("PRESS", "BROADCAST"):
            to, claim, why = _press_head(words)
            body: list[str] = []
            closed = False
            while index < len(lines):
                text = lines[index].rstrip()
                index += 1
                if text.strip().upper() == "ENDPRESS":
                    closed = True
                    break
                body.append(text)
            quoted = (line, *(["ENDPRESS"] if closed else []))
            if why is not None:
                steps.append(Step(quoted, Unknown(why)))
            else:
                steps.append(Step(quoted, Press(to, claim, "\n".join(body).strip("\n"), closed)))
            first = False
            continue
        command = _one(line, words, first)
        first = False
        steps.append(Step((line,), command))
        if isinstance(command, SignOff):
            break
    return steps


__all__ = [
    "HELP",
    "MASTER_COMMANDS",
    "Adjudicate",
    "Command",
    "Draw",
    "Extend",
    "Help",
    "History",
    "MapAsk",
    "NewAddress",
    "OrderLine",
    "OrdersStart",
    "Pause",
    "Press",
    "Ready",
    "Resume",
    "SetRemind",
    "SignOff",
    "SignOn",
    "Status",
    "Step",
    "Unknown",
    "parse",
]
