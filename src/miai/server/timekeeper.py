"""Where a room's clocks read the time and set their timers: a :class:`Timekeeper`.

A game's clocks (:class:`miai.clock.Clock`) count in monotonic milliseconds read from an
injected ``now``; the room's timers (the flag, the marking timer) are set at a reading of that
same clock. A :class:`Timekeeper` provides both, so the two never disagree:

* :class:`SystemTime`, the server's: the system's monotonic clock and the event loop's timers;
* :class:`ManualTime`, for tests and simulations: a time that moves only when told to
  (:meth:`ManualTime.advance`), firing the timers that fall due on the way, in order, each
  run to its end on the event loop that set it. No test has to sleep for a clock.

A timer's ``wake`` is a coroutine function (the room's is "submit a job to my inbox and wait
for it"), so that :class:`ManualTime` can wait until what a timer set off is done.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from miai.clock import monotonic_ms

__all__ = ["Handle", "ManualTime", "SystemTime", "Timekeeper", "Wake"]

Wake = Callable[[], Awaitable[Any]]
"""What a timer does when it falls due."""


class Handle(Protocol):
    """A timer that is set: it can be cancelled (cancelling twice, or after it ran, is harmless)."""

    def cancel(self) -> None: ...


class Timekeeper(Protocol):
    """Monotonic milliseconds, and timers at a reading of them."""

    def monotonic_ms(self) -> int: ...

    def call_at(self, at_ms: int, wake: Wake) -> Handle:
        """Run ``wake()`` on the calling event loop once :meth:`monotonic_ms` reaches ``at_ms``."""
        ...


class SystemTime:
    """The system's monotonic clock, with timers of the running event loop."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def monotonic_ms(self) -> int:
        return monotonic_ms()

    def call_at(self, at_ms: int, wake: Wake) -> Handle:
        loop = asyncio.get_running_loop()
        delay = max(0, at_ms - self.monotonic_ms()) / 1000

        def fire() -> None:
            task: asyncio.Task[Any] = loop.create_task(_quietly(wake))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        return loop.call_later(delay, fire)


async def _quietly(wake: Wake) -> None:
    try:
        await wake()
    except asyncio.CancelledError:
        raise
    except Exception:  # the room logs its own failures; a timer has nobody to answer
        pass


class _ManualHandle:
    def __init__(self, at_ms: int, seq: int, wake: Wake, loop: asyncio.AbstractEventLoop):
        self.at_ms = at_ms
        self.seq = seq
        self.wake = wake
        self.loop = loop
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualTime:
    """A fake time for tests: monotonic and wall-clock milliseconds that move only by
    :meth:`advance`, and timers that fire during it.

    :meth:`advance` is called from a thread other than the event loop's (the test's thread
    next to Starlette's ``TestClient``); :meth:`advance_async` from the loop itself. Either
    returns once every timer that fell due has run to its end.
    """

    def __init__(self, monotonic_ms: int = 1_000_000, wall_ms: int = 1_700_000_000_000):
        self._mono = monotonic_ms
        self._wall = wall_ms
        self._timers: list[_ManualHandle] = []
        self._seq = itertools.count()
        self._lock = threading.Lock()

    def monotonic_ms(self) -> int:
        return self._mono

    def wall_ms(self) -> int:
        """Wall-clock milliseconds, moving with the monotonic time (what events record)."""
        return self._wall

    def call_at(self, at_ms: int, wake: Wake) -> Handle:
        handle = _ManualHandle(at_ms, next(self._seq), wake, asyncio.get_running_loop())
        with self._lock:
            self._timers.append(handle)
        return handle

    @property
    def pending(self) -> list[int]:
        """The times of the timers still set, earliest first."""
        with self._lock:
            return sorted(h.at_ms for h in self._timers if not h.cancelled)

    def _next_due(self, target: int) -> _ManualHandle | None:
        with self._lock:
            self._timers = [h for h in self._timers if not h.cancelled and not h.loop.is_closed()]
            due = [h for h in self._timers if h.at_ms <= target]
            if not due:
                return None
            handle = min(due, key=lambda h: (h.at_ms, h.seq))
            self._timers.remove(handle)
            return handle

    def _move_to(self, at_ms: int) -> None:
        if at_ms > self._mono:
            self._wall += at_ms - self._mono
            self._mono = at_ms

    def advance(self, ms: int, *, fire: bool = True) -> None:
        """Move the time on by ``ms``, running each timer that falls due at its own time
        (with ``fire=False`` they stay due: a timer that is late, which a later
        :meth:`advance` runs)."""
        if ms < 0:
            raise ValueError("time does not go back")
        target = self._mono + ms
        while fire and (handle := self._next_due(target)) is not None:
            self._move_to(handle.at_ms)
            asyncio.run_coroutine_threadsafe(_quietly(handle.wake), handle.loop).result(timeout=30)
        self._move_to(target)

    async def advance_async(self, ms: int) -> None:
        """:meth:`advance` from within the event loop that set the timers."""
        if ms < 0:
            raise ValueError("time does not go back")
        target = self._mono + ms
        while (handle := self._next_due(target)) is not None:
            self._move_to(handle.at_ms)
            await _quietly(handle.wake)
        self._move_to(target)
