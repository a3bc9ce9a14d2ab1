"""The servers the load benchmark and the chaos soak test drive, and what they stand on:
``miai serve`` processes on SQLite, or on a private PostgreSQL, several of them with a private
Redis (:mod:`miai.testing.serve`, :mod:`miai.testing.services`)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from miai.server.config import ServerConfig
from miai.server.cluster.shards import LOCK_SPACE
from miai.testing.serve import ServeProcess
from miai.testing.services import Postgres, Redis, free_port

__all__ = ["MODES", "Deployment"]

MODES = ("sqlite", "postgres", "cluster")
"""The deployments, from the embedded default to several processes."""


class Deployment:
    """The servers under test and what they stand on, in ``directory``.

    - ``sqlite``: one process on a SQLite file (the embedded default);
    - ``postgres``: one process on a private PostgreSQL cluster;
    - ``cluster``: ``processes`` processes (2 by default) on that PostgreSQL, with a private Redis.

    PostgreSQL runs with ``fsync`` on, as SQLite runs with ``synchronous=FULL``: an acknowledged
    action is on the disk in every mode. Every server runs with ``--no-rate-limits`` (all the
    simulated clients come from 127.0.0.1).
    """

    def __init__(self, mode: str, directory: Path, processes: int, log_level: str = "warning"):
        self.mode, self.directory = mode, directory
        self.postgres: Postgres | None = None
        self.redis: Redis | None = None
        if mode == "sqlite":
            self.database = f"sqlite:///{directory / 'miai.db'}"
        else:
            directory.chmod(0o755)  # the postgres user (when run as root) goes through it
            pg_dir = directory / "postgres"
            pg_dir.mkdir()
            self.postgres = Postgres.in_directory(pg_dir, durable=True)
            self.database = ""  # made once the cluster runs
        if mode == "cluster":
            self.redis = Redis(directory, free_port())
        count = processes if mode == "cluster" else 1
        self.servers = [
            ServeProcess(
                "", redis=self.redis.url if self.redis else None, extra=["--no-rate-limits", "--log-level", log_level],
                env={"MIAI_SECRET": "the load benchmark's shared secret"}, log_path=directory / f"server{i}.log",
                cwd=directory,
            )
            for i in range(count)
        ]  # fmt: skip

    def start(self) -> None:
        if self.postgres is not None:
            self.postgres.start()
            self.database = self.postgres.new_database()
        if self.redis is not None:
            self.redis.start()
        for server in self.servers:
            server.database = self.database
            server.start()
        if len(self.servers) > 1:
            asyncio.run(self.balanced())

    async def balanced(self, timeout: float = 30.0) -> None:
        """Wait until the processes hold their shares of the shards (the first one to start
        takes them all, then gives the others theirs): a server that has been running, not one
        handing games over while the clients arrive."""
        import asyncpg  # type: ignore[import-untyped]

        share = -(-ServerConfig().shards // len(self.servers))
        deadline = time.monotonic() + timeout
        conn = await asyncpg.connect(self.database)
        try:
            while time.monotonic() < deadline:
                held = {
                    row["application_name"]: row["n"]
                    for row in await conn.fetch(
                        "select a.application_name, count(*) as n from pg_locks l "
                        "join pg_stat_activity a on a.pid = l.pid where l.locktype = 'advisory' "
                        "and l.granted and l.objsubid = 2 and l.classid = $1::bigint::oid group by 1",
                        LOCK_SPACE,
                    )
                }
                if len(held) == len(self.servers) and all(n <= share for n in held.values()):
                    return
                await asyncio.sleep(0.2)
        finally:
            await conn.close()
        raise RuntimeError(f"the shards were not shared out within {timeout:.0f} s")

    def roots(self) -> dict[str, int]:
        """The processes whose trees are measured, by name: ``server0``, ``server1``…, ``postgres``, ``redis``."""
        roots = {f"server{i}": s.pid for i, s in enumerate(self.servers)}
        if self.postgres is not None and self.postgres.proc is not None:
            roots["postgres"] = self.postgres.proc.pid
        if self.redis is not None and self.redis.proc is not None:
            roots["redis"] = self.redis.proc.pid
        return roots

    def stop(self) -> list[int | None]:
        codes = [server.stop() for server in self.servers]
        if self.redis is not None:
            self.redis.stop()
        if self.postgres is not None:
            self.postgres.stop()
        return codes
