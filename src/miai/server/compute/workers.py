"""The worker processes: the computer's moves and the dead-stone estimate never run on the
event loop.

:class:`Workers` owns a small :class:`~concurrent.futures.ProcessPoolExecutor`, started on first
use with the ``forkserver`` method (so that no thread of the server is forked); each worker
loads the compiled kernel once, rebuilds a game from its events (a few milliseconds) and
answers with plain values. A worker exits as soon as the server process is gone, even after
a ``kill -9``.

Two pools (:class:`Pool`), so that one client's uploads and analyses never delay a game: the
game's (``play``: the computer's moves first, then the estimates, :class:`Lane`) and the
reviews' (uploads and analyses). Eight parallel 1 MB upload bombs from one address pushed a
computer's reply from 0.12 to 34.6 s when they shared one pool, and it lost on time. A worker
that grows above ``max_rss_mb`` is replaced after its job (:meth:`Pool.check_memory`).

An uploaded record is read here too, under a time limit (:meth:`Workers.read_review`). A
task running in a :class:`ProcessPoolExecutor` cannot be cancelled from outside, so the
limit is enforced inside the worker: :func:`time_limited` arms a ``SIGALRM`` timer that
raises in the task's own (main) thread, and the worker is free again at once. Python runs
the handler between bytecodes, and the SGF reader is pure Python with short calls into the
kernel, so it stops within milliseconds of the limit. On its side the server waits at most
``review_wait_seconds`` in all, queueing behind other uploads and analyses, then answers 503
(and a job still queued is dropped).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import heapq
import itertools
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
from miai.server.errors import (
    BadRequest,
    Busy,
    IllegalAction,
    RecordUnreadable,
    Unavailable,
)
from miai.server.records.review import read_review

__all__ = ["Lane", "Pool", "Workers", "rss_bytes", "time_limited"]

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


ESTIMATE_WAIT_S = 30.0
"""How long a score estimate may take in its worker (it starts at once or is refused)."""

WORKER_NICE = 10
"""How much lower the workers' CPU priority is than the server's: when the machine is busy, the
event loop that answers every player goes first, and the estimates and computer moves (whose
budgets are wall-clock time) get what is left. Measured: p99 after the ramp 140 against 192 ms
at 1,000 clients (BENCHMARKS.md, *several processes*)."""


def _start_worker(server_pid: int) -> None:
    """Each worker: watch the server, lower its priority (:data:`WORKER_NICE`), and load the
    compiled kernel once (:func:`warm_kernel`)."""
    threading.Thread(target=_watch, args=(server_pid,), name="miai server watch", daemon=True).start()
    os.nice(WORKER_NICE)
    warm_kernel()


WARM_POSITION = Position(size=9, rules="japanese", handicap=0, moves=((None, "E5", ()), (None, "C3", ())))


def warm_kernel() -> None:
    """Run a tiny search and a dead-stone estimate, so that every compiled function the jobs call
    is loaded from numba's disk cache (a second or two) or, on the first start after an install,
    compiled and cached (minutes on a small machine): before a worker takes its first job, never
    in it (the first analysis after an install was a 503 after 30 s)."""
    analyse_position(WARM_POSITION, 0.05, 50)
    estimate_dead_stones((9, "japanese", 0), [("move", {"color": "black", "move": "E5"}), ("pass", {"color": "white"}), ("pass", {"color": "black"})])


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


def rss_bytes(pid: int) -> int | None:
    """The resident memory of process ``pid`` (None when it is gone or unreadable)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


class Pool:
    """One pool of worker processes (``name``: ``play`` or ``reviews``), started on first use, or
    the ``executor`` passed in (tests share one, or drive a fake). A pool whose worker died is
    replaced; one whose worker grew above ``max_rss_bytes`` is replaced after the job that made
    it grow (its jobs under way finish in the old processes, which then exit)."""

    def __init__(self, name: str, processes: int, executor: Executor | None = None, max_rss_bytes: int | None = None):
        self.name = name
        self.processes = max(1, processes)
        self.max_rss_bytes = max_rss_bytes
        self._executor = executor
        self._owned = executor is None
        self._lock = threading.Lock()
        """Submissions come from threads (see :meth:`Lane.run`): the pool is created once."""
        self.recycled = 0
        """How many times the pool was replaced because a worker grew above the limit."""
        self._closed = False

    def start(self) -> None:
        """Start the processes now (blocking: call it from a thread) and wait until each has
        loaded the compiled kernel, so that the first job does not pay for it. A pool passed in
        (tests) is left as it is."""
        if not self._owned or self._closed:
            return
        pool = self._pool()
        for job in [pool.submit(_ready) for _ in range(self.processes)]:
            try:
                job.result()
            except (BrokenProcessPool, concurrent.futures.CancelledError):
                if self._closed:  # the server stopped before its workers were up
                    return
                raise

    def pids(self) -> list[int]:
        """The process ids of the pool's workers running now."""
        with self._lock:
            processes = getattr(self._executor, "_processes", None)  # ProcessPoolExecutor's own table
            return sorted(p.pid for p in (processes or {}).values() if p.is_alive())

    def _pool(self) -> Executor:
        with self._lock:
            if self._executor is None:
                self._owned = True
                context = multiprocessing.get_context("forkserver")
                self._executor = ProcessPoolExecutor(
                    self.processes, mp_context=context, initializer=_start_worker, initargs=(os.getpid(),)
                )
            return self._executor

    def submit(self, fn: Any, *args: Any) -> concurrent.futures.Future[Any]:
        """``fn(*args)`` in a worker (blocking the first time, or after a worker died: call it
        from a thread)."""
        try:
            return self._pool().submit(fn, *args)
        except BrokenProcessPool:
            # a worker died (killed, out of memory): the pool is unusable for good, so it is
            # replaced, and the jobs that were running in it fail to their callers (who retry)
            log.error("a worker process of the %s pool died: starting a new pool", self.name)
            self._replace(cancel=True)
            return self._pool().submit(fn, *args)

    def _replace(self, *, cancel: bool) -> None:
        with self._lock:
            old, self._executor = self._executor, None
        if self._owned and old is not None:
            old.shutdown(wait=False, cancel_futures=cancel)

    def check_memory(self) -> None:
        """After a job (blocking: call it from a thread): replace the pool if a worker has grown
        above the limit (a worker's heap never shrinks back: 8 upload bombs took one from 267
        to 815 MB, and it stayed there), and start the new one at once."""
        if self.max_rss_bytes is None or not self._owned:
            return
        sizes = [rss_bytes(pid) or 0 for pid in self.pids()]
        if not sizes or max(sizes) <= self.max_rss_bytes:
            return
        log.warning(
            "a worker of the %s pool holds %d MB (more than %d MB): replacing it",
            self.name, max(sizes) >> 20, self.max_rss_bytes >> 20,
        )
        self.recycled += 1
        self._replace(cancel=False)  # the jobs already given to it still finish there
        self.start()

    def close(self) -> None:
        """Stop the pool without waiting: the jobs not begun are cancelled and the workers still
        busy are ended (a computer's move, or the kernel compiling on the first start after an
        install, which takes minutes), so that a server told to stop stops now; their jobs fail."""
        with self._lock:
            executor, self._executor = self._executor, None
            self._closed = True
        if self._owned and executor is not None:
            processes = list((getattr(executor, "_processes", None) or {}).values())  # as pids() reads them
            executor.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                if process.is_alive():
                    process.terminate()


class Lane:
    """The jobs of one :class:`Pool`, at most ``slots`` in it at a time (one per process), the
    urgent ones first: a job knows when a worker takes it. A waiting job whose caller gives up
    (a time-out) leaves the queue without running."""

    def __init__(self, pool: Pool, slots: int):
        self.pool = pool
        self.slots = max(1, slots)
        self._busy = 0
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()

    @property
    def full(self) -> bool:
        """Every slot is taken: a job now would wait."""
        return self._busy >= self.slots

    @property
    def queued(self) -> int:
        """Jobs waiting for a worker."""
        return sum(1 for *_, gate in self._waiting if not gate.done())

    async def run(
        self, fn: Any, *args: Any, urgent: bool = False, waiting: Callable[[], None] | None = None,
        started: Callable[[], None] | None = None,
    ) -> Any:
        """``fn(*args)`` in a worker once one is free; ``waiting()`` is called if it has to wait
        first, and ``started()`` when a worker takes it after that wait."""
        loop = asyncio.get_running_loop()
        if self._busy < self.slots:
            self._busy += 1
        else:
            gate: asyncio.Future[None] = loop.create_future()
            heapq.heappush(self._waiting, (0 if urgent else 1, next(self._seq), gate))
            if waiting is not None:
                waiting()
            try:
                await gate
            except asyncio.CancelledError:
                if gate.done() and not gate.cancelled():
                    self._release()  # the slot was handed over just as the caller gave up
                raise
            if started is not None:
                started()
        try:
            # submit() in a thread: the first one (or one after a worker died) starts processes,
            # the fork server included, which blocked the event loop for up to a second under load
            future = await asyncio.to_thread(self.pool.submit, fn, *args)
        except BaseException:
            self._release()
            raise
        future.add_done_callback(lambda _: _call_soon(loop, self._done))
        return await asyncio.wrap_future(future)

    def _done(self) -> None:
        """A job ended in its worker (even if its caller gave up): the next one goes, and the
        pool's memory is checked (off the loop: replacing a pool starts processes)."""
        self._release()
        if self.pool.max_rss_bytes is not None:
            asyncio.get_running_loop().run_in_executor(None, _logged, self.pool.check_memory)

    def _release(self) -> None:
        while self._waiting:
            *_, gate = heapq.heappop(self._waiting)
            if not gate.done():
                gate.set_result(None)  # the slot passes to it
                return
        self._busy -= 1


def _call_soon(loop: asyncio.AbstractEventLoop, fn: Callable[[], None]) -> None:
    """``fn()`` on ``loop`` from any thread, unless the loop has closed (the server stopped)."""
    try:
        loop.call_soon_threadsafe(fn)
    except RuntimeError:
        pass


def _logged(fn: Callable[[], None]) -> None:
    try:
        fn()
    except Exception:
        log.exception("the worker pool's check failed")


class Workers:
    """The worker pools: ``play`` for the computer's moves and the dead-stone estimate (the
    computer's moves first), ``reviews`` for uploaded records and analyses, so that no upload
    or analysis ever delays a game. ``executor`` replaces both (tests share one, or drive a fake)."""

    def __init__(
        self, workers: int = 1, executor: Executor | None = None, *, review_workers: int = 1,
        max_rss_mb: int | None = None,
    ):
        limit = max_rss_mb << 20 if max_rss_mb is not None else None
        self.play = Pool("play", workers, executor, limit)
        self.reviews = Pool("reviews", review_workers, executor, limit) if executor is None else self.play
        self._play = Lane(self.play, workers)
        self._reviews = Lane(self.reviews, review_workers) if executor is None else self._play
        self.ready = executor is not None
        """The pools' workers have started with their kernel loaded (:meth:`start`): before, a job
        may wait for the kernel to load, or to compile on the first start after an install."""

    @property
    def workers(self) -> int:
        return self.play.processes

    def start(self) -> None:
        """Start both pools' workers now, the game's first (blocking: call it from a thread;
        :meth:`Pool.start`), each worker with its kernel loaded (:func:`warm_kernel`): started
        lazily, the fork server's and the workers' imports took a second or two of CPU just when
        the first games ended, and the first analysis after an install waited for the kernel to
        compile. Until it returns, :attr:`ready` is False."""
        self.play.start()
        self.reviews.start()
        self.ready = True

    def pids(self) -> list[int]:
        """The process ids of the worker processes running now, of both pools."""
        return sorted({*self.play.pids(), *self.reviews.pids()})

    async def run(self, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` in a worker process of the game's pool (``fn`` and its arguments must pickle)."""
        return await self._play.run(fn, *args)

    async def dead_stones(self, spec: GameSpec, events: Events) -> tuple[list[str], list[str]]:
        """The estimated dead and seki stones of the game after ``events`` (after the computer's moves)."""
        result: tuple[list[str], list[str]] = await self._play.run(estimate_dead_stones, spec.to_text(), events)
        return result

    async def estimate(self, spec: GameSpec, events: Events) -> tuple[list[str], list[str]]:
        """The estimated dead and seki stones during play, for a player who asks for the score,
        in a worker of the reviews' pool: :class:`Busy` (503) at once when none is free, never
        queued (a game's own jobs have the other pool)."""
        if self._reviews.full:
            raise Busy("every worker is busy: ask for the estimate again in a moment")
        result: tuple[list[str], list[str]] = await _answer(
            self._reviews.run(estimate_dead_stones, spec.to_text(), events), ESTIMATE_WAIT_S, "estimate the score"
        )
        return result

    async def computer_action(
        self, game_id: str, spec: GameSpec, events: Events, level: int, max_seconds: float, *,
        waiting: Callable[[], None] | None = None, started: Callable[[], None] | None = None,
    ) -> tuple[str, dict[str, Any]]:
        """What the computer seat of game ``game_id`` whose turn it is does after ``events``
        (a worker keeps the game's player and its tree for the next move): first in the queue;
        ``waiting()`` and ``started()`` tell the room when it waits for a worker, and when one
        takes it (its clock does not run meanwhile)."""
        result: tuple[str, dict[str, Any]] = await self._play.run(
            computer_action, game_id, spec.to_text(), events, level, max_seconds,
            urgent=True, waiting=waiting, started=started,
        )
        return result

    async def analyse(
        self, position: Position, *, seconds: float, playouts: int, wait_seconds: float
    ) -> dict[str, Any]:
        """The computer's analysis of ``position`` (:mod:`miai.server.compute.analysis`), searched in a
        worker of the reviews' pool for at most ``seconds`` and ``playouts``. Raises
        :class:`IllegalAction` (422, with the rule) for an illegal move in the request,
        :class:`BadRequest` for a vertex off the board or a game already over,
        :class:`Unavailable` (503) when no worker answered within ``wait_seconds`` (all busy: retry)."""
        job = self._reviews.run(analyse_position, position, seconds, playouts)
        kind, value = await _answer(job, wait_seconds, "analyse the position", starting=not self.ready)
        if kind == "illegal":
            n, message, reason = value
            raise IllegalAction(message, reason=reason, move=n)
        if kind == "invalid":
            raise BadRequest(str(value))
        answer: dict[str, Any] = value
        return answer

    async def review_job(self, fn: Any, *args: Any, wait_seconds: float, what: str) -> Any:
        """``fn(*args)`` in a worker of the reviews' pool (``fn`` and its arguments must pickle);
        :class:`Unavailable` (503) when no worker could ``what`` within ``wait_seconds``."""
        return await _answer(self._reviews.run(fn, *args), wait_seconds, what)

    async def read_review(
        self, data: bytes | str, *, max_moves: int, max_seconds: float, wait_seconds: float
    ) -> tuple[dict[str, Any], str]:
        """The review of an uploaded record (:mod:`miai.server.records.review`) and the record as
        SGF in UTF-8, read in a worker of the reviews' pool in at most ``max_seconds``. Raises :class:`RecordUnreadable` (422)
        for a record that cannot be read or takes too long, :class:`Unavailable` (503) when no
        worker took the job within ``wait_seconds`` (all busy: retry)."""
        job = self._reviews.run(time_limited, max_seconds, read_review, data, max_moves)
        status, answer = await _answer(job, wait_seconds, "read the record", starting=not self.ready)
        if status == "timeout":
            raise RecordUnreadable(f"reading the record took more than {max_seconds:g} s: it was not read")
        kind, value = answer
        if kind == "review":
            review: tuple[dict[str, Any], str] = value
            return review
        if kind == "bug":
            log.error("the SGF reader failed on an uploaded record: %s", value)
            raise RecordUnreadable(f"the record could not be read ({value.splitlines()[0]})")
        raise RecordUnreadable(value)

    def close(self) -> None:
        self.play.close()
        self.reviews.close()


async def _answer(job: Awaitable[Any], wait_seconds: float, what: str, *, starting: bool = False) -> Any:
    """The worker's answer to ``job``; :class:`Unavailable` (503: retry) when no worker could
    ``what`` within ``wait_seconds`` (all busy, or ``starting``: the workers are still loading or
    compiling the kernel, which the answer says with ``"starting": true``) or the worker failed (logged)."""
    try:
        return await asyncio.wait_for(job, wait_seconds)
    except asyncio.TimeoutError:
        if starting:
            raise Unavailable(
                f"the computer is still starting (loading or compiling its kernel): could not {what} within {wait_seconds:g} s; retry in a minute",
                starting=True,
            ) from None
        raise Unavailable(f"no worker could {what} within {wait_seconds:g} s: retry later") from None
    except Exception:
        log.exception("a worker failed to %s", what)
        raise Unavailable(f"the worker failed to {what}: retry later") from None
