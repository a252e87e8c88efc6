"""Garrisons (seed 003, Diplomyopia, rule 4): a power is told of the unoccupied provinces it lost.

    "Once a province is left unoccupied, it is deemed to be garrisoned by a small,
    non-combatant body of men. When the province is taken by an enemy at least one member of
    the garrison is assumed to escape to report the capture (e.g. 'Piedmont captured by a
    French army'). Thus ... a player is told of any unoccupied provinces he has lost, and to
    whom they have fallen."

The option ``garrisons`` chooses the reading:

* ``"none"``: no garrison reports (a fog rule set's own reports are switched off too);
* ``"centers"``: every supply centre the power loses, with its captor
  (:func:`fogdip.fog.diplomyopia.garrison_reports`; the ``diplomyopia`` fog rules make them
  themselves, under any other fog rules this module adds them);
* ``"provinces"``: every province the power last occupied, as the seed's Piedmont (not a
  centre). The variant keeps, across turns, which power last occupied each land province in
  ``Position.usage["holders"]`` (province to power, plain JSON, so phase documents and game
  files carry it), and the fog rule set's centre reports are switched off.

A garrison reports to its holder when a foreign unit stands, at the end of a phase, in the
province that was empty at the start of it; the captor then holds the province.

>>> from fogdip.engine.units import Unit
>>> from fogdip.variants.turn import Position, Variant
>>> variant = Variant.named("diplomyopia")
>>> units = {"PIE": Unit("ITALY", "A", "PIE"), "MAR": Unit("FRANCE", "A", "MAR")}
>>> spring = variant.play(Position(variant.start().state.with_changes(units=units)), {"ITALY": ["A PIE - VEN"]})
>>> spring.position.usage["holders"]["PIE"]
'ITALY'
>>> retreats = variant.play(spring.position, {})
>>> fall = variant.play(retreats.position, {"FRANCE": ["A MAR - PIE"]})
>>> [n.text for n in fall.observations["ITALY"].notices_of("garrison")]
['Piedmont captured by a French army']
>>> fall.position.usage["holders"]["PIE"]
'FRANCE'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from fogdip.engine.errors import FogdipError
from fogdip.engine.map import Map
from fogdip.engine.outcomes import Resolution
from fogdip.engine.state import GameState
from fogdip.fog import FOG_RULES, FogRules
from fogdip.fog.diplomyopia import garrison_notice, garrison_reports
from fogdip.fog.observation import Notice
from fogdip.fog.rules import Events
from fogdip.variants.options import VariantOptions

#: The key of the holders record in ``Position.usage``.
HOLDERS = "holders"
MODES = ("none", "centers", "provinces")
#: The fog rules' option that turns their own (centre) garrison reports on and off.
FOG_OPTION = "garrison_reports"


def mode_of(options: VariantOptions) -> str:
    """The reading chosen, checked.

    >>> mode_of(VariantOptions().with_changes(garrisons="forts"))
    Traceback (most recent call last):
    ...
    fogdip.engine.errors.FogdipError: unknown garrisons option 'forts': choose none, centers or provinces
    """
    if options.garrisons not in MODES:
        raise FogdipError(f"unknown garrisons option {options.garrisons!r}: choose none, centers or provinces")
    return options.garrisons


def fog_options(options: VariantOptions, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The options to build the fog rule set with: the rule set reports centres itself only
    under ``"centers"``. Options given explicitly win.

    >>> fog_options(VariantOptions().with_changes(fog="diplomyopia", garrisons="provinces"))
    {'garrison_reports': False}
    >>> fog_options(VariantOptions().with_changes(fog="fog-of-war", garrisons="centers"))
    {}
    """
    mode = mode_of(options)
    rules = FOG_RULES.get(options.fog)
    out: dict[str, Any] = {}
    if rules is not None and FOG_OPTION in {f.name for f in dataclasses.fields(rules.Options)}:
        out[FOG_OPTION] = mode == "centers"
    out.update(given or {})
    return out


def garrisoned(board: Map, province: str) -> bool:
    """Whether a province can keep a garrison: any land province, coastal or not. A body of
    men cannot hold the open sea, so a fleet leaving a sea province leaves nobody behind."""
    found = board.provinces.get(province)
    return found is not None and found.terrain in ("land", "coast")


def seed_holders(state: GameState) -> dict[str, str]:
    """Who holds each land province in a position: the owner of each centre, then the power
    of each unit standing in a province (a unit outranks the centre's owner).

    >>> holders = seed_holders(GameState.initial())
    >>> len(holders), holders["PAR"], "NTH" in holders, "PIE" in holders
    (22, 'FRANCE', False, False)
    """
    board = state.board
    holders = {center: owner for center, owner in state.centers.items() if garrisoned(board, center)}
    holders.update({p: unit.power for p, unit in state.units.items() if garrisoned(board, p)})
    return dict(sorted(holders.items()))


def holders_of(usage: Mapping[str, Any], state: GameState) -> dict[str, str]:
    """The holders a position's usage records, brought up to date with the units on the board;
    seeded from the position when the usage has none (a document written without them)."""
    if HOLDERS not in usage:
        return seed_holders(state)
    given = usage[HOLDERS]
    if not isinstance(given, Mapping):
        raise FogdipError(
            f'usage "{HOLDERS}" must be an object of province to power such as {{"PIE": "ITALY"}}, '
            f"not {type(given).__name__}; leave it out to start from the units and centres"
        )
    board = state.board
    holders: dict[str, str] = {}
    for province, power in given.items():
        if not isinstance(province, str) or not garrisoned(board, province):
            raise FogdipError(f'usage "{HOLDERS}" names {province!r}, which is not a land province of the map')
        if not isinstance(power, str) or power not in state.powers:
            raise FogdipError(
                f'usage "{HOLDERS}" gives {province} to {power!r}, which is not a power of the game: '
                f"use one of {', '.join(state.powers)}"
            )
        holders[province] = power
    holders.update({p: unit.power for p, unit in state.units.items() if garrisoned(board, p)})
    return holders


def start_usage(options: VariantOptions, state: GameState, usage: Mapping[str, Any]) -> dict[str, Any]:
    """The usage of a game's first position (after setup in setup variants): with the holders
    seeded from the position when garrisons are tracked, unchanged otherwise."""
    out = dict(usage)
    if mode_of(options) == "provinces":
        out[HOLDERS] = holders_of(usage, state)
    return out


def track(
    options: VariantOptions,
    fog: FogRules,
    before: GameState,
    resolutions: Sequence[Resolution],
    events: Sequence[Events],
    usage: Mapping[str, Any],
) -> tuple[list[Events], dict[str, Any]]:
    """The turn's garrison reports, added to each phase's events, and the usage after it.

    ``before`` is the position the turn started from (for the holders of a usage without any).
    The usage is never mutated.
    """
    mode = mode_of(options)
    out = list(events)
    if mode == "centers" and not getattr(fog.options, FOG_OPTION, False):
        for index, resolution in enumerate(resolutions):
            powers = resolution.before.powers
            out[index] = _told(out[index], {p: garrison_reports(resolution, p) for p in powers})
        return out, dict(usage)
    if mode != "provinces":
        return out, dict(usage)
    holders = holders_of(usage, before)
    for index, resolution in enumerate(resolutions):
        out[index] = _told(out[index], captures(resolution, holders))
    return out, {**usage, HOLDERS: dict(sorted(holders.items()))}


def captures(resolution: Resolution, holders: dict[str, str]) -> dict[str, list[Notice]]:
    """Each holder's reports from one phase; ``holders`` is brought up to date in place.

    A report needs the province empty at the start of the phase (garrisoned, not occupied: a
    unit driven out is its owner's news already) and a unit of another power there at the end.
    The holder knows the province was empty, since any other unit standing there would have
    made its power the holder. A holder's own unit coming back is no capture.
    """
    board, start = resolution.before.board, resolution.before.units
    told: dict[str, list[Notice]] = {}
    for province, unit in sorted(resolution.after.units.items()):
        if not garrisoned(board, province):
            continue
        holder = holders.get(province)
        if holder is not None and holder != unit.power and province not in start:
            told.setdefault(holder, []).append(garrison_notice(board, province, unit.power, unit.kind))
        holders[province] = unit.power
    return told


def _told(event: Events, notices: Mapping[str, Sequence[Notice]]) -> Events:
    if not any(notices.values()):
        return event
    merged = {power: tuple(found) for power, found in event.notices.items()}
    for power, found in notices.items():
        if found:
            merged[power] = merged.get(power, ()) + tuple(found)
    return dataclasses.replace(event, notices=merged)
