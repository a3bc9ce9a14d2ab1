"""Match runs: results appended as games end, resumed without losing a result whatever
kills the referee, read back and pooled."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import miai.match.runs as runs_module
from miai.match import (
    GameResult,
    Match,
    MatchConfig,
    MatchError,
    load_results,
    load_run,
    pool_runs,
    read_results,
    summarize,
)
from tests.match.fakes import fake

pytestmark = pytest.mark.timeout(60)


def test_resume_plays_only_the_missing_games(tmp_path):
    a, b = fake("A", "E5"), fake("B", "")
    config = MatchConfig((a, b), games=2, size=5)
    Match(config, tmp_path).run()
    # a crash while writing the third result leaves half a line
    with open(tmp_path / "results.jsonl", "a") as f:
        f.write('{"index": 2, "black": "A", "wh')
    started = []
    results = Match(
        MatchConfig((a, b), games=4, size=5), tmp_path, resume=True, on_game_start=started.append
    ).run()
    assert started == [2, 3]
    assert [r.index for r in results] == [0, 1, 2, 3]
    assert [r.index for r in load_results(tmp_path / "results.jsonl")] == [0, 1, 2, 3]
    # the half line is kept aside, not lost
    assert (tmp_path / "results-unreadable.txt").read_text() == '{"index": 2, "black": "A", "wh\n'
    assert read_results(tmp_path / "results.jsonl")[1] == []
    assert sorted(p.name for p in tmp_path.glob("*.sgf")) == [f"game-00{i}.sgf" for i in range(1, 5)]
    # without --resume the directory is not overwritten; other settings are refused
    with pytest.raises(MatchError, match="--resume"):
        Match(config, tmp_path).run()
    with pytest.raises(MatchError, match="other settings .*size"):
        Match(MatchConfig((a, b), games=4, size=7), tmp_path, resume=True).run()




def test_resume_never_truncates_results_in_place(tmp_path, monkeypatch):
    # --resume used to truncate results.jsonl, then write it again: kill -9 in between lost
    # 60,000 results. A crash in the middle of the rewrite now leaves the old file whole.
    a, b = fake("A", "E5"), fake("B", "")
    config = MatchConfig((a, b), games=2, size=5)
    Match(config, tmp_path).run()
    with open(tmp_path / "results.jsonl", "a") as f:
        f.write('{"index": 2, "bl')  # a line cut short: the file must be rewritten on --resume
    before = (tmp_path / "results.jsonl").read_bytes()
    calls = []
    original = GameResult.json_line

    def dies_half_way(self: GameResult) -> str:
        calls.append(self.index)
        if len(calls) == 2:
            raise KeyboardInterrupt  # the kill, half way through the rewrite
        return original(self)

    monkeypatch.setattr(GameResult, "json_line", dies_half_way)
    with pytest.raises(KeyboardInterrupt):
        Match(MatchConfig((a, b), games=3, size=5), tmp_path, resume=True).run()
    assert (tmp_path / "results.jsonl").read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    monkeypatch.setattr(GameResult, "json_line", original)
    results = Match(MatchConfig((a, b), games=3, size=5), tmp_path, resume=True).run()
    assert [r.index for r in results] == [0, 1, 2]


def test_replace_file_leaves_the_old_file_when_writing_fails(tmp_path, monkeypatch):
    path = tmp_path / "results.jsonl"
    path.write_text("old\n")

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(runs_module.os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space left"):
        runs_module.replace_file(path, "new\n")
    assert path.read_text() == "old\n" and list(tmp_path.iterdir()) == [path]


def test_lines_that_are_json_but_not_results_do_not_stop_a_resume(tmp_path):
    a, b = fake("A", "E5"), fake("B", "")
    Match(MatchConfig((a, b), games=1, size=5), tmp_path).run()
    with open(tmp_path / "results.jsonl", "a") as f:
        f.write("[1, 2]\n\"a string\"\n{}\n")
    results = Match(MatchConfig((a, b), games=2, size=5), tmp_path, resume=True).run()
    assert [r.index for r in results] == [0, 1]
    assert (tmp_path / "results-unreadable.txt").read_text().splitlines() == ["[1, 2]", '"a string"', "{}"]
    assert load_run(tmp_path).results == results


def test_a_directory_that_cannot_be_written_is_a_match_error(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(MatchError, match="cannot write the match into"):
        Match(MatchConfig((fake("A", ""), fake("B", "")), games=1, size=5), tmp_path / "file" / "out").run()


# ---------------------------------------------------------------------- pooling runs
def test_runs_of_one_match_are_pooled_under_one_pair_of_labels(tmp_path):
    # engine A plays E5 and then passes, engine B only passes: A wins every game
    Match(MatchConfig((fake("A", "E5|E5"), fake("B", "")), games=2, size=5), tmp_path / "r1").run()
    Match(MatchConfig((fake("A-new", "E5"), fake("B", "")), games=1, size=5), tmp_path / "r2").run()
    runs = [load_run(tmp_path / "r1"), load_run(tmp_path / "r2")]
    assert [r.labels for r in runs] == [("A", "B"), ("A-new", "B")]
    labels, results = pool_runs(runs)
    assert labels == ("A", "B")
    assert [(r.index, r.black, r.white, r.winner) for r in results] == [
        (0, "A", "B", "A"),
        (1, "B", "A", "A"),
        (2, "A", "B", "A"),
    ]
    assert all(set(r.time_ms) == {"A", "B"} and Path(r.sgf).is_file() for r in results)
    assert Path(results[2].sgf).parent == tmp_path / "r2"
    s = summarize(results, labels)
    assert s.wins == {"A": 3, "B": 0} and s.wins_as[("A", "black")] == 2 and s.wins_as[("A", "white")] == 1
    # other labels for the pooled table
    labels, results = pool_runs(runs, ("miai", "gnugo"))
    assert {r.black for r in results} == {"miai", "gnugo"} and summarize(results, labels).wins["miai"] == 3
    with pytest.raises(MatchError, match="different labels"):
        pool_runs(runs, ("x", "x"))


def test_a_run_with_the_engines_swapped_is_pooled_by_name(tmp_path):
    # the same two engines, each Black in the first game of one run: A wins every game
    Match(MatchConfig((fake("A", "E5|E5"), fake("B", "")), games=1, size=5), tmp_path / "r1").run()
    Match(MatchConfig((fake("B", ""), fake("A", "E5|E5")), games=2, size=5), tmp_path / "r2").run()
    runs = [load_run(tmp_path / "r1"), load_run(tmp_path / "r2")]
    assert [r.labels for r in runs] == [("A", "B"), ("B", "A")]
    labels, results = pool_runs(runs)
    assert labels == ("A", "B")
    assert [(r.black, r.white, r.winner) for r in results] == [("A", "B", "A"), ("B", "A", "A"), ("A", "B", "A")]
    s = summarize(results, labels)
    assert s.wins == {"A": 3, "B": 0} and s.wins_as[("A", "black")] == 2 and s.wins_as[("A", "white")] == 1
    own = sorted(runs[1].results, key=lambda r: r.index)
    assert [r.time_ms for r in results[1:]] == [r.time_ms for r in own]  # each engine's time stays its own
    # named in the other order, the table's A is B
    labels, results = pool_runs(runs, ("B", "A"))
    assert labels == ("B", "A") and summarize(results, labels).wins == {"A": 3, "B": 0}


def test_runs_played_under_other_settings_are_not_pooled(tmp_path):
    Match(MatchConfig((fake("A", ""), fake("B", "")), games=1, size=5), tmp_path / "r1").run()
    Match(MatchConfig((fake("A", ""), fake("B", "")), games=1, size=7, komi=0.5), tmp_path / "r2").run()
    with pytest.raises(MatchError, match=r"r2 was played with other settings than .*r1: size 7 \(not 5\), komi 0.5 \(not None\)"):
        pool_runs([load_run(tmp_path / "r1"), load_run(tmp_path / "r2")])
    with pytest.raises(MatchError, match="no match directory"):
        pool_runs([])


def test_a_directory_that_is_not_a_match_is_named(tmp_path):
    with pytest.raises(MatchError, match="is not a match directory: it has no match.json"):
        load_run(tmp_path)
    (tmp_path / "match.json").write_text("{not json")
    with pytest.raises(MatchError, match="match.json cannot be read"):
        load_run(tmp_path)
    for engines in ([{"label": "A"}], [{"label": "A"}, {"label": "A"}], [{"label": 1}, {"label": "B"}], "AB"):
        (tmp_path / "match.json").write_text(json.dumps({"engines": engines}))
        with pytest.raises(MatchError, match="does not name two engines with different labels"):
            load_run(tmp_path)
    (tmp_path / "match.json").write_text("[" * 100_000)
    with pytest.raises(MatchError, match="match.json cannot be read"):
        load_run(tmp_path)
