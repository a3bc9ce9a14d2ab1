"""The clock step of :mod:`miai.server.play.timing` with a fake time: which clock runs after any
event, the lag, the marking pause, the views, and the times an SGF record carries."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from miai import Game, Rules
from miai.clock import Clock, LagAllowance, TimeControl
from miai.coords import Color, Move
from miai.game import GameSpec, Phase
from miai.server.play.events import Event, EventKind, rebuild
from miai.server.play.timing import (
    clock_from_events,
    clock_view,
    clocks_started,
    move_times,
    step,
    ticking,
)
from miai.testing.manualtime import ManualTime

B, W = Color.BLACK, Color.WHITE


def Time() -> ManualTime:
    return ManualTime(monotonic_ms=50_000)


def play(game: Game, clock: Clock, move: str, *, lag_ms: int = 0) -> Clock:
    """``game.to_move`` plays ``move`` and the clock steps, as the room does."""
    mover = game.to_move
    game.play(Move(mover, None) if move == "pass" else move)
    return step(clock, game, actor=mover, lag_ms=lag_ms)


def test_no_clock_runs_until_each_side_has_moved():
    t, game = Time(), Game(9)
    clock = Clock.new(TimeControl.parse("absolute:60"), time=t)
    clock = step(clock, game)
    assert ticking(clock) is None
    t.advance(10_000)
    clock = play(game, clock, "E5")
    assert ticking(clock) is None and not clocks_started(game)
    t.advance(10_000)
    clock = play(game, clock, "D4")
    assert clocks_started(game) and ticking(clock) is B
    assert clock.remaining_ms(B) == clock.remaining_ms(W) == 60_000  # neither first move was timed
    t.advance(7_000)
    assert clock.remaining_ms(B) == 53_000
    clock = play(game, clock, "C3")
    assert ticking(clock) is W and clock.black.main_ms == 53_000 and clock.remaining_ms(W) == 60_000


def test_handicap_white_moves_first_and_the_clocks_start_after_blacks_first_move():
    t, game = Time(), Game(9, handicap=2)
    clock = Clock.new(TimeControl.parse("absolute:60"), time=t)
    clock = play(game, clock, "E5")  # White
    assert ticking(clock) is None
    clock = play(game, clock, "D5")  # Black
    assert ticking(clock) is W


def test_the_lag_is_excused_only_for_the_player_whose_clock_ran():
    t, game = Time(), Game(9)
    lag = LagAllowance(gain_ms=500, max_ms=2000, start_ms=1500)
    clock = Clock.new(TimeControl.parse("absolute:60"), time=t, lag=lag)
    clock = play(game, clock, "E5")
    clock = play(game, clock, "D4")
    t.advance(5_000)
    clock = play(game, clock, "C3", lag_ms=1_000)
    assert clock.black.main_ms == 56_000 and clock.black.lag_bank_ms == 1_000
    # an event by somebody else (here: Black, while White's clock runs) excuses nothing
    t.advance(5_000)
    game.play("C4")  # White
    moved = step(clock, game, actor=B, lag_ms=1_000)
    assert moved.white.main_ms == 55_000 and moved.white.lag_bank_ms == 2_000


def test_a_move_too_late_for_its_lag_flags():
    t, game = Time(), Game(9)
    clock = Clock.new(TimeControl.parse("absolute:10"), time=t, lag=LagAllowance(500, 2000, 1500))
    clock = play(game, clock, "E5")
    clock = play(game, clock, "D4")
    t.advance(10_000)
    assert play(game.copy(), clock, "C3").flagged is None  # exactly 0 ms left: on time
    t.advance(1)
    assert play(game.copy(), clock, "C3").flagged is B  # 1 ms late, no lag claimed
    assert play(game.copy(), clock, "C3", lag_ms=1).flagged is None  # 1 ms of lag excused


def test_marking_pauses_and_refusal_resumes():
    t, game = Time(), Game(9, Rules.preset("japanese"))
    clock = Clock.new(TimeControl.parse("byoyomi:10:5:2"), time=t)
    for m in ("E5", "D4", "C3"):
        clock = play(game, clock, m)
    t.advance(3_000)
    clock = play(game, clock, "pass")  # White
    t.advance(4_000)
    clock = play(game, clock, "pass")  # Black: the marking phase opens
    assert game.phase is Phase.MARKING
    assert clock.paused and ticking(clock) is None
    assert (clock.white.main_ms, clock.black.main_ms) == (7_000, 6_000)
    t.advance(100_000)  # nobody is charged while marking
    assert (clock.remaining_ms(B), clock.remaining_ms(W)) == (16_000, 17_000)
    game.propose([], color=W)
    clock = step(clock, game, actor=W)
    game.propose([game.board.stones(B).pop()], color=B)
    clock = step(clock, game, actor=B)
    assert clock.paused
    game.refuse(W)
    clock = step(clock, game, actor=W)
    assert game.phase is Phase.PLAY and ticking(clock) is game.to_move is W
    t.advance(2_000)
    assert clock.remaining_ms(W) == 15_000 and clock.remaining_ms(B) == 16_000


def test_a_finished_game_freezes_the_clocks():
    t, game = Time(), Game(9)
    clock = Clock.new(TimeControl.parse("fischer:60:5"), time=t)
    for m in ("E5", "D4"):
        clock = play(game, clock, m)
    t.advance(4_000)
    game.resign(B)
    clock = step(clock, game, actor=B)
    assert ticking(clock) is None
    t.advance(50_000)
    assert clock.remaining_ms(B) == 56_000  # the interrupted turn keeps what it had used


def test_an_untimed_game_keeps_its_clock():
    game = Game(9)
    clock = Clock.new(TimeControl())
    game.play("E5")
    game.play("D4")
    assert step(clock, game, actor=W) is clock and ticking(clock) is None


def test_a_change_of_turn_by_anything_stops_one_clock_and_starts_the_other():
    """Whatever changed whose turn it is (an undo, say), the step needs nothing but the game."""
    t, game = Time(), Game(9)
    clock = Clock.new(TimeControl.parse("absolute:60"), time=t)
    for m in ("E5", "D4", "C3"):
        clock = play(game, clock, m)
    assert ticking(clock) is W
    t.advance(2_000)
    game.undo()  # Black's C3 taken back: Black to move again
    clock = step(clock, game, actor=B)
    assert ticking(clock) is B and clock.white.main_ms == 58_000
    game.undo()
    game.undo()  # back before each side had moved: no clock runs
    clock = step(clock, game, actor=B)
    assert ticking(clock) is None


@settings(max_examples=40, deadline=None)
@given(
    control=st.sampled_from(["absolute:600", "byoyomi:5:3:2", "canadian:5:20:3", "fischer:30:2:40", "simple:4"]),
    moves=st.lists(st.tuples(st.integers(0, 3_500), st.booleans(), st.integers(0, 2_000)), min_size=1, max_size=30),
)
def test_only_the_player_to_move_is_charged(control, moves):
    """After every event exactly the player to move ticks (once the clocks started), and the
    other player's clock does not change while the mover thinks."""
    t, game = Time(), Game(9)
    clock = Clock.new(TimeControl.parse(control), time=t, lag=LagAllowance())
    for think, passes, lag in moves:
        if game.phase is not Phase.PLAY:
            break
        mover = game.to_move
        other_before = clock.player(mover.opponent)
        t.advance(think)
        legal = game.legal_moves()[:1] if not passes else []
        after = play(game, clock, "pass" if not legal else _gtp(legal[0]), lag_ms=lag)
        if after.flagged is not None:
            assert after.flagged is mover
            break
        clock = after
        assert clock.player(mover.opponent) == other_before
        expected = game.to_move if game.phase is Phase.PLAY and clocks_started(game) else None
        assert ticking(clock) is expected


def _gtp(point: tuple[int, int]) -> str:
    from miai.coords import point_to_gtp

    return point_to_gtp(point)


def test_the_view_restores_the_clock_and_says_what_to_show():
    t, game = Time(), Game(9)
    clock = Clock.new(TimeControl.parse("byoyomi:10:5:3"), time=t, lag=LagAllowance())
    for m in ("E5", "D4"):
        clock = play(game, clock, m)
    t.advance(12_000)
    view = clock_view(clock)
    assert view["ticking"] == "black" and view["describe"] == "10 s + 3×5 s"
    assert view["remaining_ms"] == {"black": 13_000, "white": 25_000}
    assert view["time_left"]["black"] == {"ms": 3_000, "stones": 3}
    assert view["time_left"]["white"] == {"ms": 10_000, "stones": 0}
    restored = Clock.from_json(view, time=t)
    assert restored.remaining_ms(B) == 13_000 and ticking(restored) is B


def test_clock_from_events_takes_the_last_stored_clock():
    t = Time()
    control = TimeControl.parse("absolute:60")
    fresh = clock_from_events(control, [], time=t, lag=LagAllowance())
    assert fresh == Clock.new(control, time=t, lag=LagAllowance())
    stored = Clock.new(control, time=t).start(W)
    t.advance(9_000)
    events = [
        Event(1, EventKind.MOVE, {"color": "black", "move": "E5", "clock": clock_view(stored)}, B, 0),
        Event(2, EventKind.CLOCK, {"reason": "server-restart", "downtime_ms": 5}, None, 0),
    ]
    t.advance(1_000_000)  # a long downtime: charged to nobody
    clock = clock_from_events(control, events, time=t, lag=LagAllowance())
    assert clock.remaining_ms(W) == 51_000 and ticking(clock) is W


def test_move_times_are_the_movers_time_after_each_move():
    t, game = Time(), Game(9)
    control = TimeControl.parse("canadian:1:10:2")
    clock = Clock.new(control, time=t)
    events = []
    for m in ("E5", "D4", "C3", "C4", "G7"):
        t.advance(1_500)
        color = game.to_move
        clock = play(game, clock, m)
        events.append(Event(len(events) + 1, EventKind.MOVE, {"color": color.name.lower(), "move": m, "clock": clock_view(clock)}, color, 0))
    times = move_times(control, events)
    assert sorted(times) == [1, 2, 3, 4, 5]
    assert (times[1].ms, times[1].stones) == (1_000, 0)  # untimed first moves
    assert (times[3].ms, times[3].stones) == (9_500, 1)  # 1 s of main time, then 0.5 s of the period
    assert (times[5].ms, times[5].stones) == (10_000, 2)  # the period's last stone: a fresh period
    assert move_times(TimeControl(), events) == {}


def test_rebuild_replays_a_flag_and_ignores_a_clock_note():
    spec = GameSpec(9, Rules.preset("chinese"))
    events = [
        (EventKind.MOVE, {"color": "black", "move": "E5"}),
        (EventKind.CLOCK, {"reason": "server-restart", "downtime_ms": 10}),
        (EventKind.MOVE, {"color": "white", "move": "D4"}),
        (EventKind.FLAG, {"color": "black", "result": "W+T"}),
    ]
    game = rebuild(spec, events)
    assert game.phase is Phase.FINISHED and str(game.result) == "W+T" and len(game.moves) == 2


def test_move_times_drop_the_moves_an_undo_took_back():
    control = TimeControl.parse("absolute:60")
    t = ManualTime(monotonic_ms=0)
    clock = Clock.new(control, time=t)

    def played(v: int, color: str, used_ms: int) -> Event:
        nonlocal clock
        clock = clock.start(Color.parse(color))
        t.advance(used_ms)
        clock = clock.stop()
        return Event(v, EventKind.MOVE, {"color": color, "move": "A1", "clock": clock.to_json()}, Color.parse(color), 0)

    events = [played(1, "black", 1000), played(2, "white", 2000), played(3, "black", 3000)]
    events.append(Event(4, EventKind.UNDO, {"color": "white", "moves": [3]}, Color.WHITE, 0))
    events.append(played(5, "black", 500))  # move 3 again, in place of the one taken back
    times = move_times(control, events)
    assert sorted(times) == [1, 2, 3]
    assert times[3].ms == 60_000 - 1000 - 3000 - 500  # from the replayed move's event, not the undone one's
