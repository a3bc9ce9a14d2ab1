"""``miai train``: what it leaves out of its sources (:mod:`miai.train.corpus`) and the files it
writes, with a reading done in one process or split between two."""

from __future__ import annotations

import numpy as np
import pytest

from miai.ai.movemodel import MoveModel
from miai.ai.patterns import PatternTable
from miai.cli.main import main
from tests.train.test_corpus import sources


def test_the_table_is_the_same_counted_in_one_process_or_two(tmp_path, capsys):
    one, two, names = tmp_path / "one.npz", tmp_path / "two.npz", sources(tmp_path)
    assert main(["train", "patterns", *names, "--min-seen", "2", "-o", str(one)]) == 0
    out = capsys.readouterr()
    assert "5 games (2 left out), 49 positions, 49 moves" in out.out  # 11 + 11 + 5 + 11 + 11
    assert "2016-07:3: left out" in out.err
    assert main(["train", "patterns", *names, "--min-seen", "2", "--jobs", "2", "-o", str(two)]) == 0
    a, b = PatternTable.load(one), PatternTable.load(two)
    assert len(a) > 0
    assert (a.shapes == b.shapes).all() and (a.sizes == b.sizes).all() and np.allclose(a.values, b.values)


def test_the_predictor_is_the_same_read_in_one_process_or_two(tmp_path, capsys):
    names, table = sources(tmp_path), tmp_path / "table.npz"
    assert main(["train", "patterns", *names, "--min-seen", "1", "-o", str(table)]) == 0
    models = []
    for jobs in ("1", "2"):
        out = tmp_path / f"model{jobs}.npz"
        assert main(["train", "movemodel", *names, "--table", str(table), "--iterations", "2", "--jobs", jobs, "-o", str(out)]) == 0
        models.append(MoveModel.load(out))
    printed = capsys.readouterr()
    assert "5 games (2 left out), 49 positions" in printed.out and "fitted in 2 sweeps" in printed.out
    assert "sweep 2: mean log-likelihood" in printed.err
    assert np.array_equal(models[0].log_gammas, models[1].log_gammas)


def test_train_is_a_subcommand_naming_what_it_learns(capsys):
    with pytest.raises(SystemExit) as done:
        main(["train", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "patterns" in out and "movemodel" in out
