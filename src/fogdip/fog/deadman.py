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
>>> from fogdip.fog.report import order_line
>>> seen = DeadmanRules().observe(record, "FRANCE")
>>> [order_line(order, "FRANCE") for order in seen.orders]
['A MAR H (ok)', 'A PAR - BUR (fails)', 'F BRE H (ok)']
>>> sorted(str(unit) for unit in seen.units), sorted(seen.visible)
(['A MAR', 'A PAR', 'F BRE'], ['BRE', 'MAR', 'PAR'])

A deadman order is shown as the engine judged it by the map alone (normalised where legal, as
written where not: either way from what the power wrote, its own unit and the map), with the
units it names that are not the power's own by province only.

>>> record = adjudicate(GameState.initial(), {"FRANCE": ["A MAR S A MUN - BUR"], "GERMANY": ["A MUN - BUR"]}, by_map)
>>> [order_line(order, "FRANCE") for order in DeadmanRules().observe(record, "FRANCE").orders if order.province == "MAR"]
['A MAR S MUN - BUR (ok)']
"""

from __future__ import annotations

from dataclasses import dataclass

from fogdip.engine.orders import Convoy, Move, Order, Retreat, SupportHold, SupportMove, UnitRef
from fogdip.engine.outcomes import OrderResult, Resolution
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit
from fogdip.fog.masked import FAILED, SeenResult
from fogdip.fog.observation import SeenOrder, SeenUnit
from fogdip.fog.rules import FogOptions, FogRules
from fogdip.fog.sight import (
    ResultLevel,
    own_units,
    record_facts,
    revealed_result,
    seen_order,
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
    blind = True
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
            seen_order(
                result._replace(order=blind_order(result.order, result.unit, before, own)),
                outcome(result, self.level, resolution),
            )
            for result in record_facts(resolution).orders_of(power)
        ]


def outcome(result: OrderResult, level: ResultLevel, resolution: Resolution) -> SeenResult | None:
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
    >>> str(held.outcome), outcome(held, "full", record).words, outcome(held, "success", record) == FAILED
    ('held', ('dislodged',), True)
    """
    if level == "success" and "dislodged" in result.results:
        return FAILED
    return revealed_result(result, level, resolution)


def blind_order(order: Order, unit: Unit | None, before: GameState, own: dict[str, Unit]) -> Order:
    """One of the power's own orders as the engine judged it by the map alone (normalised
    where legal, as written where not), with the units it names written from the power's own
    knowledge: its own units as they stand, any other by province only. In a retreat phase a
    move is written as the retreat it stands for.

    ``own`` maps provinces to the power's units before the phase.
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
        return Retreat(head, order.target)
    if isinstance(order, Move):
        return Move(head, order.target, order.via_convoy)
    if isinstance(order, SupportHold):
        return SupportHold(head, ref(order.supported))
    if isinstance(order, SupportMove):
        supported = ref(order.supported)
        # A coast is kept only for a supported fleet of one's own: of any other unit the
        # power knows no more than the province it named.
        target = order.target if supported.kind == "F" else board.province_of(order.target)
        return SupportMove(head, supported, target)
    if isinstance(order, Convoy):
        return Convoy(head, ref(order.army), order.target)
    return order
