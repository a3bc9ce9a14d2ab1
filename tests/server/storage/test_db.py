"""The database layer: URLs, SQLite's settings, migrations equal to the schema."""

from __future__ import annotations

import asyncio

import pytest
import sqlalchemy as sa
from alembic.script import ScriptDirectory

from miai.errors import MiaiError
from miai.server.storage.db import MIGRATIONS, async_url, migrate, open_engine
from miai.server.storage.schema import metadata


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
    assert version == ScriptDirectory(str(MIGRATIONS)).get_current_head()  # the newest migration


def _compare(connection):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return [d for d in compare_metadata(context, metadata) if "alembic_version" not in str(d)]


def test_migration_0002_keeps_the_games_of_a_0001_database(tmp_path):
    """A database made by 0001 (a game with its events) upgraded to 0002: the game, its events
    and its tokens are intact, the names are empty, the users table is there, and the server
    serves the game and names its seats from then on."""
    from alembic import command
    from alembic.config import Config

    from miai.server.storage.db import MIGRATIONS
    from tests.server.conftest import Table, make_client

    db = str(tmp_path / "old.db")
    with make_client(db) as client:  # play a game, then take the database back to 0001
        table = Table(client, size=9)
        table.moves("E5 D4 C3")
        before = table.state()

    def downgrade(connection):
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.attributes["connection"] = connection
        command.downgrade(config, "0001")

    async def to_0001_then_up():
        engine = open_engine(db)
        async with engine.begin() as conn:
            await conn.run_sync(downgrade)
        async with engine.connect() as conn:
            old_columns = [r[1] for r in (await conn.execute(sa.text("PRAGMA table_info(games)"))).all()]
            old_tables = await conn.run_sync(lambda c: sa.inspect(c).get_table_names())
            old_version = await conn.scalar(sa.text("SELECT version_num FROM alembic_version"))
        await migrate(engine)
        async with engine.connect() as conn:
            names = (await conn.execute(sa.text("SELECT black_name, white_name FROM games"))).all()
            events = await conn.scalar(sa.text("SELECT count(*) FROM game_events"))
            version = await conn.scalar(sa.text("SELECT version_num FROM alembic_version"))
            diff = await conn.run_sync(_compare)
        await engine.dispose()
        return old_columns, old_tables, old_version, names, events, version, diff

    old_columns, old_tables, old_version, names, events, version, diff = asyncio.run(to_0001_then_up())
    assert old_version == "0001" and "black_name" not in old_columns and "users" not in old_tables
    assert names == [(None, None)] and events == 3 and version == ScriptDirectory(str(MIGRATIONS)).get_current_head() and diff == []
    with make_client(db) as client:
        table.client = client
        assert table.state() == {**before, "players": {"black": None, "white": None}}
        guest = client.get("/api/me").json()["name"]  # the state's GET made this client a guest
        table.play("white", "F6")
        answer = client.post("/api/users", json={"username": "newcomer", "password": "a long password"})
        assert answer.status_code == 201
        assert table.post("black", "play", {"move": "G7", "v": 4}).status_code == 200
        # the guest who played White signed up and kept the seat (docs/SERVER.md §6)
        assert guest and table.state()["players"] == {"black": "newcomer", "white": "newcomer"}


def test_a_postgresql_engine_keeps_the_configured_pool():
    async def sizes(pool):
        engine = open_engine("postgresql://u@h/db", pool) if pool else open_engine("postgresql://u@h/db")
        try:
            return engine.sync_engine.pool.size(), engine.sync_engine.pool._max_overflow  # no connection is opened
        finally:
            await engine.dispose()

    assert asyncio.run(sizes(None)) == (20, 10)  # ServerConfig.database_pool's default
    assert asyncio.run(sizes((3, 0))) == (3, 0)
