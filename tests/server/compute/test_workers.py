"""The worker pool seen from the event loop: starting it never blocks the loop."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import Future
from pathlib import Path

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
        pids = pool.play.pids()
        assert len(pids) == 2 and len(pool.reviews.pids()) == 1 and pool.ready  # the reviews' pool too
        assert asyncio.run(pool.run(os.getpid)) in pids  # the job ran in a worker already there
    finally:
        pool.close()


def test_closing_ends_a_busy_worker_at_once_so_a_server_told_to_stop_waits_for_no_job():
    """A worker still busy when the server stops (a computer's move, or the kernel compiling on
    the first start after an install, which takes minutes) is ended, not waited for: its job
    fails and the process is gone within seconds."""
    import threading
    from concurrent.futures.process import BrokenProcessPool

    pool = Workers(1)
    pool.start()
    (pid,) = pool.play.pids()
    job = pool.play.submit(time.sleep, 600)
    for _ in range(300):  # busy: the job handed to the worker (one not yet handed over is only cancelled)
        if job.running():
            break
        time.sleep(0.1)
    starter = threading.Thread(target=job.exception)  # as the server's start-up thread waits on its jobs
    starter.start()
    pool.close()
    starter.join(timeout=30)
    assert not starter.is_alive(), "closing the pool waited for the busy worker"
    assert isinstance(job.exception(timeout=0), BrokenProcessPool)
    for _ in range(100):  # the process itself is gone, not left to finish its sleep
        if not running(pid):
            break
        time.sleep(0.1)
    else:
        raise AssertionError(f"worker {pid} still running after the pool was closed")


def running(pid: int) -> bool:
    """Whether process ``pid`` is alive (a zombie, ended but not yet reaped, is not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_start_leaves_a_pool_passed_in_alone():
    class Counting(SlowStartPool):
        submitted = 0

        def submit(self, fn, *args):
            type(self).submitted += 1
            return super().submit(fn, *args)

    Workers(1, Counting()).start()
    assert Counting.submitted == 0


def test_the_server_starts_its_workers_with_itself_in_the_background_and_logs_when_ready(tmp_path, caplog):
    """The port opens at once; both pools start behind it, each worker with its kernel loaded
    (the first analysis after an install no longer waits for it to compile), and the log says
    when they are ready (issue 40, defect 4)."""
    import logging
    import time

    from starlette.testclient import TestClient

    from miai.server import ServerConfig, create_app

    app = create_app(ServerConfig(database_url=str(tmp_path / "games.db"), start_workers=True, allowed_hosts=("testserver",)))
    with caplog.at_level(logging.INFO, logger="miai.server"), TestClient(app) as client:
        assert client.get("/api/games?status=live").status_code == 200  # served while the workers start
        workers = app.state.server.workers
        deadline = time.monotonic() + 300
        while not workers.ready and time.monotonic() < deadline:
            time.sleep(0.1)
        assert workers.ready
        assert len(workers.play.pids()) == 1 and len(workers.reviews.pids()) == 1  # up before any job needed them

        def said_ready() -> bool:
            return any("the computer is ready" in r.getMessage() for r in caplog.records)

        while not said_ready() and time.monotonic() < deadline:  # the line follows the flag, from the event loop
            time.sleep(0.05)
        assert said_ready()
    late = create_app(ServerConfig(database_url=str(tmp_path / "other.db"), start_workers=False))
    with TestClient(late):
        assert late.state.server.workers.pids() == []


def test_uploads_and_analyses_have_their_own_workers():
    """A computer's move never waits behind an upload: they run in another pool's process."""
    import os

    from miai.server.compute.analysis import Position

    pool = Workers(1)
    try:
        asyncio.run(pool.read_review(b"(;SZ[9];B[ee])", max_moves=10, max_seconds=5, wait_seconds=30))
        asyncio.run(pool.analyse(Position(9, "chinese", 0), seconds=0.05, playouts=50, wait_seconds=30))
        game_worker = asyncio.run(pool.run(os.getpid))
        assert pool.reviews.pids() and game_worker not in pool.reviews.pids()
        assert pool.pids() == sorted({game_worker, *pool.reviews.pids()})
    finally:
        pool.close()


def test_the_computers_moves_go_first_and_a_caller_who_gives_up_leaves_the_queue():
    from miai.server.compute.workers import Lane, Pool
    from tests.server.compute.test_computer import HeldExecutor

    async def scenario() -> list[str]:
        held = HeldExecutor()
        lane = Lane(Pool("play", 1, held), 1)
        ran: list[str] = []
        notes: list[str] = []

        def job(name: str) -> str:
            ran.append(name)
            return name

        first = asyncio.create_task(lane.run(job, "first"))
        await asyncio.sleep(0.05)
        estimate = asyncio.create_task(lane.run(job, "estimate"))
        dropped = asyncio.create_task(lane.run(job, "dropped"))
        move = asyncio.create_task(
            lane.run(job, "move", urgent=True, waiting=lambda: notes.append("waits"), started=lambda: notes.append("runs"))
        )
        await asyncio.sleep(0.05)
        assert lane.queued == 3 and notes == ["waits"]
        dropped.cancel()
        for _ in range(3):
            while not held.jobs:
                await asyncio.sleep(0.01)
            held.release()
        assert await asyncio.gather(first, move, estimate) == ["first", "move", "estimate"]
        assert notes == ["waits", "runs"] and lane.queued == 0
        return ran

    assert asyncio.run(scenario()) == ["first", "move", "estimate"]


def test_a_worker_grown_above_the_limit_is_replaced_after_its_job():
    import os

    from miai.server.compute.workers import rss_bytes

    pool = Workers(1, max_rss_mb=1)  # every worker holds more than 1 MB: replaced after each job
    try:
        first = asyncio.run(pool.run(os.getpid))
        deadline = time.monotonic() + 30
        while pool.play.recycled == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert pool.play.recycled >= 1
        assert asyncio.run(pool.run(os.getpid)) != first
        assert rss_bytes(os.getpid()) is not None and rss_bytes(2**22 + 12345) is None
    finally:
        pool.close()


def test_one_upload_or_analysis_at_a_time_per_address():
    import pytest

    from miai.server.config import ServerConfig
    from miai.server.errors import TooManyRequests
    from miai.server.web.ratelimit import AddressLimits

    limits = AddressLimits(ServerConfig())

    async def scenario() -> None:
        async with limits.one_job("10.0.0.1"):
            with pytest.raises(TooManyRequests, match="one upload or analysis at a time") as refused:
                async with limits.one_job("10.0.0.1"):
                    pass
            assert refused.value.status == 429 and refused.value.extra["limit"] == "worker-jobs"
            async with limits.one_job("10.0.0.2"):  # another address
                pass
        async with limits.one_job("10.0.0.1"):  # the first one is answered: the next may go
            pass

    asyncio.run(scenario())
