"""The search tree in flat arrays: expansion with priors, the search loop, compaction."""

from __future__ import annotations

import numpy as np

from miai._kernel import heavy as H
from miai._kernel import tree as T
from miai._kernel.board import BLACK, WHITE, new_board
from miai.ai.mcts import MctsConfig
from miai.coords import point_from_gtp
from tests.diagrams import game_from

PARAMS = MctsConfig().tree_params(7.5)
NO_LEARNING = (H.PAT3, np.zeros(0, np.int64), np.zeros(0, np.float64), np.zeros(0, np.float64))
"""The 3×3 patterns, an empty table of learned spatial patterns and no move predictor (the
priors read none): the search's ``knowledge``."""


def children(ti, node):
    first, n = int(ti[T.T_FIRST, node]), int(ti[T.T_NCHILD, node])
    return list(range(first, first + n))


def nothing_forbidden(g) -> np.ndarray:
    return np.zeros(g.shape[1], np.bool_)


def expanded_root(g, m, c=BLACK, last=0, forbidden=None):
    tree = T.new_tree(10_000)
    mask = nothing_forbidden(g) if forbidden is None else forbidden
    assert T.expand(tree, 0, g, m, c, last, 0, PARAMS, NO_LEARNING, mask)
    return tree


def search(ti, tf, tmeta, g, m, c, count, seed, forbidden=None, params=PARAMS):
    """Run the kernel's search from the root (node 0); returns the ownership sums."""
    owners = np.zeros(g.shape[1], np.int64)
    mask = nothing_forbidden(g) if forbidden is None else forbidden
    T.search((ti, tf, tmeta), 0, g, m, c, 0, 0, count, params, H.DEFAULT_PARAMS, NO_LEARNING, owners,
             np.array([seed], np.int64), mask)
    return owners


def test_expand_gives_every_legal_move_with_priors():
    g, m = new_board(9)
    ti, tf, tmeta = expanded_root(g, m)
    kids = children(ti, 0)
    assert len(kids) == 81 and tmeta[T.TM_USED] == 82
    assert all(tf[T.T_PV, k] >= PARAMS[T.S_PRIOR_EVEN] for k in kids)
    assert {int(ti[T.T_MOVE, k]) for k in kids} == {(r + 1) * 11 + c + 1 for r in range(9) for c in range(9)}
    # the empty-area prior: first-line moves look worse than third-line ones
    rate = {int(ti[T.T_MOVE, k]): tf[T.T_PW, k] / tf[T.T_PV, k] for k in kids}
    assert rate[1 * 11 + 1] < rate[3 * 11 + 3]


def test_expand_adds_no_pass_child_while_a_move_is_left():
    g, m = new_board(9)
    ti, _, _ = expanded_root(g, m)
    moves = [int(ti[T.T_MOVE, k]) for k in children(ti, 0)]
    assert len(moves) == 81 and 0 not in moves


def test_expand_leaves_out_forbidden_points_and_own_eyes():
    game = game_from(
        """
        .X.OO
        XX.O.
        ...OO
        .....
        .....
        """
    )
    g, m = game.board.grid, game.board.meta
    forbidden = np.ones(g.shape[1], np.bool_)
    for v in ("C5", "C4", "A5", "E4"):
        forbidden[game.board.index(point_from_gtp(v, 5))] = False
    ti, _, _ = expanded_root(g, m, BLACK, forbidden=forbidden)
    moves = {game.board.point(int(ti[T.T_MOVE, k])) for k in children(ti, 0)}
    # A5 is Black's own eye; E4 is suicide for Black
    assert moves == {point_from_gtp("C5", 5), point_from_gtp("C4", 5)}


def test_a_node_with_no_move_gets_a_pass_child():
    game = game_from(
        """
        .X.X.
        XXXXX
        .X.X.
        XXXXX
        .X.X.
        """
    )
    ti, _, _ = expanded_root(game.board.grid, game.board.meta, BLACK)
    kids = children(ti, 0)
    assert len(kids) == 1 and ti[T.T_MOVE, kids[0]] == 0


def test_capture_prior_favours_the_capture():
    game = game_from(
        """
        .....
        ..X..
        .XO..
        ..X..
        .....
        """
    )
    g, m = game.board.grid, game.board.meta
    ti, tf, _ = expanded_root(g, m, BLACK, last=game.board.index(point_from_gtp("C2", 5)))
    by_move = {game.board.point(int(ti[T.T_MOVE, k])): k for k in children(ti, 0)}
    capture = by_move[point_from_gtp("D3", 5)]
    other = by_move[point_from_gtp("A5", 5)]
    assert tf[T.T_PW, capture] / tf[T.T_PV, capture] > tf[T.T_PW, other] / tf[T.T_PV, other]


def test_search_counts_every_iteration_and_leaves_the_board():
    g, m = new_board(7)
    before_g, before_m = g.copy(), m.copy()
    ti, tf, tmeta = expanded_root(g, m)
    owners = search(ti, tf, tmeta, g, m, BLACK, 300, 12345)
    assert tf[T.T_V, 0] == 300
    assert sum(tf[T.T_V, k] for k in children(ti, 0)) == 300
    assert (g == before_g).all() and (m == before_m).all()
    assert np.abs(owners).max() <= 300
    # some children were expanded, and their visits add up below them
    grown = [k for k in children(ti, 0) if ti[T.T_NCHILD, k] > 0]
    assert grown
    for k in grown:
        assert sum(tf[T.T_V, j] for j in children(ti, k)) == tf[T.T_V, k] - T_expand_visits()


def test_search_never_plays_a_forbidden_root_move():
    """A kept root may hold moves the game's rules forbid now (superko): the mask keeps the
    descent off them, so their visits and wins stay as they were (their AMAF statistics may
    still grow: the move can come up later in a playout)."""
    g, m = new_board(7)
    ti, tf, tmeta = expanded_root(g, m)
    search(ti, tf, tmeta, g, m, BLACK, 200, 5)
    kids = children(ti, 0)
    best = max(kids, key=lambda k: tf[T.T_V, k])
    forbidden = nothing_forbidden(g)
    forbidden[int(ti[T.T_MOVE, best])] = True
    before = tf[[T.T_V, T.T_W], best].copy()
    search(ti, tf, tmeta, g, m, BLACK, 300, 6, forbidden)
    assert (tf[[T.T_V, T.T_W], best] == before).all()
    assert tf[T.T_V, 0] == 500 and sum(tf[T.T_V, k] for k in kids) == 500


def test_search_with_every_root_move_forbidden_still_counts_its_iterations():
    g, m = new_board(5)
    ti, tf, tmeta = expanded_root(g, m)
    kids = children(ti, 0)
    search(ti, tf, tmeta, g, m, BLACK, 50, 5, np.ones(g.shape[1], np.bool_))
    assert tf[T.T_V, 0] == 50 and all(tf[T.T_V, k] == 0 for k in kids)


def T_expand_visits() -> int:
    return int(PARAMS[T.S_EXPAND_VISITS])


def test_search_is_reproducible_from_the_random_state():
    g, m = new_board(7)
    results = []
    for _ in range(2):
        ti, tf, tmeta = expanded_root(g, m)
        search(ti, tf, tmeta, g, m, WHITE, 100, 7)
        results.append(tf[:, : tmeta[T.TM_USED]].copy())
    assert (results[0] == results[1]).all()


def test_compact_keeps_a_subtree_with_its_statistics():
    g, m = new_board(7)
    ti, tf, tmeta = expanded_root(g, m)
    search(ti, tf, tmeta, g, m, BLACK, 400, 3)
    best = max(children(ti, 0), key=lambda k: tf[T.T_V, k])
    ti2, tf2, tmeta2 = T.new_tree(10_000)
    T.compact((ti, tf, tmeta), best, (ti2, tf2, tmeta2))
    assert tf2[T.T_V, 0] == tf[T.T_V, best]
    old = sorted((int(ti[T.T_MOVE, k]), tf[T.T_V, k]) for k in children(ti, best))
    new = sorted((int(ti2[T.T_MOVE, k]), tf2[T.T_V, k]) for k in children(ti2, 0))
    assert old == new and old

    def count(ti_, node):
        return 1 + sum(count(ti_, k) for k in children(ti_, node))

    assert count(ti2, 0) == count(ti, best) == tmeta2[T.TM_USED]


def test_well_visited_lists_the_nodes_reached_through_well_visited_moves():
    g, m = new_board(7)
    ti, tf, tmeta = expanded_root(g, m)
    search(ti, tf, tmeta, g, m, BLACK, 2000, 5)

    def reached(node, visits):  # the same walk, written plainly
        out = [node]
        for k in children(ti, node):
            if tf[T.T_V, k] >= visits and ti[T.T_MOVE, k] > 0:
                out += reached(k, visits)
        return out

    nodes, parents = np.empty(10_000, np.int32), np.empty(10_000, np.int32)
    count = T.well_visited(ti, tf, 50.0, nodes, parents)
    assert sorted(nodes[:count]) == sorted(reached(0, 50.0)) and count > 3
    assert parents[0] == -1
    for i in range(1, count):  # each node's parent comes before it, and is its parent in the tree
        j = parents[i]
        assert 0 <= j < i and nodes[i] in children(ti, nodes[j])
    assert T.well_visited(ti, tf, 50.0, nodes[: count - 1], parents[: count - 1]) == -1
