"""The e-mail judge: seats played by mail, the mails acted on, the senders answered without a
secret, and the queue of mails to send.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "mail_players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(24), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("game_key", sa.String(24), nullable=False),
        sa.Column("power", sa.String(24), nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("remind_hours", sa.Float, nullable=True),
        sa.Column("reminded_turn", sa.String(16), nullable=True),
        sa.Column("mailed_turns", sa.Integer, nullable=False),
        sa.Column("welcomed", sa.Boolean, nullable=False),
        sa.Column("ended", sa.Boolean, nullable=False),
        sa.Column("mailed_press", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "power"),
    )
    op.create_index("ix_mail_players_game_id", "mail_players", ["game_id"])
    op.create_index("ix_mail_players_game_key", "mail_players", ["game_key"])
    op.create_index("ix_mail_players_user_id", "mail_players", ["user_id"])
    op.create_table(
        "mail_seen",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("mail_player_id", sa.Integer, sa.ForeignKey("mail_players.id", ondelete="CASCADE"), nullable=False),
        sa.Column("message_id", sa.String(255), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("mail_player_id", "message_id"),
    )
    op.create_table(
        "mail_refusals",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("sender", sa.String(254), nullable=False, unique=True),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "mail_outbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("recipient", sa.String(254), nullable=False),
        sa.Column("message_id", sa.String(255), nullable=False),
        sa.Column("message", sa.LargeBinary, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_mail_outbox_due", "mail_outbox", ["sent_at", "next_attempt_at"])


def downgrade() -> None:
    op.drop_table("mail_outbox")
    op.drop_table("mail_refusals")
    op.drop_table("mail_seen")
    op.drop_table("mail_players")
