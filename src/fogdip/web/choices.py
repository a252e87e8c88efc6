"""What a power may order this turn, as data for the game page's clicks: the engine's own legal
orders (:func:`fogdip.engine.legal.legal_orders`), worked out on the board as the power sees
it, each kept only if the filing check (:mod:`fogdip.variants.screening`, the same check the
API and the page's ``/orders`` form make) accepts it, and written as that check reads it.

Under fog every order is judged by the map alone (``Rules.legality="map"``): no unit the power
cannot see decides what is legal. The choices are built from the power's own units and centres,
the foreign units its latest report shows, the map and the variant's options, nothing else, so
a hidden unit never changes what is offered (``tests/web/test_choices.py`` checks this, byte
for byte, on worlds that differ only in what the power cannot see). A move into fog is offered
like any other; a support or convoy is offered for the units the power sees (any other can
still be typed: the filing check judges it by the map).

>>> from fogdip.game.service import Game
>>> game = Game.create("fog-of-war")
>>> made = choices_of(game, "FRANCE")
>>> made.phase, [unit.unit for unit in made.units]
('M', ['A MAR', 'A PAR', 'F BRE'])
>>> sorted(made.units[1].moves)
['BRE', 'BUR', 'GAS', 'PIC']
>>> made.units[1].moves["BUR"]
('A PAR - BUR',)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from fogdip.engine.legal import legal_orders
from fogdip.engine.map import Map
from fogdip.engine.orders import Build, Convoy, Disband, Hold, Move, Order, Retreat, SupportHold, SupportMove, UnitRef
from fogdip.engine.rules import Rules
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit
from fogdip.engine.validate import OrderChecker, check_by_map
from fogdip.fog.observation import Observation
from fogdip.game.service import Game
from fogdip.variants import setup as setups
from fogdip.variants.extra_orders import espionage_limit
from fogdip.variants.turn import Position, Variant


@dataclass(frozen=True)
class UnitChoices:
    """One unit's choices: its hold, its moves (by the province moved to; two texts where a
    fleet may go to either coast), its supports (the supported unit's province, the province it
    moves to or ``None`` for a hold, and the text), its convoys (the army's province, where to,
    the text), its extra orders (a label and the text: espionage, disband in movement), and the
    retreat guesses a turn files ahead (by province)."""

    unit: str
    province: str
    hold: str | None = None
    moves: dict[str, tuple[str, ...]] = field(default_factory=dict)
    supports: tuple[tuple[str, str | None, str], ...] = ()
    convoys: tuple[tuple[str, str, str], ...] = ()
    extras: tuple[tuple[str, str], ...] = ()
    guesses: dict[str, tuple[str, ...]] = field(default_factory=dict)
    disband: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "province": self.province,
            "hold": self.hold,
            "moves": self.moves,
            "supports": [list(each) for each in self.supports],
            "convoys": [list(each) for each in self.convoys],
            "extras": [list(each) for each in self.extras],
            "guesses": self.guesses,
            "disband": self.disband,
        }


@dataclass(frozen=True)
class Adjustments:
    """A Winter's choices: ``due`` builds (positive) or removals (negative); the build sites,
    by province, with each unit that may be built there; the units that may be removed; and
    the waive."""

    due: int
    sites: dict[str, tuple[str, ...]] = field(default_factory=dict)
    removals: dict[str, str] = field(default_factory=dict)
    waive: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {"due": self.due, "sites": self.sites, "removals": self.removals, "waive": self.waive}


@dataclass(frozen=True)
class Choices:
    """Everything the power may click this turn. ``phase`` is the kind of the turn's first
    sub-phase (``M``, ``R``, ``A``, or ``S`` for a setup); ``kinds`` every sub-phase the turn
    plays; ``units`` the units to order (movement: its units; retreats: its dislodged units);
    ``adjust`` a Winter's builds or removals; ``setup`` the units a setup turn may place (by
    centre, and how many centres); ``peek`` the provinces a peek-a-sneak may name; ``help``
    lines naming what may be typed besides."""

    turn: str
    phase: str
    kinds: tuple[str, ...]
    units: tuple[UnitChoices, ...] = ()
    adjust: Adjustments | None = None
    setup: dict[str, tuple[str, ...]] = field(default_factory=dict)
    peek: tuple[str, ...] = ()
    help: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "phase": self.phase,
            "kinds": list(self.kinds),
            "units": [unit.as_json() for unit in self.units],
            "adjust": None if self.adjust is None else self.adjust.as_json(),
            "setup": self.setup,
            "peek": list(self.peek),
            "help": list(self.help),
        }

    def dumps(self) -> str:
        """The choices as the page's JSON data block: sorted, compact, and safe inside
        ``<script type="application/json">`` (no ``<`` is written as itself)."""
        text = json.dumps(self.as_json(), sort_keys=True, separators=(",", ":"))
        return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def choices_of(game: Game, power: str) -> Choices:
    """What ``power`` may order for the game's next turn, from its latest report."""
    return build_choices(game.variant, game.position, power, game.latest_report(power))


def build_choices(variant: Variant, position: Position, power: str, report: Observation) -> Choices:
    """What ``power`` may order for the next turn of ``position``, seeing what ``report``
    shows (its latest). See the module's text for what it reads.

    >>> variant = Variant.named("fog-of-war")
    >>> start = variant.start()
    >>> made = build_choices(variant, start, "ENGLAND", variant.fog.initial(start.state, "ENGLAND"))
    >>> made.units[1].unit, made.units[1].moves["NTH"], made.units[1].hold
    ('F EDI', ('F EDI - NTH',), 'F EDI H')
    """
    turn = position.name
    if position.completed:
        return Choices(turn, "", ())
    if position.setup_pending:
        return _setup(variant, position, power, turn)
    kinds = variant.turn_kinds(position)
    first = kinds[0]
    state = position.state
    helps: list[str] = []
    units: tuple[UnitChoices, ...] = ()
    adjust = None
    peek: tuple[str, ...] = ()
    if first == "M":
        units = _movement(variant, position, power, report, state, "R" in kinds[1:])
        peek = _peek(variant, state)
    elif first == "R":
        units = _retreats(variant, position, power)
    else:
        adjust = _adjustments(variant, state, power)
        if "M" in kinds[1:]:
            spring = state.with_changes(phase=state.phase.next_season_phase("M"), dislodged={})
            units = _movement(variant, Position(spring, usage=position.usage), power, report, spring, False)
            peek = _peek(variant, spring)
            helps.append(
                "This turn plays the Winter's builds or removals, then the Spring: order your units "
                "for the Spring too (a unit you build can be ordered by typing its line)."
            )
    helps.extend(_help(variant, kinds, units))
    return Choices(turn, first, kinds, units, adjust, {}, peek, tuple(helps))


# --- the board as the power sees it ------------------------------------------------------------


def _seen_state(state: GameState, power: str, report: Observation) -> GameState:
    """The position as ``power`` knows it: its own units, and the foreign units its latest
    report shows with owner and type; no centre but its own."""
    board = state.board
    units = {province: unit for province, unit in state.units.items() if unit.power == power}
    for seen in report.units:
        if seen.owner in (None, power) or seen.kind is None or seen.dislodged:
            continue
        units.setdefault(board.province_of(seen.location), Unit(seen.owner, seen.kind, seen.location))
    centres = {centre: owner for centre, owner in state.centers.items() if owner == power}
    return state.with_changes(units=units, dislodged={}, centers=centres)


class _Judge:
    """The filing check's legality step for one unit's order: by the map alone in a fog game
    (whatever else stands anywhere), on the whole board where everything is seen."""

    def __init__(self, state: GameState, rules: Rules) -> None:
        self.state = state
        self.rules = rules
        self.by_map = rules.map_legality
        self.checker = None if self.by_map else OrderChecker(state, rules)

    def text(self, unit: Unit, order: Order) -> str | None:
        """The order as the check writes it, or ``None`` if it is refused."""
        if self.checker is None:
            checked = check_by_map(self.state.board, self.rules, self.state.phase, unit, order)
        else:
            checked = self.checker.check_unit(unit, order)
        return str(checked.order) if checked.legal else None


def _movement(
    variant: Variant, position: Position, power: str, report: Observation, state: GameState, guesses: bool
) -> tuple[UnitChoices, ...]:
    rules = variant.rules
    seen = _seen_state(state, power, report) if rules.map_legality else state
    judge = _Judge(state, rules)
    listed = legal_orders(seen, power, rules.with_options(legality="board"))
    options = variant.options
    year = state.phase.year
    spying = options.espionage and espionage_limit(power, year, 0, position.usage, options) is None
    targets = [other for other in state.powers if other != power]
    out = []
    for province in sorted(listed, key=lambda p: (str(state.units[p]),)):
        unit = state.units[province]
        made = _unit_orders(unit, listed[province], judge, province)
        extras: list[tuple[str, str]] = []
        if spying:
            extras.extend((f"spy on {other}", f"{_ref(unit)} E {other}") for other in targets)
        if options.disband_in_movement:
            extras.append(("disband now", f"{_ref(unit)} DB"))
        guessed = _retreat_targets(state.board, unit, "R") if guesses else {}
        out.append(
            UnitChoices(
                made.unit,
                province,
                made.hold,
                made.moves,
                made.supports,
                made.convoys,
                tuple(extras),
                guessed,
            )
        )
    return tuple(out)


def _unit_orders(unit: Unit, orders: Sequence[Order], judge: _Judge, province: str) -> UnitChoices:
    board = judge.state.board
    hold = None
    moves: dict[str, list[str]] = {}
    supports: list[tuple[str, str | None, str]] = []
    convoys: list[tuple[str, str, str]] = []
    for order in orders:
        text = judge.text(unit, order)
        if text is None:
            continue
        if isinstance(order, Hold):
            hold = text
        elif isinstance(order, Move):
            texts = moves.setdefault(board.province_of(order.target), [])
            if text not in texts:
                texts.append(text)
        elif isinstance(order, SupportHold):
            supports.append((order.supported.province, None, text))
        elif isinstance(order, SupportMove):
            supports.append((order.supported.province, board.province_of(order.target), text))
        elif isinstance(order, Convoy):
            convoys.append((order.army.province, board.province_of(order.target), text))
    return UnitChoices(
        _ref(unit),
        province,
        hold,
        {target: tuple(sorted(texts)) for target, texts in sorted(moves.items())},
        tuple(sorted(set(supports), key=lambda s: (s[0], s[1] or "", s[2]))),
        tuple(sorted(set(convoys))),
    )


def _ref(unit: Unit) -> str:
    return f"{unit.kind} {unit.location}"


def _retreat_targets(board: Map, unit: Unit, verb: str) -> dict[str, tuple[str, ...]]:
    """Where ``unit`` could retreat to, by the map alone (under fog a retreat may be ordered
    anywhere the unit could move; it fails if the place is taken), as ``verb`` lines."""
    out: dict[str, list[str]] = {}
    for location in sorted(board.targets(unit.kind, unit.location)):
        province = board.province_of(location)
        if province == unit.province:
            continue
        out.setdefault(province, []).append(f"{_ref(unit)} {verb} {location}")
    return {province: tuple(texts) for province, texts in sorted(out.items())}


def _retreats(variant: Variant, position: Position, power: str) -> tuple[UnitChoices, ...]:
    state = position.state
    rules = variant.rules
    out = []
    if rules.map_legality:
        for province, dislodged in sorted(state.dislodged.items()):
            unit = dislodged.unit
            if unit.power != power:
                continue
            judge = _Judge(state, rules)
            allowed = {
                target: tuple(
                    t for t in texts if judge.text(unit, Retreat(UnitRef(unit.kind, unit.location), t.split()[-1]))
                )
                for target, texts in _retreat_targets(state.board, unit, "R").items()
            }
            out.append(
                UnitChoices(
                    _ref(unit), province, moves={k: v for k, v in allowed.items() if v}, disband=f"{_ref(unit)} D"
                )
            )
        return tuple(out)
    for province, orders in sorted(legal_orders(state, power, rules).items()):
        unit = state.dislodged[province].unit
        retreats: dict[str, tuple[str, ...]] = {}
        for order in orders:
            if isinstance(order, Retreat):
                retreats[state.board.province_of(order.target)] = (str(order),)
        out.append(UnitChoices(_ref(unit), province, moves=dict(sorted(retreats.items())), disband=f"{_ref(unit)} D"))
    return tuple(out)


def _adjustments(variant: Variant, state: GameState, power: str) -> Adjustments:
    """Builds and removals, judged as the filing check judges them: where builds are, the
    power's own centres and units (under fog, nothing else)."""
    sites_state = variant.build_sites(state)
    if variant.rules.map_legality:
        sites_state = sites_state.with_changes(
            units={p: u for p, u in sites_state.units.items() if u.power == power},
            centers={c: o for c, o in sites_state.centers.items() if o == power},
            dislodged={},
        )
    due = sites_state.adjustment(power)
    listed = legal_orders(sites_state, power, variant.rules)
    checker = OrderChecker(sites_state, variant.rules)
    sites: dict[str, list[str]] = {}
    for order in listed.get("BUILD", []):
        assert isinstance(order, Build)
        checked = checker.check(power, order)
        if checked.legal:
            sites.setdefault(order.unit.province, []).append(str(checked.order))
    removals: dict[str, str] = {}
    for order in listed.get("DISBAND", []):
        assert isinstance(order, Disband)
        if checker.check(power, order).legal:
            removals[order.unit.province] = str(order)
    return Adjustments(
        due,
        {province: tuple(texts) for province, texts in sorted(sites.items())},
        dict(sorted(removals.items())),
        "WAIVE" if due > 0 else None,
    )


def _peek(variant: Variant, state: GameState) -> tuple[str, ...]:
    options = variant.options
    if not options.peek or state.phase.year < options.peek_from_year:
        return ()
    return tuple(sorted(p for p, province in state.board.provinces.items() if province.passable))


def _setup(variant: Variant, position: Position, power: str, turn: str) -> Choices:
    """A setup turn: per starting centre, the units that may stand there, each read back by
    the setup's own reader (the filing check of a setup line)."""
    state, setup = position.state, variant.options.setup
    board = state.board
    places: dict[str, tuple[str, ...]] = {}
    for centre in setups.start_centers(state, power, setup):
        texts = []
        candidates = [f"A {centre}"] + [f"F {where}" for where in board.coasts(centre) or (centre,)]
        for text in candidates:
            try:
                setups.read_placement(state, power, text, setup)
            except Exception:
                continue
            texts.append(text)
        places[centre] = tuple(texts)
    if setup == "1898":
        words = "Choose the unit you start with: an army or a fleet on your centre."
    else:
        words = "Choose the unit that starts on each of your home centres; a centre you leave gets the standard start's unit."
    return Choices(turn, "S", ("S",), setup=places, help=(words,))


def _help(variant: Variant, kinds: tuple[str, ...], units: Sequence[UnitChoices] = ()) -> list[str]:
    """What may be typed besides the clicks, in the variant's own syntax. An example names only
    the power's own unit and a place it may move to (never a fixed unit: a line shown to every
    power must not name a unit some power cannot see, even by chance).

    >>> _help(Variant.named("sighting"), ("M", "R"))[0]
    'Retreat guesses, filed ahead: <unit> R <province>, several per unit allowed.'
    """
    options = variant.options
    mover = next((unit for unit in units if unit.moves), None)
    unit = mover.unit if mover is not None else ""
    place = min(mover.moves) if mover is not None else ""

    def example(text: str) -> str:
        return f", e.g. {text}" if mover is not None else ""

    out: list[str] = []
    if options.espionage:
        out.append(
            "Espionage: <unit> E <power>"
            + example(f"{unit} E FRANCE")
            + " (the unit holds and learns that power's units next to it)."
        )
    if options.peek:
        out.append(
            f"Peek-a-sneak: PAS <province>{example(f'PAS {place}')}, one a season, from {options.peek_from_year}."
        )
    if options.disband_in_movement:
        out.append(f"Disband in movement: <unit> DB{example(f'{unit} DB')}.")
    if "R" in kinds[1:]:
        out.append(
            f"Retreat guesses, filed ahead: <unit> R <province>, several per unit allowed{example(f'{unit} R {place}')}."
        )
    if "A" in kinds[1:]:
        out.append(
            "Winter builds filed ahead: <unit> B, WAIVE; removals: <unit> D (a unit is A or F and its home centre)."
        )
    if options.conditional_orders:
        out.append(
            "Conditional: IF <condition> [AND ...] THEN <order>"
            + example(f"IF {unit} DISLODGED THEN {unit} R {place}")
            + " (conditions name only places your units could see)."
        )
    if options.captures_any_season:
        out.append("Centres change hands in every season here, Spring too.")
    return out


__all__ = ["Adjustments", "Choices", "UnitChoices", "build_choices", "choices_of"]
