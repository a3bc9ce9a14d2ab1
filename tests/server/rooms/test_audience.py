"""Who follows a game (miai.server.rooms.audience): presence is announced at most once per
``presence_interval_ms`` per game, on the room's timekeeper (a fake time here). Before, every
join or leave sent a frame to every watcher: 1,500 sockets cost a quadratic number of frames
and stalled a request on another game for 14 to 17 s."""

from __future__ import annotations

import asyncio
from contextlib import ExitStack

from miai.server.rooms.audience import Pace
from miai.testing.manualtime import ManualTime
from tests.server.conftest import Table, make_client


def test_a_crowd_joining_is_one_presence_frame_per_interval(db):
    time = ManualTime()
    with make_client(db, time=time, presence_interval_ms=1_000) as client:
        table = Table(client, size=9)
        url = f"/ws/game/{table.id}?v=0"
        with client.websocket_connect(url) as watcher, ExitStack() as crowd:
            assert watcher.receive_json()["t"] == "hello"
            for _ in range(20):
                crowd.enter_context(client.websocket_connect(url)).receive_json()
            watcher.send_json({"t": "ping"})
            assert watcher.receive_json()["t"] == "pong"  # no presence frame yet: 20 joins are one notice
            time.advance(1_000)
            presence = watcher.receive_json()
            assert presence["t"] == "presence" and presence["d"]["spectators"] == 21
            watcher.send_json({"t": "ping"})
            assert watcher.receive_json()["t"] == "pong"


def test_pace_runs_at_once_then_once_at_the_end_of_the_interval():
    async def main() -> None:
        time = ManualTime(monotonic_ms=0)
        runs: list[tuple[int, object]] = []
        pace = Pace(time, 1_000, lambda but: runs.append((time.monotonic_ms(), but)))
        pace.ask("newcomer")  # type: ignore[arg-type]
        for _ in range(5):
            pace.ask()
        assert runs == [(0, "newcomer")] and pace.pending
        await time.advance_async(1_000)
        assert runs == [(0, "newcomer"), (1_000, None)] and not pace.pending
        await time.advance_async(5_000)
        pace.ask()
        pace.ask()
        pace.cancel()
        await time.advance_async(5_000)
        assert runs[-1] == (6_000, None) and len(runs) == 3

    asyncio.run(main())
