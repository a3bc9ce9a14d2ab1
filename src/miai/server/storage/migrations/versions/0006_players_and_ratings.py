"""players on seats, ratings, their history, automatch requests; whom a game waits for.

Revision ID: 0006
Revises: 0003
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_GAME_COLUMNS: list[sa.Column[Any]] = [
    sa.Column("black_user_id", sa.Integer, nullable=True, comment="users.id of the seat's player, once a signed-in session used it"),
    sa.Column("white_user_id", sa.Integer, nullable=True),
    sa.Column("black_guest", sa.String(40), nullable=True, comment="the guest session (g:...) that holds the seat"),
    sa.Column("white_guest", sa.String(40), nullable=True),
    sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false(), comment="asked for and still possible; once finished, rated"),
    sa.Column("to_move", sa.String(8), nullable=True, comment="black or white: whom the game waits for"),
    sa.Column("deadline_ms", sa.BigInteger, nullable=True, comment="wall-clock ms when the player to move runs out of time"),
]
_GAME_INDEXES = ["black_user_id", "white_user_id", "black_guest", "white_guest"]


def upgrade() -> None:
    # Plain ADD COLUMN (as 0002): a batch copy of games would drop the table and its events.
    for column in _GAME_COLUMNS:
        op.add_column("games", column)
    for name in _GAME_INDEXES:
        op.create_index(f"ix_games_{name}", "games", [name])
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False, comment="rated games played"),
    )
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True, comment="the order ratings changed in"),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("rating_before", sa.Float, nullable=False),
        sa.Column("deviation_before", sa.Float, nullable=False),
        sa.Column("volatility_before", sa.Float, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("ended_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_rating_history_user_id", "rating_history", ["user_id", "id"])
    op.create_index("ix_rating_history_game_id", "rating_history", ["game_id"])
    op.create_table(
        "automatch",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("time_control", sa.Text, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("rank_low", sa.Integer, nullable=False, comment="the opponent's rank minus the player's, at least"),
        sa.Column("rank_high", sa.Integer, nullable=False),
        sa.Column("rating", sa.Float, nullable=False, comment="the player's rating when asking"),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("seen_ms", sa.BigInteger, nullable=False, comment="the last time the player asked whether it was paired"),
        sa.Column("game_id", sa.String(32), nullable=True, comment="the game made, once paired"),
    )


def downgrade() -> None:
    op.drop_table("automatch")
    op.drop_index("ix_rating_history_game_id", table_name="rating_history")
    op.drop_index("ix_rating_history_user_id", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_table("ratings")
    for name in _GAME_INDEXES:
        op.drop_index(f"ix_games_{name}", table_name="games")
    for column in reversed(_GAME_COLUMNS):
        op.drop_column("games", column.name)
