"""A computer seat's clock while its job waits for a worker (miai.server.rooms.thinking): paused,
so the queue never costs it time, and it never loses on time for waiting. Before, a computer
whose move waited behind eight upload bombs lost an ``absolute:20`` game on time."""

from __future__ import annotations

import time

from miai.testing.manualtime import ManualTime
from tests.server.compute.test_computer import HeldExecutor, wait_for
from tests.server.conftest import Table, make_client
from tests.server.play.test_undo import wait_for_jobs


def test_a_computer_waiting_for_a_worker_is_not_charged_and_does_not_lose_on_time(db):
    held, fake = HeldExecutor(), ManualTime()
    with make_client(db, executor=held, time=fake, workers=1) as client:
        waiting = Table(client, size=9, time="absolute:60", white="computer:1")
        waiting.play("black", "E5")
        wait_for_jobs(held)
        held.release()  # the computer's first move (not timed)
        wait_for(waiting, 2)
        other = Table(client, size=9, white="computer:1")
        other.play("black", "E5")
        wait_for_jobs(held)  # the one worker thinks for the other game
        taken = {v for stones in waiting.state()["stones"].values() for v in stones}
        free = next(v for v in ("D4", "C3", "F6") if v not in taken)  # wherever the computer did not play
        waiting.play("black", free)  # now White's clock would run: its job waits instead
        deadline = time.monotonic() + 10
        while waiting.state()["clocks"]["ticking"] is not None and time.monotonic() < deadline:
            time.sleep(0.01)
        clocks = waiting.state()["clocks"]
        assert clocks["ticking"] is None and clocks["running"] == "white"
        fake.advance(61_000)  # longer than White's whole time
        assert waiting.state()["phase"] == "play"  # no flag: waiting for a worker is not thinking
        held.release()  # the other game's move: the worker takes White's job, its clock runs again
        wait_for_jobs(held)
        assert waiting.state()["clocks"]["ticking"] == "white"
        held.release()
        events = wait_for(waiting, 4)
        assert events[3]["color"] == "white" and events[3]["clock"]["remaining_ms"]["white"] == 60_000
