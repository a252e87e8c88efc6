"""The resolution record: everything that happened in one phase, with reasons.

This is what the fog layer reads. It holds the state before, every order as given, its
legality and outcome with a reason, the moves made, the dislodgements and where each attack
came from, the convoy routes used, the supports given, and the state after.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from fogdip.engine.orders import Order
from fogdip.engine.rules import Rules, get_rules
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit

#: Machine-readable outcomes. Each order gets exactly one.
OUTCOMES = (
    "held",
    "moved",
    "bounced",
    "no-path",
    "supported",
    "cut",
    "void",
    "convoyed",
    "convoy-unused",
    "disrupted",
    "illegal",
    "retreated",
    "disbanded",
    "built",
    "waived",
    "removed",
    "failed",
)


class OrderResult(NamedTuple):
    """One unit's order and what came of it.

    ``results`` uses the MILA words (``bounce``, ``cut``, ``dislodged``, ``void``,
    ``no convoy``, ``disrupted``, ``disband``; empty means success). ``outcome`` is one of
    :data:`OUTCOMES`; ``reason`` says why in words a player can read.
    """

    power: str
    unit: Unit | None
    order: Order
    text: str
    legal: bool
    defaulted: bool
    outcome: str
    results: tuple[str, ...]
    reason: str
    dislodged_by: str | None = None

    @property
    def succeeded(self) -> bool:
        return self.outcome in (
            "held",
            "moved",
            "supported",
            "convoyed",
            "retreated",
            "disbanded",
            "built",
            "waived",
            "removed",
        )


@dataclass(frozen=True, slots=True)
class RejectedOrder:
    """An order that commands no unit of the power (or cannot be read at all)."""

    power: str
    text: str
    reason: str


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

    def result_of(self, province: str) -> OrderResult | None:
        for result in self.orders:
            if result.unit is not None and result.unit.province == province:
                return result
        return None
