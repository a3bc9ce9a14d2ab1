"""The tree's priors, one function each (:mod:`miai._kernel.priors`), and their sum at expansion."""

from __future__ import annotations

import numpy as np

from miai._kernel import priors as P
from miai._kernel import tree as T
from miai._kernel.board import BLACK, WHITE
from miai._kernel.ladder import new_scratch
from miai.ai.mcts import MctsConfig
from miai.coords import Color, point_from_gtp
from tests._kernel.test_tree import NO_LEARNING, children, nothing_forbidden
from tests.diagrams import game_from

# White's B3-C3 has two liberties left (A3, D3), and White's D5 one (D4): Black captures there.
POSITION = """
    ..XOX
    .XX..
    .OO..
    .XX..
    .....
    """
# White's A2-B2-B1 has two liberties (A1, C1): White's A1 is a self-atari.
SELF_ATARI = """
    .....
    .....
    XX...
    OOX..
    .O...
    """


def children_of(diagram: str, c: int):
    """The game, its board, and the points ``c`` may play (the children of an expansion)."""
    game = game_from(diagram)
    g, m = game.board.grid, game.board.meta
    moves = np.array(sorted(game.board.index(p) for p in game.legal_moves(Color(c))), np.int32)
    return game, g, m, moves


def at(game, moves: np.ndarray, values: np.ndarray, vertex: str) -> float:
    """The value of the child on ``vertex``."""
    return float(values[list(moves).index(game.board.index(point_from_gtp(vertex, game.size)))])


def test_cfg_distances_cross_chains_for_free():
    game = game_from(
        """
        .....
        .....
        .XXX.
        .....
        .....
        """
    )
    g, m = game.board.grid, game.board.meta
    dist = np.zeros(g.shape[1], np.int32)
    P.cfg_distances(g, m, game.board.index(point_from_gtp("B3", 5)), dist)
    here = lambda v: dist[game.board.index(point_from_gtp(v, 5))]
    assert here("D3") == 0 and here("E3") == 1 and here("D4") == 1 and here("D5") == 2 and here("E5") == 3


def test_each_prior_adds_its_weight_to_the_moves_it_is_about():
    game, g, m, moves = children_of(POSITION, BLACK)
    n = len(moves)
    pv, pw = np.zeros(n), np.zeros(n)
    P.capture_prior(g, m, BLACK, moves, pv, pw, 15.0, 30.0)
    assert at(game, moves, pv, "D4") == at(game, moves, pw, "D4") == 15.0  # one stone taken
    assert np.count_nonzero(pv) == 1
    pv, pw = np.zeros(n), np.zeros(n)
    P.cfg_prior(g, m, game.board.index(point_from_gtp("C3", 5)), moves, pv, pw, 24.0, 22.0, 8.0)
    assert at(game, moves, pv, "D3") == at(game, moves, pw, "D3") == 24.0  # next to the chain
    assert at(game, moves, pv, "E3") == 22.0 and at(game, moves, pv, "E1") == 0.0  # two steps; far
    game, g, m, moves = children_of(SELF_ATARI, WHITE)
    pv, pw = np.zeros(len(moves)), np.zeros(len(moves))
    P.self_atari_prior(g, m, WHITE, moves, pv, 10.0)
    assert at(game, moves, pv, "A1") == 10.0 and at(game, moves, pv, "C1") == 0.0
    assert not pw.any()  # visits without wins


def test_an_expansion_gives_each_child_the_sum_of_every_prior():
    game, g, m, moves = children_of(POSITION, BLACK)
    last = game.board.index(point_from_gtp("C3", 5))
    cfg = MctsConfig()
    ti, tf, _ = tree = T.new_tree(1_000)
    assert T.expand(tree, 0, g, m, BLACK, last, 0, cfg.tree_params(7.5), NO_LEARNING, nothing_forbidden(g))
    kids = children(ti, 0)
    assert sorted(int(ti[T.T_MOVE, k]) for k in kids) == list(moves)
    order = [int(ti[T.T_MOVE, k]) for k in kids]
    moves = np.array(order, np.int32)
    pv, pw = np.zeros(len(moves)), np.zeros(len(moves))
    P.even_prior(pv, pw, cfg.prior_even)
    P.capture_prior(g, m, BLACK, moves, pv, pw, cfg.prior_capture_one, cfg.prior_capture_many)
    P.pat3_prior(g, m, moves, pv, pw, NO_LEARNING[0], cfg.prior_pat3)
    P.cfg_prior(g, m, last, moves, pv, pw, *cfg.prior_cfg)
    P.empty_area_prior(g, m, moves, pv, pw, cfg.prior_emptyarea)
    P.self_atari_prior(g, m, BLACK, moves, pv, cfg.prior_selfatari)
    P.race_prior(g, m, BLACK, moves, pv, pw, cfg.prior_race)
    hopeless = np.zeros(len(moves), np.bool_)
    P.ladder_prior(g, m, BLACK, moves, pv, pw, cfg.prior_ladder, new_scratch(g, m), np.zeros(0, np.int64), hopeless)
    assert tf[T.T_PV, kids].tolist() == pv.tolist() and tf[T.T_PW, kids].tolist() == pw.tolist()
    assert len(set(pv.tolist())) > 3  # the position tells the moves apart
