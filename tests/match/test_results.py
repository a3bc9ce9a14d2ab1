"""Game results and results.jsonl: the JSON form round-trips, every field is checked, and a
file with lines that are not results is read without failing."""

from __future__ import annotations

import json

import pytest

from miai.coords import Color
from miai.match import GameResult, Reason, ResultLineError, read_results
from miai.result import Result, Termination


def sample() -> GameResult:
    return GameResult(
        3, "A", "B", Result.parse("W+F"), Reason.CRASH, "white forfeits: A crashed", moves=12,
        time_ms={"A": 100, "B": 200}, genmoves={"A": 6, "B": 6}, dead_by_engine={"A": None, "B": ["C3"]},
        notes=["a note"], sgf="game-004.sgf", at_fault="A", offturn_cpu_ms={"A": 0, "B": 150},
        winrates={"A": [[1, 0.52], [3, 0.5]]},
    )  # fmt: skip


def test_json_keeps_the_result_text_and_reads_back():
    r = sample()
    d = r.to_json()
    assert d["result"] == "W+F" and d["reason"] == "crash"
    back = GameResult.from_json(json.loads(r.json_line()))
    assert back == r and back.result == Result.forfeit(Color.BLACK)
    assert back.winner == "B" and back.winner_color is Color.WHITE


def test_a_line_from_before_the_cpu_was_measured_reads_as_not_measured():
    d = sample().to_json()
    del d["offturn_cpu_ms"]
    assert GameResult.from_json(d).offturn_cpu_ms == {}


def test_a_line_from_before_win_rates_were_kept_reads_as_none_kept():
    d = sample().to_json()
    del d["winrates"]
    assert GameResult.from_json(d).winrates == {}


def test_every_reason_names_its_termination():
    assert Reason.ILLEGAL.termination is Termination.FORFEIT and Reason.ILLEGAL.forfeit
    assert Reason.MOVE_CAP.termination is Termination.VOID and not Reason.MOVE_CAP.forfeit
    assert Reason.SCORE.termination is Termination.SCORE
    assert Reason.TIME.termination is Termination.TIME


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"result": "B+lots"}, "not a result"),
        ({"result": "B+R"}, "does not end a game by crash"),
        ({"reason": "boredom"}, "not a reason"),
        ({"index": "3"}, "'index' must be a int"),
        ({"index": True}, "'index' must be a int"),
        ({"index": -1}, "not negative"),
        ({"black": None}, "'black' must be a str"),
        ({"time_ms": {"A": "fast"}}, "'time_ms' must map labels to integers"),
        ({"offturn_cpu_ms": {"A": 1.5}}, "'offturn_cpu_ms' must map labels to integers"),
        ({"notes": [1]}, "'notes' must be a list of strings"),
        ({"dead_by_engine": {"A": [3]}}, "'dead_by_engine' must be a list of strings"),
        ({"at_fault": 7}, "at_fault must be a label or null"),
        ({"winrates": {"A": [[1, 1.5]]}}, "'winrates' must map labels to \\[move number, win rate\\] pairs"),
        ({"winrates": {"A": [[0, 0.5]]}}, "'winrates' must map"),
        ({"winrates": {"A": [[1]]}}, "'winrates' must map"),
        ({"winrates": {"A": "0.5"}}, "'winrates' must map"),
    ],
)
def test_every_field_is_checked(change, message):
    d = {**sample().to_json(), **change}
    with pytest.raises(ResultLineError, match=message):
        GameResult.from_json(d)


def test_a_missing_field_is_named():
    d = sample().to_json()
    del d["white"]
    with pytest.raises(ResultLineError, match="the field 'white' is missing"):
        GameResult.from_json(d)


def test_a_file_with_lines_that_are_not_results_is_read_without_failing(tmp_path):
    # a line that is JSON but not an object used to crash --resume and match-report
    good = sample().json_line()
    bad = ["[1, 2]", '"text"', "42", "null", "{}", "[" * 100_000, '{"index": 1' , "9" * 5000]
    path = tmp_path / "results.jsonl"
    path.write_bytes(("\n".join([good.strip(), *bad, "", good.strip()]) + "\n").encode() + b"\xff\xfe{\n")
    results, unreadable = read_results(path)
    assert results == [sample(), sample()]
    assert unreadable == [*bad, "\ufffd\ufffd{"]
    assert read_results(tmp_path / "missing.jsonl") == ([], [])
