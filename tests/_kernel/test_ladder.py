"""Ladder reading (miai._kernel.ladder) and the ladder prior of the search tree.

The positions were checked against GNU Go 3.8 (``ladder_attack``, ``defend``). A ladder reader only
reads ladders: a chain that escapes the ladder may still die in a net (GNU Go's ``attack``
finds a geta after some of the "escapes" below), which is not this reader's business.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from miai._kernel import tree as T
from miai._kernel.board import BLACK, M_KO, M_KO_COLOR, WHITE
from miai._kernel.ladder import ladder_atari_works, ladder_captures, ladder_escape_fails, new_scratch
from miai.ai.config import MctsConfig
from miai.board import Board
from miai.coords import Color, point_from_gtp
from tests._kernel.test_tree import NO_LEARNING
from tests.diagrams import board_from

# White C3 is in atari, White to move; Black's stones lead the ladder up and to the right.
LADDER = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . X . . . . . .
. X O . . . . . .
. . X X . . . . .
. . . . . . . . .
"""

# The same White stone with two liberties (C2 and D3), Black to play an atari.
BEFORE_THE_ATARI = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . X . . . . . .
. X O . . . . . .
. . . X . . . . .
. . . . . . . . .
"""


def with_stone(diagram: str, vertex: str, color: Color) -> Board:
    board = board_from(diagram)
    board.set(point_from_gtp(vertex, board.size), color)
    return board


def at(board: Board, vertex: str) -> int:
    return board.index(point_from_gtp(vertex, board.size))


def ask(question: Callable[..., bool], board: Board, vertex: str, c: int) -> bool:
    """One of the ladder questions about ``vertex``, with fresh working space."""
    return bool(question(board.grid, board.meta, at(board, vertex), c, *new_scratch(board.grid, board.meta)))


def captured(board: Board, vertex: str, attacker: int = BLACK) -> bool:
    return ask(ladder_captures, board, vertex, attacker)


def escape_fails(board: Board, vertex: str, c: int = WHITE) -> bool:
    return ask(ladder_escape_fails, board, vertex, c)


def atari_works(board: Board, vertex: str, c: int = BLACK) -> bool:
    return ask(ladder_atari_works, board, vertex, c)


# ----------------------------------------------------------------- ladder_captures
def test_a_ladder_across_an_empty_board_captures():
    board = board_from(LADDER)
    before = board.grid.copy(), board.meta.copy()
    assert captured(board, "C3")
    assert (board.grid == before[0]).all() and (board.meta == before[1]).all()


def test_a_ladder_breaker_on_the_diagonal_saves_the_chain():
    assert not captured(with_stone(LADDER, "G7", Color.WHITE), "C3")
    # a Black stone on the path only helps Black; a White stone off the path changes nothing
    assert captured(with_stone(LADDER, "G7", Color.BLACK), "C3")
    assert captured(with_stone(LADDER, "B8", Color.WHITE), "C3")


def test_a_ladder_across_19x19_is_read_to_the_end():
    diagram = "\n".join(
        [". " * 19] * 15
        + [". . X" + " ." * 16, ". X O" + " ." * 16, ". . X X" + " ." * 15, ". " * 19]
    )
    assert captured(board_from(diagram), "C3")
    assert not captured(with_stone(diagram, "Q16", Color.WHITE), "C3")  # D4 E5 ... Q16
    assert captured(with_stone(diagram, "Q10", Color.WHITE), "C3")  # far from the path


def test_not_in_atari_or_not_the_defender_is_not_captured():
    board = board_from(BEFORE_THE_ATARI)
    assert not captured(board, "C3")  # two liberties
    assert not captured(board_from(LADDER), "C4")  # a Black stone, Black attacking
    assert not captured(board_from(LADDER), "E5")  # an empty point


def test_the_defender_captures_an_attacker_stone_in_atari_and_escapes():
    # Black C4 has one liberty (D4): White D4 takes it and C3 gets out
    board = board_from(
        """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . O . . . . . .
        . O X . . . . . .
        . X O . . . . . .
        . . X X . . . . .
        . . . . . . . . .
        """
    )
    assert not captured(board, "C3")


def test_capturing_an_attacker_stone_does_not_always_help():
    # White B1 in atari can take Black A1 at A2, but Black C1 is atari again and connecting
    # at A1 leaves A1 A2 B1 one liberty (A3); extending to C1 runs along the first line
    # into Black F2.
    board = board_from(
        """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . X . . . X .
        X O . . . . .
        """
    )
    assert captured(board, "B1")


def test_a_first_line_ladder_and_its_breaker():
    edge = """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . X . . . .
        . X O . . . .
        """
    assert captured(board_from(edge), "C1")
    assert escape_fails(board_from(edge), "D1")
    assert not captured(with_stone(edge, "F2", Color.WHITE), "C1")
    assert not escape_fails(with_stone(edge, "F2", Color.WHITE), "D1")


def test_a_retake_the_ko_forbids_is_no_escape():
    # Black A7 takes White B7 (a ko) and puts White A6 in atari. White may not retake at
    # once; extending to A5 or taking B6 at B5 both fail: A6 dies. With the ko ban lifted
    # (after an exchange of ko threats) retaking at B7 saves it: Black's atari at A7 would
    # retake the ko, and after Black A5 White takes B6.
    board = board_from(
        """
        . O X X . . .
        O X O . . . .
        . . . X . . .
        . X . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        """
    )
    assert atari_works(board, "A7", BLACK)
    board.place(point_from_gtp("A7", 7), Color.BLACK)
    assert board.ko is not None
    assert captured(board, "A6", BLACK)
    board.clear_ko()
    assert not captured(board, "A6", BLACK)


# ----------------------------------------------------------------- escapes and ataris
def test_an_escape_into_a_working_ladder_fails_and_with_a_breaker_it_does_not():
    assert escape_fails(board_from(LADDER), "D3")
    assert not escape_fails(with_stone(LADDER, "G7", Color.WHITE), "D3")
    # not an escape at all: no White chain in atari next to E5 or B1
    assert not escape_fails(board_from(LADDER), "E5")
    assert not escape_fails(board_from(LADDER), "B1")


def test_an_escape_to_three_liberties_does_not_fail():
    board = board_from(
        """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . X . . . . . .
        . X O . . . . . .
        . . X . . . . . .
        . . . . . . . . .
        """
    )
    assert not escape_fails(board, "D3")  # D4 E3 D2


def test_a_ladder_atari_works_towards_the_empty_side_only():
    board = board_from(BEFORE_THE_ATARI)
    assert atari_works(board, "C2")  # the ladder up and to the right
    assert atari_works(board, "D3")  # White C2 runs along the second line into the edge
    broken = with_stone(BEFORE_THE_ATARI, "G7", Color.WHITE)
    assert not atari_works(broken, "C2")
    assert atari_works(broken, "D3")
    # moves that put nothing in atari
    assert not atari_works(board, "E5")
    assert not atari_works(board, "D2")


def test_an_atari_on_a_stone_in_open_space_does_not_work():
    board = board_from(
        """
        . . . . . . .
        . . . . . . .
        . . . X . . .
        . . X O . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        """
    )
    assert not atari_works(board, "D3")
    assert not atari_works(board, "E4")


# ----------------------------------------------------------------- the tree's prior
def priors(
    board: Board, c: int, params: np.ndarray, mm_gammas: np.ndarray = NO_LEARNING[3]
) -> dict[str, tuple[float, float]]:
    ti, tf, _ = tree = T.new_tree(10_000)
    nothing_forbidden = np.zeros(board.grid.shape[1], np.bool_)
    knowledge = (*NO_LEARNING[:3], mm_gammas)
    assert T.expand(tree, 0, board.grid, board.meta, c, 0, 0, params, knowledge, nothing_forbidden)
    out = {}
    first, n = int(ti[T.T_FIRST, 0]), int(ti[T.T_NCHILD, 0])
    cols = "ABCDEFGHJKLMNOPQRST"
    for k in range(first, first + n):
        r, col = board.point(int(ti[T.T_MOVE, k]))
        out[f"{cols[col]}{r + 1}"] = (float(tf[T.T_PV, k]), float(tf[T.T_PW, k]))
    return out


def test_the_tree_gives_a_failing_escape_a_low_prior():
    kept = MctsConfig(prune_ladders=False)
    on = priors(board_from(LADDER), WHITE, kept.tree_params(7.5))
    off = priors(board_from(LADDER), WHITE, MctsConfig(prior_ladder=0.0).tree_params(7.5))
    ladder = MctsConfig().prior_ladder
    assert on["D3"][1] / on["D3"][0] < on["E5"][1] / on["E5"][0]  # an ordinary move in the open
    assert on["D3"] == (off["D3"][0] + ladder, off["D3"][1])
    assert on["E5"] == off["E5"]
    # with a breaker the escape keeps its prior
    broken = with_stone(LADDER, "G7", Color.WHITE)
    assert priors(broken, WHITE, MctsConfig().tree_params(7.5))["D3"] == off["D3"]


def test_the_tree_leaves_out_an_escape_that_runs_a_long_ladder():
    pruned = priors(board_from(LADDER), WHITE, MctsConfig().tree_params(7.5))
    kept = priors(board_from(LADDER), WHITE, MctsConfig(prune_ladders=False).tree_params(7.5))
    assert "D3" not in pruned and "D3" in kept
    assert set(kept) - set(pruned) == {"D3"}
    assert pruned["E5"] == kept["E5"]
    # reading no ladders prunes nothing
    assert "D3" in priors(board_from(LADDER), WHITE, MctsConfig(prior_ladder=0.0).tree_params(7.5))


def test_with_a_ko_just_taken_a_failing_escape_stays_as_a_threat():
    board = board_from(LADDER)
    board.meta[M_KO] = at(board, "J9")  # any ko point: the side to move needs threats
    board.meta[M_KO_COLOR] = WHITE
    assert "D3" in priors(board, WHITE, MctsConfig().tree_params(7.5))


# White B1 in atari; extending at C1 gives 2 liberties, and one more atari captures both
# stones on the first line: a short failing ladder that may matter for life and death.
SHORT_LADDER = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. X . X . . . . .
X O . . . . . . .
"""


def test_the_tree_keeps_a_short_failing_ladder_of_a_small_chain():
    board = board_from(SHORT_LADDER)
    assert escape_fails(board, "C1")
    on = priors(board, WHITE, MctsConfig().tree_params(7.5))
    off = priors(board, WHITE, MctsConfig(prior_ladder=0.0).tree_params(7.5))
    assert on["C1"] == (off["C1"][0] + MctsConfig().prior_ladder, off["C1"][1])


def test_the_tree_gives_a_working_ladder_atari_a_high_prior():
    params = MctsConfig().tree_params(7.5)
    on = priors(board_from(BEFORE_THE_ATARI), BLACK, params)
    off = priors(board_from(BEFORE_THE_ATARI), BLACK, MctsConfig(prior_ladder=0.0).tree_params(7.5))
    ladder = MctsConfig().prior_ladder
    assert on["C2"] == (off["C2"][0] + ladder, off["C2"][1] + ladder)
    assert on["C2"][1] / on["C2"][0] > on["E5"][1] / on["E5"][0]
    broken = with_stone(BEFORE_THE_ATARI, "G7", Color.WHITE)
    assert priors(broken, BLACK, params)["C2"] == off["C2"]


def test_beside_the_predictor_the_ladder_prior_takes_the_predictors_reading():
    """With the move predictor on, the tree does not read an atari's ladder a second time: it
    takes the predictor's ``F_ATARI`` level. The bonus must be the same as when it reads it."""
    from miai._kernel.movefeatures import LEVELS

    uniform = np.zeros(int(LEVELS.sum()))  # every level of strength 1: the same chance for every move
    broken = with_stone(BEFORE_THE_ATARI, "G7", Color.WHITE)  # a breaker: the atari no longer works
    for works, board in ((True, board_from(BEFORE_THE_ATARI)), (False, broken)):
        on = priors(board, BLACK, MctsConfig(prior_mm=40.0).tree_params(7.5), uniform)
        off = priors(board, BLACK, MctsConfig(prior_mm=40.0, prior_ladder=0.0).tree_params(7.5), uniform)
        bonus = MctsConfig().prior_ladder if works else 0.0
        assert on["C2"] == pytest.approx((off["C2"][0] + bonus, off["C2"][1] + bonus))
        assert on["E5"] == off["E5"]


# ----------------------------------------------------------------- interpreted
def test_ladder_reading_runs_interpreted_with_jit_disabled():
    code = (
        "import numba.core.config as c; assert c.DISABLE_JIT\n"
        "from tests.diagrams import board_from\n"
        "from tests._kernel.test_ladder import LADDER, at\n"
        "from miai._kernel.ladder import ladder_captures, ladder_escape_fails, new_scratch\n"
        "b = board_from(LADDER)\n"
        "space = new_scratch(b.grid, b.meta)\n"
        "print(ladder_captures(b.grid, b.meta, at(b, 'C3'), 1, *space), ladder_escape_fails(b.grid, b.meta, at(b, 'D3'), 2, *space))\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=Path(__file__).parents[2], capture_output=True, text=True,
        timeout=300, check=False,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True"]
