"""Text diagrams: exact output on small boards, star points, marks, and the rich variant."""

from __future__ import annotations

import doctest
import io

import pytest
from rich.console import Console

import miai.render.text
from miai.coords import Color, Move, point_from_gtp
from miai.handicap import fixed_handicap_points
from miai.render import diagram, rich_diagram, star_points


class FakeBoard:
    """The renderer's whole input contract: ``.size`` and ``[point] -> Color | None``."""

    def __init__(self, size: int, black: str = "", white: str = ""):
        self.size = size
        self.stones = {point_from_gtp(v, size): Color.BLACK for v in black.split()}
        self.stones.update({point_from_gtp(v, size): Color.WHITE for v in white.split()})

    def __getitem__(self, point):
        return self.stones.get(point)


def p(vertex: str, size: int = 19):
    return point_from_gtp(vertex, size)


def test_empty_5x5_has_coordinates_on_four_sides_and_no_star_points():
    assert diagram(FakeBoard(5)) == (
        "  A B C D E\n"
        "5 . . . . . 5\n"
        "4 . . . . . 4\n"
        "3 . . . . . 3\n"
        "2 . . . . . 2\n"
        "1 . . . . . 1\n"
        "  A B C D E"
    )


def test_9x9_stones_star_points_and_last_move():
    board = FakeBoard(9, black="C3 E5", white="G7 D4")
    assert diagram(board, last_move=p("E5", 9)) == (
        "  A B C D E F G H J\n"
        "9 . . . . . . . . . 9\n"
        "8 . . . . . . . . . 8\n"
        "7 . . + . . . O . . 7\n"
        "6 . . . . . . . . . 6\n"
        "5 . . . .(X). . . . 5\n"
        "4 . . . O . . . . . 4\n"
        "3 . . X . . . + . . 3\n"
        "2 . . . . . . . . . 2\n"
        "1 . . . . . . . . . 1\n"
        "  A B C D E F G H J"
    )


def test_last_move_on_both_edges():
    board = FakeBoard(3, black="A1", white="C3")
    assert diagram(board, last_move=p("A1", 3)) == (
        "  A B C\n"
        "3 . . O 3\n"
        "2 . . . 2\n"
        "1(X). . 1\n"
        "  A B C"
    )
    assert diagram(board, last_move=p("C3", 3)).splitlines()[1] == "3 . .(O)3"


def test_last_move_may_be_a_move_and_a_pass_marks_nothing():
    board = FakeBoard(3, black="B2")
    assert diagram(board, last_move=Move(Color.BLACK, (1, 1))) == diagram(board, last_move=(1, 1))
    assert diagram(board, last_move=Move(Color.WHITE, None)) == diagram(board)
    assert "(" not in diagram(board)


def test_dead_stones_are_lower_case_and_marks_replace_points():
    board = FakeBoard(4, black="A1 B2", white="C3 D4")
    text = diagram(board, dead={p("B2", 4), p("D4", 4)}, marks={p("A4", 4): "a", p("A1", 4): "1"})
    assert text == (
        "  A B C D\n"
        "4 a . . o 4\n"
        "3 . . O . 3\n"
        "2 . x . . 2\n"
        "1 1 . . . 1\n"
        "  A B C D"
    )


def test_a_mark_must_be_one_character():
    with pytest.raises(ValueError, match="one character"):
        diagram(FakeBoard(3), marks={(0, 0): "ab"})


def test_two_digit_rows_are_right_aligned_on_the_left():
    text = diagram(FakeBoard(19, black="D4 T1", white="Q16"), last_move=p("T1"))
    lines = text.splitlines()
    assert len(lines) == 21
    assert lines[0] == "   A B C D E F G H J K L M N O P Q R S T"
    assert lines[-1] == lines[0]
    assert lines[1] == "19 . . . . . . . . . . . . . . . . . . . 19"
    assert lines[4] == "16 . . . + . . . . . + . . . . . O . . . 16"
    assert lines[10] == "10 . . . + . . . . . + . . . . . + . . . 10"
    assert lines[11] == " 9 . . . . . . . . . . . . . . . . . . . 9"
    assert lines[16] == " 4 . . . X . . . . . + . . . . . + . . . 4"
    assert lines[19] == " 1 . . . . . . . . . . . . . . . . . .(X)1"
    assert all(not line.endswith(" ") for line in lines)


def test_25x25_reaches_column_z():
    lines = diagram(FakeBoard(25)).splitlines()
    assert lines[0].endswith("X Y Z") and "I" not in lines[0]
    assert lines[1].startswith("25 .") and lines[1].endswith(". 25")


@pytest.mark.parametrize(
    ("size", "vertices"),
    [
        (2, ""),
        (5, ""),
        (6, ""),
        (7, "C3 E3 C5 E5 D4"),
        (8, "C3 F3 C6 F6"),
        (9, "C3 G3 C7 G7 E5"),
        (11, "C3 J3 C9 J9 F6"),
        (12, "D4 J4 D9 J9"),
        (13, "D4 G4 K4 D7 G7 K7 D10 G10 K10"),
        (19, "D4 K4 Q4 D10 K10 Q10 D16 K16 Q16"),
        (20, "D4 R4 D17 R17"),
        (25, "D4 N4 W4 D13 N13 W13 D22 N22 W22"),
    ],
)
def test_star_points(size, vertices):
    assert star_points(size) == {point_from_gtp(v, size) for v in vertices.split()}


def test_star_points_hold_the_fixed_handicap_placements():
    for size in range(7, 26):
        assert set(fixed_handicap_points(size, 4)) <= star_points(size), size
        if size % 2 == 1 and size >= 13:
            assert set(fixed_handicap_points(size, 9)) == star_points(size), size


def test_rich_variant_has_the_same_characters():
    board = FakeBoard(9, black="C3 E5 A1", white="G7 J9")
    options = dict(last_move=p("J9", 9), dead={p("A1", 9)}, marks={p("B2", 9): "*"})
    text = rich_diagram(board, **options)
    assert text.plain == diagram(board, **options)
    out = io.StringIO()
    Console(file=out, width=40, color_system=None).print(text)
    assert out.getvalue() == diagram(board, **options) + "\n"


def test_rich_variant_styles_stones_and_last_move():
    board = FakeBoard(3, black="B2", white="A1")
    text = rich_diagram(board, last_move=p("B2", 3), dead={p("A1", 3)})
    styles = {text.plain[s.start : s.end]: s.style for s in text.spans}
    assert styles["X"] == miai.render.text.STYLES["black"]
    assert styles["o"] == miai.render.text.STYLES["dead"]
    assert styles["("] == styles[")"] == miai.render.text.STYLES["last"]
    out = io.StringIO()
    Console(file=out, width=40, force_terminal=True, color_system="truecolor").print(text)
    assert "\x1b[" in out.getvalue()


def test_module_doctests():
    assert doctest.testmod(miai.render.text).failed == 0
