"""Capturing races read by playing them out: which chains race, who wins with either side
first, the playouts that settle them, and the tree's prior for the move that wins one."""

from __future__ import annotations

import numpy as np

from miai._kernel import check_consistency
from miai._kernel import heavy as H
from miai._kernel import semeai as S
from miai._kernel import tree as T
from miai._kernel.board import BLACK, COLOR, HEAD, SIZE, WHITE, play_stone
from miai.ai.mcts import MctsConfig
from tests._kernel.test_heavy import board_of, idx
from tests._kernel.test_tree import NO_LEARNING, children, nothing_forbidden
from tests.diagrams import SEKI_GNUGO_43

EVEN_RACE = """
    .........
    .........
    .........
    .........
    XXXOOO...
    .XOXO....
    .XOXO....
    ..OX.....
    ..OX.....
    """
"""White C1-C4 (liberties B1, B2) against Black D1-D4 (E1, E2), each shut in by the other
side's wall: two liberties each, so whoever moves first wins."""

BLACK_AHEAD = """
    .........
    .........
    .........
    .........
    XXXOOO...
    .XOXO....
    .XOX.....
    ..OX.....
    ..OX.....
    """
"""As :data:`EVEN_RACE` with White E3 gone: Black has three liberties to White's two."""

LOST_GAME_219 = """
    ...................
    ...XO.........OX...
    .X.X...OXXX.X..OO..
    ..X.....XO.......O.
    .XOXX.X....XO.OOOXO
    .XOOXO....OO.O.OX..
    .XO.OXXX...XO.OXXX.
    .OOOOOOX.X.O.OOXO..
    OOOOO.OOX...XOXOX..
    OXOXOXXX..X.OXX....
    XXXXOOXXX....OXXXX.
    XXXXXXOOOXX..OOOOX.
    X.XXOO.O.OX.OO.O.OX
    .XOOO.O.OOXO..O.O..
    OXO....O.XO..O.OOOX
    .OO....XOOOOOXXXOX.
    O...O.OOXXOOOX.XXX.
    .O.XXXXXX.XOX..X...
    .........X.OXXX....
    """
"""A lost game against Pachi (miai Black) after move 219, White to move. On the left, Black's
15 stones (A9 … B5) have an eye at B7 and A6, which White can fill only after the approach
A4; White's 23 (B12 … E9) have an eye at D13, F11 and A12, which Black can fill only after
A13. White needs three moves, Black four: White wins whoever starts."""


def races(diagram: str) -> tuple[object, np.ndarray, np.ndarray, list[tuple[int, int]]]:
    game, g, m = board_of(diagram)
    out = np.zeros((S.MAX_RACES, 2), np.int32)
    k = S.find_races(g, m, out, np.empty(S.LIB_ROOM, np.int32))
    check_consistency(g, m)  # reading changes nothing on the board
    return game, g, m, [(int(a), int(b)) for a, b in out[:k]]


def winners(diagram: str) -> dict[int, tuple[int, int]]:
    """Per first mover, ``(winner, first move)`` of the diagram's only race."""
    game, g, m, found = races(diagram)
    assert len(found) == 1
    a, b = found[0]
    before = g.copy()
    scratch = S.new_race_scratch(g, m)
    result = {first: S.race_winner(g, m, a, b, first, *scratch) for first in (BLACK, WHITE)}
    assert (g == before).all()
    return result


def test_two_shut_in_chains_short_of_liberties_race():
    game, g, _, found = races(EVEN_RACE)
    assert len(found) == 1
    a, b = found[0]
    assert g[COLOR, a] == BLACK and g[SIZE, a] == 4 and g[SIZE, b] == 4
    assert g[HEAD, idx(game, "D1")] == a and g[HEAD, idx(game, "C1")] == b


def test_with_equal_liberties_the_first_to_move_wins_filling_an_outside_liberty():
    game, *_ = board_of(EVEN_RACE)
    result = winners(EVEN_RACE)
    assert result[BLACK][0] == BLACK and result[BLACK][1] in {idx(game, "B1"), idx(game, "B2")}
    assert result[WHITE][0] == WHITE and result[WHITE][1] in {idx(game, "E1"), idx(game, "E2")}


def test_a_liberty_ahead_wins_whoever_starts():
    result = winners(BLACK_AHEAD)
    assert result[BLACK][0] == BLACK and result[WHITE][0] == BLACK


def test_the_lost_games_race_goes_to_white_whoever_starts_after_the_approach_moves():
    game, *_ = board_of(LOST_GAME_219)
    result = winners(LOST_GAME_219)
    assert result[WHITE] == (WHITE, idx(game, "A4"))  # A6 at once would be a self-atari
    assert result[BLACK] == (WHITE, idx(game, "F11"))  # A12 needs A13 first, D13 is an eye


TWO_POINT_EYE = """
    .........
    .........
    .........
    .........
    .........
    OOOOOO...
    XXXX.O...
    OOOX.O...
    ..OX.O...
    """
"""White A2-C2-C1 has no liberty but its two-point eye at A1-B1; Black A3-D3-D1 has three
(E1-E3) inside White's wall. A two-point eye is two liberties, and Black fills it from
inside: A1 (or B1), which White can take only by filling its own last liberty, and then the
recapture. Black wins whoever starts."""


def test_a_two_point_eye_is_filled_from_inside_with_a_throw_in():
    game, *_ = board_of(TWO_POINT_EYE)
    result = winners(TWO_POINT_EYE)
    assert result[BLACK][0] == BLACK and result[BLACK][1] in {idx(game, "A1"), idx(game, "B1")}
    assert result[WHITE][0] == BLACK


def test_a_three_point_eye_is_filled_from_its_middle_and_the_first_to_move_wins():
    # White's eye A1-C1 is three liberties, as many as Black's F1-F3: Black must play B1
    # (two liberties of its own), then throw in at A1 and C1 while White takes the stones
    diagram = """
        .........
        .........
        .........
        .........
        .........
        OOOOOOO..
        XXXXX.O..
        OOOOX.O..
        ...OX.O..
        """
    game, *_ = board_of(diagram)
    result = winners(diagram)
    assert result[BLACK] == (BLACK, idx(game, "B1"))  # A1 or C1 first would be taken for nothing
    assert result[WHITE][0] == WHITE


def test_a_chain_that_can_join_a_stronger_one_is_not_racing():
    # Black E2 would join D1-D4 to F1-F2, which has room: D1-D4 is not shut in
    diagram = """
        .........
        .........
        .........
        .........
        XXXOOO...
        .XOXO....
        .XOXO....
        ..OX.X...
        ..OX.X...
        """
    assert races(diagram)[3] == []


def test_chains_in_seki_leave_the_race_undecided():
    # White's eyeless group and Black H8-J8 share H7; neither can fill the other's last
    # liberties without putting its own chain in atari
    game, g, m, found = races(SEKI_GNUGO_43)
    assert len(found) == 1
    a, b = found[0]
    assert g[HEAD, idx(game, "H8")] == a and g[HEAD, idx(game, "G6")] == b
    scratch = S.new_race_scratch(g, m)
    assert S.race_winner(g, m, a, b, BLACK, *scratch)[0] == 0
    assert S.race_winner(g, m, a, b, WHITE, *scratch)[0] == 0


def _black_survivals(playouts: int, knobs: dict[int, float]) -> int:
    """In how many of ``playouts`` heavy playouts (seeds 1, 2, …) from the lost game's
    position, White to move, Black's 15 stones live, with the policy's parameters at
    ``knobs`` (index: value) and the defaults elsewhere."""
    game, g, m = board_of(LOST_GAME_219)
    black_chain = idx(game, "C7")
    params = H.DEFAULT_PARAMS.copy()
    for index, value in knobs.items():
        params[index] = value
    alive = 0
    for seed in range(1, playouts + 1):
        gg, mm = g.copy(), m.copy()
        mm[8] = seed
        H.heavy_playout(gg, mm, WHITE, 0, 0, 3 * 19 * 19, H.PAT3, params, np.zeros(g.shape[1], np.int8))
        check_consistency(gg, mm)
        alive += gg[COLOR, black_chain] == BLACK
    return alive


def _even_race_playouts(knobs: dict[int, float]) -> tuple[int, int]:
    """200 heavy playouts (seed 7) from :data:`EVEN_RACE`, White to move, with the policy's
    parameters at ``knobs`` (index: value): the turns played and Black's wins."""
    game, g, m = board_of(EVEN_RACE)
    params = H.DEFAULT_PARAMS.copy()
    for index, value in knobs.items():
        params[index] = value
    return H.run_heavy_playouts(g, m, WHITE, 200, 0.5, 7, H.PAT3, params)


def _replies(diagram: str, moves: list[tuple[int, str]], min_chain: int = 8) -> list[int]:
    """Find the races on the diagram's board (chains of at least ``min_chain`` stones each);
    then play ``moves`` (colour, vertex) one by one: the other side's race reply after each."""
    game, g, m = board_of(diagram)
    found = np.zeros((S.MAX_RACES, 2), np.int32)
    libs = np.empty(S.LIB_ROOM, np.int32)
    k = S.find_races(g, m, found, libs, min_chain)
    replies = []
    for colour, vertex in moves:
        play_stone(g, m, idx(game, vertex), colour)
        before = g[COLOR].copy()
        replies.append(int(S.race_reply(g, m, 3 - colour, idx(game, vertex), found, k, libs, g.copy(), m.copy())))
        assert (g[COLOR] == before).all()
        check_consistency(g, m)
    return replies


def test_a_fill_in_the_race_is_answered_by_a_fill_or_the_approach_it_needs():
    game, *_ = board_of(LOST_GAME_219)
    # Black fills White's outside liberty F11: White answers with its approach A4 (A6 alone
    # would be a self-atari); Black answers A4 with its own approach A13, White A13 with A6
    assert _replies(LOST_GAME_219, [(BLACK, "F11"), (WHITE, "A4"), (BLACK, "A13")]) == [
        idx(game, "A4"), idx(game, "A13"), idx(game, "A6"),
    ]


def test_a_move_away_from_the_race_or_beside_smaller_chains_gets_no_race_reply():
    assert _replies(LOST_GAME_219, [(BLACK, "T1"), (BLACK, "S2")]) == [0, 0]  # 4 and more steps away
    # the same fill, but the races answered are between chains of 16 stones or more
    assert _replies(LOST_GAME_219, [(BLACK, "F11")], min_chain=16) == [0]
    game, *_ = board_of(BLACK_AHEAD)  # four stones each: answered only when asked for chains that small
    assert _replies(BLACK_AHEAD, [(WHITE, "E1")], min_chain=4)[0] in {idx(game, "B1"), idx(game, "B2")}
    assert _replies(BLACK_AHEAD, [(WHITE, "E1")]) == [0]


def test_playouts_that_answer_race_moves_give_the_lost_race_to_black_less_often():
    answered = _black_survivals(60, {H.P_RACE_REPLY: 1.0})
    left = _black_survivals(60, {H.P_RACE_REPLY: 0.0})
    assert answered < left / 2  # 8 and 30 of 60 when written


def test_playouts_that_answer_races_are_the_same_playouts_where_there_are_none():
    # no chain of 81 stones races on 9×9, and at certainty the knob draws no random number
    large = {H.P_RACE_MIN_CHAIN: 81}
    assert _even_race_playouts({**large, H.P_RACE_REPLY: 1.0}) == _even_race_playouts({**large, H.P_RACE_REPLY: 0.0})
    small = {H.P_RACE_MIN_CHAIN: 4}
    assert _even_race_playouts({**small, H.P_RACE_REPLY: 1.0}) != _even_race_playouts({**small, H.P_RACE_REPLY: 0.0})


def test_the_race_prior_goes_to_the_move_that_wins_a_race_only_if_played_now():
    game, g, m = board_of(EVEN_RACE)

    def priors(params):
        ti, tf, _ = tree = T.new_tree(1_000)
        assert T.expand(tree, 0, g, m, BLACK, 0, 0, params, NO_LEARNING, nothing_forbidden(g))
        return {int(ti[T.T_MOVE, k]): (tf[T.T_PV, k], tf[T.T_PW, k]) for k in children(ti, 0)}

    with_it = priors(MctsConfig(prior_race=30.0).tree_params(7.5))
    without = priors(MctsConfig(prior_race=0.0).tree_params(7.5))
    gained = [p for p in with_it if with_it[p] != without[p]]
    assert len(gained) == 1 and gained[0] in {idx(game, "B1"), idx(game, "B2")}
    assert with_it[gained[0]] == (without[gained[0]][0] + 30.0, without[gained[0]][1] + 30.0)
    # a race Black wins whoever starts is not urgent
    game, g, m = board_of(BLACK_AHEAD)
    assert priors(MctsConfig(prior_race=30.0).tree_params(7.5)) == priors(MctsConfig(prior_race=0.0).tree_params(7.5))
