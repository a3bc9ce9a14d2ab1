"""tools/root_probe.py: where a judge's move stands in miai's search of a recorded position.

The record is the 9×9 game of ``tests.tools.atari``; after its first five moves White's C3,
its last move, is the judge's move and the move played."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import root_probe

LINE = re.compile(r"  (judge's|played) +C3: rank (\d+) by visits, (\d+) by prior \(0\.\d{4}\); (\d+) visits, "
                  r"win rate ([01]\.\d{3}), (\d+) AMAF visits at ([01]\.\d{3})")


def test_the_judge_s_move_is_described_with_its_ranks_visits_and_amaf_figures(
    atari_record: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    argv = ["root_probe.py", str(atari_record), "5", "c3", "--seconds", "60", "--set", "playouts=600",
            "--set", "early_stop=false"]
    monkeypatch.setattr(sys, "argv", argv)
    root_probe.main()
    lines = capsys.readouterr().out.splitlines()
    assert re.match(r".*atari\.sgf after 5 moves: 600 playouts in [\d.]+ s; most visited [A-J]\d, \d+ visits", lines[0])
    judged, played = LINE.fullmatch(lines[1]), LINE.fullmatch(lines[2])
    assert judged and played, lines
    assert judged.groups()[1:] == played.groups()[1:]  # the same move, described the same way
    visits, amaf_visits = int(judged[4]), int(judged[6])
    assert 0 < visits <= 600
    assert amaf_visits >= visits  # each playout through the move has White on C3 first
    assert len(lines) == 3
