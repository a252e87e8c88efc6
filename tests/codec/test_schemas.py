"""The JSON Schemas in docs/schema/ are current, and the documents fogdip writes obey them."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource

from fogdip.bots.variant_bot import random_turn_orders
from fogdip.codec.gamefiles import game_to_json
from fogdip.codec.observations import knowledge_to_json, observation_to_json
from fogdip.codec.positions import document_from_state
from fogdip.codec.results import resolution_to_json, result_document
from fogdip.codec.schemas import SCHEMAS, json_schema, schema_text
from fogdip.codec.views import power_view_to_json
from fogdip.engine import GameState, adjudicate
from fogdip.game import Game
from fogdip.play import adjudicate_document

FOLDER = Path(__file__).resolve().parents[2] / "docs" / "schema"


@pytest.mark.parametrize("name", list(SCHEMAS))
def test_the_committed_schemas_are_current(name: str) -> None:
    committed = FOLDER / f"{name}.json"
    assert committed.exists(), f"run: fogdip schema --write docs/schema (missing {committed.name})"
    assert committed.read_text(encoding="utf-8") == schema_text(name), "run: fogdip schema --write docs/schema"
    Draft202012Validator.check_schema(json_schema(name))


def test_no_stray_schema_files() -> None:
    assert sorted(p.stem for p in FOLDER.glob("*.json")) == sorted(SCHEMAS)


def _validator(name: str) -> Draft202012Validator:
    registry: Registry[Any] = Registry().with_resources(
        (f"{other}.json", Resource.from_contents(json_schema(other))) for other in SCHEMAS
    )
    return Draft202012Validator(json_schema(name), registry=registry)


def _game(preset: str) -> Game:
    game = Game.create(preset, end_year=1902)
    rng = random.Random(preset)
    while game.turn != "COMPLETED":
        for power, lines in random_turn_orders(game.variant, game.position, rng).items():
            game.file(power, lines, partial=True)
        game.adjudicate()
    return game


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["fog-of-war", "sighting", "deadman", "diplomyopia", "fog-1898", "standard"])
def test_what_a_game_writes_obeys_the_schemas(preset: str) -> None:
    game = _game(preset)
    _validator("game-file").validate(json.loads(json.dumps(game_to_json(game.record))))
    for power in game.powers:
        view = game.view(power)
        _validator("power-view").validate(power_view_to_json(view))
        _validator("knowledge").validate(knowledge_to_json(view.knowledge))
        for report in game.reports(power):
            _validator("report").validate(observation_to_json(report))


def test_engine_documents_obey_the_schemas() -> None:
    state = GameState.initial()
    for orders in (
        {"FRANCE": ["A PAR - BUR", "F BRE - MAO"], "GERMANY": ["A MUN - BUR"], "ENGLAND": ["F LON - NTH"]},
        {"FRANCE": ["F MAO - SPA/NC", "A MAR - PIE"], "ENGLAND": ["F NTH - HOL"]},
    ):
        record = adjudicate(state, orders)
        _validator("phase-document").validate(document_from_state(state, record.rules))
        _validator("result-document").validate(json.loads(json.dumps(result_document(record, record.rules))))
        _validator("record").validate(json.loads(json.dumps(resolution_to_json(record))))
        state = record.after
    doc = dict(document_from_state(GameState.initial(), record.rules), orders={"FRANCE": ["A PAR - BUR"]})
    _validator("result-document").validate(adjudicate_document(doc))
    turn = adjudicate_document({**doc, "variant": "fog-of-war"})
    _validator("turn-document").validate(turn)
    assert set(turn["reports"]) == set(GameState.initial().powers)


@pytest.mark.parametrize(
    "name, damage",
    [
        ("report", lambda d: d["orders"][0]["masked"].update(kind="teleport")),
        ("report", lambda d: d.pop("visible")),
        ("game-file", lambda d: d.update(schema="two")),
        ("game-file", lambda d: d["opening"]["FRANCE"].pop("units")),
        ("phase-document", lambda d: d["position"].pop("phase")),
    ],
)
def test_the_schemas_refuse_damaged_documents(name: str, damage: Any) -> None:
    game = Game.create("fog-of-war")
    game.file("FRANCE", ["A PAR - BUR"])
    game.adjudicate()
    data = json.loads(json.dumps(game_to_json(game.record)))
    document = {"report": data["history"][0]["reports"]["FRANCE"], "game-file": data, "phase-document": data}[name]
    damage(document)
    checked = "game-file" if name == "phase-document" else name
    with pytest.raises(ValidationError):
        _validator(checked).validate(document)
