"""``miai bench``: the playout benchmark for each of the kernel's three playout policies."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from miai.cli.bench import POLICIES, playout_speed


@pytest.mark.parametrize("policy", POLICIES)
def test_each_policy_is_timed_from_the_empty_board(policy):
    figures = playout_speed(5, 0.05, seed=3, policy=policy)
    assert figures["size"] == 5 and figures["playouts"] > 0
    assert figures["playouts_per_second"] == pytest.approx(figures["playouts"] / figures["seconds"], rel=0.05)
    # a 5×5 playout fills most of the 25 points, and stops within the turn limit 3 N²
    assert 10 < figures["moves_per_playout"] <= 75
    assert ("black_win_rate" in figures) == (policy != "light")  # ownership counts no wins
    assert ("stones_per_playout" in figures) == (policy == "uniform")


def test_the_command_prints_one_json_line_and_refuses_an_unknown_policy():
    run = [sys.executable, "-m", "miai.cli.main", "bench", "playouts", "--size", "5", "--seconds", "0.05"]
    out = subprocess.run([*run, "--policy", "heavy"], capture_output=True, text=True, timeout=300, check=True)
    assert json.loads(out.stdout)["impl"] == "miai-numba heavy"
    bad = subprocess.run([*run, "--policy", "medium"], capture_output=True, text=True, timeout=60, check=False)
    assert bad.returncode == 2 and "invalid choice: 'medium'" in bad.stderr
