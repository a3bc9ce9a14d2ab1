"""Fixed handicap placements (RULES.md §7), checked against the rules text and GNU Go."""

from __future__ import annotations

from pathlib import Path
import subprocess

import pytest

from miai.coords import point_to_gtp
from miai.errors import HandicapError
from miai.handicap import check_free_handicap, fixed_handicap_points, max_fixed_handicap

RULES_19 = {
    2: "D4 Q16",
    3: "D4 Q16 D16",
    4: "D4 Q16 D16 Q4",
    5: "D4 Q16 D16 Q4 K10",
    6: "D4 Q16 D16 Q4 D10 Q10",
    7: "D4 Q16 D16 Q4 D10 Q10 K10",
    8: "D4 Q16 D16 Q4 D10 Q10 K4 K16",
    9: "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10",
}


@pytest.mark.parametrize(("stones", "expected"), RULES_19.items())
def test_19x19_placements_as_rules_md_lists_them(stones, expected):
    assert sorted(point_to_gtp(p) for p in fixed_handicap_points(19, stones)) == sorted(expected.split())


def test_seed_002_letters_map_to_the_same_points():
    # A B C = Q4 K4 D4, D E F = Q10 K10 D10, G H I = Q16 K16 D16
    letters = dict(zip("ABCDEFGHI", "Q4 K4 D4 Q10 K10 D10 Q16 K16 D16".split()))
    seed = {2: "CG", 3: "CGI", 4: "ACGI", 5: "ACEGI", 6: "ADGCFI", 7: "ACDEFGI", 8: "ABCDFGHI", 9: "ABCDEFGHI"}
    for stones, names in seed.items():
        assert sorted(letters[x] for x in names) == sorted(point_to_gtp(p) for p in fixed_handicap_points(19, stones))


def test_lines_and_limits_by_board_size():
    assert sorted(point_to_gtp(p) for p in fixed_handicap_points(13, 2)) == ["D4", "K10"]
    assert sorted(point_to_gtp(p) for p in fixed_handicap_points(9, 2)) == ["C3", "G7"]
    assert max_fixed_handicap(9) == 9 and max_fixed_handicap(8) == 4 and max_fixed_handicap(7) == 4
    assert max_fixed_handicap(6) == 0
    with pytest.raises(HandicapError, match="2 to 4"):
        fixed_handicap_points(10, 5)
    with pytest.raises(HandicapError, match="no fixed handicap"):
        fixed_handicap_points(5, 2)
    with pytest.raises(HandicapError):
        fixed_handicap_points(19, 1)


@pytest.mark.gnugo
@pytest.mark.skipif(not Path("/usr/games/gnugo").exists(), reason="GNU Go is not installed (.ci/run installs it)")
def test_every_size_and_count_agrees_with_gnu_go():
    commands, expected = [], []
    for size in range(7, 20):  # GNU Go stops at 19x19
        for stones in range(2, 10):
            commands += [f"boardsize {size}", "clear_board", f"fixed_handicap {stones}"]
            try:
                expected.append(sorted(point_to_gtp(p) for p in fixed_handicap_points(size, stones)))
            except HandicapError:
                expected.append(None)
    out = subprocess.run(
        ["/usr/games/gnugo", "--mode", "gtp", "--quiet"],
        input="\n".join(commands) + "\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    replies = [r for r in out.split("\n\n") if r.strip()]
    answers = replies[2::3]
    assert len(answers) == len(expected)
    for answer, want in zip(answers, expected):
        if want is None:
            assert answer.startswith("?")
        else:
            assert answer.startswith("=") and sorted(answer[1:].split()) == want


def test_free_handicap_checks():
    assert check_free_handicap(9, [(0, 0), (1, 1)]) == [(0, 0), (1, 1)]
    with pytest.raises(HandicapError, match="at least 2"):
        check_free_handicap(9, [(0, 0)])
    with pytest.raises(HandicapError, match="twice on A1"):
        check_free_handicap(9, [(0, 0), (0, 0)])
    with pytest.raises(HandicapError, match="at least one empty"):
        check_free_handicap(2, [(0, 0), (0, 1), (1, 0), (1, 1)])
