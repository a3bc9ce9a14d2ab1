"""Where a room reads the time and sets its timers: a :class:`Timekeeper`.

A game's clocks (:class:`miai.clock.Clock`) count in the monotonic milliseconds of a
:class:`~miai.timesource.TimeSource`, events are stamped with its wall-clock milliseconds, and
the room's timers (the flag, the marking timer) are set at a reading of that same time. A
:class:`Timekeeper` is a time source with timers, so the three never disagree:

* :class:`SystemTimekeeper`, the server's: the system's time and the event loop's timers;
* ``miai.testing.manualtime.ManualTime``, for tests and simulations: a time that moves only
  when told to, firing the timers that fall due on the way, in order, each run to its end on
  the event loop that set it. No test has to sleep for a clock.

A timer's ``wake`` is a coroutine function (the room's is "submit a job to my inbox and wait
for it"), so that a fake time can wait until what a timer set off is done
(:func:`wake_quietly`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from miai.timesource import SystemTime, TimeSource

__all__ = ["Handle", "SystemTimekeeper", "Timekeeper", "Wake", "wake_quietly"]

Wake = Callable[[], Awaitable[Any]]
"""What a timer does when it falls due."""


class Handle(Protocol):
    """A timer that is set: it can be cancelled (cancelling twice, or after it ran, is harmless)."""

    def cancel(self) -> None: ...


class Timekeeper(TimeSource, Protocol):
    """A time source with timers at a reading of its monotonic milliseconds."""

    def call_at(self, at_ms: int, wake: Wake) -> Handle:
        """Run ``wake()`` on the calling event loop once :meth:`monotonic_ms` reaches ``at_ms``."""
        ...


class SystemTimekeeper(SystemTime):
    """The system's time (:class:`~miai.timesource.SystemTime`), with timers of the running
    event loop."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def call_at(self, at_ms: int, wake: Wake) -> Handle:
        loop = asyncio.get_running_loop()
        delay = max(0, at_ms - self.monotonic_ms()) / 1000

        def fire() -> None:
            task: asyncio.Task[Any] = loop.create_task(wake_quietly(wake))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        return loop.call_later(delay, fire)


async def wake_quietly(wake: Wake) -> None:
    """Run a timer's ``wake``: its failure is the room's to log; a timer has nobody to answer."""
    try:
        await wake()
    except asyncio.CancelledError:
        raise
    except Exception:  # the room logs its own failures; a timer has nobody to answer
        pass
