"""Fixed handicap placements (docs/RULES.md §7), checked against the rules text and GNU Go."""

from __future__ import annotations

from pathlib import Path
import subprocess

import pytest

from miai.coords import point_to_gtp
from miai.errors import HandicapError
from miai.handicap import (
    check_free_handicap,
    fixed_handicap_points,
    free_handicap_points,
    max_fixed_handicap,
    star_lines,
    star_points,
)

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


def test_free_handicap_reports_many_repeats_quickly():
    """The repeated points were found with list.count, quadratic in the number of points."""
    import time

    start = time.perf_counter()
    with pytest.raises(HandicapError, match="twice on A1, B1$"):
        check_free_handicap(9, [(0, 0), (0, 1)] * 20_000)
    assert time.perf_counter() - start < 2.0


# ---------------------------------------------------------------------- free placement
@pytest.mark.parametrize("size", range(2, 26))
def test_free_handicap_points_are_valid_for_every_size(size: int) -> None:
    counts = sorted({2, 3, 4, 5, 9, 10, 13, size * size // 2, size * size - 1} - {n for n in range(0, 2)})
    for n in counts:
        if not 2 <= n < size * size:
            continue
        points = free_handicap_points(size, n)
        assert len(points) == n
        assert check_free_handicap(size, points) == points
        assert free_handicap_points(size, n) == points  # deterministic
        if 2 <= n <= 4 and size >= 7:
            assert points == fixed_handicap_points(size, n)
    with pytest.raises(HandicapError):
        free_handicap_points(size, size * size)
    with pytest.raises(HandicapError):
        free_handicap_points(size, 1)


def test_free_handicap_extends_the_star_points() -> None:
    points = free_handicap_points(19, 13)
    assert points[:9] == fixed_handicap_points(19, 9)
    # the extra stones keep off the first three lines
    assert all(3 <= r <= 15 and 3 <= c <= 15 for r, c in points)


# ---------------------------------------------------------------------- star points: one geometry
@pytest.mark.parametrize("size", range(2, 26))
def test_star_points_and_handicap_share_the_star_lines(size):
    lo, hi, mid = star_lines(size)
    stars = star_points(size)
    assert all(r in (lo, hi, mid) and c in (lo, hi, mid) for r, c in stars)
    for stones in range(2, max_fixed_handicap(size) + 1):
        assert all(r in (lo, hi, mid) and c in (lo, hi, mid) for r, c in fixed_handicap_points(size, stones))
    if max_fixed_handicap(size) >= 4:
        assert set(fixed_handicap_points(size, 4)) <= stars


def test_the_renderer_draws_the_handicap_modules_star_points():
    from miai.render import text

    assert text.star_points is star_points


def _gnugo_star_points(size: int) -> set[str]:
    """The points GNU Go's showboard marks ``+`` on an empty board."""
    out = subprocess.run(
        ["/usr/games/gnugo", "--mode", "gtp", "--quiet"],
        input=f"boardsize {size}\nclear_board\nshowboard\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    marked = set()
    columns = "ABCDEFGHJKLMNOPQRST"[:size]
    for line in out.splitlines():
        cells = line.split()
        if len(cells) >= size + 2 and cells[0].isdigit() and cells[size + 1] == cells[0]:
            marked |= {f"{columns[c]}{cells[0]}" for c in range(size) if cells[c + 1] == "+"}
    return marked


@pytest.mark.gnugo
@pytest.mark.skipif(not Path("/usr/games/gnugo").exists(), reason="GNU Go is not installed (.ci/run installs it)")
@pytest.mark.parametrize("size", range(7, 20))  # below 7x7 GNU Go marks points no board has
def test_star_points_are_where_gnu_go_draws_them(size):
    assert {point_to_gtp(p) for p in star_points(size)} == _gnugo_star_points(size)
