"""A fake time for tests and simulations: :class:`ManualTime`, a
:class:`~miai.timesource.TimeSource` with timers (the server's
:class:`~miai.server.timekeeper.Timekeeper`) that moves only when told to
(:meth:`ManualTime.advance`), firing the timers that fall due on the way, in order, each run
to its end on the event loop that set it. No test has to sleep for a clock; a game clock
(:class:`miai.clock.Clock`) driven by it needs no event loop at all.
"""

from __future__ import annotations

import asyncio
import itertools
import threading

from miai.server.timekeeper import Handle, Wake, wake_quietly

__all__ = ["ManualTime"]


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
            asyncio.run_coroutine_threadsafe(wake_quietly(handle.wake), handle.loop).result(timeout=30)
        self._move_to(target)

    async def advance_async(self, ms: int) -> None:
        """:meth:`advance` from within the event loop that set the timers."""
        if ms < 0:
            raise ValueError("time does not go back")
        target = self._mono + ms
        while (handle := self._next_due(target)) is not None:
            self._move_to(handle.at_ms)
            await wake_quietly(handle.wake)
        self._move_to(target)
