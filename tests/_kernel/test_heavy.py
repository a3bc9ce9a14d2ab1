"""The heavy playout policy (the search's): 3×3 patterns, atari heuristics, self-atari, and
whole playouts."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from miai._kernel import check_consistency
from miai._kernel import heavy as H
from miai._kernel.board import BLACK, WHITE, area_difference, new_board
from tests.diagrams import SEKI_FROM_A_GAME, game_from


def board_of(diagram: str):
    game = game_from(diagram)
    return game, game.board.grid.copy(), game.board.meta.copy()


def idx(game, vertex: str) -> int:
    from miai.coords import point_from_gtp

    return game.board.index(point_from_gtp(vertex, game.size))


def test_pattern_table_holds_every_symmetry_and_colour_swap():
    table = H.PAT3 > 0
    assert H.PAT3.dtype == np.uint8 and table.shape == (1 << 16,)
    assert 0 < table.sum() < len(table) // 3
    assert H.PAT3.max() == len(H.PAT3_SOURCE)
    # swapping colours (1 <-> 2) maps matches to matches
    codes = np.flatnonzero(table)
    swapped = []
    for code in codes[:2000]:
        out = 0
        for k in range(8):
            v = (code >> (2 * k)) & 3
            v = {1: 2, 2: 1}.get(v, v)
            out |= v << (2 * k)
        swapped.append(out)
    assert table[swapped].all()


def test_hane_pattern_matches_on_the_board_and_empty_centre_does_not():
    # X at D5, O at E5 above E4: the enclosing-hane neighbourhood of E4 (X O X above)
    game, g, m = board_of(
        """
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
    )
    w = int(m[1])
    assert H.PAT3[H.env8(g, w, idx(game, "E4"))] == 1  # the enclosing hane, the first pattern
    assert H.PAT3[H.env8(g, w, idx(game, "D4"))] == 2  # . X O above: a non-cutting hane
    assert H.PAT3[H.env8(g, w, idx(game, "E2"))] == 0  # nothing around


def test_liberties_after_self_atari_and_captures():
    game, g, m = board_of(
        """
        .....
        .....
        XX...
        OOX..
        .O...
        """
    )
    # White's chain A2 B2 B1 has liberties A1 and C1: White A1 leaves it one (C1)
    assert H.liberties_after(g, m, idx(game, "A1"), WHITE, 5) == 1
    assert H.self_atari(g, m, idx(game, "A1"), WHITE)
    # White C1 keeps two (A1, D1)
    assert H.liberties_after(g, m, idx(game, "C1"), WHITE, 5) == 2
    assert not H.self_atari(g, m, idx(game, "C1"), WHITE)
    # Black C1 leaves White with one liberty; Black A1 is a lone stone's atari, allowed
    assert not H.self_atari(g, m, idx(game, "A1"), BLACK)
    assert H.captures_something(g, m, idx(game, "A1"), BLACK) == 0


def test_atari_moves_capture_and_escape_around_the_last_move():
    game, g, m = board_of(
        """
        .....
        .....
        ..X..
        .XOX.
        .....
        """
    )
    out = np.zeros(16, np.int32)
    # White C2 is in atari (liberty C1) next to Black's last move D2: Black captures at C1
    n = H.atari_moves(g, m, BLACK, idx(game, "D2"), out)
    assert idx(game, "C1") in out[:n].tolist()
    # for White the same chain is its own in atari: extending to C1 gives 2+ liberties? C1 has B1, D1
    n = H.atari_moves(g, m, WHITE, idx(game, "D2"), out)
    assert idx(game, "C1") in out[:n].tolist()


def test_escape_is_not_offered_when_extending_stays_in_atari():
    game, g, m = board_of(
        """
        .....
        .....
        XXX..
        XOOX.
        XXO.X
        """
    )
    # White's chain B2 C2 C1 has one liberty D1; extending there touches E1 (black), D2 black:
    # no gain, and nothing to capture
    out = np.zeros(16, np.int32)
    n = H.atari_moves(g, m, WHITE, idx(game, "D2"), out)
    assert idx(game, "D1") not in out[:n].tolist()


def assert_playouts_consistent(size: int, knob: int | None = None, seeds: int = 19) -> None:
    """Whole heavy playouts from the empty board (with the policy knob ``knob`` always on)
    leave a consistent board (chains, liberties, counts), mark only stones' colours as
    first players, and end within the turn limit with every empty point an eye."""
    g, m = new_board(size)
    params = H.DEFAULT_PARAMS.copy()
    if knob is not None:
        params[knob] = 1.0
    for seed in range(1, seeds + 1):
        gg, mm = g.copy(), m.copy()
        mm[8] = seed
        amaf = np.zeros(g.shape[1], np.int8)
        turns = H.heavy_playout(gg, mm, BLACK, 0, 0, 3 * size * size, H.PAT3, params, amaf)
        assert 0 < turns <= 3 * size * size
        check_consistency(gg, mm)
        # every stone's point was first played by its colour or later recaptured and replayed
        assert set(np.unique(amaf)) <= {0, BLACK, WHITE}
        # the end: every empty point is an eye of one colour (or the game hit the turn limit)
        if turns < 3 * size * size:
            assert abs(area_difference(gg, mm)) <= size * size


@pytest.mark.parametrize("size", [5, 9, 13])
def test_heavy_playouts_end_consistent_with_only_eyes_left(size):
    assert_playouts_consistent(size, seeds=29)


def replies_with_only(diagram: str, c: int, last: str, knob: int, value: float, tries: int = 100) -> set[int]:
    """The heavy policy's answers to ``last`` over ``tries`` draws with every check
    (captures, two liberties, nakade, ko, patterns) off but the policy knob ``knob``, at
    ``value``."""
    return set(replies_with(diagram, c, last, {knob: value}, tries))


def replies_with(diagram: str, c: int, last: str, settings: dict[int, float], tries: int = 100) -> list[int]:
    """The heavy policy's answers to ``last`` over ``tries`` draws, every check off but the
    policy parameters ``settings`` (index: value)."""
    game, g, m = board_of(diagram)
    params = H.DEFAULT_PARAMS.copy()
    for check in (H.P_CAPTURE, H.P_TWOLIB, H.P_NAKADE, H.P_KO, H.P_PATTERN):
        params[check] = 0.0
    for index, value in settings.items():
        params[index] = value
    cand = np.zeros(64, np.int32)
    out = []
    for seed in range(1, tries + 1):
        m[8] = seed  # each draw its own random state
        out.append(int(H.heavy_move(g, m, c, idx(game, last), 0, H.PAT3, params, cand)))
    return out


def test_heavy_playouts_are_reproducible_and_leave_the_position():
    g, m = new_board(9)
    before = g.copy()
    a = H.run_heavy_playouts(g, m, BLACK, 20, 7.5, 3, H.PAT3, H.DEFAULT_PARAMS)
    b = H.run_heavy_playouts(g, m, BLACK, 20, 7.5, 3, H.PAT3, H.DEFAULT_PARAMS)
    assert a == b
    assert (g == before).all()
    turns, wins = a
    assert 20 * 40 < turns < 20 * 243 and 0 <= wins <= 20


def test_heavy_policy_runs_interpreted_with_jit_disabled():
    code = (
        "import numba.core.config as c; assert c.DISABLE_JIT\n"
        "from miai._kernel import heavy as H, new_board\n"
        "g, m = new_board(5)\n"
        "print(*H.run_heavy_playouts(g, m, 1, 3, 7.5, 5, H.PAT3, H.DEFAULT_PARAMS))\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    turns, wins = map(int, out.stdout.split())
    assert turns > 0 and 0 <= wins <= 3


# Black's C8 has just captured White's B8: a ko, White may not retake at once.
KO = """
    .XO......
    XO.O.....
    .XO......
    .........
    .........
    .........
    .........
    .........
    .........
    """


def ko_taken():
    from miai._kernel.board import play_stone

    game, g, m = board_of(KO)
    play_stone(g, m, idx(game, "C8"), BLACK)
    return game, g, m


def test_the_ko_point_is_played_once_the_ban_is_lifted():
    from miai._kernel.board import M_KO, pass_turn

    game, g, m = ko_taken()
    assert m[M_KO] == idx(game, "B8")
    assert H.ko_fight_move(g, m, WHITE, idx(game, "B8")) == 0  # banned
    pass_turn(m)  # a threat elsewhere lifts the ban
    assert H.ko_fight_move(g, m, WHITE, idx(game, "B8")) == idx(game, "B8")  # the retake
    assert H.ko_fight_move(g, m, BLACK, idx(game, "B8")) == idx(game, "B8")  # or the connection


def ko_settled(p_ko: float, seeds: int = 20) -> int:
    """In how many of ``seeds`` two-move playouts from :func:`ko_taken` White plays at random
    (banned at B8; no last move, so no local answer) and Black then settles the ko at B8."""
    game, g, m = ko_taken()
    params = H.DEFAULT_PARAMS.copy()
    params[H.P_KO] = p_ko
    settled = 0
    for seed in range(1, seeds + 1):
        gg, mm = g.copy(), m.copy()
        mm[8] = seed
        amaf = np.zeros(g.shape[1], np.int8)
        H.heavy_playout(gg, mm, WHITE, 0, 0, 2, H.PAT3, params, amaf)
        settled += amaf[idx(game, "B8")] == BLACK
    return settled


def test_after_a_ko_capture_and_a_threat_the_playout_fights_the_ko():
    assert ko_settled(1.0) == 20
    # without the check, Black's answer is local to White's random move, nearly never B8
    assert ko_settled(0.0) <= 3


@pytest.mark.parametrize("knob", [H.P_KO, H.P_TWOLIB, H.P_NAKADE], ids=["ko", "twolib", "nakade"])
@pytest.mark.parametrize("size", [9, 19])
def test_heavy_playouts_with_each_check_always_on_stay_consistent(size, knob):
    assert_playouts_consistent(size, knob)


def test_hopeless_self_ataris_refused_keep_a_seki_in_every_playout():
    from miai.ai.config import MctsConfig  # the search's rates on 9×9 (no race replies)

    # filling F1 or J1 puts six of White's stones or twelve of Black's in atari, and their
    # capture leaves no dead shape: never played (before, at the plain rates, half the fills
    # were, and Black won 10 of 60 playouts or more)
    game, g, m = board_of(SEKI_FROM_A_GAME)
    params = MctsConfig().policy_params(9)
    _, black_wins = H.run_heavy_playouts(g, m, BLACK, 60, 7.5, 5, H.PAT3, params)
    assert black_wins == 0


SETTLED = """
.XXO.
XXXOO
.XXO.
XXXOO
.XXO.
"""


def test_heavy_ownership_of_a_settled_board_counts_every_playout():
    # three eyes each: no playout move is left, so every playout ends as the board stands
    game, g, m = board_of(SETTLED)
    before = g.copy()
    owners = np.zeros(g.shape[1], np.int64)
    total = H.heavy_ownership(g, m, BLACK, 0, 0, 7, 3, H.PAT3, H.DEFAULT_PARAMS, owners)
    assert total == 7 * (15 - 10)
    assert (g == before).all()
    black = [idx(game, v) for v in ("A5", "B5", "C3", "A1")]
    white = [idx(game, v) for v in ("D5", "E5", "E3", "D1")]
    assert (owners[black] == 7).all() and (owners[white] == -7).all()


def test_heavy_ownership_is_reproducible_and_counts_each_playout_once():
    g, m = new_board(9)
    owners = np.zeros(g.shape[1], np.int64)
    total = H.heavy_ownership(g, m, BLACK, 0, 0, 30, 5, H.PAT3, H.DEFAULT_PARAMS, owners)
    again = np.zeros_like(owners)
    assert H.heavy_ownership(g, m, BLACK, 0, 0, 30, 5, H.PAT3, H.DEFAULT_PARAMS, again) == total
    assert (again == owners).all()  # the same seed, the same playouts
    assert 0 < np.abs(owners).max() <= 30  # a point's owner counts once a playout


def large_seki_filled():
    """The large seki of a game (tests.diagrams) after the game's continuation: Black to move,
    and P1, the shared liberty, the only point left that fills no eye."""
    from miai.coords import point_from_gtp
    from tests.diagrams import LARGE_SEKI_CONTINUATION, LARGE_SEKI_FROM_A_GAME

    game = game_from(LARGE_SEKI_FROM_A_GAME)
    for vertex in LARGE_SEKI_CONTINUATION:
        game.play(point_from_gtp(vertex, 19))
    return game


def test_a_large_chains_self_atari_is_hopeless_and_a_small_ones_is_not():
    game = large_seki_filled()
    g, m = game.board.grid, game.board.meta
    p1 = idx(game, "P1")
    assert H.self_atari(g, m, p1, BLACK) and H.hopeless_self_atari(g, m, p1, BLACK)  # 7 corner stones + P1
    assert H.self_atari(g, m, p1, WHITE) and H.hopeless_self_atari(g, m, p1, WHITE)  # 13 stones + P1
    small, _, _ = board_of("""
        .....
        .....
        .....
        OOOO.
        X..O.
    """)
    b1 = idx(small, "B1")  # two stones in atari: a sacrifice, which may still kill
    assert H.self_atari(small.board.grid, small.board.meta, b1, BLACK)
    assert not H.hopeless_self_atari(small.board.grid, small.board.meta, b1, BLACK)


def test_a_sacrifice_of_four_is_hopeless_unless_its_capture_leaves_a_dead_shape():
    game, g, m = board_of("""
        .........
        .........
        .........
        .........
        .........
        .........
        OOOO.....
        X.OO.....
        XX.O.....
    """)
    square, bent = idx(game, "B2"), idx(game, "C1")  # the four stones in a square, or in an L
    assert H.self_atari(g, m, square, BLACK) and H.self_atari(g, m, bent, BLACK)
    assert not H.hopeless_self_atari(g, m, square, BLACK)  # a square four is one eye: it may kill
    assert H.hopeless_self_atari(g, m, bent, BLACK)  # a bent four makes two: it cannot


def test_a_sacrifice_that_leaves_the_opponent_an_eye_is_hopeless_whatever_its_shape():
    from miai._kernel.light import sacrifice_leaves_an_eye, sacrifice_leaves_dead_shape
    from tests.diagrams import ONE_EYE_SEKI_FROM_A_GAME

    game, g, m = board_of(ONE_EYE_SEKI_FROM_A_GAME)
    a3 = idx(game, "A3")
    # White's fill leaves six stones in a rabbity six, a dead shape, but Black keeps its eye
    # at C5, so their capture kills nothing
    assert H.self_atari(g, m, a3, WHITE) and sacrifice_leaves_dead_shape(g, m, a3, WHITE)
    assert sacrifice_leaves_an_eye(g, m, a3, WHITE) and H.hopeless_self_atari(g, m, a3, WHITE)
    assert H.hopeless_self_atari(g, m, a3, BLACK)  # Black's twelve stones: no dead shape
    square, _, _ = board_of("""
        .........
        .........
        .........
        .........
        .........
        .........
        OOOO.....
        X.OO.....
        XX.O.....
    """)
    b2 = idx(square, "B2")  # the square four, with no other eye beside it: it may kill
    assert not sacrifice_leaves_an_eye(square.board.grid, square.board.meta, b2, BLACK)


def test_no_playout_fills_a_seki_of_one_eye_each():
    from miai.ai.config import MctsConfig
    from tests.diagrams import ONE_EYE_SEKI_FROM_A_GAME

    game, g, m = board_of(ONE_EYE_SEKI_FROM_A_GAME)
    owners = np.zeros(g.shape[1], np.int64)
    count = 60
    H.heavy_ownership(g, m, BLACK, 0, 0, count, 3, H.PAT3, MctsConfig().policy_params(9), owners)
    assert owners[idx(game, "B2")] == -count  # White's five stones live in every playout
    assert owners[idx(game, "B4")] == count  # and so do Black's eleven beside them


def test_no_playout_fills_a_large_seki_at_the_default_rates():
    from miai.ai.config import MctsConfig

    game = large_seki_filled()
    owners = np.zeros(game.board.grid.shape[1], np.int64)
    count = 40
    H.heavy_ownership(game.board.grid, game.board.meta, BLACK, 0, 0, count, 3, H.PAT3,
                      MctsConfig().policy_params(19), owners)
    assert owners[idx(game, "J1")] == -count  # White's thirteen stones live in every playout
    assert owners[idx(game, "S2")] == count  # and so do Black's seven in the corner
