"""sign_ins: the sessions of signed-in users, so that signing out revokes one.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sign_ins",
        sa.Column("id", sa.String(64), primary_key=True, comment="sha256 hex of the token in the session cookie"),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_sign_ins_user_id", "sign_ins", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_sign_ins_user_id", table_name="sign_ins")
    op.drop_table("sign_ins")
