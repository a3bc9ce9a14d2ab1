"""The fake time of the server's tests (:class:`ManualTime`) and the system's timers: timers
fire in order at their own time, a cancelled one never, and a late one on the next advance."""

from __future__ import annotations

import asyncio
import threading

import pytest

from miai.server.timekeeper import SystemTimekeeper
from miai.testing.manualtime import ManualTime


def test_manual_timers_fire_in_order_at_their_own_time():
    async def main() -> None:
        time = ManualTime(monotonic_ms=0, wall_ms=10_000)
        seen: list[tuple[str, int, int]] = []

        def note(name: str):
            async def wake() -> None:
                seen.append((name, time.monotonic_ms(), time.wall_ms()))
                if name == "a":  # a timer may set another, which fires in the same advance
                    time.call_at(time.monotonic_ms() + 5, note("c"))

            return wake

        time.call_at(30, note("b"))
        time.call_at(10, note("a"))
        cancelled = time.call_at(12, note("x"))
        cancelled.cancel()
        time.call_at(100, note("later"))
        await time.advance_async(50)
        assert seen == [("a", 10, 10_010), ("c", 15, 10_015), ("b", 30, 10_030)]
        assert (time.monotonic_ms(), time.wall_ms()) == (50, 10_050)
        assert time.pending == [100]
        with pytest.raises(ValueError):
            await time.advance_async(-1)

    asyncio.run(main())


def test_manual_timers_set_on_a_loop_fire_there_from_another_thread():
    time = ManualTime(monotonic_ms=0)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        fired: list[int] = []

        async def wake() -> None:
            assert asyncio.get_running_loop() is loop
            fired.append(time.monotonic_ms())

        async def arm() -> None:
            time.call_at(20, wake)

        asyncio.run_coroutine_threadsafe(arm(), loop).result(5)
        time.advance(25, fire=False)  # a late timer: still due
        assert fired == [] and time.pending == [20]
        time.advance(0)
        assert fired == [25] and time.pending == []
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()


def test_system_timers_fire_once_their_time_has_come():
    async def main() -> None:
        time = SystemTimekeeper()
        done = asyncio.Event()
        fired: list[int] = []

        async def wake() -> None:
            fired.append(time.monotonic_ms())
            done.set()

        async def never() -> None:
            fired.append(-1)

        start = time.monotonic_ms()
        time.call_at(start + 20, wake)
        time.call_at(start + 5, never).cancel()
        await asyncio.wait_for(done.wait(), 5)
        await asyncio.sleep(0.02)
        assert len(fired) == 1 and fired[0] >= start + 19  # the loop's timer resolution

    asyncio.run(main())
