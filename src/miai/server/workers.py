"""The worker processes: the computer's moves and the dead-stone estimate never run on the
event loop.

:class:`Workers` owns a small :class:`~concurrent.futures.ProcessPoolExecutor`, started on first
use with the ``forkserver`` method (so that no thread of the server is forked); each worker
loads the compiled kernel once, rebuilds a game from its events (a few milliseconds) and
answers with plain values. A worker exits as soon as the server process is gone, even after
a ``kill -9``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
import select
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from miai.server.computer import computer_action
from miai.server.estimate import estimate_dead_stones
from miai.server.events import GameSpec

__all__ = ["Workers"]

Events = list[tuple[str, dict[str, Any]]]


def _server_gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    try:  # a killed server not yet reaped by its parent is a zombie: gone too
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] == b"Z"
    except OSError:
        return False


def _watch(pid: int) -> None:
    """In a worker: exit as soon as the server process ``pid`` is gone.

    A worker blocks reading its job queue, whose writing end it also holds, so it would never
    see the server die: after a ``kill -9`` it would live on (and keep the fork server alive)."""
    pidfd_open = getattr(os, "pidfd_open", None)
    if pidfd_open is not None:
        try:
            fd = pidfd_open(pid)
        except OSError:
            fd = None
        if fd is not None:
            while not _server_gone(pid):
                select.select([fd], [], [], 5.0)
            os._exit(0)
    while not _server_gone(pid):
        time.sleep(1.0)
    os._exit(0)


def _start_worker(server_pid: int) -> None:
    """Each worker: watch the server, and load the compiled kernel once (numba's disk cache)."""
    threading.Thread(target=_watch, args=(server_pid,), name="miai server watch", daemon=True).start()
    import miai.ai.mcts  # noqa: F401
    import miai.ai.status  # noqa: F401


class Workers:
    """The worker pool. ``executor`` replaces it (tests share one, or drive a fake)."""

    def __init__(self, workers: int = 1, executor: Executor | None = None):
        self.workers = max(1, workers)
        self._executor = executor
        self._owned = executor is None
        self._lock = threading.Lock()
        """Submissions come from threads (see :meth:`_run`): the pool is created once."""

    def _pool(self) -> Executor:
        with self._lock:
            return self._pool_locked()

    def _pool_locked(self) -> Executor:
        if self._executor is None:
            context = multiprocessing.get_context("forkserver")
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_start_worker, initargs=(os.getpid(),)
            )
        return self._executor

    async def _run(self, fn: Any, *args: Any) -> Any:
        # submit() in a thread: the first one (or one after a worker died) starts processes,
        # the fork server included, which blocked the event loop for up to a second under load
        future = await asyncio.to_thread(self._submit, fn, *args)
        return await asyncio.wrap_future(future)

    def _submit(self, fn: Any, *args: Any) -> concurrent.futures.Future[Any]:
        return self._pool().submit(fn, *args)

    async def dead_stones(self, spec: GameSpec, events: Events) -> tuple[list[str], list[str]]:
        """The estimated dead and seki stones of the game after ``events``."""
        result: tuple[list[str], list[str]] = await self._run(estimate_dead_stones, spec.to_text(), events)
        return result

    async def computer_action(
        self, spec: GameSpec, events: Events, level: int, max_seconds: float
    ) -> tuple[str, dict[str, Any]]:
        """What the computer seat whose turn it is does after ``events``."""
        result: tuple[str, dict[str, Any]] = await self._run(
            computer_action, spec.to_text(), events, level, max_seconds
        )
        return result

    def close(self) -> None:
        if self._owned and self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
        self._executor = None
