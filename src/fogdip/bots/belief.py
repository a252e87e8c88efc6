"""The belief over foreign units a power does not see, from its :class:`BotInput` alone.

:func:`believe` starts from :func:`~fogdip.bots.picture.picture_of` (what is seen now) and
adds :attr:`~fogdip.bots.picture.Picture.presence` for the units out of sight:

- **ghosts**: each last sighting of a foreign unit is spread over the provinces it could have
  reached since, by its type's adjacency, one step per movement phase played since, and fades
  with age (a unit seen long ago may be gone). Mass on provinces seen empty now is dropped: the
  unit is not there (and the rest is weighed up accordingly);
- **learned orders** of the latest report: a unit that gave an order stands where the order
  leaves it; a move whose origin is hidden (``???``) came from a province next to its target;
  a bounce notice tells that someone stands next to the province;
- **centre counts**: each power's expected units are scaled toward the centres it is believed
  to own (the last owners known, and the home owners of centres never seen), the foreign total
  toward the Winter centre totals where the variant announces them; a power with fewer units
  believed than its centres gets the rest on its unseen centres (early in the game, its homes).

``blind=True`` gives the fog-ignorant twin's picture: only the units seen now.

>>> from fogdip.game import Game
>>> from fogdip.bots.base import BotInput
>>> picture = believe(BotInput.of(Game.create("fog-of-war"), "FRANCE"))
>>> round(sum(picture.presence["BER"].values()), 2) > 0, "BER" in believe(BotInput.of(Game.create("fog-of-war"), "FRANCE"), blind=True).presence
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Protocol

from fogdip.bots.base import BotInput
from fogdip.bots.picture import UNKNOWN, Picture, picture_of
from fogdip.engine.map import Map, UnitKind, get_map
from fogdip.engine.units import Phase
from fogdip.fog.masked import OrderKind
from fogdip.fog.observation import Observation
from fogdip.variants.setup import setup_start

#: The chance a unit moves in one movement phase (it stays put otherwise).
MOVE_CHANCE = 0.6
#: How much of a sighting survives each movement phase (the unit may have been destroyed, or
#: the sighting have been of a unit seen elsewhere since).
FADE = 0.9
#: Sightings older than this many movement phases are spread no further (just fade).
MAX_STEPS = 4
#: The share of a power's missing units put on its unseen centres.
FILL_SHARE = 0.7
#: The chance a centre whose owner was never learned has been taken, per movement phase
#: played, and at most.
TAKEN_PER_MOVE, TAKEN_CAP = 0.25, 0.9
#: The mass of a unit known to stand in a province (less a rounding error).
SURE = 1.0 - 1e-9

Presence = dict[str, dict[str, float]]


def believe(given: BotInput, *, blind: bool = False, counts: bool = True) -> Picture:
    """The picture of ``given``'s power with its belief over unseen foreign units.

    ``blind``: only the units seen now (the fog-ignorant twin). ``counts=False``: the belief
    from sightings and learned orders alone, neither scaled to the powers' believed centre
    counts nor filled up on their centres (each part can then be looked at alone)."""
    picture = picture_of(given)
    if blind:
        return picture
    board = given.variant.board
    state = picture.state
    seen_units = {province: owners for province, owners in picture.presence.items()}
    # Provinces where no unseen unit can be: those in sight, and those where a unit is seen.
    known = set(given.seen.visible) | set(seen_units) | set(state.units) | set(picture.dislodged)
    presence: Presence = {}
    fleets: dict[str, float] = {}
    certain: dict[str, float] = {}  # units known to stand somewhere, though not seen: per owner

    def add(province: str, owner: str, mass: float, fleet: float | None) -> None:
        if mass <= 1e-4:
            return
        here = presence.setdefault(province, {})
        here[owner] = here.get(owner, 0.0) + mass
        if fleet is not None:
            fleets[province] = fleets.get(province, 0.0) + mass * fleet

    _learned(given, board, known, add, certain)
    now = _moves_before(given, board)
    for ghost in given.knowledge.ghosts():
        owner = ghost.owner or UNKNOWN
        if ghost.current or ghost.province in seen_units or owner == given.power:
            continue
        steps = max(0, now - _moves_after_sighting(given, ghost.phase, ghost.province, board))
        kind: UnitKind | None = ghost.unit.kind
        if kind is None:
            kind = "A" if board.can_hold("A", ghost.province) else "F"
        spread = _spread(board.name, kind, ghost.unit.location, min(steps, MAX_STEPS))
        fade = FADE**steps
        unseen = sum(chance for province, chance in spread if province not in known)
        if unseen <= 0.0:
            continue
        # The unit still exists with chance ``fade``; given that it is not where we look now.
        alive = fade * unseen / (fade * unseen + (1.0 - fade))
        for province, chance in spread:
            if province not in known:
                add(province, owner, alive * chance / unseen, 1.0 if kind == "F" else 0.0)
    if counts:
        _scale_to_centers(given, picture, board, known, presence, fleets, certain)
    for province, owners in seen_units.items():
        presence[province] = dict(owners)
    # One unit at most in a province: the mass there is the chance of some unit.
    for province, owners in presence.items():
        total = sum(owners.values())
        if total > 1.0:
            presence[province] = {owner: mass / total for owner, mass in owners.items()}
            fleets[province] = fleets.get(province, 0.0) / total
    fleet_share = dict(picture.fleets)
    for province, mass in fleets.items():
        if province not in fleet_share:
            total = sum(presence.get(province, {}).values())
            if total > 0:
                fleet_share[province] = min(1.0, mass / total)
    return Picture(
        picture.power,
        state,
        picture.dislodged,
        {province: presence[province] for province in sorted(presence)},
        fleet_share,
        picture.attacked_from,
        picture.standoffs,
        picture.retreat_options,
    )


def _learned(given: BotInput, board: Map, known: set[str], add: _Adder, certain: dict[str, float]) -> None:
    """The units the latest report's foreign orders and bounce notices tell of, not seen."""
    for seen in given.seen.orders:
        owner = seen.power or UNKNOWN
        if owner == given.power:
            continue
        order, result = seen.order, seen.result
        unit = order.unit
        if unit is None or order.kind in (OrderKind.PEEK, OrderKind.WAIVE, OrderKind.BUILD):
            continue
        kind = unit.kind
        fleet = None if kind is None else (1.0 if kind == "F" else 0.0)
        moved = order.kind in (OrderKind.MOVE, OrderKind.RETREAT) and result is not None and result.succeeded
        if order.kind in (OrderKind.DISBAND, OrderKind.DISBAND_NOW):
            continue
        # A unit that moved stands at its target; any other, where its order names it.
        stands = order.target if moved else unit.location
        if isinstance(stands, str):
            where = board.province_of(stands)
            if where not in known:
                add(where, owner, 1.0, fleet)
                certain[owner] = certain.get(owner, 0.0) + 1.0
                known.add(where)
            continue
        # Where the unit stands is hidden: next to the province its order names.
        target = order.target
        if isinstance(target, str):
            _around(board, board.province_of(target), kind, known, owner, fleet, add)
    for notice in given.seen.notices_of("bounce"):
        bounced = dict(notice.data).get("target")
        if isinstance(bounced, str) and board.is_location(bounced):
            _around(board, board.province_of(bounced), None, known, UNKNOWN, None, add)


class _Adder(Protocol):
    """The signature of the function that adds believed presence."""

    def __call__(self, province: str, owner: str, mass: float, fleet: float | None) -> None: ...


def _around(
    board: Map,
    province: str,
    kind: UnitKind | None,
    known: set[str],
    owner: str,
    fleet: float | None,
    add: _Adder,
) -> None:
    """One unit spread evenly over the unseen provinces next to ``province`` it could stand on."""
    places = sorted(
        near for near in board.neighbours[province] if near not in known and (kind is None or _holds(board, kind, near))
    )
    for near in places:
        add(near, owner, 1.0 / len(places), fleet)


def _holds(board: Map, kind: UnitKind, province: str) -> bool:
    return board.can_hold(kind, province) or any(board.can_hold(kind, coast) for coast in board.coasts(province))


def _scale_to_centers(
    given: BotInput,
    picture: Picture,
    board: Map,
    known: set[str],
    presence: Presence,
    fleets: dict[str, float],
    certain: dict[str, float],
) -> None:
    """Scale each power's unseen presence toward its believed centre count, and put the units
    it is still missing on its unseen centres."""
    owners = _believed_owners(given, board)
    counts: dict[str, float] = {}
    for owner in owners.values():
        counts[owner] = counts.get(owner, 0.0) + 1.0
    guessed = _guessed_owners(given, board, owners)
    for owner, weight in guessed.values():
        counts[owner] = counts.get(owner, 0.0) + weight
    totals = _foreign_total(given)
    if totals is not None:
        believed = sum(count for power, count in counts.items() if power != given.power)
        if believed > 0:
            for power in list(counts):
                if power != given.power:
                    counts[power] *= 0.5 + 0.5 * totals / believed
    seen: dict[str, float] = dict(certain)
    for owners_here in picture.presence.values():
        for owner, mass in owners_here.items():
            seen[owner] = seen.get(owner, 0.0) + mass
    for power in sorted(counts):
        if power == given.power:
            continue
        wanted = counts[power] - seen.get(power, 0.0)
        # A unit known to stand somewhere (a learned order placed it) is not scaled: only
        # the spread-out guesses are.
        guesses = [owners_here for owners_here in presence.values() if 0.0 < owners_here.get(power, 0.0) < SURE]
        have = sum(owners_here[power] for owners_here in guesses)
        if have > 0:
            factor = min(1.5, max(0.3, wanted / have))
            factor = 0.5 + 0.5 * factor  # toward the count, not onto it: counts are guesses too
            for owners_here in guesses:
                owners_here[power] *= factor
            have *= factor
        missing = wanted - have
        if missing <= 0.25:
            continue
        spots = [(c, 1.0) for c, o in sorted(owners.items()) if o == power and c not in known]
        spots += [(c, w) for c, (o, w) in sorted(guessed.items()) if o == power and c not in known]
        weight = sum(w for _, w in spots)
        if weight <= 0:
            continue
        for spot, w in spots:
            share = w * min(0.8, FILL_SHARE * missing / weight)
            here = presence.setdefault(spot, {})
            here[power] = here.get(power, 0.0) + share
            if not board.can_hold("A", spot):
                fleets[spot] = fleets.get(spot, 0.0) + share


def _believed_owners(given: BotInput, board: Map) -> dict[str, str]:
    """Each centre's believed owner: the last known, else its owner at the start (every
    setup gives each power known centres: its homes, or under 1898 its one centre)."""
    owners = dict(setup_start(given.variant.options.setup, board).centers)
    for center, known in given.knowledge.centers().items():
        if known.owner is None:
            owners.pop(center, None)
        else:
            owners[center] = known.owner
    return owners


def _guessed_owners(given: BotInput, board: Map, owners: dict[str, str]) -> dict[str, tuple[str, float]]:
    """Centres whose owner was never learned, each guessed to be the nearest foreign power's
    (by its believed centres), with the chance it has been taken by now: the neutral centres
    go early in a game, and a power that never sees them change hands would otherwise believe
    its rivals as small as at the start (and their units as few)."""
    taken = min(TAKEN_CAP, TAKEN_PER_MOVE * _moves_before(given, board))
    if taken <= 0:
        return {}
    by_power: dict[str, list[str]] = {}
    for center, owner in sorted(owners.items()):
        if owner != given.power:
            by_power.setdefault(owner, []).append(center)
    distances = {power: board.distances_from(tuple(centers)) for power, centers in sorted(by_power.items())}
    out: dict[str, tuple[str, float]] = {}
    for center in sorted(board.supply_centers):
        if center in owners:
            continue
        near = min(((d.get(center, 99), power) for power, d in distances.items()), default=None)
        if near is not None and near[0] < 99:
            out[center] = (near[1], taken)
    return out


def _foreign_total(given: BotInput) -> float | None:
    """The foreign powers' centres all told, from the latest centre totals announced."""
    for report in reversed(given.reports):
        for notice in report.notices_of("center-totals"):
            totals = dict(notice.data).get("totals")
            if isinstance(totals, tuple):
                whole = sum(value for value in totals if isinstance(value, int))
                own = sum(1 for _, owner in report.centers if owner == given.power)
                return float(max(0, whole - own))
    return None


def _moves_before(given: BotInput, board: Map) -> int:
    """Movement phases played before the turn to play."""
    phase = given.phase
    if phase is None:
        return 0
    base = (phase.year - board.first_year) * 2
    if phase.kind == "A":
        return base + 2
    return base + (0 if phase.season == "S" else 1) + (1 if phase.kind == "R" else 0)


def _moves_after(phase: Phase, board: Map) -> int:
    """Movement phases played once ``phase`` has been played."""
    base = (phase.year - board.first_year) * 2
    if phase.kind == "A":
        return base + 2
    return base + (1 if phase.season == "S" else 2)


def _moves_after_sighting(given: BotInput, stamp: str, province: str, board: Map) -> int:
    """Movement phases played when a sighting stamped ``stamp`` was made. The opening report
    stamps its sightings with the first phase (before it is played), as the report after that
    phase does (after it): a sighting the later report made is after."""
    try:
        phase = Phase.parse(stamp)
    except ValueError:
        return 0
    opening = given.reports[0]
    if opening.opening and stamp == opening.next_phase:
        later = _reports_of(given.reports[1:], stamp)
        if not any(province in report.visible or report.unit_at(province) for report in later):
            base = (phase.year - board.first_year) * 2
            return base + (0 if phase.season == "S" else 1) if phase.kind != "A" else base + 2
    return _moves_after(phase, board)


def _reports_of(reports: Iterable[Observation], stamp: str) -> list[Observation]:
    return [report for report in reports if report.phase == stamp and not report.opening]


@lru_cache(maxsize=4096)
def _spread(map_name: str, kind: UnitKind, location: str, steps: int) -> tuple[tuple[str, float], ...]:
    """Where a unit of ``kind`` on ``location`` may be after ``steps`` movement phases, by
    province, with its chance: a walk that stays with chance ``1 - MOVE_CHANCE`` and moves to
    each neighbour its type may enter alike otherwise. Nothing lies beyond ``steps`` moves.

    >>> dict(_spread("standard", "A", "PAR", 1))["BUR"]
    0.15
    """
    board = get_map(map_name)
    now: dict[str, float] = {location: 1.0}
    for _ in range(steps):
        after: dict[str, float] = {}
        for here, chance in now.items():
            targets = sorted(board.targets(kind, here))
            if not targets:
                after[here] = after.get(here, 0.0) + chance
                continue
            after[here] = after.get(here, 0.0) + chance * (1.0 - MOVE_CHANCE)
            step = chance * MOVE_CHANCE / len(targets)
            for there in targets:
                after[there] = after.get(there, 0.0) + step
        now = after
    by_province: dict[str, float] = {}
    for here, chance in now.items():
        province = board.province_of(here)
        by_province[province] = by_province.get(province, 0.0) + chance
    return tuple(sorted((province, round(chance, 12)) for province, chance in by_province.items()))


__all__ = ["believe"]
