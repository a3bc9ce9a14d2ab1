"""``miai match-report DIR...``: the results of ``miai match`` runs, pooled into one table."""

from __future__ import annotations

import json

from miai.cli.main import main
from tests.runs import write_run


def test_two_runs_are_reported_one_line_each_and_pooled(tmp_path, capsys):
    r1 = write_run(tmp_path / "r1", ("miai", "gnugo"), ["B+3.5", "B+0.5"])  # miai wins as Black, loses as White
    r2 = write_run(tmp_path / "r2", ("miai-ladder", "gnugo"), ["B+1.5", "W+2.5", "B+R"])  # 3 of 3
    assert main(["match-report", str(r1), str(r2)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert lines[0] == f"{r1}: 2 of 4 games, miai (A) won 1, gnugo (B) won 1; A: engine-a --fast"
    assert lines[1] == f"{r2}: 3 of 4 games, miai-ladder (A) won 3, gnugo (B) won 0; A: engine-a --fast"
    table = "\n".join(lines[3:])
    assert table.startswith("5 games: miai (A) vs gnugo (B)")
    assert "miai win rate: 80.0% (95% CI" in table
    assert "Black won 4, White won 1" in table
    row = next(line for line in lines if line.startswith("miai "))
    assert row.split() == ["miai", "4", "3/3", "1/2", "200", "0"]


def test_labels_for_the_pooled_table(tmp_path, capsys):
    r1 = write_run(tmp_path / "r1", ("a", "b"), ["B+3.5"])
    assert main(["match-report", str(r1), "--name-a", "new", "--name-b", "old"]) == 0
    out, _ = capsys.readouterr()
    assert "1 game: new (A) vs old (B)" in out and "new win rate: 100.0%" in out


def test_runs_with_the_engines_swapped_are_pooled_by_name(tmp_path, capsys):
    r1 = write_run(tmp_path / "r1", ("miai", "pachi"), ["W+R", "W+R"])  # miai loses as Black, wins as White
    r2 = write_run(tmp_path / "r2", ("pachi", "miai"), ["W+R", "B+R"])  # miai wins as White and as Black
    assert main(["match-report", str(r1), str(r2), "--name-a", "miai"]) == 0
    out, _ = capsys.readouterr()
    assert f"{r2}: 2 of 4 games, pachi (A) won 0, miai (B) won 2" in out
    assert "4 games: miai (A) vs pachi (B)" in out and "miai win rate: 75.0%" in out
    row = next(line for line in out.splitlines() if line.startswith("miai "))
    assert row.split()[:4] == ["miai", "3", "1/2", "2/2"]


def test_runs_that_cannot_be_pooled_are_refused_with_the_reason(tmp_path, capsys):
    r1 = write_run(tmp_path / "r1", ("a", "b"), ["B+3.5"])
    r2 = write_run(tmp_path / "r2", ("a", "b"), ["B+3.5"], size=19)
    assert main(["match-report", str(r1), str(r2)]) == 2
    _, err = capsys.readouterr()
    assert err == f"miai match-report: {r2} was played with other settings than {r1}: size 19 (not 9)\n"
    assert main(["match-report", str(tmp_path / "missing")]) == 2
    _, err = capsys.readouterr()
    assert "missing is not a match directory: it has no match.json" in err


def test_lines_that_are_not_results_are_skipped(tmp_path, capsys):
    # a line that is JSON but not an object used to end match-report in a traceback
    r1 = write_run(tmp_path / "r1", ("a", "b"), ["B+3.5", "B+1.5"])
    with open(r1 / "results.jsonl", "a") as f:
        f.write('[1, 2]\n"text"\n{"index": 5}\n' + "[" * 50_000 + "\n")
    assert main(["match-report", str(r1)]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.startswith(f"{r1}: 2 of 4 games, a (A) won 1, b (B) won 1")


def test_a_settings_file_that_is_not_a_match_is_refused(tmp_path, capsys):
    r1 = write_run(tmp_path / "r1", ("a", "b"), ["B+3.5"])
    (r1 / "match.json").write_text(json.dumps({"engines": [{"label": "a", "command": [1, None]}, {"label": "b"}]}))
    assert main(["match-report", str(r1)]) == 0
    assert "A: 1 None" in capsys.readouterr().out
    (r1 / "match.json").write_text(json.dumps([1, 2]))
    assert main(["match-report", str(r1)]) == 2
    assert "does not name two engines" in capsys.readouterr().err
