"""miai's own reading (miai.testing.local_reader: an exact search on the rules core's board with
Benson's life, and a ladder-and-net reader) of every problem's listed first moves, beside GNU
Go's reading that wrote the trees: where miai's search decides, it agrees, but for the
differences listed here with the reason (docs/PROBLEMS.md gives the figures over every point)."""

from __future__ import annotations

import pytest

from miai.coords import point_to_gtp
from miai.problems import Verdict, load_problems
from miai.testing.local_reader import LocalReader

PROBLEMS = load_problems()

KNOWN: dict[tuple[str, str], str] = {
    ("save-connect", "D1"): "three liberties count as an escape for this reader; on the edge GNU Go reads the capture",
    ("save-connect-2", "D1"): "the same",
    ("save-connect-19", "D1"): "the same",
    ("cap-second-line", "D3"): "the same: the chain gets three liberties on the second line, and dies on the edge",
    ("cap-second-line", "E2"): "the same",
    ("cap-second-line-white", "D3"): "the same",
    ("cap-second-line-white", "E2"): "the same",
    ("net-or-ladder", "E4"): "this reader tries nets in the first plies only; the net needs a second one later",
    ("ladder-broken-atari", "E4"): "the same: the capture needs a net move deeper than this reader looks",
}


@pytest.mark.parametrize("problem", PROBLEMS, ids=[p.id for p in PROBLEMS])
def test_miai_reads_the_listed_first_moves_as_gnu_go_does(problem):
    reader = LocalReader(problem, positions=1_500)
    found = []
    for child in problem.start.replies:
        point = child.move.point
        assert point is not None
        after = reader.board.copy()
        after.place(point, problem.to_play)
        wins = reader.player_wins(after, problem.to_play.opponent)
        if wins is None or (problem.id, point_to_gtp(point)) in KNOWN:
            continue
        if wins != (child.verdict is Verdict.RIGHT):
            found.append(f"{point_to_gtp(point)}: GNU Go {child.verdict.value}, miai {'right' if wins else 'wrong'}")
    assert found == []
