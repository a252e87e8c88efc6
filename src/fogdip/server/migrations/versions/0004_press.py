"""Press: each game's press mode, its messages, each seat's reading, and who an event is for.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("press", sa.String(16), nullable=False, server_default="white"))
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("read", sa.Integer, nullable=False, server_default="0"))
    with op.batch_alter_table("events") as events:
        events.add_column(sa.Column("audience", sa.Text, nullable=True))
    op.create_table(
        "messages",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(24), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("turn", sa.String(16), nullable=False),
        sa.Column("sender", sa.String(24), nullable=False),
        sa.Column("shown_as", sa.String(24), nullable=True),
        sa.Column("recipients", sa.Text, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("messages")
    with op.batch_alter_table("events") as events:
        events.drop_column("audience")
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("read")
    with op.batch_alter_table("games") as games:
        games.drop_column("press")
