"""Diplomyopia's combat vision (seed 003, rule 3): what a unit learns during movement depends
on its order.

* A unit that holds (or is treated as holding) sees what happens in every adjacent province,
  whatever the terrain: a unit there *remains*, *leaves* or *is dislodged*, units *enter*, and
  conflicts end in a stand-off or with units failing to enter. It never learns an order, nor
  where an entering unit came from. It is told of every attack on itself and where it came
  from, not who made it.
* A moving unit learns only that it succeeded, or, when stood off, where the opposition came
  from (the target stayed empty) or how many units of whom opposed it (it did not).
* A needed support, and a convoying fleet the army reached, see what the army sees.

Everything here is computed from the :class:`~fogdip.engine.outcomes.Resolution` alone.

>>> from fogdip.engine import GameState, adjudicate, get_rules
>>> by_map = get_rules().with_options(legality="map")  # as in every fog game
>>> record = adjudicate(GameState.initial(), {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]}, by_map)
>>> orders, notices = combat_vision(record, "GERMANY")
>>> [n.text for n in notices if n.kind == "stood-off"]
['A MUN - BUR fails, stood off by FRANCE A PAR']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import cached_property
from typing import TypeAlias

from fogdip.engine.map import Map
from fogdip.engine.orders import Convoy, Move, Retreat, SupportHold, SupportMove
from fogdip.engine.outcomes import OrderResult, Outcome, Resolution
from fogdip.engine.units import Unit
from fogdip.fog.masked import SeenResult
from fogdip.fog.observation import Notice, NoticeValue, SeenOrder
from fogdip.fog.sight import KeptOn, fog_words, full_text, record_facts, seen_order

#: Outcomes of a move that got to its target's border (a convoy, if any, carried it there).
REACHED = (Outcome.MOVED, Outcome.BOUNCED)

#: A notice's kind, text and data, before the watchers' tag and ``seen_by`` are added.
Told: TypeAlias = tuple[str, str, tuple[tuple[str, NoticeValue], ...]]


class Battle:
    """Indexes over one movement phase's resolution, for the questions rule 3 asks."""

    def __init__(self, resolution: Resolution) -> None:
        self.resolution = resolution
        self.board = resolution.before.board
        self.orders: dict[str, OrderResult] = {r.unit.province: r for r in resolution.orders if r.unit is not None}
        #: Every move that reached each province's border, by target province.
        self.entrants: dict[str, list[OrderResult]] = {}
        for result in resolution.orders:
            if is_move(result) and result.outcome in REACHED:
                self.entrants.setdefault(self.target(result), []).append(result)
        self._told: dict[tuple[str, str], Told] = {}

    def target(self, result: OrderResult) -> str:
        order = result.order
        assert isinstance(order, (Move, Retreat))
        return self.board.province_of(order.target)

    @cached_property
    def entrant_powers(self) -> dict[str, frozenset[str]]:
        """The owners of the units that entered or tried to enter each province."""
        return {
            province: frozenset(e.unit.power for e in results if e.unit is not None)
            for province, results in self.entrants.items()
        }

    # What a unit watching a province sees there is the same for every power, but for the
    # watchers' tag and ``seen_by``: each notice's kind, text and data are worked out once,
    # without them (see _seen_in).

    def occupant_notice(self, province: str) -> Told:
        """What happens to the unit that stood in ``province``: it remains, leaves or is
        dislodged (a failed move or a support looks like a unit remaining)."""
        told = self._told.get(("occupant", province))
        if told is None:
            resolution = self.resolution
            unit = resolution.before.units[province]
            kind, verb = (
                ("leaves", "leaves")
                if province in resolution.moves
                else ("seen-dislodged", "is dislodged")
                if province in resolution.dislodged
                else ("remains", "remains")
            )
            # The data as Notice.make(owner=..., unit=..., province=...) has it: plain strings.
            data: tuple[tuple[str, NoticeValue], ...] = (
                ("owner", unit.power),
                ("unit", str(unit)),
                ("province", province),
            )
            told = self._told["occupant", province] = (kind, f"{unit.power} {unit} {verb}", data)
        return told

    def entry_notice(self, province: str) -> Told:
        """Which units entered ``province`` and which failed to, by owner and type only."""
        told = self._told.get(("entry", province))
        if told is None:
            notice = _entry_notice(self, province, self.entrants[province])
            told = self._told["entry", province] = (notice.kind, notice.text, notice.data)
        return told

    def occupied_after(self, province: str) -> bool:
        stayed = (
            province in self.resolution.before.units
            and province not in self.resolution.moves
            and province not in self.resolution.dislodged
        )
        return stayed or any(e.outcome == Outcome.MOVED for e in self.entrants.get(province, ()))

    def move_supporters(self, province: str) -> list[Unit]:
        """The supports counted (given and not cut) for the move of the unit in ``province``."""
        return self._supporters(province, SupportMove)

    def hold_supporters(self, province: str) -> list[Unit]:
        return self._supporters(province, SupportHold)

    def _supporters(self, province: str, kind: type[SupportMove] | type[SupportHold]) -> list[Unit]:
        out = []
        for supporter, supported in self.resolution.supports.items():
            result = self.orders.get(supporter)
            if (
                supported == province
                and result is not None
                and result.unit is not None
                and isinstance(result.order, kind)
            ):
                out.append(result.unit)
        return out

    def opposed(self, move: OrderResult) -> bool:
        """Whether a move that reached its target met any opposition there (the NOTE to rule
        3: only a support of an unopposed move is "not needed")."""
        if move.outcome != Outcome.MOVED:
            return True
        target = self.target(move)
        if len(self.entrants.get(target, ())) > 1:
            return True
        return target in self.resolution.before.units and target not in self.resolution.moves

    def direct(self, move: OrderResult) -> bool:
        """Whether a move went over land or sea without a convoy (a head-to-head battle needs two).

        A move to an adjacent province convoyed only by the rulebook's "intent" (no ``VIA``,
        no successful route) counts as direct here; the difference only shows in the count of
        a border stand-off's opponents."""
        order, unit = move.order, move.unit
        assert isinstance(order, Move) and unit is not None
        if order.via_convoy or unit.province in self.resolution.convoy_paths:
            return False
        return any(self.board.province_of(t) == self.target(move) for t in self.board.targets(unit.kind, unit.location))

    def head_to_head(self, move: OrderResult, occupant: OrderResult | None) -> bool:
        """Whether ``move`` and the move of its target's ``occupant`` meet head to head."""
        assert move.unit is not None
        return (
            occupant is not None
            and is_move(occupant)
            and self.target(occupant) == move.unit.province
            and self.direct(occupant)
            and self.direct(move)
        )

    def opposition(self, move: OrderResult) -> tuple[list[Unit], bool]:
        """The units that opposed a move that bounced, and whether it was stood off at the
        border (the target did not stay empty) rather than in the target.

        Opposition is every other unit that reached the target (but one beaten head to head by
        the unit from the target, which has no effect there) with its counted supports,
        and the target's occupant if it held its ground or won a head-to-head battle, with the
        supports that counted for it."""
        assert move.unit is not None
        origin, target = move.unit.province, self.target(move)
        dislodged = self.resolution.dislodged
        units: list[Unit] = []
        occupant = self.orders.get(target)
        for entrant in self.entrants.get(target, ()):
            assert entrant.unit is not None
            beaten = dislodged.get(entrant.unit.province) == target and self.head_to_head(entrant, occupant)
            if entrant is move or beaten:
                continue
            units.append(entrant.unit)
            units.extend(self.move_supporters(entrant.unit.province))
        won_head_to_head = False
        if occupant is not None and occupant.unit is not None:
            head_to_head = self.head_to_head(move, occupant)
            won_head_to_head = head_to_head and dislodged.get(origin) == target
            stayed = target not in self.resolution.moves and target not in dislodged
            if stayed or won_head_to_head:
                units.append(occupant.unit)
                if head_to_head:
                    units.extend(self.move_supporters(target))
                elif not is_move(occupant):
                    units.extend(self.hold_supporters(target))
        return units, self.occupied_after(target) or won_head_to_head

    def convoy_reached(self, fleet: OrderResult) -> bool:
        """Whether the army got to this convoying fleet: the fleet was not disrupted and a
        chain of undisrupted fleets convoying the same army links it to the army's province."""
        order = fleet.order
        if (
            fleet.unit is None
            or not isinstance(order, Convoy)
            or fleet.outcome not in (Outcome.CONVOYED, Outcome.CONVOY_UNUSED)
        ):
            return False
        army = order.army.province
        chain = {
            r.unit.province
            for r in self.resolution.orders
            if r.unit is not None
            and isinstance(r.order, Convoy)
            and r.order.army.province == army
            and r.outcome in (Outcome.CONVOYED, Outcome.CONVOY_UNUSED)
        }
        reached, frontier = set(), [army]
        while frontier:
            here = frontier.pop()
            for there in self.board.neighbours[here]:
                if there in chain and there not in reached:
                    reached.add(there)
                    frontier.append(there)
        return fleet.unit.province in reached


#: The battles of the records observed last: every power's combat vision reads the same one.
_battles: KeptOn[Resolution, Battle] = KeptOn(Battle)


def is_move(result: OrderResult) -> bool:
    return result.legal and isinstance(result.order, Move)


def combat_vision(resolution: Resolution, power: str) -> tuple[list[SeenOrder], list[Notice]]:
    """What ``power``'s units learn during one movement phase: foreign moves they shared in,
    and notices of what they saw."""
    battle = _battles(resolution)
    watchers: list[Unit] = []
    shared: dict[str, OrderResult] = {}
    for result in record_facts(resolution).orders_of(power):
        unit, order = result.unit, result.order
        if unit is None:
            continue
        if is_move(result):
            shared[unit.province] = result
        elif result.legal and isinstance(order, SupportMove) and _needed(battle, result):
            shared[order.supported.province] = battle.orders[order.supported.province]
        elif result.legal and isinstance(order, Convoy) and battle.convoy_reached(result):
            shared[order.army.province] = battle.orders[order.army.province]
        else:
            # Holds, supports to a hold, unneeded, void or cut supports, illegal orders and
            # convoys the army never reached: all see as a unit holding.
            watchers.append(unit)
    orders: list[SeenOrder] = []
    notices = watch_notices(battle, power, watchers)
    for province in sorted(shared):
        move = shared[province]
        if move.power != power:
            words = tuple(w for w in fog_words(move, battle.resolution) if w != "dislodged")
            orders.append(seen_order(move, SeenResult.told(words)))
        if move.outcome == Outcome.BOUNCED:
            notices.append(_stood_off(battle, power, move))
    return orders, notices


def _needed(battle: Battle, support: OrderResult) -> bool:
    """A support is needed when it was given (counted and not cut) to a move that reached an
    opposed target, whether or not it was decisive (the seed's NOTE)."""
    assert support.unit is not None
    supported = battle.resolution.supports.get(support.unit.province)
    move = battle.orders.get(supported) if supported is not None else None
    return move is not None and is_move(move) and move.outcome in REACHED and battle.opposed(move)


def _stood_off(battle: Battle, power: str, move: OrderResult) -> Notice:
    assert move.unit is not None
    units, border = battle.opposition(move)
    head = full_text(move) if move.power == power else f"{move.power} {full_text(move)}"
    helpers = sorted(str(u) for u in battle.move_supporters(move.unit.province) if u.power == power)
    if helpers:
        head += " S by " + " and ".join(helpers)
    if border:
        counts = sorted(Counter((u.power, u.kind) for u in units).items())
        return Notice.make(
            "stood-off-border",
            f"{head} fails, stood off at the border by {describe(battle.board, units)}",
            power=move.power,
            order=full_text(move),
            opposition=[(p, k, n) for (p, k), n in counts],
        )
    ranked = sorted(units, key=lambda u: (u.province, u.power))
    return Notice.make(
        "stood-off",
        f"{head} fails, stood off by {_and([f'{u.power} {u}' for u in ranked])}",
        power=move.power,
        order=full_text(move),
        opposition=[(u.power, u.kind, u.location) for u in ranked],
    )


def watch_notices(battle: Battle, power: str, watchers: Iterable[Unit]) -> list[Notice]:
    """What units holding see: the neighbouring provinces, and the attacks on themselves."""
    seen_by: dict[str, list[str]] = {}
    out: list[Notice] = []
    neighbours = battle.board.neighbours
    for watcher in watchers:
        name = str(watcher)
        for province in neighbours[watcher.province]:
            observers = seen_by.get(province)
            if observers is None:
                seen_by[province] = [name]
            else:
                observers.append(name)
        for attack in battle.entrants.get(watcher.province, ()):
            assert attack.unit is not None
            # The attack that dislodged it is told by the dislodgement notice, with its origin.
            if attack.power != power and attack.outcome != Outcome.MOVED:
                origin = attack.unit.province
                out.append(
                    Notice.make(
                        "attacked",
                        f"{watcher} attacked from {origin}",
                        unit=str(watcher),
                        attacked_from=origin,
                    )
                )
    units, entrants = battle.resolution.before.units, battle.entrant_powers
    for province, observers in sorted(seen_by.items()):
        told = []
        occupant = units.get(province)
        if occupant is not None and occupant.power != power:
            told.append(battle.occupant_notice(province))
        owners = entrants.get(province)
        if owners and (len(owners) > 1 or power not in owners):  # a foreign unit among them
            told.append(battle.entry_notice(province))
        if told:
            out.extend(_seen_in(told, observers))
    return out


def _seen_in(told: list[Told], observers: list[str]) -> list[Notice]:
    """Notices as seen by the power's ``observers``: the tag added to the text and
    ``seen_by`` to the data, where :meth:`Notice.make` would have put them."""
    seen_by = tuple(sorted(observers))
    tag = f" (seen by {', '.join(seen_by)})"
    return [Notice(kind, text + tag, (*data, ("seen_by", seen_by))) for kind, text, data in told]


def _entry_notice(battle: Battle, province: str, results: list[OrderResult]) -> Notice:
    entered = [e.unit for e in results if e.unit is not None and e.outcome == Outcome.MOVED]
    failed = [e.unit for e in results if e.unit is not None and e.outcome != Outcome.MOVED]
    data: dict[str, object] = dict(province=province, entered=_identities(entered), failed=_identities(failed))
    if not failed:
        return Notice.make("enters", f"{_capital(describe(battle.board, entered))} enters {province}", **data)
    fail = "fails" if len(failed) == 1 else "fail"
    if entered:
        outcome, what = (
            "entered",
            f"{describe(battle.board, entered)} enters; {describe(battle.board, failed)} {fail} to enter",
        )
    elif len(failed) > 1 and not battle.occupied_after(province):
        outcome, what = "stand-off", f"a stand-off between {describe(battle.board, failed)}"
    else:
        outcome, what = "repelled", f"{describe(battle.board, failed)} {fail} to enter"
    return Notice.make("conflict", f"Conflict in {province}: {what}", outcome=outcome, **data)


def _identities(units: list[Unit]) -> list[tuple[str, str]]:
    """Owners and types only, sorted, so the list says nothing of where the units came from."""
    return sorted((u.power, u.kind) for u in units)


def describe(board: Map, units: Iterable[Unit]) -> str:
    """Units by owner and type only: ``an English fleet and 2 Italian armies``.

    >>> from fogdip.engine import standard_map
    >>> describe(standard_map(), [Unit("ITALY", "A", "PIE"), Unit("ENGLAND", "F", "LYO"), Unit("ITALY", "A", "TYR")])
    'an English fleet and 2 Italian armies'
    """
    counts = Counter((adjective(board, u.power), u.kind) for u in units)
    parts = []
    for (adj, kind), count in sorted(counts.items()):
        noun = "army" if kind == "A" else "fleet"
        if count == 1:
            parts.append(f"{'an' if adj[:1] in 'AEIOU' else 'a'} {adj} {noun}")
        else:
            parts.append(f"{count} {adj} {'armies' if kind == 'A' else 'fleets'}")
    return _and(parts)


def adjective(board: Map, power: str) -> str:
    info = board.power_info.get(power)
    return info.adjective if info is not None else power.title()


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _and(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return f"{', '.join(parts[:-1])} and {parts[-1]}"
