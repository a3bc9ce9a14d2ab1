"""Eye fixes in the heavy playouts: the approach that would make an eye false, answered."""

from __future__ import annotations

import numpy as np

from miai._kernel import heavy as H
from miai._kernel.board import BLACK, WHITE
from miai._kernel.eyefix import eye_fix_moves
from tests._kernel.test_heavy import board_of, idx, replies_with_only

# Black's corner lives with eyes at H3 and J2 while it holds J4. White has just played J6,
# behind its J5 on the edge: its next stone on J4 would make the eye at H3 false (White
# would hold G2 and J4, two of its diagonals), and the corner would die.
CORNER = """
    .........
    .........
    .........
    ......OOO
    ....OXOXO
    ...OOXXX.
    ....OOX.X
    ....O.OX.
    .....O.XX
    """

# Black's eye at B9 on the top edge: White's A7 creeps below A8, whose White stone would make
# it false, and White's C8 on its other diagonal is in atari (its last liberty C7).
EDGE = """
    X.X......
    .XOX.....
    OX.......
    O........
    .........
    .........
    .........
    .........
    .........
    """

OUT = np.zeros(64, np.int32)


def fixes(diagram: str, c: int, last: str) -> set[str]:
    game, g, m = board_of(diagram)
    n = eye_fix_moves(g, m, c, idx(game, last), OUT)
    names = {idx(game, v): v for v in ("J4", "A8", "C7")}
    return {names.get(int(p), str(int(p))) for p in OUT[:n]}


def test_the_approach_along_the_wall_is_answered_where_the_eye_would_be_made_false():
    assert fixes(CORNER, BLACK, "J6") == {"J4"}


def test_a_spoiler_in_atari_is_captured_and_an_edge_eye_guarded():
    assert fixes(EDGE, BLACK, "A6") == {"C7", "A8"}


def test_no_fix_after_ones_own_move_or_where_no_eye_is_at_stake():
    assert fixes(CORNER, WHITE, "J6") == set()  # White's own move: nothing for White to fix
    assert fixes(CORNER.replace("OXOXO\n", "OXO.O\n"), BLACK, "J6") == set()  # J5 not flanked by Black's H5
    assert fixes(CORNER.replace("OOX.X\n", "OOXXX\n"), BLACK, "J6") == set()  # H3 filled: no eye left there


def test_the_policy_fills_the_point_only_with_the_eye_fix_on():
    game, _, _ = board_of(CORNER)
    assert replies_with_only(CORNER, BLACK, "J6", H.P_EYEFIX, 1.0) == {idx(game, "J4")}
    assert len(replies_with_only(CORNER, BLACK, "J6", H.P_EYEFIX, 0.0)) > 10

