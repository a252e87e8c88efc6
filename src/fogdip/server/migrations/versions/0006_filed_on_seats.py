"""The orders a power has filed for the next turn are kept on its seat, not in the game's
record: filing changes one small row and leaves the game (and every copy of it read for views
and maps) as it was.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_games = sa.table("games", sa.column("id"), sa.column("record"))
_seats = sa.table("seats", sa.column("game_id"), sa.column("power"), sa.column("filed"))


def upgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("filed", sa.Text, nullable=True))
    bind = op.get_bind()
    for game_id, record in bind.execute(sa.select(_games.c.id, _games.c.record)).all():
        try:
            document = json.loads(record)
        except ValueError:
            continue  # left for the server to report when the game is opened
        filed = document.get("filed") if isinstance(document, dict) else None
        if not filed or not isinstance(filed, dict):
            continue
        for power, lines in filed.items():
            bind.execute(
                _seats.update()
                .where(_seats.c.game_id == game_id, _seats.c.power == power)
                .values(filed=json.dumps(lines))
            )
        document["filed"] = {}
        bind.execute(_games.update().where(_games.c.id == game_id).values(record=json.dumps(document)))


def downgrade() -> None:
    bind = op.get_bind()
    filed: dict[str, dict[str, object]] = {}
    rows = bind.execute(sa.select(_seats.c.game_id, _seats.c.power, _seats.c.filed).where(_seats.c.filed.is_not(None)))
    for game_id, power, lines in rows.all():
        filed.setdefault(game_id, {})[power] = json.loads(lines)
    for game_id, by_power in filed.items():
        record = bind.execute(sa.select(_games.c.record).where(_games.c.id == game_id)).scalar_one()
        document = json.loads(record)
        document["filed"] = by_power
        bind.execute(_games.update().where(_games.c.id == game_id).values(record=json.dumps(document)))
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("filed")
