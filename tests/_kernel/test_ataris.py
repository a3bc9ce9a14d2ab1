"""The watch list of chains in atari (the heavy playouts' global atari check)."""

from __future__ import annotations

import numpy as np
import pytest

from miai._kernel import heavy as H
from miai._kernel.ataris import new_watch, watch_board, watch_move, watched_atari_moves
from miai._kernel.board import BLACK, HEAD, M_W, WHITE, new_board, play_stone
from tests._kernel.test_heavy import assert_playouts_consistent, board_of, idx, replies_with_only

# Black's B8 is in atari (liberty B9) in the upper left, White's H2 (liberty H1) in the lower
# right; the centre is quiet.
TWO_ATARIS = """
    .........
    OXO......
    .O.......
    .........
    ....X....
    .........
    .......X.
    ......XOX
    .........
    """


def watched_heads(g, watch) -> set[int]:
    return {int(g[HEAD, watch[i]]) for i in range(1, watch[0] + 1)}


def test_the_board_scan_watches_each_chain_in_atari_once_and_nothing_else():
    game, g, m = board_of(TWO_ATARIS)
    watch = new_watch()
    watch_board(g, watch)
    assert watched_heads(g, watch) == {g[HEAD, idx(game, "B8")], g[HEAD, idx(game, "H2")]}
    assert watch[0] == 2


def test_the_moves_are_the_capture_of_the_opponents_chain_and_the_escape_of_ones_own():
    game, g, m = board_of(TWO_ATARIS)
    watch = new_watch()
    watch_board(g, watch)
    out = np.zeros(64, np.int32)
    # White captures B8 at B9, and its own H2 gets out at H1 (then G1 and J1 are its liberties)
    n = watched_atari_moves(g, m, WHITE, watch, out)
    assert set(out[:n].tolist()) == {idx(game, "B9"), idx(game, "H1")}
    # and Black the other way round
    n = watched_atari_moves(g, m, BLACK, watch, out)
    assert set(out[:n].tolist()) == {idx(game, "H1"), idx(game, "B9")}


def test_an_escape_that_stays_in_atari_is_not_offered():
    game, g, m = board_of(
        """
        .....
        .....
        XXX..
        XOOX.
        XXO.X
        """
    )
    watch = new_watch()
    watch_board(g, watch)
    out = np.zeros(16, np.int32)
    assert watched_atari_moves(g, m, WHITE, watch, out) == 0
    n = watched_atari_moves(g, m, BLACK, watch, out)
    assert out[:n].tolist() == [idx(game, "D1")]


def test_chains_out_of_atari_are_forgotten_and_a_new_atari_is_watched_after_the_move():
    game, g, m = board_of(TWO_ATARIS)
    watch = new_watch()
    watch_board(g, watch)
    play_stone(g, m, idx(game, "B9"), WHITE)  # White captures B8
    out = np.zeros(64, np.int32)
    watched_atari_moves(g, m, BLACK, watch, out)
    assert watched_heads(g, watch) == {g[HEAD, idx(game, "H2")]}
    # Black's E5 put in atari by three White stones: the third one's move watches it
    for v in ("E6", "D5"):
        play_stone(g, m, idx(game, v), WHITE)
        watch_move(g, m, idx(game, v), watch)
    assert g[HEAD, idx(game, "E5")] not in watched_heads(g, watch)
    play_stone(g, m, idx(game, "F5"), WHITE)
    watch_move(g, m, idx(game, "F5"), watch)
    n = watched_atari_moves(g, m, WHITE, watch, out)
    assert g[HEAD, idx(game, "E5")] in watched_heads(g, watch)
    assert idx(game, "E4") in out[:n].tolist()


def test_a_full_list_takes_no_more_and_stays_usable():
    g, m = new_board(19)
    watch = new_watch()
    # 36 lone White stones, each put in atari by three Black ones
    w = m[M_W]
    for r in range(1, 19, 3):
        for c in range(1, 19, 3):
            p = (r + 1) * w + c + 1
            play_stone(g, m, p, WHITE)
            for q in (p - 1, p + 1, p - w):
                play_stone(g, m, q, BLACK)
            watch_move(g, m, p - w, watch)
    assert watch[0] == watch.shape[0] - 1
    out = np.zeros(64, np.int32)
    n = watched_atari_moves(g, m, BLACK, watch, out)
    assert n == watch.shape[0] - 1 and watch[0] == n


def test_the_policy_captures_far_from_the_last_move_only_with_the_check_on():
    game, _, _ = board_of(TWO_ATARIS)
    on = replies_with_only(TWO_ATARIS, BLACK, "E5", H.P_ANYWHERE, 1.0)
    assert on == {idx(game, "H1"), idx(game, "B9")}
    off = replies_with_only(TWO_ATARIS, BLACK, "E5", H.P_ANYWHERE, 0.0)
    assert len(off) > 10  # random moves all over the board


@pytest.mark.parametrize("size", [9, 19])
def test_heavy_playouts_with_the_global_check_stay_consistent(size):
    assert_playouts_consistent(size, H.P_ANYWHERE)
