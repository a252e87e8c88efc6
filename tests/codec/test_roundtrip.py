"""Round trips of every codec type: what fogdip writes, it reads back equal.

Covered elsewhere, and not repeated here: phase documents of random standard games under the
default rules (``tests/test_documents.py``); one fog-of-war turn's reports read back
(``tests/variants/test_gm.py``); knowledge kept turn by turn equal to knowledge rebuilt, for
every fog rule set (``tests/fog/test_no_leaks.py``) and in one diplomyopia game, and one
fog-1898 game file of schema 1 read (``tests/game/test_service.py``); what fogdip writes
checked against the JSON Schemas in docs/schema/ (``tests/codec/test_schemas.py``).

Here, by hypothesis: observations and knowledge through JSON text and their forms; knowledge
kept and rebuilt through its codec; phase documents of games with retreats (``attacked_from``),
rule options and finished games; whole records (:class:`Resolution`) of every phase kind, with
and without reasons; game files of every preset with option overrides, finished or not; and
schema 1 (report lines only, orders in conflict included) read as schema 2, for every preset.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from fogdip.bots.random_bot import random_orders
from fogdip.bots.variant_bot import random_turn_orders
from fogdip.codec.gamefiles import GameFileJSON, game_from_json, game_to_json
from fogdip.codec.migrations import report_line
from fogdip.codec.observations import (
    KnowledgeJSON,
    ObservationJSON,
    knowledge_from_json,
    knowledge_to_json,
    observation_from_json,
    observation_to_json,
)
from fogdip.codec.positions import PhaseDocument, document_from_state, read_document, state_from_json
from fogdip.codec.results import (
    ResolutionJSON,
    ResultDocument,
    resolution_from_json,
    resolution_to_json,
    result_document,
)
from fogdip.codec.turns import TurnDocument
from fogdip.engine.judge import adjudicate
from fogdip.engine.legal import MovementOptions, VouchedOrders
from fogdip.engine.map import get_map
from fogdip.engine.orders import Move, Order, SupportMove, Waive
from fogdip.engine.outcomes import Resolution
from fogdip.engine.rules import Rules, get_rules
from fogdip.engine.state import GameState
from fogdip.fog.knowledge import Knowledge
from fogdip.fog.masked import HIDDEN, MaskedOrder, MaskedUnit
from fogdip.fog.observation import Notice, Observation, SeenOrder
from fogdip.fog.report import order_text, seen_order_text
from fogdip.game import Game
from fogdip.variants import PRESETS
from seen_strategies import knowledge, masked_orders, observations

QUICK = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GAMES = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: Per preset.
SMALL_GAMES = settings(GAMES, max_examples=8)


def through_text(data: dict[str, Any]) -> Any:
    """``data`` as another process reads it: written out as JSON text and parsed back."""
    return json.loads(json.dumps(data))


# --- random games that fight ---------------------------------------------------------------------


def fighting_orders(state: GameState, rules: Rules, rng: random.Random) -> VouchedOrders:
    """The random bot's orders, except that in a movement phase each power also makes one
    supported attack on a foreign unit where it can: random orders alone seldom dislodge
    anything, and retreat phases are what the documents' ``attacked_from`` is for. Every
    order comes from the legal-order generator, with the token that vouches for it."""
    orders = random_orders(state, rules, rng)
    if state.phase.kind != "M":
        return orders
    options = MovementOptions(state, rules)
    for power in sorted(orders):
        legal = options.for_power(power)

        def moves_into(province: str, target: str, legal: dict[str, list[Order]] = legal) -> list[Move]:
            found = legal.get(province, [])
            return [m for m in found if isinstance(m, Move) and m.target.partition("/")[0] == target]

        attacks: list[tuple[SupportMove, Move]] = []
        for _here, choices in sorted(legal.items()):
            for order in choices:
                if not isinstance(order, SupportMove):
                    continue
                target = order.target.partition("/")[0]
                defender = state.units.get(target)
                if defender is None or defender.power == power:
                    continue
                attacks.extend((order, move) for move in moves_into(order.supported.province, target))
        if not attacks:
            continue
        support, move = rng.choice(attacks)
        chosen = {o.unit.province: o for o in orders[power] if not isinstance(o, Waive)}
        chosen[support.unit.province] = support
        chosen[move.unit.province] = move
        orders[power] = list(chosen.values())
    return VouchedOrders(orders, orders.vouched | options.vouched())


def random_game(seed: int, rules: Rules, max_phases: int, explain: bool = True) -> Iterator[Resolution]:
    """A seeded random game from the standard start, phase by phase, until it ends."""
    rng = random.Random(seed)
    state = GameState.initial(get_map("standard"))
    for _ in range(max_phases):
        if state.completed:
            return
        orders = fighting_orders(state, rules, rng)
        record = adjudicate(state, orders, rules, explain=explain, vouched=orders.vouched)
        yield record
        state = record.after


#: Rules a game may be played under: both editions, with the options a document must carry
#: as an object; a low victory threshold ends games within the phases played.
game_rules = st.builds(
    lambda edition, victory, unretreatable: get_rules(edition).with_options(
        victory_centers=victory, unretreatable=unretreatable
    ),
    st.sampled_from(["2000", "2023"]),
    st.sampled_from([None, 6, 7, 8]),
    st.sampled_from(["disband-at-once", "retreat-phase"]),
)


def game_states(records: list[Resolution]) -> list[GameState]:
    return [records[0].before, *(record.after for record in records)] if records else []


# --- 1. observations -----------------------------------------------------------------------------


@QUICK
@given(seen=observations())
def test_observations_round_trip_through_json_text(seen: Observation) -> None:
    data = observation_to_json(seen)
    ObservationJSON.model_validate(data)  # the documented form
    sent = through_text(data)
    assert sent == data  # plain JSON: nothing but what JSON carries
    read = observation_from_json(sent)
    assert read == seen
    assert hash(read) == hash(seen)
    assert observation_to_json(read) == data


# --- 2. knowledge --------------------------------------------------------------------------------


@QUICK
@given(known=knowledge())
def test_knowledge_round_trips_through_json_text(known: Knowledge) -> None:
    data = knowledge_to_json(known)
    KnowledgeJSON.model_validate(data)
    read = knowledge_from_json(through_text(data))
    assert read == known
    assert knowledge_to_json(read) == data


@st.composite
def reports_to(draw: st.DrawFn, power: str) -> Observation:
    """An observation of ``power`` as the fog layer makes them: a lost centre's notice names
    the centre (the shared strategy draws notices of any kind with any data)."""
    seen = draw(observations())
    centers = sorted(get_map("standard").center_set)
    notices = [
        Notice.make("center-lost", n.text, center=draw(st.sampled_from(centers))) if n.kind == "center-lost" else n
        for n in seen.notices
    ]
    return dataclasses.replace(seen, power=power, notices=tuple(notices))


@QUICK
@given(data=st.data(), power=st.sampled_from(get_map("standard").powers))
def test_knowledge_kept_by_updates_is_knowledge_rebuilt_and_survives_the_codec(data: st.DataObject, power: str) -> None:
    mine = data.draw(st.lists(reports_to(power), max_size=6))
    kept = Knowledge(power)
    for observation in mine:
        kept.update(observation)
    rebuilt = Knowledge.rebuild(power, mine)
    assert kept == rebuilt
    assert kept.observations == len(mine)
    read = knowledge_from_json(through_text(knowledge_to_json(kept)))
    assert read == kept == rebuilt
    # Read back, it goes on learning as the original does.
    if mine:
        read.update(mine[-1])
        kept.update(mine[-1])
        assert read == kept


# --- 3. phase documents --------------------------------------------------------------------------


@GAMES
@given(seed=st.integers(0, 10_000), rules=game_rules)
def test_phase_documents_of_fighting_games_round_trip(seed: int, rules: Rules) -> None:
    states = game_states(list(random_game(seed, rules, 60, explain=False)))
    for state in states:
        doc = document_from_state(state, rules)
        assert isinstance(read_document(through_text(doc)), PhaseDocument)
        assert state_from_json(through_text(doc)) == (state, rules)
        read, _ = state_from_json(doc)
        assert document_from_state(read, rules) == doc
        if state.dislodged:
            event("retreat phase")
            for dislodged in state.dislodged.values():
                if dislodged.attacker_from is not None:
                    assert doc["attacked_from"][dislodged.unit.power][str(dislodged.unit)] == dislodged.attacker_from
        if state.completed:
            event("completed")
            assert doc["phase"] == "COMPLETED" and doc["ended_in"] == str(state.phase)


def test_fighting_games_reach_retreats_and_their_end() -> None:
    """The games the properties draw hold what they are there to check."""
    seen: dict[str, int] = {"attacked_from": 0, "completed": 0, "R": 0, "A": 0}
    for seed in range(6):
        records = list(random_game(seed, get_rules().with_options(victory_centers=7), 60, explain=False))
        for record in records:
            seen[record.before.phase.kind] = seen.get(record.before.phase.kind, 0) + 1
            seen["attacked_from"] += sum(1 for d in record.after.dislodged.values() if d.attacker_from)
        seen["completed"] += records[-1].after.completed
    assert all(seen[key] > 0 for key in ("attacked_from", "completed", "R", "A")), seen


# --- 4. records ----------------------------------------------------------------------------------


@GAMES
@given(seed=st.integers(0, 10_000), rules=game_rules, explain=st.booleans())
def test_records_round_trip_for_every_phase_kind(seed: int, rules: Rules, explain: bool) -> None:
    for record in random_game(seed, rules, 40, explain=explain):
        event(f"phase kind {record.before.phase.kind}")
        data = resolution_to_json(record)
        ResolutionJSON.model_validate(data)
        read = resolution_from_json(through_text(data))
        assert read == record
        assert resolution_to_json(read) == data
        result = result_document(record, rules)
        assert ResultDocument.model_validate(through_text(result)).state is not None
        assert state_from_json(result["state"]) == (record.after, rules)


# --- 5. game files -------------------------------------------------------------------------------


def played_game(preset: str, seed: int, turns: int, **options: Any) -> tuple[Game, int]:
    """A game of ``preset`` played ``turns`` turns (or to its end) with seeded random lines,
    and how many of its turns gave one unit two orders. Every phase's record is checked to
    round-trip on the way: the variants' records hold refusals and filed-ahead orders."""
    game = Game.create(preset, **options)
    rng = random.Random(seed)
    doubled = 0
    for _ in range(turns):
        if game.position.completed:
            break
        orders = random_turn_orders(game.variant, game.position, rng)
        extra: tuple[str, str] | None = None
        if not game.position.setup_pending and game.position.state.phase.kind == "M":
            # A second order for a unit that moves: the report then holds orders in conflict.
            moves = [(p, line.split()) for p, lines in sorted(orders.items()) for line in lines]
            moves = [(p, words) for p, words in moves if words[2:3] == ["-"]]
            if moves:
                power, words = rng.choice(moves)
                extra = (power, f"{words[0]} {words[1]} H")
                orders[power].append(extra[1])
        for power, lines in sorted(orders.items()):
            checks = game.file(power, lines, partial=True)
            if extra is not None and power == extra[0] and checks[-1].ok:
                doubled += 1
        played = game.adjudicate()
        for resolution in played.resolutions:
            assert resolution_from_json(through_text(resolution_to_json(resolution))) == resolution
    if not game.position.completed:
        for power, lines in sorted(random_turn_orders(game.variant, game.position, rng).items())[:3]:
            game.file(power, lines, partial=True)  # orders filed for the next turn are kept too
    return game, doubled


#: Option overrides a game file must carry (every preset's values differ): an early end makes
#: finished games, another edition and victory threshold rules written as an object.
overrides = st.fixed_dictionaries(
    {},
    optional={
        "end_year": st.sampled_from([1901, 1902]),
        "edition": st.just("2000"),
        "victory_centers": st.sampled_from([6, 10]),
    },
)


@pytest.mark.parametrize("preset", sorted(PRESETS))
@SMALL_GAMES
@given(seed=st.integers(0, 10_000), turns=st.integers(1, 8), options=overrides)
def test_game_files_round_trip(preset: str, seed: int, turns: int, options: dict[str, Any]) -> None:
    game, _ = played_game(preset, seed, turns, **options)
    if game.position.completed:
        event("completed")
    data = game_to_json(game.record)
    GameFileJSON.model_validate(data)
    for turn in game.record.history:
        TurnDocument.model_validate(game.result_document(turn))  # the game master's record of the turn
    sent = through_text(data)
    assert sent == data
    read = game_from_json(sent)
    assert game_to_json(read) == data
    assert read.position == game.position
    assert read.variant.options == game.variant.options and read.variant.rules == game.variant.rules
    again = Game(read)
    for power in game.powers:
        reports = again.reports(power)
        assert reports == game.reports(power)
        assert read.knowledge[power] == Knowledge.rebuild(power, reports) == game.record.knowledge[power]


# --- 6. schema 1 ---------------------------------------------------------------------------------


def _written_by_fog(order: MaskedOrder) -> bool:
    """Whether the fog layer can write ``order`` (:func:`fogdip.fog.sight.masked_order`) as far
    as schema 1's lines can tell. A support naming its other unit with that unit's place hidden
    and no target (``A PAR S ???`` with ``other=MaskedUnit(None, HIDDEN)``) is neither: fog
    hides the supported unit of a hold only as a whole (``other=HIDDEN``, the same line), and
    names a hidden-placed unit only beside a target it knows. The shared strategy draws it."""
    other = order.other
    return not (
        isinstance(other, MaskedUnit) and other.kind is None and other.location is HIDDEN and order.target is None
    )


fog_orders = masked_orders.filter(_written_by_fog)


@settings(max_examples=300, deadline=None)
@given(order=fog_orders, conflicts=st.lists(fog_orders, max_size=2))
def test_schema_1_report_lines_read_back_as_the_orders_written(
    order: MaskedOrder, conflicts: list[MaskedOrder]
) -> None:
    assert report_line(order_text(order)) == (order, ())
    line = seen_order_text(SeenOrder(None, order, None, tuple(conflicts)))
    assert report_line(line) == (order, tuple(conflicts))


def schema_1(data: dict[str, Any]) -> dict[str, Any]:
    """A game file as schema 1 wrote it: ``"version": 1``, no ``"schema"``, reports with their
    lines only, no knowledge (its turns as schema 3 keeps them: the step from schema 2 to 3
    plays the game again, and finds them the same)."""
    old = copy.deepcopy(data)
    del old["schema"]
    old["version"] = 1
    del old["knowledge"]
    reports = [*old["opening"].values(), *(r for turn in old["history"] for r in turn["reports"].values())]
    for report in reports:
        for entry in report["orders"]:
            entry.pop("masked")
            entry.pop("conflicts", None)
    return old


@pytest.mark.parametrize("preset", sorted(PRESETS))
@SMALL_GAMES
@given(seed=st.integers(0, 10_000), turns=st.integers(1, 8))
def test_schema_1_game_files_read_as_schema_2(preset: str, seed: int, turns: int) -> None:
    game, doubled = played_game(preset, seed, turns)
    current = game_to_json(game.record)
    old = schema_1(current)
    assert "masked" not in json.dumps(old)
    entries = [o for t in current["history"] for r in t["reports"].values() for o in r["orders"]]
    if doubled:
        event("orders in conflict")
        assert any("conflicts" in entry for entry in entries)  # lines joined by "; " are read too
    read = game_from_json(through_text(old))
    assert read.knowledge == {}  # not kept by schema 1: rebuilt from the reports when asked for
    migrated = Game(read)
    for power in migrated.powers:
        assert migrated.knowledge(power) == game.record.knowledge[power]
    assert game_to_json(read) == current
