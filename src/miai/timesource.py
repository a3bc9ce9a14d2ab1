"""The time as miai reads it: one type, :class:`TimeSource`, for the game clocks
(:mod:`miai.clock`), the referee, the GTP engine and the server.

A time source gives monotonic milliseconds, to measure (thinking time, deadlines, timers),
and wall-clock milliseconds, to stamp (when an event happened). :data:`SYSTEM_TIME` is the
system's. A fake for tests, which moves only when told to, is
``miai.testing.manualtime.ManualTime``; the server's rooms add timers to a time source
(``miai.server.timekeeper.Timekeeper``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Final, Protocol

__all__ = ["SYSTEM_TIME", "StillTime", "SystemTime", "TimeSource"]


class TimeSource(Protocol):
    """Where the time is read: monotonic and wall-clock milliseconds."""

    def monotonic_ms(self) -> int:
        """Milliseconds that never go back (their origin means nothing): to measure."""
        ...

    def wall_ms(self) -> int:
        """Milliseconds since the Unix epoch: to stamp."""
        ...


class SystemTime:
    """The system's clocks."""

    def monotonic_ms(self) -> int:
        return time.monotonic_ns() // 1_000_000

    def wall_ms(self) -> int:
        return time.time_ns() // 1_000_000


SYSTEM_TIME: Final = SystemTime()
"""The system's time: the default time source everywhere."""


@dataclass(frozen=True, slots=True)
class StillTime:
    """A time that stands at one moment: to read a stored clock as it stood when stamped."""

    at_ms: int = 0

    def monotonic_ms(self) -> int:
        return self.at_ms

    def wall_ms(self) -> int:
        return self.at_ms
