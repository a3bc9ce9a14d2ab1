"""The time source (miai.timesource): the system's moves on, a still time stands, and the fake
of the tests moves only when told to."""

from __future__ import annotations

import time

from miai.testing.manualtime import ManualTime
from miai.timesource import SYSTEM_TIME, StillTime, TimeSource


def test_the_system_time_moves_on_and_its_wall_clock_is_the_epochs():
    first = SYSTEM_TIME.monotonic_ms()
    time.sleep(0.002)
    assert SYSTEM_TIME.monotonic_ms() > first
    assert abs(SYSTEM_TIME.wall_ms() - time.time() * 1000) < 1000


def test_a_still_time_stands_and_a_manual_time_moves_both_clocks_together():
    still: TimeSource = StillTime(5)
    assert (still.monotonic_ms(), still.wall_ms()) == (5, 5)
    fake: TimeSource = ManualTime(monotonic_ms=0, wall_ms=100)
    assert isinstance(fake, ManualTime)
    fake.advance(40)
    assert (fake.monotonic_ms(), fake.wall_ms()) == (40, 140)
