"""Reading and writing games, their events and their chat: the games' SQL (accounts have theirs in :mod:`miai.server.people.accounts`).

:meth:`Store.append` is the durable step of every action: the event rows and the game's row
change in ONE transaction, and the insert of ``(game_id, v)`` fails if another writer already
wrote that version (the primary key is the fence); the update of the game's row is
conditional on its previous version as well. Nothing is acknowledged before it returns.

On SQLite the process's writes take turns through one :class:`asyncio.Lock`. SQLite has a
single writer anyway; without the lock, pooled connections that find the file locked sleep
in SQLite's busy handler (1, 2, 5 ... 100 ms at a time, never woken when the lock frees), and
under load they pile up into stalls of seconds (``benchmarks/server_load.py`` measured them).
The lock makes them wait in order instead, and changes nothing about when a commit happens.
And since SQLite commits one transaction at a time, each with its own fsync, the events of
actions that arrive together are committed together (:class:`~miai.server.storage.batch.GroupCommit`):
one fsync for the batch, each action answered only after the batch's commit.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from miai.coords import Color
from miai.server.play.chat import ChatLine
from miai.server.play.events import Event, EventKind
from miai.server.play.seats import GameRecord
from miai.server.play.tokens import FREE_SEAT
from miai.server.storage.batch import GroupCommit
from miai.server.storage.schema import game_chat, game_events, games

__all__ = ["GameRecord", "Store", "Turn", "WriteConflict", "insert_game"]


@dataclass(frozen=True, slots=True)
class Turn:
    """What a game's row says of its turn after a commit: whom it waits for (``to_move``), when
    that player's time runs out (``deadline_ms``, wall clock) and whether it is ``rated``."""

    to_move: str | None
    deadline_ms: int | None
    rated: bool

    def values(self) -> dict[str, Any]:
        return {"to_move": self.to_move, "deadline_ms": self.deadline_ms, "rated": self.rated}


class WriteConflict(Exception):
    """Another writer got there first: the version is taken. The caller's view is stale."""


_RECORD_FIELDS = tuple(f.name for f in fields(GameRecord))


def _event_row(game_id: str, e: Event) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "v": e.v,
        "kind": e.kind.value,
        "payload": e.payload,
        "seat": str(e.seat) if e.seat is not None else None,
        "at_ms": e.at_ms,
        "action_id": e.action_id,
        "request": e.request,
    }


def _event_of(row: Any) -> Event:
    return Event(
        v=row.v,
        kind=EventKind(row.kind),
        payload=dict(row.payload),
        seat=Color.parse(row.seat) if row.seat is not None else None,
        at_ms=row.at_ms,
        action_id=row.action_id,
        request=row.request,
    )


async def insert_game(conn: AsyncConnection, record: GameRecord) -> None:
    """The new game's row, on ``conn`` (a transaction of the caller's)."""
    await conn.execute(games.insert().values({name: getattr(record, name) for name in _RECORD_FIELDS}))


class Store:
    """Games and events in the database behind ``engine``."""

    def __init__(self, engine: AsyncEngine):
        self.engine = engine
        self._write_lock = asyncio.Lock() if engine.dialect.name == "sqlite" else None
        self._group = GroupCommit(self._writing) if self._write_lock is not None else None
        """SQLite: the events of concurrent actions share a transaction (batch.py)."""
        self._appends = 0

    @contextlib.asynccontextmanager
    async def _writing(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction (committed on leaving), one at a time on SQLite (see the module)."""
        if self._write_lock is None:
            async with self.engine.begin() as conn:
                yield conn
            return
        async with self._write_lock:
            async with self.engine.begin() as conn:
                yield conn

    async def create_game(self, record: GameRecord) -> None:
        async with self._writing() as conn:
            await insert_game(conn, record)

    async def load_game(self, game_id: str) -> GameRecord | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(games).where(games.c.id == game_id))).first()
        if row is None:
            return None
        return GameRecord(**{name: getattr(row, name) for name in _RECORD_FIELDS})

    async def unfinished_timed_games(self) -> list[str]:
        """The ids of the games with a timer to keep: not finished and timed, or in a marking
        phase (whose timer ends it if it stalls, timed or not)."""
        query = sa.select(games.c.id).where(
            games.c.status != "finished", sa.or_(games.c.time_control != "none", games.c.status == "marking")
        )
        async with self.engine.connect() as conn:
            return [row.id for row in (await conn.execute(query)).all()]

    async def bind_seat(self, record: GameRecord, color: Color) -> bool:
        """Store who holds the seat ``color`` as ``record`` has it (name, player, whether the
        game is still rated) if the seat has no name yet; whether it did."""
        prefix = str(color)
        column = games.c[f"{prefix}_name"]
        values = {f"{prefix}_{k}": getattr(record, f"{prefix}_{k}") for k in ("name", "user_id", "guest")}
        async with self.engine.begin() as conn:
            done = await conn.execute(
                games.update().where(games.c.id == record.id, column.is_(None)).values({**values, "rated": record.rated})
            )
        return bool(done.rowcount == 1)

    async def versions(self, game_ids: Sequence[str]) -> dict[str, int]:
        """The last version of each of ``game_ids`` that exists, in as few queries as can be
        (500 ids a query)."""
        found: dict[str, int] = {}
        async with self.engine.connect() as conn:
            for start in range(0, len(game_ids), 500):
                chunk = list(game_ids[start : start + 500])
                rows = await conn.execute(sa.select(games.c.id, games.c.v).where(games.c.id.in_(chunk)))
                found.update({row.id: row.v for row in rows})
        return found

    async def load_events(self, game_id: str, after: int = 0, limit: int | None = None) -> list[Event]:
        """The events of a game with ``v > after``, in order."""
        query = (
            sa.select(game_events)
            .where(game_events.c.game_id == game_id, game_events.c.v > after)
            .order_by(game_events.c.v)
        )
        if limit is not None:
            query = query.limit(limit)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [_event_of(r) for r in rows]

    async def append(
        self,
        game_id: str,
        events: Sequence[Event],
        *,
        status: str,
        result: str | None,
        ended_ms: int | None,
        turn: Turn | None = None,
        also: Callable[[AsyncConnection], Awaitable[None]] | None = None,
    ) -> None:
        """Commit ``events`` (contiguous, following the game's current version) and the game's
        new status (and ``turn``: whom it waits for, and whether it is rated) in one
        transaction, with what ``also`` writes on the same connection (a rated game's new
        ratings). Raises :class:`WriteConflict` if a version is taken."""
        if not events:
            return
        first, last = events[0].v, events[-1].v
        if [e.v for e in events] != list(range(first, last + 1)):
            raise ValueError("events must be numbered contiguously")

        async def write(conn: AsyncConnection) -> None:
            # the conditional update first: a stale version raises before anything is written
            done = await conn.execute(
                games.update()
                .where(games.c.id == game_id, games.c.v == first - 1)
                .values(v=last, status=status, result=result, ended_ms=ended_ms, **(turn.values() if turn else {}))
            )
            if done.rowcount != 1:
                raise WriteConflict(f"game {game_id} is no longer at version {first - 1}")
            await conn.execute(game_events.insert(), [_event_row(game_id, e) for e in events])
            if also is not None:
                await also(conn)

        try:
            if self._group is not None:
                await self._group.run(write)
            else:
                async with self._writing() as conn:
                    await write(conn)
                self._appends += 1
        except sa.exc.IntegrityError as e:
            raise WriteConflict(f"game {game_id}: version {first} is already written") from e

    @property
    def event_commits(self) -> int:
        """How many transactions have committed events so far (on SQLite, fewer than the
        actions when actions that arrived together shared one)."""
        return self._group.batches if self._group is not None else self._appends

    # ------------------------------------------------------------------ the lobby's lists
    async def open_games(self, since_ms: int, limit: int) -> list[GameRecord]:
        """Games in play created from ``since_ms`` on whose White seat is still free (an open
        game nobody joined yet: its stored hash is the free-seat marker), newest first."""
        query = (
            sa.select(games)
            .where(
                games.c.status == "play",
                games.c.created_ms >= since_ms,
                games.c.white_token_hash.like(f"{FREE_SEAT}%"),
            )
            .order_by(games.c.created_ms.desc())
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [GameRecord(**{name: getattr(row, name) for name in _RECORD_FIELDS}) for row in rows]

    async def still_open(self, game_ids: Sequence[str], since_ms: int) -> set[str]:
        """Which of ``game_ids`` are open games still listed (created from ``since_ms`` on, in
        play, White's seat free): what one client has waiting (ratelimit.py)."""
        if not game_ids:
            return set()
        query = sa.select(games.c.id).where(
            games.c.id.in_(list(game_ids)),
            games.c.status == "play",
            games.c.created_ms >= since_ms,
            games.c.white_token_hash.like(f"{FREE_SEAT}%"),
        )
        async with self.engine.connect() as conn:
            return {row.id for row in (await conn.execute(query)).all()}

    async def live_games(self, limit: int) -> list[GameRecord]:
        """Games going on (in play or marking) with at least one event and no free seat, newest first."""
        query = (
            sa.select(games)
            .where(
                games.c.status.in_(("play", "marking")),
                games.c.v > 0,
                sa.or_(games.c.white_token_hash.is_(None), games.c.white_token_hash.not_like(f"{FREE_SEAT}%")),
            )
            .order_by(games.c.created_ms.desc())
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [GameRecord(**{name: getattr(row, name) for name in _RECORD_FIELDS}) for row in rows]

    async def take_free_seat(self, record: GameRecord, marker: str) -> bool:
        """Give an open game's free White seat the token, name and player ``record`` has for
        it, if the seat is still free (its hash is still ``marker``); whether it did. The
        condition makes the first joiner the only one, whichever process answers."""
        async with self.engine.begin() as conn:
            done = await conn.execute(
                games.update()
                .where(games.c.id == record.id, games.c.white_token_hash == marker)
                .values(
                    white_token_hash=record.white_token_hash,
                    white_name=record.white_name,
                    white_user_id=record.white_user_id,
                    white_guest=record.white_guest,
                    rated=record.rated,
                )
            )
        return bool(done.rowcount == 1)

    # ------------------------------------------------------------------ the players' chat
    async def add_chat(self, game_id: str, line: ChatLine) -> None:
        """Keep a chat line with its game (committed before it is shown: docs/SERVER.md §5)."""
        row = {"game_id": game_id, "seat": str(line.seat), "name": line.name, "text": line.text, "at_ms": line.at_ms, "move": line.move}
        async with self._writing() as conn:
            await conn.execute(game_chat.insert().values(row))

    async def load_chat(self, game_id: str, last: int | None = None) -> list[ChatLine]:
        """A game's chat lines in the order they were said: all, or the ``last`` ones."""
        query = sa.select(game_chat).where(game_chat.c.game_id == game_id).order_by(game_chat.c.id.desc())
        if last is not None:
            query = query.limit(last)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [
            ChatLine(seat=Color.parse(r.seat), name=r.name, text=r.text, at_ms=r.at_ms, move=r.move) for r in reversed(rows)
        ]
