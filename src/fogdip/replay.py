"""Replaying a recorded game: re-adjudicate each phase and compare with the next recorded one.

Each phase is adjudicated from its own recorded position and orders, so one mismatch never
spreads to the phases after it. The comparison covers the next phase's name, its units (the
dislodged ones too), its supply-centre owners, and the retreat options of dislodged units.
Nothing here prints; :mod:`fogdip.cli.main` shows the comparisons.

>>> from fogdip.documents import document_from_state
>>> from fogdip.engine.state import GameState
>>> first = {**document_from_state(GameState.initial()), "orders": {"FRANCE": ["A PAR - BUR"]}}
>>> second = {**first, "phase": "F1901M", "orders": {}}
>>> second["units"] = {**first["units"], "FRANCE": ["A BUR", "A MAR", "F BRE"]}
>>> [c.ok for c in replay_game([first, second], mila_rules())]
[True]
>>> second["units"]["FRANCE"] = ["A PIC", "A MAR", "F BRE"]
>>> comparison = replay_game([first, second], mila_rules())[0]
>>> comparison.ok, comparison.missing_units, comparison.extra_units
(False, ('FRANCE A PIC',), ('FRANCE A BUR',))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from fogdip.documents import COMPLETED, state_from_document
from fogdip.engine.errors import FogdipError
from fogdip.engine.judge import adjudicate
from fogdip.engine.outcomes import Resolution
from fogdip.engine.rules import Rules, get_rules
from fogdip.engine.state import GameState

__all__ = [
    "RECORD_OPTIONS",
    "PhaseComparison",
    "compare_positions",
    "impossible_retreats",
    "mila_rules",
    "record_rules",
    "replay_game",
    "rules_for_source",
]

#: Rule options that reproduce the Cicero game records (see docs/rules.md, "Replaying MILA
#: records"): an army goes by sea to a neighbouring province only when ordered ``VIA``, and a
#: dislodged unit with nowhere to go waits for a retreat phase, where it is disbanded.
RECORD_OPTIONS: Mapping[str, object] = MappingProxyType(
    {"adjacent_convoy_intent": "explicit", "unretreatable": "retreat-phase"}
)


def record_rules(edition: str = "2000", *, compat: bool = True) -> Rules:
    """The rules the Cicero game records are replayed with: the edition, plus
    :data:`RECORD_OPTIONS` (``compat=False`` leaves the convoy choice to the edition).

    >>> record_rules().adjacent_convoy_intent, record_rules(compat=False).adjacent_convoy_intent
    ('explicit', 'rulebook')
    >>> record_rules(compat=False).unretreatable
    'retreat-phase'
    """
    options = RECORD_OPTIONS if compat else {"unretreatable": RECORD_OPTIONS["unretreatable"]}
    return get_rules(edition).with_options(**options)


def mila_rules(edition: str = "2000") -> Rules:
    """The rules of MILA's engine (``diplomacy`` 1.1.2), for the games it saves: the edition
    as fogdip plays it, which disbands a unit with nowhere to retreat at once and skips a
    retreat phase in which nobody has a choice, as MILA does (docs/mila-notes.md lists the
    remaining differences).

    >>> mila_rules().edition, mila_rules().unretreatable
    ('2000', 'disband-at-once')
    """
    return get_rules(edition)


def rules_for_source(source: str, edition: str = "2000") -> Rules:
    """:func:`mila_rules` for games saved by MILA's engine (``source="mila"``),
    :func:`record_rules` for the Cicero records (``"records"``)."""
    return mila_rules(edition) if source == "mila" else record_rules(edition)


@dataclass(frozen=True)
class PhaseComparison:
    """How one re-adjudicated phase compares with the next recorded phase.

    Differences are short texts: ``"FRANCE A PIC"`` for a unit (``"*A PIC"`` if dislodged),
    ``"FRANCE BEL"`` for a centre, and one line per dislodged unit whose retreats differ.
    ``missing_*`` are in the record but not in fogdip's result; ``extra_*`` the other way.
    ``error`` is set when the phase could not be adjudicated at all.
    """

    index: int
    phase: str
    expected_phase: str
    actual_phase: str
    missing_units: tuple[str, ...] = ()
    extra_units: tuple[str, ...] = ()
    missing_centers: tuple[str, ...] = ()
    extra_centers: tuple[str, ...] = ()
    retreat_differences: tuple[str, ...] = ()
    error: str | None = None
    rejected: tuple[str, ...] = field(default=(), compare=False)
    #: Why the record cannot be right, one line per retreat difference that it explains (the
    #: record lets a unit retreat where no unit could go); see :func:`impossible_retreats`.
    impossible: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return (
            self.error is None
            and self.expected_phase == self.actual_phase
            and not (self.missing_units or self.extra_units or self.missing_centers or self.extra_centers)
            and not self.retreat_differences
        )

    @property
    def record_impossible(self) -> bool:
        """Every difference is the record's own: it lists retreats into places no unit could
        go, and fogdip's options are among the record's (MILA's engine does this after a
        convoyed attack, docs/mila-notes.md §4.1)."""
        return (
            not self.ok
            and self.error is None
            and self.expected_phase == self.actual_phase
            and not (self.missing_units or self.extra_units or self.missing_centers or self.extra_centers)
            and len(self.impossible) == len(self.retreat_differences)
        )

    def describe(self) -> list[str]:
        """The differences as readable lines (empty when the phase matches)."""
        if self.error is not None:
            return [f"error: {self.error}"]
        lines = []
        if self.expected_phase != self.actual_phase:
            lines.append(f"next phase: recorded {self.expected_phase}, fogdip {self.actual_phase}")
        for label, items in (
            ("units only in the record", self.missing_units),
            ("units only in fogdip's result", self.extra_units),
            ("centres only in the record", self.missing_centers),
            ("centres only in fogdip's result", self.extra_centers),
        ):
            if items:
                lines.append(f"{label}: {', '.join(items)}")
        lines.extend(f"retreats: {line}" for line in self.retreat_differences)
        lines.extend(f"the record is impossible: {line}" for line in self.impossible)
        return lines


def replay_game(
    phases: Sequence[Mapping[str, Any]],
    rules: Rules,
    *,
    on_phase: Callable[[PhaseComparison], None] | None = None,
) -> list[PhaseComparison]:
    """Re-adjudicate every phase that has a recorded successor and compare the two.

    ``phases`` are phase documents with orders (see :mod:`fogdip.documents`), in play order.
    The rules given override each document's own ``"rules"``. ``on_phase`` is called after
    each comparison (for progress bars).
    """
    comparisons: list[PhaseComparison] = []
    for index in range(len(phases) - 1):
        current, recorded = phases[index], phases[index + 1]
        comparison = _compare_phase(index, current, recorded, rules)
        if comparison is None:
            continue
        comparisons.append(comparison)
        if on_phase is not None:
            on_phase(comparison)
    return comparisons


def _phase_name(doc: Mapping[str, Any]) -> str:
    name = doc.get("phase") if isinstance(doc, Mapping) else None
    return str(name).strip().upper() if name is not None else "?"


def _compare_phase(
    index: int, current: Mapping[str, Any], recorded: Mapping[str, Any], rules: Rules
) -> PhaseComparison | None:
    name = _phase_name(current)
    if name == COMPLETED:
        return None
    expected = _phase_name(recorded)
    try:
        state, _, orders = state_from_document(current)
        resolution = adjudicate(state, orders, rules)
    except FogdipError as exc:
        return PhaseComparison(index, name, expected, "?", error=f"{name}: {exc}")
    after = resolution.after
    actual = COMPLETED if after.completed else str(after.phase)
    try:
        if expected == COMPLETED:
            # A finished game's record has no phase of its own: read it as fogdip's last phase.
            recorded = {**recorded, "phase": str(after.phase)}
        expected_state = state_from_document(recorded)[0]
    except FogdipError as exc:
        return PhaseComparison(index, name, expected, actual, error=f"the recorded {expected} cannot be read: {exc}")
    rejected = tuple(f"{r.power}: {r.text} ({r.reason})" for r in resolution.rejected)
    comparison = compare_positions(index, name, expected, actual, expected_state, after, rejected)
    if comparison.retreat_differences:
        comparison = dataclasses.replace(comparison, impossible=impossible_retreats(resolution, expected_state))
    return comparison


def impossible_retreats(resolution: Resolution, recorded: GameState) -> tuple[str, ...]:
    """For each unit the record lets retreat to more places than fogdip does, why those places
    are impossible, if every one of them is: occupied after the moves, left empty by a
    stand-off, or where the attack came from. MILA's engine lists every neighbour of a unit
    dislodged by a convoyed army, by an operator-precedence slip (docs/mila-notes.md §4.1).

    A difference this does not explain (fogdip offering a place the record does not, or an
    extra place that could be free) gets no line."""
    after = resolution.after
    lines = []
    for province in sorted(set(recorded.dislodged) & set(after.dislodged)):
        want, got = recorded.dislodged[province], after.dislodged[province]
        if (
            want.unit != got.unit
            or set(want.retreats) == set(got.retreats)
            or not set(got.retreats) <= set(want.retreats)
        ):
            continue
        reasons = []
        for location in sorted(set(want.retreats) - set(got.retreats)):
            why = _why_not(resolution, location, got.attacker_from)
            if why is None:
                break
            reasons.append(f"{location} ({why})")
        else:
            convoyed = got.attacker_from in resolution.convoy_paths
            cause = (
                "MILA's engine lists every neighbour of a unit dislodged by a convoyed army (docs/mila-notes.md §4.1)"
                if convoyed
                else "no rule allows it"
            )
            lines.append(f"it lets {want.unit.power} *{want.unit} retreat to {', '.join(reasons)}: {cause}")
    return tuple(lines)


def _why_not(resolution: Resolution, location: str, attacker_from: str | None) -> str | None:
    province = resolution.before.board.province_of(location)
    occupant = resolution.after.units.get(province)
    if occupant is not None:
        return f"{occupant.power} {occupant} stands there"
    if province in resolution.standoffs:
        return "left empty by a stand-off"
    if province == attacker_from and attacker_from not in resolution.convoy_paths:
        return "the attack came from there"
    return None


def compare_positions(
    index: int,
    phase: str,
    expected_phase: str,
    actual_phase: str,
    expected: GameState,
    actual: GameState,
    rejected: tuple[str, ...] = (),
) -> PhaseComparison:
    """Compare two positions: units, dislodged units, centre owners and retreat options."""
    want_units, got_units = _units(expected), _units(actual)
    want_centers = {f"{owner} {center}" for center, owner in expected.centers.items()}
    got_centers = {f"{owner} {center}" for center, owner in actual.centers.items()}
    return PhaseComparison(
        index=index,
        phase=phase,
        expected_phase=expected_phase,
        actual_phase=actual_phase,
        missing_units=tuple(sorted(want_units - got_units)),
        extra_units=tuple(sorted(got_units - want_units)),
        missing_centers=tuple(sorted(want_centers - got_centers)),
        extra_centers=tuple(sorted(got_centers - want_centers)),
        retreat_differences=_retreat_differences(expected, actual),
        rejected=rejected,
    )


def _units(state: GameState) -> set[str]:
    found = {f"{u.power} {u}" for u in state.units.values()}
    found.update(f"{d.unit.power} *{d.unit}" for d in state.dislodged.values())
    return found


def _retreat_differences(expected: GameState, actual: GameState) -> tuple[str, ...]:
    lines = []
    for province in sorted(set(expected.dislodged) & set(actual.dislodged)):
        want, got = expected.dislodged[province], actual.dislodged[province]
        if want.unit == got.unit and set(want.retreats) != set(got.retreats):
            lines.append(
                f"{want.unit.power} *{want.unit}: recorded {', '.join(sorted(want.retreats)) or 'none'}; "
                f"fogdip {', '.join(sorted(got.retreats)) or 'none'}"
            )
    return tuple(lines)
