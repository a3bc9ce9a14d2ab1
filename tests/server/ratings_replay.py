"""The check that the stored ratings are the finished rated games replayed: every rating is
recomputed from a new player's, game after game in the order of the rating history, with each
game's result as the games table holds it, and compared with what the database stores."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from miai.ratings import Glicko2, Outcome, Rating

SYSTEM = Glicko2(tau=0.5)


def replay(games: list[tuple[str, int, int, str]]) -> dict[int, Rating]:
    """The ratings after ``games`` (id, black user, white user, result), in order."""
    now: dict[int, Rating] = {}
    for _game, black, white, result in games:
        b, w = now.get(black, SYSTEM.new), now.get(white, SYSTEM.new)
        score = 1.0 if result.startswith("B+") else 0.0 if result.startswith("W+") else 0.5
        now[black] = SYSTEM.update(b, [Outcome(w, score)])
        now[white] = SYSTEM.update(w, [Outcome(b, 1.0 - score)])
    return now


def rated_games_in_order(rows: list[Any]) -> list[tuple[str, int, int, str]]:
    """The rated finished games ordered by their first rating-history row."""
    return [(r[0], r[1], r[2], r[3]) for r in rows]


RATED_GAMES = """
    SELECT g.id, g.black_user_id, g.white_user_id, g.result
    FROM games g JOIN (SELECT game_id, MIN(id) AS first FROM rating_history GROUP BY game_id) h ON h.game_id = g.id
    WHERE g.rated AND g.status = 'finished'
    ORDER BY h.first
"""


STORED = "SELECT user_id, rating, deviation, volatility, games FROM ratings"
STRAY = "SELECT COUNT(*) FROM rating_history h JOIN games g ON g.id = h.game_id WHERE NOT g.rated OR g.status != 'finished'"
HISTORY = "SELECT COUNT(*) FROM rating_history"


def check_sqlite(path: str) -> int:
    """Check the SQLite database at ``path``; the number of rated games."""
    with sqlite3.connect(path) as conn:
        games = rated_games_in_order(conn.execute(RATED_GAMES).fetchall())
        ratings = conn.execute(STORED).fetchall()
        stray = conn.execute(STRAY).fetchone()[0]
        history = conn.execute(HISTORY).fetchone()[0]
    return check(games, ratings, stray, history)


def check_postgres(url: str) -> int:
    """Check the PostgreSQL database at ``url``; the number of rated games."""
    import asyncio

    import asyncpg

    async def read() -> tuple[Any, Any, int, int]:
        conn = await asyncpg.connect(url)
        try:
            games = [tuple(r) for r in await conn.fetch(RATED_GAMES)]
            ratings = [tuple(r) for r in await conn.fetch(STORED)]
            return games, ratings, await conn.fetchval(STRAY), await conn.fetchval(HISTORY)
        finally:
            await conn.close()

    games, ratings, stray, history = asyncio.run(read())
    return check(rated_games_in_order(games), ratings, stray, history)


def check(games: list[tuple[str, int, int, str]], rows: list[Any], stray: int, history: int) -> int:
    """The stored ratings (``rows``) are ``games`` replayed; no history row of an unrated game."""
    stored = {r[0]: Rating(r[1], r[2], r[3]) for r in rows}
    counted = {r[0]: r[4] for r in rows}
    unrated_with_history = stray
    assert history == 2 * len(games)
    expected = replay(games)
    assert set(stored) == set(expected)
    for user, rating in expected.items():
        got = stored[user]
        assert got.rating == pytest.approx(rating.rating, abs=1e-9)
        assert got.deviation == pytest.approx(rating.deviation, abs=1e-9)
        assert got.volatility == pytest.approx(rating.volatility, abs=1e-12)
    for user in expected:
        assert counted[user] == sum(1 for g in games if user in (g[1], g[2]))
    return len(games)
