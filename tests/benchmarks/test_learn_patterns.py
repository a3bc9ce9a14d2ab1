"""benchmarks/learn_patterns.py: what it leaves out of its sources (:mod:`miai.sgf.corpus`)
and the table it writes, with the seen counted in one process or split between two."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from miai.ai.patterns import PatternTable
from tests.benchmarks import bench_script
from tests.sgf.test_corpus import sources

learn_patterns = bench_script("learn_patterns")

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
