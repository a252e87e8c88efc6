"""Deadman Diplomacy (seed 002, Bob Arnett, rd05): blind play.

    "Nobody is ever sure where the other scoundrel's units are because all he sees in terms
    of orders are his/her own orders (succeed or fail) and everybody's press."

A power sees its own units, its own orders with their success or failure, its own centres,
the centres it gained and lost ("Each Fall you will be informed as to what centers you have
lost and gained"), and its own dislodgements, without the attacker. Everything else it
learns comes from its Espionage and Peek-a-Sneak orders, which the variants layer turns into
:class:`~fogdip.fog.rules.Events`; this module only passes them through.

``visible`` is the set of provinces where the power's own units stand, not counting a unit
dislodged and awaiting its retreat: its province now holds the unseen attacker.

>>> from fogdip.engine import GameState, adjudicate, get_rules
>>> by_map = get_rules().with_options(legality="map")  # as in every fog game
>>> record = adjudicate(GameState.initial(), {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]}, by_map)
>>> seen = DeadmanRules().observe(record, "FRANCE")
>>> [str(order.text) + " " + order.mark for order in seen.orders]
['A MAR H (ok)', 'A PAR - BUR (fails)', 'F BRE H (ok)']
>>> sorted(str(unit) for unit in seen.units), sorted(seen.visible)
(['A MAR', 'A PAR', 'F BRE'], ['BRE', 'MAR', 'PAR'])

A deadman order is written from what the power wrote, its own units and the map alone, in one
form whether it was legal or not: units that are not the power's own by province only.

>>> record = adjudicate(GameState.initial(), {"FRANCE": ["A MAR S MUN - BUR"], "GERMANY": ["A MUN - BUR"]}, by_map)
>>> [order.text for order in DeadmanRules().observe(record, "FRANCE").orders if "MAR" in order.text]
['A MAR S MUN - BUR']
"""

from __future__ import annotations

from dataclasses import dataclass

from fogdip.engine.map import Map
from fogdip.engine.orders import Convoy, Move, Order, Retreat, SupportHold, SupportMove, UnitRef
from fogdip.engine.outcomes import OrderResult, Resolution
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit
from fogdip.fog.observation import SeenOrder, SeenUnit
from fogdip.fog.rules import FogOptions, FogRules
from fogdip.fog.sight import (
    ResultLevel,
    full_text,
    needs_convoy,
    own_units,
    record_facts,
    revealed_result,
    seen_unit,
    state_facts,
)


@dataclass(frozen=True)
class DeadmanOptions(FogOptions):
    """``results``: how much of its own orders' outcomes a power learns. The seed says
    "succeed or fail" and marks a failed order by underlining it, so ``"success"`` is the
    default; ``"full"`` gives the result words (``bounce``, ``cut``, ``void``...), which
    tell a little about foreign units (a ``cut`` means someone attacked)."""

    results: ResultLevel = "success"


class DeadmanRules(FogRules):
    """Blind: a power sees only its own units, orders, centres and dislodgements, plus what
    its espionage and peeks bring back (through :class:`~fogdip.fog.rules.Events`)."""

    name = "deadman"
    seed = "002"
    title = "Deadman Diplomacy"
    summary = "blind: only your own units, orders (succeed or fail) and centres; espionage and peeks"
    Options = DeadmanOptions

    @property
    def level(self) -> ResultLevel:
        assert isinstance(self.options, DeadmanOptions)
        return self.options.results

    def visible_provinces(self, state: GameState, power: str) -> frozenset[str]:
        return frozenset(unit.province for unit in state_facts(state).units.get(power, ()))

    def units_seen(self, state: GameState, power: str, visible: frozenset[str]) -> list[SeenUnit]:
        # Only one's own: the base also shows foreign units in visible provinces.
        facts = state_facts(state)
        out = [seen_unit(unit) for unit in facts.units.get(power, ())]
        out.extend(seen_unit(unit, True) for unit in facts.dislodged.get(power, ()))
        return out

    def orders_seen(self, resolution: Resolution, power: str) -> list[SeenOrder]:
        before = resolution.before
        own = {unit.province: unit for unit in own_units(before, power)}
        return [
            SeenOrder(power, blind_text(result, before, own), outcome(result, self.level, resolution))
            for result in record_facts(resolution).orders_of(power)
        ]


def outcome(result: OrderResult, level: ResultLevel, resolution: Resolution) -> tuple[str, ...] | None:
    """What the power learns of its order's outcome. At ``"success"`` a unit dislodged while
    holding failed, though the engine counts its hold as carried out: the seed's GM would
    underline it.

    >>> from fogdip.engine import adjudicate, get_rules
    >>> by_map = get_rules().with_options(legality="map")  # as in every fog game
    >>> from fogdip.documents import state_from_document
    >>> state, _, _ = state_from_document({"phase": "S1901M", "centers": {},
    ...     "units": {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH"]}})
    >>> record = adjudicate(state, {"GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR"]}, by_map)
    >>> held = record.result_of("BUR")
    >>> str(held.outcome), outcome(held, "full", record), outcome(held, "success", record)
    ('held', ('dislodged',), ('fails',))
    """
    if level == "success" and "dislodged" in result.results:
        return ("fails",)
    return revealed_result(result, level, resolution)


def blind_text(result: OrderResult, before: GameState, own: dict[str, Unit]) -> str:
    """One of the power's own orders in standard notation, written from what the power wrote,
    its own units and the map only.

    ``own`` maps provinces to the power's units before the phase. Units the order names that
    are not the power's own are written by province only (``A MAR S MUN - BUR``).
    """
    return full_text(result._replace(order=blind_order(result.order, result.unit, before, own)))


def blind_order(order: Order, unit: Unit | None, before: GameState, own: dict[str, Unit]) -> Order:
    """The order in a form that is the same whether the engine normalised it (it was legal)
    or kept it as written (it was not).

    The engine normalises a legal order: the ordered unit's type and coast, an army's ``VIA``,
    a retreat's form; under legality by the map alone nothing else. Written by this function,
    each of these, and the units the order names, depends only on what was written, the power's
    own units and the map.
    """
    board = before.board

    def ref(written: UnitRef) -> UnitRef:
        province = board.province_of(written.location)
        mine = own.get(province)
        return UnitRef(mine.kind, mine.location) if mine is not None else UnitRef(None, province)

    if unit is None or unit.province not in own:
        return order  # builds and waives name no other unit
    head = UnitRef(unit.kind, unit.location)
    if isinstance(order, (Move, Retreat)) and before.phase.kind == "R":
        return Retreat(head, _target(board, unit, order.target))
    if isinstance(order, Move):
        return Move(head, _target(board, unit, order.target), _via(board, unit, order))
    if isinstance(order, SupportHold):
        return SupportHold(head, ref(order.supported))
    if isinstance(order, SupportMove):
        supported = ref(order.supported)
        # Only a supported fleet of one's own keeps a coast: whether the engine kept the
        # written coast depends on the supported unit's type.
        own_fleet = supported.kind == "F"
        target = order.target if own_fleet else board.province_of(order.target)
        return SupportMove(head, supported, target)
    if isinstance(order, Convoy):
        return Convoy(head, ref(order.army), board.province_of(order.target))
    return order


def _target(board: Map, unit: Unit, written: str) -> str:
    """Where a move or retreat goes: a province for an army; for a fleet, the written
    location with the coast filled in where the map leaves only one (as the engine does)."""
    province = board.province_of(written)
    if unit.kind == "A":
        return province
    coasts = board.coasts(province)
    if not coasts or written in coasts:
        return written
    reachable = [coast for coast in coasts if coast in board.fleet_targets(unit.location)]
    return reachable[0] if len(reachable) == 1 else written


def _via(board: Map, unit: Unit, order: Move) -> bool:
    """``VIA`` as written, and always where only a convoy could make the move (the engine adds
    it where a chain of seas links the two ends, and leaves an impossible move as written)."""
    return order.via_convoy or needs_convoy(board, unit.kind, unit.location, order.target)
