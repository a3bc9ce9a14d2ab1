"""Last good reply with forgetting: what a playout learns, what it forgets, and that the
playouts and the search play and learn the stored replies."""

from __future__ import annotations

import numpy as np

from miai._kernel import heavy as H
from miai._kernel import replies as R
from miai._kernel.board import BLACK, WHITE, new_board
from miai.ai.mcts import MctsConfig, MctsPlayer
from miai.game import Game
from tests._kernel.test_heavy import board_of, idx

LENGTH = new_board(9)[0].shape[1]


def sequence(*moves: int) -> tuple[np.ndarray, int]:
    """An iteration's moves as :func:`R.learn_replies` reads them, and their count."""
    seq = np.zeros(16, np.int32)
    seq[: len(moves)] = moves
    return seq, len(moves)


def test_the_winners_moves_become_its_replies_to_one_and_two_moves():
    replies = R.new_replies(LENGTH, True)
    seq, n = sequence(0, 11, 20, 30, 40, 50)  # Black 20, White 30, Black 40, White 50
    R.learn_replies(replies, seq, n, BLACK, 1.0)
    assert R.stored_reply(replies, BLACK, 30, 20) == 40  # after 20 and 30
    assert R.stored_reply(replies, BLACK, 11, 0) == 20  # the first move answers the root's last
    assert replies[BLACK, 0, 30] == 40 and replies[BLACK, 20, 30] == 40
    assert R.stored_reply(replies, WHITE, 20, 11) == 0  # the loser learns nothing
    assert R.stored_reply(replies, WHITE, 40, 30) == 0


def test_a_reply_that_loses_is_forgotten_and_another_is_kept():
    replies = R.new_replies(LENGTH, True)
    replies[BLACK, 0, 30] = 40
    replies[BLACK, 20, 30] = 40
    replies[BLACK, 0, 50] = 60
    seq, n = sequence(0, 0, 20, 30, 40, 50, 70)  # Black answers 30 with 40 and 50 with 70, and loses
    R.learn_replies(replies, seq, n, BLACK, 0.0)
    assert replies[BLACK, 0, 30] == 0 and replies[BLACK, 20, 30] == 0
    assert replies[BLACK, 0, 50] == 60  # not the move played: kept
    assert replies[WHITE, 0, 20] == 30 and replies[WHITE, 40, 50] == 0  # White won with 30 after 20...
    assert replies[WHITE, 0, 40] == 50 and replies[WHITE, 30, 40] == 50  # ...and with 50 after 30, 40


def test_a_tie_teaches_nothing_and_passes_are_no_moves():
    replies = R.new_replies(LENGTH, True)
    seq, n = sequence(0, 0, 20, 30)
    R.learn_replies(replies, seq, n, BLACK, 0.5)
    assert not replies.any()
    seq, n = sequence(0, 0, 20, 0, 40, 50)  # White passes: Black's 40 answers no move
    R.learn_replies(replies, seq, n, BLACK, 1.0)
    assert replies[BLACK].sum() == 0
    assert R.stored_reply(replies, BLACK, 0, 20) == 0


def test_the_one_move_reply_stands_in_where_no_two_move_reply_is_known():
    replies = R.new_replies(LENGTH, True)
    replies[WHITE, 0, 30] = 41
    replies[WHITE, 12, 30] = 42
    assert R.stored_reply(replies, WHITE, 30, 12) == 42
    assert R.stored_reply(replies, WHITE, 30, 13) == 41
    assert R.stored_reply(replies, WHITE, 30, 0) == 41


HANE = """
. . . . .
. . . . .
. . X O .
. . . . .
. . . . .
"""


def test_the_policy_plays_a_stored_reply_only_where_it_is_legal():
    game, g, m = board_of(HANE)
    params = H.DEFAULT_PARAMS.copy()
    params[H.P_PATTERN] = 0.0  # nothing but the reply or a random move
    cand = np.zeros(64, np.int32)
    last = idx(game, "D3")
    reply = idx(game, "E4")
    for seed in range(1, 20):
        m[8] = seed
        assert H.heavy_move(g, m, BLACK, last, 0, H.PAT3, params, cand, reply) == reply
    occupied = idx(game, "C3")
    chosen = {int(H.heavy_move(g, m, BLACK, last, 0, H.PAT3, params, cand, occupied)) for _ in range(20)}
    assert occupied not in chosen and len(chosen) > 1  # random moves instead


HANES = """
.........
.........
.........
.........
...XOX...
.........
.........
.........
.........
"""


def test_the_checks_come_before_the_reply():
    game, g, m = board_of(HANES)
    params = H.DEFAULT_PARAMS.copy()
    params[H.P_PATTERN] = 1.0
    cand = np.zeros(64, np.int32)
    reply = idx(game, "A1")
    hanes = {idx(game, v) for v in ("D4", "E4", "F4", "D6", "E6", "F6")}
    for seed in range(1, 20):
        m[8] = seed
        assert int(H.heavy_move(g, m, WHITE, idx(game, "F5"), 0, H.PAT3, params, cand, reply)) in hanes


def searched(config: MctsConfig) -> MctsPlayer:
    """A player that has searched the empty 9×9 board once with ``config``."""
    player = MctsPlayer(config)
    player.search(Game(9))
    return player


def test_a_search_with_the_replies_on_learns_them_and_keeps_them_from_move_to_move():
    player = searched(MctsConfig(playouts=400, max_seconds=None, seed=5, p_lgr=1.0))
    table = player.replies
    assert table is not None and table.shape == (3, LENGTH, LENGTH)
    assert (table[BLACK] > 0).sum() > 50 and (table[WHITE] > 0).sum() > 50
    assert (table[BLACK, 0] > 0).sum() > 0 and (table[BLACK, 1:] > 0).sum() > 0  # to one move and to two
    game = Game(9)
    game.play("E5")
    player.search(game)
    assert player.replies is table


def test_with_the_replies_off_the_table_is_a_stand_in_and_nothing_is_learnt():
    player = searched(MctsConfig(playouts=300, max_seconds=None, seed=5))
    assert player.replies is not None and player.replies.shape == (3, 1, 1) and not player.replies.any()


def test_two_threads_learn_the_replies_too():
    player = searched(MctsConfig(playouts=400, max_seconds=None, seed=5, p_lgr=1.0, threads=2))
    assert player.replies is not None and (player.replies > 0).sum() > 100


def test_the_replies_are_kept_along_a_game_and_cleared_for_another():
    player = searched(MctsConfig(playouts=300, max_seconds=None, seed=5, p_lgr=1.0))
    table = player.replies
    assert table is not None
    table[BLACK, 1, 1] = 99  # a mark on a pair of padding points, which no playout writes
    game = Game(9)
    game.play("E5")
    player.search(game)
    assert table[BLACK, 1, 1] == 99
    player.search(Game(9, komi=0.5))
    assert table[BLACK, 1, 1] == 0 and (table > 0).sum() > 50
