"""The board as one power pictures it, from its :class:`~fogdip.bots.base.BotInput` alone.

A :class:`Picture` is what a bot reasons on: an engine :class:`~fogdip.engine.state.GameState`
holding the power's own units and the foreign units it sees now, the centres' owners as last
known, the engine phase to play; and ``presence``, a belief over where foreign units stand
(:mod:`fogdip.bots.belief` fills it from ghosts, learned orders and centre counts; a blind
picture holds only what is seen now). ``sample`` draws a whole board consistent with it, for
the search bot.

>>> from fogdip.game import Game
>>> from fogdip.bots.base import BotInput
>>> picture = picture_of(BotInput.of(Game.create("fog-of-war"), "FRANCE"))
>>> str(picture.state.phase), sorted(str(u) for u in picture.state.units_of("FRANCE"))
('S1901M', ['A MAR', 'A PAR', 'F BRE'])
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from fogdip.bots.base import BotInput
from fogdip.engine.state import GameState
from fogdip.engine.units import Unit
from fogdip.fog.masked import OrderKind

#: The owner of a unit believed or seen whose power is not known.
UNKNOWN = "?"


@dataclass(frozen=True)
class Picture:
    """The board as ``power`` pictures it now.

    ``state``: the power's own units and the foreign units it sees (owner and type known), the
    centres' last-known owners, the phase to play (``None``-free: a setup turn has no picture).
    ``dislodged``: the power's own units awaiting a retreat, by province (the report's
    ``dislodged`` notices say where the attack came from, where the variant tells it).
    ``presence``: for each province, the expected number of foreign units of each power there
    now (1.0 for a unit seen now), as the belief estimates it; an owner of ``"?"`` is unknown.
    ``fleets``: for a province with presence, the share of it believed to be fleets (absent: by
    what may stand there). ``attacked_from``: where the attack that dislodged each unit of
    ``dislodged`` came from, where the report tells it. ``standoffs``: provinces where moves
    are known to have bounced and that stand empty (no retreat may go there).
    ``retreat_options``: where each dislodged unit may retreat, where that is known exactly (a
    full-information picture); otherwise the tactics guess.
    """

    power: str
    state: GameState
    dislodged: Mapping[str, Unit] = field(default_factory=dict)
    presence: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    fleets: Mapping[str, float] = field(default_factory=dict)
    attacked_from: Mapping[str, str] = field(default_factory=dict)
    standoffs: frozenset[str] = frozenset()
    retreat_options: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def sample(self, rng: random.Random) -> GameState:
        """A whole board consistent with the picture: each believed foreign unit placed with
        its probability, one unit at most in a province and none over a seen or own unit, of a
        type that may stand there (a fleet as likely as :attr:`fleets` says, on a coast drawn
        among the province's), owned as the belief says (an unknown owner: one of the powers
        believed nearest, or none). The blind picture's sample is itself."""
        units = dict(self.state.units)
        for province, owners in sorted(self.presence.items()):
            if province in units or province in self.dislodged:
                continue
            draw = rng.random()
            for owner, chance in sorted(owners.items()):
                if draw < chance:
                    # Unknown: the power with the most believed presence around, if any.
                    chosen = self._likely_owner(province) if owner == UNKNOWN else owner
                    if chosen is None:
                        break
                    unit = self._unit_for(chosen, province, rng)
                    if unit is not None:
                        units[province] = unit
                    break
                draw -= chance
        return self.state.with_changes(units=units)

    def _likely_owner(self, province: str) -> str | None:
        board = self.state.board
        weight: dict[str, float] = {}
        for near in sorted(board.around[province]):
            for owner, chance in self.presence.get(near, {}).items():
                if owner not in ("?", self.power):
                    weight[owner] = weight.get(owner, 0.0) + chance
        if not weight:
            return None
        return max(sorted(weight), key=lambda owner: weight[owner])

    def _unit_for(self, owner: str, province: str, rng: random.Random) -> Unit | None:
        board = self.state.board
        army = board.can_hold("A", province)
        coasts = board.coasts(province)
        fleet_spots = [c for c in coasts if board.can_hold("F", c)] or (
            [province] if board.can_hold("F", province) else []
        )
        if not army and not fleet_spots:
            return None
        share = self.fleets.get(province, 0.0 if army else 1.0)
        if fleet_spots and (not army or rng.random() < share):
            return Unit(owner, "F", rng.choice(fleet_spots))
        return Unit(owner, "A", province)


def picture_of(given: BotInput) -> Picture:
    """The picture of the power of ``given``: what it sees now, and the centres as last known.
    (The belief over what it does not see is added by :mod:`fogdip.bots.belief`.)"""
    phase = given.phase
    if phase is None:
        raise ValueError(f"{given.turn} has no board to picture: it is a setup turn, or the game is over")
    board = given.variant.board
    units: dict[str, Unit] = {}
    dislodged: dict[str, Unit] = {}
    for seen in given.seen.units:
        if seen.owner is None or seen.kind is None:
            continue
        unit = Unit(seen.owner, seen.kind, seen.location)
        if seen.dislodged:
            if seen.owner == given.power:
                dislodged[seen.province] = unit
            continue
        units[seen.province] = unit
    # The knowledge holds the latest report's centres too: the last owner known of each.
    centers = {center: known.owner for center, known in given.knowledge.centers().items() if known.owner is not None}
    homes = {power: board.home_centers(power) for power in board.powers}
    state = GameState(board, phase, units, centers, homes)
    presence = {
        unit.province: {unit.owner or UNKNOWN: 1.0}
        for unit in given.seen.units
        if unit.owner != given.power and not unit.dislodged
    }
    fleets = {
        unit.province: 1.0 if unit.kind == "F" else 0.0
        for unit in given.seen.units
        if unit.owner != given.power and not unit.dislodged and unit.kind is not None
    }
    return Picture(
        given.power,
        state,
        dislodged,
        presence,
        fleets,
        _attacked_from(given),
        _standoffs(given, frozenset(units)),
    )


def _attacked_from(given: BotInput) -> dict[str, str]:
    """Where the attacks that dislodged the power's units came from, as its report tells."""
    out: dict[str, str] = {}
    for notice in given.seen.notices_of("dislodged"):
        try:
            province, origin = notice.get("province"), notice.get("attacked_from")
        except KeyError:
            continue
        if isinstance(province, str) and isinstance(origin, str):
            out[province] = origin.partition("/")[0]
    return out


def _standoffs(given: BotInput, occupied: frozenset[str]) -> frozenset[str]:
    """Empty provinces into which a move the power learns of bounced: likely stand-offs, where
    no unit may retreat (a bounce off a unit that holds leaves the province occupied)."""
    out: set[str] = set()
    for seen in given.seen.orders:
        order, result = seen.order, seen.result
        if order.kind != OrderKind.MOVE or result is None or result.succeeded:
            continue
        if not isinstance(order.target, str) or (result.words is not None and "bounce" not in result.words):
            continue
        province = order.target.partition("/")[0]
        if province not in occupied:
            out.add(province)
    for notice in given.seen.notices_of("bounce"):
        target = notice.data and dict(notice.data).get("target")
        if isinstance(target, str) and target not in occupied:
            out.add(target.partition("/")[0])
    return frozenset(out)


__all__ = ["UNKNOWN", "Picture", "picture_of"]
