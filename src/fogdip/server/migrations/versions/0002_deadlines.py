"""Deadlines: per phase type, the next one, and what is left of it while a game is paused.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("deadlines", sa.Text, nullable=False, server_default="{}"))
        games.add_column(sa.Column("deadline_at", sa.DateTime(timezone=True), nullable=True))
        games.add_column(sa.Column("paused_left", sa.Float, nullable=True))
    op.create_index("ix_games_due", "games", ["status", "deadline_at"])


def downgrade() -> None:
    op.drop_index("ix_games_due", "games")
    with op.batch_alter_table("games") as games:
        games.drop_column("paused_left")
        games.drop_column("deadline_at")
        games.drop_column("deadlines")
