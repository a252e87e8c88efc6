"""The JSON forms of an adjudicated phase: the *result* ``fogdip adjudicate`` prints (a
summary for people and scripts), and the whole *record* (:class:`Resolution`, lossless, for
storage: a database keeps records and works every power's view out of them again).

>>> from fogdip.engine import GameState, adjudicate
>>> record = adjudicate(GameState.initial(), {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]})
>>> result_document(record, record.rules)["results"]["A PAR"]
['bounce']
>>> data = resolution_to_json(record)
>>> data["orders"][0]["reason"]["why"], data["orders"][0]["outcome"]
('held-without-order', 'held')
>>> resolution_from_json(data) == record
True
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from fogdip.codec.errors import CodecError, explain
from fogdip.codec.positions import PhaseDocument, document_from_state, rules_from_spec, rules_to_spec, state_from_json
from fogdip.engine.errors import FogdipError
from fogdip.engine.map import UnitKind
from fogdip.engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from fogdip.engine.outcomes import OrderResult, Outcome, RejectedOrder, Resolution
from fogdip.engine.reasons import Named, Reason, Why
from fogdip.engine.rules import Rules
from fogdip.engine.units import Unit

# --- the result ----------------------------------------------------------------------------------


class RejectedJSON(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    power: str
    order: str
    reason: str


class ResultDocument(BaseModel):
    """What ``fogdip adjudicate`` prints for one phase: each unit's result words
    (``[]``: it succeeded), the reasons and outcomes, the orders as normalised and whose they
    are, waived builds, orders set aside with their reasons, dislodgements, disbanded units,
    phases skipped, and the next phase's document (``state``)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    phase: str
    results: dict[str, list[str]]
    reasons: dict[str, str]
    outcomes: dict[str, str]
    orders: dict[str, str]
    powers: dict[str, str]
    waives: dict[str, int]
    rejected: list[RejectedJSON]
    dislodged: dict[str, str]
    disbanded: list[str] = []
    skipped: list[str]
    state: PhaseDocument | None = None


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
        outcomes[key] = result.outcome.value
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


# --- the record ----------------------------------------------------------------------------------


class _Wire(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class UnitJSON(_Wire):
    """A unit on the board (``power`` given) or as an order names it (``kind`` may be null)."""

    power: str | None = None
    kind: Literal["A", "F"] | None
    location: str


class OrderJSON(_Wire):
    """An engine order: ``kind`` as :attr:`fogdip.engine.orders.Order.kind`; ``other`` the
    supported unit or the convoyed army."""

    kind: Literal["hold", "move", "support_hold", "support_move", "convoy", "retreat", "disband", "build", "waive"]
    unit: UnitJSON | None = None
    other: UnitJSON | None = None
    target: str | None = None
    via: bool = False


class ReasonJSON(_Wire):
    why: Why
    unit: UnitJSON | None = None
    others: list[UnitJSON] = []
    places: list[str] = []
    numbers: list[int] = []
    power: str | None = None
    words: list[str] = []
    next: ReasonJSON | None = None


class OrderResultJSON(_Wire):
    power: str
    unit: UnitJSON | None
    order: OrderJSON
    text: str
    legal: bool
    defaulted: bool
    outcome: Outcome
    results: list[str]
    reason: ReasonJSON | None
    dislodged_by: str | None = None
    written: OrderJSON | None = None
    conflicts: list[OrderJSON] = []


class RejectedOrderJSON(_Wire):
    power: str
    text: str
    reason: ReasonJSON


class ResolutionJSON(_Wire):
    """A whole adjudicated phase: the positions before and after, the rules, every order
    with its outcome and reason, and what happened."""

    rules: str | dict[str, Any]
    before: PhaseDocument
    after: PhaseDocument
    orders: list[OrderResultJSON]
    rejected: list[RejectedOrderJSON] = []
    moves: dict[str, str] = {}
    dislodged: dict[str, str] = {}
    convoy_paths: dict[str, list[str]] = {}
    supports: dict[str, str] = {}
    standoffs: list[str] = []
    builds: list[UnitJSON] = []
    removals: list[UnitJSON] = []
    skipped: list[str] = []
    disbanded: list[UnitJSON] = []


def resolution_to_json(resolution: Resolution) -> dict[str, Any]:
    """A record, losslessly: :func:`resolution_from_json` gives it back equal."""
    rules = resolution.rules
    return {
        "rules": rules_to_spec(rules),
        "before": document_from_state(resolution.before, rules),
        "after": document_from_state(resolution.after, rules),
        "orders": [_result_json(result) for result in resolution.orders],
        "rejected": [
            {"power": r.power, "text": r.text, "reason": reason_to_json(r.reason)} for r in resolution.rejected
        ],
        "moves": dict(resolution.moves),
        "dislodged": dict(resolution.dislodged),
        "convoy_paths": {army: list(path) for army, path in resolution.convoy_paths.items()},
        "supports": dict(resolution.supports),
        "standoffs": list(resolution.standoffs),
        "builds": [_unit_json(unit) for unit in resolution.builds],
        "removals": [_unit_json(unit) for unit in resolution.removals],
        "skipped": list(resolution.skipped),
        "disbanded": [_unit_json(unit) for unit in resolution.disbanded],
    }


def _result_json(result: OrderResult) -> dict[str, Any]:
    return {
        "power": result.power,
        "unit": None if result.unit is None else _unit_json(result.unit),
        "order": order_to_json(result.order),
        "text": result.text,
        "legal": result.legal,
        "defaulted": result.defaulted,
        "outcome": result.outcome.value,
        "results": list(result.results),
        "reason": None if result.reason is None else reason_to_json(result.reason),
        "dislodged_by": result.dislodged_by,
        "written": None if result.written is None else order_to_json(result.written),
        "conflicts": [order_to_json(order) for order in result.conflicts],
    }


def _unit_json(unit: Named) -> dict[str, Any]:
    if isinstance(unit, Unit):
        return {"power": unit.power, "kind": unit.kind, "location": unit.location}
    return {"kind": unit.kind, "location": unit.location}


def order_to_json(order: Order) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": order.kind}
    if isinstance(order, Waive):
        return out
    out["unit"] = _unit_json(order.unit)
    if isinstance(order, (SupportHold, SupportMove)):
        out["other"] = _unit_json(order.supported)
    if isinstance(order, Convoy):
        out["other"] = _unit_json(order.army)
    if isinstance(order, (Move, SupportMove, Convoy, Retreat)):
        out["target"] = order.target
    if isinstance(order, Move) and order.via_convoy:
        out["via"] = True
    return out


def reason_to_json(reason: Reason) -> dict[str, Any]:
    out: dict[str, Any] = {"why": reason.why.value}
    if reason.unit is not None:
        out["unit"] = _unit_json(reason.unit)
    if reason.others:
        out["others"] = [_unit_json(unit) for unit in reason.others]
    if reason.places:
        out["places"] = list(reason.places)
    if reason.numbers:
        out["numbers"] = list(reason.numbers)
    if reason.power is not None:
        out["power"] = reason.power
    if reason.words:
        out["words"] = list(reason.words)
    if reason.next is not None:
        out["next"] = reason_to_json(reason.next)
    return out


def resolution_from_json(data: object, where: str = "record") -> Resolution:
    """Read a record written by :func:`resolution_to_json`."""
    try:
        wire = ResolutionJSON.model_validate(data)
        before, rules = state_from_json(wire.before.model_dump(exclude_none=True))
        after, _ = state_from_json(wire.after.model_dump(exclude_none=True))
        rules = rules_from_spec(wire.rules)
        return Resolution(
            before=before,
            after=after,
            orders=tuple(_result(result) for result in wire.orders),
            rejected=tuple(RejectedOrder(r.power, r.text, reason_from_json(r.reason)) for r in wire.rejected),
            moves=dict(wire.moves),
            dislodged=dict(wire.dislodged),
            convoy_paths={army: tuple(path) for army, path in wire.convoy_paths.items()},
            supports=dict(wire.supports),
            standoffs=tuple(wire.standoffs),
            builds=tuple(_board_unit(unit) for unit in wire.builds),
            removals=tuple(_board_unit(unit) for unit in wire.removals),
            skipped=tuple(wire.skipped),
            disbanded=tuple(_board_unit(unit) for unit in wire.disbanded),
            rules=rules,
        )
    except ValidationError as exc:
        raise explain(exc, where) from None
    except FogdipError as exc:
        raise CodecError(f"{where}: {exc}") from None


def _result(wire: OrderResultJSON) -> OrderResult:
    return OrderResult(
        wire.power,
        None if wire.unit is None else _board_unit(wire.unit),
        order_from_json(wire.order),
        wire.text,
        wire.legal,
        wire.defaulted,
        wire.outcome,
        tuple(wire.results),
        None if wire.reason is None else reason_from_json(wire.reason),
        wire.dislodged_by,
        None if wire.written is None else order_from_json(wire.written),
        tuple(order_from_json(order) for order in wire.conflicts),
    )


def _board_unit(wire: UnitJSON) -> Unit:
    if wire.power is None or wire.kind is None:
        raise CodecError(f"a unit on the board needs its power and kind, found {wire.model_dump()}")
    return Unit(wire.power, wire.kind, wire.location)


def _named(wire: UnitJSON) -> Named:
    return _board_unit(wire) if wire.power is not None else UnitRef(_kind(wire.kind), wire.location)


def _kind(kind: str | None) -> UnitKind | None:
    return None if kind is None else ("A" if kind == "A" else "F")


def _ref(wire: UnitJSON | None) -> UnitRef:
    if wire is None:
        raise CodecError('this kind of order names its unit: add "unit"')
    return UnitRef(_kind(wire.kind), wire.location)


def _target(wire: OrderJSON) -> str:
    if wire.target is None:
        raise CodecError(f'a {wire.kind} order has a target: add "target"')
    return wire.target


def order_from_json(wire: OrderJSON) -> Order:
    kind = wire.kind
    if kind == "waive":
        return Waive()
    unit = _ref(wire.unit)
    if kind == "hold":
        return Hold(unit)
    if kind == "move":
        return Move(unit, _target(wire), wire.via)
    if kind == "support_hold":
        return SupportHold(unit, _ref(wire.other))
    if kind == "support_move":
        return SupportMove(unit, _ref(wire.other), _target(wire))
    if kind == "convoy":
        return Convoy(unit, _ref(wire.other), _target(wire))
    if kind == "retreat":
        return Retreat(unit, _target(wire))
    if kind == "disband":
        return Disband(unit)
    return Build(unit)


def reason_from_json(wire: ReasonJSON) -> Reason:
    return Reason(
        wire.why,
        None if wire.unit is None else _named(wire.unit),
        tuple(_named(unit) for unit in wire.others),
        tuple(wire.places),
        tuple(wire.numbers),
        wire.power,
        tuple(wire.words),
        None if wire.next is None else reason_from_json(wire.next),
    )
