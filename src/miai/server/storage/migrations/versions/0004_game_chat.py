"""game_chat: the players' chat kept with the game (shown after a restart, written into the SGF).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.String(8), nullable=False, comment="black or white: who said it"),
        sa.Column("name", sa.String(40), nullable=True, comment="the seat's display name then"),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at_ms", sa.BigInteger, nullable=False),
        sa.Column("move", sa.Integer, nullable=False, comment="moves played when it was said: its SGF node"),
    )
    op.create_index("ix_game_chat_game_id", "game_chat", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_game_chat_game_id", table_name="game_chat")
    op.drop_table("game_chat")
