"""The store and the shards' locks on a real PostgreSQL (the private cluster of conftest.py)."""

from __future__ import annotations

import asyncio

import pytest
import sqlalchemy as sa

from miai.coords import Color
from miai.server.cluster.shards import AdvisoryLocks, shard_of
from miai.server.storage.db import async_url, migrate, open_engine
from miai.server.storage.store import Store, WriteConflict
from tests.server.storage.test_store import move, record

pytestmark = pytest.mark.timeout(60)


def test_migrations_build_the_schema_on_postgresql_even_from_two_processes_at_once(pg_url):
    async def run():
        engines = [open_engine(pg_url), open_engine(pg_url)]
        try:
            await asyncio.gather(*(migrate(e) for e in engines))  # serialised by the migration lock
            await migrate(engines[0])  # and again: nothing to do
            async with engines[0].connect() as conn:
                tables = await conn.run_sync(lambda c: sa.inspect(c).get_table_names())
                version = (await conn.execute(sa.text("select version_num from alembic_version"))).scalar_one()
            return set(tables), version
        finally:
            for e in engines:
                await e.dispose()

    tables, version = asyncio.run(run())
    assert {"games", "game_events", "alembic_version"} <= tables
    assert version


def test_two_writers_of_one_version_on_postgresql_one_wins_and_nothing_is_written_twice(pg_url):
    """The final fence of the distributed mode: two stores (as two processes) append the same v."""

    async def run():
        engines = [open_engine(pg_url), open_engine(pg_url)]
        try:
            await migrate(engines[0])
            a, b = Store(engines[0]), Store(engines[1])
            await a.create_game(record())
            outcomes = await asyncio.gather(
                a.append("g1", [move(1, "D4", Color.BLACK)], status="play", result=None, ended_ms=None),
                b.append("g1", [move(1, "C3", Color.BLACK)], status="play", result=None, ended_ms=None),
                return_exceptions=True,
            )
            return outcomes, await a.load_game("g1"), await b.load_events("g1")
        finally:
            for e in engines:
                await e.dispose()

    outcomes, row, events = asyncio.run(run())
    assert sorted(type(o).__name__ for o in outcomes) == ["NoneType", "WriteConflict"]
    assert isinstance(next(o for o in outcomes if o is not None), WriteConflict)
    assert row.v == 1 and len(events) == 1
    winner = "D4" if outcomes[0] is None else "C3"
    assert events[0].payload["move"] == winner


def test_a_shard_has_one_owner_and_passes_to_another_when_its_connection_goes(pg_url):
    async def run():
        url = async_url(pg_url)
        gained: dict[str, list[int]] = {"a": [], "b": []}
        lost: list[int] = []

        def hooks(name):
            async def on_gain(shard):
                gained[name].append(shard)

            async def on_loss(shard):
                lost.append(shard)

            return on_gain, on_loss

        a = AdvisoryLocks(url, 4, interval=60)  # no rounds but the first: the test runs them
        b = AdvisoryLocks(url, 4, interval=60)
        await a.start(*hooks("a"))
        await b.start(*hooks("b"))
        first = (sorted(a.owned), sorted(b.owned))
        taken_early = await b.try_take(2)
        await a.close()  # as a process that dies: its connection closes, its locks go
        took = await b.try_take(2)
        await b._round()
        second = sorted(b.owned)
        await b.close()
        return first, taken_early, took, second, gained, lost

    first, taken_early, took, second, gained, lost = asyncio.run(run())
    assert first == ([0, 1, 2, 3], [])
    assert taken_early is False
    assert took is True
    assert second == [0, 1, 2, 3]
    assert sorted(gained["a"]) == [0, 1, 2, 3] and sorted(gained["b"]) == [0, 1, 2, 3]


def test_the_shards_are_shared_out_between_the_live_processes(pg_url):
    async def run():
        url = async_url(pg_url)
        lost: list[int] = []

        async def on_gain(shard):
            pass

        async def on_loss(shard):
            lost.append(shard)

        a = AdvisoryLocks(url, 5, interval=0.1)
        await a.start(on_gain, on_loss)
        alone = sorted(a.owned)
        b = AdvisoryLocks(url, 5, interval=0.1)
        await b.start(on_gain, on_loss)
        for _ in range(50):
            await asyncio.sleep(0.1)
            if len(a.owned) + len(b.owned) == 5 and min(len(a.owned), len(b.owned)) >= 2:
                break
        shared = (set(a.owned), set(b.owned))
        await b.close()
        await asyncio.sleep(0.5)
        back = sorted(a.owned)
        await a.close()
        return alone, shared, lost, back

    alone, (of_a, of_b), lost, back = asyncio.run(asyncio.wait_for(run(), 30))
    assert alone == [0, 1, 2, 3, 4]
    assert not of_a & of_b and of_a | of_b == {0, 1, 2, 3, 4}
    assert sorted([len(of_a), len(of_b)]) == [2, 3]
    assert sorted(lost) == sorted(of_b)  # what a gave up is what b took
    assert back == [0, 1, 2, 3, 4]


def test_a_process_whose_locks_connection_dies_gives_its_shards_up(pg_url):
    async def run():
        lost: list[int] = []

        async def on_gain(shard):
            pass

        async def on_loss(shard):
            lost.append(shard)

        a = AdvisoryLocks(async_url(pg_url), 3, interval=0.1)
        await a.start(on_gain, on_loss)
        owned = sorted(a.owned)
        # the locks' connection drops (a network failure, an administrator's kill)
        engine = open_engine(pg_url)
        async with engine.begin() as conn:
            await conn.execute(
                sa.text("SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND pid <> pg_backend_pid()")
            )
        await engine.dispose()
        for _ in range(200):  # taken again on a fresh connection: nobody else wanted them
            await asyncio.sleep(0.05)
            if len(lost) == 3 and sorted(a.owned) == [0, 1, 2]:
                break
        after = sorted(a.owned)
        await a.close()
        return owned, lost, after

    owned, lost, after = asyncio.run(run())
    assert owned == [0, 1, 2]
    assert sorted(lost) == [0, 1, 2]
    assert after == [0, 1, 2]


def test_shards_spread_game_ids():
    shards = {shard_of(f"game{i}", 16) for i in range(400)}
    assert shards == set(range(16))


def test_an_owner_that_lost_its_lock_but_still_writes_gets_a_conflict_never_a_double_write(pg_url):
    """Two rooms of one game in two registries (as a process that lost its shard and has not
    noticed yet, and the one that took it): both accept a move at the same version; the
    database takes one, the other is refused (409) and its room stops."""
    from miai.coords import Color
    from miai.server.config import ServerConfig
    from miai.server.errors import Conflict
    from miai.server.play.actions import ActionKind, parse_action
    from miai.server.play.create import parse_new_game
    from miai.server.rooms.registry import Registry

    async def run():
        engines = [open_engine(pg_url), open_engine(pg_url)]
        try:
            await migrate(engines[0])
            config = ServerConfig(suggest_dead_stones=False)
            stale, fresh = (Registry(Store(e), config) for e in engines)
            record, tokens = await stale.create(parse_new_game({"size": 9}))
            black = tokens[Color.BLACK]
            rooms = [await stale.room(record.id), await fresh.room(record.id)]
            outcomes = await asyncio.gather(
                *(
                    room.act(black, parse_action(ActionKind.PLAY, {"move": move, "v": 0}))
                    for room, move in zip(rooms, ("E5", "D4"))
                ),
                return_exceptions=True,
            )
            await asyncio.sleep(0.05)  # the refused room stops itself
            closed = [room.closed for room in rooms]
            events = await Store(engines[0]).load_events(record.id)
            await stale.close()
            await fresh.close()
            return outcomes, closed, events
        finally:
            for e in engines:
                await e.dispose()

    outcomes, closed, events = asyncio.run(run())
    won = [o for o in outcomes if o == 1]
    lost = [o for o in outcomes if isinstance(o, Conflict)]
    assert len(won) == 1 and len(lost) == 1, outcomes
    assert closed == [isinstance(o, Conflict) for o in outcomes]  # the refused room stopped
    assert len(events) == 1 and events[0].payload["move"] == ("E5" if outcomes[0] == 1 else "D4")


def test_a_review_and_its_analysis_are_kept_on_postgresql(pg_url):
    from tests.server.storage.test_reviews import keep_and_read

    asyncio.run(keep_and_read(pg_url))


def test_the_chat_is_kept_and_read_back_in_order_on_postgresql(pg_url):
    """The players' chat (game_chat, migration 0004) on PostgreSQL: every line, or the last ones,
    in the order they were said, with names, times and moves."""
    from miai.server.play.chat import ChatLine

    lines = [ChatLine(Color.BLACK, "Guest 1", "hi", 1000, 0), ChatLine(Color.WHITE, None, "hello", 2000, 0),
             ChatLine(Color.BLACK, "Guest 1", "nice move", 3000, 7)]

    async def run():
        engine = open_engine(pg_url)
        try:
            await migrate(engine)
            store = Store(engine)
            await store.create_game(record("chat1"))
            for line in lines:
                await store.add_chat("chat1", line)
            return await store.load_chat("chat1"), await store.load_chat("chat1", 2), await store.load_chat("other")
        finally:
            await engine.dispose()

    every, last, none = asyncio.run(run())
    assert every == lines and last == lines[1:] and none == []


def test_a_learners_progress_on_postgresql_two_requests_at_once_keep_the_larger(pg_url):
    from miai.server.people.progress import read_progress, record_progress
    from miai.server.storage.schema import users

    async def run():
        engine = open_engine(pg_url)
        try:
            await migrate(engine)
            async with engine.begin() as conn:
                user_id = (await conn.execute(users.insert().values(
                    username="pupil-pg", username_key="pupil-pg", password_hash="x", created_ms=1).returning(users.c.id))).scalar_one()
            await asyncio.gather(record_progress(engine, user_id, "02-capture", 2, 10),
                                 record_progress(engine, user_id, "02-capture", 3, 11))  # fmt: skip
            await record_progress(engine, user_id, "02-capture", 1, 12)
            return await read_progress(engine, user_id)
        finally:
            await engine.dispose()

    assert asyncio.run(run()) == {"02-capture": 3}


def test_a_learners_solved_problems_on_postgresql_two_requests_at_once_keep_both(pg_url):
    from miai.server.people.progress import (
        read_progress,
        read_solved,
        record_progress,
        record_solved,
    )
    from miai.server.storage.schema import users

    async def run():
        engine = open_engine(pg_url)
        try:
            await migrate(engine)
            async with engine.begin() as conn:
                user_id = (await conn.execute(users.insert().values(
                    username="solver-pg", username_key="solver-pg", password_hash="x", created_ms=1).returning(users.c.id))).scalar_one()
            await asyncio.gather(record_solved(engine, user_id, "cap-1", 10), record_solved(engine, user_id, "cap-1", 11),
                                 record_solved(engine, user_id, "live-2", 12), record_progress(engine, user_id, "02-capture", 2, 13))  # fmt: skip
            return await read_solved(engine, user_id), await read_progress(engine, user_id)
        finally:
            await engine.dispose()

    assert asyncio.run(run()) == (["cap-1", "live-2"], {"02-capture": 2})
