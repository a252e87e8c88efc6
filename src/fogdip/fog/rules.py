"""The fog rule-set framework: a :class:`FogRules` subclass per variant overrides a few hooks.

A rule set answers, for one power and one adjudicated phase: which provinces it sees at the
end of the phase, which units it sees there and how much of each, which orders it learns and
how much of each, which centre owners it knows, and what it is told besides. It reads the
engine's :class:`~fogdip.engine.outcomes.Resolution` and nothing else, plus the
:class:`Events` a variant's extra orders produced (espionage, peeks, announcements).

A rule set that hides anything reads only records judged by the map alone
(``Rules.legality="map"``, which every fog preset sets): under the DATC's whole-board
legality, whether an order is legal, and so its result words and even its outcome, depends on
units its power may not see, and no observation made afterwards could take that back.

>>> from fogdip.engine import GameState, adjudicate, get_rules
>>> from fogdip.fog import get_fog_rules
>>> record = adjudicate(GameState.initial(), {"FRANCE": ["A PAR - BUR"]})
>>> from fogdip.fog.report import order_line
>>> seen = get_fog_rules("standard").observe(record, "GERMANY")
>>> [order_line(o, "GERMANY") for o in seen.orders if o.province == "PAR"]
['FRANCE: A PAR - BUR (ok)']
>>> get_fog_rules("fog-of-war").observe(record, "GERMANY")
Traceback (most recent call last):
...
fogdip.engine.errors.FogdipError: fog rules 'fog-of-war' need a record judged by the map alone: adjudicate with rules.with_options(legality="map")
>>> fogged = adjudicate(GameState.initial(), {"FRANCE": ["A PAR - BUR"]}, get_rules().with_options(legality="map"))
>>> [order_line(o, "FRANCE") for o in get_fog_rules("fog-of-war").observe(fogged, "FRANCE").orders]
['A MAR H (ok)', 'A PAR - BUR (ok)', 'F BRE H (ok)']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, ClassVar

from fogdip.engine.errors import FogdipError
from fogdip.engine.map import UnitKind
from fogdip.engine.outcomes import OrderResult, Outcome, RejectedOrder, Resolution
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit
from fogdip.fog.observation import Notice, Observation, SeenOrder, SeenUnit
from fogdip.fog.sight import KeptOn, own_units, record_facts, state_facts


@dataclass(frozen=True)
class Events:
    """What a variant's own orders and schedule add to each power's observation.

    Keys are power names. ``orders`` replace or add the power's own orders (an order replaces
    the power's order for the same unit; a peek, which commands no unit, is added);
    ``units`` are extra sightings (espionage); ``notices`` are appended.
    """

    orders: Mapping[str, tuple[SeenOrder, ...]] = field(default_factory=dict)
    units: Mapping[str, tuple[SeenUnit, ...]] = field(default_factory=dict)
    notices: Mapping[str, tuple[Notice, ...]] = field(default_factory=dict)


NO_EVENTS = Events(MappingProxyType({}), MappingProxyType({}), MappingProxyType({}))


@dataclass(frozen=True)
class FogOptions:
    """Options every rule set understands. Subclasses add their own fields."""


class FogRules:
    """Base rule set: a power sees only its own units, orders and centres.

    Subclasses set the class attributes and override the hooks
    :meth:`visible_provinces`, :meth:`units_seen`, :meth:`orders_seen`,
    :meth:`centers_known` and :meth:`notices` (and :meth:`sees_unit_at`, where sight is
    finer than whole provinces).
    """

    #: Preset name, as in a phase document's ``"variant"``.
    name: ClassVar[str] = ""
    #: The seed rule text this rule set implements (``"000"`` ... ``"004"``), if any.
    seed: ClassVar[str | None] = None
    title: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    Options: ClassVar[type[FogOptions]] = FogOptions
    #: Observe only records judged by the map alone (``Rules.legality="map"``), so that nothing
    #: shown depends on the engine's whole-board legality. Off only for full information.
    needs_map_legality: ClassVar[bool] = True
    #: Every unit sees every province next to it, whatever the terrain, with the owners of the
    #: units there: two units side by side see each other, so which powers stand next to which
    #: is known alike to both (adjacency-limited press is allowed only then).
    sees_every_neighbour: ClassVar[bool] = False
    #: The game is played blind: a power's own sight never shows a foreign unit (only what
    #: its espionage and peeks bring back), so everything it believes of the others is guessed.
    blind: ClassVar[bool] = False

    def __init__(self, options: FogOptions | None = None, **overrides: Any) -> None:
        base = options if options is not None else self.Options()
        if overrides:
            known = {f.name for f in dataclasses.fields(base)}
            unknown = sorted(set(overrides) - known)
            if unknown:
                raise ValueError(
                    f"unknown option {', '.join(unknown)} for fog rules {self.name!r}; "
                    f"known options: {', '.join(sorted(known)) or 'none'}"
                )
            base = dataclasses.replace(base, **overrides)
        self.options = base

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.options!r})"

    # --- the two entry points --------------------------------------------------------------

    def initial(self, state: GameState, power: str) -> Observation:
        """What ``power`` sees before the first phase is played."""
        visible = self.visible_provinces(state, power)
        return Observation.build(
            variant=self.name,
            power=power,
            phase=str(state.phase),
            next_phase=str(state.phase),
            visible=visible,
            units=self.units_seen(state, power, visible),
            orders=(),
            centers=self.centers_known(state, power, visible),
            notices=(),
            opening=True,
        )

    def observe(self, resolution: Resolution, power: str, events: Events = NO_EVENTS) -> Observation:
        """What ``power`` sees and learns from one adjudicated phase."""
        self.check_record(resolution)
        after = resolution.after
        visible = self.visible_provinces(after, power)
        units = list(self.units_seen(after, power, visible))
        units.extend(events.units.get(power, ()))
        replacing = events.orders.get(power, ())
        orders = self.orders_seen(resolution, power)
        if replacing:
            replaced = {order.province for order in replacing if order.province is not None}
            orders = [o for o in orders if not (o.power == power and o.province in replaced)]
            orders.extend(replacing)
        notices = list(self.notices(resolution, power))
        notices.extend(events.notices.get(power, ()))
        return Observation.build(
            variant=self.name,
            power=power,
            phase=resolution.phase,
            next_phase=_next_phase(after),
            visible=visible,
            units=_merge_units(units),
            orders=orders,
            centers=self.centers_known(after, power, visible),
            notices=notices,
            order_keys=record_facts(resolution).order_keys,
        )

    def check_record(self, resolution: Resolution) -> None:
        """Refuse a record these rules cannot show without a leak (see the module's text)."""
        if self.needs_map_legality and resolution.rules.legality != "map":
            raise FogdipError(
                f"fog rules {self.name!r} need a record judged by the map alone: "
                'adjudicate with rules.with_options(legality="map")'
            )

    def observe_all(self, resolution: Resolution, events: Events = NO_EVENTS) -> dict[str, Observation]:
        return {power: self.observe(resolution, power, events) for power in resolution.before.powers}

    # --- hooks ------------------------------------------------------------------------------

    def visible_provinces(self, state: GameState, power: str) -> frozenset[str]:
        """Provinces the power sees at the end of a phase. Default: where its units stand."""
        return frozenset(unit.province for unit in own_units(state, power))

    def sees_unit_at(self, state: GameState, power: str, kind: UnitKind, location: str) -> bool:
        """Whether ``power`` would see a foreign unit of ``kind`` standing on ``location`` (a
        coast, where it has one) in ``state``: a conditional order may name only such places
        (seed 001). Default: the location's province is visible."""
        return state.board.province_of(location) in self.visible_provinces(state, power)

    def units_seen(self, state: GameState, power: str, visible: frozenset[str]) -> list[SeenUnit]:
        """Units seen at the end of a phase. Default: the power's own, and every unit in a
        visible province, with owner and type."""
        return [seen for owner, province, seen in state_facts(state).seen if owner == power or province in visible]

    def orders_seen(self, resolution: Resolution, power: str) -> list[SeenOrder]:
        """Orders the power learns. Default: its own, with their full results."""
        return own_orders(resolution, power)

    def centers_known(self, state: GameState, power: str, visible: frozenset[str]) -> dict[str, str]:
        """Centre owners the power knows. Default: its own centres."""
        return {center: owner for center, owner in state.centers.items() if owner == power}

    def notices(self, resolution: Resolution, power: str) -> list[Notice]:
        """What the power is told besides. Default: its rejected orders, its dislodged units,
        and the centres it gained and lost."""
        return own_notices(resolution, power, attack_origin=False)


def own_orders(resolution: Resolution, power: str) -> list[SeenOrder]:
    """The power's own orders in canonical notation, each with its full result."""
    return list(record_facts(resolution).own_orders.get(power, ()))


def rejected_notice(rejected: RejectedOrder, what: str = "Order") -> Notice:
    """Telling a power that one of its orders (or its setup) was not accepted, and why."""
    return Notice.make(
        "rejected",
        f"{what} {rejected.text!r} was not accepted: {rejected.reason}",
        order=rejected.text,
        reason=str(rejected.reason),
    )


def own_notices(resolution: Resolution, power: str, *, attack_origin: bool) -> list[Notice]:
    """Notices every power gets about its own affairs.

    ``attack_origin`` says whether a dislodgement notice names the province the attack came
    from (the rule sets differ on this)."""
    return list(_affairs(resolution)[attack_origin].get(power, ()))


def _own_affairs(resolution: Resolution) -> dict[bool, dict[str, tuple[Notice, ...]]]:
    """Every power's :func:`own_notices`, with and without attack origins: one pass over the
    record serves all seven observations."""
    both: dict[bool, dict[str, list[Notice]]] = {False: {}, True: {}}

    def tell(power: str, notice: Notice, *, attack_origin: bool | None = None) -> None:
        for origin in (False, True) if attack_origin is None else (attack_origin,):
            both[origin].setdefault(power, []).append(notice)

    for rejected in resolution.rejected:
        tell(rejected.power, rejected_notice(rejected))
    for province, origin in resolution.dislodged.items():
        unit = _dislodged_unit(resolution, province)
        if unit is None:
            continue
        tell(
            unit.power,
            Notice.make(
                "dislodged",
                f"Your {unit} was dislodged by an attack from {origin}",
                unit=str(unit),
                province=province,
                attacked_from=origin,
            ),
            attack_origin=True,
        )
        tell(
            unit.power,
            Notice.make("dislodged", f"Your {unit} was dislodged", unit=str(unit), province=province),
            attack_origin=False,
        )
    for unit in resolution.disbanded:  # only under board legality: no fog rule set reads those
        tell(
            unit.power,
            Notice.make(
                "disbanded",
                f"Your {unit} had nowhere to retreat and was disbanded",
                unit=str(unit),
                province=unit.province,
            ),
        )
    if resolution.before.phase.kind == "R":
        for result in resolution.orders:
            notice = _retreat_failed(result)
            if notice is not None:
                tell(result.power, notice)
    before, after = resolution.before.centers, resolution.after.centers
    for center in sorted(set(before) | set(after)):
        was, now = before.get(center), after.get(center)
        if was == now:
            continue
        if now is not None:
            tell(now, Notice.make("center-gained", f"You gained {center}", center=center))
        if was is not None:
            tell(was, Notice.make("center-lost", f"You lost {center}", center=center))
    return {origin: {power: tuple(notices) for power, notices in by_power.items()} for origin, by_power in both.items()}


_affairs: KeptOn[Resolution, dict[bool, dict[str, tuple[Notice, ...]]]] = KeptOn(_own_affairs)


def _retreat_failed(result: OrderResult) -> Notice | None:
    """Telling a power that its unit was disbanded in a retreat phase, and why, when it did
    not ask for it: it had no retreat order, its retreat bounced, or the order was illegal.
    A bounce is not explained further: whether the place was held, left empty by a
    stand-off, where the attack came from, or sought by another retreat may all be out of the
    power's sight. An illegal retreat's reason is judged by the map alone in every fog game.

    >>> from fogdip.engine import GameState, Phase, Unit, adjudicate, get_rules
    >>> from fogdip.engine.state import Dislodged
    >>> bur = Unit("FRANCE", "A", "BUR")
    >>> state = GameState.initial().with_changes(phase=Phase.parse("S1901R"), dislodged={"BUR": Dislodged(bur, "MUN", ("PAR",))})
    >>> record = adjudicate(state, {}, get_rules().with_options(legality="map"))
    >>> _retreat_failed(record.result_of("BUR")).text
    'Your A BUR was disbanded: it had no retreat order'
    """
    unit = result.unit
    if unit is None:
        return None
    if result.outcome is Outcome.DISBANDED and result.defaulted:
        why, text = "no-order", "it had no retreat order"
    elif result.outcome is Outcome.BOUNCED:
        target = getattr(result.order, "target", "")
        why = "bounced"
        text = f"its retreat to {target} bounced (the place was not free, or another unit retreated there too)"
    elif result.outcome is Outcome.ILLEGAL:
        reason = result.reason
        said = f": {replace(reason, next=None)}" if reason is not None else ""
        why, text = "illegal", f"its order {result.text or str(result.order)!r} could not be carried out{said}"
    else:
        return None
    return Notice.make(
        "disbanded",
        f"Your {unit} was disbanded: {text}",
        unit=str(unit),
        province=unit.province,
        why=why,
    )


def _dislodged_unit(resolution: Resolution, province: str) -> Unit | None:
    dislodged = resolution.after.dislodged.get(province)
    if dislodged is not None:
        return dislodged.unit
    return resolution.before.units.get(province)


def _merge_units(units: list[SeenUnit]) -> list[SeenUnit]:
    """Sightings of the same unit from two sources (sight and espionage, say) become one
    that reveals whatever either revealed."""
    merged: dict[tuple[str, bool], SeenUnit] = {}
    for unit in units:
        key = (unit.location.partition("/")[0], unit.dislodged)  # its province
        current = merged.get(key)
        if current is None:
            merged[key] = unit
            continue
        kind = current.kind or unit.kind
        location = current.location if current.kind else unit.location
        merged[key] = SeenUnit(location, current.owner or unit.owner, kind, unit.dislodged)
    return list(merged.values())


def _next_phase(state: GameState) -> str:
    return "COMPLETED" if state.completed else str(state.phase)
