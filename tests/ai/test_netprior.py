"""The policy network's prior at the root of the tree (:mod:`miai.ai.netprior`): once, from
the root's own position, and only on the network's board."""

from __future__ import annotations

import numpy as np
import pytest

from miai._kernel import heavy as H
from miai._kernel import tree as T
from miai.ai import movemodel, policynet
from miai.ai.mcts import MctsConfig
from miai.ai.netprior import NetPrior, last_points
from miai.coords import Color
from miai.game import Game

KNOWLEDGE = (H.PAT3, np.zeros(0, np.int64), np.zeros(0, np.float64), np.zeros(0, np.float64))
"""The 3×3 patterns only: the tree's own priors, cheap to grow a tree with."""


def opening() -> Game:
    game = Game(19)
    for vertex in "Q16 D4 Q3 D16 R5 C14".split():
        game.play(vertex)
    return game


def grown_tree(game: Game, iterations: int) -> T.Tree:
    """A tree searched ``iterations`` times from ``game``'s position, Black to move."""
    board = game.board
    grid, meta = board.grid.copy(), board.meta.copy()
    last, last2 = last_points(game)
    params = MctsConfig().tree_params(7.5)
    forbidden = np.zeros(grid.shape[1], np.bool_)
    tree = T.new_tree(200_000)
    assert T.expand(tree, 0, grid, meta, int(Color.BLACK), last, last2, params, KNOWLEDGE, forbidden)
    T.search(tree, 0, grid, meta, int(Color.BLACK), last, last2, iterations, params, H.DEFAULT_PARAMS, KNOWLEDGE,
             np.zeros(grid.shape[1], np.int64), np.array([7], np.int64), forbidden)
    return tree


def children(ti: np.ndarray, node: int) -> range:
    first = int(ti[T.T_FIRST, node])
    return range(first, first + int(ti[T.T_NCHILD, node]))


@pytest.fixture(scope="module")
def searched() -> tuple[Game, T.Tree]:
    game = opening()
    return game, grown_tree(game, 3000)


def test_the_roots_children_get_the_nets_prior_once(searched):
    game, tree = searched
    tree = tuple(array.copy() for array in tree)
    ti, tf, _ = tree
    before, before_won = tf[T.T_PV].copy(), tf[T.T_PW].copy()
    prior = NetPrior(300.0)
    prior.give_root(game, tree, Color.BLACK)
    chances = policynet.root_chances(game, int(Color.BLACK), *last_points(game), policynet.default_net(),
                                     movemodel.default_model())
    for k in children(ti, 0):
        move = int(ti[T.T_MOVE, k])
        bonus = 0.0 if move == 0 else 300.0 * np.sqrt(chances[game.board.point(move)])
        assert tf[T.T_PV, k] - before[k] == pytest.approx(bonus)
        assert tf[T.T_PW, k] - before_won[k] == pytest.approx(bonus)  # visits all won
    untouched = np.setdiff1d(np.arange(len(before)), list(children(ti, 0)))
    assert np.array_equal(tf[T.T_PV, untouched], before[untouched])  # below the root: none
    given = tf[T.T_PV].copy()
    prior.give_root(game, tree, Color.BLACK)
    assert ti[T.T_NET, 0] == 1 and np.array_equal(tf[T.T_PV], given)


def test_a_kept_subtrees_new_root_gets_the_prior_of_its_own_position(searched):
    game, tree = searched
    tree = tuple(array.copy() for array in tree)
    ti, tf, _ = tree
    NetPrior(300.0).give_root(game, tree, Color.BLACK)
    node = max(children(ti, 0), key=lambda k: tf[T.T_V, k])
    kept = T.new_tree(200_000)
    T.compact(tree, node, kept)
    assert kept[0][T.T_NET, 0] == 0 and not kept[0][T.T_NET].any()
    after = game.copy()
    after.play(after.board.point(int(ti[T.T_MOVE, node])))
    before = kept[1][T.T_PV].copy()
    NetPrior(300.0).give_root(after, kept, Color.WHITE)
    assert kept[0][T.T_NET, 0] == 1 and not np.array_equal(kept[1][T.T_PV], before)


def test_no_prior_at_zero_weight_nor_off_the_nets_board(searched):
    game, tree = searched
    tree = tuple(array.copy() for array in tree)
    before = tree[1].copy()
    NetPrior(0.0).give_root(game, tree, Color.BLACK)
    assert np.array_equal(tree[1], before) and not tree[0][T.T_NET].any()
    assert not NetPrior(300.0).applies(Game(9))
    assert NetPrior(300.0).applies(game)
