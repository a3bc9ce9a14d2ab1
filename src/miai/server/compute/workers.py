"""The worker processes: the computer's moves and the dead-stone estimate never run on the
event loop.

:class:`Workers` owns a small :class:`~concurrent.futures.ProcessPoolExecutor`, started on first
use with the ``forkserver`` method (so that no thread of the server is forked); each worker
loads the compiled kernel once, rebuilds a game from its events (a few milliseconds) and
answers with plain values. A worker exits as soon as the server process is gone, even after
a ``kill -9``.

An uploaded record is read here too, under a time limit (:meth:`Workers.read_review`). A
task running in a :class:`ProcessPoolExecutor` cannot be cancelled from outside, so the
limit is enforced inside the worker: :func:`time_limited` arms a ``SIGALRM`` timer that
raises in the task's own (main) thread, and the worker is free again at once. Python runs
the handler between bytecodes, and the SGF reader is pure Python with short calls into the
kernel, so it stops within milliseconds of the limit. On its side the server waits at most
``review_wait_seconds`` in all, queueing behind a computer's move included, then answers 503
(and a job still queued is dropped).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import os
import select
import signal
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from miai.game import GameSpec
from miai.server.compute.analysis import Position, analyse_position
from miai.server.compute.computer import computer_action
from miai.server.compute.estimate import estimate_dead_stones
from miai.server.errors import BadRequest, IllegalAction, RecordUnreadable, Unavailable
from miai.server.records.review import read_review

__all__ = ["Workers", "time_limited"]

log = logging.getLogger("miai.server")

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


WORKER_NICE = 10
"""How much lower the workers' CPU priority is than the server's: when the machine is busy, the
event loop that answers every player goes first, and the estimates and computer moves (whose
budgets are wall-clock time) get what is left. Measured: p99 after the ramp 140 against 192 ms
at 1,000 clients (BENCHMARKS.md, *several processes*)."""


def _start_worker(server_pid: int) -> None:
    """Each worker: watch the server, lower its priority (:data:`WORKER_NICE`), and load the
    compiled kernel once (numba's disk cache)."""
    threading.Thread(target=_watch, args=(server_pid,), name="miai server watch", daemon=True).start()
    os.nice(WORKER_NICE)
    import miai.ai.mcts  # noqa: F401
    import miai.ai.status  # noqa: F401


def _ready() -> bool:
    """A job that does nothing: the worker that runs it has started (:meth:`Workers.start`)."""
    return True


class _TimeUp(BaseException):
    """Raised by the alarm in a worker; a BaseException so that no ``except Exception`` in
    the task swallows it."""


def _time_up(signum: int, frame: Any) -> None:
    raise _TimeUp


def time_limited(seconds: float, fn: Callable[..., Any], *args: Any) -> tuple[str, Any]:
    """In a worker: ``("done", fn(*args))``, or ``("timeout", seconds)`` when it runs longer
    than ``seconds`` (the alarm interrupts it; the worker is free again at once). Outside a
    main thread (a thread pool standing in for the workers) no alarm can be set: it just runs."""
    if threading.current_thread() is not threading.main_thread():
        return "done", fn(*args)
    previous = signal.getsignal(signal.SIGALRM)
    try:
        signal.signal(signal.SIGALRM, _time_up)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return "done", fn(*args)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except _TimeUp:
        return "timeout", seconds
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)  # the timer is one-shot: once fired it stays off
        signal.signal(signal.SIGALRM, previous)


class Workers:
    """The worker pool. ``executor`` replaces it (tests share one, or drive a fake)."""

    def __init__(self, workers: int = 1, executor: Executor | None = None):
        self.workers = max(1, workers)
        self._executor = executor
        self._owned = executor is None
        self._lock = threading.Lock()
        """Submissions come from threads (see :meth:`run`): the pool is created once."""

    def start(self) -> None:
        """Start the worker processes now (blocking: call it from a thread) and wait until each
        has loaded the compiled kernel, so that the first estimate or computer move does not
        pay for it: started lazily, the fork server's and the workers' imports take a second or
        two of CPU just when the first games end, while everyone else is playing. A pool
        passed in (tests) is left as it is."""
        if not self._owned:
            return
        pool = self._pool()
        for job in [pool.submit(_ready) for _ in range(self.workers)]:
            job.result()

    def pids(self) -> list[int]:
        """The process ids of the worker processes running now (none before the first job or
        :meth:`start`; a pool passed in that is not a process pool has none)."""
        with self._lock:
            processes = getattr(self._executor, "_processes", None)  # ProcessPoolExecutor's own table
            return sorted(p.pid for p in (processes or {}).values() if p.is_alive())

    def _pool(self) -> Executor:
        with self._lock:
            return self._pool_locked()

    def _pool_locked(self) -> Executor:
        if self._executor is None:
            self._owned = True
            context = multiprocessing.get_context("forkserver")
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_start_worker, initargs=(os.getpid(),)
            )
        return self._executor

    async def run(self, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` in a worker process (``fn`` and its arguments must pickle)."""
        # submit() in a thread: the first one (or one after a worker died) starts processes,
        # the fork server included, which blocked the event loop for up to a second under load
        future = await asyncio.to_thread(self._submit, fn, *args)
        return await asyncio.wrap_future(future)

    def _submit(self, fn: Any, *args: Any) -> concurrent.futures.Future[Any]:
        try:
            return self._pool().submit(fn, *args)
        except BrokenProcessPool:
            # a worker died (killed, out of memory): the pool is unusable for good, so it is
            # replaced, and the jobs that were running in it fail to their callers (who retry)
            log.error("a worker process died: starting a new pool")
            with self._lock:
                broken, self._executor = self._executor, None
                if self._owned and broken is not None:
                    broken.shutdown(wait=False, cancel_futures=True)
            return self._pool().submit(fn, *args)

    async def dead_stones(self, spec: GameSpec, events: Events) -> tuple[list[str], list[str]]:
        """The estimated dead and seki stones of the game after ``events``."""
        result: tuple[list[str], list[str]] = await self.run(estimate_dead_stones, spec.to_text(), events)
        return result

    async def computer_action(
        self, spec: GameSpec, events: Events, level: int, max_seconds: float
    ) -> tuple[str, dict[str, Any]]:
        """What the computer seat whose turn it is does after ``events``."""
        result: tuple[str, dict[str, Any]] = await self.run(
            computer_action, spec.to_text(), events, level, max_seconds
        )
        return result

    async def analyse(
        self, position: Position, *, seconds: float, playouts: int, wait_seconds: float
    ) -> dict[str, Any]:
        """The computer's analysis of ``position`` (:mod:`miai.server.compute.analysis`), searched in a
        worker for at most ``seconds`` and ``playouts``. Raises :class:`IllegalAction` (422,
        with the rule) for an illegal move in the request, :class:`BadRequest` for a vertex
        off the board or a game already over, :class:`Unavailable` (503) when no worker
        answered within ``wait_seconds`` (all busy: retry)."""
        job = self.run(analyse_position, position, seconds, playouts)
        kind, value = await _answer(job, wait_seconds, "analyse the position")
        if kind == "illegal":
            n, message, reason = value
            raise IllegalAction(message, reason=reason, move=n)
        if kind == "invalid":
            raise BadRequest(str(value))
        answer: dict[str, Any] = value
        return answer

    async def read_review(
        self, data: bytes | str, *, max_moves: int, max_seconds: float, wait_seconds: float
    ) -> dict[str, Any]:
        """The review of an uploaded record (:mod:`miai.server.records.review`), read in a worker in at
        most ``max_seconds``. Raises :class:`RecordUnreadable` (422) for a record that cannot
        be read or takes too long, :class:`Unavailable` (503) when no worker took the job
        within ``wait_seconds`` (all busy: retry)."""
        job = self.run(time_limited, max_seconds, read_review, data, max_moves)
        status, answer = await _answer(job, wait_seconds, "read the record")
        if status == "timeout":
            raise RecordUnreadable(f"reading the record took more than {max_seconds:g} s: it was not read")
        kind, value = answer
        if kind == "review":
            review: dict[str, Any] = value
            return review
        if kind == "bug":
            log.error("the SGF reader failed on an uploaded record: %s", value)
            raise RecordUnreadable(f"the record could not be read ({value.splitlines()[0]})")
        raise RecordUnreadable(value)

    def close(self) -> None:
        if self._owned and self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
        self._executor = None


async def _answer(job: Awaitable[Any], wait_seconds: float, what: str) -> Any:
    """The worker's answer to ``job``; :class:`Unavailable` (503: retry) when no worker could
    ``what`` within ``wait_seconds`` (all busy) or the worker failed (logged)."""
    try:
        return await asyncio.wait_for(job, wait_seconds)
    except asyncio.TimeoutError:
        raise Unavailable(f"no worker could {what} within {wait_seconds:g} s: retry later") from None
    except Exception:
        log.exception("a worker failed to %s", what)
        raise Unavailable(f"the worker failed to {what}: retry later") from None
