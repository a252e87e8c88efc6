"""Turns as rows: each turn played is appended to ``turns``, each power's report and knowledge
to ``reports``, and the game's row keeps the position to play next; each reader's messages are
listed in ``deliveries``. Games kept whole in ``games.record`` are turned into rows by
``fogdip db upgrade`` once this migration has run (by fogdip's codec, which reads every game
file an earlier fogdip wrote: nothing of a live class is imported here).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

_DOCUMENT = sa.JSON(none_as_null=True).with_variant(postgresql.JSONB(none_as_null=True), "postgresql")
_messages = sa.table("messages", sa.column("id"), sa.column("game_id"), sa.column("sender"), sa.column("recipients"))
_seats = sa.table("seats", sa.column("game_id"), sa.column("power"))
_deliveries = sa.table("deliveries", sa.column("game_id"), sa.column("reader"), sa.column("message_id"))


def upgrade() -> None:
    # Columns are only added to games: on SQLite, changing one would copy the table, and
    # dropping the old copy would delete every seat and event of every game (ON DELETE
    # CASCADE). So ``record`` stays NOT NULL: empty once the game is kept as rows.
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("position", _DOCUMENT, nullable=True))
        games.add_column(sa.Column("ending", _DOCUMENT, nullable=True))
        games.add_column(sa.Column("turns_played", sa.Integer, nullable=False, server_default="0"))
        games.add_column(sa.Column("postal", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "turns",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(24), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("name", sa.String(16), nullable=False),
        sa.Column("record", _DOCUMENT, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "seq"),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(24), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("power", sa.String(24), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("report", _DOCUMENT, nullable=False),
        sa.Column("knowledge", _DOCUMENT, nullable=True),
        sa.UniqueConstraint("game_id", "power", "seq"),
    )
    op.create_table(
        "deliveries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(24), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("reader", sa.String(24), nullable=False),
        sa.Column("message_id", sa.Integer, sa.ForeignKey("messages.id", ondelete="CASCADE"), nullable=False),
    )
    op.create_index("ix_deliveries_reader", "deliveries", ["game_id", "reader", "message_id"])
    _list_messages()


def _list_messages() -> None:
    """Each message kept so far in the lists of its sender and recipients (a message to all:
    of every power, and of observers)."""
    bind = op.get_bind()
    powers: dict[str, list[str]] = {}
    for game_id, power in bind.execute(sa.select(_seats.c.game_id, _seats.c.power)).all():
        powers.setdefault(game_id, []).append(power)
    rows = bind.execute(
        sa.select(_messages.c.id, _messages.c.game_id, _messages.c.sender, _messages.c.recipients).order_by(
            _messages.c.id
        )
    ).all()
    for message_id, game_id, sender, recipients in rows:
        if recipients == "*":
            readers = [*powers.get(game_id, []), "*"]
        else:
            readers = sorted({sender, *recipients.split(",")})
        bind.execute(
            _deliveries.insert(),
            [{"game_id": game_id, "reader": reader, "message_id": message_id} for reader in readers],
        )


def downgrade() -> None:
    op.drop_index("ix_deliveries_reader", "deliveries")
    op.drop_table("deliveries")
    op.drop_table("reports")
    op.drop_table("turns")
    with op.batch_alter_table("games") as games:
        for column in ("postal", "turns_played", "ending", "position"):
            games.drop_column(column)
