"""games and game_events: the first schema.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("rules", sa.Text, nullable=False, comment="str(Rules), komi included"),
        sa.Column("handicap", sa.Integer, nullable=False),
        sa.Column("komi", sa.Float, nullable=False),
        sa.Column("time_control", sa.Text, nullable=False),
        sa.Column("black_kind", sa.String(32), nullable=False, comment="human or computer:N"),
        sa.Column("white_kind", sa.String(32), nullable=False),
        sa.Column("black_token_hash", sa.String(64), nullable=True, comment="sha256 hex of the seat token"),
        sa.Column("white_token_hash", sa.String(64), nullable=True),
        sa.Column("status", sa.String(16), nullable=False, comment="play, marking or finished"),
        sa.Column("result", sa.Text, nullable=True, comment="str(Result): the SGF RE text"),
        sa.Column("v", sa.Integer, nullable=False, comment="the last event's version"),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("ended_ms", sa.BigInteger, nullable=True),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_table(
        "game_events",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("v", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("payload", sa.JSON, nullable=False),
        sa.Column("seat", sa.String(8), nullable=True, comment="black or white: who acted"),
        sa.Column("at_ms", sa.BigInteger, nullable=False),
        sa.Column("action_id", sa.String(64), nullable=True, comment="the client's id for the action"),
        sa.Column("request", sa.Text, nullable=True, comment="the request in canonical form, for idempotent retries"),
        sa.PrimaryKeyConstraint("game_id", "v", name="pk_game_events"),
    )


def downgrade() -> None:
    op.drop_table("game_events")
    op.drop_index("ix_games_status", table_name="games")
    op.drop_table("games")
