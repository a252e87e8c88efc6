"""The search bot's tactics: information-set sampling over the boards the power cannot tell apart.

For a movement phase :class:`Search` draws ``samples`` boards consistent with what the power
knows (:meth:`~fogdip.bots.picture.Picture.sample`: give it the picture of
:func:`~fogdip.bots.belief.believe`, whose belief places the units out of sight), lets every
other power play a policy in each (``others``: by default the heuristic's
:func:`~fogdip.bots.heuristic.state_orders` with every unit known; the bots' registry gives
it :func:`sighted`, each rival choosing on what the variant's fog shows it), and scores up
to ``candidates`` order sets of its own against all of them with fogdip's adjudicator: first the base tactics' own choices (each
with a fresh draw of the generator), then, from the best so far, each unit's alternatives one
at a time (a hold, each move, a move with a friendly supporter, a support of a friend's
order), keeping a change when it scores better on average over the boards. The boards and the
other powers' orders are drawn once, so every candidate meets the same opponents (common
random numbers: differences in score are the orders', not the draws').

A position is scored for the power (:class:`Weights`): the supply centres it will own (in the
Fall, by who stands on them after the moves; in the Spring, by occupation of foreign centres
and of its own), the units it keeps (a dislodged unit counts against it) and the base tactics'
province ``values`` where its units end.

Retreats, adjustments and values are the base tactics'. The settings ``samples`` and
``candidates`` decide how much is done; ``budget`` (seconds) is only a safety cap: the search
stops where it is when the clock passes it and plays the best found so far. Under the cap the
orders depend only on the picture and the generator, never on the machine's speed: tests set a
budget that is never reached.

The defaults (16 boards, 64 order sets, 4 of them the heuristic's draws, a 0.8 s cap) take
about 0.2 s a call (median; 0.36 s at the 95th percentile, 0.49 s at most over 406 positions)
on a 2-core machine (``python bench/bots.py``). One search against six heuristics, 28 games to
1920 (``python bench/bots.py --versus 28 --until 1920 [--preset fog-of-war]``), scores 0.60
(95% interval 0.50-0.70) in ``standard`` and 0.43 (0.28-0.58) in ``fog-of-war``, where 1/7
is par. More boards pay under fog (against six heuristics in ``fog-of-war``, 14
games to 1910: 8 boards scored 0.19, 16 0.31, 24 0.33); twice the order sets paid nothing
measurable for twice the time. The bot draws twice the boards in a blind game
(:data:`BLIND_SAMPLES`, :func:`search_for`), where nothing of the others is ever seen.

>>> from fogdip.game import Game
>>> from fogdip.bots.base import BotInput
>>> from fogdip.bots.belief import believe
>>> picture = believe(BotInput.of(Game.create("standard"), "FRANCE"))
>>> search = Search(samples=2, candidates=8, budget=60.0)
>>> orders = search.movement(picture, random.Random(3))
>>> orders == search.movement(picture, random.Random(3))
True
>>> sorted(str(order.unit) for order in orders)
['A MAR', 'A PAR', 'F BRE']
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from fogdip.bots.heuristic import Heuristic, state_orders
from fogdip.bots.picture import Picture
from fogdip.bots.tactics import Tactics
from fogdip.engine.judge import adjudicate
from fogdip.engine.legal import ConvoyCache, MovementOptions
from fogdip.engine.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove, UnitRef, Waive
from fogdip.engine.rules import Rules, get_rules
from fogdip.engine.state import GameState
from fogdip.engine.vouched import Vouched
from fogdip.fog.rules import FogRules
from fogdip.variants.turn import Variant

#: A full-information policy: the orders ``power`` gives in ``state`` (every unit known).
StatePolicy = Callable[[GameState, str, Rules, random.Random], list[Order]]

#: One candidate: an order for each of the power's units, by the unit's province.
Candidate = tuple[Order, ...]


def sighted(policy: StatePolicy, fog: FogRules) -> StatePolicy:
    """``policy`` played by a power that sees only what ``fog`` shows it: each other power
    chooses on the board cut down to its own units and the foreign units it would see there.
    In a blind game (deadman) a rival does not know where the searching power's units stand,
    so a model of it that sees them (the full-information default) defends against attacks
    it could not foresee, and the search learns to fear them.

    >>> from fogdip.engine.rules import get_rules
    >>> from fogdip.fog import get_fog_rules
    >>> state = GameState.initial()
    >>> orders = sighted(state_orders, get_fog_rules("deadman"))(state, "ITALY", get_rules(), random.Random(1))
    >>> sorted(str(order.unit) for order in orders)
    ['A ROM', 'A VEN', 'F NAP']
    """

    def play(state: GameState, power: str, rules: Rules, rng: random.Random) -> list[Order]:
        seen = {
            province: unit
            for province, unit in state.units.items()
            if unit.power == power or fog.sees_unit_at(state, power, unit.kind, unit.location)
        }
        return policy(state.with_changes(units=seen), power, rules, rng)

    return play


def random_state_orders(state: GameState, power: str, rules: Rules, rng: random.Random) -> list[Order]:
    """A random legal order for each of ``power``'s units: a weak model of the other powers
    (the default is the heuristic's :func:`~fogdip.bots.heuristic.state_orders`).

    >>> from fogdip.engine.rules import get_rules
    >>> orders = random_state_orders(GameState.initial(), "ITALY", get_rules(), random.Random(1))
    >>> sorted(str(order.unit) for order in orders)
    ['A ROM', 'A VEN', 'F NAP']
    """
    options = MovementOptions(state, rules)
    return [options.sample(state.units[p], rng) for p in sorted(state.units) if state.units[p].power == power]


@dataclass(frozen=True)
class Weights:
    """What a position after the moves is worth to the power, in points.

    ``center``: each supply centre it will own (in the Fall: by who stands on it after the
    moves); ``occupied``: in the Spring, each foreign centre it stands on (and, negated, each
    of its own a foreign unit stands on); ``unit``: each unit it keeps; ``dislodged``: taken
    off for each of its units dislodged; ``value``: times the unit's province value (the base
    tactics' ``values``, scaled to at most 1)."""

    center: float = 10.0
    occupied: float = 6.0
    unit: float = 3.0
    dislodged: float = 4.0
    value: float = 2.0


#: Boards the search draws by default, and in a blind game (deadman), where the belief is
#: widest: nothing of the others is ever seen, so it takes more boards to cover what they may
#: be doing (``docs/bots.md``, Results: against six heuristics in deadman, 280 games on four
#: seeds, 16 boards scored 0.225 and 32 boards 0.248; 48 did no better on two seeds).
SAMPLES, BLIND_SAMPLES = 16, 32


@dataclass(frozen=True)
class Search:
    """Information-set sampling (see the module's text).

    ``samples``: boards drawn (K); ``candidates``: order sets scored at most (M), the first
    ``draws`` of them the base tactics' own choices (each with the generator as it then is:
    equal ones are scored once); ``budget``: seconds, a hard cap on one call (the search stops
    sampling or scoring when it is spent and plays the best so far; at least the base tactics'
    first choice is always made); ``captures_any_season``: centres change hands after every
    movement phase, not the Fall's alone (the variant option of that name: diplomyopia); ``base``: the tactics that proposes the first candidates,
    scores provinces and plays the other phases; ``others``: the policy the other
    powers play in each sampled board; ``rules``: the rules orders are judged by (legality by
    the map when not given: the picture's unseen units must not decide what is legal)."""

    samples: int = SAMPLES
    candidates: int = 64
    budget: float = 0.8
    draws: int = 4
    captures_any_season: bool = False
    base: Tactics = field(default_factory=Heuristic)
    others: StatePolicy = state_orders
    rules: Rules | None = None
    weights: Weights = field(default_factory=Weights)

    def values(self, picture: Picture) -> Mapping[str, float]:
        return self.base.values(picture)

    def retreats(self, picture: Picture, rng: random.Random) -> list[Order]:
        return self.base.retreats(picture, rng)

    def adjustments(self, picture: Picture, due: int, sites: Sequence[str], rng: random.Random) -> list[Order]:
        return self.base.adjustments(picture, due, sites, rng)

    def movement(self, picture: Picture, rng: random.Random) -> list[Order]:
        deadline = time.perf_counter() + self.budget
        rules = self.rules or _map_rules()
        first = self.base.movement(picture, rng)
        if not first:
            return first
        run = _Run(self, picture, rules, deadline)
        run.draw_boards(rng)
        if not run.boards:
            return first
        run.consider(_candidate(first, picture))
        for _ in range(min(self.draws, self.candidates) - 1):
            if run.spent():
                break
            run.consider(_candidate(self.base.movement(picture, rng), picture))
        run.improve()
        return list(run.best)


class _Run:
    """One call's search: its boards, the candidates scored so far and the best of them."""

    def __init__(self, search: Search, picture: Picture, rules: Rules, deadline: float) -> None:
        self.search = search
        self.picture = picture
        self.power = picture.power
        self.rules = rules
        self.deadline = deadline
        #: each sampled board, with the other powers' orders in it
        self.boards: list[tuple[GameState, dict[str, list[Order]], Vouched]] = []
        self.scored: dict[frozenset[Order], float] = {}
        self.best: Candidate = ()
        self.best_score = float("-inf")
        self.values = _scaled(search.base.values(picture))
        # Whether the coming moves decide who owns the centres.
        self.fall = picture.state.phase.season == "F" or search.captures_any_season
        self.supply = frozenset(picture.state.board.supply_centers)
        #: convoy routes, found once for all the boards of the call
        self.convoys = ConvoyCache(picture.state.board)

    def spent(self) -> bool:
        return len(self.scored) >= self.search.candidates or time.perf_counter() > self.deadline

    def draw_boards(self, rng: random.Random) -> None:
        power, others = self.power, self.search.others
        for _ in range(self.search.samples):
            if time.perf_counter() > self.deadline:
                return
            board = self.picture.sample(rng)
            owners = sorted({unit.power for unit in board.units.values()})
            orders = {owner: others(board, owner, self.rules, rng) for owner in owners if owner != power}
            # Every legal order of the board handed out, so that adjudication trusts the
            # orders met there (the others' and the candidates') without checking each
            # again: a quarter of the cost. An order not among them is checked as usual.
            options = MovementOptions(board, self.rules, self.convoys)
            for owner in owners:
                options.for_power(owner)
            self.boards.append((board, orders, options.vouched()))

    def consider(self, candidate: Candidate) -> bool:
        """Score ``candidate`` (once) and keep it if it beats the best; whether it did."""
        key = frozenset(candidate)
        if key in self.scored:
            return False
        total = 0.0
        for board, orders, vouched in self.boards:
            given = {**orders, self.power: candidate}
            resolution = adjudicate(board, given, self.rules, explain=False, vouched=vouched)
            total += self.score(board, resolution.after, resolution.dislodged)
        score = total / len(self.boards)
        self.scored[key] = score
        if score > self.best_score:
            self.best, self.best_score = candidate, score
            return True
        return False

    def score(self, before: GameState, after: GameState, dislodged: Mapping[str, str]) -> float:
        weights, power = self.search.weights, self.power
        points = 0.0
        centers = before.centers
        for province, unit in after.units.items():
            if unit.power != power:
                if not self.fall and centers.get(province) == power:
                    points -= weights.occupied
                continue
            points += weights.unit + weights.value * self.values.get(province, 0.0)
            if not self.fall and province in self.supply and centers.get(province) != power:
                points += weights.occupied
        for province in dislodged:
            if before.units[province].power == power:
                points -= weights.dislodged
        if self.fall:
            owned = dict(centers)
            for province, unit in after.units.items():
                if province in self.supply:
                    owned[province] = unit.power
            points += weights.center * sum(1 for owner in owned.values() if owner == power)
        return points

    def improve(self) -> None:
        """From the best candidate, try each unit's alternatives, keeping improvements, until
        the candidates or the time are spent or a pass over the units changes nothing."""
        state = self.picture.state
        options = MovementOptions(state, self.rules, self.convoys)
        mine = sorted(p for p, unit in state.units.items() if unit.power == self.power)
        choices = {p: options.choices(state.units[p]) for p in mine}
        refs = {p: options.refs[p] for p in mine}
        # (army's province, target) -> own units that may support that move
        helpers: dict[tuple[str, str], list[str]] = {}
        for p in mine:
            for spec in choices[p]:
                if isinstance(spec, tuple) and spec[0] == "S" and len(spec) == 3 and spec[1] in choices:
                    helpers.setdefault((spec[1], spec[2]), []).append(p)
        changed = True
        while changed and not self.spent():
            changed = False
            for p in mine:
                for variation in self._variations(p, mine, choices, refs, options, helpers):
                    if self.spent():
                        return
                    changed |= self.consider(variation)

    def _variations(
        self,
        p: str,
        mine: list[str],
        choices: Mapping[str, list[tuple[str, ...] | Move]],
        refs: Mapping[str, UnitRef],
        options: MovementOptions,
        helpers: Mapping[tuple[str, str], list[str]],
    ) -> list[Candidate]:
        """The best candidate with the unit in ``p`` ordered otherwise: most promising first
        (moves to valued provinces, with a supporter, before supports and the hold)."""
        best = dict(zip(mine, self.best, strict=True))
        current = best[p]
        out: list[tuple[float, Candidate]] = []

        def with_orders(changes: Mapping[str, Order]) -> Candidate:
            return tuple(changes.get(q, best[q]) for q in mine)

        for spec in choices[p]:
            order = options.order(refs[p], spec)
            if order == current:
                continue
            if isinstance(order, Move):
                target = order.target.partition("/")[0]
                worth = self.values.get(target, 0.0) + (1.0 if target in self.supply else 0.0)
                out.append((worth, with_orders({p: order})))
                for helper in helpers.get((p, target), ()):
                    if helper == p:
                        continue
                    support = SupportMove(refs[helper], refs[p], order.target)
                    out.append((worth + 0.5, with_orders({p: order, helper: support})))
            elif isinstance(order, SupportMove):
                friend = best.get(order.supported.province)
                if isinstance(friend, Move) and friend.target == order.target:
                    out.append((0.25, with_orders({p: order})))
            elif isinstance(order, SupportHold):
                friend = best.get(order.supported.province)
                if friend is not None and not isinstance(friend, Move):
                    out.append((0.0, with_orders({p: order})))
            elif isinstance(order, Hold):
                out.append((-0.25, with_orders({p: order})))
            elif isinstance(order, Convoy):
                army = best.get(order.army.province)
                if isinstance(army, Move) and army.target == order.target:
                    out.append((0.25, with_orders({p: order})))
        out.sort(key=lambda item: -item[0])
        return [candidate for _, candidate in out]


def search_for(variant: Variant) -> Search:
    """The search as the ``search`` bot plays ``variant``: the other powers in each sampled
    board see only what the variant's fog shows them; in a variant that captures centres in
    every season, every season's moves decide them; in a blind game it draws
    :data:`BLIND_SAMPLES` boards.

    >>> from fogdip.variants import Variant
    >>> search_for(Variant.named("deadman")).samples, search_for(Variant.named("fog-of-war")).samples
    (32, 16)
    """
    fog = variant.fog
    return Search(
        samples=BLIND_SAMPLES if fog.blind else SAMPLES,
        captures_any_season=variant.options.captures_any_season,
        others=sighted(state_orders, fog),
    )


def _candidate(orders: Sequence[Order], picture: Picture) -> Candidate:
    """``orders`` as a candidate: in the order of the units' provinces, one per unit (a unit
    the orders miss holds)."""
    by_province = {order.unit.province: order for order in orders if not isinstance(order, Waive)}
    state = picture.state
    out: list[Order] = []
    for province in sorted(state.units):
        unit = state.units[province]
        if unit.power == picture.power:
            out.append(by_province.get(province) or Hold(UnitRef(unit.kind, unit.location)))
    return tuple(out)


def _scaled(values: Mapping[str, float]) -> dict[str, float]:
    """``values`` scaled to at most 1 in size (a zero table stays zero)."""
    top = max((abs(value) for value in values.values()), default=0.0)
    return {province: value / top for province, value in values.items()} if top > 0 else dict(values)


def _map_rules() -> Rules:
    return get_rules().with_options(legality="map")


__all__ = [
    "BLIND_SAMPLES",
    "SAMPLES",
    "Search",
    "StatePolicy",
    "Weights",
    "random_state_orders",
    "search_for",
    "sighted",
]
