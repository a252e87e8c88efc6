"""`fogdip gm` and game files: a postal game from start to finish, atomic writes, clear errors."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from fogdip.codec.gamefiles import GameFileError
from fogdip.codec.observations import observation_from_json, observation_to_json
from fogdip.engine.errors import InvalidPosition
from fogdip.game import FileStore, Game, GameService
from fogdip.play import adjudicate_document

from cli_runner import run


def _open(path: Path) -> Game:
    return GameService(FileStore()).open(str(path))


def _save(path: Path, game: Game) -> None:
    GameService(FileStore()).save(str(path), game)


@pytest.mark.slow
def test_a_fog_1898_game_through_the_gm_commands(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    assert run("gm", "new", "--variant", "fog-1898", game).exit_code == 0
    assert run("gm", "new", "--variant", "fog-1898", game).exit_code == 2  # no silent overwrite
    assert run("gm", "orders", game, "england", "-", input="A EDI\n").exit_code == 0
    status = run("gm", "status", game)
    assert "ENGLAND" in status.stdout and "filed 1 line" in status.stdout and "not filed" in status.stdout
    result = run("gm", "adjudicate", game, "--reports", tmp_path / "reports")
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "reports" / "S1901S" / "ENGLAND.txt").read_text().startswith("ENGLAND, setup before Spring 1901")
    json.loads((tmp_path / "reports" / "S1901S" / "FRANCE.json").read_text())
    orders = "A EDI - YOR\n# a comment line\n\n"
    assert run("gm", "orders", game, "ENGLAND", "-", input=orders).exit_code == 0
    assert run("gm", "orders", game, "FRANCE", "-", input="F BRE - ENG\n").exit_code == 0
    assert run("gm", "adjudicate", game).exit_code == 0
    shown = run("gm", "show", game, "--as", "ENGLAND")
    assert shown.exit_code == 0
    assert "A EDI - YOR (ok)" in shown.stdout
    assert json.loads(run("gm", "show", game, "--as", "ENGLAND", "--json").stdout)["revealed_history"] is None
    # France's order is not England's to know, in any form (not even "F ??? - ENG"): neither
    # province it names is in England's report.
    assert not re.search(r"\b(BRE|ENG)\b", shown.stdout), shown.stdout
    as_json = json.loads(run("gm", "show", game, "--as", "ENGLAND", "--json").stdout)
    assert as_json["next_turn"] == "S1901R"
    assert [r["phase"] for r in as_json["reports"]] == ["S1901S", "S1901S", "S1901M"]


def test_orders_with_errors_are_reported_per_line_and_nothing_is_filed(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    run("gm", "new", game)
    result = run("gm", "orders", game, "FRANCE", "-", input="A PAR - BUR\nA PAR - NTH\nF XYZ H\n")
    assert result.exit_code == 2
    assert "line 2: A PAR - NTH: an army cannot move to North Sea, a sea" in result.stderr
    assert "line 3: F XYZ H: unknown province 'XYZ'" in result.stderr
    assert "nothing was filed for FRANCE" in result.stderr
    assert _open(game).filed == {}
    result = run("gm", "orders", game, "FRANCE", "-", "--partial", input="A PAR - BUR\nA PAR - NTH\n")
    assert result.exit_code == 0
    assert _open(game).filed == {"FRANCE": ["A PAR - BUR"]}


def test_filing_again_replaces_the_earlier_orders(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    run("gm", "new", game)
    run("gm", "orders", game, "FRANCE", "-", input="A PAR - BUR\n")
    run("gm", "orders", game, "FRANCE", "-", input="A PAR - PIC\nA MAR H\n")
    assert _open(game).filed == {"FRANCE": ["A PAR - PIC", "A MAR H"]}


def test_fog_filing_errors_never_mention_foreign_units(tmp_path: Path) -> None:
    """A support of a unit that is not there is filed in a fog game: rejecting it would tell
    the player the province is empty."""
    game = Game.create("fog-of-war")
    checks = game.file("FRANCE", ["A PAR S A RUH - BUR", "A MAR S F GAS"])
    assert all(check.ok for check in checks)
    standard = Game.create("standard")
    checks = standard.file("FRANCE", ["A PAR S A RUH - BUR"])
    assert checks[0].error == "there is no unit in RUH"


@pytest.mark.parametrize(
    "args, message",
    [
        (["gm", "status", "missing.json"], "no game file at missing.json"),
        (["gm", "new", "--variant", "chess", "x.json"], "unknown variant 'chess'"),
        (["gm", "new", "--option", "nonsense=1", "x.json"], "unknown option 'nonsense'"),
        (["gm", "new", "--option", "end_year=soon", "x.json"], "option 'end_year' must be a year or null"),
        (["gm", "new", "--option", "end_year", "x.json"], "must be written KEY=VALUE"),
        # option names that are also the names of parameters on the way in
        (["gm", "new", "--option", "name=x", "x.json"], "unknown option 'name'"),
        (["gm", "new", "--option", "preset=fog-of-war", "x.json"], "unknown option 'preset'"),
        (["gm", "new", "--option", "replace=true", "x.json"], "unknown option 'replace'"),
        (["gm", "orders", "GAME", "PRUSSIA", "-"], "unknown power 'PRUSSIA'"),
        (["gm", "show", "GAME", "--as", "ITALIA"], "unknown power 'ITALIA'"),
    ],
)
def test_bad_requests_get_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    game = tmp_path / "game.json"
    _save(game, Game.create("standard"))
    os.chdir(tmp_path)
    result = run(*[str(game) if a == "GAME" else a for a in args], input="A PAR H\n")
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in result.stderr


def test_damaged_game_files_are_refused_clearly(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    game.write_text("{not json")
    with pytest.raises(GameFileError, match="is not valid JSON"):
        _open(game)
    game.write_text(json.dumps({"format": "something-else"}))
    with pytest.raises(GameFileError, match="is not a fogdip game file"):
        _open(game)


def test_a_crash_while_saving_leaves_the_old_game_intact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = tmp_path / "game.json"
    original = Game.create("deadman")
    _save(game, original)
    before = game.read_bytes()
    changed = _open(game)
    changed.file("TURKEY", ["F SMY", "F CON", "A ANK"])

    def crash(*_args: object) -> None:
        raise OSError("disk on fire")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        _save(game, changed)
    assert game.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left behind


def test_reports_read_back_from_json_equal_the_originals() -> None:
    game = Game.create("fog-of-war")
    game.file("GERMANY", ["A MUN - RUH"])
    played = game.adjudicate()
    for _power, seen in played.observations.items():
        assert observation_from_json(observation_to_json(seen)) == seen


def test_variant_phase_documents_play_on_through_fogdip_adjudicate() -> None:
    doc = {
        "variant": "fog-of-war",
        "options": {"end_year": 1901},
        "phase": "S1901M",
        "units": {"GERMANY": ["A MUN"], "FRANCE": ["A BUR"]},
        "centers": {"GERMANY": ["MUN"]},
        "orders": {"GERMANY": ["A MUN - RUH"]},
    }
    result = adjudicate_document(doc)
    assert result["state"]["phase"] == "S1901R"  # held although nobody was dislodged
    assert result["state"]["variant"] == "fog-of-war"
    assert result["state"]["options"] == {"end_year": 1901}
    assert set(result["reports"]) == {"AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"}
    german = result["reports"]["GERMANY"]
    assert {"power", "phase", "visible", "units", "orders", "centers", "notices", "text"} <= set(german)
    assert [{key: o[key] for key in ("power", "order", "result")} for o in german["orders"]] == [
        {"power": "GERMANY", "order": "A MUN - RUH", "result": []}
    ]
    assert german["orders"][0]["masked"] == {"kind": "move", "unit": {"kind": "A", "location": "MUN"}, "target": "RUH"}
    again = adjudicate_document(dict(result["state"], orders={}))
    assert again["state"]["phase"] == "F1901M"


def test_setup_phase_documents() -> None:
    doc = {
        "variant": "fog-1898",
        "phase": "S1901S",
        "units": {},
        "centers": {"ENGLAND": ["EDI"]},
        "orders": {"ENGLAND": ["F EDI"]},
    }
    result = adjudicate_document(doc)
    assert result["phase"] == "S1901S"
    assert result["state"]["phase"] == "S1901M"
    assert "F EDI" in result["state"]["units"]["ENGLAND"]


@pytest.mark.parametrize(
    "change, message",
    [
        ({"options": {"colour": "red"}}, "unknown option 'colour'"),
        ({"options": {"end_year": "soon"}}, "option 'end_year' must be a year or null"),
        ({"options": {"espionage": 1}}, "option 'espionage' must be true or false"),
        ({"options": []}, '"options" must be an object'),
        ({"phase": "S1901S"}, "has no setup"),
        ({"usage": 3}, '"usage" must be an object'),
    ],
)
def test_bad_variant_documents_say_what_is_wrong(change: dict[str, Any], message: str) -> None:
    doc = {"variant": "fog-of-war", "phase": "S1901M", "units": {}, "centers": {}, **change}
    with pytest.raises(InvalidPosition, match=message):
        adjudicate_document(doc)


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda d: d.pop("position"), '"position" must be'),
        (lambda d: d.update(history=5), '"history" must be a list'),
        (lambda d: d.update(filed={"FRANCE": "A PAR H"}), '"filed" must map'),
    ],
)
def test_damaged_structures_are_refused_with_one_message(tmp_path: Path, damage: Any, message: str) -> None:
    game = tmp_path / "game.json"
    _save(game, Game.create("fog-of-war"))
    data = json.loads(game.read_text())
    damage(data)
    game.write_text(json.dumps(data))
    with pytest.raises(GameFileError, match=message):
        _open(game)
    result = run("gm", "status", game)
    assert result.exit_code == 2 and "internal error" not in result.stderr


def test_a_damaged_report_is_refused_in_one_line_naming_it(tmp_path: Path) -> None:
    """A game file's reports are read as values when it is read: a damaged one is refused at
    once, in one line that names whose report it is, never a traceback."""
    game = tmp_path / "game.json"
    _save(game, Game.create("fog-of-war"))
    data = json.loads(game.read_text())
    data["opening"]["FRANCE"].pop("units")
    game.write_text(json.dumps(data))
    with pytest.raises(GameFileError, match="damaged report of FRANCE"):
        _open(game)
    for command in (["show", game, "--as", "FRANCE"], ["status", game]):
        result = run("gm", *command)
        lines = result.stderr.strip().splitlines()
        assert result.exit_code == 2 and len(lines) == 1 and "damaged report of FRANCE" in lines[0]
        assert "internal error" not in result.stderr and "restore it from a backup" in lines[0]


@pytest.mark.parametrize(
    "option, message",
    [
        ("fog=bogus", "option 'fog' cannot be 'bogus'"),
        ("setup=bogus", "option 'setup' cannot be 'bogus'"),
        ("victory_centers=0", "must be at least 1"),
        ("edition=1999", "option 'edition' cannot be '1999'"),
    ],
)
def test_option_values_are_checked(tmp_path: Path, option: str, message: str) -> None:
    result = run("gm", "new", "--option", option, tmp_path / "g.json")
    assert result.exit_code == 2 and message in result.stderr
    with pytest.raises(InvalidPosition, match=message):
        adjudicate_document(
            {
                "variant": "standard",
                "options": dict([option.split("=")]) if "centers" not in option else {"victory_centers": 0},
                "phase": "S1901M",
                "units": {},
                "centers": {},
            }
        )


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["fog-of-war", "sighting", "deadman", "diplomyopia", "fog-1898"])
def test_each_seed_preset_plays_to_its_end_through_fogdip_gm(tmp_path: Path, preset: str) -> None:
    import random

    from fogdip.bots.variant_bot import random_turn_orders

    game = tmp_path / "game.json"
    # One year: every kind of phase (and deadman's setup), and the end with its reveal.
    assert run("gm", "new", "--variant", preset, "--option", "end_year=1901", game).exit_code == 0
    rng = random.Random(preset)
    turns = 0
    while _open(game).turn != "COMPLETED":
        record = _open(game)
        for power, lines in random_turn_orders(record.variant, record.position, rng).items():
            filed = run("gm", "orders", game, power, "-", "--partial", input="\n".join(lines) + "\n")
            assert filed.exit_code == 0, filed.stderr
        # PNG maps (a quarter of a second each, eight a turn) on the first turn only: the
        # reports and SVG maps of every turn are what this game is played for.
        drawn = () if turns == 0 else ("--no-png",)
        done = run("gm", "adjudicate", game, "--reports", tmp_path / "reports", *drawn)
        assert done.exit_code == 0, done.stderr
        assert (tmp_path / "reports" / record.turn / "FRANCE.svg").exists()
        assert (tmp_path / "reports" / record.turn / "FRANCE.png").exists() == (turns == 0)
        turns += 1
        assert turns < 40
    shown = run("gm", "show", game, "--as", "FRANCE")
    assert shown.exit_code == 0 and "The game is over" in shown.stdout
    # reveal_at_end: every power now sees every turn's orders, everyone's.
    history = json.loads(run("gm", "show", game, "--as", "FRANCE", "--json").stdout)["revealed_history"]
    assert [turn["turn"] for turn in history] == [turn.turn for turn in _open(game).master_view().turns]
    assert {o["power"] for turn in history for o in turn["orders"].values()} >= {"ENGLAND", "TURKEY"}
    assert "its whole history is revealed" in shown.stdout


def test_options_that_let_the_schedule_tell_secrets_are_warned_of(tmp_path: Path) -> None:
    quiet = run("gm", "new", "--variant", "deadman", tmp_path / "a.json")
    assert quiet.exit_code == 0 and "warning" not in quiet.stderr
    loud = run("gm", "new", "--variant", "deadman", "--option", "winter_spring_combined=false", tmp_path / "b.json")
    assert loud.exit_code == 0
    assert "warning: whether a Winter is played tells every power" in loud.stderr


def test_a_drawn_game_is_over_and_revealed(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    run("gm", "new", "--variant", "fog-of-war", game)
    run("gm", "orders", game, "FRANCE", "-", input="A PAR - BUR\n")
    assert run("gm", "adjudicate", game).exit_code == 0
    drawn = run("gm", "draw", game)
    assert drawn.exit_code == 0, drawn.stderr
    said = " ".join(drawn.stdout.split())  # the console wraps long lines
    assert said == (
        "The game is drawn between AUSTRIA, ENGLAND, FRANCE, GERMANY, ITALY, RUSSIA, TURKEY. "
        "The whole game is now revealed to every power."
    )
    ended = _open(game)
    assert ended.turn == "COMPLETED"
    assert ended.outcome() == {"result": "draw", "powers": list(ended.powers), "agreed": "S1901R"}
    england = json.loads(run("gm", "show", game, "--as", "ENGLAND", "--json").stdout)
    assert england["revealed_history"][0]["orders"]["A PAR"]["order"] == "A PAR - BUR"
    again = run("gm", "draw", game, "FRANCE", "ENGLAND")
    assert again.exit_code != 0 and "over already" in again.stderr
    assert run("gm", "orders", game, "FRANCE", "-", input="A BUR H\n").exit_code != 0


def test_a_draw_among_named_powers(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    run("gm", "new", game)
    assert run("gm", "draw", game, "fra", "England").exit_code == 0
    assert _open(game).outcome() == {"result": "draw", "powers": ["ENGLAND", "FRANCE"], "agreed": "S1901M"}
    assert run("gm", "draw", tmp_path / "other.json").exit_code != 0


# --- the table's rules at the console ----------------------------------------------------------


def test_gm_status_shows_every_seat_and_the_deadline(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    made = run("gm", "new", "--variant", "fog-of-war", "--deadline", "movement=48", "--deadline", "retreats=12", game)
    assert made.exit_code == 0 and "its deadline is" in made.stdout
    assert run("gm", "orders", game, "fra", "-", input="A PAR - BUR\n").exit_code == 0
    assert run("gm", "ready", game, "France").exit_code == 0
    assert run("gm", "vote", game, "ENG").exit_code == 0
    status = run("gm", "status", game).stdout
    assert "due 20" in status and "UTC" in status  # the deadline
    rows = {line.split("│")[1].strip(): line.split("│")[2].strip() for line in status.splitlines() if "│" in line}
    assert rows["FRANCE"] == "by post, filed 1 line(s), ready"
    assert rows["ENGLAND"] == "by post, not filed, draw"
    wrong = run("gm", "new", "--deadline", "winter=2", tmp_path / "other.json")
    assert wrong.exit_code == 2 and "deadlines are given per phase type" in wrong.stderr


def test_gm_ready_plays_the_turn_once_every_seat_is_ready_and_the_bot_files(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    assert run("gm", "new", "--variant", "fog-of-war", game).exit_code == 0
    assert run("gm", "bots", game, "ITALY", "aus", "Germany", "ENGLAND", "RUSSIA", "TURKEY").exit_code == 0
    marked = run("gm", "ready", game, "FRANCE")
    assert marked.exit_code == 0 and "3 unit(s) have no order" in marked.stdout
    assert "Every seat was ready: S1901M is adjudicated" in marked.stdout
    played = _open(game).record.history[-1]
    assert played.turn == "S1901M" and any(played.orders.get(power) for power in ("ITALY", "GERMANY", "RUSSIA"))


def test_gm_votes_end_the_game_once_every_power_still_in_votes(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    assert run("gm", "new", "--variant", "standard", game).exit_code == 0
    powers = _open(game).powers
    for power in powers[:-1]:
        voted = run("gm", "vote", game, power)
        assert voted.exit_code == 0 and "drawn" not in voted.stdout
    assert run("gm", "vote", game, powers[0], "--against").exit_code == 0
    assert run("gm", "vote", game, powers[-1]).exit_code == 0
    last = run("gm", "vote", game, powers[0])
    assert "the game is drawn between" in " ".join(last.stdout.split())
    assert _open(game).outcome() == {"result": "draw", "powers": list(powers), "agreed": "S1901M"}


def test_gm_reports_hold_the_whole_turn_for_the_game_master(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    assert run("gm", "new", "--variant", "fog-of-war", game).exit_code == 0
    assert run("gm", "orders", game, "FRANCE", "-", input="A PAR - BUR\n").exit_code == 0
    assert run("gm", "orders", game, "GERMANY", "-", input="A MUN - BUR\n").exit_code == 0
    assert run("gm", "adjudicate", game, "--reports", tmp_path / "reports", "--no-png").exit_code == 0
    turn = (tmp_path / "reports" / "S1901M" / "gm" / "turn.txt").read_text()
    assert "Spring 1901 movement (S1901M): the whole turn" in turn
    assert "FRANCE: A PAR - BUR: bounced: 1 against 1 with A MUN - BUR" in turn
    assert "GERMANY: A MUN - BUR: bounced" in turn and "TURKEY: A CON H (default): A CON had no order and held" in turn
    france = (tmp_path / "reports" / "S1901M" / "FRANCE.txt").read_text()
    assert "TURKEY" not in france  # each power's own report stays its own


def test_gm_show_without_a_power_shows_the_whole_board(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    assert run("gm", "new", "--variant", "fog-of-war", game).exit_code == 0
    assert run("gm", "orders", game, "TURKEY", "-", input="A CON - BUL\n").exit_code == 0
    assert run("gm", "adjudicate", game, "--no-png").exit_code == 0
    shown = run("gm", "show", game)
    said = " ".join(shown.stdout.split())
    assert shown.exit_code == 0 and "TURKEY: A CON - BUL: A CON moved to BUL" in said
    assert "TURKEY: A BUL" in said and "ENGLAND: A LVP, F EDI, F LON" in said
    assert (tmp_path / "game-gm.svg").exists()
    as_json = json.loads(run("gm", "show", game, "--json").stdout)
    assert as_json["next_turn"] == "S1901R" and "status" in as_json
