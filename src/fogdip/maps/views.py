"""The scenes of a game and of documents: a power's map after any phase it was told of, the
game master's map of any turn, and the map of a phase or result document.

>>> from fogdip.game import Game
>>> game = Game.create("fog-of-war")
>>> scene = power_scene_of(game, "FRANCE")
>>> scene.viewer, "MUN" in scene.fog, "PAR" in scene.fog
('FRANCE', True, False)
>>> master_scene_of(game).viewer is None
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from fogdip.codec.positions import state_from_document
from fogdip.codec.turns import position_from_document
from fogdip.engine.map import Map
from fogdip.engine.notation import parse_order
from fogdip.engine.orders import Order
from fogdip.engine.state import GameState
from fogdip.fog.knowledge import Knowledge
from fogdip.fog.masked import SeenResult
from fogdip.fog.observation import Observation
from fogdip.fog.sight import masked_order
from fogdip.game.service import Game, GameError
from fogdip.maps.scene import DrawnOrder, Scene, master_scene, phase_name, power_scene


def power_scenes(board: Map, reports: Sequence[Observation]) -> list[Scene]:
    """A power's map after each of its reports, in order, each drawn with the knowledge it had
    then."""
    if not reports:
        return []
    knowledge = Knowledge(reports[0].power)
    scenes = []
    for report in reports:
        knowledge.update(report)
        scenes.append(power_scene(board, report, knowledge))
    return scenes


def power_scene_of(game: Game, power: str, phase: str | None = None) -> Scene:
    """``power``'s map after ``phase`` (default: its latest report; ``start``: its opening
    report), from its own reports."""
    view = game.view(game.power_named(power))
    reports = view.reports
    index = len(reports) - 1 if phase is None else _report_index(reports, phase)
    if index == len(reports) - 1 and view.revealed_history is not None:
        # The game is over in a variant that then reveals everything: the end-of-game map.
        scene = master_scene_of(game)
        name = game.position.state.board.power_info[view.power].name
        return dataclasses.replace(scene, viewer=view.power, title=f"{name} · the game is over: everything revealed")
    knowledge = view.knowledge if index == len(reports) - 1 else Knowledge.rebuild(view.power, reports[: index + 1])
    return power_scene(game.position.state.board, reports[index], knowledge)


def _report_index(reports: Sequence[Observation], phase: str) -> int:
    """The report after ``phase``; ``start`` names the opening report."""
    wanted = phase.strip().upper()
    for index, report in enumerate(reports):
        if (report.opening and wanted == "START") or (not report.opening and report.phase == wanted):
            return index
    told = ", ".join(report.phase for report in reports if not report.opening) or "none yet"
    raise GameError(f"no report after {wanted}; the phases reported so far: {told} (or 'start')")


def master_scene_of(game: Game, turn: str | None = None) -> Scene:
    """The game master's map after ``turn`` (default: the latest; before any, the start): the
    position it reached (as kept with the turn), every order of the turn and its result."""
    history = game.record.history
    if not len(history) and turn is None:
        return master_scene(game.position.state, title="the start")
    wanted = history[-1].turn if turn is None else turn.strip().upper()
    index = history.index_of(wanted)
    if index is None:
        raise GameError(f"no turn {wanted} has been played; played: {', '.join(history.names()) or 'none yet'}")
    played = history[index]
    # The last turn's position is the game's own: a draw agreed since ended it there.
    state = game.position.state if index == len(history) - 1 else played.position.state
    return _turn_scene(state, game.result_document(played))


def _turn_scene(state: GameState, doc: Mapping[str, Any]) -> Scene:
    drawn: list[DrawnOrder] = []
    for part in (doc, *doc.get("then", ())):
        for key, text in part["orders"].items():
            order = parse_order(text, state.board)
            words = tuple(part["results"].get(key, ()))
            drawn.append(DrawnOrder(part["powers"][key], masked_order(order, None), SeenResult.told(words)))
    # Sorted, as a power's orders are: a game file read back lists them in another order.
    drawn.sort(key=lambda d: (d.power or "", d.order.sort_key(), d.result.words if d.result else ()))
    when = state.phase.long_name if not state.completed else "the end of the game"
    return dataclasses.replace(
        master_scene(state),
        orders=tuple(drawn),
        title=f"after {phase_name(str(doc['phase']))}",
        subtitle=f"next: {when}",
    )


def scene_of_result(doc: Mapping[str, Any]) -> Scene:
    """The whole board after an adjudicated turn (a result or turn document, as ``fogdip
    adjudicate`` prints it): the position reached (its ``state``), every order and its result."""
    _variant, position = position_from_document(doc["state"])
    return _turn_scene(position.state, doc)


def scene_of_phase(doc: Mapping[str, Any]) -> Scene:
    """The board of a phase document, with its orders (if it has any) drawn as written."""
    state, _rules, written = state_from_document(doc)
    orders: dict[str, list[Order]] = {
        power: [parse_order(text, state.board) for text in lines] for power, lines in written.items()
    }
    return master_scene(state, orders=orders)
