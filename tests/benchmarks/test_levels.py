"""benchmarks/levels.py: the cells named on the command line, and the Pachi builds found or
reported missing before any match starts."""

from __future__ import annotations

import argparse
import stat

import pytest

import levels
from tests.runs import write_run


def test_a_cell_is_a_level_and_an_anchor():
    assert levels.parse_cell("9:pachi12-5k", argparse.ArgumentParser()) == (9, "pachi12-5k")


@pytest.mark.parametrize(
    ("text", "says"),
    [("11:gnugo1", "a level from 1 to 10"), ("3", "is not LEVEL:ANCHOR"), ("3:katago", "no anchor 'katago'")],
)
def test_a_wrong_cell_is_a_usage_error_that_says_what_is_wrong(text, says, capsys):
    with pytest.raises(SystemExit):
        levels.parse_cell(text, argparse.ArgumentParser(prog="levels.py"))
    assert says in capsys.readouterr().err


def test_a_pachi_given_is_used_before_one_on_the_path(tmp_path, monkeypatch):
    on_path = tmp_path / "pachi12"
    on_path.write_text("#!/bin/sh\n")
    on_path.chmod(on_path.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert levels.find_pachi("/opt/pachi12", "pachi12") == "/opt/pachi12"
    assert levels.find_pachi(None, "pachi12") == str(on_path)


def test_without_a_pachi_its_usual_home_is_tried_then_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    home = tmp_path / "built" / "pachi12"
    monkeypatch.setitem(levels.PACHI_HOMES, "pachi12", home)
    assert levels.find_pachi(None, "pachi12") is None
    home.parent.mkdir()
    home.write_text("")
    assert levels.find_pachi(None, "pachi12") == str(home)


def test_a_cell_whose_pachi_is_missing_is_skipped_with_the_option_to_pass(tmp_path):
    line = levels.play_cell(tmp_path, 9, "pachi12-5k", 2, {"pachi": "/x/pachi", "pachi12": None}, 2.0)
    assert line == "L9-pachi12-5k: skipped (no pachi12: pass --pachi12 PATH)"
    assert not (tmp_path / "L9-pachi12-5k").exists()


def test_the_report_has_a_row_per_level_and_a_column_per_anchor_played(tmp_path):
    write_run(levels.cell_dir(tmp_path, 4, "gnugo1"), ("miai-L4", "gnugo1"), ["B+3.5", "W+10.5", "W+0.5"])  # 2 of 3
    write_run(levels.cell_dir(tmp_path, 9, "pachi12-5k"), ("miai-L9", "pachi12-5k"), ["W+2.5"])
    assert levels.report(tmp_path).splitlines() == [
        "| level | gnugo1 | pachi12-5k |",
        "|---|---|---|",
        "| 4 | 2/3 (21–94%) |  |",
        "| 9 |  | 0/1 (0–79%) |",
    ]


def test_the_report_of_nothing_played_says_so(tmp_path):
    assert levels.report(tmp_path) == f"no cell played under {tmp_path}"
