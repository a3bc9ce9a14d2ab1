"""Nakade in the heavy playouts: the vital point of a small eye space."""

from __future__ import annotations

import numpy as np
import pytest

from miai._kernel import heavy as H
from miai._kernel.board import BLACK, WHITE
from miai._kernel.nakade import NAKADE_MAX, nakade_move, vital_point
from tests._kernel.test_heavy import board_of, idx, replies_with_only

W = 11  # a row's length in the padded layout of a 9x9 board
AREA = np.zeros(NAKADE_MAX, np.int32)  # nakade_move's scratch space


def shape(*cells: tuple[int, int]) -> tuple[np.ndarray, int]:
    """An area from (row, column) cells, as :func:`vital_point` takes it."""
    area = np.zeros(6, np.int32)
    for i, (r, c) in enumerate(cells):
        area[i] = (r + 1) * W + c + 1
    return area, len(cells)


def point(r: int, c: int) -> int:
    return (r + 1) * W + c + 1


@pytest.mark.parametrize(
    ("cells", "vital"),
    [
        (((0, 0), (0, 1), (0, 2)), (0, 1)),  # straight three
        (((0, 0), (0, 1), (1, 1)), (0, 1)),  # bent three
        (((0, 0), (0, 1), (0, 2), (1, 1)), (0, 1)),  # tetris four
        (((0, 0), (0, 1), (1, 0), (1, 1), (0, 2)), (0, 1)),  # bulky five
        (((1, 1), (0, 1), (1, 0), (1, 2), (2, 1)), (1, 1)),  # cross five
        (((1, 1), (0, 1), (1, 0), (1, 2), (2, 1), (2, 2)), (1, 1)),  # rabbity six
    ],
)
def test_killable_shapes_give_their_vital_point(cells, vital):
    area, n = shape(*cells)
    assert vital_point(W, area, n) == point(*vital)


@pytest.mark.parametrize(
    "cells",
    [
        ((0, 0), (0, 1)),  # two points
        ((0, 0), (0, 1), (0, 2), (0, 3)),  # straight four
        ((0, 0), (0, 1), (0, 2), (1, 2)),  # L four
        ((0, 0), (0, 1), (1, 0), (1, 1)),  # square four
        ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4)),  # straight five
        ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)),  # 2x3 six
    ],
)
def test_living_or_settled_shapes_have_no_vital_point(cells):
    area, n = shape(*cells)
    assert vital_point(W, area, n) == 0


# Black's straight three on the edge (A1 B1 C1), walled by A2 B2 C2, D1 and E1.
STRAIGHT_THREE = """
    .........
    .........
    .........
    .........
    .........
    .........
    .........
    XXXX.....
    ...XX....
    """


def test_the_owners_move_next_to_the_space_is_answered_on_the_vital_point():
    game, g, m = board_of(STRAIGHT_THREE)
    assert nakade_move(g, m, WHITE, idx(game, "D1"), AREA) == idx(game, "B1")


def test_no_vital_point_after_ones_own_move_or_in_the_open_or_by_the_other_colour():
    game, g, m = board_of(STRAIGHT_THREE)
    assert nakade_move(g, m, BLACK, idx(game, "D1"), AREA) == 0  # Black's own move: not White's to answer
    assert nakade_move(g, m, WHITE, idx(game, "D2"), AREA) == 0  # D2 borders the open board
    game, g, m = board_of(STRAIGHT_THREE.replace("XXXX.....\n    ...XX", "XXXX.....\n    O..XX"))
    assert nakade_move(g, m, WHITE, idx(game, "D1"), AREA) == 0  # a White stone inside: not Black's space


def test_the_policy_takes_the_vital_point_only_with_nakade_on():
    game, _, _ = board_of(STRAIGHT_THREE)
    assert replies_with_only(STRAIGHT_THREE, WHITE, "D1", H.P_NAKADE, 1.0) == {idx(game, "B1")}
    assert len(replies_with_only(STRAIGHT_THREE, WHITE, "D1", H.P_NAKADE, 0.0)) > 10

