"""An inbox run by one asyncio task: the jobs of a game never interleave (Lichess's round actor).

Jobs run one at a time, to the end, even when whoever asked has gone; a job's error goes to
whoever asked. Once the actor is broken (a commit failed) or stopped, the jobs behind go
nowhere: their askers get :class:`RoomClosed` and ask the registry for the game again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

__all__ = ["Actor", "RoomClosed"]

T = TypeVar("T")
Job = Callable[[], Awaitable[Any]]


class RoomClosed(Exception):
    """The room stopped (unloaded or broken): ask the registry for the game again."""


class Actor:
    """The inbox of one game (``name``: for the task's name and errors) and its side tasks."""

    def __init__(self, name: str, *, closed: bool = False):
        self.name = name
        self.closed = closed
        """No more jobs are taken (stopped, or a read-only replica that never starts)."""
        self.broken = False
        """A commit failed: the jobs still queued are refused, not run."""
        self.busy = False
        self.last_used = 0.0
        self._inbox: asyncio.Queue[tuple[Job, asyncio.Future[Any]] | None] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._side_tasks: set[asyncio.Task[Any]] = set()

    @property
    def quiet(self) -> bool:
        """No job queued or running."""
        return not self.busy and self._inbox.empty()

    def start(self) -> None:
        self.last_used = asyncio.get_running_loop().time()
        self._task = asyncio.create_task(self._run(), name=f"miai room {self.name}")

    async def _run(self) -> None:
        while True:
            item = await self._inbox.get()
            if item is None:
                break
            job, future = item
            if self.broken:  # a commit failed: the jobs behind it go to a fresh room
                if not future.done():
                    future.set_exception(RoomClosed(self.name))
                continue
            self.busy = True
            try:
                await self._settle(job, future)
            finally:
                self.busy = False
                self.last_used = asyncio.get_running_loop().time()
        self._fail_pending()

    @staticmethod
    async def _settle(job: Job, future: asyncio.Future[Any]) -> None:
        """Run ``job`` and give its answer, or its error, to whoever asked."""
        try:
            result = await job()
        except asyncio.CancelledError:
            future.cancel()
            raise
        except Exception as e:
            if not future.done():
                future.set_exception(e)
        else:
            if not future.done():
                future.set_result(result)

    def _fail_pending(self) -> None:
        while not self._inbox.empty():
            item = self._inbox.get_nowait()
            if item is not None and not item[1].done():
                item[1].set_exception(RoomClosed(self.name))

    async def submit(self, job: Callable[[], Awaitable[T]]) -> T:
        """Run ``job`` in turn and return its answer (raises :class:`RoomClosed` if the actor
        stopped before running it)."""
        return await self.enqueue(job)

    def enqueue(self, job: Callable[[], Awaitable[T]]) -> asyncio.Future[T]:
        """Queue ``job``; the future holds its answer (for a job nobody awaits now)."""
        if self.closed:
            raise RoomClosed(self.name)
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._inbox.put_nowait((job, future))
        return future

    def spawn(self, coro: Awaitable[Any]) -> None:
        """Run ``coro`` beside the inbox (a worker's answer awaited); cancelled by :meth:`stop`."""
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._side_tasks.add(task)
        task.add_done_callback(self._side_tasks.discard)

    def fail(self) -> None:
        """A commit failed: refuse the queued jobs and stop (the registry loads a fresh room)."""
        self.broken = True

    async def stop(self) -> None:
        """Run the jobs already queued (unless broken), refuse later ones, cancel the side tasks."""
        self.closed = True
        self._inbox.put_nowait(None)
        for task in list(self._side_tasks):
            if task is not asyncio.current_task():
                task.cancel()
        if self._task is not None and self._task is not asyncio.current_task():
            try:
                await self._task
            except asyncio.CancelledError:
                pass
        self._fail_pending()
