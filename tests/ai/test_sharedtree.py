"""Several threads growing one tree: every playout counted once, no virtual loss left behind,
the budget and the callers' limits kept, and the tactics of one thread kept too."""

from __future__ import annotations

import time

import numpy as np
import pytest

from miai._kernel import heavy as H
from miai._kernel import tree as T
from miai.ai.mcts import MctsConfig, MctsPlayer
from miai.ai.sharedtree import SharedTreeSearch, thread_seed
from miai.coords import Color, point_from_gtp
from miai.game import Game
from miai.rules import Rules
from miai.testing.positions import random_position
from tests.diagrams import game_from


def threaded(playouts: int = 2000, threads: int = 2, **changes) -> MctsPlayer:
    return MctsPlayer(MctsConfig(playouts=playouts, max_seconds=None, seed=1, threads=threads, **changes))


KNOWLEDGE = (H.PAT3, np.zeros(0, np.int64), np.zeros(0), np.zeros(0))
SEED = 5


def rooted_tree(game: Game, cfg: MctsConfig) -> tuple[T.Tree, np.ndarray, np.ndarray]:
    """A fresh tree with its root expanded in ``game``'s position; the search's parameters and
    its mask of forbidden moves (none)."""
    board = game.board
    params = cfg.tree_params(game.rules.komi)
    forbidden = np.zeros(board.grid.shape[1], np.bool_)
    tree = T.new_tree(200_000)
    assert T.expand(tree, 0, board.grid, board.meta, int(game.to_move), 0, 0, params, KNOWLEDGE, forbidden)
    return tree, params, forbidden


def grown_tree(game: Game, playouts: int, threads: int = 2, **changes) -> tuple[T.Tree, int]:
    """A fresh tree grown by the shared search from ``game``'s position; and the iterations done."""
    cfg = MctsConfig(playouts=playouts, max_seconds=None, threads=threads, **changes)
    board = game.board
    tree, params, forbidden = rooted_tree(game, cfg)
    search = SharedTreeSearch(tree, board.grid, board.meta, int(game.to_move), 0, 0, cfg, params,
                              cfg.policy_params(game.size), KNOWLEDGE, forbidden)
    done, owners = search.run(playouts, seed=SEED, keep_going=lambda done: True)
    assert np.all(np.abs(owners) <= done)
    return tree, done


@pytest.mark.parametrize("virtual_loss", [1.0, 2.5, 7.0])
def test_every_playout_is_counted_once_and_no_virtual_loss_is_left(virtual_loss):
    game = random_position(9, Rules.preset("chinese"), seed=4, moves=12)
    tree, done = grown_tree(game, 3000, virtual_loss=virtual_loss, thread_batch=3)
    ti, tf, tmeta = tree
    used = int(tmeta[T.TM_USED])
    assert done == 3000
    assert tf[T.T_V, 0] == 3000
    visits, wins = tf[T.T_V, :used], tf[T.T_W, :used]
    assert np.all(visits == np.round(visits)) and np.all(visits >= 0)  # a fractional loss would show
    assert np.all(wins <= visits)
    for node in range(used):
        first, nc = int(ti[T.T_FIRST, node]), int(ti[T.T_NCHILD, node])
        if nc:
            below = tf[T.T_V, first : first + nc].sum()
            assert below == visits[node] if node == 0 else below <= visits[node]


def test_one_thread_one_leaf_a_batch_grows_the_tree_of_the_search_without_threads():
    # the virtual loss a descent puts on its leaf must not hasten the leaf's expansion: with
    # one leaf a batch it is taken off before the next descent, so the two trees are the same
    game = random_position(9, Rules.preset("chinese"), seed=7, moves=10)
    shared, done = grown_tree(game, 600, threads=1, thread_batch=1, virtual_loss=3.0)
    cfg = MctsConfig(playouts=600, max_seconds=None)
    plain, params, forbidden = rooted_tree(game, cfg)
    board = game.board
    owners = np.zeros(board.grid.shape[1], np.int64)
    rng = np.array([thread_seed(SEED, 0)], np.int64)
    T.search(plain, 0, board.grid, board.meta, int(game.to_move), 0, 0, 600, params, cfg.policy_params(game.size),
             KNOWLEDGE, owners, rng, forbidden)
    used = int(plain[2][T.TM_USED])
    assert done == 600 and used > 100  # leaves were expanded below the root
    assert int(shared[2][T.TM_USED]) == used
    assert np.array_equal(shared[0][:, :used], plain[0][:, :used])
    assert np.array_equal(shared[1][:, :used], plain[1][:, :used])


def test_a_search_from_a_node_below_the_root_grows_only_that_node_s_subtree():
    game = random_position(9, Rules.preset("chinese"), seed=4, moves=12)
    tree, _ = grown_tree(game, 2000)
    ti, tf, _ = tree
    first, nc = int(ti[T.T_FIRST, 0]), int(ti[T.T_NCHILD, 0])
    node = first + int(np.argmax(tf[T.T_V, first : first + nc]))
    before = tf[T.T_V, first : first + nc].copy()
    after = game.copy()
    after.play(after.board.point(int(ti[T.T_MOVE, node])))
    cfg = MctsConfig(playouts=1000, max_seconds=None)
    board = after.board
    forbidden = np.zeros(board.grid.shape[1], np.bool_)
    params = cfg.tree_params(game.rules.komi)
    search = SharedTreeSearch(tree, board.grid, board.meta, int(after.to_move), 0, 0, cfg, params,
                              cfg.policy_params(game.size), KNOWLEDGE, forbidden, root=node)
    done, _ = search.run(1000, seed=SEED, keep_going=lambda done: True)
    assert done == 1000
    assert tf[T.T_V, 0] == 2000  # the root is not on these paths
    grown = tf[T.T_V, first : first + nc] - before
    assert grown[node - first] == 1000 and grown.sum() == 1000  # only the node's visits rose
    below = int(ti[T.T_FIRST, node]), int(ti[T.T_NCHILD, node])
    assert tf[T.T_V, below[0] : below[0] + below[1]].sum() > 900  # its replies took the playouts


def test_the_playout_budget_is_kept_exactly():
    result = threaded(playouts=1234, thread_batch=5, early_stop=False).search(Game(9))
    assert result.playouts == 1234
    assert sum(c.visits for c in result.candidates) == 1234
    assert np.all(np.abs(result.ownership) <= 1.0)


def test_a_stop_asked_for_ends_the_search_after_the_batches_in_flight():
    asked: list[int] = []

    def stop() -> bool:
        asked.append(1)
        return True

    ai = threaded(playouts=10**9, thread_batch=4)
    result = ai.search(Game(9), stop=stop)
    # asked once, after the first chunk of iterations; the other thread may have run a few
    # batches more by then (more on a loaded machine), and ends the one in flight
    assert asked == [1]
    assert 0 < result.playouts < 2_000 and result.playouts % 4 == 0


def test_between_chunks_the_slow_work_runs_without_the_lock_while_the_other_thread_searches():
    game = random_position(9, Rules.preset("chinese"), seed=4, moves=12)
    cfg = MctsConfig(playouts=6000, max_seconds=None, threads=2, chunk=1000)
    board = game.board
    tree, params, forbidden = rooted_tree(game, cfg)
    search = SharedTreeSearch(tree, board.grid, board.meta, int(game.to_move), 0, 0, cfg, params,
                              cfg.policy_params(game.size), KNOWLEDGE, forbidden)
    visits_during: list[float] = []

    def between() -> None:
        # the lock is free to take (called with it held, this would wait its whole timeout)
        assert search.lock.acquire(timeout=10)
        before = tree[1][T.T_V, 0]
        search.lock.release()
        time.sleep(0.05)  # the other thread searches meanwhile
        with search.lock:
            visits_during.append(tree[1][T.T_V, 0] - before)

    done, _ = search.run(6000, seed=SEED, keep_going=lambda done: done < 6000, between=between)
    assert done == 6000
    assert len(visits_during) >= 2  # after each chunk the search went on from
    assert max(visits_during) > 0

def test_the_time_budget_is_kept_with_two_threads():
    ai = MctsPlayer(MctsConfig(playouts=10**9, max_seconds=0.3, seed=1, early_stop=False, threads=2))
    ai.search(Game(9))  # compiled or loaded from the cache before the clock starts
    start = time.monotonic()
    result = ai.search(Game(9))
    assert time.monotonic() - start < 1.0
    assert result.playouts > 100


def test_two_threads_read_the_same_tactics():
    game = game_from(
        """
        .........
        .........
        .........
        ..OOO....
        .OXXX....
        ..OOO....
        .........
        .........
        .........
        """,
        to_move=Color.BLACK,
    )
    # Black's three stones have one liberty, F5; extending there gives them three
    assert threaded(playouts=1500).genmove(game).point == point_from_gtp("F5", 9)


def test_the_tree_is_kept_between_moves_with_two_threads():
    ai = threaded(playouts=800)
    game = Game(9)
    for _ in range(4):
        decision = ai.genmove(game)
        game.play(decision.point)
    # the kept subtree carries the visits the last search gave the moves since
    assert ai.search(game, playouts=1).playouts == 1
    assert sum(c.visits for c in ai.candidates(game)) > 1


def test_thread_seeds_differ_and_are_never_zero():
    seeds = {thread_seed(s, i) for s in (0, 1, 2**62) for i in range(8)}
    assert len(seeds) == 24 and 0 not in seeds
