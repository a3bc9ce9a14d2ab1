"""Board, the one Python face of the kernel: rule questions, chains, owners, copies without
stones, and the kernel loaded on the first Board() rather than on import."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

from miai.board import Board, Chain
from miai.coords import Color, Point, neighbors
from miai.errors import IllegalReason, InvalidMoveError
from miai.regions import regions
from tests.diagrams import board_from, draw

B, W = Color.BLACK, Color.WHITE


def pt(vertex: str, size: int = 5) -> Point:
    from miai.coords import point_from_gtp

    p = point_from_gtp(vertex, size)
    assert p is not None
    return p


def random_board(size: int, seed: int) -> Board:
    """A position of a random game (stones placed with captures, passes now and then)."""
    rnd = random.Random(seed)
    board = Board(size)
    color = B
    for _ in range(2 * size * size):
        legal = board.legal_points(color, suicide=False)
        if legal and rnd.random() > 0.05:
            board.place(rnd.choice(legal), color)
        else:
            board.clear_ko()
        color = color.opponent
    return board


def test_importing_the_core_does_not_load_the_kernel():
    """The kernel (numba, numpy) loads on the first Board(), so that anything may import the
    core at the top of a module and a GTP engine still answers ``name`` at once."""
    code = (
        "import sys\n"
        "heavy = lambda: sorted(m for m in ('numba', 'numpy', 'miai._kernel') if m in sys.modules)\n"
        "import miai.board, miai.game, miai.scoring, miai.endgame, miai.life, miai.regions\n"
        "core = heavy()\n"
        "import miai.ai.status\n"
        "ai = heavy()\n"
        "miai.game.Game(9).play('E5')\n"
        "print(core, ai, heavy())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[] ['numpy'] ['miai._kernel', 'numba', 'numpy']"


def test_legality_names_the_rule_a_board_knows():
    board = board_from(
        """
        . . . X .
        . . . . X
        . X O . .
        X O . O .
        . X O . .
        """
    )
    assert board.legality(pt("C2"), B, suicide=False) is None
    assert board.legality(pt("B3"), W, suicide=False) is IllegalReason.OCCUPIED
    assert board.legality(pt("E5"), W, suicide=False) is IllegalReason.SUICIDE
    assert board.legality(pt("E5"), B, suicide=False) is None
    assert board.place(pt("C2"), B) == 1  # captures B2: White may not retake at once
    assert board.ko == (pt("B2"), W)
    assert board.legality(pt("B2"), W, suicide=False) is IllegalReason.KO
    assert board.legality(pt("B2"), B, suicide=False) is None
    with pytest.raises(InvalidMoveError):
        board.legality((5, 0), B, suicide=False)


def test_multi_stone_suicide_only_where_the_rules_allow_it():
    board = board_from(
        """
        X . O . .
        O O O . .
        . . . . .
        . . . . .
        . . . . .
        """
    )
    # Black B5 joins A5: two stones without liberties, capturing nothing
    assert board.legality(pt("B5"), B, suicide=False) is IllegalReason.SUICIDE
    assert board.legality(pt("B5"), B, suicide=True) is None


@pytest.mark.parametrize("seed", range(5))
def test_hash_after_is_the_hash_once_played_and_legal_points_are_the_legal_ones(seed):
    board = random_board(7, seed)
    for color in (B, W):
        legal = board.legal_points(color, suicide=True)
        assert legal == [p for p in board if board.legality(p, color, suicide=True) is None]
        for p in legal:
            after = board.copy()
            after.place(p, color)
            assert board.hash_after(p, color) == after.hash


@pytest.mark.parametrize("seed", range(8))
def test_chains_are_the_connected_stones_of_one_colour(seed):
    board = random_board(9, seed)
    chains = board.chains()
    expected = [
        Chain(c, stones) for c in (B, W) for stones in regions(board.stones(c), board.size)
    ]
    assert sorted(chains, key=lambda ch: min(ch.stones)) == sorted(expected, key=lambda ch: min(ch.stones))
    assert [min(ch.stones) for ch in chains] == sorted(min(ch.stones) for ch in chains)  # row by row
    for ch in chains:
        first = min(ch.stones)
        assert sorted(board.chain(first)) == sorted(ch.stones)
        assert board.chain_size(first) == len(ch.stones)


def test_owners_are_the_area_count():
    board = board_from(
        """
        . X O . .
        X X O . .
        . X O O O
        X X O . .
        . X O . .
        """
    )
    owners = board.owners()
    assert owners.shape == (5, 5) and owners.dtype == np.int8
    assert owners[pt("A5")] == B and owners[pt("D5")] == W and owners[pt("C3")] == W
    assert int(np.count_nonzero(owners == B)) == 10 and int(np.count_nonzero(owners == W)) == 15
    board.set(pt("E3"), B)  # the right side now borders both colours: neutral
    owners = board.owners()
    assert owners[pt("E5")] == 0 and owners[pt("D1")] == 0


def test_without_removes_stones_from_a_copy():
    board = board_from(
        """
        . X O . .
        X X O . .
        . X O . .
        . . . . .
        . . . . .
        """
    )
    before = draw(board)
    clean = board.without([pt("C5"), pt("C4"), pt("A1")])  # A1 is empty: nothing to remove
    assert draw(board) == before
    assert clean[pt("C5")] is None and clean[pt("C4")] is None and clean[pt("C3")] is W
    assert clean.liberties(pt("C3")) == 3  # chains rebuilt: C3 stands alone now
    clean.check_consistency()
    assert clean.hash != board.hash


def test_neighbors_of_every_point_are_adjacent():
    for p in Board(4):
        for q in neighbors(p, 4):
            assert abs(p[0] - q[0]) + abs(p[1] - q[1]) == 1


def test_liberty_counts_give_each_stone_its_chains_liberties():
    b = Board(7)
    rng = random.Random(11)
    for _ in range(25):
        p, color = (rng.randrange(7), rng.randrange(7)), rng.choice([Color.BLACK, Color.WHITE])
        if b[p] is None and b.legality(p, color, False) is None:
            b.place(p, color)
    counts = b.liberty_counts()
    assert counts.shape == (7, 7)
    assert counts.any()
    for point in b:
        assert counts[point] == b.liberties(point)


def test_rows_and_columns_invert_the_kernel_index_for_many_points_at_once():
    b = Board(9)
    points = [(r, c) for r in range(9) for c in range(9)]
    rows, cols = b.rows_and_columns(np.array([b.index(p) for p in points]))
    assert list(zip(rows.tolist(), cols.tolist())) == points
    assert [b.point(b.index(p)) for p in points] == points
