"""Who may watch a game and what they see, draw votes, ready counts, adjacency-limited press;
each game's turn, variant and outcome kept on its row so lists need not read whole games.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("turn", sa.String(16), nullable=False, server_default=""))
        games.add_column(sa.Column("variant_name", sa.String(200), nullable=False, server_default=""))
        games.add_column(sa.Column("outcome", sa.Text, nullable=True))
        games.add_column(sa.Column("observers", sa.String(16), nullable=False, server_default="press"))
        games.add_column(sa.Column("draw_votes", sa.String(16), nullable=False, server_default="secret"))
        games.add_column(sa.Column("ready_counts", sa.Boolean, nullable=False, server_default=sa.false()))
        games.add_column(sa.Column("press_range", sa.String(16), nullable=False, server_default="any"))
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("draw", sa.Boolean, nullable=False, server_default=sa.false()))
    with op.batch_alter_table("events") as events:
        events.add_column(sa.Column("detail", sa.Text, nullable=True))
    op.create_table(
        "observers",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(24), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
        sa.UniqueConstraint("game_id", "user_id"),
    )

    _copy_from_records()


def _copy_from_records() -> None:
    """Fill the new copies of each game's turn, variant and outcome from its record. A record
    that cannot be read is left for the server to report when the game is opened.

    Worked out from the stored JSON alone, as fogdip read game files when this revision was
    written (``Game.turn``, ``Game.variant.name``, ``Game.outcome()``): a migration must give
    the same rows whatever fogdip's live code later becomes."""
    bind = op.get_bind()
    games = sa.table(
        "games",
        sa.column("id"),
        sa.column("record"),
        sa.column("turn"),
        sa.column("variant_name"),
        sa.column("outcome"),
    )
    for game_id, record in bind.execute(sa.select(games.c.id, games.c.record)).all():
        values = _row_values(record)
        if values is not None:
            bind.execute(games.update().where(games.c.id == game_id).values(**values))


# --- the game file as fogdip wrote it then (schemas 1 and 2: the same position document) ---

#: The presets of the time: each was the standard game's options with a fog and house rules,
#: none changed ``victory_centers`` (18) or ``reveal_at_end`` (true).
_PRESETS = ("standard", "fog-of-war", "sighting", "deadman", "diplomyopia", "fog-1898")
_VICTORY_CENTERS = 18
_REVEAL_AT_END = True
#: The powers of the standard map (the only map then), in its order: a draw lists its
#: survivors so.
_POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
_COMPLETED = "COMPLETED"


def _row_values(record: str) -> dict[str, str | None] | None:
    """The row's ``turn``, ``variant_name`` and ``outcome``, or ``None`` if the record is not
    a game file this revision could read."""
    try:
        data = json.loads(record)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("format") != "fogdip-game":
        return None
    position = data.get("position")
    if not isinstance(position, dict):
        return None
    phase = position.get("phase")
    variant = position.get("variant", "standard")
    options = position.get("options") or {}
    if not isinstance(phase, str) or not isinstance(variant, str) or not isinstance(options, dict):
        return None
    preset = variant.strip().lower()
    if preset not in _PRESETS:
        return None
    turn = phase.strip().upper()
    outcome = None
    if turn == _COMPLETED:
        outcome = json.dumps({**_outcome(data, position, options), "revealed": _reveals(options)})
    return {"turn": turn, "variant_name": _variant_name(preset, options), "outcome": outcome}


def _variant_name(preset: str, options: dict[str, object]) -> str:
    """The preset's name with each option the game changed (``fog-of-war+end_year=1910``):
    the file keeps only the options that differ from the preset's."""
    return preset + "".join(f"+{name}={value}" for name, value in sorted(options.items()))


def _reveals(options: dict[str, object]) -> bool:
    value = options.get("reveal_at_end", _REVEAL_AT_END)
    return value if isinstance(value, bool) else _REVEAL_AT_END


def _outcome(data: dict[str, object], position: dict[str, object], options: dict[str, object]) -> dict[str, object]:
    """How a finished game ended: a draw agreed by vote (the file's ``ending``), else a solo
    win by the one power holding the centres needed, else a draw of the powers left with a
    centre or a unit (the last year set for the game was played)."""
    ending = data.get("ending")
    if isinstance(ending, dict):
        return {"result": "draw", "powers": list(ending.get("draw", [])), "agreed": ending.get("turn")}
    centers = _lists(position.get("centers"))
    units = _lists(position.get("units"))  # dislodged units are listed too ("*F LON")
    needed = _victory_centers(position.get("rules"), options)
    leaders = [power for power, owned in centers.items() if len(owned) >= needed]
    if len(leaders) == 1:
        return {"result": "solo", "powers": leaders}
    powers = sorted({*centers, *units}, key=lambda p: (_POWERS.index(p) if p in _POWERS else len(_POWERS), p))
    return {"result": "draw", "powers": [p for p in powers if centers.get(p) or units.get(p)]}


def _lists(value: object) -> dict[str, list[object]]:
    if not isinstance(value, dict):
        return {}
    return {power: list(items) for power, items in value.items() if isinstance(items, list)}


def _victory_centers(rules: object, options: dict[str, object]) -> int:
    """The centres a solo needs: the document's rules name them (fogdip wrote them there),
    else the game's option, else the presets' 18."""
    if isinstance(rules, dict):
        named = rules.get("victory_centers")
        if isinstance(named, int) and not isinstance(named, bool) and named > 0:
            return named
    chosen = options.get("victory_centers")
    if isinstance(chosen, int) and not isinstance(chosen, bool) and chosen > 0:
        return chosen
    return _VICTORY_CENTERS


def downgrade() -> None:
    op.drop_table("observers")
    with op.batch_alter_table("events") as events:
        events.drop_column("detail")
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("draw")
    with op.batch_alter_table("games") as games:
        for column in ("press_range", "ready_counts", "draw_votes", "observers", "outcome", "variant_name", "turn"):
            games.drop_column(column)
