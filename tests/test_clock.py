"""Time controls and clocks (miai.clock): the text forms, GTP's commands, and every time
system driven move by move with a fake time source."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from miai.clock import Clock, LagAllowance, PlayerClock, TimeControl, TimeLeft, TimeSystem
from miai.coords import Color
from miai.errors import ClockError, MiaiError
from miai.testing.manualtime import ManualTime

B, W = Color.BLACK, Color.WHITE


def clock_for(text: str, lag: LagAllowance | None = None) -> tuple[Clock, ManualTime]:
    t = ManualTime(monotonic_ms=0)
    return Clock.new(TimeControl.parse(text), time=t, lag=lag), t


def move(clock: Clock, t: ManualTime, color: Color, ms: int, lag_ms: int = 0) -> Clock:
    """``color`` thinks ``ms`` and plays."""
    clock = clock.start(color)
    t.advance(ms)
    return clock.stop(lag_ms=lag_ms)


# ---------------------------------------------------------------------- time controls
@pytest.mark.parametrize(
    "text",
    ["none", "absolute:60", "absolute:0.5", "byoyomi:300:30:5", "byoyomi:0:10:1", "canadian:60:10:5",
     "fischer:300:10", "fischer:300:10:600", "fischer:0.25:0.125", "simple:5", "absolute:1d", "fischer:3d:1d",
     "fischer:3d:1d:14d", "simple:2d", "byoyomi:7d:1d:5", "fischer:1d:3600"],
)  # fmt: skip
def test_text_round_trips(text):
    tc = TimeControl.parse(text)
    assert str(tc) == text and TimeControl.parse(str(tc)) == tc


def test_days_and_hours_are_read_and_whole_days_written_as_days():
    """Correspondence controls: days per move, the text in days where a field is whole days."""
    tc = TimeControl.parse("fischer:3d:12h")
    assert tc == TimeControl.fischer(3 * 86_400_000, 12 * 3_600_000)
    assert str(tc) == "fischer:3d:43200" and tc.correspondence
    assert str(TimeControl.parse("absolute:86400")) == "absolute:1d"
    assert tc.describe() == "3 days + 12:00:00 per move"
    assert TimeControl.parse("fischer:3d:1d").describe() == "3 days + 1 day per move"
    assert not TimeControl.parse("byoyomi:300:30:5").correspondence and not TimeControl().correspondence
    with pytest.raises(ClockError, match="must be a number"):
        TimeControl.parse("fischer:3x:1d")
    with pytest.raises(ClockError, match="at most"):
        TimeControl.parse("fischer:400d:1d")


def test_parse_reads_every_system_into_its_fields():
    assert TimeControl.parse("90") == TimeControl.absolute(90_000)
    assert TimeControl.parse("canadian:60:10:5") == TimeControl(TimeSystem.CANADIAN, 60_000, 10_000, stones=5)
    assert TimeControl.parse("byoyomi:300:30:5") == TimeControl(TimeSystem.BYOYOMI, 300_000, 30_000, periods=5)
    assert TimeControl.parse("fischer:300:10:600") == TimeControl.fischer(300_000, 10_000, 600_000)
    assert TimeControl.parse("simple:5") == TimeControl(TimeSystem.SIMPLE, period_ms=5000)
    assert TimeControl.parse("Byo-Yomi:60:10:3").system is TimeSystem.BYOYOMI
    assert TimeControl.parse("  none ").unlimited and TimeControl.parse("").unlimited
    # an overtime of no time is absolute time
    assert TimeControl.parse("canadian:60:0:5") == TimeControl.absolute(60_000)
    assert TimeControl.parse("byoyomi:60:10:0") == TimeControl.absolute(60_000)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("absolute:inf", "the main time must be a finite number, not 'inf'"),
        ("absolute:nan", "the main time must be a finite number, not 'nan'"),
        ("byoyomi:60:-1:3", "the period time must not be negative, not -1"),
        ("canadian:60:10:-5", "the stones per period must not be negative, not -5"),
        ("fischer:1e300:10", "the main time must be at most 31622400 seconds"),
        ("byoyomi:60:10:" + "9" * 5000, "the number of periods must be at most 1000"),
        ("byoyomi:60:10:2.5", "the number of periods must be an integer, not '2.5'"),
        ("fischer:60:x", "the increment must be a number, not 'x'"),
        ("fischer:600:10:60", r"the cap \(60 s\) must not be below the main time \(600 s\)"),
        ("simple:0", "the time per move must be above 0"),
        ("0", "no time at all"),
        ("fischer:0:10", "no time at all"),
        ("fischer", "not a time control: 'fischer'"),
        ("hourglass:60", "not a time control"),
        ("byoyomi:60:10", "not a time control"),
    ],
)
def test_bad_time_controls_name_the_field(text, message):
    with pytest.raises(ClockError, match=message) as err:
        TimeControl.parse(text)
    assert isinstance(err.value, MiaiError) and isinstance(err.value, ValueError)


def test_the_value_itself_refuses_fields_of_other_systems():
    with pytest.raises(ClockError, match="an absolute time control has no period time"):
        TimeControl(TimeSystem.ABSOLUTE, 1000, period_ms=5)
    with pytest.raises(ClockError, match="needs at least one period"):
        TimeControl.byoyomi(0, 1000, 0)
    with pytest.raises(ClockError, match="needs at least one stone"):
        TimeControl.canadian(0, 1000, 0)
    with pytest.raises(ClockError, match="the main time must be a whole number of milliseconds"):
        TimeControl(TimeSystem.ABSOLUTE, 1.5)  # type: ignore[arg-type]
    with pytest.raises(ClockError, match="not a time system"):
        TimeControl("sundial")  # type: ignore[arg-type]
    assert TimeControl("byoyomi", 0, 1000, periods=1).system is TimeSystem.BYOYOMI  # type: ignore[arg-type]


def test_described_for_people():
    assert TimeControl.parse("byoyomi:300:30:3").describe() == "5:00 + 3×30 s"
    assert TimeControl.parse("byoyomi:0:30:5").describe() == "5×30 s"
    assert TimeControl.parse("absolute:5400").describe() == "1:30:00"
    assert TimeControl.parse("canadian:600:300:25").describe() == "10:00 + 25 stones in 5:00"
    assert TimeControl.parse("fischer:300:10:600").describe() == "5:00 + 10 s per move (at most 10:00)"
    assert TimeControl.parse("simple:2.5").describe() == "2.5 s per move"
    assert TimeControl().describe() == "no time limit"


# ---------------------------------------------------------------------- GTP
def test_gtp_commands():
    tc = TimeControl.parse
    assert tc("none").gtp_time_settings() == "time_settings 0 1 0"
    assert tc("absolute:60").gtp_time_settings() == "time_settings 60 0 0"
    assert tc("absolute:0.5").gtp_time_settings() == "time_settings 1 0 0"
    assert tc("canadian:60:30:5").gtp_time_settings() == "time_settings 60 30 5"
    assert tc("byoyomi:30:10:3").gtp_time_settings() == "time_settings 30 10 1"
    assert tc("simple:5").gtp_time_settings() == "time_settings 0 5 1"
    assert tc("fischer:300:10").gtp_time_settings() == "time_settings 300 0 0"
    assert tc("byoyomi:30:10:3").kgs_time_settings() == "kgs-time_settings byoyomi 30 10 3"
    assert tc("canadian:60:30:5").kgs_time_settings() == "kgs-time_settings canadian 60 30 5"
    assert tc("none").kgs_time_settings() == "kgs-time_settings none"
    assert tc("simple:5").kgs_time_settings() == "kgs-time_settings canadian 0 5 1"


@pytest.mark.parametrize("text", ["none", "absolute:60", "canadian:60:30:5", "byoyomi:30:10:3"])
def test_what_we_send_reads_back(text):
    tc = TimeControl.parse(text)
    assert TimeControl.from_kgs_time_settings(tc.kgs_time_settings().split()[1:]) == tc
    if tc.system is not TimeSystem.BYOYOMI:
        assert TimeControl.from_gtp_time_settings(tc.gtp_time_settings().split()[1:]) == tc


def test_gtp_readers():
    read = TimeControl.from_gtp_time_settings
    assert read(["600", "30", "5"]) == TimeControl.canadian(600_000, 30_000, 5)
    assert read(["300", "0", "0"]) == TimeControl.absolute(300_000)
    assert read(["0", "1", "0"]).unlimited
    kgs = TimeControl.from_kgs_time_settings
    assert kgs(["byoyomi", "600", "30", "5"]) == TimeControl.byoyomi(600_000, 30_000, 5)
    assert kgs(["BYOYOMI", "60", "10", "0"]) == TimeControl.absolute(60_000)
    for args, message in [
        (["1", "2"], "expected time_settings <main time> <byo-yomi time> <byo-yomi stones>"),
        (["a", "2", "3"], "the main time must be a number, not 'a'"),
        (["inf", "2", "3"], "the main time must be a finite number"),
        (["1", "2", "3.5"], "the byo-yomi stones must be an integer, not '3.5'"),
    ]:
        with pytest.raises(ClockError, match=message):
            read(args)
    with pytest.raises(ClockError, match="unknown time system 'fischer'"):
        kgs(["fischer", "60", "10"])
    with pytest.raises(ClockError, match="expected kgs-time_settings none"):
        kgs(["none", "5"])


def test_time_left_reports():
    left = TimeLeft.from_gtp("123.5", "0", at_ms=1000)
    assert (left.ms, left.stones) == (123_500, 0) and left.gtp_args() == "123 0"
    assert left.remaining_ms(1000) == 123_500 and left.remaining_ms(21_000) == 103_500
    assert left.remaining_ms(10**9) == 0 and left.remaining_ms(0) == 123_500
    with pytest.raises(ClockError, match="the time left must be a finite number, not 'nan'"):
        TimeLeft.from_gtp("nan", "0")
    with pytest.raises(ClockError, match="the stones left must not be negative, not -1"):
        TimeLeft.from_gtp("1", "-1")


# ---------------------------------------------------------------------- clocks, system by system
def test_no_time_limit_never_flags():
    clock, t = clock_for("none")
    clock = move(clock, t, B, 10**9)
    assert clock.flagged is None and clock.remaining_ms(B) is None and clock.time_left(B) is None
    assert clock.deadline_ms() is None


def test_absolute_and_the_flag_exactly_at_zero():
    clock, t = clock_for("absolute:2")
    assert clock.remaining_ms(B) == 2000 and clock.time_left(B) == TimeLeft(2000, 0, 0)
    clock = move(clock, t, B, 1500)
    assert clock.black.main_ms == 500 and clock.white.main_ms == 2000
    on_time = move(clock, t, B, 500)  # exactly the time left: on time, 0 left
    assert on_time.flagged is None and on_time.black.main_ms == 0
    late = move(clock, t, B, 501)
    assert late.flagged is B and late.remaining_ms(B) == 0 and late.out_of_time() is B
    with pytest.raises(ClockError, match="flag has fallen"):
        late.start(W)


def test_byoyomi_keeps_a_period_used_to_its_end_and_uses_up_overruns():
    clock, t = clock_for("byoyomi:0.5:5:3")
    clock = move(clock, t, B, 500)
    assert (clock.black.main_ms, clock.black.periods) == (0, 3)
    clock = move(clock, t, B, 5000)  # exactly one period: kept
    assert clock.black.periods == 3
    clock = move(clock, t, B, 5001)  # one period overrun
    assert clock.black.periods == 2 and clock.time_left(B) == TimeLeft(5000, 2, t.monotonic_ms())
    assert clock.remaining_ms(B) == 10_000
    clock = move(clock, t, B, 10_000)  # the first period overrun, the second used to its end
    assert clock.black.periods == 1 and clock.flagged is None
    assert move(clock, t, B, 5001).flagged is B


def test_byoyomi_move_from_main_time_into_the_periods():
    clock, t = clock_for("byoyomi:10:5:2")
    clock = move(clock, t, W, 17_000)  # 10 s main, 5 s of period 1 (overrun), 2 s of period 2
    assert (clock.white.main_ms, clock.white.periods) == (0, 1)
    clock = clock.start(W)
    t.advance(3000)
    assert clock.time_left(W) == TimeLeft(2000, 1, t.monotonic_ms())  # the last period, 2 s left in it
    t.advance(2000)
    assert clock.stop().flagged is None  # exactly at the end of the last period


def test_canadian_counts_stones_and_resets_the_period():
    clock, t = clock_for("canadian:1:10:2")
    assert clock.remaining_ms(B) == 11_000
    clock = move(clock, t, B, 3000)  # 1 s of main, 2 s of the period: an overtime stone
    assert (clock.black.main_ms, clock.black.period_ms, clock.black.stones) == (0, 8000, 1)
    assert clock.time_left(B) == TimeLeft(8000, 1, t.monotonic_ms())
    clock = move(clock, t, B, 8000)  # the period's last stone, on time to the ms: a fresh period
    assert (clock.black.period_ms, clock.black.stones, clock.flagged) == (10_000, 2, None)
    assert move(clock, t, B, 10_001).flagged is B


def test_canadian_time_left_mid_move():
    clock, t = clock_for("canadian:5:10:3")
    clock = clock.start(B)
    t.advance(2000)
    assert clock.time_left(B) == TimeLeft(3000, 0, t.monotonic_ms())
    t.advance(4000)
    assert clock.time_left(B) == TimeLeft(9000, 3, t.monotonic_ms())  # 1 s into the first period
    assert clock.time_left(W) == TimeLeft(5000, 0, t.monotonic_ms())


def test_fischer_adds_the_increment_up_to_the_cap():
    clock, t = clock_for("fischer:10:5:12")
    clock = move(clock, t, B, 1000)
    assert clock.black.main_ms == 12_000  # 9 s + 5 s, capped at 12 s
    clock = move(clock, t, B, 6000)
    assert clock.black.main_ms == 11_000
    clock = move(clock, t, B, 11_000)  # all of it, on time: the increment still comes
    assert clock.black.main_ms == 5000 and clock.flagged is None
    assert move(clock, t, B, 5001).flagged is B
    uncapped, t = clock_for("fischer:10:5")
    uncapped = move(move(uncapped, t, W, 0), t, W, 0)
    assert uncapped.white.main_ms == 20_000


def test_simple_gives_every_move_the_same_time():
    clock, t = clock_for("simple:5")
    clock = move(clock, t, B, 4999)
    clock = move(clock, t, B, 5000)
    assert clock.flagged is None and clock.remaining_ms(B) == 5000 and clock.time_left(B) == TimeLeft(5000, 1, t.monotonic_ms())
    assert move(clock, t, B, 5001).flagged is B


def test_switch_hands_the_turn_over():
    clock, t = clock_for("absolute:60")
    clock = clock.start(B)
    t.advance(1000)
    clock = clock.switch()
    assert clock.running is W and clock.black.main_ms == 59_000
    t.advance(2500)
    assert clock.remaining_ms(W) == 57_500 and clock.remaining_ms(B) == 59_000
    assert clock.elapsed_ms() == 2500
    with pytest.raises(ClockError, match="white's clock is running"):
        clock.start(B)
    with pytest.raises(ClockError, match="no clock is running"):
        clock.stop().stop()


# ---------------------------------------------------------------------- lag, pause, flag timer
def test_lag_is_excused_from_a_capped_bank():
    lag = LagAllowance(gain_ms=500, max_ms=2000, start_ms=1500)
    clock, t = clock_for("absolute:60", lag)
    clock = move(clock, t, B, 3000, lag_ms=400)  # 400 ms excused from the bank
    assert clock.black.main_ms == 57_400 and clock.black.lag_bank_ms == 1600  # 1500 - 400 + 500
    clock = move(clock, t, B, 3000, lag_ms=5000)  # only the bank's 1600 ms excused
    assert clock.black.main_ms == 57_400 - (3000 - 1600) and clock.black.lag_bank_ms == 500
    for _ in range(5):
        clock = move(clock, t, B, 0)
    assert clock.black.lag_bank_ms == 2000  # capped
    assert clock.white.lag_bank_ms == 1500


def test_the_flag_falls_only_when_the_bank_cannot_save_the_move():
    clock, t = clock_for("absolute:1", LagAllowance(gain_ms=500, max_ms=2000, start_ms=1500))
    clock = clock.start(B)
    assert clock.deadline_ms() == 2500  # 1 s of time and 1.5 s of bank
    t.advance(2500)
    assert clock.out_of_time() is None and clock.flag() == clock
    t.advance(1)
    assert clock.out_of_time() is B
    flagged = clock.flag()
    assert flagged.flagged is B and flagged.running is None and flagged.black.main_ms == 0
    # a move arriving 1.4 s late with 1.4 s of measured lag is on time
    clock, t = clock_for("absolute:1", LagAllowance(gain_ms=500, max_ms=2000, start_ms=1500))
    assert move(clock, t, B, 2400, lag_ms=1400).flagged is None
    assert move(clock, t, B, 2400, lag_ms=1000).flagged is B


def test_a_paused_clock_charges_nobody():
    clock, t = clock_for("byoyomi:10:5:1")
    clock = clock.start(B)
    t.advance(4000)
    clock = clock.pause()
    t.advance(60_000)  # marking, an adjournment
    assert clock.elapsed_ms() == 4000 and clock.deadline_ms() is None and clock.out_of_time() is None
    assert clock.pause() is clock
    clock = clock.resume()
    t.advance(1000)
    clock = clock.stop()
    assert clock.black.main_ms == 5000 and clock.resume() is clock
    # started while paused: counts from resume
    clock = clock.pause().start(W)
    t.advance(99_000)
    clock = clock.resume()
    t.advance(2000)
    assert clock.stop().white.main_ms == 8000


def test_stored_clocks_go_on_in_another_process_without_charging_the_gap():
    clock, t = clock_for("canadian:60:30:5", LagAllowance())
    clock = move(clock, t, B, 61_000)
    clock = clock.start(W)
    t.advance(7000)
    data = clock.to_json()
    assert data["running"] == "white" and data["used_ms"] == 7000 and data["control"] == "canadian:60:30:5"
    other = ManualTime(monotonic_ms=10**6)  # another process, another monotonic clock
    again = Clock.from_json(data, time=other)
    assert again.black == clock.black and again.running is W and again.elapsed_ms() == 7000
    other.advance(1000)
    assert again.stop().white.main_ms == 52_000
    with pytest.raises(ClockError, match="not a stored clock"):
        Clock.from_json({"control": "none"})
    with pytest.raises(ClockError, match="not a time control"):
        Clock.from_json({**data, "control": "sundial"})


# ---------------------------------------------------------------------- properties
CONTROLS = ["absolute:30", "byoyomi:5:3:3", "canadian:5:10:3", "fischer:10:2:15", "simple:4"]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(CONTROLS), st.lists(st.integers(0, 20_000), max_size=30))
def test_a_clock_rises_only_by_increment_or_period_reset_and_flags_exactly_when_late(text, times):
    clock, t = clock_for(text)
    tc = clock.control
    for used in times:
        before = clock.player(B)
        available = before.available_ms(tc)
        assert available is not None
        clock = move(clock, t, B, used)
        after = clock.player(B)
        assert (clock.flagged is B) == (used > available)
        if clock.flagged:
            assert clock.remaining_ms(B) == 0
            break
        gained = after.available_ms(tc) - (available - used)  # type: ignore[operator]
        if tc.system is TimeSystem.ABSOLUTE:
            assert gained == 0
        elif tc.system is TimeSystem.FISCHER:
            assert 0 <= gained <= tc.increment_ms and after.main_ms <= (tc.cap_ms or 10**12)
        elif tc.system is TimeSystem.BYOYOMI:
            assert gained <= tc.period_ms and after.periods <= before.periods
        elif tc.system is TimeSystem.CANADIAN:
            assert gained == 0 or (after.stones == tc.stones and after.period_ms == tc.period_ms)
        else:
            assert after == before
        assert isinstance(after, PlayerClock) and after.main_ms >= 0


def test_the_clock_loads_no_compiled_code():
    """The GTP engine reads time commands before numba loads: clock.py must not pull it in."""
    code = "import sys, miai.clock; print([m for m in ('numpy', 'numba', 'miai._kernel') if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
