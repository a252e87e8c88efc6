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
The form is :class:`PhaseDocument` (a Pydantic model, whose JSON Schema is in
``docs/schema/``); what only the map can say (a province, a unit that may stand there) is
checked as the document is read into a :class:`~fogdip.engine.state.GameState`.
``attacked_from`` (optional) names, for a dislodged unit, the province the attack came from,
so that a position written and read back is the same position.

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
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic_core import ErrorDetails

from fogdip.engine.errors import FogdipError, InvalidPosition, MapError, PhaseError
from fogdip.engine.map import Map, UnitKind, get_map
from fogdip.engine.rules import EDITIONS, Rules, get_rules
from fogdip.engine.state import Dislodged, GameState
from fogdip.engine.units import Phase, Unit
from fogdip.variants.options import PRESETS

__all__ = [
    "COMPLETED",
    "VARIANTS",
    "PhaseDocument",
    "document_from_state",
    "read_document",
    "rules_from_spec",
    "rules_to_spec",
    "state_from_document",
    "state_from_json",
]

#: Preset name to the map it is played on.
VARIANTS: Mapping[str, str] = MappingProxyType({name: options.map for name, options in PRESETS.items()})
COMPLETED = "COMPLETED"

_UNIT = re.compile(r"^(\*?)\s*([AF])\s+(\S.*?)\s*$")
_KIND_WORDS = MappingProxyType({"A": "an army", "F": "a fleet"})
Orders = dict[str, list[str]]


def invalid(message: str) -> InvalidPosition:
    return InvalidPosition(" ".join(message.split()))


def type_name(value: object) -> str:
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


# --- the form ----------------------------------------------------------------------------------


class PhaseDocument(BaseModel):
    """A phase document's form. Unknown keys are ignored; ``options`` and ``usage`` belong to
    variant games (:mod:`fogdip.play`), ``ended_in`` to a finished one."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    variant: str | None = None
    rules: str | dict[str, Any] | None = None
    phase: str
    units: dict[str, list[str]]
    retreats: dict[str, dict[str, list[str]]] | None = None
    centers: dict[str, list[str]]
    homes: dict[str, list[str]] | None = None
    orders: dict[str, list[str]] | None = None
    attacked_from: dict[str, dict[str, str]] | None = None
    options: dict[str, Any] | None = None
    usage: dict[str, Any] | None = None
    ended_in: str | None = None


#: For each field: how to name it in a message, and an example of its value (and of one
#: power's entry, and of one unit's, for the nested ones).
_EXAMPLES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "variant": ('"standard"',),
        "rules": ('"2023"',),
        "phase": ('"S1901M"',),
        "units": ('{"FRANCE": ["A PAR", "F BRE"]}', '["A PAR", "F BRE"]'),
        "retreats": ('{"ENGLAND": {"F LON": ["WAL", "YOR"]}}', '{"F LON": ["WAL", "YOR"]}', '["WAL", "YOR"]'),
        "centers": ('{"FRANCE": ["BRE", "MAR", "PAR"]}', '["BRE", "MAR", "PAR"]'),
        "homes": ('{"FRANCE": ["BRE", "MAR", "PAR"]}', '["BRE"]'),
        "orders": ('{"FRANCE": ["A PAR - BUR"]}', '["A PAR - BUR"]'),
        "attacked_from": ('{"ENGLAND": {"F LON": "NTH"}}', '{"F LON": "NTH"}', '"NTH"'),
        "options": ('{"end_year": 1910}',),
        "usage": ('an object as returned in "state"',),
        "ended_in": ('"F1905M"',),
    }
)
_MISSING: Mapping[str, str] = MappingProxyType(
    {
        "phase": 'the document has no "phase": add one such as "phase": "S1901M"',
        "units": 'the document has no "units": add them, e.g. "units": {"FRANCE": ["A PAR", "F BRE"]}',
        "centers": (
            'the document has no "centers": list each power\'s supply centres, '
            'e.g. "centers": {"FRANCE": ["PAR"]} ({} for none)'
        ),
    }
)


def read_document(doc: object) -> PhaseDocument:
    """Check a phase document's form; a malformed one raises :class:`InvalidPosition` saying
    what is wrong, where, and what it should look like."""
    if not isinstance(doc, Mapping):
        raise invalid(
            f'a phase document must be a JSON object with "phase", "units" and "centers", not {type_name(doc)}'
        )
    try:
        return PhaseDocument.model_validate(doc)
    except ValidationError as exc:
        raise invalid(_explain(exc.errors(include_url=False)[0])) from None


def _explain(error: ErrorDetails) -> str:
    """One of Pydantic's findings in the words of a phase document."""
    loc = error["loc"]
    field = str(loc[0])
    if error["type"] == "missing" and len(loc) == 1:
        return _MISSING.get(field, f'the document has no "{field}"')
    if field == "rules":
        value = error["input"]
        return f'"rules" must be an edition name such as "2023" or an object, not {type_name(value)} ({value!r})'
    keys = [str(part) for part in loc[1:] if not isinstance(part, int)]
    where = f'"{field}"' + (f" of {keys[0].upper()}" if keys else "") + (f" for {keys[1]}" if len(keys) > 1 else "")
    examples = _EXAMPLES.get(field, ("",))
    example = examples[min(len(keys), len(examples) - 1)]
    value = error["input"]
    kind = error["type"]
    if isinstance(loc[-1], int):
        return f"{where} must hold only strings, not {type_name(value)} ({value!r})"
    if kind == "dict_type":
        return f"{where} must be an object such as {example}, not {type_name(value)}"
    if kind == "list_type":
        return f"{where} must be a list of strings such as {example}, not {type_name(value)}"
    if kind == "string_type":
        return f"{where} must be a string such as {example}, not {type_name(value)}"
    return f"{where}: {error['msg']}"


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
        raise invalid(f'"rules" must be an edition name such as "2023" or an object, not {type_name(spec)} ({spec!r})')
    edition = spec.get("edition")
    if edition is not None and not isinstance(edition, str):
        raise invalid(f'"rules"."edition" must be a string such as "2000", not {type_name(edition)}')
    rules = _edition(edition)
    options = _rule_options()
    changes: dict[str, object] = {}
    for name, value in spec.items():
        if name == "edition":
            continue
        if name not in options:
            raise invalid(f'unknown rule option {name!r} in "rules": known options are {", ".join(options)}')
        changes[name] = _rule_value(name, value, options[name])
    return rules.with_options(**changes) if changes else rules


def _edition(name: str | None) -> Rules:
    try:
        return get_rules(name)
    except FogdipError as exc:
        raise invalid(str(exc)) from None


def _rule_value(name: str, value: object, hint: Any) -> object:
    args = typing.get_args(hint)
    if hint is bool:
        if isinstance(value, bool):
            return value
        raise invalid(f"rule option {name!r} must be true or false, not {value!r}")
    if typing.get_origin(hint) is typing.Literal:
        if value in args:
            return value
        raise invalid(f"rule option {name!r} must be one of {', '.join(map(repr, args))}, not {value!r}")
    if int in args and type(None) in args:
        if value is None or (isinstance(value, int) and not isinstance(value, bool) and value > 0):
            return value
        raise invalid(f"rule option {name!r} must be a positive whole number or null, not {value!r}")
    raise invalid(f"rule option {name!r} cannot be set in a document")  # pragma: no cover


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


def state_from_document(doc: object) -> tuple[GameState, Rules, Orders]:
    """Read and check a phase document: the position, the rules and the orders (by power).
    A finished game (phase ``"COMPLETED"``) has no position to adjudicate and is refused.

    >>> state, rules, orders = state_from_document({"phase": "F1901R", "rules": "2000",
    ...     "units": {"ENGLAND": ["*F LON"], "FRANCE": ["F LON"]},
    ...     "retreats": {"ENGLAND": {"F LON": ["WAL", "YOR"]}}, "centers": {}})
    >>> state.dislodged["LON"]
    Dislodged(unit=Unit('ENGLAND', 'F', 'LON'), attacker_from=None, retreats=('WAL', 'YOR'))
    >>> rules.edition, orders
    ('2000', {})
    """
    form = read_document(doc)
    state, rules = _position(form, completed_allowed=False)
    return state, rules, _orders(form.orders, state.board)


def state_from_json(doc: object) -> tuple[GameState, Rules]:
    """Read a position written by :func:`document_from_state`, a finished game included:
    the same position, rules and all."""
    return _position(read_document(doc), completed_allowed=True)


def _position(form: PhaseDocument, *, completed_allowed: bool) -> tuple[GameState, Rules]:
    board = _board(form.variant)
    rules = rules_from_spec(form.rules)
    completed = form.phase.strip().upper() == COMPLETED
    if completed and completed_allowed:
        phase = _phase(form.ended_in or "", board, "ended_in")
    else:
        phase = _phase(form.phase, board)
    units, dislodged_units = _units(form.units, board, phase)
    dislodged = _retreats(form.retreats, form.attacked_from, board, dislodged_units)
    centers = _centers(form.centers, board)
    homes = _homes(form.homes, board)
    return GameState(board, phase, units, centers, homes, dislodged, completed), rules


def _board(variant: str | None) -> Map:
    if variant is None:
        variant = "standard"
    map_name = VARIANTS.get(variant.strip().lower())
    if map_name is None:
        raise invalid(f"unknown variant {variant!r}: known variants are {', '.join(sorted(VARIANTS))}")
    try:
        return get_map(map_name)
    except MapError as exc:  # pragma: no cover - the shipped maps load
        raise invalid(str(exc)) from None


def _phase(value: str, board: Map, field: str = "phase") -> Phase:
    if value.strip().upper() == COMPLETED:
        raise invalid(
            'phase "COMPLETED": the game is over and has no phase to adjudicate; give a phase such as "S1901M"'
        )
    try:
        phase = Phase.parse(value)
    except PhaseError as exc:
        raise invalid(f'"{field}": {exc}' if field != "phase" else str(exc)) from None
    if phase.year < board.first_year:
        raise invalid(f"phase {value!r} does not exist: a {board.name} game starts in {board.first_year}")
    return phase


def _power(name: str, board: Map, where: str) -> str:
    power = name.strip().upper()
    if power not in board.power_info:
        raise invalid(f"unknown power {name!r} in {where}: the powers are {', '.join(board.powers)}")
    return power


def _units(table: Mapping[str, list[str]], board: Map, phase: Phase) -> tuple[dict[str, Unit], dict[str, Unit]]:
    units: dict[str, Unit] = {}
    dislodged: dict[str, Unit] = {}
    for name, texts in table.items():
        power = _power(name, board, '"units"')
        for text in texts:
            is_dislodged, unit = _unit(text, power, board)
            if is_dislodged and phase.kind != "R":
                raise invalid(
                    f"unit {text!r} of {power} is marked dislodged (*), but {phase} is a {phase.long_name.split()[-1]} "
                    f"phase: dislodged units exist only in retreat phases ({phase.season}{phase.year}R); remove the *"
                )
            table_for = dislodged if is_dislodged else units
            other = table_for.get(unit.province)
            if other is not None:
                star = "*" if is_dislodged else ""
                raise invalid(
                    f"two {'dislodged ' if is_dislodged else ''}units in {board.provinces[unit.province].name}: "
                    f"{star}{other} of {other.power} and {star}{unit} of {power}; keep one"
                )
            table_for[unit.province] = unit
    return units, dislodged


def _unit(text: str, power: str, board: Map) -> tuple[bool, Unit]:
    match = _UNIT.match(text.strip().upper())
    if not match:
        raise invalid(
            f"unit {text!r} of {power} is not a unit: write 'A XXX' for an army or 'F XXX' for a fleet, e.g. 'A PAR'"
        )
    star, kind_text, written = match.groups()
    kind: UnitKind = "A" if kind_text == "A" else "F"
    location = _location(written, board, f"unit {text!r} of {power}")
    province = board.provinces[board.province_of(location)]
    where = f"unit {text!r} of {power}"
    if not province.passable:
        raise invalid(f"{where}: {province.name} ({province.code}) is impassable; no unit can stand there")
    if not board.can_hold(kind, location):
        if kind == "A" and location != province.code:
            raise invalid(f"{where}: an army stands on the whole province, not a coast; write A {province.code}")
        if kind == "A":
            raise invalid(f"{where}: an army cannot stand in {province.name} ({province.code}), a sea")
        if province.coasts:
            options = " or ".join(f"F {c}" for c in province.coasts)
            raise invalid(f"{where}: a fleet in {province.name} must name its coast: {options}")
        raise invalid(f"{where}: a fleet cannot stand in {province.name} ({province.code}), which is inland")
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
            raise invalid(
                f"{where}: {board.provinces[province].name} has no coast {coast!r}; use {' or '.join(coasts)}"
            )
        raise invalid(f"{where}: {board.provinces[province].name} has no named coasts; write {province}")
    raise invalid(f"{where}: unknown province {written!r}")


def _retreats(
    table: Mapping[str, Mapping[str, list[str]]] | None,
    attacks: Mapping[str, Mapping[str, str]] | None,
    board: Map,
    dislodged_units: dict[str, Unit],
) -> dict[str, Dislodged]:
    options: dict[str, tuple[str, ...]] = {}
    origins: dict[str, str] = {}
    for name, entries in (table or {}).items():
        power = _power(name, board, '"retreats"')
        where = f'"retreats" of {power}'
        for text, targets in entries.items():
            unit = _dislodged(text, power, board, dislodged_units, where)
            options[unit.province] = tuple(sorted({_retreat_target(unit, t, board, where) for t in targets}))
    for name, attacked in (attacks or {}).items():
        power = _power(name, board, '"attacked_from"')
        where = f'"attacked_from" of {power}'
        for text, origin in attacked.items():
            unit = _dislodged(text, power, board, dislodged_units, where)
            origins[unit.province] = board.province_of(_location(origin.strip().upper(), board, f"{where} for {text}"))
    return {p: Dislodged(u, origins.get(p), options.get(p, ())) for p, u in dislodged_units.items()}


def _dislodged(text: str, power: str, board: Map, dislodged_units: dict[str, Unit], where: str) -> Unit:
    _, unit = _unit(text.lstrip("* "), power, board)
    if dislodged_units.get(unit.province) != unit:
        raise invalid(
            f"{where} name {text!r}, which is not a dislodged unit of {power}: "
            f"list it in \"units\" as '*{unit}' (in a retreat phase) or remove it"
        )
    return unit


def _retreat_target(unit: Unit, written: str, board: Map, where: str) -> str:
    location = _location(written.strip().upper(), board, f"{where} for {unit}")
    if unit.kind == "F":
        reachable = board.fleet_targets(unit.location)
        if location not in reachable:
            on_coasts = [c for c in board.coasts(location) if c in reachable]
            if len(on_coasts) != 1:
                raise invalid(f"{where}: {unit} cannot retreat to {written!r}, which it cannot reach")
            location = on_coasts[0]
    elif location not in board.army_targets(unit.location):
        raise invalid(f"{where}: {unit} cannot retreat to {written!r}, which it cannot reach")
    return location


def _centers(table: Mapping[str, list[str]], board: Map) -> dict[str, str]:
    centers: dict[str, str] = {}
    for name, texts in table.items():
        power = _power(name, board, '"centers"')
        for text in texts:
            province = _supply_center(text, board, f'"centers" of {power}')
            owner = centers.get(province)
            if owner is not None:
                raise invalid(f"supply centre {province} is owned twice, by {owner} and by {power}; give it one owner")
            centers[province] = power
    return centers


def _supply_center(text: str, board: Map, where: str) -> str:
    province = board.province_of(_location(text.strip().upper(), board, where))
    if not board.provinces[province].supply_center:
        raise invalid(f"{where}: {board.provinces[province].name} ({province}) is not a supply centre")
    return province


def _homes(table: Mapping[str, list[str]] | None, board: Map) -> dict[str, tuple[str, ...]]:
    homes = {power: board.home_centers(power) for power in board.powers}
    for name, texts in (table or {}).items():
        power = _power(name, board, '"homes"')
        where = f'"homes" of {power}'
        homes[power] = tuple(sorted({_supply_center(t, board, where) for t in texts}))
    return homes


def _orders(table: Mapping[str, list[str]] | None, board: Map) -> Orders:
    orders: Orders = {}
    for name, texts in (table or {}).items():
        power = _power(name, board, '"orders"')
        orders.setdefault(power, []).extend(texts)
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
    >>> state_from_json(doc) == (GameState.initial(), get_rules())
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
    attacks: dict[str, dict[str, str]] = {}
    for entry in sorted(state.dislodged.values(), key=lambda d: str(d.unit)):
        units.setdefault(entry.unit.power, []).append(f"*{entry.unit}")
        retreats.setdefault(entry.unit.power, {})[str(entry.unit)] = sorted(entry.retreats)
        if entry.attacker_from is not None:
            attacks.setdefault(entry.unit.power, {})[str(entry.unit)] = entry.attacker_from
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
    if attacks:
        doc["attacked_from"] = attacks
    if state.completed:
        doc["ended_in"] = str(state.phase)
    return doc
