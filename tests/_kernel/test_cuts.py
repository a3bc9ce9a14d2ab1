"""The cuts and connections of the heavy playouts: where a chain with three liberties would
join another of its colour, the opponent cuts and the owner connects."""

from __future__ import annotations

from miai._kernel import heavy as H
from miai._kernel.board import BLACK, WHITE
from miai._kernel.cuts import cut_moves
from tests._kernel.test_heavy import board_of, idx, offered, replies_with

# White's C4-C3 has three liberties (D4, D3, C2); on D4 it would join White's E4, which
# has three too (D4, E5, E3)
JOINS_AT_D4 = """
    .......
    .......
    ..X....
    .XO.OX.
    .XO....
    .......
    .......
    """


def moves(diagram: str, c: int, last: str) -> set[str]:
    """The vertices :func:`cut_moves` offers ``c`` after the move at ``last``."""
    return offered(cut_moves, diagram, c, last)


def test_the_opponent_chain_of_the_last_move_is_cut_where_it_would_join_another():
    assert moves(JOINS_AT_D4, BLACK, "C3") == {"D4"}


def test_ones_own_chain_next_to_the_last_move_connects_there():
    assert moves(JOINS_AT_D4, WHITE, "B3") == {"D4"}


def test_a_chain_with_nothing_to_join_or_four_liberties_is_left_alone():
    alone = JOINS_AT_D4.replace(".XO.OX.", ".XO..X.")
    assert moves(alone, BLACK, "C3") == set()
    four_liberties = JOINS_AT_D4.replace("..X....", ".......", 1)
    assert moves(four_liberties, BLACK, "C3") == set()


def test_a_chain_is_not_cut_from_one_with_liberties_to_spare():
    # without Black's F4, White's E4 has four liberties
    assert moves(JOINS_AT_D4.replace(".XO.OX.", ".XO.O.."), BLACK, "C3") == set()


def test_a_cut_that_leaves_the_cutter_in_atari_is_not_offered():
    # with White on D5 too, Black's D4 would keep only D3
    cramped = JOINS_AT_D4.replace("..X....", "..XO...", 1)
    assert moves(cramped, BLACK, "C3") == set()


def test_after_ones_own_move_nothing_is_offered():
    assert moves(JOINS_AT_D4, WHITE, "C3") == set()


def test_the_policy_cuts_only_with_the_knob_on():
    game, _, _ = board_of(JOINS_AT_D4)
    d4 = idx(game, "D4")
    assert replies_with(JOINS_AT_D4, BLACK, "C3", {H.P_CUT: 1.0}) == [d4] * 100
    # without the check, Black's answer is random: D4 is one of about forty points
    assert replies_with(JOINS_AT_D4, BLACK, "C3", {H.P_CUT: 0.0}).count(d4) < 10
