"""The tactical questions both playout policies ask (miai._kernel.tactics)."""

from __future__ import annotations

from miai import _kernel as K
from miai._kernel.light import useless_self_atari
from miai._kernel.tactics import captures_something, chain_liberty, liberties_after, stones_after
from tests.diagrams import board_from




def test_a_stone_joining_four_chains_counts_all_their_liberties():
    """C3 joins four separate black chains; only D3-E3 has liberties left. (The light policy once looked at three of them and called this a
    suicide.)"""
    board = board_from(
        """
        . . O . .
        . O X O .
        O X . X X
        . O X O .
        . . O . .
        """
    )
    p = board.index((2, 2))
    assert liberties_after(board.grid, board.meta, p, K.BLACK, 2) == 2
    assert stones_after(board.grid, board.meta, p, K.BLACK) == 6
    assert not useless_self_atari(board.grid, board.meta, p, K.BLACK)
    after = board.copy()
    after.place((2, 2), K.BLACK)
    assert after.liberties((2, 2)) >= 2  # the truth, from playing it


def test_captures_and_chain_liberty():
    board = board_from(
        """
        . . . . .
        . X O X .
        . . X . .
        . . . . .
        . . . . .
        """
    )
    top = board.index((4, 2))
    assert captures_something(board.grid, board.meta, top, K.BLACK) == 1
    assert captures_something(board.grid, board.meta, top, K.WHITE) == 0
    head = board.grid[K.board.HEAD, board.index((3, 2))]
    assert chain_liberty(board.grid, int(board.meta[K.board.M_W]), head, 0) == top
    assert chain_liberty(board.grid, int(board.meta[K.board.M_W]), head, top) == 0
