"""Players' ratings in the database: settled in the transaction that ends a rated game, read
for the player pages (docs/SERVER.md §6).

A rated game is one rating period for each player (Glicko-2, :mod:`miai.ratings`): each
player's new rating comes from their rating and their opponent's just before the game ended.
:func:`settle` runs on the connection of the transaction that commits the game's last event
(:meth:`miai.server.storage.store.Store.append`), so the result and the ratings are committed
together or not at all. It locks both players' ``users`` rows first (in id order, so that two
games ending at once wait for each other, never deadlock; SQLite has one writer anyway), so the
ratings change in the order of ``rating_history``'s ids, and replaying the rated games in that
order gives every stored rating again.

This module owns the ``ratings`` and ``rating_history`` tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from miai.coords import Color
from miai.game import Game
from miai.ratings import Glicko2, Outcome, Rating, rank_of
from miai.result import EndReason, Termination
from miai.server.play.seats import GameRecord
from miai.server.storage.schema import rating_history, ratings, users

__all__ = [
    "RatedEnd", "SYSTEM", "EARLY_ABANDON_MOVES", "rated_end", "settle", "rating_of", "ratings_of", "PlayerRating",
    "Step", "history",
]

SYSTEM = Glicko2(tau=0.5)
"""A new player is 1500, RD 350, volatility 0.06; τ = 0.5."""
EARLY_ABANDON_MOVES = 10
"""A game claimed as abandoned before this many moves is not rated."""


@dataclass(frozen=True, slots=True)
class RatedEnd:
    """A rated game's end: its players and Black's score (1, 0.5 or 0)."""

    game_id: str
    black: int
    white: int
    black_score: float
    ended_ms: int


def rated_end(record: GameRecord, game: Game, ended_ms: int) -> RatedEnd | None:
    """The rating period a finished ``game`` makes, or None when it is not rated: not asked
    to be, a seat without a signed-in player, one player on both seats, a void game (or an
    unknown result), or one claimed as abandoned in its first moves."""
    result = game.result
    black, white = record.black_user_id, record.white_user_id
    if not record.rated or black is None or white is None or black == white or result is None:
        return None
    if result.by in (Termination.VOID, Termination.UNKNOWN):
        return None
    if game.end_reason is EndReason.ABANDONED and len(game.moves) < EARLY_ABANDON_MOVES:
        return None
    score = 0.5 if result.winner is None else (1.0 if result.winner is Color.BLACK else 0.0)
    return RatedEnd(record.id, black, white, score, ended_ms)


def _rating(row: Any) -> Rating:
    return Rating(row.rating, row.deviation, row.volatility) if row is not None else SYSTEM.new


async def settle(conn: AsyncConnection, end: RatedEnd) -> None:
    """Both players' new ratings and history rows, on ``conn`` (the game's ending transaction)."""
    players = sorted((end.black, end.white))
    await conn.execute(sa.select(users.c.id).where(users.c.id.in_(players)).order_by(users.c.id).with_for_update())
    rows = {r.user_id: r for r in await conn.execute(sa.select(ratings).where(ratings.c.user_id.in_(players)))}
    before = {user: _rating(rows.get(user)) for user in players}
    scores = {end.black: end.black_score, end.white: 1.0 - end.black_score}
    opponent = {end.black: end.white, end.white: end.black}
    for user in (end.black, end.white):
        after = SYSTEM.update(before[user], [Outcome(before[opponent[user]], scores[user])])
        values = {"rating": after.rating, "deviation": after.deviation, "volatility": after.volatility}
        if user in rows:
            await conn.execute(
                ratings.update().where(ratings.c.user_id == user).values({**values, "games": rows[user].games + 1})
            )
        else:
            await conn.execute(ratings.insert().values({**values, "user_id": user, "games": 1}))
        b = before[user]
        await conn.execute(
            rating_history.insert().values(
                {
                    **values,
                    "user_id": user,
                    "game_id": end.game_id,
                    "rating_before": b.rating,
                    "deviation_before": b.deviation,
                    "volatility_before": b.volatility,
                    "ended_ms": end.ended_ms,
                }
            )
        )


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A player's rating now and the number of rated games behind it."""

    rating: Rating
    games: int

    def to_json(self) -> dict[str, Any]:
        r = self.rating
        return {
            "rating": round(r.rating, 2),
            "deviation": round(r.deviation, 2),
            "volatility": round(r.volatility, 6),
            "rank": str(rank_of(r.rating)),
            "rated_games": self.games,
        }


async def ratings_of(engine: AsyncEngine, user_ids: list[int]) -> dict[int, PlayerRating]:
    """The ratings of ``user_ids`` (a new player's for those who have none yet)."""
    async with engine.connect() as conn:
        rows = {r.user_id: r for r in await conn.execute(sa.select(ratings).where(ratings.c.user_id.in_(user_ids)))}
    return {u: PlayerRating(_rating(rows.get(u)), rows[u].games if u in rows else 0) for u in user_ids}


async def rating_of(engine: AsyncEngine, user_id: int) -> PlayerRating:
    return (await ratings_of(engine, [user_id]))[user_id]


@dataclass(frozen=True, slots=True)
class Step:
    """One rated game in a player's history: their rating after it."""

    game_id: str
    rating: float
    deviation: float
    ended_ms: int

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game_id,
            "rating": round(self.rating, 2),
            "deviation": round(self.deviation, 2),
            "rank": str(rank_of(self.rating)),
            "ended": self.ended_ms,
        }


async def history(engine: AsyncEngine, user_id: int, limit: int = 500) -> list[Step]:
    """The player's last ``limit`` rated games, oldest first: their rating after each."""
    query = (
        sa.select(rating_history)
        .where(rating_history.c.user_id == user_id)
        .order_by(rating_history.c.id.desc())
        .limit(limit)
    )
    async with engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return [Step(r.game_id, r.rating, r.deviation, r.ended_ms) for r in reversed(rows)]
