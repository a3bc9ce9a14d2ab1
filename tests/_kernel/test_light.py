"""The light playout policy (the status estimate's ownership): its judgement of self-ataris,
the nakade test (what the capture gives the opponent) rather than the chain's size, and the
vital point of a three-point space."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from miai._kernel.light import ownership, useless_self_atari, vital_point_of_three
from miai.coords import point_from_gtp
from tests.diagrams import SEKI_GNUGO_43, game_from

# Seed 43 of the GNU Go games, cut out: White's eyeless group (E8 … J7) has G9 and H7;
# Black H8 J8 has H7 and J9; White H9 has G9 and J9. A seki.
SEKI = SEKI_GNUGO_43
# The same after White G9: both chains have H7 and J9 only; Black's sacrifice kills.
AFTER_G9 = SEKI.replace(". X . X O O . O .", ". X . X O O O O .", 1)


def judge(diagram: str, vertex: str, colour: int) -> bool:
    board = game_from(diagram).board
    return bool(useless_self_atari(board.grid, board.meta, board.index(point_from_gtp(vertex, 9)), colour))


@pytest.mark.parametrize(
    "vertex, colour, bad",
    [
        ("H7", 1, True),  # 3 stones in atari; their capture leaves White G9 as a second eye
        ("J9", 1, True),  # the same, captured at H7
        ("G9", 1, True),  # suicide
        ("H7", 2, True),  # the big group in atari
        ("J9", 2, True),  # H9 J9 in atari, captured at G9 next to White's own stones: no nakade
        ("G9", 2, False),  # connects, two liberties
        ("E6", 1, False),  # an ordinary move
    ],
)
def test_seki_fills_are_useless_self_ataris(vertex, colour, bad):
    assert judge(SEKI, vertex, colour) is bad


def test_a_real_nakade_sacrifice_is_allowed():
    # White has no eye besides the space H7 H8 J8 J9: Black's three stones may be sacrificed.
    assert judge(AFTER_G9, "H7", 1) is False
    assert judge(AFTER_G9, "J9", 1) is False
    assert judge(AFTER_G9, "H7", 2) is True


def test_vital_point_of_a_three_point_space():
    board = game_from(
        """
        . . . . . . . O .
        . . . . . . . O O
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        O O O O . . . . .
        . . . O . . . . .
        O O O O . . . . .
        """.replace("        ", "")
    ).board
    w = board.size + 2
    at = lambda v: board.index(point_from_gtp(v, 9))  # noqa: E731
    assert vital_point_of_three(board.grid, w, at("A2")) == at("B2")
    assert vital_point_of_three(board.grid, w, at("C2")) == at("B2")
    assert vital_point_of_three(board.grid, w, at("J9")) == 0  # a single point
    assert vital_point_of_three(board.grid, w, at("E5")) == 0  # the open board


def test_playouts_keep_the_seki_and_play_the_nakade():
    for diagram in (SEKI, AFTER_G9):
        board = game_from(diagram).board
        owned = np.zeros((3, board.grid.shape[1]), np.int32)
        ownership(board.grid, board.meta, 1, 200, 5, owned)
        assert owned[1, board.index(point_from_gtp("H8", 9))] / 200 > 0.9  # Black's H8 J8 live
    big = game_from(AFTER_G9).board
    owned = np.zeros((3, big.grid.shape[1]), np.int32)
    ownership(big.grid, big.meta, 1, 200, 5, owned)
    assert owned[1, big.index(point_from_gtp("G7", 9))] / 200 > 0.9  # White's group dies


def test_ownership_runs_interpreted_with_jit_disabled():
    code = (
        "import numba.core.config as c; assert c.DISABLE_JIT\n"
        "import numpy as np\n"
        "from tests._kernel.test_light import SEKI, AFTER_G9\n"
        "from tests.diagrams import SEKI_GNUGO_43, game_from\n"
        "from miai._kernel.light import ownership\n"
        "for d in (SEKI, AFTER_G9):\n"
        "    b = game_from(d).board\n"
        "    owned = np.zeros((3, b.grid.shape[1]), np.int32)\n"
        "    ownership(b.grid, b.meta, 1, 20, 3, owned)\n"
        "    print(int(owned[1].sum()), int(owned[2].sum()))\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300, cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    assert out.returncode == 0, out.stderr
    seki, after = [tuple(map(int, line.split())) for line in out.stdout.split("\n") if line]
    assert sum(seki) <= 20 * 81 and sum(after) <= 20 * 81
    assert after[0] > seki[0]  # Black takes White's group after G9


def test_own_eye_is_filled_only_to_save_a_chain():
    from miai._kernel.light import playable

    # White E5 is in atari; its last liberty D5 has only White neighbours (a false eye):
    # connecting there is a move the playouts make; G9 in the seki saves nothing.
    board = game_from(
        """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . O X . . . .
        . . O . O X . . .
        . . . O X . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """.replace("        ", "")
    ).board
    assert playable(board.grid, board.meta, board.index(point_from_gtp("D5", 9)), 2)
    seki = game_from(SEKI).board
    assert not playable(seki.grid, seki.meta, seki.index(point_from_gtp("G9", 9)), 2)
