"""The ids a page clicks on: every province has a target, and every drawn unit says where it
stands, whose it is and what, and nothing the scene does not hold."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET

from fogdip.engine.state import GameState
from fogdip.game import Game
from fogdip.maps.geometry import load_geometry
from fogdip.maps.scene import DrawnUnit, master_scene
from fogdip.maps.svg import render_svg
from fogdip.maps.views import power_scene_of

SVG = "{http://www.w3.org/2000/svg}"
PROVINCE_KINDS = ("land", "sea", "impassable")


def test_every_province_region_has_one_clickable_target_under_the_units() -> None:
    svg = render_svg(master_scene(GameState.initial()), hits=True)
    root = ET.fromstring(svg)
    targets = [element.get("data-province") for element in root.iter() if element.get("data-province")]
    geometry = load_geometry("standard")
    wanted = sorted(r.id for r in geometry.regions.values() if r.kind in PROVINCE_KINDS)
    assert sorted(targets) == wanted
    assert "STP" in targets and "NTH" in targets and "STP/SC" not in targets
    assert svg.index('data-province="PAR"') < svg.index('data-unit="PAR"')
    hits = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "hits")
    assert hits.get("pointer-events") == "all" and hits.get("fill") == "none"


def test_a_map_without_hits_has_no_targets() -> None:
    assert "data-province" not in render_svg(master_scene(GameState.initial()))


def test_units_carry_location_power_and_type_as_drawn() -> None:
    svg = render_svg(master_scene(GameState.initial()), hits=True)
    root = ET.fromstring(svg)
    units = {
        g.get("data-unit"): (g.get("data-power"), g.get("data-type"))
        for g in root.iter(f"{SVG}g")
        if g.get("data-unit")
    }
    assert len(units) == 22
    assert units["STP/SC"] == ("RUSSIA", "F")
    assert units["PAR"] == ("FRANCE", "A")


def test_a_ghost_and_an_unknown_unit_name_only_what_is_drawn() -> None:
    scene = master_scene(GameState.initial())
    ghost = DrawnUnit("BUR", "GERMANY", "A", last_seen="S1902M")
    unknown = DrawnUnit("RUH", None, None)
    dislodged = DrawnUnit("MUN", "GERMANY", "A", dislodged=True)
    svg = render_svg(dataclasses.replace(scene, units=(ghost, unknown, dislodged)), hits=True)
    root = ET.fromstring(svg)
    drawn = {g.get("data-unit"): g.attrib for g in root.iter(f"{SVG}g") if g.get("data-unit")}
    assert drawn["BUR"]["data-ghost"] == "S1902M"
    assert drawn["RUH"] == {"data-unit": "RUH"}
    assert drawn["MUN"]["data-dislodged"] == "true"
    assert "data-ghost" not in drawn["MUN"]


def test_a_powers_map_names_only_its_own_units_at_the_start() -> None:
    svg = render_svg(power_scene_of(Game.create("fog-of-war"), "RUSSIA"), hits=True)
    root = ET.fromstring(svg)
    powers = {g.get("data-power") for g in root.iter(f"{SVG}g") if g.get("data-unit")}
    assert powers == {"RUSSIA"}
