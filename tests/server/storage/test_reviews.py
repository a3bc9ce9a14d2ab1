"""Uploaded reviews and the analyses of reviews in the database (storage/reviews.py), on SQLite
here and on PostgreSQL in tests/server/cluster/test_postgres.py (the same scenario)."""

from __future__ import annotations

import asyncio

from miai.server.storage.db import migrate, open_engine
from miai.server.storage.reviews import ReviewStore, StoredReview

REVIEW = {"size": 9, "moves": [{"color": "black", "move": "E5", "captured": []}], "players": {"black": "Ann", "white": None}}


async def keep_and_read(url: str) -> None:
    """A review kept and read back; an analysis kept, then replaced; nothing for unknown keys."""
    engine = open_engine(url)
    try:
        await migrate(engine)
        store = ReviewStore(engine)
        await store.add(StoredReview("abc", 1_700_000_000_000, "(;SZ[9];B[ee])", REVIEW))
        assert await store.get("abc") == StoredReview("abc", 1_700_000_000_000, "(;SZ[9];B[ee])", REVIEW)
        assert await store.get("nope") is None
        assert await store.analysis("review:abc") is None
        await store.keep_analysis("review:abc", {"done": False, "positions": [None, None]}, 1)
        await store.keep_analysis("review:abc", {"done": True, "positions": [{"winrate": 0.5}, None]}, 2)
        assert await store.analysis("review:abc") == {"done": True, "positions": [{"winrate": 0.5}, None]}
    finally:
        await engine.dispose()


def test_a_review_and_its_analysis_are_kept_on_sqlite(tmp_path):
    asyncio.run(keep_and_read(f"sqlite:///{tmp_path / 'reviews.db'}"))
