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
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from hypothesis import strategies as st

from fogdip.engine import GameState, Phase, Unit
from fogdip.engine.legal import MovementOptions
from fogdip.variants import Variant

from sea_routes import CENTERS, completed_routes, critical_seas, reach, retreat_line, text
from strategies import BOARD, POWERS, PROVINCES, SPOTS, words_provinces
from turn_games import (
    Game,
    Lines,
    TurnCase,
    ZoneOf,
    base_games,
    foreign_line,
    foreign_retreat_line,
    others,
    play_turn,
    sensitive,
)

__all__ = ["Game", "TurnCase", "espionage_on", "hidden_changes", "play_turn"]


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


def prefer(
    draw: st.DrawFn, subjects: list[Unit], lines: Mapping[str, Sequence[str]], endgame: bool = False
) -> list[Unit]:
    """The foreign units to change, narrowed now and then to those whose change matters most
    or is thrown away least: supporters (an attack in the dark stands or falls with them, and
    with it whether anyone must retreat), or units that neither stand on a centre nor move
    into one (a capture changes the public centre counts)."""
    supporters = [u for u in subjects if any(" S " in line for line in line_of(lines, u))]
    quiet = [
        u
        for u in subjects
        if u.province not in CENTERS
        and not any(set(words_provinces(line)) & set(CENTERS) for line in line_of(lines, u))
    ]
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
    guards = sorted(
        {
            line.split()[1].partition("/")[0]
            for other, listed in lines.items()
            if other != power
            for line in listed
            if " S " in line
            and set(words_provinces(line.split(" S ", 1)[1])) & zone
            and line.split()[1].partition("/")[0] not in zone
        }
    )
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
        options = MovementOptions(
            moved.with_changes(phase=Phase("S", state.phase.year + 1, "M")) if winter else moved, variant.rules
        )
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
            old = draw(
                st.sampled_from(
                    deciding if deciding and draw(st.integers(0, 3)) > 0 else prefer(draw, subjects, lines, endgame)
                )
            )
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
        change = (
            f"{kind} {old.power} {text(old)}"
            + (f" ({' | '.join(line_of(lines, old))})" if line_of(lines, old) else "")
            + (f" -> {text(unit)}" if unit is not None and unit != old else "")
            + (f" ordered {line}" if line else "")
        )
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
