"""Saved games: the MILA/Cicero saved-game JSON format, and fogdip's own game records.

MILA format (what MILA's ``diplomacy`` package and the Cicero release write)::

    {"id": "...", "map": "standard", "phases": [
      {"name": "S1901M",
       "state": {"name": "S1901M", "units": {...}, "centers": {...}, "homes": {...},
                 "retreats": {...}, "builds": {...}},
       "orders": {"FRANCE": ["A PAR - BUR", ...]},
       "results": {"A PAR": ["bounce"], ...},
       "messages": [...]}, ...]}

fogdip format (``tests/data/games/*.json``)::

    {"source": "...", "game_id": "...", "map": "standard", "phases": [<phase documents with orders>]}

Both load into a :class:`SavedGame`: a list of phase documents (see :mod:`fogdip.documents`)
plus the press of each phase. Loading is strict: every phase must be a valid position.

Notes on the MILA format (see also ``docs/mila-notes.md``):

* The records' ``state.homes`` lists the original home centres a power *still owns*, so it is
  not read: fogdip uses the map's home centres. On export ``homes`` lists the home centres.
* ``results`` are not read either: they follow from the orders. On export they are computed
  with fogdip's result words (``bounce``, ``cut``, ``dislodged``, ``void``, ``no convoy``,
  ``disrupted``, ``disband``; ``[]`` is success), for every phase that was played.
* The rules a game was played under are not part of the format. fogdip writes them, when
  known, under the extra top-level key ``fogdip_rules``. Without them, a game saved by
  MILA's engine (its states carry a ``zobrist_hash``) is replayed with
  :func:`fogdip.replay.mila_rules`, and a Cicero game record with
  :func:`fogdip.replay.record_rules` (:attr:`SavedGame.source`).

>>> from fogdip.documents import document_from_state
>>> from fogdip.engine.state import GameState
>>> start = {**document_from_state(GameState.initial()), "orders": {"FRANCE": ["A PAR - BUR"]}}
>>> exported = saved_game_from_phases([start], game_id="demo")
>>> exported["phases"][0]["results"]["A PAR"], exported["phases"][0]["state"]["name"]
([], 'S1901M')
>>> load_saved_game(exported) == load_saved_game(to_saved_game(load_saved_game(exported)))
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fogdip.codec.positions import COMPLETED, VARIANTS, invalid, rules_from_spec, rules_to_spec, state_from_document
from fogdip.engine.errors import FogdipError, InvalidPosition
from fogdip.engine.judge import adjudicate
from fogdip.engine.map import Map, get_map
from fogdip.engine.rules import Rules
from fogdip.engine.state import GameState
from fogdip.replay import rules_for_source

__all__ = [
    "SavedGame",
    "game_from_data",
    "load_fogdip_game",
    "load_game",
    "load_saved_game",
    "saved_game_from_phases",
    "to_fogdip_game",
    "to_saved_game",
]

Document = dict[str, Any]
_MILA_TOP_KEYS = ("id", "map", "phases", "fogdip_rules")
_FOGDIP_TOP_KEYS = ("source", "game_id", "map", "phases")


@dataclass(frozen=True)
class SavedGame:
    """A recorded game: its id, map, phase documents (with orders) and per-phase press.

    ``phases[i]`` is a phase document in fogdip's format; the last one may have the phase
    ``"COMPLETED"``. ``messages[i]`` holds the messages of that phase, as recorded.
    ``rules`` is the document ``"rules"`` value the game was played under, if recorded.
    ``metadata`` keeps the other top-level fields of the file (written back on export).
    ``recorded_results`` keeps a MILA file's own ``results`` (not compared, not exported).
    ``source`` says who wrote the game, for the rules it is replayed with when it records none:
    ``"mila"`` (MILA's engine) or ``"records"`` (the Cicero records, and records converted
    from them).
    """

    id: str
    map: str
    phases: tuple[Document, ...]
    messages: tuple[tuple[dict[str, Any], ...], ...]
    rules: str | dict[str, Any] | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    recorded_results: tuple[dict[str, Any], ...] = field(default=(), compare=False, repr=False)
    source: str = "records"

    @property
    def variant(self) -> str:
        return _variant_of_map(self.map)

    def game_rules(self) -> Rules:
        """The rules recorded with the game, or those of whoever wrote it
        (:func:`fogdip.replay.rules_for_source`)."""
        return rules_from_spec(self.rules) if self.rules is not None else rules_for_source(self.source)


# --- helpers -----------------------------------------------------------------------------------


def _variant_of_map(map_name: str) -> str:
    for variant, name in VARIANTS.items():
        if name == map_name:
            return variant
    raise invalid(f"unknown map {map_name!r}: known maps are {', '.join(sorted(VARIANTS.values()))}")


def _board(map_name: object) -> Map:
    if not isinstance(map_name, str):
        raise invalid(f'the game\'s "map" must be a string such as "standard", not {map_name!r}')
    return get_map(VARIANTS[_variant_of_map(map_name)])


def _object(value: object, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise invalid(f"{what} must be a JSON object")
    return value


def _phase_list(data: Mapping[str, Any]) -> Sequence[Any]:
    phases = data.get("phases")
    if isinstance(phases, str) or not isinstance(phases, Sequence):
        raise invalid('a saved game needs "phases": a list of phases')
    if not phases:
        raise invalid('the saved game has no phases: "phases" is empty')
    return phases


def _messages(value: object, where: str) -> tuple[dict[str, Any], ...]:
    if value is None:
        return ()
    if isinstance(value, Mapping):  # some MILA versions key messages by time
        value = list(value.values())
    if isinstance(value, str) or not isinstance(value, Sequence) or not all(isinstance(m, Mapping) for m in value):
        raise invalid(f'{where}: "messages" must be a list of message objects')
    return tuple(dict(m) for m in value)


def _canonical(doc: Mapping[str, Any], board: Map, where: str) -> Document:
    """One phase document in canonical shape: every power in units, retreats and centres,
    power names in capitals, checked with :func:`state_from_document` unless the game is over."""
    out: Document = {key: value for key, value in doc.items() if key != "messages"}
    phase = out.get("phase")
    if not isinstance(phase, str):
        raise invalid(f'{where}: the phase needs a name such as "S1901M"')
    out["phase"] = phase.strip().upper()
    for key, empty in (("units", list), ("retreats", dict), ("centers", list)):
        table = out.get(key, {})
        if not isinstance(table, Mapping):
            raise invalid(f'{where}: "{key}" must be an object keyed by power')
        filled: dict[str, Any] = {power: empty() for power in board.powers}
        for power, value in table.items():
            if not isinstance(power, str):
                raise invalid(f'{where}: "{key}" has a key {power!r} that is not a power')
            filled[power.strip().upper()] = value
        out[key] = filled
    orders = out.get("orders", {})
    if not isinstance(orders, Mapping):
        raise invalid(f'{where}: "orders" must be an object keyed by power')
    out["orders"] = {str(p).strip().upper(): [] if value is None else value for p, value in orders.items()}
    try:
        if out["phase"] == COMPLETED:
            _check_completed(out, board)
        else:
            state_from_document(out)
    except InvalidPosition as exc:
        raise invalid(f"{where}: {exc}") from None
    return out


def _check_completed(doc: Document, board: Map) -> None:
    """A finished game's last record: check it as a position in some movement phase."""
    ended = doc.get("ended_in")
    probe = {**doc, "phase": ended if isinstance(ended, str) else f"F{board.first_year}M"}
    state_from_document(probe)


def _homes_follow_ownership(docs: Sequence[Mapping[str, Any]], board: Map) -> bool:
    """Whether every recorded ``homes`` list is "original home centres still owned" (MILA)."""
    seen = False
    for doc in docs:
        homes, centers = doc.get("homes"), doc.get("centers")
        if homes is None:
            continue
        if not isinstance(homes, Mapping) or not isinstance(centers, Mapping):
            return False
        seen = True
        owned = {str(p).upper(): _names(c) for p, c in centers.items()}
        for power, listed in homes.items():
            original = set(board.home_centers(str(power).upper()))
            if _names(listed) != original & (owned.get(str(power).upper()) or set()):
                return False
    return seen


def _names(value: object) -> set[str] | None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return set(value)
    return None


# --- loading -----------------------------------------------------------------------------------


def load_saved_game(data: Mapping[str, Any]) -> SavedGame:
    """Read a game in the MILA/Cicero saved-game format (a parsed JSON object)."""
    data = _object(data, "a MILA saved game")
    board = _board(data.get("map", "standard"))
    variant = _variant_of_map(board.name)
    rules = data.get("fogdip_rules")
    if rules is not None:
        rules_from_spec(rules)
    docs: list[Document] = []
    messages: list[tuple[dict[str, Any], ...]] = []
    results: list[dict[str, Any]] = []
    for index, phase in enumerate(_phase_list(data)):
        phase = _object(phase, f"phase {index}")
        state = _object(phase.get("state", {}), f'phase {index}: "state"')
        name = phase.get("name", state.get("name"))
        where = f"phase {index} ({name})"
        doc: Document = {"variant": variant}
        if rules is not None:
            doc["rules"] = rules
        doc.update(
            phase=name,
            units=state.get("units", {}),
            retreats=state.get("retreats", {}),
            centers=state.get("centers", {}),
            orders=phase.get("orders") or {},
        )
        docs.append(_canonical(doc, board, where))
        messages.append(_messages(phase.get("messages"), where))
        recorded = phase.get("results")
        results.append(dict(recorded) if isinstance(recorded, Mapping) else {})
    metadata = {k: v for k, v in data.items() if k not in _MILA_TOP_KEYS}
    game_id = data.get("id", "")
    return SavedGame(
        str(game_id),
        board.name,
        tuple(docs),
        tuple(messages),
        rules,
        metadata,
        tuple(results),
        _source(data),
    )


def _source(data: Mapping[str, Any]) -> str:
    """Who wrote a MILA-format game: MILA's engine stamps every state with a ``zobrist_hash``
    (and the game with its ``rules`` list); the Cicero records have neither."""
    phases = data.get("phases")
    first = phases[0] if isinstance(phases, Sequence) and phases else {}
    state = first.get("state") if isinstance(first, Mapping) else None
    if isinstance(state, Mapping) and "zobrist_hash" in state:
        return "mila"
    return "mila" if isinstance(data.get("rules"), list) else "records"


def load_fogdip_game(data: Mapping[str, Any]) -> SavedGame:
    """Read a game in fogdip's own record format (``{"source", "game_id", "map", "phases"}``).

    Records converted from MILA keep MILA's ``homes`` (home centres still owned); when every
    ``homes`` list follows that pattern it is dropped, so the map's home centres apply.
    """
    data = _object(data, "a fogdip game record")
    board = _board(data.get("map", "standard"))
    raw = [_object(p, f"phase {i}") for i, p in enumerate(_phase_list(data))]
    drop_homes = _homes_follow_ownership(raw, board)
    docs: list[Document] = []
    messages: list[tuple[dict[str, Any], ...]] = []
    for index, phase in enumerate(raw):
        where = f"phase {index} ({phase.get('phase')})"
        doc = {k: v for k, v in phase.items() if not (drop_homes and k == "homes")}
        doc.setdefault("variant", _variant_of_map(board.name))
        docs.append(_canonical(doc, board, where))
        messages.append(_messages(phase.get("messages"), where))
    rules = docs[0].get("rules")
    if rules is not None:
        rules_from_spec(rules)
    metadata = {k: v for k, v in data.items() if k not in _FOGDIP_TOP_KEYS}
    if "source" in data:
        metadata["source"] = data["source"]
    # A game MILA saved keeps MILA's own rule list when written in fogdip's format.
    source = "mila" if isinstance(data.get("rules"), list) else "records"
    return SavedGame(
        str(data.get("game_id", "")), board.name, tuple(docs), tuple(messages), rules, metadata, (), source
    )


def game_from_data(data: object) -> SavedGame:
    """Read a parsed saved game in either format, telling them apart by their phases."""
    if not isinstance(data, Mapping):
        raise invalid('a saved game must be a JSON object with "phases"')
    first = _phase_list(data)[0]
    if isinstance(first, Mapping) and "state" in first:
        return load_saved_game(data)
    if isinstance(first, Mapping) and "phase" in first:
        return load_fogdip_game(data)
    raise invalid('cannot tell the format: MILA phases have "name" and "state", fogdip phases have "phase"')


def load_game(path: str | Path) -> SavedGame:
    """Read a saved game file in either format. Raises :class:`InvalidPosition` for a file
    that is not JSON or not a game, and :class:`OSError` if it cannot be read."""
    text = Path(path).read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise invalid(f"{path} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    try:
        return game_from_data(data)
    except InvalidPosition as exc:
        raise invalid(f"{path}: {exc}") from None


# --- writing -----------------------------------------------------------------------------------


def _played(game: SavedGame, index: int) -> bool:
    doc = game.phases[index]
    if doc["phase"] == COMPLETED:
        return False
    has_orders = any(doc.get("orders", {}).values())
    return index + 1 < len(game.phases) or has_orders


def _mila_state(doc: Document, state: GameState | None, board: Map) -> dict[str, Any]:
    builds = {p: {"count": 0, "homes": []} for p in board.powers}
    homes = {p: sorted(board.home_centers(p)) for p in board.powers}
    if state is not None:
        homes = {p: sorted(state.homes.get(p, ())) for p in board.powers}
        if state.phase.kind == "A":
            for power in board.powers:
                count = state.adjustment(power)
                homes_of = state.homes.get(power, ())
                sites = [h for h in homes_of if state.centers.get(h) == power and h not in state.units]
                builds[power] = {"count": count, "homes": sorted(sites) if count > 0 else []}
    return {
        "name": doc["phase"],
        "units": doc["units"],
        "centers": {p: c for p, c in doc["centers"].items() if c},
        "homes": homes,
        "retreats": doc["retreats"],
        "builds": builds,
    }


def _results(doc: Document, state: GameState, rules: Rules, where: str) -> dict[str, list[str]]:
    try:
        resolution = adjudicate(state, doc.get("orders", {}), rules)
    except FogdipError as exc:
        raise invalid(f"{where}: {exc}") from None
    adjustments = state.phase.kind == "A"
    results: dict[str, list[str]] = {}
    for result in resolution.orders:
        if result.unit is None:
            continue  # waives, and builds that name no unit
        # A build or removal carried out (civil disorder too) is a success in MILA's results.
        found = [] if adjustments and result.succeeded else list(result.results)
        words = results.setdefault(str(result.unit), [])
        words.extend(w for w in found if w not in words)
    return results


def to_saved_game(game: SavedGame, rules: Rules | None = None) -> dict[str, Any]:
    """Write a game in the MILA saved-game format, with ``results`` computed by fogdip under
    ``rules`` (default: the game's own, see :meth:`SavedGame.game_rules`)."""
    rules = rules or game.game_rules()
    board = get_map(VARIANTS[game.variant])
    phases = []
    for index, doc in enumerate(game.phases):
        where = f"phase {index} ({doc['phase']})"
        state = None if doc["phase"] == COMPLETED else state_from_document(doc)[0]
        results = _results(doc, state, rules, where) if state is not None and _played(game, index) else {}
        phases.append(
            {
                "name": doc["phase"],
                "state": _mila_state(doc, state, board),
                "orders": doc.get("orders", {}),
                "results": results,
                "messages": list(game.messages[index]) if index < len(game.messages) else [],
            }
        )
    out: dict[str, Any] = {"id": game.id, "map": game.map}
    out.update({k: v for k, v in game.metadata.items() if k not in ("source",) and k not in _MILA_TOP_KEYS})
    if game.rules is not None:
        out["fogdip_rules"] = game.rules
    out["phases"] = phases
    return out


def to_fogdip_game(game: SavedGame) -> dict[str, Any]:
    """Write a game in fogdip's record format; press goes into each phase's ``"messages"``."""
    phases = []
    for index, doc in enumerate(game.phases):
        out = dict(doc)
        if index < len(game.messages) and game.messages[index]:
            out["messages"] = list(game.messages[index])
        phases.append(out)
    record: dict[str, Any] = {"source": game.metadata["source"]} if "source" in game.metadata else {}
    record.update(game_id=game.id, map=game.map)
    record.update({k: v for k, v in game.metadata.items() if k not in _FOGDIP_TOP_KEYS})
    record["phases"] = phases
    return record


def saved_game_from_phases(
    phases: Sequence[Mapping[str, Any]],
    *,
    game_id: str,
    map_name: str = "standard",
    messages: Sequence[Sequence[Mapping[str, Any]]] | None = None,
    rules: Rules | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Write phase documents (with orders, in play order) as a MILA saved game."""
    board = _board(map_name)
    docs = tuple(_canonical(doc, board, f"phase {i} ({doc.get('phase')})") for i, doc in enumerate(phases))
    spec = rules_to_spec(rules) if rules is not None else (docs[0].get("rules") if docs else None)
    press = tuple(tuple(dict(m) for m in ms) for ms in (messages or [()] * len(docs)))
    game = SavedGame(game_id, board.name, docs, press, spec, dict(metadata or {}))
    return to_saved_game(game, rules)
