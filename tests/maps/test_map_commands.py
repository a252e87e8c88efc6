"""``fogdip map`` and the maps ``fogdip gm`` writes: every power's map beside its report, the
same bytes whichever command draws it, and one-line errors for what cannot be drawn."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from fogdip.codec.positions import document_from_state
from fogdip.engine.state import GameState
from fogdip.play import adjudicate_document

from cli_runner import run

PNG = b"\x89PNG\r\n\x1a\n"
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")

#: Whole games played through the command line, drawn: the fast lane (-m "not slow") leaves them out.
pytestmark = pytest.mark.slow


def one_line_error(result: Any, expected: str) -> None:
    assert result.exit_code == 2, result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fogdip: error: "), result.stderr
    assert expected in lines[0], lines[0]


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A fog-of-war game after its first turn, its reports in ``reports/``."""
    path = tmp_path / "game.json"
    assert run("gm", "new", "--variant", "fog-of-war", path).exit_code == 0
    assert run("gm", "orders", path, "GERMANY", "-", input="A MUN - BUR\nF KIE - HOL\n").exit_code == 0
    assert run("gm", "orders", path, "FRANCE", "-", input="A PAR - PIC\n").exit_code == 0
    result = run("gm", "adjudicate", path, "--reports", tmp_path / "reports")
    assert result.exit_code == 0, result.stderr
    return path


def test_gm_adjudicate_writes_every_power_s_map_beside_its_report(game: Path) -> None:
    folder = game.parent / "reports" / "S1901M"
    for stem in (*POWERS, "gm/board"):
        svg = (folder / f"{stem}.svg").read_text()
        ET.fromstring(svg)
        assert (folder / f"{stem}.png").read_bytes().startswith(PNG)
    # the turn's folder holds only what may go to the powers; the whole board is apart
    assert sorted(p.name for p in folder.iterdir() if p.is_file()) == sorted(
        f"{power}.{ext}" for power in POWERS for ext in ("txt", "json", "svg", "png")
    )
    for power in POWERS:
        assert (folder / f"{power}.txt").exists() and (folder / f"{power}.json").exists()
    france = (folder / "FRANCE.svg").read_text()
    assert "A BUR (Germany)" in france  # France sees the army arrive in Burgundy
    assert "F HOL (Germany)" not in france  # and not the fleet in Holland
    assert "F HOL (Germany)" in (folder / "gm" / "board.svg").read_text()


def test_fogdip_map_draws_the_same_bytes_as_the_reports(game: Path, tmp_path: Path) -> None:
    folder = game.parent / "reports" / "S1901M"
    out = tmp_path / "france.svg"
    result = run("map", game, "--as", "france", "--phase", "S1901M", "-o", out)
    assert result.exit_code == 0, result.stderr
    assert out.read_text() == (folder / "FRANCE.svg").read_text()
    assert run("map", game, "--as", "FRANCE", "-o", out).exit_code == 0  # the latest report: the same turn
    assert out.read_text() == (folder / "FRANCE.svg").read_text()
    assert run("map", game, "--gm", "-o", out).exit_code == 0
    assert out.read_text() == (folder / "gm" / "board.svg").read_text()
    png = tmp_path / "start.png"
    assert run("map", game, "--as", "FRANCE", "--phase", "start", "-o", png).exit_code == 0
    assert png.read_bytes().startswith(PNG)


def test_gm_show_says_where_the_map_is(game: Path, tmp_path: Path) -> None:
    shown = run("gm", "show", game, "--as", "FRANCE")
    assert shown.exit_code == 0, shown.stderr
    default = game.with_name("game-FRANCE.svg")
    assert f"Map: {default}" in shown.stdout
    assert default.read_text() == (game.parent / "reports" / "S1901M" / "FRANCE.svg").read_text()
    png = tmp_path / "maps" / "france.png"
    shown = run("gm", "show", game, "--as", "FRANCE", "--map", png)
    assert f"Map: {png}" in shown.stdout and png.read_bytes().startswith(PNG)
    as_json = run("gm", "show", game, "--as", "FRANCE", "--json")
    json.loads(as_json.stdout)  # the map's place goes to stderr, the JSON stays clean
    assert "Map: " in as_json.stderr


def test_fogdip_map_draws_phase_and_result_documents(tmp_path: Path) -> None:
    doc = {**document_from_state(GameState.initial()), "orders": {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"]}}
    (tmp_path / "phase.json").write_text(json.dumps(doc))
    assert run("map", tmp_path / "phase.json", "-o", tmp_path / "phase.svg").exit_code == 0
    svg = (tmp_path / "phase.svg").read_text()
    assert svg.count("<title>A ") + svg.count("<title>F ") == 22
    assert 'stroke-dasharray="8 4"' in svg  # the support, drawn as written
    result = adjudicate_document(doc)
    result = run("map", "-", "-o", tmp_path / "result.png", input=json.dumps(result))
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "result.png").read_bytes().startswith(PNG)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["-o", "map.txt"], "the output must end in .svg or .png, not 'map.txt'"),
        (["-o", "map.svg"], "a game file is drawn --as POWER or --gm: say which"),
        (["--as", "FRANCE", "--gm", "-o", "map.svg"], "a game file is drawn --as POWER or --gm: say which"),
        (["--as", "SPAIN", "-o", "map.svg"], "SPAIN"),
        (["--as", "FRANCE", "--phase", "F1905M", "-o", "map.svg"], "no report after F1905M"),
        (["--gm", "--phase", "F1905M", "-o", "map.svg"], "no turn F1905M has been played"),
    ],
)
def test_what_cannot_be_drawn_is_a_one_line_error(game: Path, tmp_path: Path, args: list[str], expected: str) -> None:
    one_line_error(run("map", game, *[tmp_path / a if a.endswith((".svg", ".txt")) else a for a in args]), expected)


def test_a_single_document_takes_no_game_options(tmp_path: Path) -> None:
    (tmp_path / "phase.json").write_text(json.dumps(document_from_state(GameState.initial())))
    one_line_error(
        run("map", tmp_path / "phase.json", "--as", "FRANCE", "-o", tmp_path / "x.svg"),
        "--as, --gm and --phase choose what to draw of a game file",
    )
    (tmp_path / "bad.json").write_text("{")
    one_line_error(run("map", tmp_path / "bad.json", "-o", tmp_path / "x.svg"), "not valid JSON")


def test_a_cropped_map_shows_the_known_part_of_the_board_enlarged(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    assert run("gm", "new", "--variant", "fog-of-war", game).exit_code == 0
    full, cropped = tmp_path / "full.svg", tmp_path / "crop.svg"
    assert run("map", game, "--as", "ITALY", "-o", full).exit_code == 0
    result = run("map", game, "--as", "ITALY", "--crop", "-o", cropped)
    assert result.exit_code == 0, result.stderr
    inner = ET.fromstring(cropped.read_text()).find("{http://www.w3.org/2000/svg}svg")
    assert inner is not None and ET.fromstring(full.read_text()).find("{http://www.w3.org/2000/svg}svg") is None
    x, y, width, height = map(float, (inner.get("viewBox") or "").split())
    assert x >= 0 and y >= 0 and 500 <= width < 1500
    assert 1.0 <= width / height <= 1.6


def test_without_cairo_the_reports_still_go_out_with_svg_maps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine without the Cairo library: PNG cannot be drawn, which is said once; every
    report and SVG map is still written and the turn is saved."""
    import fogdip.cli.gm as gm
    from fogdip.maps.png import PngUnavailable

    def no_cairo(svg: str) -> bytes:
        raise PngUnavailable("PNG maps need cairosvg and the Cairo library (no library called 'cairo')")

    monkeypatch.setattr(gm, "svg_to_png", no_cairo)
    game = tmp_path / "game.json"
    assert run("gm", "new", "--variant", "fog-of-war", game).exit_code == 0
    result = run("gm", "adjudicate", game, "--reports", tmp_path / "reports")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.count("warning: the maps are written as SVG only") == 1
    folder = tmp_path / "reports" / "S1901M"
    assert sorted(p.name for p in folder.glob("*.svg")) == sorted(f"{p}.svg" for p in POWERS)
    assert (folder / "gm" / "board.svg").exists()
    assert not list(folder.glob("**/*.png"))
    assert "next: S1901R" in result.stdout
