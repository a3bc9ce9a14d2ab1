"""The store: one transaction per action, and the (game_id, v) fence against a second writer."""

from __future__ import annotations

import asyncio

import pytest

from miai.coords import Color
from miai.server.play.events import Event, EventKind
from miai.server.play.seats import GameRecord
from miai.server.storage.db import migrate, open_engine
from miai.server.storage.store import Store, WriteConflict


def record(game_id: str = "g1") -> GameRecord:
    return GameRecord(
        id=game_id, size=9, rules="japanese komi=6.5", handicap=0, komi=6.5, time_control="none",
        black_kind="human", white_kind="human", black_token_hash="b" * 64, white_token_hash="w" * 64,
        status="play", result=None, v=0, created_ms=1,
    )


def move(v: int, vertex: str, color: Color) -> Event:
    name = "black" if color is Color.BLACK else "white"
    return Event(v, EventKind.MOVE, {"color": name, "move": vertex}, color, 1000 + v, None, f"play {vertex}")


def with_store(tmp_path, body):
    async def run():
        engine = open_engine(str(tmp_path / "miai.db"))
        await migrate(engine)
        try:
            return await body(Store(engine))
        finally:
            await engine.dispose()

    return asyncio.run(run())


def test_events_and_the_game_row_are_written_together(tmp_path):
    async def body(store):
        await store.create_game(record())
        await store.append("g1", [move(1, "D4", Color.BLACK)], status="play", result=None, ended_ms=None)
        await store.append("g1", [move(2, "E5", Color.WHITE), move(3, "F6", Color.BLACK)], status="play", result=None, ended_ms=None)
        return await store.load_game("g1"), await store.load_events("g1"), await store.load_events("g1", after=2)

    row, events, tail = with_store(tmp_path, body)
    assert row.v == 3
    assert [(e.v, e.payload["move"], e.seat, e.request) for e in events] == [
        (1, "D4", Color.BLACK, "play D4"), (2, "E5", Color.WHITE, "play E5"), (3, "F6", Color.BLACK, "play F6")
    ]
    assert [e.v for e in tail] == [3]


def test_a_second_writer_of_the_same_version_is_refused_and_changes_nothing(tmp_path):
    async def body(store):
        await store.create_game(record())
        await store.append("g1", [move(1, "D4", Color.BLACK)], status="play", result=None, ended_ms=None)
        with pytest.raises(WriteConflict):
            await store.append("g1", [move(1, "C3", Color.BLACK)], status="play", result=None, ended_ms=None)
        with pytest.raises(WriteConflict):  # a gap: the game's row is not at version 2
            await store.append("g1", [move(3, "C3", Color.BLACK)], status="finished", result="B+R", ended_ms=5)
        return await store.load_game("g1"), await store.load_events("g1")

    row, events = with_store(tmp_path, body)
    assert (row.v, row.status, row.result) == (1, "play", None)
    assert [(e.v, e.payload["move"]) for e in events] == [(1, "D4")]


def test_an_unknown_game_is_none(tmp_path):
    async def body(store):
        return await store.load_game("nope"), await store.load_events("nope")

    assert with_store(tmp_path, body) == (None, [])


def test_on_sqlite_write_transactions_take_turns_and_all_commit(tmp_path):
    """Many games committing at once: never two write transactions open together (they wait
    in order instead of sleeping in SQLite's busy handler), and every event is written."""
    import sqlalchemy as sa

    games = [f"g{i}" for i in range(12)]
    open_now, most = 0, 0

    async def body(store):
        def began(conn):
            nonlocal open_now, most
            open_now += 1
            most = max(most, open_now)

        def ended(conn):
            nonlocal open_now
            open_now -= 1

        sync = store.engine.sync_engine
        sa.event.listen(sync, "begin", began)
        sa.event.listen(sync, "commit", ended)
        sa.event.listen(sync, "rollback", ended)
        await asyncio.gather(*(store.create_game(record(g)) for g in games))
        for v, vertex in ((1, "D4"), (2, "E5"), (3, "F6")):
            color = Color.BLACK if v % 2 else Color.WHITE
            await asyncio.gather(
                *(store.append(g, [move(v, vertex, color)], status="play", result=None, ended_ms=None) for g in games)
            )
        return [await store.load_events(g) for g in games], [await store.load_game(g) for g in games]

    events, rows = with_store(tmp_path, body)
    assert most == 1
    assert [[e.v for e in es] for es in events] == [[1, 2, 3]] * len(games)
    assert {row.v for row in rows} == {3}


def test_the_versions_of_many_games_are_read_together_and_unknown_ids_left_out(tmp_path):
    async def body(store):
        for n in range(3):
            await store.create_game(record(f"g{n}"))
        await store.append("g1", [move(1, "D4", Color.BLACK), move(2, "E5", Color.WHITE)], status="play", result=None, ended_ms=None)
        many = [f"x{n}" for n in range(1200)] + ["g0", "g1"]  # more than one query's worth of ids
        return await store.versions(many), await store.versions([])

    found, none = with_store(tmp_path, body)
    assert found == {"g0": 0, "g1": 2} and none == {}
