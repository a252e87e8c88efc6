"""Knowledge kept over time: ghosts are what a power last saw where it no longer looks."""

from __future__ import annotations

import dataclasses

from fogdip.codec.observations import knowledge_from_json, knowledge_to_json
from fogdip.fog import Knowledge, Observation, SeenOrder, SeenUnit
from fogdip.fog.masked import SUCCEEDED, MaskedOrder, MaskedUnit, OrderKind, SeenResult
from fogdip.game import Game


def seen(phase: str, next_phase: str, visible: set[str], units: list[SeenUnit], opening: bool = False) -> Observation:
    return Observation.build(
        variant="fog-of-war",
        power="ITALY",
        phase=phase,
        next_phase=next_phase,
        visible=visible,
        units=units,
        orders=[],
        centers={},
        opening=opening,
    )


def test_a_unit_seen_only_at_the_start_is_a_ghost_once_out_of_sight() -> None:
    """The opening report and the first turn's report carry the same phase (S1901M): whether a
    sighting is current is decided by the observation that made it, not by the phase's name."""
    game = Game.create("fog-of-war")
    assert any(u.location == "TRI" for u in game.view("ITALY").reports[0].units)
    game.file("ITALY", ["A VEN - APU", "A ROM H", "F NAP H"])
    game.adjudicate()
    knowledge = game.knowledge("ITALY")
    ghost = next(g for g in knowledge.ghosts() if g.province == "TRI")
    assert (str(ghost.unit), ghost.phase, ghost.current) == ("F TRI", "S1901M", False)
    again = knowledge_from_json(knowledge_to_json(knowledge))
    assert [(g.province, g.current) for g in again.ghosts()] == [(g.province, g.current) for g in knowledge.ghosts()]


def test_the_unit_that_drove_another_out_is_remembered() -> None:
    first = seen(
        "S1901M",
        "S1901R",
        {"BUR"},
        [SeenUnit("BUR", "GERMANY", "A"), SeenUnit("BUR", "FRANCE", "A", dislodged=True)],
    )
    later = seen("S1901R", "F1901M", set(), [])
    knowledge = Knowledge.rebuild("ITALY", [first])
    assert [(str(g.unit), g.owner, g.current) for g in knowledge.ghosts()] == [("A BUR", "GERMANY", True)]
    knowledge.update(later)
    assert [(str(g.unit), g.owner, g.phase, g.current) for g in knowledge.ghosts()] == [
        ("A BUR", "GERMANY", "S1901M", False)
    ]


def test_a_ghost_goes_once_the_power_learns_its_unit_moved_away() -> None:
    """France saw A BUR; it then learns 'A BUR - PAR' succeeded (the army arrives in Paris,
    which it sees): Burgundy, still out of sight, holds no ghost of it any more."""
    saw = seen("S1901M", "F1901M", {"BUR"}, [SeenUnit("BUR", "GERMANY", "A")])
    moved = Observation.build(
        variant="fog-of-war",
        power="ITALY",
        phase="F1901M",
        next_phase="W1901A",
        visible={"PAR"},
        units=[SeenUnit("PAR", "GERMANY", "A")],
        orders=[SeenOrder("GERMANY", MaskedOrder(OrderKind.MOVE, MaskedUnit("A", "BUR"), target="PAR"), SUCCEEDED)],
        centers={},
    )
    bounced = dataclasses.replace(
        moved, units=(), orders=(dataclasses.replace(moved.orders[0], result=SeenResult.told(("bounce",))),)
    )
    assert [g.province for g in Knowledge.rebuild("ITALY", [saw, moved]).ghosts()] == ["PAR"]
    assert [g.province for g in Knowledge.rebuild("ITALY", [saw, bounced]).ghosts()] == ["BUR"]
