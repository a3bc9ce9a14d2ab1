"""Uploaded reviews and the analyses of reviews in the database (the ``reviews`` and
``review_analyses`` tables of :mod:`miai.server.storage.schema`).

An uploaded record is kept once it has been read, so that its review has a permanent link;
the computer's analysis of a review's positions is kept as it grows, so that a reload, or a
reader served by another process, gets what was already searched.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from miai.server.storage.schema import review_analyses, reviews

__all__ = ["StoredReview", "ReviewStore"]


@dataclass(frozen=True, slots=True)
class StoredReview:
    """An uploaded review as kept: its record as SGF and the review read from it."""

    id: str
    created_ms: int
    sgf: str
    review: dict[str, Any]


class ReviewStore:
    """Uploaded reviews and analyses in the database behind ``engine``."""

    def __init__(self, engine: AsyncEngine):
        self.engine = engine

    async def add(self, stored: StoredReview) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(reviews.insert().values(
                id=stored.id, created_ms=stored.created_ms, sgf=stored.sgf, review=stored.review
            ))

    async def get(self, review_id: str) -> StoredReview | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(reviews).where(reviews.c.id == review_id))).first()
        if row is None:
            return None
        return StoredReview(row.id, row.created_ms, row.sgf, dict(row.review))

    async def analysis(self, subject: str) -> dict[str, Any] | None:
        """The analysis kept for ``subject`` (``review:ID`` or ``game:ID``), or None."""
        async with self.engine.connect() as conn:
            value = (await conn.execute(
                sa.select(review_analyses.c.analysis).where(review_analyses.c.subject == subject)
            )).scalar()
        return dict(value) if value is not None else None

    async def keep_analysis(self, subject: str, analysis: dict[str, Any], now_ms: int) -> None:
        """Keep ``analysis`` as ``subject``'s, in place of the one kept before."""
        async with self.engine.begin() as conn:
            changed = await conn.execute(
                review_analyses.update().where(review_analyses.c.subject == subject)
                .values(analysis=analysis, updated_ms=now_ms)
            )
            if changed.rowcount == 0:
                await conn.execute(review_analyses.insert().values(subject=subject, analysis=analysis, updated_ms=now_ms))
