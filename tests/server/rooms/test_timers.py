"""The events the server writes on its own about clocks (:mod:`miai.server.rooms.timers`): what the
marking timer does, the flag, the clocks stamped on events, and the timers' bookkeeping."""

from __future__ import annotations

import asyncio

from miai import Game, Rules
from miai.clock import Clock, TimeControl
from miai.coords import Color, point_from_gtp
from miai.server.compute.estimate import Suggestion
from miai.server.play.actions import ActionKind
from miai.server.play.events import Event, EventKind
from miai.server.rooms.timers import (
    RoomTimers,
    lose_on_time,
    marking_timeout_actions,
    out_of_time,
    stamp,
)
from miai.testing.manualtime import ManualTime
from miai.timesource import StillTime

B, W = Color.BLACK, Color.WHITE


def marking_game() -> Game:
    game = Game(9, Rules.preset("japanese"))
    for m in ("E5", "D4", "C3", "pass", "pass"):
        game.play(m)
    return game


def test_with_no_proposal_the_estimate_stands_for_the_first_passer_and_is_accepted():
    game = marking_game()
    marking = game.marking
    assert marking is not None and marking.first is W
    steps = marking_timeout_actions(marking, Suggestion(5, ("C3",), ()))
    assert [(seat, a.kind, a.dead) for seat, a in steps] == [(W, ActionKind.DEAD, ("C3",)), (B, ActionKind.ACCEPT, ())]
    alive = marking_timeout_actions(marking, None)
    assert alive[0][1].dead == () and alive[1][0] is B


def test_a_pending_proposal_is_accepted_by_the_player_who_should_answer():
    game = marking_game()
    game.propose([], color=W)
    game.propose([point_from_gtp("D4", 9)], color=B)  # a counter-proposal: White answers it
    marking = game.marking
    assert marking is not None
    assert [(seat, a.kind) for seat, a in marking_timeout_actions(marking, None)] == [(W, ActionKind.ACCEPT)]


def test_lose_on_time_ends_a_copy_of_the_game():
    game = Game(9)
    game.play("E5")
    t = ManualTime(monotonic_ms=0)
    clock = Clock.new(TimeControl.parse("absolute:1"), time=t).start(W)
    t.advance(1_001)
    flagged = clock.flag()
    after, payload = lose_on_time(game, flagged)
    assert payload == {"color": "white", "result": "B+T"}
    assert str(after.result) == "B+T" and game.result is None
    error = out_of_time(W, "B+T", 3)
    assert error.status == 422 and error.to_json()["reason"] == "out-of-time" and error.to_json()["v"] == 3


def test_stamp_adds_the_clock_to_timed_events_only():
    events = [Event(1, EventKind.MOVE, {"color": "black", "move": "E5"}, B, 0)]
    assert stamp(events, Clock.new(TimeControl())) == events
    (stamped,) = stamp(events, Clock.new(TimeControl.parse("absolute:60"), time=StillTime()))
    assert stamped.payload["clock"]["remaining_ms"] == {"black": 60_000, "white": 60_000}
    assert "clock" not in events[0].payload


def test_room_timers_replace_and_cancel():
    async def main() -> None:
        time = ManualTime(monotonic_ms=0)
        fired: list[str] = []

        def note(name: str):
            async def wake() -> None:
                fired.append(name)

            return wake

        timers = RoomTimers(time)
        assert not timers.active
        timers.set_flag(10, note("old flag"))
        timers.set_flag(20, note("flag"))  # setting it again replaces it
        timers.set_marking(15, note("marking"))
        assert timers.active and (timers.flag_at, timers.marking_at) == (20, 15)
        await time.advance_async(30)
        assert fired == ["marking", "flag"]
        timers.set_flag(40, note("cancelled"))
        timers.cancel()
        await time.advance_async(30)
        assert fired == ["marking", "flag"] and not timers.active

    asyncio.run(main())


def test_a_marking_timer_that_cannot_write_says_so_and_ends_the_phase_once_the_game_is_back(db, monkeypatch, caplog):
    """An error in the marking timer's job is logged, never a silent stop: the game is reloaded
    and its timer runs again."""
    from tests.server.conftest import Table, make_client

    time = ManualTime()
    with make_client(db, time=time, marking_timer_ms=1_000) as client:
        table = Table(client, size=9, rules="japanese")
        table.moves("E5 D4 C3 pass pass")
        store = client.app.state.server.store

        async def broken(*args, **kwargs):
            raise OSError(5, "disk I/O error")

        monkeypatch.setattr(store, "append", broken)
        with caplog.at_level("ERROR", logger="miai.server"):
            time.advance(1_000)
        assert "the marking timer's events were not written" in caplog.text
        monkeypatch.undo()
        assert table.state()["phase"] == "marking"  # the game reloaded from the database: its timer set again
        time.advance(1_000)
        assert table.state()["phase"] == "finished"
