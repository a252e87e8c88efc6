"""Maps as drawn: what a scene holds is what the SVG shows, the fog hides what it should, and a
power's map depends on nothing it may not know."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET

import pytest

from fogdip.engine.map import standard_map
from fogdip.engine.state import GameState
from fogdip.fog.knowledge import Knowledge
from fogdip.fog.masked import FAILED, HIDDEN, SUCCEEDED, MaskedOrder, MaskedUnit, OrderKind, SeenResult
from fogdip.fog.observation import Notice, Observation, SeenOrder, SeenUnit
from fogdip.game import Game
from fogdip.maps.png import svg_to_png
from fogdip.maps.scene import DrawnUnit, Mark, master_scene, power_scene
from fogdip.maps.svg import painter, render_svg
from fogdip.maps.views import master_scene_of, power_scene_of, power_scenes

BOARD = standard_map()
SVG = "{http://www.w3.org/2000/svg}"
UNIT_TITLE = re.compile(r"^([AF?]) ([A-Z]{3}(?:/[NESW]C)?) \(")


def parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def unit_titles(svg: str) -> list[str]:
    """The units the map names, as ``"A PAR"``: each drawn unit carries one title."""
    root = parsed(svg)
    out = []
    for title in root.iter(f"{SVG}title"):
        match = UNIT_TITLE.match(title.text or "")
        if match:
            out.append(f"{match.group(1)} {match.group(2)}")
    return sorted(out)


def observation(**fields: object) -> Observation:
    base: dict[str, object] = {
        "variant": "fog-of-war",
        "power": "FRANCE",
        "phase": "S1901M",
        "next_phase": "F1901M",
        "visible": {"PAR", "BUR", "PIC", "BRE", "GAS", "MAR", "ENG", "MAO"},
        "units": [SeenUnit("BUR", "FRANCE", "A")],
        "orders": [],
        "centers": {"PAR": "FRANCE"},
    }
    base.update(fields)
    return Observation.build(**base)  # type: ignore[arg-type]


def scene_svg(seen: Observation, earlier: tuple[Observation, ...] = ()) -> str:
    knowledge = Knowledge.rebuild(seen.power, [*earlier, seen])
    return render_svg(power_scene(BOARD, seen, knowledge))


def test_the_game_masters_map_of_the_start_draws_all_22_units_and_34_centres() -> None:
    svg = render_svg(master_scene(GameState.initial()))
    assert len(unit_titles(svg)) == 22
    assert "F STP/SC" in unit_titles(svg)
    root = parsed(svg)
    assert root.get("viewBox", "").startswith("0 0 1500 ")
    assert "Game master" in svg


def test_every_region_and_name_of_the_board_is_drawn_once() -> None:
    paint = painter("standard")
    for code in BOARD.provinces:
        assert paint.region_paths[code].startswith("M")
        assert paint.names.count(f"</title>{code}</text>") == 1, code  # its letters, with its full name


def test_fog_covers_exactly_what_the_power_does_not_see() -> None:
    seen = observation()
    scene = power_scene(BOARD, seen, Knowledge.rebuild("FRANCE", [seen]))
    passable = {code for code, p in BOARD.provinces.items() if p.passable}
    assert scene.fog == passable - seen.visible
    fog_path = next(e for e in parsed(render_svg(scene)).iter(f"{SVG}path") if e.get("fill") == "url(#fog)")
    rings = [
        [tuple(map(float, point.split())) for point in ring.split("L")]
        for ring in (fog_path.get("d") or "").replace("M", "").split("Z")
        if ring
    ]
    paint = painter("standard")
    for code in passable:
        x, y = (v * paint.scale for v in paint.geometry.regions[code].label)
        crossings = sum(
            1
            for ring in rings
            for (x1, y1), (x2, y2) in itertools.pairwise(ring + ring[:1])
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1)
        )
        assert (crossings % 2 == 1) == (code in scene.fog), code


def test_a_ghost_is_faded_and_says_when_it_was_last_seen() -> None:
    earlier = observation(
        phase="S1901M", next_phase="F1901M", visible={"BUR", "MUN"}, units=[SeenUnit("MUN", "GERMANY", "A")]
    )
    later = observation(phase="F1901M", next_phase="W1901A", visible={"BUR"}, units=[SeenUnit("BUR", "FRANCE", "A")])
    svg = scene_svg(later, (earlier,))
    assert "A MUN (Germany), last seen here in Spring 1901; it may have moved" in svg
    assert ">last seen S1901</text>" in svg
    ghost = next(g for g in parsed(svg).iter(f"{SVG}g") if "last seen" in (g.findtext(f"{SVG}title") or ""))
    assert ghost.get("opacity") == "0.5"
    assert "stroke-dasharray" in ET.tostring(ghost, encoding="unicode")


def test_an_arrow_into_the_fog_is_the_same_whatever_its_hidden_end() -> None:
    """A hidden target is drawn as a stub in one fixed direction that fades and ends in '?':
    the map of a move to ??? never depends on where the unit went."""
    move = SeenOrder("GERMANY", MaskedOrder(OrderKind.MOVE, MaskedUnit("A", "BUR"), target=HIDDEN), SUCCEEDED)
    seen = observation(orders=[move], units=[])
    svg = scene_svg(seen)
    assert 'stroke="url(#fo-4D4D4D)"' in svg
    assert ">?</text>" in svg
    # the stub leaves BUR up and to the right, whichever way the fogged provinces lie
    stub = next(e for e in parsed(svg).iter(f"{SVG}path") if e.get("stroke") == "url(#fo-4D4D4D)")
    x0, y0, x1, y1 = map(float, re.findall(r"-?[\d.]+", stub.get("d", "")))
    assert x1 > x0 and y1 < y0 and abs((x1 - x0) + (y1 - y0)) < 0.2


def test_an_arrow_out_of_the_fog_comes_from_no_province() -> None:
    move = SeenOrder(
        None, MaskedOrder(OrderKind.MOVE, MaskedUnit(None, HIDDEN), target="BUR"), SeenResult.told(("bounce",))
    )
    svg = scene_svg(observation(orders=[move]))
    stub = next(e for e in parsed(svg).iter(f"{SVG}path") if (e.get("stroke") or "").startswith("url(#fi-"))
    x0, y0, x1, y1 = map(float, re.findall(r"-?[\d.]+", stub.get("d", "")))
    assert x1 > x0 and y1 > y0 and abs((x1 - x0) - (y1 - y0)) < 0.2
    assert f'stroke="{"#D7191C"}"' in svg  # the bounce is marked as failed


def test_orders_of_every_kind_are_drawn_with_their_own_style() -> None:
    orders = [
        SeenOrder("FRANCE", MaskedOrder(OrderKind.MOVE, MaskedUnit("A", "PAR"), target="BUR"), FAILED),
        SeenOrder(
            "FRANCE", MaskedOrder(OrderKind.SUPPORT, MaskedUnit("A", "MAR"), MaskedUnit("A", "PAR"), "BUR"), SUCCEEDED
        ),
        SeenOrder("FRANCE", MaskedOrder(OrderKind.HOLD, MaskedUnit("F", "BRE")), SUCCEEDED),
        SeenOrder(
            "FRANCE", MaskedOrder(OrderKind.CONVOY, MaskedUnit("F", "ENG"), MaskedUnit("A", "PIC"), "BRE"), SUCCEEDED
        ),
        SeenOrder("FRANCE", MaskedOrder(OrderKind.SUPPORT, MaskedUnit("A", "GAS"), HIDDEN), SUCCEEDED),
    ]
    svg = scene_svg(observation(orders=orders))
    assert 'stroke-dasharray="8 4"' in svg  # support
    assert 'stroke-dasharray="0.5 6"' in svg  # convoy
    assert "<circle cx=" in svg and 'r="17"' in svg  # the hold's ring
    # one failed order struck, and the legend's sample
    assert svg.count(f'stroke="{"#D7191C"}" stroke-width="3.4"') == 2
    assert ">?</text>" in svg  # the support of a unit it does not know


def test_marks_number_the_provinces_a_notice_names_and_list_its_text() -> None:
    notice = Notice.make("peek", "PAS NTH: a fleet", province="NTH", answer="F")
    scene = power_scene(BOARD, observation(notices=[notice]), Knowledge.rebuild("FRANCE", [observation()]))
    assert scene.marks == (Mark(1, "PAS NTH: a fleet", ("NTH",)),)
    svg = render_svg(scene)
    assert ">PAS NTH: a fleet</text>" in svg


def test_dislodged_units_are_offset_and_ringed() -> None:
    scene = master_scene(GameState.initial())
    plain = render_svg(scene)
    moved = render_svg(
        type(scene)(**{**scene.__dict__, "units": (*scene.units, DrawnUnit("BUR", "GERMANY", "A", dislodged=True))})
    )
    assert "A BUR (Germany), dislodged" in moved
    assert moved.count('stroke-dasharray="4 2"') == plain.count('stroke-dasharray="4 2"') + 1


def test_no_unit_is_named_that_the_power_does_not_see() -> None:
    game = Game.create("fog-of-war", end_year=1902)
    game.file("TURKEY", ["A CON - BUL", "F ANK - BLA"])
    game.adjudicate()
    for power in game.powers:
        scene = power_scene_of(game, power)
        drawn = {f"{u.kind or '?'} {u.location}" for u in scene.units}
        assert set(unit_titles(render_svg(scene))) <= drawn
    england = power_scene_of(game, "ENGLAND")
    assert not any(u.power == "TURKEY" for u in england.units)


def test_a_power_s_map_is_byte_identical_whatever_it_cannot_see() -> None:
    """Turkey's first moves, far from England, change the board and England's map not at all;
    the game master's map changes."""
    maps = []
    for lines in (["A CON - BUL", "F ANK - BLA", "A SMY - ARM"], ["A CON H", "F ANK - CON", "A SMY H"]):
        game = Game.create("fog-of-war", end_year=1902)
        game.file("TURKEY", lines)
        game.file("ENGLAND", ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"])
        game.adjudicate()
        maps.append((render_svg(power_scene_of(game, "ENGLAND")), render_svg(master_scene_of(game))))
    assert maps[0][0] == maps[1][0]
    assert maps[0][1] != maps[1][1]


def test_past_maps_are_drawn_with_the_knowledge_of_their_time() -> None:
    game = Game.create("fog-of-war", end_year=1902)
    game.file("GERMANY", ["A MUN - BUR"])
    game.adjudicate()  # Spring 1901: France sees the army arrive in Burgundy
    game.adjudicate()  # its retreat season, always held in fog-of-war
    game.file("GERMANY", ["A BUR - BEL"])
    game.adjudicate()  # Fall 1901: it leaves for Belgium, out of France's sight
    scenes = power_scenes(BOARD, game.reports("FRANCE"))
    assert [s.subtitle.split(";")[0] for s in scenes] == [
        "the start: Spring 1901 movement",
        "after Spring 1901 movement",
        "after Spring 1901 retreats",
        "after Fall 1901 movement",
    ]
    assert render_svg(power_scene_of(game, "FRANCE", "S1901M")) == render_svg(scenes[1])
    assert render_svg(power_scene_of(game, "FRANCE")) == render_svg(scenes[-1])
    then, now = scenes[1], scenes[-1]
    assert any(u.location == "BUR" and u.power == "GERMANY" and u.last_seen is None for u in then.units)
    assert not any(u.location == "BUR" and u.power == "GERMANY" for u in now.units)


def test_png_is_drawn() -> None:
    png = svg_to_png(render_svg(master_scene(GameState.initial())))
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width = int.from_bytes(png[16:20], "big")
    assert width == 1500


@pytest.mark.parametrize("preset", ["standard", "fog-of-war", "deadman", "diplomyopia", "fog-1898", "sighting"])
def test_every_preset_s_opening_maps_draw(preset: str) -> None:
    game = Game.create(preset)
    for power in game.powers:
        svg = render_svg(power_scene_of(game, power))
        parsed(svg)
        own = {f"{u.kind} {u.location}" for u in game.position.state.units.values() if u.power == power}
        assert own <= set(unit_titles(svg))


def test_the_end_of_game_map_shows_everything_where_the_variant_reveals_it() -> None:
    game = Game.create("fog-of-war", end_year=1901)
    for _ in range(10):
        if game.position.completed:
            break
        game.adjudicate()
    assert game.position.completed and game.variant.options.reveal_at_end
    england = power_scene_of(game, "ENGLAND")
    assert england.fog == frozenset() and england.viewer == "ENGLAND"
    assert "everything revealed" in england.title
    assert {u.location for u in england.units} == {u.location for u in game.position.state.units.values()}
    # the maps of earlier turns stay as England saw them then
    assert power_scene_of(game, "ENGLAND", "S1901M").fog


def test_the_shared_painter_keeps_no_viewer_s_fog() -> None:
    """The painter serves every game and viewer of a process: a fog drawn for one must leave
    no trace in it (whether a fog were drawn already would tell, by the time it takes, where
    someone else's units stood). A viewer's own outlines are kept where the caller says."""
    game = Game.create("fog-of-war")
    paint = painter("standard")
    before = {name: repr(value) for name, value in vars(paint).items()}
    mine: dict[frozenset[str], str] = {}
    scene = power_scene_of(game, "FRANCE")
    first = render_svg(scene, drawn=mine)
    render_svg(power_scene_of(game, "GERMANY"))
    assert {name: repr(value) for name, value in vars(paint).items()} == before
    assert list(mine) == [scene.fog]
    assert render_svg(scene, drawn=mine) == first == render_svg(scene)
