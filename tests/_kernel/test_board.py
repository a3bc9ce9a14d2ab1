"""The kernel against its own consistency check, over many random games (hypothesis)."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from miai import _kernel as K
from miai._kernel.board import COLOR, M_CAPT_B, M_CAPT_W, M_HASH, M_NEMPTY
from miai.board import Board


def random_game(size: int, seed: int, turns: int, suicide: bool):
    """Yield (grid, meta) after each move of a random game that plays anything legal,
    eyes included, with a bias for captures, so that chains grow, merge and die."""
    rnd = random.Random(seed)
    grid, meta = K.new_board(size)
    c = K.BLACK
    placed = {K.BLACK: 0, K.WHITE: 0}
    for _ in range(turns):
        empties = list(grid[K.board.EMPTIES, : meta[M_NEMPTY]])
        legal = [int(p) for p in empties if K.legality(grid, meta, int(p), c, suicide) == K.LEGAL]
        if not legal or rnd.random() < 0.02:
            K.pass_turn(meta)
        else:
            capturing = [p for p in legal if K.hash_after(grid, meta, p, c) != meta[M_HASH] ^ K.board.ZOBRIST[c, p]]
            p = rnd.choice(capturing) if capturing and rnd.random() < 0.7 else rnd.choice(legal)
            expected_hash = K.hash_after(grid, meta, p, c)
            K.play_stone(grid, meta, p, c)
            assert meta[M_HASH] == expected_hash, "hash_after disagrees with the hash after playing"
            placed[c] += 1
        yield grid, meta, placed
        c = 3 - c


@settings(max_examples=150, deadline=None)
@given(size=st.integers(2, 9), seed=st.integers(0, 2**32), suicide=st.booleans())
def test_consistent_after_every_move_of_random_games(size, seed, suicide):
    for grid, meta, placed in random_game(size, seed, 4 * size * size, suicide):
        K.check_consistency(grid, meta)
        # stones are conserved: on the board = placed - captured by the other side
        black = int(np.count_nonzero(grid[COLOR] == K.BLACK))
        white = int(np.count_nonzero(grid[COLOR] == K.WHITE))
        assert black == placed[K.BLACK] - meta[M_CAPT_W]
        assert white == placed[K.WHITE] - meta[M_CAPT_B]


def test_many_random_playouts_stay_consistent():
    """Thousands of moves of the uniform playout policy itself, checked after each."""
    rnd = random.Random(7)
    for _ in range(40):
        size = rnd.choice([3, 5, 7, 9, 13])
        grid, meta = K.new_board(size)
        meta[K.board.M_RNG] = rnd.getrandbits(62) + 1
        c = K.BLACK
        passes = 0
        for _ in range(3 * size * size):
            p = K.choose_random_move(grid, meta, c)
            if p == 0:
                K.pass_turn(meta)
                passes += 1
                if passes == 2:
                    break
            else:
                passes = 0
                assert not K.is_own_eye(grid, meta, p, c)
                K.play_stone(grid, meta, p, c)
            K.check_consistency(grid, meta)
            c = 3 - c


def test_playout_ends_with_only_eyes_left_and_counts_area():
    grid, meta = K.new_board(9)
    turns, passes, diff = K.playout(grid, meta, K.BLACK, 243)
    assert 0 <= passes <= turns
    assert 0 < turns <= 243
    owners = np.empty(grid.shape[1], np.int32)
    K.region_owners(grid, meta, owners)
    black = int(np.count_nonzero(owners == K.BLACK))
    white = int(np.count_nonzero(owners == K.WHITE))
    assert diff == black - white
    if turns < 243:  # ended by two passes: every empty point is an eye of someone
        for c in (K.BLACK, K.WHITE):
            assert K.choose_random_move(grid, meta, c) == 0


def test_run_playouts_leaves_the_position_unchanged_and_is_reproducible():
    board = Board(9)
    board.place((4, 4), 1)
    before = (board.grid.copy(), board.meta.copy())
    a = K.run_playouts(board.grid, board.meta, K.WHITE, 50, 7.5, 123)
    b = K.run_playouts(board.grid, board.meta, K.WHITE, 50, 7.5, 123)
    assert a == b
    assert np.array_equal(board.grid, before[0]) and np.array_equal(board.meta, before[1])
    turns, passes, wins = a
    assert 50 * 20 < turns < 50 * 243 and 0 < passes < turns and 0 <= wins <= 50


def test_eye_definition():
    """Own single-point eyes: all neighbours own or edge, fewer than 2 bad diagonals."""
    b = Board(5)
    for p in [(0, 1), (1, 0), (1, 1)]:  # corner eye at A1
        b.place(p, 1)
    a1 = b.index((0, 0))
    assert K.is_own_eye(b.grid, b.meta, a1, K.BLACK)
    assert not K.is_own_eye(b.grid, b.meta, a1, K.WHITE)
    b.set((1, 1), 2)  # an opponent diagonal on the edge makes it false
    assert not K.is_own_eye(b.grid, b.meta, a1, K.BLACK)
    c = Board(5)
    for p in [(1, 2), (3, 2), (2, 1), (2, 3)]:  # centre eye at C3
        c.place(p, 1)
    c3 = c.index((2, 2))
    assert K.is_own_eye(c.grid, c.meta, c3, K.BLACK)
    c.set((1, 1), 2)
    assert K.is_own_eye(c.grid, c.meta, c3, K.BLACK)  # one bad diagonal in the centre is fine
    c.set((3, 3), 2)
    assert not K.is_own_eye(c.grid, c.meta, c3, K.BLACK)


def test_consistency_check_catches_corruption():
    b = Board(5)
    b.place((2, 2), 1)
    b.grid[K.board.LIBS, b.index((2, 2))] = 3
    try:
        b.check_consistency()
    except AssertionError as err:
        assert "liberties" in str(err)
    else:
        raise AssertionError("a wrong liberty count went unnoticed")


def test_kernel_runs_interpreted_with_jit_disabled():
    """The very same code runs as plain Python (for debugging and coverage)."""
    code = (
        "from miai import _kernel as K\n"
        "g, m = K.new_board(5)\n"
        "t, _, w = K.run_playouts(g, m, 1, 3, 7.5, 5)\n"
        "import numba.core.config as c; assert c.DISABLE_JIT\n"
        "from miai import Game\n"
        "game = Game(5)\n"
        "[game.play(v) for v in 'C3 B3 pass B2 C2'.split()]\n"
        "game.board.check_consistency()\n"
        "print(t, w)\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    turns, wins = map(int, out.stdout.split())
    assert turns > 0 and 0 <= wins <= 3
