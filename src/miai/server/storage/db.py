"""The database connection: URLs, the async engine, SQLite's durability settings, migrations.

SQLite (through aiosqlite) is the embedded default; PostgreSQL (through asyncpg) takes the
same code. SQLite runs in WAL mode with ``synchronous=FULL`` (a committed event survives a
power loss, not only a killed process) and a ``busy_timeout`` so that a second connection
waits for the writer instead of failing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import StaticPool

from miai.server.errors import BadRequest
from miai.server.storage.sqlitefile import DatabaseFileGone, damaged, watch

__all__ = ["async_url", "open_engine", "migrate", "MIGRATIONS", "is_outage", "outage_kinds", "sqlite_file"]

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
BUSY_TIMEOUT_MS = 10_000
MIGRATION_LOCK = 0x6D696169
"""The advisory lock (with -1; the shards use 0..N-1) held while PostgreSQL's schema is migrated."""


def outage_kinds() -> tuple[type[BaseException], ...]:
    """The exception classes that may say the database is unreachable (:func:`is_outage` decides)."""
    import asyncpg  # type: ignore[import-untyped]

    return (
        DatabaseFileGone,  # the SQLite file deleted or replaced under the server (sqlitefile.py)
        OSError,  # connection refused or reset; a time-out, when a database error carries it
        asyncpg.exceptions.PostgresConnectionError,  # class 08: connection exceptions
        asyncpg.exceptions.OperatorInterventionError,  # class 57: shutting down, cannot connect now
        asyncpg.exceptions.InterfaceError,  # the connection was closed in the middle of an operation
        sa.exc.OperationalError,
        sa.exc.InterfaceError,
    )


def is_outage(exc: BaseException) -> bool:
    """Whether ``exc`` (or what it wraps) says the database cannot be reached for now — it is
    stopped, restarting, or the connection broke, or its SQLite file is gone or damaged — rather
    than that the request was wrong: such a request is answered 503 (retry) instead of 500. A
    broken connection counts wherever it stands in the chain; another ``OSError`` (a time-out)
    only inside a database error, since the server's own time-outs and files are not the database."""
    import asyncpg

    kinds = tuple(k for k in outage_kinds() if k is not OSError)
    database_errors = (sa.exc.DBAPIError, asyncpg.exceptions.PostgresError, asyncpg.exceptions.InterfaceError)
    seen: set[int] = set()
    in_database_error = False
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        in_database_error = in_database_error or isinstance(current, database_errors)
        if isinstance(current, (*kinds, ConnectionError)) or (in_database_error and isinstance(current, OSError)):
            return True
        if damaged(current):
            return True
        if isinstance(current, sa.exc.DBAPIError) and current.connection_invalidated:
            return True
        current = getattr(current, "orig", None) or current.__cause__ or current.__context__
    return False


class DatabaseUrlError(BadRequest):
    """A database URL the server cannot use."""


def async_url(url: str) -> sa.URL:
    """The SQLAlchemy URL with an async driver: ``sqlite:///f.db`` -> ``sqlite+aiosqlite:///f.db``,
    ``postgresql://...`` -> ``postgresql+asyncpg://...``; a bare path is a SQLite file."""
    text = url.strip()
    if not text:
        raise DatabaseUrlError("empty database URL")
    if "://" not in text:
        text = f"sqlite:///{Path(text).expanduser()}"
    try:
        parsed = sa.make_url(text)
    except sa.exc.ArgumentError as e:
        raise DatabaseUrlError(f"not a database URL: {url!r} ({e})") from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        return parsed.set(drivername="sqlite+aiosqlite")
    if backend in ("postgresql", "postgres"):
        return parsed.set(drivername="postgresql+asyncpg")
    raise DatabaseUrlError(f"unsupported database {backend!r} in {url!r}: use sqlite:///FILE or postgresql://...")


def _is_memory(url: sa.URL) -> bool:
    return url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:")


def sqlite_file(url: str) -> Path | None:
    """The SQLite file of ``url``, or None (PostgreSQL, or SQLite in memory)."""
    parsed = async_url(url)
    if parsed.get_backend_name() != "sqlite" or _is_memory(parsed) or not parsed.database:
        return None
    return Path(parsed.database)


def open_engine(url: str, pool: tuple[int, int] = (20, 10)) -> AsyncEngine:
    """The async engine for ``url`` (see :func:`async_url`), with SQLite's settings applied to
    every new connection and the file's directory created; on PostgreSQL a pool of
    ``pool`` = (connections kept, more at a peak)."""
    parsed = async_url(url)
    kwargs: dict[str, Any] = {}
    if parsed.get_backend_name() == "sqlite":
        if _is_memory(parsed):
            kwargs["poolclass"] = StaticPool  # one shared in-memory database
        elif parsed.database:
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        kwargs["connect_args"] = {"timeout": BUSY_TIMEOUT_MS / 1000}
    else:
        kwargs["pool_pre_ping"] = True
        kwargs["pool_size"], kwargs["max_overflow"] = pool
    engine = create_async_engine(parsed, **kwargs)
    if parsed.get_backend_name() == "sqlite":
        memory = _is_memory(parsed)

        @sa.event.listens_for(engine.sync_engine, "connect")
        def _sqlite_settings(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            if not memory:
                cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        if not memory and parsed.database:
            watch(engine, Path(parsed.database))  # deleted or replaced while running: 503s, not lost moves

    return engine


def _upgrade(connection: sa.Connection) -> None:
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


async def migrate(engine: AsyncEngine) -> None:
    """Bring the schema up to the newest migration (creating it in an empty database)."""
    async with engine.begin() as conn:
        if engine.url.get_backend_name() == "postgresql":  # processes starting together migrate one at a time
            await conn.execute(sa.text("select pg_advisory_xact_lock(:space, -1)"), {"space": MIGRATION_LOCK})
        await conn.run_sync(_upgrade)
