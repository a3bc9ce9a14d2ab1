"""Which process owns which games: game ids hash to shards, and a process owns a shard while
it holds the shard's PostgreSQL advisory lock (docs/SERVER.md §2.1).

The locks are taken on one dedicated connection that stays open for the process's life. When
the process dies, PostgreSQL sees its connection close and releases the locks, and another
process takes the shards on its next round (:attr:`ServerConfig.shard_claim_interval_s`, or at
once when a request for such a game finds no owner). Owning is only an optimisation of who
does the work: the final fence against two writers is the ``(game_id, v)`` primary key of the
events (:meth:`miai.server.storage.store.Store.append`), which refuses the second write of a version.

:class:`Everything` is the one-process case (SQLite, or no Redis): it owns every shard.
"""

from __future__ import annotations

import asyncio
import logging
import os
import zlib
from collections.abc import Awaitable, Callable
from typing import Any

import sqlalchemy as sa

__all__ = ["shard_of", "Ownership", "Everything", "AdvisoryLocks", "LOCK_SPACE"]

log = logging.getLogger("miai.server")

LOCK_SPACE = 0x6D696169
"""The first key of ``pg_try_advisory_lock(int, int)`` for the shards ('miai' in ASCII); the
second is the shard's number."""

APP_NAME = "miai shards"
"""The ``application_name`` of a process's locks connection, followed by its process id: how
the processes count each other (``pg_stat_activity``) and how an operator sees who owns what."""

QUERY_TIMEOUT_S = 10.0
"""The longest the locks' connection waits for one query (none of them waits for a lock)."""

ShardHook = Callable[[int], Awaitable[None]]

_LOADS = """
select a.pid, count(l.objid) as shards
from pg_stat_activity a
left join pg_locks l
  on l.pid = a.pid and l.locktype = 'advisory' and l.granted and l.objsubid = 2 and l.classid = $1::bigint::oid
where a.datname = current_database() and a.application_name like 'miai shards %'
group by a.pid
"""


def shard_of(game_id: str, shards: int) -> int:
    """The shard of a game: CRC-32 of its id modulo ``shards`` (stable across processes and
    Python versions, unlike :func:`hash`).

    >>> shard_of("abc", 16) == shard_of("abc", 16)
    True
    >>> 0 <= shard_of("Zq3", 16) < 16
    True
    """
    return zlib.crc32(game_id.encode()) % shards


class Ownership:
    """The shards this process owns (the base class owns none and never takes any)."""

    def __init__(self, shards: int):
        self.shards = shards
        self.owned: set[int] = set()

    def shard(self, game_id: str) -> int:
        return shard_of(game_id, self.shards)

    def owns(self, game_id: str) -> bool:
        return self.shard(game_id) in self.owned

    async def start(self, gained: ShardHook, lost: ShardHook) -> None:
        """Take what can be taken now, calling ``gained`` for each shard taken (and later
        ``lost`` for each shard lost)."""

    async def try_take(self, shard: int) -> bool:
        """Try to take ``shard`` now (a request found no owner); whether this process owns it."""
        return shard in self.owned

    async def close(self) -> None:
        """Give every shard up."""


class Everything(Ownership):
    """One process: it owns every shard."""

    async def start(self, gained: ShardHook, lost: ShardHook) -> None:
        self.owned = set(range(self.shards))


class AdvisoryLocks(Ownership):
    """Shards owned through ``pg_try_advisory_lock(LOCK_SPACE, shard)`` on a dedicated
    asyncpg connection to ``url`` (a ``postgresql://`` URL), checked every ``interval`` seconds.

    Each round shares the shards out: with P live processes a process's share is
    ceil(shards / P); it takes free shards up to its share, and gives up what it holds beyond
    its share while another process holds less than its own (closing the rooms first, then
    unlocking), so that a process that started first does not keep every game."""

    def __init__(self, url: sa.URL, shards: int, interval: float):
        super().__init__(shards)
        self.dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self.interval = interval
        self._conn: Any = None
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self._gained: ShardHook | None = None
        self._lost: ShardHook | None = None
        self._released: dict[int, float] = {}
        """When this process last gave each shard up (it does not take it back at once)."""

    async def start(self, gained: ShardHook, lost: ShardHook) -> None:
        self._gained, self._lost = gained, lost
        await self._round()
        self._task = asyncio.create_task(self._rounds(), name="miai shards")

    async def _connection(self) -> Any:
        import asyncpg  # type: ignore[import-untyped]

        if self._conn is None or self._conn.is_closed():
            self._conn = await asyncpg.connect(
                self.dsn, timeout=10, server_settings={"application_name": f"{APP_NAME} {os.getpid()}"}
            )
        return self._conn

    async def _rounds(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self._round()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("shards: a round of claims failed")

    async def _round(self) -> None:
        """Check that the locks' connection lives (else every shard is lost), give up what is
        beyond this process's share while another is short, then take free shards up to it."""
        async with self._lock:
            if self.owned and not await self._alive():
                await self._lose_all()
            try:
                conn = await self._connection()
                me = conn.get_server_pid()
                rows = await conn.fetch(_LOADS, LOCK_SPACE, timeout=QUERY_TIMEOUT_S)
                loads = {row["pid"]: row["shards"] for row in rows}
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("shards: cannot count the processes: %s", e)
                return
            share = -(-self.shards // len(set(loads) | {me}))
            short = sum(max(0, share - n) for pid, n in loads.items() if pid != me)
            for shard in sorted(self.owned, reverse=True)[: max(0, min(len(self.owned) - share, short))]:
                await self._give_up(shard)
            for shard in range(self.shards):
                if len(self.owned) >= share:
                    break
                if shard not in self.owned:
                    await self._take(shard)

    async def _give_up(self, shard: int) -> None:
        """Hand ``shard`` over: stop its rooms (``lost``), then unlock it for another process."""
        self.owned.discard(shard)
        self._released[shard] = asyncio.get_running_loop().time()
        log.info("shards: giving shard %d up to balance the load", shard)
        if self._lost is not None:
            try:
                await self._lost(shard)
            except Exception:
                log.exception("shards: closing shard %d failed", shard)
        try:
            await self._conn.fetchval("select pg_advisory_unlock($1, $2)", LOCK_SPACE, shard, timeout=QUERY_TIMEOUT_S)
        except Exception as e:  # the connection is gone: so is the lock
            log.warning("shards: unlocking shard %d: %s", shard, e)

    async def _alive(self) -> bool:
        try:
            conn = self._conn
            if conn is None or conn.is_closed():
                return False
            await conn.fetchval("select 1", timeout=max(5.0, self.interval * 3))
            return True
        except Exception:  # closed, broken or stuck: the locks cannot be counted on
            return False

    async def _lose_all(self) -> None:
        lost, self.owned = sorted(self.owned), set()
        log.warning("shards: the locks' connection is gone; giving up shards %s", lost)
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.terminate()
            except Exception:
                pass
        for shard in lost:
            if self._lost is not None:
                await self._lost(shard)

    async def _take(self, shard: int) -> bool:
        try:
            conn = await self._connection()
            got = await conn.fetchval(
                "select pg_try_advisory_lock($1, $2)", LOCK_SPACE, shard, timeout=QUERY_TIMEOUT_S
            )
        except asyncio.CancelledError:
            raise
        except Exception as e:
            log.warning("shards: cannot try shard %d: %s", shard, e)
            return False
        if not got:
            return False
        self.owned.add(shard)
        log.info("shards: took shard %d", shard)
        if self._gained is not None:
            try:
                await self._gained(shard)
            except Exception:
                log.exception("shards: loading shard %d failed", shard)
        return True

    async def try_take(self, shard: int) -> bool:
        async with self._lock:
            if shard in self.owned:
                return True
            released = self._released.get(shard)
            if released is not None and asyncio.get_running_loop().time() - released < 3 * self.interval:
                return False  # just handed over: the other process takes it in its next round
            return await self._take(shard)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
        self.owned = set()
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                await conn.close(timeout=5)
            except Exception:
                pass
