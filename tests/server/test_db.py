"""The database layer: URLs, SQLite's settings, migrations equal to the schema."""

from __future__ import annotations

import asyncio

import pytest
import sqlalchemy as sa

from miai.errors import MiaiError
from miai.server.db import async_url, migrate, open_engine
from miai.server.schema import metadata


@pytest.mark.parametrize(
    ("url", "driver"),
    [
        ("sqlite:///x.db", "sqlite+aiosqlite"),
        ("games.db", "sqlite+aiosqlite"),
        ("postgresql://u@h/db", "postgresql+asyncpg"),
        ("postgres://u@h/db", "postgresql+asyncpg"),
    ],
)
def test_urls_get_an_async_driver(url, driver):
    assert async_url(url).drivername == driver


@pytest.mark.parametrize("url", ["", "mysql://u@h/db", "not a url://x"])
def test_unusable_urls_are_user_errors(url):
    with pytest.raises(MiaiError) as info:
        async_url(url)
    assert isinstance(info.value, ValueError)
    assert str(info.value)


def test_sqlite_is_durable_and_migrations_build_the_schema(tmp_path):
    async def run():
        engine = open_engine(str(tmp_path / "sub" / "miai.db"))
        await migrate(engine)
        await migrate(engine)  # a second start-up finds the schema at its head
        async with engine.connect() as conn:
            mode = await conn.scalar(sa.text("PRAGMA journal_mode"))
            sync = await conn.scalar(sa.text("PRAGMA synchronous"))
            busy = await conn.scalar(sa.text("PRAGMA busy_timeout"))
            diff = await conn.run_sync(_compare)
            version = await conn.scalar(sa.text("SELECT version_num FROM alembic_version"))
        await engine.dispose()
        return mode, sync, busy, diff, version

    mode, sync, busy, diff, version = asyncio.run(run())
    assert (mode, sync) == ("wal", 2)  # 2 is FULL
    assert busy > 0
    assert diff == []
    assert version == "0002"


def _compare(connection):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return [d for d in compare_metadata(context, metadata) if "alembic_version" not in str(d)]
