"""The resolution record: everything that happened in one phase, with reasons.

This is what the fog layer reads. It holds the state before, every order as given, its
legality and outcome with a reason, the moves made, the dislodgements and where each attack
came from, the convoy routes used, the supports given, and the state after.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import NamedTuple

from fogdip.engine.orders import Order
from fogdip.engine.reasons import Reason, Why
from fogdip.engine.rules import Rules, get_rules
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit


class Outcome(StrEnum):
    """What came of an order: each order gets exactly one. (A ``str``: ``Outcome.MOVED ==
    "moved"``, and the value is what documents carry.)"""

    HELD = "held"
    MOVED = "moved"
    BOUNCED = "bounced"
    NO_PATH = "no-path"
    SUPPORTED = "supported"
    CUT = "cut"
    VOID = "void"
    CONVOYED = "convoyed"
    CONVOY_UNUSED = "convoy-unused"
    DISRUPTED = "disrupted"
    ILLEGAL = "illegal"
    RETREATED = "retreated"
    DISBANDED = "disbanded"
    BUILT = "built"
    WAIVED = "waived"
    REMOVED = "removed"
    FAILED = "failed"

    @property
    def succeeded(self) -> bool:
        """Whether the order was carried out (a support given, a convoy carrying its army...)."""
        return self in _SUCCEEDED


_SUCCEEDED = frozenset(
    {
        Outcome.HELD,
        Outcome.MOVED,
        Outcome.SUPPORTED,
        Outcome.CONVOYED,
        Outcome.RETREATED,
        Outcome.DISBANDED,
        Outcome.BUILT,
        Outcome.WAIVED,
        Outcome.REMOVED,
    }
)

#: Every outcome's value, in the order of :class:`Outcome`.
OUTCOMES = tuple(outcome.value for outcome in Outcome)


class OrderResult(NamedTuple):
    """One unit's order and what came of it.

    ``order`` is the order as the engine read it (normalised when legal); ``written`` the
    order as its power wrote it (parsed), and ``text`` its line; ``conflicts`` the other
    orders given to the same unit, if it was given more than one (DATC 4.D.3: then it holds).
    ``results`` uses the MILA words (``bounce``, ``cut``, ``dislodged``, ``void``,
    ``no convoy``, ``disrupted``, ``disband``; empty means success). ``outcome`` is an
    :class:`Outcome`; ``reason`` says why, as a :class:`~fogdip.engine.reasons.Reason`
    (``None`` where reasons were not asked for: ``adjudicate(explain=False)``).
    """

    power: str
    unit: Unit | None
    order: Order
    text: str
    legal: bool
    defaulted: bool
    outcome: Outcome
    results: tuple[str, ...]
    reason: Reason | None
    dislodged_by: str | None = None
    written: Order | None = None
    conflicts: tuple[Order, ...] = ()

    @property
    def succeeded(self) -> bool:
        return self.outcome in _SUCCEEDED


@dataclass(frozen=True, slots=True)
class RejectedOrder:
    """An order that commands no unit of the power (or cannot be read at all)."""

    power: str
    text: str
    reason: Reason

    @classmethod
    def refused(cls, power: str, text: str, words: str) -> RejectedOrder:
        """An order a variant's own rules refuse, with their words."""
        return cls(power, text, Reason(Why.REFUSED, words=(words,)))


@dataclass(frozen=True)
class Resolution:
    """The complete record of one adjudicated phase."""

    before: GameState
    after: GameState
    orders: tuple[OrderResult, ...]
    rejected: tuple[RejectedOrder, ...] = ()
    #: Successful moves and retreats: starting province to the location arrived at.
    moves: Mapping[str, str] = field(default_factory=dict)
    #: Units dislodged this phase: province to the province the attack came from.
    dislodged: Mapping[str, str] = field(default_factory=dict)
    #: Convoyed armies that arrived: army's province to the fleets' provinces used.
    convoy_paths: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: Supports given and not cut: supporter's province to the supported unit's province.
    supports: Mapping[str, str] = field(default_factory=dict)
    #: Provinces left empty by a stand-off.
    standoffs: tuple[str, ...] = ()
    #: Units built and units removed in an adjustment phase.
    builds: tuple[Unit, ...] = ()
    removals: tuple[Unit, ...] = ()
    #: Phases skipped after this one because nothing was to be done in them.
    skipped: tuple[str, ...] = ()
    #: Units dislodged with nowhere to retreat, disbanded at once (``Rules.unretreatable``).
    disbanded: tuple[Unit, ...] = ()
    #: The rules the phase was judged by (``legality`` says whether by the map alone).
    rules: Rules = field(default_factory=get_rules)

    @property
    def phase(self) -> str:
        return str(self.before.phase)

    @cached_property
    def memo(self) -> dict[object, object]:
        """Facts other layers work out from this record alone (every power's observation
        reads the same ones), kept with it: a record never changes, so they hold while it
        lives, and no two games share them."""
        return {}

    def result_of(self, province: str) -> OrderResult | None:
        for result in self.orders:
            if result.unit is not None and result.unit.province == province:
                return result
        return None
