"""benchmarks/learn_patterns.py: the sources it reads (SGF files, run directories, Tygem's
move files), what it leaves out, and the table it writes, with the seen counted in one
process or split between two."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from miai.ai.patterns import PatternTable
from miai.sgf.record import SgfRecord
from tests.benchmarks import bench_script

learn_patterns = bench_script("learn_patterns")

MOVES = ";B[pd];W[dp];B[pp];W[dd];B[fq];W[cn];B[qf];W[nc];B[pb];W[fc];B[tt];W[jj]"
"""Eleven moves on the board and a pass, the opening of a 19×19 game."""


def sources(tmp_path: Path) -> list[str]:
    """A Tygem file of three games and a line that is not one, a run directory of two records,
    one of them 9×9 (left out), and a lone SGF file: 5 games of 19×19 to learn from."""
    tygem = tmp_path / "2016-07"
    tygem.write_text(f"885492098\t{MOVES}\n885492099\t{MOVES}\nnot a game\n885492100\t{MOVES[:30]}\n")
    run = tmp_path / "run"
    run.mkdir()
    (run / "game-001.sgf").write_text(f"(;GM[1]FF[4]SZ[19]KM[7.5]RU[Chinese]{MOVES})")
    (run / "game-002.sgf").write_text("(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese];B[ee])")
    return [str(tygem), str(run), str(run / "game-001.sgf")]


def test_every_kind_of_source_is_read_and_named(tmp_path):
    read = list(learn_patterns.records(sources(tmp_path)))
    assert [name.rsplit("/", 1)[-1] for name, _ in read] == [
        "2016-07:1", "2016-07:2", "2016-07:3", "2016-07:4", "game-001.sgf", "game-002.sgf", "game-001.sgf"]
    records = [r for _, r in read if isinstance(r, SgfRecord)]
    assert len(records) == 6 and not isinstance(read[2][1], SgfRecord)  # the line that is not a game
    assert [r.size for r in records] == [19, 19, 19, 19, 9, 19]
    assert len(records[0].events) == 12 and len(records[2].events) == 5  # the short game's 5 moves


def test_the_table_is_the_same_counted_in_one_process_or_two(tmp_path, capsys):
    one, two, names = tmp_path / "one.npz", tmp_path / "two.npz", sources(tmp_path)
    assert learn_patterns.main([*names, "--min-seen", "2", "-o", str(one)]) == 0
    out = capsys.readouterr()
    assert "5 games (2 left out), 49 positions, 49 moves" in out.out  # 11 + 11 + 5 + 11 + 11
    assert "2016-07:3: left out" in out.err
    assert learn_patterns.main([*names, "--min-seen", "2", "--jobs", "2", "-o", str(two)]) == 0
    a, b = PatternTable.load(one), PatternTable.load(two)
    assert len(a) > 0
    assert (a.shapes == b.shapes).all() and (a.sizes == b.sizes).all() and np.allclose(a.values, b.values)
