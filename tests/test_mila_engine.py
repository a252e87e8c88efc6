"""fogdip against MILA's own engine (``diplomacy==1.1.2``, in the test and bench extras; AGPL,
imported at run time only, nothing of it copied):

* a game exported to MILA's format loads in MILA's ``diplomacy`` package, and MILA
  re-adjudicates it to the same positions;
* ``fogdip replay`` of the three games MILA ships (``diplomacy/tests/network``) finds no
  mismatch, and says in words where the record itself is impossible.

Seeded games are played in fogdip under the rules of MILA's engine, exported with
:func:`fogdip.interop.mila.saved_game_from_phases`, and read back by MILA. Then every phase is
loaded on its own into a fresh MILA game (``Game.set_state`` with the exported state), given
the exported orders and processed; MILA's next phase must be fogdip's: the same phase name,
units, dislodged units with their retreat options, and supply-centre owners.

Two players: fogdip's random bot (one uniformly chosen legal order per unit; it rarely
dislodges anything: about 90 dislodgements in 2,400 phases, none by convoy), and a
"coordinated" random player written here, which picks random moves and then gives most of
the other units a random support or convoy for a move already chosen, so that attacks
succeed, units are dislodged (some with nowhere to go) and armies cross the sea.

MILA quirks the comparison steers around (docs/mila-notes.md; ``bench/mila_results.py``):

* Retreat options after a convoyed attack (§4.1, cause C2): MILA offers a unit dislodged by a
  convoyed army every neighbouring location, occupied and contested ones too. For such a unit
  only "fogdip's options are among MILA's" is required. If fogdip has no option for it (and so
  disbands it at once) while MILA keeps it for its false options, MILA may also hold a retreat
  phase fogdip skips: then the phase name and centres are not compared for that phase.
* Three kinds of orders that MILA's engine judges against the DATC (see :func:`milas_quirks`):
  support against one's own unit in a head-to-head battle, against one's own convoying fleet,
  or for a VIA move against one's own unit; a support naming the wrong coast; and a convoy to a
  neighbouring province that does not work. A phase holding one is not compared. The
  coordinated player avoids the first four (it can still meet them by chance); over 400 games
  of 60 phases (24,000 phases) 51 phases were set aside this way, 12 of which MILA does judge
  differently, and no other phase differed once fogdip disbands unretreatable units at once.
* MILA's result words are not compared (its stale "disband" words, WAIVE padding and word
  conventions are measured by ``bench/mila_results.py``); only positions are.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import diplomacy
import pytest
from diplomacy import Game
from diplomacy.utils.export import from_saved_game_format, load_saved_games_from_disk

from fogdip.bots.random_bot import random_orders
from fogdip.documents import document_from_state, state_from_document
from fogdip.engine.judge import adjudicate
from fogdip.engine.legal import VouchedOrders, all_legal_orders
from fogdip.engine.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove
from fogdip.engine.outcomes import Resolution
from fogdip.engine.rules import Rules
from fogdip.engine.state import GameState
from fogdip.interop.mila import load_game, saved_game_from_phases
from fogdip.replay import mila_rules, replay_game

GAMES = [("random", seed) for seed in (1, 2, 3)] + [("coordinated", seed) for seed in (1, 2, 3, 4, 5, 6)]
MAX_PHASES = 60

#: The rules of MILA's engine: DATC 2000 choices (an army goes by sea to a neighbouring province
#: when a fleet of its own power convoys it; VIA with no convoying fleet goes over land; civil
#: disorder by distance to the original home centres), and a dislodged unit with nowhere to go
#: disbanded at once, its retreat phase skipped when nobody has a choice.
RULES: Rules = mila_rules()


def coordinated_orders(state: GameState, rules: Rules, rng: random.Random) -> VouchedOrders:
    """Random orders that work together: each unit moves (60%, mostly against another power's
    unit or by convoy when it can) or holds; then most holding units switch to a random support
    or convoy matching an order already chosen. Winter and retreat phases are played by the
    random bot."""
    if state.phase.kind != "M":
        return random_orders(state, rules, rng)
    options = all_legal_orders(state, rules)
    owner = {province: power for power in sorted(options) for province in options[power]}
    chosen: dict[str, Order] = {}
    board = state.board
    for province in sorted(owner):
        legal = options[owner[province]][province]
        moves = [o for o in legal if isinstance(o, Move)]
        holds = [o for o in legal if isinstance(o, Hold)]
        pointed = [
            m
            for m in moves
            if ((u := state.units.get(board.province_of(m.target))) and u.power != owner[province])
            or (
                board.province_of(m.target) not in board.army_adjacency.get(province, ())
                and state.units[province].kind == "A"
            )
        ]
        if moves and (rng.random() < 0.6 or not holds):
            chosen[province] = rng.choice(pointed if pointed and rng.random() < 0.7 else moves)
        else:
            chosen[province] = holds[0]
    for province in sorted(owner):
        if not isinstance(chosen[province], Hold) or rng.random() < 0.2:
            continue
        helping: list[Order] = []
        for order in options[owner[province]][province]:
            if isinstance(order, SupportMove | Convoy):
                ref = order.supported if isinstance(order, SupportMove) else order.army
                source, target = board.province_of(ref.location), board.province_of(order.target)
                other = chosen.get(source)
                if not isinstance(other, Move) or board.province_of(other.target) != target:
                    continue
                if isinstance(order, SupportMove):
                    # Steer clear of MILA's quirks (see milas_quirks): a coast the move does not go
                    # to; support against one's own unit in a head-to-head battle, against one's
                    # own convoying fleet, or for a VIA move.
                    if "/" in order.target and order.target != other.target:
                        continue
                    back = chosen.get(target)
                    if owner.get(target) == owner[province] and (
                        (isinstance(back, Move) and board.province_of(back.target) == source)
                        or isinstance(back, Convoy)
                        or other.via_convoy
                    ):
                        continue
                helping.append(order)
            elif isinstance(order, SupportHold):
                other = chosen.get(board.province_of(order.supported.location))
                if other is not None and not isinstance(other, Move):
                    helping.append(order)
        if helping:
            chosen[province] = rng.choice(helping)
    orders: dict[str, list[Order]] = {}
    for province in sorted(chosen):
        orders.setdefault(owner[province], []).append(chosen[province])
    return VouchedOrders(orders, options.vouched)


def play(player: str, seed: int) -> list[dict[str, Any]]:
    """A seeded game as phase documents with their orders, ending with the position reached."""
    choose = random_orders if player == "random" else coordinated_orders
    rng = random.Random(seed)
    state = GameState.initial()
    docs: list[dict[str, Any]] = []
    for _ in range(MAX_PHASES):
        if state.completed:
            break
        orders = choose(state, RULES, rng)
        record = adjudicate(state, orders, RULES, explain=False, vouched=orders.vouched)
        texts = {
            power: [r.text for r in record.orders if r.power == power and not r.defaulted and r.text]
            for power in state.powers
        }
        docs.append({**document_from_state(state, RULES), "orders": {p: t for p, t in texts.items() if t}})
        state = record.after
    docs.append({**document_from_state(state, RULES), "orders": {}})
    return docs


def _exported(player: str, seed: int) -> dict[str, Any]:
    docs = play(player, seed)
    data = saved_game_from_phases(docs, game_id=f"fogdip-{player}-{seed}", rules=RULES)
    through_json: dict[str, Any] = json.loads(json.dumps(data))
    return through_json


@pytest.fixture(scope="module", params=GAMES, ids=[f"{p}-{s}" for p, s in GAMES])
def exported(request: pytest.FixtureRequest) -> dict[str, Any]:
    return _exported(*request.param)


def test_the_rules_are_those_of_milas_engine() -> None:
    assert RULES.edition == "2000"
    assert RULES.adjacent_convoy_intent == "rulebook"
    assert RULES.via_convoy_falls_back_to_land
    assert RULES.civil_disorder == "home-distance"
    # MILA removes a dislodged unit that cannot retreat with the movement phase.
    assert RULES.unretreatable == "disband-at-once"


def test_mila_loads_the_export(exported: dict[str, Any], tmp_path: Path) -> None:
    game = from_saved_game_format(exported)
    names = [phase["name"] for phase in exported["phases"]]
    assert [str(p.name) for p in game.get_phase_history()] + [game.get_current_phase()] == names
    last = exported["phases"][-1]["state"]
    assert _sets(game.get_units()) == _sets(last["units"])
    assert _sets(game.get_centers()) == _sets(last["centers"])
    # The same through a JSONL file on disk, as MILA's loader reads it.
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(exported) + "\n")
    (again,) = load_saved_games_from_disk(str(path), on_error="raise")
    assert again.get_current_phase() == names[-1]


def test_mila_readjudicates_every_phase_to_fogdips_next_phase(exported: dict[str, Any]) -> None:
    phases = exported["phases"]
    problems: list[str] = []
    compared = 0
    for index in range(len(phases) - 1):
        found = _compare(phases[index], phases[index + 1])
        if found is not None:
            compared += 1
            problems.extend(found)
    assert compared >= len(phases) - 1 - 3, f"{exported['id']}: too many phases steered around"
    assert problems == [], f"{exported['id']}: {len(problems)} differences:\n" + "\n".join(problems[:40])


# --- one phase ------------------------------------------------------------------------------------


def _compare(current: Mapping[str, Any], following: Mapping[str, Any]) -> list[str] | None:
    """The differences between MILA's adjudication of ``current`` and fogdip's next phase, or
    ``None`` if the phase holds an order MILA's engine gets wrong (see :func:`milas_quirks`)."""
    name = current["name"]
    resolution = _fogdip(current)
    quirks = milas_quirks(resolution)
    if quirks - {"convoyed-dislodgement"}:
        return None
    game = Game()
    game.set_state(current["state"])
    refused: list[str] = []
    for power, orders in current["orders"].items():
        if orders:
            game.set_orders(power, list(orders))
            kept = set(game.get_orders(power))
            refused.extend(f"{power} {o}" for o in orders if o not in kept and not _same_order(o, kept))
    game.process()
    where = f"{name} -> {following['name']}"
    problems = [f"{where}: MILA refused {o}" for o in refused]

    want = following["state"]
    got_units, want_units = _sets(game.get_units()), _sets(want["units"])
    got_retreats = {p: {u: set(o) for u, o in r.items()} for p, r in _retreats(game).items()}
    want_retreats = {p: {u: set(o) for u, o in r.items()} for p, r in want.get("retreats", {}).items() if r}

    convoyed = _convoy_dislodged(resolution)
    phase_may_differ = False
    for power in sorted(set(got_retreats) | set(want_retreats)):
        got, wanted = got_retreats.get(power, {}), want_retreats.get(power, {})
        for unit in sorted(set(got) | set(wanted)):
            steer = (power, unit) in convoyed
            if unit in got and unit in wanted:
                if got[unit] == wanted[unit] or (steer and wanted[unit] <= got[unit]):
                    continue
            elif unit in got and steer and not convoyed[power, unit]:
                phase_may_differ = True  # MILA keeps a unit fogdip disbanded: its options are all false
                continue
            problems.append(f"{where}: {power} *{unit}: MILA {_options(got, unit)}, fogdip {_options(wanted, unit)}")
    if game.get_current_phase() != following["name"] and not phase_may_differ:
        problems.append(f"{where}: MILA's next phase is {game.get_current_phase()}")
    for power in sorted(set(got_units) | set(want_units)):
        # Dislodged units ("*A PAR") are compared above, with their options.
        mila_has = {u for u in got_units.get(power, set()) if not u.startswith("*")}
        fogdip_has = {u for u in want_units.get(power, set()) if not u.startswith("*")}
        if mila_has != fogdip_has:
            problems.append(
                f"{where}: {power} units: only MILA {sorted(mila_has - fogdip_has)}, "
                f"only fogdip {sorted(fogdip_has - mila_has)}"
            )
    if game.get_current_phase() == following["name"]:
        got_centers, want_centers = _sets(game.get_centers()), _sets(want["centers"])
        for power in sorted(set(got_centers) | set(want_centers)):
            if got_centers.get(power, set()) != want_centers.get(power, set()):
                problems.append(
                    f"{where}: {power} centres: MILA {sorted(got_centers.get(power, set()))}, "
                    f"fogdip {sorted(want_centers.get(power, set()))}"
                )
    return problems


def _options(retreats: Mapping[str, set[str]], unit: str) -> str:
    if unit not in retreats:
        return "has no such dislodged unit"
    return f"retreats {sorted(retreats[unit])}" if retreats[unit] else "keeps it with no retreat"


def _sets(by_power: Mapping[str, Any]) -> dict[str, set[str]]:
    return {power: set(items) for power, items in by_power.items() if items}


def _retreats(game: Game) -> dict[str, dict[str, list[str]]]:
    return {name: dict(power.retreats) for name, power in game.powers.items() if power.retreats}


def _same_order(order: str, kept: set[str]) -> bool:
    """MILA writes some orders its own way (docs/mila-notes.md §8.2): compare by their words
    without coasts on the destination of supports and without a trailing H."""

    def words(text: str) -> list[str]:
        parts = text.split()
        if len(parts) > 3 and parts[2] == "S":
            parts = [p.split("/")[0] if i > 2 else p for i, p in enumerate(parts)]
        return [p for p in parts if p != "H"] if len(parts) > 3 else parts

    return any(words(order) == words(k) for k in kept)


def _fogdip(current: Mapping[str, Any]) -> Resolution:
    """fogdip's own resolution of an exported phase (the exported next phase is its result)."""
    state = current["state"]
    doc = {
        "phase": current["name"],
        "units": state["units"],
        "centers": state["centers"],
        "retreats": state.get("retreats", {}),
        "orders": current["orders"],
    }
    position, _, orders = state_from_document(doc)
    return adjudicate(position, orders, RULES)


def milas_quirks(resolution: Resolution) -> set[str]:
    """The orders of a movement phase that MILA's engine judges differently from the DATC
    (docs/mila-notes.md; bench/mila_results.py measures them):

    * ``"convoyed-dislodgement"``: a unit dislodged by a convoyed army; MILA's retreat options
      for it are wrong (every neighbour). Compared leniently, see the module docstring.
    * ``"head-to-head-support"``: in a head-to-head battle one side is supported by the power
      of the unit it attacks. MILA deducts that support from the side's strength in the battle
      itself, so the other side can win it; by the DATC (6.E.6) the support still counts for
      holding the battle, it only cannot dislodge. Flagged only when the verdicts differ.
    * ``"convoy-attacked-with-own-support"``: a convoying fleet is attacked by a move that a unit
      of the fleet's own power supports. MILA counts that support when it decides whether the
      convoy is disrupted, so the army fails although the fleet cannot be dislodged; by the DATC
      only a dislodged fleet disrupts a convoy.
    * ``"via-support-against-own-unit"``: a move written with VIA and carried by a convoy is
      supported by the power of the unit it attacks. MILA finds the attacked unit from the
      order's last word, which is "VIA", so that support counts toward dislodging its own
      power's unit (a MILA bug; DATC 6.D.10-6.D.14 for the rule). Flagged when the support
      would make the move the strongest there.
    * ``"support-coast"``: a support names a coast the supported fleet does not move to. MILA
      ignores the coast (the support counts); the DATC (4.B.4, 6.B.9) makes it fail.
    * ``"adjacent-convoy-fallback"``: an army moving to a neighbouring province was to go by sea
      (VIA, or its own fleet convoying it) and its convoy does not work. MILA then moves it over
      land when the fleets ordered to convoy it form no route, or their route is disrupted;
      fogdip's editions fall back to land only when no fleet at all is ordered to convoy it
      (docs/rules.md, 4.A.3).
    """
    if resolution.before.phase.kind != "M":
        return set()
    board = resolution.before.board
    quirks: set[str] = set()
    by_province = {r.unit.province: r for r in resolution.orders if r.unit is not None}
    convoyed_armies = {
        board.province_of(r.order.army.location) for r in resolution.orders if isinstance(r.order, Convoy)
    }
    for _province, attacker in resolution.dislodged.items():
        if attacker in resolution.convoy_paths:
            quirks.add("convoyed-dislodgement")
    supporters: dict[str, list[str]] = {}  # supported province -> powers of its successful supports
    for supporter, supported in resolution.supports.items():
        supporters.setdefault(supported, []).append(by_province[supporter].power)
    for result in resolution.orders:
        order = result.order
        if isinstance(order, Move) and result.unit is not None and result.unit.kind == "A":
            adjacent = board.province_of(order.target) in board.army_adjacency.get(result.unit.province, ())
            if adjacent and result.outcome in ("no-path", "disrupted"):
                quirks.add("adjacent-convoy-fallback")
        if isinstance(order, Move) and result.unit is not None:
            source, target = result.unit.province, board.province_of(order.target)
            other = by_province.get(target)
            if (
                other is not None
                and isinstance(other.order, Move)
                and board.province_of(other.order.target) == source
                and other.power != result.power
                and not order.via_convoy
                and not other.order.via_convoy
                and source not in convoyed_armies
                and target not in convoyed_armies
            ):
                mine, theirs = supporters.get(source, []), supporters.get(target, [])
                s_a, n_a = len(mine), mine.count(other.power)
                s_b, n_b = len(theirs), theirs.count(result.power)
                if n_b and s_a != s_b and s_b - n_b < s_a - n_a <= s_b:
                    quirks.add("head-to-head-support")
        if not isinstance(order, SupportMove):
            continue
        source, target = board.province_of(order.supported.location), board.province_of(order.target)
        mover, occupant = by_province.get(source), by_province.get(target)
        if mover is not None and isinstance(mover.order, Move) and board.province_of(mover.order.target) == target:
            fleet = mover.unit is not None and mover.unit.kind == "F"
            if "/" in order.target and fleet and order.target != mover.order.target:
                quirks.add("support-coast")
        if occupant is None or occupant.power != result.power:
            continue
        if isinstance(occupant.order, Convoy) and occupant.outcome not in ("void", "illegal"):
            quirks.add("convoy-attacked-with-own-support")
        convoyed_there = any(
            isinstance(r.order, Convoy)
            and r.outcome not in ("void", "illegal")
            and board.province_of(r.order.army.location) == source
            for r in resolution.orders
        )
        if (
            mover is not None
            and isinstance(mover.order, Move)
            and mover.text.split()[-1] == "VIA"
            and convoyed_there
            and mover.power != result.power
            and mover.outcome == "bounced"
            and target not in resolution.moves
        ):
            # Flagged when, with this support counted, the move would be the strongest there.
            strength = 1 + len(supporters.get(source, []))
            hold = 1 if isinstance(occupant.order, Move) else 1 + len(supporters.get(target, []))
            rivals = [
                1 + len(supporters.get(r.unit.province, []))
                for r in resolution.orders
                if isinstance(r.order, Move)
                and r is not mover
                and r.unit is not None
                and board.province_of(r.order.target) == target
            ]
            if strength > hold and all(strength > rival for rival in rivals):
                quirks.add("via-support-against-own-unit")
    return quirks


def _convoy_dislodged(resolution: Resolution) -> dict[tuple[str, str], tuple[str, ...]]:
    """Units dislodged by a convoyed army (fogdip's reading), with their retreat options:
    MILA's options for them are wrong (docs/mila-notes.md §4.1)."""
    found = {}
    for province, attacker in resolution.dislodged.items():
        if attacker in resolution.convoy_paths:
            unit = resolution.before.units[province]
            options = resolution.after.dislodged[province].retreats if province in resolution.after.dislodged else ()
            found[unit.power, str(unit)] = tuple(options)
    return found


def test_mila_is_the_package_the_bench_pins() -> None:
    assert diplomacy.__file__ and Game is not None
    from importlib import metadata

    assert metadata.version("diplomacy") == "1.1.2"


# --- MILA's sample games -----------------------------------------------------------------------------

SAMPLES = Path(diplomacy.__file__).parent / "tests" / "network"
#: The phases whose recorded retreat options no unit could use: MILA's engine lets a unit
#: dislodged by a convoyed army retreat to every neighbour (docs/mila-notes.md §4.1).
IMPOSSIBLE = {"1": ["F1902M"], "2": ["S1902M", "F1908M"], "3": []}


@pytest.mark.parametrize("name", sorted(IMPOSSIBLE))
def test_milas_sample_games_replay_with_no_mismatch(name: str) -> None:
    game = load_game(SAMPLES / f"{name}.json")
    assert game.source == "mila" and game.game_rules() == mila_rules()
    comparisons = replay_game(game.phases, game.game_rules())
    assert len(comparisons) == len(game.phases) - 1
    wrong = [c for c in comparisons if not c.ok]
    assert [c.phase for c in wrong] == IMPOSSIBLE[name]
    for comparison in wrong:
        assert comparison.record_impossible, comparison.describe()
        for line in comparison.impossible:
            assert "stands there" in line and "convoyed army" in line, line


def test_fogdip_replay_says_where_a_record_is_impossible() -> None:
    from typer.testing import CliRunner

    from fogdip.cli.main import app

    result = CliRunner().invoke(app, ["replay", "-q", str(SAMPLES / "2.json")])
    assert result.exit_code == 0, result.stdout
    assert "50 match, 0 mismatch, 2 impossible in the record" in result.stdout
    assert "it lets RUSSIA *A SEV retreat to ARM (ITALY A ARM stands there)" in result.stdout
