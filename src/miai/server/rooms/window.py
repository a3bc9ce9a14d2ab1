"""A moving window of hits on a clock the caller gives: a seat's chat lines in a game (the room's
audience, docs/SERVER.md §5) and a WebSocket connection's frames (web/ws.py). Counters of one
seat or one connection live in memory, cost no storage round trip and are tested with a fake
clock."""

from __future__ import annotations

import math
from collections import deque

__all__ = ["Window"]


class Window:
    """At most ``limit`` hits in any ``window_ms`` milliseconds (a moving window), on a clock
    the caller gives: one connection's frames or chat lines.

    >>> w = Window(2, 1000)
    >>> [w.hit(0), w.hit(10), w.hit(20), w.hit(1001), w.hit(1011)]
    [True, True, False, True, True]
    >>> w.retry_after_ms(1011)
    990
    """

    def __init__(self, limit: int, window_ms: int):
        if limit < 1 or window_ms < 1:
            raise ValueError("a window needs a limit and a length of at least 1")
        self.limit = limit
        self.window_ms = window_ms
        self.times: deque[float] = deque()

    def _drop_old(self, now_ms: float) -> None:
        while self.times and now_ms - self.times[0] >= self.window_ms:
            self.times.popleft()

    def hit(self, now_ms: float) -> bool:
        """Count a hit at ``now_ms`` if the window has room; False (nothing counted) if not."""
        self._drop_old(now_ms)
        if len(self.times) >= self.limit:
            return False
        self.times.append(now_ms)
        return True

    def retry_after_ms(self, now_ms: float) -> int:
        """Milliseconds until the window has room again (0 if it has now)."""
        self._drop_old(now_ms)
        if len(self.times) < self.limit:
            return 0
        return max(0, math.ceil(self.times[0] + self.window_ms - now_ms))
