"""reviews: uploaded records kept for a permanent link, and the analyses of reviews.

Revision ID: 0005
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("id", sa.String(32), primary_key=True, comment="random: the review's permanent link"),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("sgf", sa.Text, nullable=False, comment="the uploaded record, as SGF (UTF-8)"),
        sa.Column("review", sa.JSON, nullable=False, comment="the review read from it (records/review.py)"),
    )
    op.create_table(
        "review_analyses",
        sa.Column("subject", sa.String(48), primary_key=True, comment="review:ID, or game:ID for a game of this server"),
        sa.Column("updated_ms", sa.BigInteger, nullable=False),
        sa.Column(
            "analysis", sa.JSON, nullable=False,
            comment="each position's win rate and best moves (compute/gameanalysis.py)",
        ),
    )


def downgrade() -> None:
    op.drop_table("review_analyses")
    op.drop_table("reviews")
