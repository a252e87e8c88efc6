"""Each bot seat names its bot (``random``, ``heuristic``, ``search``). Seats the bot held
before get ``heuristic``, the bot a game now gets when none is named: the random bot they had
was a stand-in, and a game against it was no game.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("bot_name", sa.String(32), nullable=False, server_default="heuristic"))


def downgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("bot_name")
