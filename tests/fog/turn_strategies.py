"""Strategies for the turn-level no-leak property: a fog preset's game of one or two turns,
played twice, the second time with one foreign unit the power P cannot see changed.

The games are built to reach where leaks hide, rather than left to chance:

* **P's own orders are drawn by the map alone**, never from the engine's lists of legal
  orders (those look at the whole board, so drawing from them would only ever give P orders
  whose legality the hidden units happen to allow). They include the risky classes: army
  moves that only a convoy could make, with P's own fleets ordered to convoy them; ``VIA``
  moves to adjacent provinces; supports of provinces P may not see, of units that may or may
  not be there, including moves that need a convoy; convoys by P's fleets at sea of any army
  between coastal provinces; retreats into provinces P cannot see; builds and removals;
  deadman's espionage, peeks and ``DB``; sighting's retreats and adjustments filed ahead,
  plain and conditional.
* **Dislodgements are made on purpose**: foreign attackers with support placed next to one of
  P's units or a foreign unit P sees, so that a retreat turn follows (a second turn, or, in
  ``sighting``, the retreats filed ahead); retreat jams (a unit P sees and another, both
  dislodged next to one province P cannot see, both sent there); and skirmishes in the dark
  that make hidden dislodgements, which, with a power about to win, decide whether the game
  ends this turn.
* **Foreign units stand where one hidden unit decides something**: sea routes that P's lines
  hang on are laid with fleets but for one sea beyond P's sight (:func:`sea_pairs`), and
  foreign units stand in the dark ring around what P sees.
* **The hidden unit U is chosen after the first game is played**, outside the contact zone
  that game gives P, so few examples are thrown away, and most often where it decides
  something: the hole in a sea route (or a fleet without which one breaks), the province of a
  retreat jam, the support of an attack in the dark. U is added, removed, moved to another
  place P cannot see, given the other type, or given another order legal for it; its orders
  name nothing in the zone and are no espionage aimed at P. Seldom a centre: a capture
  changes the public centre counts, and the example would be thrown away.

This is targeting, not assuming: where U goes is worked out from the map and the first game
only, and whether the two games may be compared is checked on their records afterwards.

The property itself, with the zone and the facts compared, is in ``test_no_leaks.py``.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

from hypothesis import strategies as st
from strategies import BOARD, POWERS, PROVINCES, SPOTS, ball, words_provinces

from fogdip.engine import GameState, Phase, Unit
from fogdip.engine.legal import MovementOptions, legal_orders
from fogdip.engine.map import UnitKind
from fogdip.variants import Position, TurnResult, Variant
from fogdip.variants import garrisons

Lines = dict[str, list[str]]

CENTERS = tuple(sorted(BOARD.supply_centers))
SEAS = frozenset(p for p in PROVINCES if BOARD.provinces[p].terrain == "sea")
COASTAL = frozenset(p for p in PROVINCES if BOARD.provinces[p].terrain == "coast")
LAND = frozenset(p for p in PROVINCES if BOARD.provinces[p].terrain in ("land", "coast"))


def text(unit: Unit) -> str:
    return f"{unit.kind} {unit.location}"


@cache
def convoy_reach(province: str, depth: int = 4) -> tuple[str, ...]:
    """Coastal provinces an army on ``province`` could only reach by sea, through at most
    ``depth`` sea provinces: by the map alone, whoever's fleets stand there."""
    if province not in COASTAL:
        return ()
    seas = {s for s in BOARD.neighbours[province] if s in SEAS}
    frontier = set(seas)
    for _ in range(depth - 1):
        frontier = {n for s in frontier for n in BOARD.neighbours[s] if n in SEAS} - seas
        seas |= frontier
    shores = {c for s in seas for c in BOARD.neighbours[s] if c in COASTAL}
    land = BOARD.army_targets(province)
    return tuple(sorted(shores - land - {province}))


@cache
def via_targets(province: str) -> tuple[str, ...]:
    """Adjacent coastal provinces an army on ``province`` could also be convoyed to: both
    shores touch a common sea (``A BRE - PIC VIA``)."""
    if province not in COASTAL:
        return ()
    seas = {s for s in BOARD.neighbours[province] if s in SEAS}
    return tuple(sorted(
        t for t in BOARD.army_targets(province) if t in COASTAL and seas & BOARD.neighbours[t]
    ))


@cache
def sea_distances(province: str) -> dict[str, int]:
    """Steps over sea provinces from the seas next to ``province`` (those are at 1)."""
    out = {s: 1 for s in BOARD.neighbours[province] if s in SEAS}
    frontier = list(out)
    while frontier:
        step = []
        for sea in frontier:
            for nxt in BOARD.neighbours[sea]:
                if nxt in SEAS and nxt not in out:
                    out[nxt] = out[sea] + 1
                    step.append(nxt)
        frontier = step
    return out


@cache
def route_seas(origin: str, target: str) -> frozenset[str]:
    """The seas on the shortest sea routes between two shores (and those one step longer):
    where fleets, anyone's, decide whether an army could be convoyed from one to the other."""
    if origin not in COASTAL or target not in COASTAL:
        return frozenset()
    there, back = sea_distances(origin), sea_distances(target)
    totals = {s: there[s] + back[s] for s in there if s in back}
    if not totals:
        return frozenset()
    best = min(totals.values())
    return frozenset(s for s, total in totals.items() if total <= best + 1)


def sea_pairs(lines: Iterable[str]) -> set[tuple[str, str, str | None]]:
    """The sea routes whose existence the engine's judgement of ``lines`` hangs on, as
    (origin, target, convoying fleet's province or ``None``): a ``VIA`` move is legal only if
    fleets (anyone's) could carry it; a support of a move between two shores only if fleets
    could carry the supported army; a convoy only if its fleet is on such a route (and an
    army ordered to move to a neighbour that a fleet of its own power convoys may then go by
    sea)."""
    out: set[tuple[str, str, str | None]] = set()
    for line in lines:
        if " - " not in line:
            continue
        before, after = line.rsplit(" - ", 1)
        words, rest = before.split(), after.split()
        if not (words and rest and BOARD.is_location(words[-1]) and BOARD.is_location(rest[0])):
            continue
        origin, target = BOARD.province_of(words[-1]), BOARD.province_of(rest[0])
        if origin not in COASTAL or target not in COASTAL or origin == target:
            continue
        if len(words) >= 4 and words[2] == "C" and BOARD.is_location(words[1]):
            out.add((origin, target, BOARD.province_of(words[1])))
        elif ("VIA" in rest and target in BOARD.army_targets(origin)) or (
                len(words) >= 4 and words[2] == "S" and words[3] != "F"):
            out.add((origin, target, None))
    return out


def supported_moves(lines: Iterable[str]) -> set[tuple[str, str]]:
    """(origin, target) of the moves between two shores that ``lines`` support
    (``A BUR S A LON - BEL``): an army there may go by sea."""
    out = set()
    for origin, target, through in sea_pairs(lines):
        if through is None and any(f" S {w}{origin} - " in f" {line} " or f" S {origin}" in line
                                   for line in lines for w in ("A ", "")):
            out.add((origin, target))
    return out


def sea_path(starts: Iterable[str], goals: frozenset[str]) -> list[str]:
    """The seas of one shortest chain of seas from one of ``starts`` to one of ``goals``."""
    back: dict[str, str | None] = {s: None for s in sorted(starts)}
    frontier = list(back)
    while frontier:
        step = []
        for sea in frontier:
            if sea in goals:
                path = [sea]
                while back[path[-1]] is not None:
                    path.append(back[path[-1]])  # type: ignore[arg-type]
                return path[::-1]
            for nxt in sorted(BOARD.neighbours[sea]):
                if nxt in SEAS and nxt not in back:
                    back[nxt] = sea
                    step.append(nxt)
        frontier = step
    return []


@cache
def shortest_sea_path(origin: str, target: str, through: str | None = None) -> tuple[str, ...]:
    """The seas of one shortest sea route from shore to shore, through the sea ``through``
    if given (none if there is none)."""
    def shore(province: str) -> frozenset[str]:
        return frozenset(s for s in BOARD.neighbours[province] if s in SEAS)

    if through is None:
        return tuple(sea_path(shore(origin), shore(target)))
    first = sea_path(shore(origin), frozenset({through}))
    second = sea_path([through], shore(target))
    return tuple(dict.fromkeys(first + second)) if first and second else ()


def sea_route(fleets: frozenset[str], origin: str, target: str, through: str | None = None) -> bool:
    """Whether fleets in the seas ``fleets`` make a chain (each sea once) from a sea next to
    ``origin`` to a sea next to ``target``, passing the fleet in ``through`` if given: by the
    map and the fleets' places alone."""
    if through is not None and through not in fleets:
        return False

    def walk(sea: str, visited: frozenset[str]) -> bool:
        if target in BOARD.neighbours[sea] and (through is None or through in visited):
            return True
        return any(walk(nxt, visited | {nxt}) for nxt in BOARD.neighbours[sea] if nxt in fleets and nxt not in visited)

    return any(walk(s, frozenset({s})) for s in sorted(fleets) if origin in BOARD.neighbours[s])


def critical_seas(state: GameState, lines: Iterable[str]) -> tuple[frozenset[str], frozenset[str]]:
    """Seas where one fleet decides whether a route of :func:`sea_pairs` exists, for an army
    that stands at its origin: empty seas where a fleet would complete one, and fleets
    without which one breaks."""
    fleets = frozenset(p for p, u in state.units.items() if p in SEAS)
    empty = [s for s in SEAS if s not in state.units]
    adding: set[str] = set()
    removing: set[str] = set()
    for origin, target, through in sea_pairs(lines):
        army = state.units.get(origin)
        if army is None or army.kind != "A":
            continue
        if sea_route(fleets, origin, target, through):
            removing |= {f for f in fleets if f != through and not sea_route(fleets - {f}, origin, target, through)}
        else:
            adding |= {s for s in empty if sea_route(fleets | {s}, origin, target, through)}
    return frozenset(adding), frozenset(removing)


def completed_routes(state: GameState, lines: Iterable[str], sea: str) -> list[tuple[str, str]]:
    """(origin, target) of the sea routes of ``lines`` (:func:`sea_pairs`) that a fleet in
    ``sea`` would complete, for an army that stands at the origin."""
    fleets = frozenset(p for p in state.units if p in SEAS)
    out = []
    for origin, target, through in sorted(sea_pairs(lines), key=str):
        army = state.units.get(origin)
        if army is not None and army.kind == "A" and not sea_route(fleets, origin, target, through) \
                and sea_route(fleets | {sea}, origin, target, through):
            out.append((origin, target))
    return out


def route_seas_of(lines: Iterable[str]) -> frozenset[str]:
    """The seas on the sea routes of the moves, supports and convoys among ``lines`` between
    two shores (``A BRE - EDI``, ``A BRE - PIC VIA``, ``S A GAS - MAR``, ``C A BRE - EDI``)."""
    out: set[str] = set()
    for line in lines:
        if " - " not in line:
            continue
        before, after = line.rsplit(" - ", 1)
        words = before.split()
        if words and BOARD.is_location(words[-1]) and after.split() and BOARD.is_location(after.split()[0]):
            out |= route_seas(BOARD.province_of(words[-1]), BOARD.province_of(after.split()[0]))
    return frozenset(out)


def reach(unit: Unit) -> tuple[str, ...]:
    """Provinces the unit could move into without a convoy (where it may support or retreat)."""
    return tuple(sorted(BOARD.reachable_provinces(unit.kind, unit.location)))


def retreat_line(unit: Unit, target: str) -> str:
    """``F NTH R NWG``, naming the coast a fleet would arrive on where the map leaves one."""
    if unit.kind == "F":
        coasts = [c for c in BOARD.coasts(target) if c in BOARD.fleet_targets(unit.location)]
        if coasts:
            target = coasts[0]
    return f"{text(unit)} R {target}"


# --- games ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """One turn as played: where it started, every power's lines, what came of it."""

    position: Position
    orders: Mapping[str, tuple[str, ...]]
    result: TurnResult


@dataclass(frozen=True)
class Game:
    """A game of one or two turns."""

    turns: tuple[Turn, ...]


def play_turn(variant: Variant, position: Position, orders: Mapping[str, Sequence[str]]) -> Turn:
    lines = {power: tuple(listed) for power, listed in orders.items() if listed}
    return Turn(position, lines, variant.play(position, {p: list(l) for p, l in lines.items()}))


def needs_retreat_turn(variant: Variant, turn: Turn) -> bool:
    """Whether the turn left units to retreat in a turn of their own (``sighting`` files them
    ahead, within the movement turn)."""
    after = turn.result.position
    return not after.completed and after.state.phase.kind == "R" and bool(after.state.dislodged)


def describe_position(position: Position) -> str:
    state = position.state
    units: dict[str, list[str]] = {}
    for unit in state.units.values():
        units.setdefault(unit.power, []).append(text(unit))
    for dislodged in state.dislodged.values():
        units.setdefault(dislodged.unit.power, []).append("*" + text(dislodged.unit))
    listed = "; ".join(f"{p}: {', '.join(sorted(u))}" for p, u in sorted(units.items()))
    counts = Counter(state.centers.values())
    centres = ", ".join(f"{p[:3]} {n}" for p, n in sorted(counts.items()))
    return f"{position.name} {listed} (centres: {centres})"


def describe_game(game: Game) -> str:
    out = []
    for turn in game.turns:
        out.append(f"    {describe_position(turn.position)}")
        for power, lines in sorted(turn.orders.items()):
            out.append(f"      {power}: {' | '.join(lines)}")
    return "\n".join(out)


@dataclass(frozen=True)
class TurnCase:
    """A game played twice, the second time with one hidden foreign unit ``U`` changed.

    ``places`` are U's provinces in either game, before the turn; ``lines`` are U's order
    lines in either game. The property checks that both lie outside P's contact zone."""

    variant: Variant
    power: str
    change: str
    places: frozenset[str]
    lines: tuple[str, ...]
    first: Game
    second: Game

    def __repr__(self) -> str:
        return (
            f"TurnCase({self.variant.name}, power={self.power}, change={self.change!r},\n"
            f"  first game:\n{describe_game(self.first)}\n  second game:\n{describe_game(self.second)})"
        )

    def _repr_pretty_(self, printer: object, cycle: bool) -> None:
        printer.text(repr(self))  # type: ignore[attr-defined]


#: P's contact zone in one game: ``zone_of(variant, game, power)`` (see test_no_leaks.py).
ZoneOf = Callable[[Variant, Game, str], frozenset[str]]


# --- placing units -------------------------------------------------------------------------


class Board:
    """Units being placed for a position, at most one per province."""

    def __init__(self) -> None:
        self.units: dict[str, Unit] = {}

    def free(self, provinces: Iterable[str]) -> list[str]:
        return sorted(p for p in set(provinces) if p not in self.units and BOARD.provinces[p].passable)

    def place(self, draw: st.DrawFn, province: str, power: str, reaching: str | None = None,
              kind: UnitKind | None = None) -> Unit | None:
        """Put a unit of ``power`` on ``province`` (able to move to ``reaching``, if given)."""
        spots = [(k, loc) for k, loc in SPOTS[province] if kind in (None, k)]
        if reaching is not None:
            spots = [(k, loc) for k, loc in spots if reaching in BOARD.reachable_provinces(k, loc)]
        if not spots or province in self.units:
            return None
        chosen_kind, location = draw(st.sampled_from(spots))
        unit = Unit(power, chosen_kind, location)
        self.units[province] = unit
        return unit


@dataclass
class Draft:
    """A position being drawn: its units, and the lines given so far."""

    board: Board
    lines: Lines

    def give(self, unit: Unit, line: str | None) -> None:
        if line is not None:
            self.lines.setdefault(unit.power, []).append(line)


def others(power: str, *also: str) -> list[str]:
    return [p for p in POWERS if p != power and p not in also]


def attack(draw: st.DrawFn, draft: Draft, victim: Unit, attackers: list[str], supported: bool = True,
           keep: frozenset[str] = frozenset()) -> list[Unit]:
    """Place an attacker on ``victim`` and, if ``supported``, a supporter, both of one power
    (neither P nor the victim's), with their orders; nothing is placed on ``keep``."""
    province = victim.province
    near = draft.board.free(BOARD.neighbours[province] - keep)
    if not near or not attackers:
        return []
    power = draw(st.sampled_from(attackers))
    origin = draw(st.sampled_from(near))
    mover = draft.board.place(draw, origin, power, reaching=province)
    if mover is None:
        return []
    draft.give(mover, f"{text(mover)} - {province}")
    placed = [mover]
    if supported:
        spots = draft.board.free(BOARD.neighbours[province] - keep)
        if spots:
            helper = draft.board.place(draw, draw(st.sampled_from(spots)), power, reaching=province)
            if helper is not None:
                draft.give(helper, f"{text(helper)} S {text(mover)} - {province}")
                placed.append(helper)
    return placed


# --- P's orders, by the map alone -----------------------------------------------------------


def own_line(draw: st.DrawFn, unit: Unit, variant: Variant, armies: Sequence[Unit] = ()) -> str | None:
    """One order for one of P's units, drawn from the map alone (and, for supports and
    convoys, from the armies P knows of, ``armies``: its own and those it sees)."""
    here = unit.province
    shapes = ["hold", "move", "move", "support", "support-move", "support-move", "none"]
    if unit.kind == "A" and convoy_reach(here):
        shapes += ["convoy-move"] * 5
    if unit.kind == "A" and via_targets(here):
        shapes += ["via"] * 3 + ["walk"] * 3
    if unit.kind == "F" and here in SEAS:
        shapes += ["convoy"] * 3
    carried = [(a, t) for a in armies if a != unit for t in (*convoy_reach(a.province), *via_targets(a.province))]
    backed = [(a, t) for a, t in carried if t in BOARD.reachable_provinces(unit.kind, unit.location)]
    if backed:
        shapes += ["support-sea"] * 3
    if unit.kind == "F" and here in SEAS and carried:
        shapes += ["convoy-known"] * 4
    if variant.options.espionage:
        shapes += ["spy"]
    if variant.options.disband_in_movement:
        shapes += ["db"]
    shape = draw(st.sampled_from(shapes))
    head = text(unit)
    if shape == "none":
        return None
    if shape == "hold":
        return f"{head} H"
    if shape == "move":
        return f"{head} - {draw(st.sampled_from(sorted(BOARD.targets(unit.kind, unit.location))))}"
    if shape == "convoy-move":
        via = draw(st.sampled_from(["", " VIA"]))
        return f"{head} - {draw(st.sampled_from(convoy_reach(here)))}{via}"
    if shape == "via":
        return f"{head} - {draw(st.sampled_from(via_targets(here)))} VIA"
    if shape == "walk":  # along the coast: by land, or by sea if fleets of its own convoy it
        return f"{head} - {draw(st.sampled_from(via_targets(here)))}"
    if shape == "support":
        kind = draw(st.sampled_from(["", "A ", "F "]))
        return f"{head} S {kind}{draw(st.sampled_from(reach(unit)))}"
    if shape == "support-move":
        target = draw(st.sampled_from(reach(unit)))
        sources = sorted((set(BOARD.neighbours[target]) | set(convoy_reach(target))) - {here, target})
        kind = draw(st.sampled_from(["", "A ", "F "]))
        return f"{head} S {kind}{draw(st.sampled_from(sources))} - {target}"
    if shape == "support-sea":  # a move only a convoy (or a VIA) could make: legal if fleets could
        army, target = draw(st.sampled_from(backed))
        return f"{head} S {draw(st.sampled_from(['', 'A ']))}{army.province} - {target}"
    if shape == "convoy-known":
        army, target = draw(st.sampled_from(carried))
        return f"{head} C A {army.province} - {target}"
    if shape == "convoy":
        shores = sorted(p for p in ball([here], 2) if p in COASTAL and convoy_reach(p))
        if not shores:
            return f"{head} H"
        origin = draw(st.sampled_from(shores))
        return f"{head} C A {origin} - {draw(st.sampled_from(convoy_reach(origin)))}"
    if shape == "spy":
        return f"{head} E {draw(st.sampled_from(others(unit.power)))}"
    return f"{head} DB"


def own_movement_lines(draw: st.DrawFn, variant: Variant, state: GameState, power: str) -> list[str]:
    """P's lines for a movement phase: one per unit (or none), its fleets at sea often
    convoying its own armies' sea moves, and for deadman a peek now and then. Supports and
    convoys may name any army P knows of: its own, and foreign ones it sees in ``state``."""
    units = sorted(state.units_of(power), key=lambda u: u.province)
    sight = variant.fog.visible_provinces(state, power)
    armies = [u for _, u in sorted(state.units.items()) if u.kind == "A" and (u.power == power or u.province in sight)]
    lines: dict[str, str] = {}
    for unit in units:
        line = own_line(draw, unit, variant, armies)
        if line is not None:
            lines[unit.province] = line
    # The convoy kit: P's fleets at sea ordered to carry P's armies where they were sent, or
    # an army sent along the coast to a neighbour its fleet does not touch, that fleet
    # convoying it (whether the army walks or sails then hangs on fleets further out).
    for fleet in units:
        if fleet.kind != "F" or fleet.province not in SEAS:
            continue
        sea_moves = [(u, lines[u.province]) for u in units if u.kind == "A" and u.province in lines
                     and " - " in lines[u.province]]
        around = [(u, t) for u in units if u.kind == "A" and fleet.province in BOARD.neighbours[u.province]
                  for t in via_targets(u.province) if t not in BOARD.neighbours[fleet.province]]
        far = [(u, t) for u in units if u.kind == "A" and fleet.province in BOARD.neighbours[u.province]
               for t in convoy_reach(u.province) if len(shortest_sea_path(u.province, t, fleet.province)) >= 3]
        mode = draw(st.integers(0, 6))
        if mode < 2 and around:
            army, target = draw(st.sampled_from(around))
            lines[army.province] = f"{text(army)} - {target}"
            lines[fleet.province] = f"{text(fleet)} C A {army.province} - {target}"
        elif mode < 4 and far:  # a long way by sea: fleets far from P's sight decide the route
            army, target = draw(st.sampled_from(far))
            lines[army.province] = f"{text(army)} - {target}"
            lines[fleet.province] = f"{text(fleet)} C A {army.province} - {target}"
        elif mode < 6 and sea_moves:
            army, line = draw(st.sampled_from(sea_moves))
            target = line.split(" - ")[1].split()[0]
            lines[fleet.province] = f"{text(fleet)} C A {army.province} - {target}"
    out = list(lines.values())
    if variant.options.peek and state.phase.year >= variant.options.peek_from_year and draw(st.integers(0, 2)) == 0:
        near = sorted(ball([u.province for u in units], 2))
        out.append(f"PAS {draw(st.sampled_from(near))}")
    return out


def own_retreat_line(draw: st.DrawFn, unit: Unit, unseen: frozenset[str]) -> str | None:
    """A retreat for one of P's dislodged units, by the map: most often into a province P
    cannot see (``unseen``), else anywhere it could move, or a disband, or nothing."""
    targets = reach(unit)
    dark = [t for t in targets if t in unseen]
    shape = draw(st.sampled_from(["dark", "dark", "dark", "any", "disband", "none"]))
    if shape == "dark" and dark:
        return retreat_line(unit, draw(st.sampled_from(dark)))
    if shape in ("dark", "any") and targets:
        return retreat_line(unit, draw(st.sampled_from(targets)))
    if shape == "disband":
        return f"{text(unit)} D"
    return None


def own_adjustment_lines(draw: st.DrawFn, state: GameState, power: str, variant: Variant) -> list[str]:
    """Builds in P's home centres (any owned centre where the variant allows), by the map;
    removals of its units; WAIVE."""
    homes = sorted(set(state.homes.get(power, ())) | (
        {c for c, o in state.centers.items() if o == power} if variant.options.build_in_any_owned_center else set()
    ))
    out: list[str] = []
    for _ in range(draw(st.integers(0, 2))):
        shape = draw(st.sampled_from(["build", "build", "remove", "waive"]))
        if shape == "build" and homes:
            kind, location = draw(st.sampled_from(SPOTS[draw(st.sampled_from(homes))]))
            out.append(f"{kind} {location} B")
        elif shape == "remove" and state.units_of(power):
            out.append(f"{text(draw(st.sampled_from(sorted(state.units_of(power), key=str))))} D")
        elif shape == "waive":
            out.append("WAIVE")
    return out


def filed_ahead_lines(draw: st.DrawFn, variant: Variant, state: GameState, power: str) -> list[str]:
    """``sighting``: retreats (plain and conditional) and, in Fall, adjustments (plain and
    conditional on moves P can see) filed with the movement orders."""
    sight = sorted(variant.fog.visible_provinces(state, power))
    out: list[str] = []
    for unit in sorted(state.units_of(power), key=lambda u: u.province):
        shape = draw(st.sampled_from(["none", "retreat", "retreat", "if-retreat", "disband"]))
        targets = reach(unit)
        if shape == "retreat" and targets:
            out.append(retreat_line(unit, draw(st.sampled_from(targets))))
        elif shape == "if-retreat" and targets:
            out.append(f"IF {text(unit)} DISLODGED THEN {retreat_line(unit, draw(st.sampled_from(targets)))}")
        elif shape == "disband":
            out.append(f"{text(unit)} R D")
    if state.phase.season == "F":
        for line in own_adjustment_lines(draw, state, power, variant):
            pairs = [(a, b) for a in sight for b in sorted(BOARD.neighbours[a]) if b in sight]
            if pairs and draw(st.integers(0, 1)) == 1:
                origin, target = draw(st.sampled_from(pairs))
                negated = draw(st.sampled_from(["", "NOT "]))
                line = f"IF {negated}{origin} - {target} THEN {line}"
            out.append(line)
    return out


# --- foreign orders ---------------------------------------------------------------------------


def foreign_line(draw: st.DrawFn, options: MovementOptions, unit: Unit, variant: Variant,
                 avoid: frozenset[str] = frozenset()) -> str | None:
    """An order for a foreign unit: none, a legal one (the engine's list), or one drawn by the
    map alone like P's (it may be illegal, or legal only thanks to fleets elsewhere). Orders
    naming a province in ``avoid`` are not drawn."""
    shape = draw(st.sampled_from(["none", "legal", "legal", "legal", "map"]))
    if shape == "map":
        line = own_line(draw, unit, variant)
        if line is None or " E " in line or line.endswith(" DB") or set(words_provinces(line)) & avoid:
            return None
        return line
    if shape == "legal":
        ref = options.refs[unit.province]
        lines = [str(options.order(ref, spec)) for spec in options.choices(unit)]
        lines = [line for line in lines if not set(words_provinces(line)) & avoid]
        return draw(st.sampled_from(lines)) if lines else None
    return None


def foreign_retreat_line(draw: st.DrawFn, unit: Unit, targets: Sequence[str], shared: Sequence[str],
                         avoid: frozenset[str] = frozenset()) -> str | None:
    """A retreat for a foreign dislodged unit, by the map: often into a province another
    dislodged unit could also retreat to (so retreats meet and bounce)."""
    targets = [t for t in targets if t not in avoid]
    meet = [t for t in shared if t in targets]
    shape = draw(st.sampled_from(["meet", "meet", "meet", "any", "disband", "none"]))
    if shape == "meet" and meet:
        return retreat_line(unit, draw(st.sampled_from(meet)))
    if shape in ("meet", "any") and targets:
        return retreat_line(unit, draw(st.sampled_from(targets)))
    if shape == "disband":
        return f"{text(unit)} D"
    return None


def retreat_turn_lines(draw: st.DrawFn, variant: Variant, position: Position, power: str) -> Lines:
    """Every power's lines for a retreat turn, by the map alone."""
    state = position.state
    unseen = frozenset(PROVINCES) - variant.fog.visible_provinces(state, power)
    dislodged = sorted(state.dislodged.values(), key=lambda d: d.unit.province)
    counts: dict[str, int] = {}
    for d in dislodged:
        for target in reach(d.unit):
            counts[target] = counts.get(target, 0) + 1
    shared = sorted(t for t, n in counts.items() if n > 1)
    # One province most of the foreign units that could retreat there are sent to, preferably
    # one P cannot see: whether they meet there, or find a unit standing, must not show.
    watched = [d.unit for p, d in state.dislodged.items() if p not in unseen and d.unit.power != power]
    rally = sorted({t for u in watched for t in reach(u) if t in unseen and counts.get(t, 0) > 1}) or [
        t for t in shared if t in unseen] or shared
    meeting = [draw(st.sampled_from(rally))] if rally else []
    lines: Lines = {}
    for d in dislodged:
        unit = d.unit
        if unit.power == power:
            line = own_retreat_line(draw, unit, unseen)
        elif meeting and meeting[0] in reach(unit) and draw(st.integers(0, 3)) > 0:
            line = retreat_line(unit, meeting[0])
        else:
            line = foreign_retreat_line(draw, unit, reach(unit), shared)
        if line is not None:
            lines.setdefault(unit.power, []).append(line)
    return lines


# --- positions ----------------------------------------------------------------------------------


@st.composite
def first_turns(draw: st.DrawFn, variant: Variant, power: str) -> tuple[Position, Lines]:
    """A position of a fog preset and every power's lines for its first turn, built around P:
    P's units and lines first (by the map), then the foreign units, placed where they bear on
    those lines, then the foreign lines."""
    options = variant.options
    winter = options.fog != "sighting" and draw(st.integers(0, 5)) == 0
    season: Literal["S", "F", "W"] = "W" if winter else draw(st.sampled_from(["S", "F"]))
    year = draw(st.integers(1902, 1905))
    phase = Phase(season, year, "A" if winter else "M")
    board = Board()
    draft = Draft(board, {})
    blank = GameState.initial(BOARD).with_changes(phase=phase, units={}, centers={})

    # P's units, around an anchor, often with the convoy kit: an army on a shore and a fleet
    # in a sea by it.
    anchor = draw(st.sampled_from(PROVINCES))
    area = sorted(ball([anchor], 2))
    own: list[Unit] = []
    if draw(st.integers(0, 9)) < 7:
        shores = [p for p in area if p in COASTAL and convoy_reach(p)]
        if shores:
            shore = draw(st.sampled_from(shores))
            army = board.place(draw, shore, power, kind="A")
            seas = board.free(s for s in BOARD.neighbours[shore] if s in SEAS)
            fleet = board.place(draw, draw(st.sampled_from(seas)), power) if seas else None
            own.extend(u for u in (army, fleet) if u is not None)
    for province in draw(st.lists(st.sampled_from(area), min_size=0 if own else 1, max_size=3, unique=True)):
        unit = board.place(draw, province, power)
        if unit is not None:
            own.append(unit)
    mine = [u.province for u in own]
    # Foreign units next to P's (P sees most of them).
    watched: list[Unit] = []
    for province in draw(st.lists(st.sampled_from(sorted(ball(mine, 1))), max_size=3, unique=True)):
        unit = board.place(draw, province, draw(st.sampled_from(others(power))))
        if unit is not None:
            watched.append(unit)
    # Centres: some of P's, the rest owned at random.
    centers: dict[str, str] = {}
    # (From one drawn seed: 34 draws each would make hypothesis's examples overrun its buffer.)
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    for center in CENTERS:
        pick = rng.randrange(10)
        if center in mine and pick < 7 or center in area and pick < 2:
            centers[center] = power
        elif pick < 6:
            centers[center] = rng.choice(others(power))
    alone = blank.with_changes(units=dict(board.units), centers=centers)
    if winter:
        draft.lines[power] = own_adjustment_lines(draw, alone, power, variant)
        if "M" in variant.turn_kinds(Position(alone)):  # deadman: Winter and the next Spring
            draft.lines[power] += own_movement_lines(draw, variant, alone, power)
    else:
        draft.lines[power] = own_movement_lines(draw, variant, alone, power)
    if not winter and draw(st.integers(0, 4)) == 0:
        own_battle(draw, draft, own, power)
    routes = sorted(route_seas_of(draft.lines[power]))
    # Mostly, a sea route that one of P's lines hangs on (sea_pairs) is laid with foreign
    # fleets but for one sea: the hidden unit may fill the hole, or not. The hole is best
    # where P will not see it whatever happens: beyond what it sees now and beyond the
    # neighbours of every province its units stand in or are sent to.
    seen = variant.fog.visible_provinces(alone, power)
    sent = {p for line in draft.lines[power] for p in words_provinces(line)}
    unseen = frozenset(SEAS) - seen - ball(set(mine) | sent, 1)
    paths = []
    for pair in sorted(sea_pairs(draft.lines[power]), key=str):
        path = shortest_sea_path(*pair)
        holes = [s for s in path if s in unseen and s not in board.units] or [
            s for s in path if s not in seen and s not in board.units]
        if holes:
            paths.append((path, holes))
    strict = [(path, holes) for path, holes in paths if set(holes) <= unseen]
    if paths and draw(st.integers(0, 7)) > 0:
        path, holes = draw(st.sampled_from(strict if strict and draw(st.integers(0, 4)) > 0 else paths))
        hole = draw(st.sampled_from(holes))
        for sea in path:
            if sea != hole:
                board.place(draw, sea, draw(st.sampled_from(others(power))))

    soloist: str | None = None
    goal: str | None = None
    # (Not in sighting: its Fall turn plays the retreats too, so nothing can put the end off.)
    if season == "F" and options.fog != "sighting" and draw(st.integers(0, 2)) == 0:
        soloist = draw(st.sampled_from(others(power)))
        choices = [c for c in CENTERS if c not in mine and board.free(BOARD.neighbours[c])]
        if choices:
            goal = draw(st.sampled_from(choices))
            taker = board.place(draw, draw(st.sampled_from(board.free(BOARD.neighbours[goal]))), soloist, reaching=goal)
            if taker is not None:
                draft.give(taker, f"{text(taker)} - {goal}")

    # Attacks on P's units or on the foreign units it sees.
    attackers: list[Unit] = []
    if not winter:
        for _ in range(0 if soloist else draw(st.integers(0, 2))):
            victim = draw(st.sampled_from(own + watched))
            attackers += attack(draw, draft, victim, others(power, victim.power))
        # A retreat jam: a foreign unit P sees and another foreign unit, both dislodged, both
        # next to one province P cannot see, where they may meet (or find a unit standing).
        in_sight = [u for u in watched if u.province in seen]
        if not soloist and in_sight and draw(st.booleans()):
            victim = draw(st.sampled_from(in_sight))
            dark = [t for t in reach(victim) if t not in seen and t not in board.units]
            if dark:
                meeting = draw(st.sampled_from(dark))
                sites = board.free(p for p in BOARD.neighbours[meeting] if p != victim.province)
                if sites:
                    second = board.place(draw, draw(st.sampled_from(sites)), draw(st.sampled_from(others(power))),
                                         reaching=meeting)
                    for target in (victim, second):
                        if target is not None:
                            attackers += attack(draw, draft, target, others(power, target.power),
                                                keep=frozenset({meeting}))
                            draft.give(target, f"{text(target)} H")
        # Skirmishes in the dark: dislodgements P cannot see.
        for _ in range(1 if soloist else draw(st.integers(0, 2))):
            far = [p for p in PROVINCES if p not in ball(mine, 3) and p not in board.units and p != goal
                   and p not in CENTERS]  # a capture would change the public centre counts
            if not far:
                break
            lonely = board.place(draw, draw(st.sampled_from(far)), draw(st.sampled_from(others(power))))
            if lonely is not None:
                attackers += attack(draw, draft, lonely, others(power, lonely.power))
                if draw(st.integers(0, 2)) > 0:
                    draft.give(lonely, f"{text(lonely)} H")

    # The dark ring: foreign units just beyond P's sight, fleets on the sea routes P's lines
    # use first; a few anywhere.
    sight = variant.fog.visible_provinces(blank.with_changes(units=board.units, centers=centers), power)
    ring = sorted(ball(set(sight) | set(mine), 2) - sight - set(mine))
    dark_routes = [p for p in routes if p not in sight]
    pool = dark_routes * 3 + ring  # (a list with repeats: not drawn unique, which would retry)
    for province in dict.fromkeys(draw(st.lists(st.sampled_from(pool), max_size=6))) if pool else []:
        board.place(draw, province, draw(st.sampled_from(others(power))))
    for province in draw(st.lists(st.sampled_from(PROVINCES), max_size=3, unique=True)):
        board.place(draw, province, draw(st.sampled_from(others(power))))

    if soloist is not None:
        # Enough centres to win at the end of the Fall whatever a stray unit takes from it (its
        # taker makes sure of it): the end of the game then hangs on the dislodgements alone.
        held = [c for c in CENTERS if c != goal and c not in mine and
                (c not in board.units or board.units[c].power == soloist)]
        for center in rng.sample(held, min(len(held), draw(st.integers(17, 19)))):
            centers[center] = soloist
    state = blank.with_changes(units=dict(board.units), centers=centers)
    position = Position(state, usage=start_usage(draw, variant, state, power))

    # Foreign lines.
    lines = draft.lines
    given = {BOARD.province_of(line.split()[1]) for p, listed in lines.items() if p != power for line in listed}
    if winter:
        for other in others(power):
            lines.setdefault(other, []).extend(foreign_adjustment_lines(draw, variant, state, other))
        if "M" in variant.turn_kinds(position):
            spring = MovementOptions(state.with_changes(phase=Phase("S", year + 1, "M")), variant.rules)
            for unit in sorted(state.units.values(), key=lambda u: u.province):
                if unit.power != power:
                    draft.give(unit, foreign_line(draw, spring, unit, variant))
        return position, lines
    movement = MovementOptions(state, variant.rules)
    # P's supports of foreign armies between two shores: the army often makes the move, and
    # fleets on its sea route often convoy it (whether it goes by sea, is carried or not, hangs
    # on fleets P may not see, and must not show in P's own support).
    supported = supported_moves(lines[power])
    convoys = {sea: pair for pair in sorted(supported) for sea in shortest_sea_path(*pair, None)}
    for unit in sorted(state.units.values(), key=lambda u: u.province):
        if unit.power == power or unit.province in given:
            continue
        if variant.options.espionage and unit in watched and draw(st.integers(0, 3)) == 0:
            draft.give(unit, f"{text(unit)} E {power}")  # spying on P: P hears of it
            continue
        target = dict(supported).get(unit.province)
        if unit.kind == "A" and target is not None and draw(st.booleans()):
            via = " VIA" if target in BOARD.army_targets(unit.location) and draw(st.booleans()) else ""
            draft.give(unit, f"{text(unit)} - {target}{via}")
            continue
        if unit.kind == "F" and unit.province in convoys and draw(st.integers(0, 2)) > 0:
            origin, target = convoys[unit.province]
            draft.give(unit, f"{text(unit)} C A {origin} - {target}")
            continue
        draft.give(unit, foreign_line(draw, movement, unit, variant))
    if "R" in variant.turn_kinds(position):  # sighting: retreats (and adjustments) filed ahead
        lines[power] += filed_ahead_lines(draw, variant, state, power)
        for unit in watched + attackers:
            targets = reach(unit)
            if targets and draw(st.integers(0, 1)) == 1:
                draft.give(unit, retreat_line(unit, draw(st.sampled_from(targets))))
    return position, lines


def own_battle(draw: st.DrawFn, draft: Draft, own: list[Unit], power: str) -> None:
    """A battle over one of P's units that P takes part in: a foreign army moves in, another
    of P's units supports it (MILA calls that support ``void`` when it decides the battle,
    which hangs on every other support there), and a foreign fleet at sea supports P's unit
    to hold, so that a unit P cannot see may cut that support."""
    board = draft.board
    held = [u for u in own if u.province in COASTAL]
    if not held:
        return
    victim = draw(st.sampled_from(held))
    home = victim.province
    land = board.free(p for p in BOARD.army_targets(home) if p in LAND)
    seas = board.free(p for p in BOARD.neighbours[home] if p in SEAS)
    if not land or not seas:
        return
    mover = board.place(draw, draw(st.sampled_from(land)), draw(st.sampled_from(others(power))), kind="A",
                        reaching=home)
    helpers = board.free(p for p in BOARD.neighbours[home] if p in LAND)
    helper = board.place(draw, draw(st.sampled_from(helpers)), power, kind="A", reaching=home) if helpers else None
    guard = board.place(draw, draw(st.sampled_from(seas)), draw(st.sampled_from(others(power))), kind="F")
    if mover is None or helper is None or guard is None:
        return
    draft.lines[power] = [line for line in draft.lines[power] if line.split()[1] not in (home, helper.province)]
    draft.lines[power] += [f"{text(victim)} H", f"{text(helper)} S {text(mover)} - {home}"]
    draft.give(mover, f"{text(mover)} - {home}")
    draft.give(guard, f"{text(guard)} S {text(victim)}")
    # A fleet further out that may cut the guard's support (the hidden change may order it to).
    mine = {u.province for u in own} | {helper.province}
    out_there = board.free(p for p in BOARD.neighbours[guard.province] if p in SEAS and p not in ball(mine, 1))
    if out_there:
        cutter = board.place(draw, draw(st.sampled_from(out_there)), draw(st.sampled_from(others(power, guard.power))))
        if cutter is not None:
            draft.give(cutter, f"{text(cutter)} H")


def foreign_adjustment_lines(draw: st.DrawFn, variant: Variant, state: GameState, power: str) -> list[str]:
    """Some of a foreign power's legal builds, removals and waives."""
    options = legal_orders(state, power, variant.rules)
    listed = [str(o) for key in ("BUILD", "DISBAND", "WAIVE") for o in options.get(key, [])]
    if not listed:
        return []
    return draw(st.lists(st.sampled_from(listed), max_size=2, unique=True))


def start_usage(draw: st.DrawFn, variant: Variant, state: GameState, power: str) -> dict[str, object]:
    """The variant's counters for a position: garrison holders where garrisons are tracked,
    with a few empty provinces around P's units held by P (so captures are reported)."""
    usage = garrisons.start_usage(variant.options, state, {})
    if garrisons.HOLDERS in usage:
        holders = dict(usage[garrisons.HOLDERS])
        mine = [u.province for u in state.units_of(power)]
        empty = sorted(p for p in ball(mine, 1) if p in LAND and p not in state.units)
        for province in draw(st.lists(st.sampled_from(empty), max_size=2, unique=True)) if empty else []:
            holders[province] = power
        usage[garrisons.HOLDERS] = holders
    return usage


# --- the two games ------------------------------------------------------------------------------


def sensitive(game: Game, power: str) -> frozenset[str]:
    """Provinces where one hidden unit may change how P's orders or the retreats P watches
    are judged: seas on the sea routes of P's lines (convoys, ``VIA``, supports of convoyed
    moves), and provinces next to a unit dislodged in the game (retreat targets)."""
    out: set[str] = set()
    for turn in game.turns:
        out |= route_seas_of(turn.orders.get(power, ()))
        for record in turn.result.resolutions:
            for province in record.after.dislodged:
                out |= BOARD.neighbours[province]
    return frozenset(out)


@st.composite
def base_games(draw: st.DrawFn, variant: Variant, power: str) -> tuple[Game, Lines | None]:
    """The first game, and the lines of its second turn (if it has one)."""
    position, lines = draw(first_turns(variant, power))
    first = play_turn(variant, position, lines)
    if not needs_retreat_turn(variant, first):
        return Game((first,)), None
    follow = retreat_turn_lines(draw, variant, first.result.position, power)
    return Game((first, play_turn(variant, first.result.position, follow))), follow


def line_of(lines: Mapping[str, Sequence[str]], unit: Unit) -> list[str]:
    """The lines of ``lines`` that command ``unit`` (its province is the second word)."""
    out = []
    for line in lines.get(unit.power, ()):
        words = line.split()
        if len(words) > 1 and BOARD.is_location(words[1]) and BOARD.province_of(words[1]) == unit.province:
            out.append(line)
    return out


def without(lines: Mapping[str, Sequence[str]], power: str, dropped: Iterable[str]) -> Lines:
    out = {p: list(listed) for p, listed in lines.items()}
    for line in dropped:
        out[power].remove(line)
    return out


def with_line(lines: Mapping[str, Sequence[str]], power: str, line: str | None) -> Lines:
    out = {p: list(listed) for p, listed in lines.items()}
    if line is not None:
        out.setdefault(power, []).append(line)
    return out


def espionage_on(line: str, power: str) -> bool:
    words = line.split()
    return len(words) >= 2 and words[-2] == "E" and words[-1] == power


def prefer(draw: st.DrawFn, subjects: list[Unit], lines: Mapping[str, Sequence[str]], endgame: bool = False) -> list[Unit]:
    """The foreign units to change, narrowed now and then to those whose change matters most
    or is thrown away least: supporters (an attack in the dark stands or falls with them, and
    with it whether anyone must retreat), or units that neither stand on a centre nor move
    into one (a capture changes the public centre counts)."""
    supporters = [u for u in subjects if any(" S " in line for line in line_of(lines, u))]
    quiet = [u for u in subjects if u.province not in CENTERS
             and not any(set(words_provinces(line)) & set(CENTERS) for line in line_of(lines, u))]
    pick = draw(st.integers(0, 9))
    if pick < (7 if endgame else 3) and supporters:
        return supporters
    if pick < 8 and quiet:
        return quiet
    return subjects


@st.composite
def hidden_changes(draw: st.DrawFn, variant: Variant, zone_of: ZoneOf) -> TurnCase | None:
    """A game played twice, with one foreign unit outside P's contact zone changed: added,
    removed, moved elsewhere outside the zone, retyped, or given another legal order.
    ``zone_of(variant, game, power)`` is P's contact zone in a game (test_no_leaks.py)."""
    power = draw(st.sampled_from(POWERS), label="power")
    first, follow = draw(base_games(variant, power), label="first game")
    zone = frozenset(zone_of(variant, first, power))
    opening = first.turns[0]
    state, lines = opening.position.state, opening.orders
    winter = state.phase.kind == "A"
    spring = "M" in variant.turn_kinds(opening.position)

    def clean(unit: Unit) -> bool:
        told = line_of(lines, unit) + (line_of(follow, unit) if follow else [])
        return unit.province not in zone and not any(
            set(words_provinces(line)) & zone or espionage_on(line, power) for line in told
        )

    subjects = [u for _, u in sorted(state.units.items()) if u.power != power and clean(u)]
    dark = [p for p in PROVINCES if p not in zone and p not in state.units]
    ring = [p for p in dark if BOARD.neighbours[p] & zone]
    # Where one fleet decides a sea route of P's lines, or of the foreign lines touching the
    # zone (orders P watches): the likeliest places for a hidden unit to matter.
    watched_lines = [line for listed in lines.values() for line in listed if set(words_provinces(line)) & zone]
    completing, breaking = critical_seas(state, watched_lines)
    critical = [p for p in sorted(completing) if p not in zone]
    # Where two dislodged units, one of them in the zone, could both retreat: a unit standing
    # there turns their meeting into two retreats the engine refuses.
    jams: list[str] = []
    if len(first.turns) > 1:
        waiting = first.turns[1].position.state.dislodged
        near_zone = [d.unit for p, d in waiting.items() if p in zone and d.unit.power != power]
        for mover in near_zone:
            for target in reach(mover):
                others_there = [d for p, d in waiting.items() if d.unit != mover and target in reach(d.unit)]
                if target not in zone and target not in state.units and others_there:
                    jams.append(target)
    hot = [p for p in dark if p in sensitive(first, power)]
    # Foreign supporters outside the zone whose support bears on a battle in it, and the dark
    # units that could cut them: whether the support is cut must not show in P's own words.
    guards = sorted({
        line.split()[1].partition("/")[0] for other, listed in lines.items() if other != power for line in listed
        if " S " in line and set(words_provinces(line.split(" S ", 1)[1])) & zone
        and line.split()[1].partition("/")[0] not in zone
    })
    cutters = [(u, g) for u in subjects for g in guards if g in BOARD.reachable_provinces(u.kind, u.location)]
    kinds = ["add"] * 3 if dark else []
    if subjects:
        kinds += ["remove", "reorder", "reorder", "retype"] + (["move"] if dark else [])
    if not kinds:
        return None
    kind = draw(st.sampled_from(kinds), label="change")
    deciding = [u for u in subjects if u.province in breaking]
    # A power one centre short of a solo: the change had best be to an attack in the dark.
    endgame = max(Counter(state.centers.values()).values(), default=0) >= 17
    backers = [u for u in subjects if any(" S " in line and " - " in line for line in line_of(lines, u))]
    jammed = False
    cut: tuple[Unit, str] | None = None
    if cutters and draw(st.integers(0, 1)) == 0:  # a dark unit cuts (or stops cutting) a support
        cut, kind = draw(st.sampled_from(cutters)), "reorder"
    elif jams and draw(st.integers(0, 1)) == 1:  # a unit where two retreats may meet
        kind, jammed = "add", True
    elif endgame and backers and draw(st.integers(0, 2)) > 0:
        # A power about to win: take the support from an attack in the dark, which decides
        # whether anyone must retreat, and with it whether the game ends now.
        deciding, kind = backers, draw(st.sampled_from(["remove", "reorder", "move"]))
    elif (critical or deciding) and draw(st.integers(0, 4)) > 0:  # where a fleet decides a route
        kind = draw(st.sampled_from((["add"] if critical else []) + (["remove", "move"] if deciding else [])))

    def new_line(moved: GameState, unit: Unit) -> str | None:
        if winter and not spring:
            return None
        options = MovementOptions(moved.with_changes(phase=Phase("S", state.phase.year + 1, "M")) if winter else moved,
                                  variant.rules)
        # Seldom into a centre: a capture changes the public centre counts.
        avoid = zone if draw(st.integers(0, 9)) == 0 else zone | frozenset(CENTERS)
        return foreign_line(draw, options, unit, variant, avoid=avoid - {unit.province})

    def somewhere(avoid: str | None = None) -> str:
        """A place for U: where a hidden unit matters most (a sea on a convoy route P's
        orders use, a province a dislodged unit may retreat to), else next to the zone, else
        anywhere dark; seldom a centre, whose capture would change the public counts."""
        pick = draw(st.integers(0, 9))
        tiers = [(critical if pick < 6 else []), (hot if pick < 8 else []), (ring if pick < 9 else []), dark]
        centres_too = draw(st.integers(0, 19)) == 0
        for places in tiers:
            listed = [p for p in places if p != avoid and (centres_too or p not in CENTERS)]
            if listed:
                return draw(st.sampled_from(listed))
        return draw(st.sampled_from([p for p in dark if p != avoid]))

    unit: Unit | None  # U as it stands in the second game (None: not there)
    old: Unit | None  # U as it stands in the first game
    if kind == "add":
        province = draw(st.sampled_from(jams)) if jammed else somewhere()
        kind_spot = draw(st.sampled_from(SPOTS[province]))
        unit = Unit(draw(st.sampled_from(others(power))), *kind_spot)
        changed = state.with_changes(units={**state.units, province: unit})
        line = None if province in jams and draw(st.integers(0, 2)) > 0 else new_line(changed, unit)
        completes = completed_routes(state, watched_lines, province)
        if unit.kind == "F" and completes and draw(st.integers(0, 2)) > 0:  # the missing fleet, convoying
            origin, target = draw(st.sampled_from(completes))
            line = f"{text(unit)} C A {origin} - {target}"
        second_lines = with_line(lines, unit.power, line)
        change = f"add {unit.power} {text(unit)}" + (f" ordered {line}" if line else "")
        old, places, told = None, frozenset({province}), [line] if line else []
    else:
        if cut is not None:
            old = cut[0]
        else:
            old = draw(st.sampled_from(
                deciding if deciding and draw(st.integers(0, 3)) > 0 else prefer(draw, subjects, lines, endgame)))
        told = line_of(lines, old)
        rest = {p: u for p, u in state.units.items() if p != old.province}
        dropped = without(lines, old.power, told)
        if kind == "remove":
            unit, changed, line = None, state.with_changes(units=rest), None
        elif kind == "reorder":
            unit, changed = old, state
            attack = f"{text(old)} - {cut[1]}" if cut is not None else None
            line = (None if attack in told else attack) if attack is not None else new_line(state, old)
            if line in told or (line is None and not told):  # no other order drawn: remove it
                kind, unit, changed, line = "remove", None, state.with_changes(units=rest), None
        elif kind == "retype" and any(k != old.kind for k, _ in SPOTS[old.province]):
            spots = [s for s in SPOTS[old.province] if s[0] != old.kind]
            unit = Unit(old.power, *draw(st.sampled_from(spots)))
            changed = state.with_changes(units={**rest, old.province: unit})
            line = new_line(changed, unit)
        else:  # moved (a fleet at sea, which has no other type, is moved too)
            kind = "move"
            province = somewhere(old.province)
            unit = Unit(old.power, *draw(st.sampled_from(SPOTS[province])))
            changed = state.with_changes(units={**rest, province: unit})
            line = new_line(changed, unit)
        second_lines = with_line(dropped, old.power, line)
        places = frozenset({old.province} | ({unit.province} if unit is not None else set()))
        told = told + ([line] if line else [])
        change = f"{kind} {old.power} {text(old)}" + (
            f" ({' | '.join(line_of(lines, old))})" if line_of(lines, old) else "") + (
            f" -> {text(unit)}" if unit is not None and unit != old else "") + (f" ordered {line}" if line else "")
    position = dataclasses.replace(opening.position, state=changed)
    if unit is not None and "R" in variant.turn_kinds(position) and draw(st.booleans()):
        targets = [t for t in reach(unit) if t not in zone and t not in CENTERS]
        if targets:  # sighting: U's retreat, filed ahead
            retreat = retreat_line(unit, draw(st.sampled_from(targets)))
            second_lines = with_line(second_lines, unit.power, retreat)
            told.append(retreat)
            change += f" and {retreat}"
    second = play_turn(variant, position, second_lines)
    turns = [second]
    if follow is not None and not second.result.position.completed:
        later = second.result.position
        follow_lines = dict(follow)
        if old is not None:
            follow_lines = without(follow, old.power, line_of(follow, old))
        if unit is not None and later.state.phase.kind == "R":
            retreating = later.state.dislodged.get(unit.province)
            if retreating is not None and retreating.unit == unit:
                back = foreign_retreat_line(draw, unit, reach(unit), [], avoid=zone | frozenset(CENTERS))
                follow_lines = with_line(follow_lines, unit.power, back)
                if back:
                    told.append(back)
                    change += f", then {back}"
        if later.state.phase.kind == "R":
            turns.append(play_turn(variant, later, follow_lines))
    if follow is not None and old is not None:
        told += line_of(follow, old)
    return TurnCase(variant, power, change, places, tuple(told), first, Game(tuple(turns)))
