"""A signed-in user's progress in the course (/learn): per lesson, how many steps they have
solved, and the problems they have solved; it only grows (a lesson taken again from its start
keeps what was solved before). This module owns the ``learn_progress`` table, where a solved
problem is the row ``problem:<id>`` with one step."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from miai.server.storage.schema import learn_progress

__all__ = ["read_progress", "read_solved", "record_progress", "record_solved"]

PROBLEM = "problem:"
"""The prefix of a solved problem's row; a lesson's id never has a colon."""


async def _rows(engine: AsyncEngine, user_id: int) -> dict[str, int]:
    query = sa.select(learn_progress.c.lesson, learn_progress.c.steps).where(learn_progress.c.user_id == user_id)
    async with engine.connect() as conn:
        return {key: steps for key, steps in (await conn.execute(query)).all()}


async def read_progress(engine: AsyncEngine, user_id: int) -> dict[str, int]:
    """``{lesson: steps solved}`` of the user."""
    return {key: steps for key, steps in (await _rows(engine, user_id)).items() if not key.startswith(PROBLEM)}


async def read_solved(engine: AsyncEngine, user_id: int) -> list[str]:
    """The ids of the problems the user has solved, sorted."""
    return sorted(key.removeprefix(PROBLEM) for key in await _rows(engine, user_id) if key.startswith(PROBLEM))


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


async def record_solved(engine: AsyncEngine, user_id: int, problem_id: str, now_ms: int) -> None:
    """The user has solved the problem ``problem_id``: kept for good (solving it again changes nothing)."""
    await record_progress(engine, user_id, PROBLEM + problem_id, 1, now_ms)
