"""The ``fogdip`` command line: in process with Typer's runner, and as a real subprocess."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fogdip.cli.main import app, demo_document

DATA = Path(__file__).parent / "data"
SAMPLE = DATA / "mila_sample_game.json"
SRC = Path(__file__).resolve().parents[1] / "src"

GOOD: dict[str, Any] = {
    "phase": "S1901M",
    "units": {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A MUN"]},
    "centers": {"FRANCE": ["PAR", "MAR"], "GERMANY": ["MUN"]},
    "orders": {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"], "GERMANY": ["A MUN - BUR"]},
}


def runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # older Click
    except TypeError:
        return CliRunner()


def run(*args: str, input: str | None = None) -> Any:
    return runner().invoke(app, list(args), input=input)


def assert_one_line_error(stderr: str, expected: str) -> None:
    assert "Traceback" not in stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("fogdip: error: ")
    assert expected in lines[0]


def subprocess_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    return env


def fogdip(*args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fogdip", *args],
        input=input,
        capture_output=True,
        text=True,
        env=subprocess_env(),
        timeout=120,
    )


# --- adjudicate --------------------------------------------------------------------------------


def test_adjudicate_file(tmp_path: Path) -> None:
    path = tmp_path / "phase.json"
    path.write_text(json.dumps(GOOD))
    result = run("adjudicate", str(path))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 1  # compact by default
    out = json.loads(lines[0])
    assert out["results"] == {"A MAR": [], "A PAR": [], "A MUN": ["bounce"]}
    assert out["reasons"]["A MUN"].startswith("bounced")
    assert out["state"]["phase"] == "F1901M"
    assert out["state"]["units"]["FRANCE"] == ["A BUR", "A MAR"]


def test_adjudicate_stdin_pretty() -> None:
    result = run("adjudicate", "-", "--pretty", input=json.dumps(GOOD))
    assert result.exit_code == 0
    assert result.stdout.count("\n") > 10
    assert json.loads(result.stdout)["phase"] == "S1901M"


def test_result_state_plays_on() -> None:
    first = json.loads(run("adjudicate", input=json.dumps(GOOD)).stdout)
    following = {**first["state"], "orders": {"FRANCE": ["A BUR - MUN", "A MAR - BUR"]}}
    second = json.loads(run("adjudicate", input=json.dumps(following)).stdout)
    assert second["phase"] == "F1901M"
    assert second["results"]["A BUR"] == ["bounce"]
    assert second["state"]["phase"] == "S1902M"  # no builds possible: winter skipped


BAD_INPUTS = [
    ("malformed JSON", '{"phase": "S1901M",', "not valid JSON"),
    ("not an object", "[1, 2]", "must be a JSON object"),
    ("unknown variant", json.dumps({**GOOD, "variant": "youngstown"}), "unknown variant 'youngstown'"),
    ("winter movement", json.dumps({**GOOD, "phase": "W1901M"}), "phase 'W1901M' does not exist"),
    ("no such season", json.dumps({**GOOD, "phase": "X1901M"}), "phase 'X1901M' is not a phase name"),
    ("impassable", json.dumps({**GOOD, "units": {"FRANCE": ["A SWI"]}}), "impassable"),
    ("missing province", json.dumps({**GOOD, "units": {"FRANCE": ["A XYZ"]}}), "unknown province 'XYZ'"),
    ("army at sea", json.dumps({**GOOD, "units": {"FRANCE": ["A MAO"]}}), "a sea"),
    ("unknown edition", json.dumps({**GOOD, "rules": "1901"}), "unknown rule edition"),
    ("completed", json.dumps({**GOOD, "phase": "COMPLETED"}), "the game is over"),
    ("empty input", "", "not valid JSON"),
    ("deep nesting", "[" * 100_000, "nested too deeply"),
]


@pytest.mark.parametrize(("case", "text", "expected"), BAD_INPUTS, ids=[c[0] for c in BAD_INPUTS])
def test_adjudicate_bad_input(case: str, text: str, expected: str) -> None:
    result = run("adjudicate", "-", input=text)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert_one_line_error(result.stderr, expected)


def test_adjudicate_missing_file(tmp_path: Path) -> None:
    result = run("adjudicate", str(tmp_path / "nothing.json"))
    assert result.exit_code == 2
    assert_one_line_error(result.stderr, "No such file")


def test_jsonl_keeps_going_after_a_bad_line() -> None:
    lines = [json.dumps(GOOD), "{broken", json.dumps({**GOOD, "phase": "W1901M"}), "", json.dumps(GOOD)]
    result = run("adjudicate", "--jsonl", input="\n".join(lines) + "\n")
    assert result.exit_code == 0
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(out) == 4  # the blank line is skipped
    assert out[0]["results"]["A MUN"] == ["bounce"]
    assert out[1] == {"error": out[1]["error"], "line": 2}
    assert "not valid JSON" in out[1]["error"]
    assert out[2]["line"] == 3 and "does not exist" in out[2]["error"]
    assert out[3] == out[0]


# --- replay ------------------------------------------------------------------------------------


def test_replay_matching_game() -> None:
    result = run("replay", str(SAMPLE))
    assert result.exit_code == 0
    assert "5 phases compared, 5 match, 0 mismatch" in result.stdout
    assert "MISMATCH" not in result.stdout
    assert "edition 2000, convoy intent rulebook" in result.stdout  # a game MILA saved: MILA's rules


def tampered(tmp_path: Path) -> Path:
    data = json.loads(SAMPLE.read_text())
    data["phases"][1]["state"]["units"]["FRANCE"] = ["F BRE", "A MAR", "A GAS"]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data))
    return path


def test_replay_mismatch_exits_1(tmp_path: Path) -> None:
    result = run("replay", str(tampered(tmp_path)))
    assert result.exit_code == 1
    assert "MISMATCH  S1901M -> F1901M" in result.stdout
    assert "units only in the record: FRANCE A GAS" in result.stdout
    assert "units only in fogdip's result: FRANCE A PAR" in result.stdout
    assert "MISMATCH  F1901M -> W1901A" in result.stdout  # A GAS, not A PAR, stands in Fall 1901 now
    assert "5 phases compared, 3 match, 2 mismatch" in result.stdout
    quiet = run("replay", "--quiet", str(tampered(tmp_path)))
    assert quiet.exit_code == 1
    assert "ok " not in quiet.stdout


def test_replay_rule_options() -> None:
    game = DATA / "games" / "game_443777_ENGLAND_AIT.json"
    assert run("replay", "-q", str(game)).exit_code == 0
    rulebook = run("replay", "-q", "--no-mila-compat", str(game))
    assert rulebook.exit_code == 1  # F1907M: an own-fleet convoy without VIA
    assert "F1907M" in rulebook.stdout
    assert run("replay", "-q", "--convoy-intent", "rulebook", str(game)).exit_code == 1
    assert "civil disorder owned-distance" in run("replay", "-q", "--rules", "2023", str(game)).stdout


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["replay", "/no/such/game.json"], "No such file"),
        (["replay", "--rules", "1999", str(SAMPLE)], "unknown rule edition '1999'"),
        (["replay", "--convoy-intent", "sometimes", str(SAMPLE)], "--convoy-intent must be one of"),
        (["random-game", "--seed", "1", "--format", "xml"], "--format must be one of mila, fogdip"),
        (["random-game", "--seed", "1", "--rules", "1971"], "unknown rule edition '1971'"),
    ],
)
def test_bad_options(args: list[str], expected: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert_one_line_error(result.stderr, expected)


def test_replay_bad_game_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text('{"phases": [{"phase": "S1901M", "units": {"FRANCE": ["F PAR"]}, "centers": {}}]}')
    result = run("replay", str(path))
    assert result.exit_code == 2
    assert_one_line_error(result.stderr, "phase 0 (S1901M): unit 'F PAR' of FRANCE")


# --- random-game -------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["mila", "fogdip"])
def test_random_game_replays_cleanly(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / f"{fmt}.json"
    result = run("random-game", "--seed", "11", "--max-phases", "30", "--out", str(path), "--format", fmt)
    assert result.exit_code == 0, result.stderr
    assert "30 phases played" in result.stderr
    data = json.loads(path.read_text())
    assert len(data["phases"]) == 31
    assert ("state" in data["phases"][0]) == (fmt == "mila")
    replay = run("replay", str(path))
    assert replay.exit_code == 0, replay.stdout
    assert "30 phases compared, 30 match" in replay.stdout


def test_random_game_is_deterministic_and_can_write_stdout(tmp_path: Path) -> None:
    first = run("random-game", "--seed", "5", "--max-phases", "12", "--rules", "2000")
    second = run("random-game", "--seed", "5", "--max-phases", "12", "--rules", "2000")
    assert first.exit_code == 0
    assert first.stdout == second.stdout
    data = json.loads(first.stdout)
    assert data["fogdip_rules"] == "2000"
    assert data["id"] == "fogdip-random-5"
    assert sum(1 for p in data["phases"] if p["results"]) == 12
    for phase in data["phases"][:-1]:
        if phase["name"].endswith("M"):
            units = [u for us in phase["state"]["units"].values() for u in us]
            ordered = [o for os_ in phase["orders"].values() for o in os_]
            assert len(ordered) == len(units)  # one order per unit


# --- usage errors ------------------------------------------------------------------------------

USAGE_ERRORS = [
    ("missing option", ["random-game"], "missing option '--seed'; see 'fogdip random-game --help'"),
    ("unknown option", ["random-game", "--seed", "1", "--bogus"], "no such option: --bogus"),
    ("not a number", ["random-game", "--seed", "x"], "invalid value for '--seed'"),
    ("out of range", ["random-game", "--seed", "1", "--max-phases", "0"], "invalid value for '--max-phases'"),
    (
        "option without value",
        ["random-game", "--seed"],
        "option '--seed' requires an argument; see 'fogdip random-game --help'",
    ),
    ("missing argument", ["replay"], "missing argument 'GAME'; see 'fogdip replay --help'"),
    ("extra argument", ["adjudicate", "a.json", "b.json"], "unexpected extra argument"),
    ("unknown command", ["frobnicate"], "no such command 'frobnicate'; see 'fogdip --help'"),
    ("bad flag value", ["replay", str(SAMPLE), "--quiet=maybe"], "; see 'fogdip replay --help'"),
]


@pytest.mark.parametrize(("case", "args", "expected"), USAGE_ERRORS, ids=[c[0] for c in USAGE_ERRORS])
def test_usage_errors_are_one_line(case: str, args: list[str], expected: str) -> None:
    result = runner().invoke(app, args, prog_name="fogdip")
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert_one_line_error(result.stderr, expected)
    assert "\u256d" not in result.stderr and "Usage:" not in result.stderr  # no Rich box, no usage block


@pytest.mark.slow
def test_subprocess_usage_errors_are_one_line() -> None:
    for _, args, expected in USAGE_ERRORS:
        result = fogdip(*args)
        assert result.returncode == 2, (args, result.stderr)
        assert result.stdout == ""
        assert_one_line_error(result.stderr, expected)


def test_help_still_exits_0_and_bare_command_shows_help() -> None:
    assert fogdip("random-game", "--help").returncode == 0
    bare = fogdip()
    assert "Usage" in bare.stdout + bare.stderr
    assert "Traceback" not in bare.stderr


# --- demo, version, help -----------------------------------------------------------------------


def test_demo() -> None:
    result = run("demo")
    assert result.exit_code == 0
    text = result.stdout
    for expected in (
        "A PAR - BUR",
        "bounce",
        "A YOR - NWY",
        "F NTH C A YOR - NWY",
        "A MAR S A PAR - BUR",
        "Winter 1901 adjustments",
        "rejected",
    ):
        assert expected in text


def test_the_readme_says_what_the_demo_shows() -> None:
    """The README names the phase the demo plays (it once said Spring, and the demo played Fall)."""
    from pathlib import Path

    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    said = next(line for line in readme.splitlines() if line.startswith("`fogdip demo`"))
    season = {"S": "Spring", "F": "Fall"}[demo_document()["phase"][0]]
    assert f"{season} {demo_document()['phase'][1:5]}" in said
    assert all(other not in said for other in ("Spring", "Fall") if other != season)
    assert f"{season} {demo_document()['phase'][1:5]}" in run("demo").stdout


def test_demo_document_adjudicates() -> None:
    shown = run("demo", "--show-document")
    assert json.loads(shown.stdout) == demo_document()
    result = json.loads(run("adjudicate", input=shown.stdout).stdout)
    assert result["results"]["A PAR"] == result["results"]["A MUN"] == ["bounce"]
    assert result["outcomes"]["F NTH"] == "convoyed"
    assert "A NWY" in result["state"]["units"]["ENGLAND"]


def test_version() -> None:
    result = run("version")
    assert result.exit_code == 0
    assert result.stdout.startswith("fogdip ")


@pytest.mark.parametrize("command", ["adjudicate", "replay", "random-game", "demo", "version"])
def test_help(command: str) -> None:
    result = run(command, "--help")
    assert result.exit_code == 0
    assert "Usage" in result.stdout


# --- a real process ----------------------------------------------------------------------------


@pytest.mark.slow
def test_subprocess_adjudicate_and_errors() -> None:
    good = fogdip("adjudicate", "-", input=json.dumps(GOOD))
    assert good.returncode == 0, good.stderr
    assert json.loads(good.stdout)["results"]["A MUN"] == ["bounce"]
    for _, text, expected in BAD_INPUTS:
        bad = fogdip("adjudicate", "-", input=text)
        assert bad.returncode == 2
        assert bad.stdout == ""
        assert_one_line_error(bad.stderr, expected)


@pytest.mark.slow
def test_subprocess_jsonl_flushes_each_result() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "fogdip", "adjudicate", "--jsonl"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=subprocess_env(),
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        answers = []
        for line in (json.dumps(GOOD), "not json", json.dumps(GOOD)):
            process.stdin.write(line + "\n")
            process.stdin.flush()
            ready, _, _ = select.select([process.stdout], [], [], 60)
            assert ready, "no answer before the next line: output is not flushed"
            answers.append(json.loads(process.stdout.readline()))
        process.stdin.close()
        assert process.wait(timeout=60) == 0
    finally:
        process.kill()
    assert answers[0]["results"]["A MUN"] == ["bounce"]
    assert answers[1]["line"] == 2 and "not valid JSON" in answers[1]["error"]
    assert answers[2] == answers[0]
    assert process.stderr is not None and "Traceback" not in process.stderr.read()


@pytest.mark.slow
def test_subprocess_replay_exit_codes(tmp_path: Path) -> None:
    assert fogdip("replay", str(SAMPLE)).returncode == 0
    mismatch = fogdip("replay", str(tampered(tmp_path)))
    assert mismatch.returncode == 1
    assert "Traceback" not in mismatch.stderr
