"""Coordinates: GTP, SGF and (row, col), and Move values."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from miai.coords import Color, Move, point_from_gtp, point_from_sgf, point_to_gtp, point_to_sgf
from miai.errors import InvalidMoveError


def test_known_points():
    assert point_from_gtp("D4", 19) == (3, 3)
    assert point_from_gtp("q16", 19) == (15, 15)
    assert point_from_gtp("J1", 9) == (0, 8)  # no I column
    assert point_to_gtp((0, 8)) == "J1"
    assert point_from_sgf("aa", 19) == (18, 0)  # top-left
    assert point_to_sgf((3, 3), 19) == "dp"
    assert point_from_gtp("pass", 9) is None and point_from_sgf("", 19) is None
    assert point_from_sgf("tt", 19) is None and point_from_sgf("tt", 21) == (1, 19)
    assert point_from_gtp("Z25", 25) == (24, 24)


@pytest.mark.parametrize("bad", ["", "I5", "D0", "D", "4D", "T20", "D4x", "??"])
def test_bad_gtp_vertices(bad):
    with pytest.raises(InvalidMoveError):
        point_from_gtp(bad, 19)


@pytest.mark.parametrize("bad", ["A\u00b2", "A\u0661", "D\u0664", "A\uff11", "A1\u00b2", "A\u2460", "A+1", "A 1", "A-1", "A1_0"])
def test_gtp_rows_are_ascii_digits_only(bad):
    """Superscripts and other scripts' digits are not row numbers (A١ was read as A1)."""
    with pytest.raises(InvalidMoveError, match="not a GTP vertex"):
        point_from_gtp(bad, 19)


def test_huge_gtp_rows_are_off_the_board_not_a_crash():
    for digits in ("9" * 5000, "1" + "0" * 4400, "100", "26"):
        with pytest.raises(InvalidMoveError, match="off the 25x25 board") as err:
            point_from_gtp("A" + digits, 25)
        assert len(str(err.value)) < 80
    assert point_from_gtp("A" + "0" * 5000 + "7", 9) == (6, 0)  # leading zeros are still a number
    with pytest.raises(InvalidMoveError, match="off the 9x9 board"):
        point_from_gtp("A" + "0" * 5000, 9)


@given(size=st.integers(2, 25), data=st.data())
def test_round_trips(size, data):
    p = (data.draw(st.integers(0, size - 1)), data.draw(st.integers(0, size - 1)))
    assert point_from_gtp(point_to_gtp(p), size) == p
    if not (size <= 19 and point_to_sgf(p, size) == "tt"):
        assert point_from_sgf(point_to_sgf(p, size), size) == p


def test_moves_and_colours():
    m = Move.from_gtp("w", "D4", 19)
    assert m == Move(Color.WHITE, (3, 3)) and str(m) == "W D4" and m.sgf(19) == "W[dp]"
    assert repr(m) == "Move(Color.WHITE, (3, 3))"
    assert Move(Color.BLACK, None).is_pass and Move(Color.BLACK, None).sgf(19) == "B[]"
    assert Color.parse("Black") is Color.BLACK and Color.BLACK.opponent is Color.WHITE
    with pytest.raises(InvalidMoveError):
        Color.parse("red")  # (the server's wire once read anything but "black" as White)
    assert all(Color.parse(str(c)) is c for c in Color) and [str(c) for c in Color] == ["black", "white"]


def test_neighbors_stay_on_the_board() -> None:
    from miai.coords import neighbors

    assert sorted(neighbors((0, 0), 9)) == [(0, 1), (1, 0)]
    assert sorted(neighbors((0, 4), 9)) == [(0, 3), (0, 5), (1, 4)]
    assert sorted(neighbors((4, 4), 9)) == [(3, 4), (4, 3), (4, 5), (5, 4)]
    assert sorted(neighbors((8, 8), 9)) == [(7, 8), (8, 7)]


def test_vertices_are_written_in_one_order():
    from miai.coords import vertices

    points = [point_from_gtp(v, 9) for v in "B1 A2 J9 A1 B3".split()]
    assert vertices(points) == "A1 A2 B1 B3 J9"  # by column, then from the bottom
    assert vertices(set(points)) == vertices(reversed(points))
    assert vertices([]) == ""


def test_board_sizes_are_checked_with_a_miai_error():
    from miai.coords import check_size
    from miai.errors import BoardSizeError, MiaiError

    assert check_size(2) == 2 and check_size(25) == 25
    for bad in (1, 26, -9, 9.0, "19", None, True):
        with pytest.raises(BoardSizeError) as err:
            check_size(bad)
        assert isinstance(err.value, MiaiError) and isinstance(err.value, ValueError)


def test_a_move_checks_its_colour_and_normalizes_its_point():
    import numpy as np

    for bad in (3, 0, 1, "b", None):
        with pytest.raises(InvalidMoveError, match="not a colour"):
            Move(bad, (4, 4))  # type: ignore[arg-type]
    for bad in ((1, 2, 3), "D4", (True, 2), (1.5, 2), 7):
        with pytest.raises(InvalidMoveError, match="not a point"):
            Move(Color.BLACK, bad)  # type: ignore[arg-type]
    m = Move(Color.BLACK, [np.int64(3), 4])  # type: ignore[arg-type]
    assert m.point == (3, 4) and type(m.point[0]) is int and m == Move(Color.BLACK, (3, 4))
    assert hash(m) == hash(Move(Color.BLACK, (3, 4)))
