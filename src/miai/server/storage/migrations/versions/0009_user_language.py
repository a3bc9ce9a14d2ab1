"""users.language: the page language an account chose (en, es, it, pt; null for the browser's).

Revision ID: 0009
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (as 0002): a batch copy of users would drop the table, and with foreign
    # keys on, that would delete every sign-in.
    op.add_column(
        "users", sa.Column("language", sa.String(8), nullable=True, comment="the page's language the user chose: en, es, it, pt")
    )


def downgrade() -> None:
    op.drop_column("users", "language")
