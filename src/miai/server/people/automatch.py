"""Automatch: players waiting for an opponent, paired in the database (docs/SERVER.md §6.2).

A request is a row of ``automatch`` (one per player). :meth:`Automatch.ask` stores the
player's request and, in the same transaction, looks for the oldest fitting request still
waiting; finding one, it makes the game (its row, both seats bound to their players) and marks
both requests paired with it. Pairings take turns: on PostgreSQL a transaction-scoped advisory
lock, so requests made through two processes at once see each other; on SQLite (one process)
an asyncio lock. The waiting player learns of the game by polling its request
(:meth:`Automatch.paired`). This module owns the ``automatch`` table.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from miai.coords import Color
from miai.game import GameSpec
from miai.ratings import even_or_handicap, rank_of
from miai.rules import Rules
from miai.server.people.ratings import SYSTEM
from miai.server.play.create import HUMAN, NewGame, new_record
from miai.server.storage.schema import automatch, games, ratings, users
from miai.server.storage.store import insert_game

__all__ = ["Automatch", "Request", "Pairing", "LOCK_KEY", "STALE_MS", "SEEN_EVERY_MS", "PAIRED_KEPT_MS"]

LOCK_KEY = (0x6D69616D, 1)
"""PostgreSQL's advisory lock of a pairing, held for its transaction (a space apart from the
shards' locks, (0x6D696169, shard))."""
STALE_MS = 60_000
"""A request not polled for this long is dropped: its player is gone."""
SEEN_EVERY_MS = 10_000
"""How often a waiting request's last poll is written down."""
PAIRED_KEPT_MS = 3_600_000
"""A paired request its player never came back for is dropped after an hour (the game is in
their list of games all the same)."""
RULES = "chinese"


@dataclass(frozen=True, slots=True)
class Request:
    """What a player asks for: a board ``size``, a time control (canonical text), rated or
    not, and the opponent's rank relative to theirs (``rank_low`` to ``rank_high``)."""

    size: int
    time_control: str
    rated: bool
    rank_low: int
    rank_high: int


@dataclass(frozen=True, slots=True)
class Pairing:
    """A request's game: its id and the player's seat."""

    game_id: str
    seat: Color


def _fits(mine: Request, my_rank: int, row: Any) -> bool:
    """Whether the waiting request ``row`` and ``mine`` (of a player of rank ``my_rank``) fit."""
    theirs = rank_of(row.rating).number
    return (
        row.size == mine.size
        and row.time_control == mine.time_control
        and bool(row.rated) == mine.rated
        and mine.rank_low <= theirs - my_rank <= mine.rank_high
        and row.rank_low <= my_rank - theirs <= row.rank_high
    )


class Automatch:
    """The requests in the database behind ``engine`` (``lock`` serializes pairings on SQLite)."""

    def __init__(self, engine: AsyncEngine, lock: asyncio.Lock):
        self.engine = engine
        self.lock = lock if engine.dialect.name == "sqlite" else None

    async def ask(self, user_id: int, name: str, request: Request, now_ms: int) -> Pairing | None:
        """Store ``user_id``'s request (replacing an earlier one) and pair it if a waiting
        request fits; the game, or None while it waits."""
        if self.lock is None:
            return await self._ask(user_id, name, request, now_ms)
        async with self.lock:
            return await self._ask(user_id, name, request, now_ms)

    async def _ask(self, user_id: int, name: str, request: Request, now_ms: int) -> Pairing | None:
        async with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                await conn.execute(sa.select(sa.func.pg_advisory_xact_lock(*LOCK_KEY)))
            await conn.execute(automatch.delete().where(automatch.c.user_id == user_id))
            await conn.execute(automatch.delete().where(automatch.c.game_id.is_(None), automatch.c.seen_ms < now_ms - STALE_MS))
            await conn.execute(automatch.delete().where(automatch.c.game_id.is_not(None), automatch.c.seen_ms < now_ms - PAIRED_KEPT_MS))
            rating = await _rating(conn, user_id)
            row = {"user_id": user_id, **_columns(request), "rating": rating, "created_ms": now_ms, "seen_ms": now_ms}
            waiting = await conn.execute(
                sa.select(automatch).where(automatch.c.game_id.is_(None)).order_by(automatch.c.created_ms, automatch.c.user_id)
            )
            my_rank = rank_of(rating).number
            partner = next((r for r in waiting if _fits(request, my_rank, r)), None)
            if partner is None:
                await conn.execute(automatch.insert().values(row))
                return None
            names = {user_id: name, partner.user_id: await _username(conn, partner.user_id)}
            game_id, seats = await _make_game(conn, request, (user_id, rating), (partner.user_id, partner.rating), names, now_ms)
            await conn.execute(
                automatch.update().where(automatch.c.user_id == partner.user_id).values(game_id=game_id, seen_ms=now_ms)
            )
            return Pairing(game_id, seats[user_id])

    async def paired(self, user_id: int, now_ms: int) -> Pairing | None | bool:
        """The game ``user_id``'s request was paired into (the request is then done with),
        True while it waits (noted as polled, every :data:`SEEN_EVERY_MS` at most: a poll is
        mostly a read), False when there is no request."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(automatch).where(automatch.c.user_id == user_id))).first()
        if row is None:
            return False
        if row.game_id is None:
            if now_ms - row.seen_ms >= SEEN_EVERY_MS:
                async with self.engine.begin() as conn:
                    await conn.execute(automatch.update().where(automatch.c.user_id == user_id).values(seen_ms=now_ms))
            return True
        async with self.engine.begin() as conn:
            await conn.execute(automatch.delete().where(automatch.c.user_id == user_id))
            return Pairing(row.game_id, await _seat(conn, row.game_id, user_id))

    async def cancel(self, user_id: int) -> Pairing | None:
        """Withdraw ``user_id``'s request; the game if it was paired first."""
        found = await self.paired(user_id, 0)
        if isinstance(found, Pairing):
            return found
        async with self.engine.begin() as conn:
            await conn.execute(automatch.delete().where(automatch.c.user_id == user_id, automatch.c.game_id.is_(None)))
        return None


def _columns(request: Request) -> dict[str, Any]:
    return {
        "size": request.size,
        "time_control": request.time_control,
        "rated": request.rated,
        "rank_low": request.rank_low,
        "rank_high": request.rank_high,
    }


async def _rating(conn: AsyncConnection, user_id: int) -> float:
    row = (await conn.execute(sa.select(ratings.c.rating).where(ratings.c.user_id == user_id))).first()
    return float(row.rating) if row is not None else SYSTEM.new.rating


async def _username(conn: AsyncConnection, user_id: int) -> str:
    return str((await conn.execute(sa.select(users.c.username).where(users.c.id == user_id))).scalar_one())


async def _seat(conn: AsyncConnection, game_id: str, user_id: int) -> Color:
    row = (await conn.execute(sa.select(games.c.black_user_id).where(games.c.id == game_id))).one()
    return Color.BLACK if row.black_user_id == user_id else Color.WHITE


async def _make_game(
    conn: AsyncConnection,
    request: Request,
    me: tuple[int, float],
    other: tuple[int, float],
    names: dict[int, str],
    now_ms: int,
) -> tuple[str, dict[int, Color]]:
    """The paired game's row, on ``conn``: the handicap the rank gap calls for, the weaker on
    Black (colours drawn in an even game), both seats bound to their players."""
    rules = Rules.preset(RULES)
    terms = even_or_handicap(me[1], other[1], request.size, rules.komi)
    black_first = secrets.randbelow(2) == 0 if terms.even else terms.first_black
    black, white = (me[0], other[0]) if black_first else (other[0], me[0])
    spec = GameSpec(request.size, rules.replace(komi=terms.komi), terms.stones)
    new = NewGame(spec, request.time_control, HUMAN, HUMAN, rated=request.rated)
    record, _tokens = new_record(new, now_ms)  # the players act with their credentials, not these tokens
    record = record.bound(Color.BLACK, names[black], f"u:{black}").bound(Color.WHITE, names[white], f"u:{white}")
    await insert_game(conn, record)
    return record.id, {black: Color.BLACK, white: Color.WHITE}
