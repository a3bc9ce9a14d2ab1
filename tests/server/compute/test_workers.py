"""The worker pool seen from the event loop: starting it never blocks the loop."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import Future

from miai.game import GameSpec
from miai.rules import Rules
from miai.server.compute import workers as workers_module
from miai.server.compute.workers import Workers


class SlowStartPool:
    """Stands for a ProcessPoolExecutor whose submit() starts processes (blocking 0.2 s)."""

    made = 0

    def __init__(self, *args, **kwargs):
        type(self).made += 1

    def submit(self, fn, *args):
        time.sleep(0.2)
        future: Future = Future()
        future.set_result((["C3"], []))
        return future

    def shutdown(self, **kwargs):
        pass


def test_the_pool_starts_off_the_event_loop_and_only_once(monkeypatch):
    SlowStartPool.made = 0
    monkeypatch.setattr(workers_module, "ProcessPoolExecutor", SlowStartPool)
    spec = GameSpec(9, Rules.preset("chinese"))

    async def run():
        ticks = 0
        stop = asyncio.Event()

        async def ticker():
            nonlocal ticks
            while not stop.is_set():
                await asyncio.sleep(0.01)
                ticks += 1

        tick_task = asyncio.create_task(ticker())
        pool = Workers(1)
        answers = await asyncio.gather(*(pool.dead_stones(spec, []) for _ in range(3)))
        stop.set()
        await tick_task
        pool.close()
        return ticks, answers

    ticks, answers = asyncio.run(run())
    assert answers == [(["C3"], [])] * 3
    assert SlowStartPool.made == 1
    assert ticks >= 5  # the loop ran on while submit() blocked (0.2 s or more)


def test_a_pool_whose_worker_died_is_replaced():
    import os
    import signal
    from concurrent.futures.process import BrokenProcessPool

    pool = Workers(1)

    async def scenario() -> int:
        first = await pool.run(os.getpid)
        os.kill(first, signal.SIGKILL)
        for _ in range(100):  # a job caught in the dying pool may fail; the ones after it run
            try:
                pid = await pool.run(os.getpid)
            except BrokenProcessPool:
                continue
            assert pid != first
            return pid
        raise AssertionError("no job ran after the worker died: the broken pool was kept")

    try:
        assert asyncio.run(scenario()) > 0
    finally:
        pool.close()


def test_workers_run_at_a_lower_priority_than_the_server():
    import os

    from miai.server.compute.workers import WORKER_NICE

    pool = Workers(1)
    try:
        worker = asyncio.run(pool.run(os.nice, 0))  # os.nice(0) answers the current niceness
    finally:
        pool.close()
    assert worker == min(19, os.nice(0) + WORKER_NICE)


def test_start_brings_every_worker_up_before_the_first_job():
    import os

    pool = Workers(2)
    try:
        pool.start()
        pids = pool.pids()
        assert len(pids) == 2
        assert asyncio.run(pool.run(os.getpid)) in pids  # the job ran in a worker already there
    finally:
        pool.close()


def test_start_leaves_a_pool_passed_in_alone():
    class Counting(SlowStartPool):
        submitted = 0

        def submit(self, fn, *args):
            type(self).submitted += 1
            return super().submit(fn, *args)

    Workers(1, Counting()).start()
    assert Counting.submitted == 0


def test_the_server_starts_its_workers_with_itself(tmp_path):
    from starlette.testclient import TestClient

    from miai.server import ServerConfig, create_app

    app = create_app(ServerConfig(database_url=str(tmp_path / "games.db"), start_workers=True))
    with TestClient(app):
        assert len(app.state.server.workers.pids()) == 1  # up before any game needed it
    late = create_app(ServerConfig(database_url=str(tmp_path / "other.db"), start_workers=False))
    with TestClient(late):
        assert late.state.server.workers.pids() == []
