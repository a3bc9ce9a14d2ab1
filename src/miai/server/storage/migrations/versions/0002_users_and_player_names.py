"""users, and the players' names on games.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(24), nullable=False, comment="as the user spelled it"),
        sa.Column("username_key", sa.String(24), nullable=False, comment="lower case: unique"),
        sa.Column("password_hash", sa.Text, nullable=False, comment="argon2id, PHC string"),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.UniqueConstraint("username_key", name="uq_users_username_key"),
    )
    # Plain ADD COLUMN (SQLite has it): a batch copy of games would drop the table, and with
    # foreign keys on, that would delete the events of every game.
    op.add_column(
        "games", sa.Column("black_name", sa.String(40), nullable=True, comment="display name of who holds the seat")
    )
    op.add_column("games", sa.Column("white_name", sa.String(40), nullable=True))


def downgrade() -> None:
    op.drop_column("games", "white_name")
    op.drop_column("games", "black_name")
    op.drop_table("users")
