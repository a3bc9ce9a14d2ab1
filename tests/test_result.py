"""The result value: its fields, its SGF text (which round-trips) and the lenient reader."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from miai.coords import Color
from miai.errors import MiaiError, ResultError
from miai.result import EndReason, Result, Termination

CANONICAL = ["B+3.5", "W+0.5", "W+0", "B+12", "W+R", "B+R", "W+T", "B+F", "B+", "W+", "0", "Draw", "Void", "?"]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_text_round_trips(text):
    assert str(Result.parse(text)) == text
    assert Result.parse(str(Result.parse(text))) == Result.parse(text)


@given(st.integers(-2000, 2000), st.booleans())
def test_a_count_round_trips_and_keeps_its_sign(halves, white_wins_ties):
    margin = halves / 2
    result = Result.by_score(margin, white_wins_ties=white_wins_ties)
    assert Result.parse(str(result)) == result
    assert result.by is Termination.SCORE and result.signed_margin() == abs(margin) * (-1 if result.winner is Color.WHITE else 1)
    if margin == 0:
        assert result.winner is (Color.WHITE if white_wins_ties else None)


def test_fields_say_who_won_and_how():
    r = Result.parse("W+R")
    assert (r.winner, r.loser, r.by, r.margin) == (Color.WHITE, Color.BLACK, Termination.RESIGNATION, None)
    assert Result.time(Color.BLACK) == Result.parse("W+T")
    assert Result.forfeit(Color.WHITE) == Result.parse("B+F")
    assert Result.parse("0").is_draw and Result.draw().is_draw and not Result.void().is_draw
    assert Result.parse("B+").by is Termination.UNKNOWN


@pytest.mark.parametrize("text", ["B+3.5.1", "X+1", "B+-3", "W+nan", "B+inf", "white", "", "B+R+1", "1e400"])
def test_parse_refuses_what_is_not_canonical(text):
    with pytest.raises(ResultError):
        Result.parse(text)
    assert issubclass(ResultError, MiaiError)


def test_impossible_results_are_refused():
    with pytest.raises(ResultError, match="no margin"):
        Result(Color.BLACK, Termination.RESIGNATION, 3.5)
    with pytest.raises(ResultError, match="only by White"):
        Result(Color.BLACK, Termination.SCORE, 0.0)
    with pytest.raises(ResultError, match="has a winner"):
        Result(None, Termination.TIME)
    with pytest.raises(ResultError, match="needs a margin"):
        Result(Color.WHITE, Termination.SCORE)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("W+Resign", "W+R"), ("b+t", "B+T"), ("B+3.50", "B+3.5"), ("Jigo", "0"), ("D+J", "Draw"),
        ("White resigns. W 6.5 B 157.0", "B+R"), ("black wins by time", "B+T"), ("White wins by 3.5 points", "W+3.5"),
        ("black lose by resign", "W+R"), ("257手完, 黒中押し勝ち", "B+R"), ("白11目胜", "W+11"), ("黒3目半勝ち", "B+3.5"),
        ("흑 시간승", "B+T"), ("白认输", "B+R"), ("黑胜", "B+"), ("无胜负", "Void"),
    ],
)  # fmt: skip
def test_read_understands_other_programs(text, expected):
    assert str(Result.read(text)) == expected


def test_read_keeps_what_it_cannot_read_verbatim():
    kept = Result.read("B+V")
    assert kept is not None and kept.winner is Color.BLACK and kept.by is Termination.UNKNOWN and str(kept) == "B+V"
    odd = Result.read("abandoned after move 40")
    assert odd is not None and odd.winner is None and str(odd) == "abandoned after move 40"
    assert Result.read("") is None and Result.read(" ? ") is None


def test_describe_in_words():
    assert Result.parse("0").describe() == "Draw (jigo)."
    assert Result.parse("W+T").describe() == "White wins on time."
    assert Result.parse("B+F").describe() == "Black wins by forfeit."
    assert Result.parse("W+1").describe() == "White wins by 1 point."
    assert Result.parse("B+").describe() == "Black wins."
    assert Result.parse("W+0").describe() == "White wins the tie (tie rule)."
    assert Result.void().describe() == "No result."


# ---------------------------------------------------------------------- why a game ended
@pytest.mark.parametrize("reason", list(EndReason))
def test_an_end_reason_text_round_trips(reason):
    assert EndReason.parse(str(reason)) is reason and reason.describe()


def test_an_end_reason_that_is_not_one_is_an_error():
    with pytest.raises(ResultError, match="not a reason for the end of a game"):
        EndReason.parse("Both players passed")


def test_an_end_reason_in_words_names_who_resigned_or_ran_out_of_time():
    assert EndReason.RESIGNATION.describe(Color.BLACK) == "black resigned"
    assert EndReason.TIME.describe(Color.WHITE) == "white ran out of time"
    assert EndReason.AGREEMENT.describe() == "both players passed and agreed on the dead stones"
