"""learn_progress: a signed-in user's progress in the course (/learn), per lesson.

Revision ID: 0007
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "learn_progress",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("lesson", sa.String(64), primary_key=True, comment="the lesson's id: its file's name (02-capture)"),
        sa.Column("steps", sa.Integer, nullable=False, comment="how many of its steps the user has solved"),
        sa.Column("updated_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("learn_progress")
