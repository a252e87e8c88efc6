"""Phase documents: one phase of a game as plain JSON-ready data, and its result.

A *phase document* describes a position and the orders given in it::

    {"variant": "standard", "rules": "2023", "phase": "S1901M",
     "units": {"ENGLAND": ["F NTH", "A LVP", "*F LON"]},
     "retreats": {"ENGLAND": {"F LON": ["WAL", "YOR"]}},
     "centers": {"ENGLAND": ["LON", "LVP", "EDI"]},
     "homes": {"ENGLAND": ["EDI", "LON", "LVP"]},
     "orders": {"ENGLAND": ["F NTH - PIC"]}}

``variant``, ``rules``, ``retreats``, ``homes`` and ``orders`` are optional; ``*`` marks a
dislodged unit (retreat phases only). ``rules`` is an edition name (``"2000"`` or ``"2023"``,
the default) or an object such as ``{"edition": "2000", "adjacent_convoy_intent": "explicit"}``.
Unknown keys are ignored; everything else is checked, and a bad document raises
:class:`~fogdip.engine.errors.InvalidPosition` with a one-line message saying what to fix.

Everything here is a pure function: no files, no printing.

Adjudicating a document, under its variant's schedule and fog, is :mod:`fogdip.play`'s job.

>>> state, rules, orders = state_from_document({"phase": "S1901M", "units": {"FRANCE": ["A PAR"]},
...     "centers": {"FRANCE": ["PAR"]}, "orders": {"FRANCE": ["A PAR - BUR"]}})
>>> state.unit_at("PAR"), orders
(Unit('FRANCE', 'A', 'PAR'), {'FRANCE': ['A PAR - BUR']})
>>> state_from_document({"phase": "W1901M", "units": {}, "centers": {}})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
fogdip.engine.errors.InvalidPosition: phase 'W1901M' does not exist: adjustments are held in Winter (W...A), ...
"""

from __future__ import annotations

import dataclasses
import re
import typing
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from fogdip.engine.errors import FogdipError, InvalidPosition, MapError, PhaseError
from fogdip.engine.map import Map, UnitKind, get_map
from fogdip.engine.outcomes import OrderResult, Outcome, Resolution
from fogdip.engine.rules import EDITIONS, Rules, get_rules
from fogdip.engine.state import Dislodged, GameState
from fogdip.engine.units import Phase, Unit
from fogdip.variants.options import PRESETS

__all__ = [
    "VARIANTS",
    "document_from_state",
    "result_document",
    "rules_from_spec",
    "rules_to_spec",
    "state_from_document",
]

#: Variant name to the map it is played on.
#: Preset name to the map it is played on.
VARIANTS: Mapping[str, str] = MappingProxyType({name: options.map for name, options in PRESETS.items()})
COMPLETED = "COMPLETED"

_UNIT = re.compile(r"^(\*?)\s*([AF])\s+(\S.*?)\s*$")
_KIND_WORDS = MappingProxyType({"A": "an army", "F": "a fleet"})
Orders = dict[str, list[str]]


def _fail(message: str) -> InvalidPosition:
    return InvalidPosition(" ".join(message.split()))


def _type_name(value: object) -> str:
    names = {
        dict: "an object",
        list: "a list",
        str: "a string",
        bool: "true/false",
        int: "a number",
        float: "a number",
        type(None): "null",
    }
    return names.get(type(value), type(value).__name__)


def _mapping(value: object, what: str, example: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(f"{what} must be an object such as {example}, not {_type_name(value)}")
    for key in value:
        if not isinstance(key, str):
            raise _fail(f"{what} has a key {key!r} that is not a string")
    return value


def _strings(value: object, what: str, example: str) -> list[str]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise _fail(f"{what} must be a list of strings such as {example}, not {_type_name(value)}")
    for item in value:
        if not isinstance(item, str):
            raise _fail(f"{what} must hold only strings, not {_type_name(item)} ({item!r})")
    return list(value)


# --- rules -------------------------------------------------------------------------------------


def _rule_options() -> dict[str, Any]:
    hints = typing.get_type_hints(Rules)
    return {f.name: hints[f.name] for f in dataclasses.fields(Rules) if f.name != "edition"}


def rules_from_spec(spec: object) -> Rules:
    """Rules from a document's ``rules`` value: ``None``, an edition name, or an object.

    >>> rules_from_spec({"edition": "2000", "adjacent_convoy_intent": "explicit"}).adjacent_convoy_intent
    'explicit'
    >>> rules_from_spec("1971")
    Traceback (most recent call last):
    ...
    fogdip.engine.errors.InvalidPosition: unknown rule edition '1971': use one of 2000, 2023
    """
    if spec is None:
        return get_rules()
    if isinstance(spec, str):
        return _edition(spec)
    if not isinstance(spec, Mapping):
        raise _fail(f'"rules" must be an edition name such as "2023" or an object, not {_type_name(spec)} ({spec!r})')
    edition = spec.get("edition")
    if edition is not None and not isinstance(edition, str):
        raise _fail(f'"rules"."edition" must be a string such as "2000", not {_type_name(edition)}')
    rules = _edition(edition)
    options = _rule_options()
    changes: dict[str, object] = {}
    for name, value in spec.items():
        if name == "edition":
            continue
        if name not in options:
            raise _fail(f'unknown rule option {name!r} in "rules": known options are {", ".join(options)}')
        changes[name] = _rule_value(name, value, options[name])
    return rules.with_options(**changes) if changes else rules


def _edition(name: str | None) -> Rules:
    try:
        return get_rules(name)
    except FogdipError as exc:
        raise _fail(str(exc)) from None


def _rule_value(name: str, value: object, hint: Any) -> object:
    args = typing.get_args(hint)
    if hint is bool:
        if isinstance(value, bool):
            return value
        raise _fail(f"rule option {name!r} must be true or false, not {value!r}")
    if typing.get_origin(hint) is typing.Literal:
        if value in args:
            return value
        raise _fail(f"rule option {name!r} must be one of {', '.join(map(repr, args))}, not {value!r}")
    if int in args and type(None) in args:
        if value is None or (isinstance(value, int) and not isinstance(value, bool) and value > 0):
            return value
        raise _fail(f"rule option {name!r} must be a positive whole number or null, not {value!r}")
    raise _fail(f"rule option {name!r} cannot be set in a document")  # pragma: no cover


def rules_to_spec(rules: Rules) -> str | dict[str, Any]:
    """The ``rules`` value of a document: the edition name, or an object when options differ.

    >>> rules_to_spec(get_rules("2000"))
    '2000'
    >>> rules_to_spec(get_rules("2000").with_options(adjacent_convoy_intent="explicit"))
    {'edition': '2000', 'adjacent_convoy_intent': 'explicit'}
    """
    base = EDITIONS.get(rules.edition)
    if base is None:
        raise FogdipError(f"unknown rule edition {rules.edition!r}: use one of {', '.join(sorted(EDITIONS))}")
    if rules == base:
        return rules.edition
    spec: dict[str, Any] = {"edition": rules.edition}
    for name in _rule_options():
        value = getattr(rules, name)
        if value != getattr(base, name):
            spec[name] = value
    return spec


# --- reading a document ------------------------------------------------------------------------


def state_from_document(doc: Mapping[str, Any]) -> tuple[GameState, Rules, Orders]:
    """Read and check a phase document: the position, the rules and the orders (by power).

    >>> state, rules, orders = state_from_document({"phase": "F1901R", "rules": "2000",
    ...     "units": {"ENGLAND": ["*F LON"], "FRANCE": ["F LON"]},
    ...     "retreats": {"ENGLAND": {"F LON": ["WAL", "YOR"]}}, "centers": {}})
    >>> state.dislodged["LON"]
    Dislodged(unit=Unit('ENGLAND', 'F', 'LON'), attacker_from=None, retreats=('WAL', 'YOR'))
    >>> rules.edition, orders
    ('2000', {})
    """
    if not isinstance(doc, Mapping):
        what = _type_name(doc)
        raise _fail(f'a phase document must be a JSON object with "phase", "units" and "centers", not {what}')
    board = _board(doc.get("variant"))
    rules = rules_from_spec(doc.get("rules"))
    phase = _phase(doc.get("phase"), board)
    units, dislodged_units = _units(doc, board, phase)
    dislodged = _retreats(doc.get("retreats"), board, dislodged_units)
    centers = _centers(doc, board)
    homes = _homes(doc.get("homes"), board)
    orders = _orders(doc.get("orders"), board)
    state = GameState(board, phase, units, centers, homes, dislodged)
    return state, rules, orders


def _board(variant: object) -> Map:
    if variant is None:
        variant = "standard"
    if not isinstance(variant, str):
        raise _fail(f'"variant" must be a string such as "standard", not {_type_name(variant)}')
    map_name = VARIANTS.get(variant.strip().lower())
    if map_name is None:
        raise _fail(f"unknown variant {variant!r}: known variants are {', '.join(sorted(VARIANTS))}")
    try:
        return get_map(map_name)
    except MapError as exc:  # pragma: no cover - the shipped maps load
        raise _fail(str(exc)) from None


def _phase(value: object, board: Map) -> Phase:
    if value is None:
        raise _fail('the document has no "phase": add one such as "phase": "S1901M"')
    if not isinstance(value, str):
        raise _fail(f'"phase" must be a string such as "S1901M", not {_type_name(value)}')
    if value.strip().upper() == COMPLETED:
        raise _fail('phase "COMPLETED": the game is over and has no phase to adjudicate; give a phase such as "S1901M"')
    try:
        phase = Phase.parse(value)
    except PhaseError as exc:
        raise _fail(str(exc)) from None
    if phase.year < board.first_year:
        raise _fail(f"phase {value!r} does not exist: a {board.name} game starts in {board.first_year}")
    return phase


def _power(name: str, board: Map, where: str) -> str:
    power = name.strip().upper()
    if power not in board.power_info:
        raise _fail(f"unknown power {name!r} in {where}: the powers are {', '.join(board.powers)}")
    return power


def _units(doc: Mapping[str, Any], board: Map, phase: Phase) -> tuple[dict[str, Unit], dict[str, Unit]]:
    if "units" not in doc:
        raise _fail('the document has no "units": add them, e.g. "units": {"FRANCE": ["A PAR", "F BRE"]}')
    table = _mapping(doc["units"], '"units"', '{"FRANCE": ["A PAR", "F BRE"]}')
    units: dict[str, Unit] = {}
    dislodged: dict[str, Unit] = {}
    for name, texts in table.items():
        power = _power(name, board, '"units"')
        for text in _strings(texts, f'"units" of {power}', '["A PAR", "F BRE"]'):
            is_dislodged, unit = _unit(text, power, board)
            if is_dislodged and phase.kind != "R":
                raise _fail(
                    f"unit {text!r} of {power} is marked dislodged (*), but {phase} is a {phase.long_name.split()[-1]} "
                    f"phase: dislodged units exist only in retreat phases ({phase.season}{phase.year}R); remove the *"
                )
            table_for = dislodged if is_dislodged else units
            other = table_for.get(unit.province)
            if other is not None:
                star = "*" if is_dislodged else ""
                raise _fail(
                    f"two {'dislodged ' if is_dislodged else ''}units in {board.provinces[unit.province].name}: "
                    f"{star}{other} of {other.power} and {star}{unit} of {power}; keep one"
                )
            table_for[unit.province] = unit
    return units, dislodged


def _unit(text: str, power: str, board: Map) -> tuple[bool, Unit]:
    match = _UNIT.match(text.strip().upper())
    if not match:
        raise _fail(
            f"unit {text!r} of {power} is not a unit: write 'A XXX' for an army or 'F XXX' for a fleet, e.g. 'A PAR'"
        )
    star, kind_text, written = match.groups()
    kind: UnitKind = "A" if kind_text == "A" else "F"
    location = _location(written, board, f"unit {text!r} of {power}")
    province = board.provinces[board.province_of(location)]
    where = f"unit {text!r} of {power}"
    if not province.passable:
        raise _fail(f"{where}: {province.name} ({province.code}) is impassable; no unit can stand there")
    if not board.can_hold(kind, location):
        if kind == "A" and location != province.code:
            raise _fail(f"{where}: an army stands on the whole province, not a coast; write A {province.code}")
        if kind == "A":
            raise _fail(f"{where}: an army cannot stand in {province.name} ({province.code}), a sea")
        if province.coasts:
            options = " or ".join(f"F {c}" for c in province.coasts)
            raise _fail(f"{where}: a fleet in {province.name} must name its coast: {options}")
        raise _fail(f"{where}: a fleet cannot stand in {province.name} ({province.code}), which is inland")
    return bool(star), Unit(power, kind, location)


def _location(written: str, board: Map, where: str) -> str:
    code = board.resolve_name(written)
    if code is not None:
        return code
    base, slash, coast = written.rpartition("/")
    if slash and board.resolve_name(base) is not None:
        province = board.province_of(board.resolve_name(base) or "")
        coasts = board.coasts(province)
        if coasts:
            raise _fail(f"{where}: {board.provinces[province].name} has no coast {coast!r}; use {' or '.join(coasts)}")
        raise _fail(f"{where}: {board.provinces[province].name} has no named coasts; write {province}")
    raise _fail(f"{where}: unknown province {written!r}")


def _retreats(value: object, board: Map, dislodged_units: dict[str, Unit]) -> dict[str, Dislodged]:
    options: dict[str, tuple[str, ...]] = {}
    if value is not None:
        table = _mapping(value, '"retreats"', '{"ENGLAND": {"F LON": ["WAL", "YOR"]}}')
        for name, entries in table.items():
            power = _power(name, board, '"retreats"')
            entries = _mapping(entries, f'"retreats" of {power}', '{"F LON": ["WAL", "YOR"]}')
            for text, targets in entries.items():
                where = f'"retreats" of {power}'
                _, unit = _unit(text.lstrip("* "), power, board)
                if dislodged_units.get(unit.province) != unit:
                    raise _fail(
                        f"{where} name {text!r}, which is not a dislodged unit of {power}: "
                        f"list it in \"units\" as '*{unit}' (in a retreat phase) or remove it"
                    )
                texts = _strings(targets, f"{where} for {text}", '["WAL", "YOR"]')
                options[unit.province] = tuple(sorted({_retreat_target(unit, t, board, where) for t in texts}))
    return {p: Dislodged(u, None, options.get(p, ())) for p, u in dislodged_units.items()}


def _retreat_target(unit: Unit, written: str, board: Map, where: str) -> str:
    location = _location(written.strip().upper(), board, f"{where} for {unit}")
    if unit.kind == "F":
        reachable = board.fleet_targets(unit.location)
        if location not in reachable:
            on_coasts = [c for c in board.coasts(location) if c in reachable]
            if len(on_coasts) != 1:
                raise _fail(f"{where}: {unit} cannot retreat to {written!r}, which it cannot reach")
            location = on_coasts[0]
    elif location not in board.army_targets(unit.location):
        raise _fail(f"{where}: {unit} cannot retreat to {written!r}, which it cannot reach")
    return location


def _centers(doc: Mapping[str, Any], board: Map) -> dict[str, str]:
    if "centers" not in doc:
        raise _fail(
            'the document has no "centers": list each power\'s supply centres, '
            'e.g. "centers": {"FRANCE": ["PAR"]} ({} for none)'
        )
    table = _mapping(doc["centers"], '"centers"', '{"FRANCE": ["BRE", "MAR", "PAR"]}')
    centers: dict[str, str] = {}
    for name, texts in table.items():
        power = _power(name, board, '"centers"')
        for text in _strings(texts, f'"centers" of {power}', '["BRE", "MAR", "PAR"]'):
            province = _supply_center(text, board, f'"centers" of {power}')
            owner = centers.get(province)
            if owner is not None:
                raise _fail(f"supply centre {province} is owned twice, by {owner} and by {power}; give it one owner")
            centers[province] = power
    return centers


def _supply_center(text: str, board: Map, where: str) -> str:
    province = board.province_of(_location(text.strip().upper(), board, where))
    if not board.provinces[province].supply_center:
        raise _fail(f"{where}: {board.provinces[province].name} ({province}) is not a supply centre")
    return province


def _homes(value: object, board: Map) -> dict[str, tuple[str, ...]]:
    homes = {power: board.home_centers(power) for power in board.powers}
    if value is None:
        return homes
    table = _mapping(value, '"homes"', '{"FRANCE": ["BRE", "MAR", "PAR"]}')
    for name, texts in table.items():
        power = _power(name, board, '"homes"')
        where = f'"homes" of {power}'
        provinces = [_supply_center(t, board, where) for t in _strings(texts, where, '["BRE"]')]
        homes[power] = tuple(sorted(set(provinces)))
    return homes


def _orders(value: object, board: Map) -> Orders:
    if value is None:
        return {}
    table = _mapping(value, '"orders"', '{"FRANCE": ["A PAR - BUR"]}')
    orders: Orders = {}
    for name, texts in table.items():
        power = _power(name, board, '"orders"')
        orders.setdefault(power, []).extend(_strings(texts, f'"orders" of {power}', '["A PAR - BUR"]'))
    return orders


# --- writing documents -------------------------------------------------------------------------


def _variant_of(board: Map) -> str:
    for variant, map_name in VARIANTS.items():
        if map_name == board.name:
            return variant
    return board.name


def document_from_state(state: GameState, rules: Rules | None = None) -> dict[str, Any]:
    """The phase document of a position (without orders). Every power appears in ``units``,
    ``retreats``, ``centers`` and ``homes``; lists are sorted. A finished game has the phase
    ``"COMPLETED"`` and says in ``"ended_in"`` which phase it ended in.

    >>> doc = document_from_state(GameState.initial())
    >>> doc["phase"], doc["rules"], doc["units"]["RUSSIA"]
    ('S1901M', '2023', ['A MOS', 'A WAR', 'F SEV', 'F STP/SC'])
    >>> state_from_document(doc)[0] == GameState.initial()
    True
    """
    rules = rules or get_rules()
    powers = state.powers
    units: dict[str, list[str]] = {p: [] for p in powers}
    for unit in state.units.values():
        units.setdefault(unit.power, []).append(str(unit))
    for texts in units.values():
        texts.sort()
    retreats: dict[str, dict[str, list[str]]] = {p: {} for p in powers}
    for entry in sorted(state.dislodged.values(), key=lambda d: str(d.unit)):
        units.setdefault(entry.unit.power, []).append(f"*{entry.unit}")
        retreats.setdefault(entry.unit.power, {})[str(entry.unit)] = sorted(entry.retreats)
    centers: dict[str, list[str]] = {p: [] for p in powers}
    for center, owner in state.centers.items():
        centers.setdefault(owner, []).append(center)
    doc: dict[str, Any] = {
        "variant": _variant_of(state.board),
        "rules": rules_to_spec(rules),
        "phase": COMPLETED if state.completed else str(state.phase),
        "units": units,
        "retreats": retreats,
        "centers": {p: sorted(c) for p, c in centers.items()},
        "homes": {p: sorted(state.homes.get(p, ())) for p in powers},
    }
    if state.completed:
        doc["ended_in"] = str(state.phase)
    return doc


def result_document(resolution: Resolution, rules: Rules) -> dict[str, Any]:
    """The result of one adjudicated phase as plain data.

    Keys: ``phase``; ``results`` (unit to MILA result words, ``[]`` for success; builds are
    keyed by the unit built); ``reasons``, ``outcomes``, ``orders`` and ``powers`` (unit to a
    readable reason, outcome word, normalised order and owner); ``waives`` (power to waived
    builds); ``rejected`` (orders that commanded nothing); ``dislodged`` (unit to the province
    the attack came from); ``disbanded`` (dislodged units with nowhere to retreat, removed at
    once); ``skipped`` (phases passed over); ``state`` (the next position).
    """
    results: dict[str, list[str]] = {}
    reasons: dict[str, str] = {}
    outcomes: dict[str, str] = {}
    orders: dict[str, str] = {}
    powers: dict[str, str] = {}
    waives: dict[str, int] = {}
    rejected = [{"power": r.power, "order": r.text, "reason": str(r.reason)} for r in resolution.rejected]
    for result in resolution.orders:
        if result.unit is None and result.order.kind == "waive":
            if result.outcome == Outcome.WAIVED:
                waives[result.power] = waives.get(result.power, 0) + 1
            else:
                rejected.append({"power": result.power, "order": result.text or "WAIVE", "reason": _reason(result)})
            continue
        key = _result_key(result)
        if key in results:
            # A second order for the same unit in an adjustment phase: keep both verdicts.
            results[key] = list(dict.fromkeys(results[key] + list(result.results)))
            reasons[key] = f"{reasons[key]}; {_reason(result)}"
            continue
        results[key] = list(result.results)
        reasons[key] = _reason(result)
        outcomes[key] = result.outcome
        orders[key] = str(result.order)
        powers[key] = result.power
    before = resolution.before
    dislodged = {
        str(before.units[province]): origin
        for province, origin in sorted(resolution.dislodged.items())
        if province in before.units
    }
    return {
        "phase": resolution.phase,
        "results": results,
        "reasons": reasons,
        "outcomes": outcomes,
        "orders": orders,
        "powers": powers,
        "waives": waives,
        "rejected": rejected,
        "dislodged": dislodged,
        "disbanded": [str(unit) for unit in resolution.disbanded],
        "skipped": list(resolution.skipped),
        "state": document_from_state(resolution.after, rules),
    }


def _result_key(result: OrderResult) -> str:
    if result.unit is not None:
        return str(result.unit)
    ref = getattr(result.order, "unit", None)
    return str(ref) if ref is not None else result.text


def _reason(result: OrderResult) -> str:
    if result.reason is not None:
        return str(result.reason)
    unit = str(result.unit) if result.unit is not None else result.text
    return f"{unit}: {result.outcome}"
