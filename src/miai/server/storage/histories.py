"""A player's games: the pages of their list, their counts, and a guest's seats handed to the
account they sign up or in with (docs/SERVER.md §6). The games' SQL seen from a player's side."""

from __future__ import annotations

from dataclasses import dataclass, fields

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from miai.server.play.seats import GameRecord
from miai.server.storage.schema import games

__all__ = ["Histories", "Counts", "ONGOING", "FINISHED"]

ONGOING = ("play", "marking")
FINISHED = ("finished",)
_FIELDS = tuple(f.name for f in fields(GameRecord))


@dataclass(frozen=True, slots=True)
class Counts:
    """A player's finished games, won and lost (a void game or a draw is neither)."""

    games: int
    wins: int
    losses: int


def _of(user_id: int) -> sa.ColumnElement[bool]:
    return sa.or_(games.c.black_user_id == user_id, games.c.white_user_id == user_id)


class Histories:
    """The games of players, read from the database behind ``engine``."""

    def __init__(self, engine: AsyncEngine):
        self.engine = engine

    async def page(
        self, user_id: int, *, statuses: tuple[str, ...], before: str | None, limit: int
    ) -> tuple[list[GameRecord], str | None]:
        """Up to ``limit`` of the player's games in ``statuses``, newest first, from after the
        game ``before`` (the previous page's last), and the cursor of the next page (None: no more)."""
        query = sa.select(games).where(_of(user_id), games.c.status.in_(statuses))
        async with self.engine.connect() as conn:
            if before is not None:
                mark = (await conn.execute(sa.select(games.c.created_ms).where(games.c.id == before))).first()
                if mark is not None:
                    query = query.where(
                        sa.or_(
                            games.c.created_ms < mark.created_ms,
                            sa.and_(games.c.created_ms == mark.created_ms, games.c.id < before),
                        )
                    )
            query = query.order_by(games.c.created_ms.desc(), games.c.id.desc()).limit(limit + 1)
            rows = (await conn.execute(query)).all()
        records = [GameRecord(**{name: getattr(row, name) for name in _FIELDS}) for row in rows[:limit]]
        return records, records[-1].id if len(rows) > limit else None

    async def counts(self, user_id: int) -> Counts:
        """The player's finished games, wins and losses."""
        won = sa.or_(
            sa.and_(games.c.black_user_id == user_id, games.c.result.like("B+%")),
            sa.and_(games.c.white_user_id == user_id, games.c.result.like("W+%")),
        )
        lost = sa.or_(
            sa.and_(games.c.black_user_id == user_id, games.c.result.like("W+%")),
            sa.and_(games.c.white_user_id == user_id, games.c.result.like("B+%")),
        )
        query = sa.select(
            sa.func.count(),
            sa.func.coalesce(sa.func.sum(sa.case((won, 1), else_=0)), 0),
            sa.func.coalesce(sa.func.sum(sa.case((lost, 1), else_=0)), 0),
        ).where(_of(user_id), games.c.status == "finished")
        async with self.engine.connect() as conn:
            total, wins, losses = (await conn.execute(query)).one()
        return Counts(int(total), int(wins), int(losses))

    async def waiting(self, user_id: int) -> int:
        """How many of the player's games wait for their move (or marking step) now."""
        query = sa.select(sa.func.count()).where(
            games.c.status.in_(ONGOING),
            sa.or_(
                sa.and_(games.c.black_user_id == user_id, games.c.to_move == "black"),
                sa.and_(games.c.white_user_id == user_id, games.c.to_move == "white"),
            ),
        )
        async with self.engine.connect() as conn:
            return int((await conn.execute(query)).scalar_one())

    async def adopt(self, guest: str, user_id: int, name: str) -> list[str]:
        """Hand the seats the guest session ``guest`` holds to the account ``user_id`` (named
        ``name``), so a guest who signs up or in keeps their games; the ids of those going on.
        Such games were never rated (a guest held a seat), and stay so."""
        moved: list[str] = []
        async with self.engine.begin() as conn:
            for color in ("black", "white"):
                held = games.c[f"{color}_guest"] == guest
                ids = [r.id for r in await conn.execute(sa.select(games.c.id, games.c.status).where(held)) if r.status != "finished"]
                moved += ids
                await conn.execute(
                    games.update()
                    .where(held)
                    .values({f"{color}_user_id": user_id, f"{color}_name": name, f"{color}_guest": None})
                )
        return moved
