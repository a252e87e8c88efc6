"""Who may watch a game and what they see, draw votes, ready counts, adjacency-limited press;
each game's turn, variant and outcome kept on its row so lists need not read whole games.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25
"""

from __future__ import annotations

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
    that cannot be read is left for the server to report when the game is opened."""
    import json

    from fogdip.codec.gamefiles import GameFileError, game_from_json
    from fogdip.engine.errors import FogdipError
    from fogdip.game import Game

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
        try:
            game = Game(game_from_json(json.loads(record)))
        except (GameFileError, FogdipError, ValueError):
            continue
        outcome = game.outcome()
        values = {
            "turn": game.turn,
            "variant_name": game.variant.name,
            "outcome": None
            if outcome is None
            else json.dumps({**outcome, "revealed": game.variant.options.reveal_at_end}),
        }
        bind.execute(games.update().where(games.c.id == game_id).values(**values))


def downgrade() -> None:
    op.drop_table("observers")
    with op.batch_alter_table("events") as events:
        events.drop_column("detail")
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("draw")
    with op.batch_alter_table("games") as games:
        for column in ("press_range", "ready_counts", "draw_votes", "observers", "outcome", "variant_name", "turn"):
            games.drop_column(column)
