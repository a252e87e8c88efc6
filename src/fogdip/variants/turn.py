"""Playing a variant one turn at a time: the schedule, the extra orders, the fog.

A **turn** is what the players file orders for at once. Usually it is one engine phase; a
variant may combine phases (seed 001 plays Fall, its retreats and Winter as one turn, seed 002
plays Winter and the next Spring as one), hold phases the engine would skip (so their presence
leaks nothing), let centres change hands in Spring, or open with a setup phase.

>>> variant = Variant.named("fog-of-war")
>>> position = variant.start()
>>> played = variant.play(position, {"GERMANY": ["F KIE - HOL", "A BER - KIE", "A MUN - RUH"]})
>>> played.turn, played.position.name
('S1901M', 'S1901R')
>>> from fogdip.fog.report import order_line
>>> [order_line(o, "GERMANY") for o in played.observations["GERMANY"].orders]
['A BER - KIE (ok)', 'A MUN - RUH (ok)', 'F KIE - HOL (ok)']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fogdip.engine.errors import FogdipError
from fogdip.engine.judge import adjudicate, solo_winner, take_centers
from fogdip.engine.map import Map, get_map
from fogdip.engine.orders import Written
from fogdip.engine.outcomes import RejectedOrder, Resolution
from fogdip.engine.reasons import Reason, Why
from fogdip.engine.rules import Rules, get_rules
from fogdip.engine.state import GameState
from fogdip.engine.units import Phase, Unit
from fogdip.fog import FogRules, get_fog_rules
from fogdip.fog.masked import SUCCEEDED, OrderKind
from fogdip.fog.observation import Notice, Observation, SeenOrder
from fogdip.fog.rules import NO_EVENTS, Events, rejected_notice
from fogdip.fog.sight import unit_order
from fogdip.fog.standard import StandardRules
from fogdip.variants import garrisons
from fogdip.variants import setup as setups
from fogdip.variants.announcements import announcements
from fogdip.variants.conditional import (
    Sight,
    TurnContext,
    select_adjustments,
    select_retreats,
    turn_kinds,
)
from fogdip.variants.extra_orders import MovementExtras
from fogdip.variants.lines import Line
from fogdip.variants.options import VariantOptions, compose
from fogdip.variants.screening import Screening, screen

COMPLETED = "COMPLETED"


@dataclass(frozen=True)
class Position:
    """Where a game stands between turns: the engine state, whether the setup phase is still
    to be played, and the variant's counters (espionage used, and so on)."""

    state: GameState
    setup_pending: bool = False
    usage: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        units: Mapping[str, Sequence[str]],
        phase: str = "S1901M",
        *,
        centers: Mapping[str, str] | None = None,
        usage: Mapping[str, Any] | None = None,
        board: Map | None = None,
    ) -> Position:
        """A position from unit texts, for examples, tests and bots: the standard centres (or
        ``centers``, centre to owner) and the given units, in ``phase``.

        >>> Position.of({"ITALY": ["A PIE"]}, "F1901M").state.unit_at("PIE")
        Unit('ITALY', 'A', 'PIE')
        """
        board = board or get_map("standard")
        placed: dict[str, Unit] = {}
        for power, texts in units.items():
            for text in texts:
                kind, location = text.split()
                placed[board.province_of(location)] = Unit(power, kind, location)  # type: ignore[arg-type]
        state = GameState.initial(board).with_changes(units=placed, phase=Phase.parse(phase))
        if centers is not None:
            state = state.with_changes(centers=dict(centers))
        return cls(state, usage=dict(usage or {}))

    @property
    def name(self) -> str:
        """The name of the turn to be played next (``S1901S`` for a setup phase)."""
        if self.setup_pending:
            return setups.setup_phase_name(self.state.board)
        return COMPLETED if self.state.completed else str(self.state.phase)

    @property
    def completed(self) -> bool:
        return self.state.completed


@dataclass(frozen=True)
class TurnResult:
    """One played turn: the engine records of its phases in order, the orders rejected, what
    each power observed, and the position to play next."""

    turn: str
    resolutions: tuple[Resolution, ...]
    rejected: tuple[RejectedOrder, ...]
    observations: Mapping[str, Observation]
    position: Position
    events: tuple[Events, ...] = ()


class Variant:
    """A playable game type: options, the engine rules they imply, the map and the fog."""

    def __init__(
        self, options: VariantOptions, fog_options: Mapping[str, Any] | None = None, rules: Rules | None = None
    ) -> None:
        self.options = options
        self.board: Map = get_map(options.map)
        base = rules if rules is not None else get_rules(options.edition)
        changes: dict[str, Any] = {"victory_centers": base.victory_centers or options.victory_centers}
        if options.fog_enabled:
            # Under fog no unit a power cannot see may decide whether its order is legal.
            changes["legality"] = "map"
        self.rules: Rules = base.with_options(**changes)
        self.fog: FogRules = get_fog_rules(options.fog, **garrisons.fog_options(options, fog_options))

    @classmethod
    def named(cls, preset: str, **overrides: Any) -> Variant:
        return cls(compose(preset, **overrides))

    @property
    def name(self) -> str:
        return self.options.name

    # --- the start ---------------------------------------------------------------------------

    def start(self) -> Position:
        if self.options.setup == "standard":
            state = GameState.initial(self.board)
            return Position(state, usage=garrisons.start_usage(self.options, state, {}))
        return Position(setups.setup_start(self.options.setup, self.board), setup_pending=True)

    def opening_observations(self, position: Position) -> dict[str, Observation]:
        name = position.name
        return {
            power: dataclasses.replace(self.fog.initial(position.state, power), phase=name, next_phase=name)
            for power in position.state.powers
        }

    # --- one turn ----------------------------------------------------------------------------

    def turn_kinds(self, position: Position) -> tuple[str, ...]:
        """The engine phase kinds one turn covers from this position, in order."""
        return turn_kinds(self.options, position.state.phase)

    def screen(self, position: Position, power: str, lines: Sequence[str]) -> Screening:
        """Every line ``power`` files for the next turn of ``position``, with its verdict: the
        one screening filing shows and :meth:`play` plays (:mod:`fogdip.variants.screening`).

        >>> variant = Variant.named("fog-of-war")
        >>> [v.error for v in variant.screen(variant.start(), "FRANCE", ["A PAR - BUR", "A PAR H"])]
        [None, "A PAR already has an order, on line 1 ('A PAR - BUR'): give each unit one order; delete this line or line 1"]
        """
        return screen(self, position, power, lines)

    def play(self, position: Position, orders: Mapping[str, Sequence[str] | Screening]) -> TurnResult:
        """Adjudicate one turn with each power's lines: texts, screened here, or the
        :class:`Screening` filing made of them for this turn, played as they were judged.
        Accepted lines go to the engine as read; refused lines are set aside with their
        reasons (an illegal order still commands its unit, which holds, unless another line
        commands it)."""
        if position.completed:
            raise FogdipError("the game is over; there is no turn to play")
        screenings, stray = self._screenings(position, orders)
        if position.setup_pending:
            return self._play_setup(position, screenings, stray)
        kinds = self.turn_kinds(position)
        routed, screened, places = _route(position.state, screenings)
        state, usage = position.state, dict(position.usage)
        resolutions: list[Resolution] = []
        events: list[Events] = []
        rejected: list[RejectedOrder] = [*stray, *screened]
        context = TurnContext()
        for index, kind in enumerate(kinds):
            if state.completed:
                break
            if state.phase.kind != kind:  # pragma: no cover - the schedule keeps combined turns whole
                raise FogdipError(f"turn schedule error: expected a {kind} phase, found {state.phase}")
            lines = {power: parts.get(kind, []) for power, parts in routed.items()}
            filed_ahead = index > 0
            resolution, event, refused, usage = self._play_phase(state, kind, lines, filed_ahead, context, usage)
            resolution = self._schedule(resolution, kinds[index + 1] if index + 1 < len(kinds) else None)
            resolutions.append(resolution)
            events.append(event)
            rejected.extend(refused)
            context = context.then(resolution)
            state = resolution.after
        # Each power's refusals in the order of its lines, whichever step refused them.
        rejected.sort(key=lambda r: (r.power, places.get((r.power, r.text), len(places))))
        events, usage = garrisons.track(self.options, self.fog, position.state, resolutions, events, usage)
        position_after = Position(state, False, usage)
        observations = self._observe(resolutions, events, str(position.state.phase), screened)
        return TurnResult(
            str(position.state.phase), tuple(resolutions), tuple(rejected), observations, position_after, tuple(events)
        )

    def _screenings(
        self, position: Position, orders: Mapping[str, Sequence[str] | Screening]
    ) -> tuple[dict[str, Screening], list[RejectedOrder]]:
        """Each power's lines screened (those already screened, checked to be for this turn),
        and the lines given for a name that is no power of the game, refused."""
        state = position.state
        screenings: dict[str, Screening] = {}
        stray: list[RejectedOrder] = []
        for power, given in orders.items():
            if power not in state.powers:
                texts = [v.text for v in given] if isinstance(given, Screening) else list(given)
                stray.extend(RejectedOrder(power, text, Reason(Why.NOT_A_POWER, power=power)) for text in texts)
                continue
            if isinstance(given, Screening):
                if given.power != power or given.turn != position.name:
                    raise FogdipError(
                        f"the lines given for {power} were screened for {given.power}'s turn {given.turn}, "
                        f"not {power}'s turn {position.name}: screen them again"
                    )
                screenings[power] = given
            else:
                screenings[power] = self.screen(position, power, given)
        return screenings, stray

    def sight(self, position: Position, power: str) -> Sight:
        """Whether ``power`` would see a foreign unit of a kind on a location, in ``position``
        (for the conditions it files)."""
        fog, state = self.fog, position.state
        return Sight(
            lambda kind, location: fog.sees_unit_at(state, power, kind, location),
            lambda: fog.visible_provinces(state, power),
        )

    def _play_phase(
        self,
        state: GameState,
        kind: str,
        lines: Mapping[str, list[Line]],
        filed_ahead: bool,
        context: TurnContext,
        usage: dict[str, Any],
    ) -> tuple[Resolution, Events, list[RejectedOrder], dict[str, Any]]:
        options = self.options
        if kind == "M":
            if options.espionage or options.peek or options.disband_in_movement:
                extras, engine_orders, refused = MovementExtras.collect(state, lines, options, usage)
                resolution = adjudicate(extras.before_resolution(state), engine_orders, self.rules)
                resolution, event = extras.after_resolution(resolution)
                return resolution, event, refused, extras.usage_after(usage, state)
            return adjudicate(state, _written(lines), self.rules), NO_EVENTS, [], usage
        if kind == "R":
            chosen = (
                {p: select_retreats(state, p, given, context, self.rules) for p, given in lines.items()}
                if filed_ahead
                else _written(lines)
            )
            return adjudicate(state, chosen, self.rules), NO_EVENTS, [], usage
        homes = state.homes
        state = self.build_sites(state)
        chosen = (
            {p: select_adjustments(state, p, given, context, self.rules) for p, given in lines.items()}
            if filed_ahead
            else _written(lines)
        )
        resolution = adjudicate(state, chosen, self.rules)
        if options.build_in_any_owned_center:
            resolution = dataclasses.replace(
                resolution,
                before=resolution.before.with_changes(homes=homes),
                after=resolution.after.with_changes(homes=homes),
            )
        return resolution, NO_EVENTS, [], usage

    def build_sites(self, state: GameState) -> GameState:
        """``state`` as its adjustments are judged: where builds in any owned centre are
        allowed (seed 002), every owned centre counts as a home centre."""
        if not self.options.build_in_any_owned_center:
            return state
        owned: dict[str, list[str]] = {}
        for center, owner in state.centers.items():
            owned.setdefault(owner, []).append(center)
        return state.with_changes(homes={p: tuple(sorted(owned.get(p, ()))) for p in state.powers})

    def _schedule(self, resolution: Resolution, next_kind: str | None) -> Resolution:
        """Apply the variant's schedule to the engine's choice of the next phase."""
        options, played, after = self.options, resolution.before.phase, resolution.after
        retreat = Phase(played.season, played.year, "R")
        if played.kind == "M" and after.phase != retreat and (options.hold_empty_retreats or next_kind == "R"):
            # The engine took Fall's centres when it skipped the retreats (and may have ended
            # the game on them); they change hands only once the retreat season we hold is
            # over, so the game ends on the same turn whoever was dislodged anywhere.
            after = after.with_changes(phase=retreat, centers=resolution.before.centers, completed=False)
        elif after.completed:
            return resolution
        elif (
            played.season == "F"
            and after.phase == Phase("S", played.year + 1, "M")
            and self._hold_winter(after, next_kind)
        ):
            after = after.with_changes(phase=Phase("W", played.year, "A"))
        if options.captures_any_season and played.season == "S" and after.phase.season != "S":
            after = take_centers(after)
            if solo_winner(after, self.rules) is not None:
                return dataclasses.replace(resolution, after=after.with_changes(phase=played, completed=True))
        if options.end_year is not None and after.phase.year > options.end_year:
            after = after.with_changes(phase=played, completed=True)
        return dataclasses.replace(resolution, after=after)

    def _hold_winter(self, state: GameState, next_kind: str | None) -> bool:
        options = self.options
        if options.hold_empty_winters or options.winter_spring_combined or next_kind == "A":
            return True
        if options.build_in_any_owned_center:
            return any(
                state.adjustment(p) > 0 and any(c not in state.units for c in state.centers_of(p)) for p in state.powers
            )
        return False

    def _play_setup(
        self, position: Position, screenings: Mapping[str, Screening], stray: list[RejectedOrder]
    ) -> TurnResult:
        """Place every power's units: those its accepted lines choose, and on each starting
        centre no accepted line fills, the standard start's unit there."""
        state, setup = position.state, self.options.setup
        choices: dict[str, list[Unit]] = {}
        rejected: list[RejectedOrder] = list(stray)
        notices: dict[str, list[Notice]] = {}
        for power in state.powers:
            screening = screenings.get(power)
            chosen = [v.read for v in screening.accepted if isinstance(v.read, Unit)] if screening else []
            refused = [RejectedOrder(power, v.text, v.reason) for v in screening or () if v.reason is not None]
            rejected.extend(refused)
            filled = setups.fill_by_default(state, power, chosen, setup)
            choices[power] = chosen + filled
            told = notices.setdefault(power, [rejected_notice(r, "Setup") for r in refused])
            if screening and filled:
                told.append(_defaults_notice(filled))
        started = setups.apply_setup(state, choices)
        name = position.name
        observations = {}
        for power in state.powers:
            seen = self.fog.initial(started, power)
            observations[power] = Observation.build(
                variant=self.fog.name,
                power=power,
                phase=name,
                next_phase=str(started.phase),
                visible=seen.visible,
                units=seen.units,
                centers=seen.center_owners,
                notices=notices[power],
                orders=[SeenOrder(power, unit_order(OrderKind.PLACE, u), SUCCEEDED) for u in choices[power]],
            )
        return TurnResult(
            name,
            (),
            tuple(rejected),
            observations,
            Position(started, False, garrisons.start_usage(self.options, started, position.usage)),
        )

    # --- what each power sees ------------------------------------------------------------------

    def _observe(
        self, resolutions: list[Resolution], events: list[Events], turn: str, screened: list[RejectedOrder]
    ) -> dict[str, Observation]:
        """Each power's report of the turn. ``screened`` are the lines the screening refused;
        the engine's and the extra orders' refusals reach the powers through their records."""
        powers = resolutions[0].before.powers
        final = resolutions[-1].after
        fog: FogRules = StandardRules() if final.completed and self.options.reveal_at_end else self.fog
        out: dict[str, Observation] = {}
        for power in powers:
            parts = [fog.observe(r, power, e) for r, e in zip(resolutions, events, strict=True)]
            notices = [n for part in parts for n in part.notices]
            notices.extend(self._announcements(resolutions, power))
            notices.extend(rejected_notice(r) for r in screened if r.power == power)
            last = parts[-1]
            out[power] = Observation.build(
                variant=self.fog.name,
                power=power,
                phase=turn,
                next_phase=last.next_phase,
                visible=last.visible,
                units=last.units,
                orders=[o for part in parts for o in part.orders],
                centers=last.center_owners,
                notices=notices,
            )
        return out

    def _announcements(self, resolutions: list[Resolution], power: str) -> list[Notice]:
        return announcements(self.options, self.rules, resolutions, power)


def _written(lines: Mapping[str, list[Line]]) -> dict[str, list[Written]]:
    """Each power's lines as the engine takes them: their orders, as read, with their words."""
    return {power: [line.written for line in given] for power, given in lines.items()}


def _route(
    state: GameState, screenings: Mapping[str, Screening]
) -> tuple[dict[str, dict[str, list[Line]]], list[RejectedOrder], dict[tuple[str, str], int]]:
    """Each power's lines to play, by sub-phase; the lines refused, set aside with their
    reasons; and where each line stands in its power's list (by its words as filed, and as
    handed on). An illegal line is played (its unit holds, and the record keeps the order)
    where no other line of the power commands its unit: the first such line only."""
    board = state.board
    routed: dict[str, dict[str, list[Line]]] = {}
    refused: list[RejectedOrder] = []
    places: dict[tuple[str, str], int] = {}

    def unit_of(line: Line) -> tuple[str, str] | None:
        ref = getattr(line.order, "unit", None)
        if line.kind == "A" or ref is None:
            return None  # the engine judges every adjustment line on its own
        return line.kind, board.province_of(ref.location)

    for power, screening in screenings.items():
        parts = routed.setdefault(power, {})
        commanded = {unit_of(v.line) for v in screening if v.ok}
        for verdict in screening:
            line = verdict.line
            places.setdefault((power, verdict.text), verdict.number - 1)
            places.setdefault((power, line.order_text), verdict.number - 1)
            unit = unit_of(line)
            if verdict.ok or (verdict.illegal and (unit is None or unit not in commanded)):
                parts.setdefault(line.kind, []).append(line)
                if unit is not None:
                    commanded.add(unit)
                continue
            assert verdict.reason is not None
            refused.append(RejectedOrder(power, verdict.text, verdict.reason))
    return routed, refused, places


def _defaults_notice(units: list[Unit]) -> Notice:
    """Telling a power that the standard start filled the centres it chose no unit for."""
    provinces = [unit.province for unit in units]
    listed = " and ".join(str(unit) for unit in units)
    verb = "stands" if len(units) == 1 else "stand"
    return Notice.make(
        "setup-default",
        f"No unit was chosen for {' and '.join(provinces)}: {listed} of the standard start {verb} there",
        units=tuple(str(unit) for unit in units),
    )
