"""A signed-in user's progress in the course (/learn): per lesson, how many steps they have
solved; it only grows (a lesson taken again from its start keeps what was solved before).
This module owns the ``learn_progress`` table."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from miai.server.storage.schema import learn_progress

__all__ = ["read_progress", "record_progress"]


async def read_progress(engine: AsyncEngine, user_id: int) -> dict[str, int]:
    """``{lesson: steps solved}`` of the user."""
    query = sa.select(learn_progress.c.lesson, learn_progress.c.steps).where(learn_progress.c.user_id == user_id)
    async with engine.connect() as conn:
        return {lesson: steps for lesson, steps in (await conn.execute(query)).all()}


async def _raise(engine: AsyncEngine, user_id: int, lesson: str, steps: int, now_ms: int) -> bool:
    """Raise the user's count for ``lesson`` to ``steps`` (never lower it); False if there is no row."""
    row = (learn_progress.c.user_id == user_id) & (learn_progress.c.lesson == lesson)
    async with engine.begin() as conn:
        found = await conn.scalar(sa.select(learn_progress.c.steps).where(row))
        if found is None:
            return False
        if steps > found:
            await conn.execute(learn_progress.update().where(row).values(steps=steps, updated_ms=now_ms))
    return True


async def record_progress(engine: AsyncEngine, user_id: int, lesson: str, steps: int, now_ms: int) -> None:
    """The user has solved ``steps`` steps of ``lesson``: kept if more than before. Two requests
    at once for a new lesson: one inserts, the other finds the row and raises it."""
    if await _raise(engine, user_id, lesson, steps, now_ms):
        return
    try:
        async with engine.begin() as conn:
            await conn.execute(learn_progress.insert().values(user_id=user_id, lesson=lesson, steps=steps, updated_ms=now_ms))
    except IntegrityError:
        await _raise(engine, user_id, lesson, steps, now_ms)
