"""Why an order had its outcome: a :class:`Reason` value, made into words in one place.

A reason holds what it is about (units, locations, strengths, a power), not prose; the
fog layer and the server can read it without parsing, and :func:`describe` (``str()``)
writes the sentence a judge reads. Reasons are judge-side: they may name units a power
cannot see, and no observation carries them.

>>> from fogdip.engine.units import Unit
>>> bounce = Reason(Why.BOUNCED_PREVENTED, Unit("FRANCE", "A", "PAR"), (Unit("GERMANY", "A", "MUN"),), ("BUR",), (1, 1))
>>> str(bounce)
'bounced: 1 against 1 with A MUN - BUR'
>>> bounce.others[0].power
'GERMANY'
>>> str(Reason(Why.HELD, Unit("FRANCE", "A", "PAR")).then(Reason(Why.DISLODGED_BY, others=(Unit("GERMANY", "A", "MUN"),), places=("MUN",))))
'A PAR held; dislodged by A MUN from MUN'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from types import MappingProxyType

from fogdip.engine.orders import UnitRef
from fogdip.engine.units import Unit

#: A unit a reason names: one on the board, or one an order names by its place.
Named = Unit | UnitRef


class Why(StrEnum):
    """Every kind of reason the engine gives."""

    # --- orders that command nothing (rejected) ------------------------------------------------
    UNREADABLE = "unreadable"
    NOT_A_POWER = "not-a-power"
    NO_SUCH_UNIT = "no-such-unit"
    NO_SUCH_DISLODGED_UNIT = "no-such-dislodged-unit"
    WAIVE_OUT_OF_PHASE = "waive-out-of-phase"
    NOT_AN_ADJUSTMENT = "not-an-adjustment"
    REFUSED = "refused"  # by a variant's own rules (its words in ``words``)
    # --- illegal orders ---------------------------------------------------------------------------
    WRONG_UNIT_TYPE = "wrong-unit-type"
    NOT_A_MOVEMENT_ORDER = "not-a-movement-order"
    NOT_A_RETREAT_ORDER = "not-a-retreat-order"
    IMPASSABLE = "impassable"
    MOVE_TO_OWN_PROVINCE = "move-to-own-province"
    FLEET_VIA = "fleet-via"
    ARMY_TO_SEA = "army-to-sea"
    NO_ROUTE_FOR_VIA = "no-route-for-via"
    UNREACHABLE = "unreachable"
    FLEET_CANNOT_REACH = "fleet-cannot-reach"
    NAME_THE_COAST = "name-the-coast"
    SUPPORTS_ITSELF = "supports-itself"
    NO_UNIT_THERE = "no-unit-there"
    CANNOT_SUPPORT_HOLD_THERE = "cannot-support-hold-there"
    SUPPORT_INTO_OWN_PROVINCE = "support-into-own-province"
    CANNOT_SUPPORT_MOVE_THERE = "cannot-support-move-there"
    NOT_A_MOVE = "not-a-move"
    NO_UNIT_COULD_REACH = "no-unit-could-reach"
    SUPPORTED_CANNOT_REACH = "supported-cannot-reach"
    ONLY_FLEETS_CONVOY = "only-fleets-convoy"
    CONVOY_NOT_AT_SEA = "convoy-not-at-sea"
    ONLY_ARMIES_CONVOYED = "only-armies-convoyed"
    CANNOT_BE_CONVOYED = "cannot-be-convoyed"
    NOT_ON_A_ROUTE = "not-on-a-route"
    RETREAT_OUT_OF_REACH = "retreat-out-of-reach"
    RETREAT_NOT_AN_OPTION = "retreat-not-an-option"
    TWO_ORDERS = "two-orders"
    NO_BUILD_TO_WAIVE = "no-build-to-waive"
    NO_REMOVAL_DUE = "no-removal-due"
    NO_BUILDS = "no-builds"
    NOT_A_HOME_CENTRE = "not-a-home-centre"
    CENTRE_NOT_OWNED = "centre-not-owned"
    CENTRE_OCCUPIED = "centre-occupied"
    CENTRE_HOLDS_OWN_UNIT = "centre-holds-own-unit"
    NAME_THE_UNIT_TO_BUILD = "name-the-unit-to-build"
    NAME_THE_COAST_TO_BUILD = "name-the-coast-to-build"
    CANNOT_BUILD_THERE = "cannot-build-there"
    # --- movement -------------------------------------------------------------------------------
    HELD = "held"
    HELD_WITHOUT_ORDER = "held-without-order"
    MOVED = "moved"
    BOUNCED_OWN_UNIT = "bounced-own-unit"
    BOUNCED_HEAD_TO_HEAD = "bounced-head-to-head"
    BOUNCED_HELD = "bounced-held"
    BOUNCED_PREVENTED = "bounced-prevented"
    BOUNCED = "bounced"
    NO_CONVOY = "no-convoy"
    CONVOY_DISRUPTED = "convoy-disrupted"
    SUPPORTED = "supported"
    SUPPORT_AGAINST_OWN_UNIT = "support-against-own-unit"
    SUPPORTED_ARMY_DISRUPTED = "supported-army-disrupted"
    SUPPORTED_ARMY_NOT_CARRIED = "supported-army-not-carried"
    SUPPORT_UNANSWERED = "support-unanswered"  # the supported unit did not do that
    CUT_BY = "cut-by"
    CUT = "cut"
    CONVOYED = "convoyed"
    CONVOY_UNUSED = "convoy-unused"
    CONVOY_UNANSWERED = "convoy-unanswered"  # the army did not make that move
    CONVOY_IN_PARADOX = "convoy-in-paradox"
    CONVOY_FLEET_DISLODGED = "convoy-fleet-dislodged"
    DISLODGED_BY = "dislodged-by"
    DISBANDED_AT_ONCE = "disbanded-at-once"
    # --- retreats -------------------------------------------------------------------------------
    RETREATED = "retreated"
    RETREAT_BLOCKED = "retreat-blocked"
    RETREAT_MET = "retreat-met"
    DISBANDED = "disbanded"
    DISBANDED_WITHOUT_ORDER = "disbanded-without-order"
    DISBANDED_AFTER_ILLEGAL = "disbanded-after-illegal"
    # --- adjustments ----------------------------------------------------------------------------
    BUILT = "built"
    WAIVED = "waived"
    REMOVED = "removed"
    REMOVED_IN_CIVIL_DISORDER = "removed-in-civil-disorder"
    NO_BUILDS_LEFT = "no-builds-left"
    NO_REMOVALS_LEFT = "no-removals-left"
    BUILT_THERE_ALREADY = "built-there-already"
    REMOVED_ALREADY = "removed-already"


@dataclass(frozen=True, slots=True)
class Reason:
    """Why something happened, as values: the unit it is about, the other units and the
    locations it names, strengths, a power, other words (phase names, a province's full name,
    a parser's explanation), and a further reason it goes on with (``then``)."""

    why: Why
    unit: Named | None = None
    others: tuple[Named, ...] = ()
    places: tuple[str, ...] = ()
    numbers: tuple[int, ...] = ()
    power: str | None = None
    words: tuple[str, ...] = ()
    next: Reason | None = None

    def then(self, more: Reason) -> Reason:
        """This reason, going on with ``more`` (after any it already goes on with)."""
        following = more if self.next is None else self.next.then(more)
        if type(self) is not Reason:
            return replace(self, next=following)
        # What replace() makes, without its walk over the fields.
        return Reason(self.why, self.unit, self.others, self.places, self.numbers, self.power, self.words, following)

    def __str__(self) -> str:
        return describe(self)


def _direct_init() -> Callable[..., None]:
    """An ``__init__`` for :class:`Reason` with the generated one's parameters and effect,
    that sets the slots through their descriptors: about twice as quick as the frozen
    dataclass's ``object.__setattr__`` per field, and the engine makes a reason for every
    order it explains."""
    slots = Reason.__dict__
    set_why, set_unit, set_others, set_places = (slots[n].__set__ for n in ("why", "unit", "others", "places"))
    set_numbers, set_power, set_words, set_next = (slots[n].__set__ for n in ("numbers", "power", "words", "next"))

    def __init__(
        self: Reason,
        why: Why,
        unit: Named | None = None,
        others: tuple[Named, ...] = (),
        places: tuple[str, ...] = (),
        numbers: tuple[int, ...] = (),
        power: str | None = None,
        words: tuple[str, ...] = (),
        next: Reason | None = None,
    ) -> None:
        set_why(self, why)
        set_unit(self, unit)
        set_others(self, others)
        set_places(self, places)
        set_numbers(self, numbers)
        set_power(self, power)
        set_words(self, words)
        set_next(self, next)

    return __init__


assert [f.name for f in fields(Reason)] == ["why", "unit", "others", "places", "numbers", "power", "words", "next"]
setattr(Reason, "__init__", _direct_init())  # noqa: B010 (assigning a method: mypy refuses the plain form)


def describe(reason: Reason) -> str:
    """The reason in words, for the judge (and ``fogdip adjudicate``'s ``reasons``)."""
    text = _TEXT[reason.why](reason)
    return text if reason.next is None else f"{text}; {describe(reason.next)}"


_KIND_NAMES = MappingProxyType({"A": "an army", "F": "a fleet"})


def _or(places: tuple[str, ...]) -> str:
    return " or ".join(places)


_TEXT: Mapping[Why, Callable[[Reason], str]] = MappingProxyType(
    {
        Why.UNREADABLE: lambda r: r.words[0],
        Why.NOT_A_POWER: lambda r: f"{r.power} is not a power of this game",
        Why.NO_SUCH_UNIT: lambda r: f"{r.power} has no unit in {r.places[0]}",
        Why.NO_SUCH_DISLODGED_UNIT: lambda r: f"{r.power} has no dislodged unit in {r.places[0]}",
        Why.WAIVE_OUT_OF_PHASE: lambda r: f"WAIVE is an adjustment order; {r.words[0]} is a {r.words[1]} phase",
        Why.NOT_AN_ADJUSTMENT: lambda r: (
            f"{r.words[0]} is an adjustment phase: order builds (B), disbands (D) or WAIVE"
        ),
        Why.REFUSED: lambda r: r.words[0],
        Why.WRONG_UNIT_TYPE: lambda r: (
            f"wrong unit type: the unit in {_province(r)} is {_KIND_NAMES[_kind(r)]}, write {r.unit}"
        ),
        Why.NOT_A_MOVEMENT_ORDER: lambda r: (
            f"{r.words[0]} orders belong to another phase; {r.words[1]} is a movement phase: use H, -, S or C"
        ),
        Why.NOT_A_RETREAT_ORDER: lambda r: (
            f"{r.words[0]} is a retreat phase: a dislodged unit may only retreat (R) or disband (D)"
        ),
        Why.IMPASSABLE: lambda r: f"{r.words[0]} is impassable",
        Why.MOVE_TO_OWN_PROVINCE: lambda r: f"{r.unit} cannot move to the province it is in",
        Why.FLEET_VIA: lambda r: "only armies can be convoyed; remove VIA",
        Why.ARMY_TO_SEA: lambda r: f"an army cannot move to {r.words[0]}, a sea",
        Why.NO_ROUTE_FOR_VIA: lambda r: (
            f"no chain of {r.words[0]} could convoy {r.unit} to {r.places[0]}; drop VIA to move over land"
        ),
        Why.UNREACHABLE: lambda r: (
            f"{r.unit} cannot reach {r.places[0]}: not adjacent, and no chain of {r.words[0]} could convoy it"
        ),
        Why.FLEET_CANNOT_REACH: lambda r: f"F {r.places[0]} cannot reach {r.places[1]}",
        Why.NAME_THE_COAST: lambda r: f"name the coast: {_or(r.places)}",
        Why.SUPPORTS_ITSELF: lambda r: f"{r.unit} cannot support itself",
        Why.NO_UNIT_THERE: lambda r: f"there is no unit in {r.places[0]}",
        Why.CANNOT_SUPPORT_HOLD_THERE: lambda r: (
            f"{r.unit} cannot reach {r.places[0]}, so it cannot support a unit there"
        ),
        Why.SUPPORT_INTO_OWN_PROVINCE: lambda r: f"{r.unit} cannot support a move into its own province",
        Why.CANNOT_SUPPORT_MOVE_THERE: lambda r: (
            f"{r.unit} cannot reach {r.places[0]}, so it cannot support a move there"
        ),
        Why.NOT_A_MOVE: lambda r: f"{r.places[0]} - {r.places[1]} is not a move",
        Why.NO_UNIT_COULD_REACH: lambda r: f"no unit in {r.places[0]} could reach {r.places[1]}",
        Why.SUPPORTED_CANNOT_REACH: lambda r: f"the unit in {r.places[0]} cannot reach {r.places[1]}",
        Why.ONLY_FLEETS_CONVOY: lambda r: "only fleets can convoy",
        Why.CONVOY_NOT_AT_SEA: lambda r: f"a fleet in {r.words[0]} cannot convoy: only fleets at sea can",
        Why.ONLY_ARMIES_CONVOYED: lambda r: "only armies can be convoyed",
        Why.CANNOT_BE_CONVOYED: lambda r: f"an army cannot be convoyed from {r.places[0]} to {r.places[1]}",
        Why.NOT_ON_A_ROUTE: lambda r: (
            f"{r.unit} is not on any chain of {r.words[0]} that could convoy an army from {r.places[0]} to {r.places[1]}"
        ),
        Why.RETREAT_OUT_OF_REACH: lambda r: f"{r.unit} cannot retreat to {r.places[0]}: it is not one move away",
        Why.RETREAT_NOT_AN_OPTION: lambda r: (
            f"{r.unit} cannot retreat to {r.places[0]}; it may retreat to {', '.join(r.places[1:]) or 'none: it must disband'}"
        ),
        Why.TWO_ORDERS: lambda r: f"{r.unit} was given {_count(len(r.words))} different orders ({_and(r.words)})",
        Why.NO_BUILD_TO_WAIVE: lambda r: f"{r.power} has no build to waive",
        Why.NO_REMOVAL_DUE: lambda r: f"{r.power} has no unit to remove",
        Why.NO_BUILDS: lambda r: f"{r.power} has no builds this winter",
        Why.NOT_A_HOME_CENTRE: lambda r: f"{r.places[0]} is not a home centre of {r.power}",
        Why.CENTRE_NOT_OWNED: lambda r: f"{r.power} does not own {r.places[0]}",
        Why.CENTRE_OCCUPIED: lambda r: f"{r.places[0]} is occupied",
        Why.CENTRE_HOLDS_OWN_UNIT: lambda r: f"{r.places[0]} already has one of your units",
        Why.NAME_THE_UNIT_TO_BUILD: lambda r: (
            f"say which unit to build in {r.places[0]}: A {r.places[0]} or F {r.places[0]}"
        ),
        Why.NAME_THE_COAST_TO_BUILD: lambda r: f"name the coast for a fleet in {r.places[0]}: {_or(r.places[1:])}",
        Why.CANNOT_BUILD_THERE: lambda r: f"{_KIND_NAMES[r.words[0]]} cannot be built in {r.words[1]}",
        Why.HELD: lambda r: f"{r.unit} held",
        Why.HELD_WITHOUT_ORDER: lambda r: f"{r.unit} had no order and held",
        Why.MOVED: lambda r: f"{r.unit} moved to {r.places[0]}",
        Why.BOUNCED_OWN_UNIT: lambda r: f"bounced: {r.unit} may not dislodge its own {r.others[0]}",
        Why.BOUNCED_HEAD_TO_HEAD: lambda r: (
            f"bounced: {r.numbers[0]} against {r.numbers[1]} in a head-to-head battle with {r.others[0]} - {r.places[0]}"
        ),
        Why.BOUNCED_HELD: lambda r: f"bounced: {r.numbers[0]} against {r.numbers[1]} held by {r.others[0]}",
        Why.BOUNCED_PREVENTED: lambda r: (
            f"bounced: {r.numbers[0]} against {r.numbers[1]} with {r.others[0]} - {r.places[0]}"
        ),
        Why.BOUNCED: lambda r: "bounced",
        Why.NO_CONVOY: lambda r: f"{r.unit} found no convoy to {r.places[0]}",
        Why.CONVOY_DISRUPTED: lambda r: f"{r.unit} was not convoyed: the convoy was disrupted",
        Why.SUPPORTED: lambda r: f"{r.unit} gave its support",
        Why.SUPPORT_AGAINST_OWN_UNIT: lambda r: (
            f"{r.unit} gave its support, but a support never helps dislodge one's own {r.others[0]}"
        ),
        Why.SUPPORTED_ARMY_DISRUPTED: lambda r: f"{r.unit}: the convoy of the supported army was disrupted",
        Why.SUPPORTED_ARMY_NOT_CARRIED: lambda r: f"{r.unit}: no convoy carried the supported army",
        Why.SUPPORT_UNANSWERED: lambda r: f"{r.unit}: the supported unit did not {r.words[0]}",
        Why.CUT_BY: lambda r: f"support cut by {r.others[0]} - {r.places[0]}",
        Why.CUT: lambda r: "support cut",
        Why.CONVOYED: lambda r: f"{r.unit} convoyed",
        Why.CONVOY_UNUSED: lambda r: f"{r.unit} was not used: no chain of convoying fleets through it carried the army",
        Why.CONVOY_UNANSWERED: lambda r: f"{r.unit}: the army did not make that move",
        Why.CONVOY_IN_PARADOX: lambda r: f"{r.unit}: the convoy is part of a paradox and fails (Szykman rule)",
        Why.CONVOY_FLEET_DISLODGED: lambda r: f"{r.unit} was dislodged and its convoy disrupted",
        Why.DISLODGED_BY: lambda r: f"dislodged by {r.others[0]} from {r.places[0]}",
        Why.DISBANDED_AT_ONCE: lambda r: "with nowhere to retreat, it is disbanded",
        Why.RETREATED: lambda r: f"{r.unit} retreated to {r.places[0]}",
        Why.RETREAT_BLOCKED: lambda r: f"{r.unit} cannot retreat to {r.places[0]}: {_blocked(r)}; it is disbanded",
        Why.RETREAT_MET: lambda r: (
            f"{r.unit} met {', '.join(map(str, r.others))} retreating to {r.places[0]}; both disband"
        ),
        Why.DISBANDED: lambda r: f"{r.unit} disbanded",
        Why.DISBANDED_WITHOUT_ORDER: lambda r: f"{r.unit} had no retreat order and is disbanded",
        Why.DISBANDED_AFTER_ILLEGAL: lambda r: f"{r.unit} is disbanded",
        Why.BUILT: lambda r: f"built {r.unit}",
        Why.WAIVED: lambda r: f"{r.power} waived a build",
        Why.REMOVED: lambda r: f"removed {r.unit}",
        Why.REMOVED_IN_CIVIL_DISORDER: lambda r: (
            f"{r.unit} removed in civil disorder: {r.power} ordered too few removals"
        ),
        Why.NO_BUILDS_LEFT: lambda r: f"{r.power} has no builds left",
        Why.NO_REMOVALS_LEFT: lambda r: f"{r.power} has no removals left",
        Why.BUILT_THERE_ALREADY: lambda r: f"{r.places[0]} already has a unit built this winter",
        Why.REMOVED_ALREADY: lambda r: f"{r.unit} is already removed",
    }
)


def _count(number: int) -> str:
    return {2: "two", 3: "three", 4: "four"}.get(number, str(number))


def _and(texts: tuple[str, ...]) -> str:
    quoted = [repr(text) for text in texts]
    return " and ".join(quoted) if len(quoted) < 3 else f"{', '.join(quoted[:-1])} and {quoted[-1]}"


def _province(reason: Reason) -> str:
    assert reason.unit is not None
    return reason.unit.location.partition("/")[0]


def _kind(reason: Reason) -> str:
    assert reason.unit is not None and reason.unit.kind is not None
    return reason.unit.kind


def _blocked(reason: Reason) -> str:
    """Why a retreat's place was not free: a unit stands there (``others``), the attack came
    from there (``words``: ``origin``), or a stand-off left it empty."""
    if reason.others:
        return f"{reason.others[0]} stands there"
    if reason.words == ("origin",):
        return "the attack came from there"
    return "it was left empty by a stand-off"


assert set(_TEXT) == set(Why), "every kind of reason has its words"
