#!/usr/bin/env python3
"""Convert saved games in the MILA/Cicero JSON format into fogdip's test-data format.

One-off tool (stdlib only); the tests read its output, never run it.

    python tests/data/games/convert.py SOURCE_DIR [OUTPUT_DIR]

SOURCE_DIR holds the games as ``*.json``; OUTPUT_DIR defaults to the directory of this
script. Each ``<stem>.json`` becomes ``<stem>.json`` holding

    {"source": "<file name>", "game_id": ..., "map": "standard", "phases": [...]}

with one fogdip phase document per recorded phase:

    {"phase": "S1901M", "units": {...}, "retreats": {...}, "centers": {...},
     "homes": {...}, "orders": {...}}

* ``units``, ``retreats`` and ``orders`` keep only the powers with something in them.
* ``units`` lists dislodged units with a leading ``*`` (``"*F LON"``), exactly the units the
  record lists in ``retreats``; the record already writes them that way, and this script
  checks that the two agree.
* ``centers`` and ``homes`` are copied as recorded. Note that the record's ``homes`` are the
  home centres the power *owns* in that phase, not its original home centres.
* Orders are copied verbatim (no normalisation). Messages, logs, the always-empty
  ``results`` and the state's ``builds`` are dropped.

The output is compact JSON with one phase per line, so that diffs stay readable.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

PHASE_KEYS = ("units", "retreats", "centers", "homes", "orders")


def _non_empty(mapping: dict) -> dict:
    return {power: value for power, value in mapping.items() if value}


def convert_phase(phase: dict, where: str) -> dict:
    state = phase["state"]
    if state.get("name", phase["name"]) != phase["name"]:
        raise ValueError(f"{where}: state name {state.get('name')!r} != {phase['name']!r}")
    units = _non_empty(state["units"])
    retreats = _non_empty(state["retreats"])
    for power in set(units) | set(retreats):
        starred = sorted(u[1:] for u in units.get(power, []) if u.startswith("*"))
        listed = sorted(retreats.get(power, {}))
        if starred != listed:
            raise ValueError(f"{where}: {power} dislodged units {starred} != retreats {listed}")
    return {
        "phase": phase["name"],
        "units": units,
        "retreats": retreats,
        "centers": dict(state["centers"]),
        "homes": dict(state["homes"]),
        "orders": _non_empty(phase.get("orders") or {}),
    }


def convert_game(path: Path) -> dict:
    game = json.loads(path.read_text(encoding="utf-8"))
    return {
        "source": path.name,
        "game_id": game.get("id"),
        "map": game.get("map", "standard"),
        "phases": [convert_phase(phase, f"{path.name} {phase['name']}") for phase in game["phases"]],
    }


def dump_game(doc: dict) -> str:
    compact = {"separators": (",", ":"), "ensure_ascii": False}
    head = {key: value for key, value in doc.items() if key != "phases"}
    lines = [json.dumps(phase, **compact) for phase in doc["phases"]]
    opening = json.dumps(head, **compact)[:-1] + ',"phases":['
    return opening + "\n" + ",\n".join(lines) + "\n]}\n"


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 3):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    source = Path(argv[1])
    target = Path(argv[2]) if len(argv) == 3 else Path(__file__).resolve().parent
    files = sorted(source.glob("*.json"))
    if not files:
        print(f"no *.json in {source}", file=sys.stderr)
        return 1
    total = 0
    for path in files:
        doc = convert_game(path)
        text = dump_game(doc)
        if json.loads(text) != doc:  # the line layout must not change the data
            raise AssertionError(path.name)
        (target / path.name).write_text(text, encoding="utf-8")
        total += len(doc["phases"])
    print(f"converted {len(files)} games, {total} phases, into {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
