"""Orders filed ahead, and conditional orders (seed 001). INTERFACE STUB: to be implemented."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from fogdip.engine.rules import Rules
from fogdip.engine.state import GameState
from fogdip.variants.options import VariantOptions


@dataclass(frozen=True)
class TurnContext:
    """What has happened so far in a turn, for evaluating conditions: every successful move
    and retreat (from province to province), and the provinces whose units were dislodged."""

    moves: Mapping[str, str] = field(default_factory=dict)
    dislodged: frozenset[str] = frozenset()


def route_lines(lines: list[str], kinds: tuple[str, ...]) -> dict[str, list[str]]:
    """Split one power's order list for a combined turn by the sub-phase kind ("M", "R", "A")
    each line belongs to, keeping their order."""
    raise NotImplementedError


def check_filed_line(text: str, state: GameState, power: str, options: VariantOptions, sight: frozenset[str]) -> None:
    """Raise :class:`fogdip.engine.errors.InvalidOrder` if a filed-ahead or conditional line
    is malformed or names a foreign unit's space the power could not see (``sight``)."""
    raise NotImplementedError


def select_retreats(state: GameState, power: str, lines: list[str], context: TurnContext, rules: Rules) -> list[str]:
    """The retreat orders to use, for a retreat sub-phase: per dislodged unit, the first line
    whose conditions hold and that is legal."""
    raise NotImplementedError


def select_adjustments(
    state: GameState, power: str, lines: list[str], context: TurnContext, rules: Rules
) -> list[str]:
    """The adjustment orders to use: every line whose conditions hold, in the order filed."""
    raise NotImplementedError
