"""The policy network's prior in the tree (:mod:`miai.ai.netprior`): the root's, and the
nodes' that the search visited often enough."""

from __future__ import annotations

import numpy as np
import pytest

from miai._kernel import heavy as H
from miai._kernel import tree as T
from miai.ai import movemodel, policynet
from miai.ai.mcts import MctsConfig, MctsPlayer
from miai.ai.netprior import NetPrior, last_points
from miai.ai.sharedtree import SharedTreeSearch
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


def often_visited(tree: T.Tree, visits: int) -> dict[int, list[int]]:
    """Every node below the root with children and ``visits`` visits or more, reached through
    such nodes and no pass, with the kernel points of the moves that lead to it."""
    ti, tf, _ = tree
    found: dict[int, list[int]] = {}

    def walk(node: int, path: list[int]) -> None:
        for k in children(ti, node):
            if tf[T.T_V, k] >= visits and ti[T.T_MOVE, k] > 0 and ti[T.T_NCHILD, k] > 0:
                found[k] = [*path, int(ti[T.T_MOVE, k])]
                walk(k, found[k])

    walk(0, [])
    return found


@pytest.fixture(scope="module")
def searched() -> tuple[Game, T.Tree]:
    game = opening()
    return game, grown_tree(game, 3000)


def test_nodes_visited_often_enough_get_the_nets_prior_once(searched):
    game, tree = searched
    tree = tuple(array.copy() for array in tree)
    ti, tf, _ = tree
    expected = often_visited(tree, 150)
    assert len(expected) >= 3, "the search should have grown a few nodes past 150 visits"
    before = tf[T.T_PV].copy()
    assert NetPrior(300.0, 150).give_grown(game, tree, Color.BLACK) == len(expected)
    flagged = {int(k) for k in np.flatnonzero(ti[T.T_NET, : int(tree[2][T.TM_USED])])}
    assert flagged == set(expected)
    # the deepest of them: its children got 300 × sqrt(chance) at that node's position
    node, path = max(expected.items(), key=lambda item: len(item[1]))
    at_node = game.copy()
    for point in path:
        at_node.play(at_node.board.point(point))
    chances = policynet.root_chances(at_node, int(at_node.to_move), *last_points(at_node),
                                     policynet.default_net(), movemodel.default_model())
    for k in children(ti, node):
        move = int(ti[T.T_MOVE, k])
        bonus = 0.0 if move == 0 else 300.0 * np.sqrt(chances[at_node.board.point(move)])
        assert tf[T.T_PV, k] - before[k] == pytest.approx(bonus)
    untouched = np.setdiff1d(np.arange(len(before)), [k for n in expected for k in children(ti, n)])
    assert np.array_equal(tf[T.T_PV, untouched], before[untouched])  # the root's children among them
    again = tf[T.T_PV].copy()
    assert NetPrior(300.0, 150).give_grown(game, tree, Color.BLACK) == 0
    assert np.array_equal(tf[T.T_PV], again)


def test_the_root_gets_its_prior_once_and_a_kept_subtree_keeps_its_nodes_marks(searched):
    game, tree = searched
    tree = tuple(array.copy() for array in tree)
    ti, tf, _ = tree
    prior = NetPrior(300.0, 150)
    prior.give_root(game, tree, Color.BLACK)
    given = tf[T.T_PV].copy()
    prior.give_root(game, tree, Color.BLACK)
    assert ti[T.T_NET, 0] == 1 and np.array_equal(tf[T.T_PV], given)
    prior.give_grown(game, tree, Color.BLACK)
    node = max(often_visited(tree, 150), key=lambda k: tf[T.T_V, k])
    kept = T.new_tree(200_000)
    T.compact(tree, node, kept)
    assert kept[0][T.T_NET, 0] == 1  # the new root has the prior already: it gets no second one
    marked_below = {int(ti[T.T_MOVE, k]) for k in children(ti, node) if ti[T.T_NET, k]}
    assert {int(kept[0][T.T_MOVE, k]) for k in children(kept[0], 0) if kept[0][T.T_NET, k]} == marked_below


def test_no_prior_below_the_root_at_zero_visits_nor_off_the_nets_board(searched):
    game, tree = searched
    tree = tuple(array.copy() for array in tree)
    before = tree[1].copy()
    assert NetPrior(300.0, 0).give_grown(game, tree, Color.BLACK) == 0
    assert NetPrior(0.0, 150).give_grown(game, tree, Color.BLACK) == 0
    assert np.array_equal(tree[1], before) and not tree[0][T.T_NET].any()
    assert not NetPrior(300.0, 150).applies(Game(9))


def test_the_threshold_is_the_share_of_the_searchs_playouts_when_that_is_more(searched):
    game, tree = searched
    prior = NetPrior(300.0, 100, share=0.05)
    assert prior.threshold(1000) == 100 and prior.threshold(6000) == 300
    assert len(often_visited(tree, 300)) < len(often_visited(tree, 100))
    for playouts, visits in ((1000, 100), (6000, 300)):
        copy = tuple(array.copy() for array in tree)
        assert prior.give_grown(game, copy, Color.BLACK, playouts=playouts) == len(often_visited(tree, visits))
        flagged = {int(k) for k in np.flatnonzero(copy[0][T.T_NET, : int(copy[2][T.TM_USED])])}
        assert flagged == set(often_visited(tree, visits))


def test_the_search_gives_the_prior_below_the_root_when_asked():
    game = opening()

    def first_moves(visits: int, share: float = 0.0) -> list[tuple[object, int]]:
        config = MctsConfig(playouts=1500, max_seconds=None, seed=3, early_stop=False, prior_net_visits=visits,
                            prior_net_share=share)
        result = MctsPlayer(config).search(game)
        return [(c.point, c.visits) for c in result.candidates[:5]]

    assert first_moves(0) == first_moves(0)  # a seeded search repeats itself, so the difference is the prior's
    assert first_moves(100) != first_moves(0)
    # the whole search's 1,500 playouts as the threshold: no node below the root reaches it
    assert first_moves(100, share=1.0) == first_moves(0)



def test_with_two_threads_the_nodes_get_it_between_chunks_while_the_other_thread_searches():
    game = opening()
    board = game.board
    last, last2 = last_points(game)
    config = MctsConfig(playouts=4000, max_seconds=None, threads=2, chunk=500)
    params = config.tree_params(7.5)
    forbidden = np.zeros(board.grid.shape[1], np.bool_)
    tree = T.new_tree(200_000)
    assert T.expand(tree, 0, board.grid, board.meta, int(Color.BLACK), last, last2, params, KNOWLEDGE, forbidden)
    search = SharedTreeSearch(tree, board.grid, board.meta, int(Color.BLACK), last, last2, config, params,
                              config.policy_params(19), KNOWLEDGE, forbidden)
    prior = NetPrior(300.0, 150)
    given: list[int] = []
    done, _ = search.run(4000, seed=9, keep_going=lambda done: True,
                         between=lambda: given.append(prior.give_grown(game, tree, Color.BLACK, search.lock)))
    assert done == 4000 and sum(given) > 0
    ti = tree[0]
    flagged = {int(k) for k in np.flatnonzero(ti[T.T_NET, 1 : int(tree[2][T.TM_USED])]) + 1}
    assert len(flagged) == sum(given)
    assert flagged <= set(often_visited(tree, 150))  # visits only grow: each had its 150 when it got it
    prior.give_grown(game, tree, Color.BLACK)  # those that reached 150 in the last chunk
    assert {int(k) for k in np.flatnonzero(ti[T.T_NET, 1 : int(tree[2][T.TM_USED])]) + 1} == set(often_visited(tree, 150))
