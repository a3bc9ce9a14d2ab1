"""Group commit (miai.server.storage.batch) through the store: concurrent actions of many games share
transactions, every one is committed before it is answered, and one write that fails fails
alone."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from miai.coords import Color
from miai.server.storage.batch import GroupCommit
from miai.server.storage.store import WriteConflict
from tests.server.storage.test_store import move, record, with_store

GAMES = 40


def test_concurrent_actions_of_many_games_share_transactions_and_all_commit(tmp_path):
    async def body(store):
        for i in range(GAMES):
            await store.create_game(record(f"g{i}"))

        async def play(i: int) -> None:
            for v, vertex in enumerate(["D4", "E5", "F6"], start=1):
                color = Color.BLACK if v % 2 else Color.WHITE
                await store.append(f"g{i}", [move(v, vertex, color)], status="play", result=None, ended_ms=None)

        await asyncio.gather(*(play(i) for i in range(GAMES)))
        rows = [await store.load_game(f"g{i}") for i in range(GAMES)]
        events = [await store.load_events(f"g{i}") for i in range(GAMES)]
        return store.event_commits, rows, events

    batches, rows, events = with_store(tmp_path, body)
    assert all(r.v == 3 for r in rows)
    assert all([e.payload["move"] for e in es] == ["D4", "E5", "F6"] for es in events)
    assert 0 < batches < 3 * GAMES  # writes were grouped: fewer commits than actions


def test_a_stale_write_fails_alone_and_the_rest_of_its_batch_commits(tmp_path):
    async def body(store):
        for i in range(3):
            await store.create_game(record(f"g{i}"))
        await store.append("g1", [move(1, "D4", Color.BLACK)], status="play", result=None, ended_ms=None)

        async def append(game: str, vertex: str) -> str:
            try:
                await store.append(game, [move(1, vertex, Color.BLACK)], status="play", result=None, ended_ms=None)
            except WriteConflict:
                return "conflict"
            return "ok"

        outcomes = await asyncio.gather(append("g0", "C3"), append("g1", "C3"), append("g2", "C3"))
        return outcomes, [await store.load_events(f"g{i}") for i in range(3)]

    outcomes, events = with_store(tmp_path, body)
    assert outcomes == ["ok", "conflict", "ok"]
    assert [[e.payload["move"] for e in es] for es in events] == [["C3"], ["D4"], ["C3"]]


def test_a_transaction_that_cannot_commit_fails_every_write_of_it():
    class Broken(Exception):
        pass

    @contextlib.asynccontextmanager
    async def begin():
        yield object()
        raise Broken("the disk is full")

    async def write(conn) -> None:
        return None

    async def scenario() -> list[BaseException | None]:
        group = GroupCommit(begin)  # type: ignore[arg-type]
        return await asyncio.gather(*(group.run(write) for _ in range(5)), return_exceptions=True)

    outcomes = asyncio.run(scenario())
    assert all(isinstance(o, Broken) for o in outcomes)


def test_nothing_is_answered_before_its_transaction_has_committed():
    committed: list[int] = []
    answered: list[int] = []
    writes: list[int] = []

    @contextlib.asynccontextmanager
    async def begin():
        start = len(writes)
        yield object()
        await asyncio.sleep(0.01)  # the fsync
        committed.extend(writes[start:])

    def writer(i: int):
        async def write(conn) -> None:
            writes.append(i)
        return write

    async def one(i: int) -> None:
        await group.run(writer(i))
        assert i in committed, f"write {i} answered before its commit"
        answered.append(i)

    async def scenario() -> None:
        nonlocal group
        group = GroupCommit(begin)  # type: ignore[arg-type]
        await asyncio.gather(*(one(i) for i in range(30)))

    group: GroupCommit
    asyncio.run(scenario())
    assert sorted(answered) == list(range(30)) and group.batches >= 1


@pytest.mark.parametrize("size", [1, 2])
def test_a_lone_write_keeps_its_own_error(size):
    async def scenario():
        @contextlib.asynccontextmanager
        async def begin():
            yield object()

        async def bad(conn) -> None:
            raise WriteConflict("taken")

        async def good(conn) -> None:
            return None

        group = GroupCommit(begin)  # type: ignore[arg-type]
        writes = [bad, good][:size]
        return await asyncio.gather(*(group.run(w) for w in writes), return_exceptions=True)

    outcomes = asyncio.run(scenario())
    assert isinstance(outcomes[0], WriteConflict)
    assert outcomes[1:] == [None] * (size - 1)
