"""The results table: Wilson intervals, Elo differences and the summary of a match."""

from __future__ import annotations

import math

from miai.match import GameResult, Reason, elo_difference, format_summary, summarize, wilson_interval
from miai.result import Result


def result(index: int, black: str, white: str, text: str, reason: Reason = Reason.SCORE, **kw) -> GameResult:
    return GameResult(index, black, white, Result.parse(text), reason, "", **kw)


def test_wilson_interval_and_elo():
    lo, hi = wilson_interval(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = wilson_interval(10, 10)
    assert hi == 1.0 and round(lo, 4) == 0.7225
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert elo_difference(0.5) == 0
    assert round(elo_difference(0.75)) == 191
    assert elo_difference(1.0) == math.inf and elo_difference(0.0) == -math.inf


def test_summary_counts_colours_draws_voids_and_reasons():
    results = [
        result(0, "A", "B", "B+3.5", time_ms={"A": 1000, "B": 3000}, genmoves={"A": 10, "B": 10}),
        result(1, "B", "A", "W+R", Reason.RESIGNATION, time_ms={"A": 500, "B": 500}, genmoves={"A": 5, "B": 5}),
        result(2, "A", "B", "W+F", Reason.CRASH, at_fault="A"),
        result(3, "B", "A", "0"),
        result(4, "A", "B", "Void", Reason.MOVE_CAP),
    ]
    s = summarize(results, ("A", "B"))
    assert s.games == 5 and s.decided == 4 and s.no_result == 1 and s.draws == 1
    assert s.wins == {"A": 2, "B": 1}
    assert s.wins_as[("A", "black")] == 1 and s.wins_as[("A", "white")] == 1 and s.wins_as[("B", "white")] == 1
    assert s.games_as[("A", "black")] == 3 and s.games_as[("A", "white")] == 2
    assert s.black_wins == 1 and s.white_wins == 2
    assert s.win_rate == 2.5 / 4
    assert s.ms_per_move == {"A": 100.0, "B": 3500 / 15}
    assert s.reasons == {"score": 2, "resignation": 1, "crash": 1, "move cap": 1}
    assert s.forfeits == {"A": 1}
    table = format_summary(s)
    assert "A win rate: 62.5% (95% CI" in table
    assert "Black won 1, White won 2, 1 draw, 1 without result" in table
    assert "Games ended by: score 2" in table
    assert "Elo difference A - B: +89" in table



def test_an_engine_busy_during_its_opponents_turns_is_reported():
    results = [
        # B spent 9 s of CPU during A's 10 s of thinking, A nothing during B's
        result(0, "A", "B", "B+3.5", time_ms={"A": 10_000, "B": 4_000}, offturn_cpu_ms={"A": 0, "B": 9_000}),
        # a game from before the measure counts neither way
        result(1, "B", "A", "W+R", Reason.RESIGNATION, time_ms={"A": 5_000, "B": 5_000}),
    ]
    s = summarize(results, ("A", "B"))
    assert s.offturn_share == {"A": 0.0, "B": 0.9}
    text = format_summary(s)
    assert "Warning: B used the CPU during A's turns (9 s, 90% of A's thinking time)" in text
    assert "Warning: A" not in text


def test_no_warning_when_each_engine_waits_its_turn_or_nothing_was_measured():
    quiet = [result(0, "A", "B", "B+3.5", time_ms={"A": 10_000, "B": 4_000}, offturn_cpu_ms={"A": 30, "B": 900})]
    assert "Warning" not in format_summary(summarize(quiet, ("A", "B")))  # 9% and 1%: below the line
    unmeasured = [result(0, "A", "B", "B+3.5", time_ms={"A": 10_000, "B": 4_000})]
    s = summarize(unmeasured, ("A", "B"))
    assert s.offturn_share == {} and "Warning" not in format_summary(s)
