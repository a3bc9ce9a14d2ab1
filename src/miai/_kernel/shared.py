"""One search tree grown by several threads at once: the three steps of an iteration as
separate compiled calls that release the GIL, for tree parallelism with virtual loss.

A thread takes the tree's lock, descends to a batch of leaves (:func:`descend_batch`: each
path gains a virtual loss, so that the next descents, its own and the other threads', spread
out), lets the lock go while it plays their playouts on its own boards
(:func:`playout_batch`, which touches no shared array), then takes the lock again to back the
results up and take the virtual losses off (:func:`back_up_batch`). The descent and the
update are the single-threaded search's own (:func:`miai._kernel.tree.descend`,
``_back_up``); the lock itself is Python's, held by :mod:`miai.ai.sharedtree` around the
calls. A batch's arrays belong to one thread: ``boards``/``metas`` its boards (one per leaf),
``amafs`` each leaf's first player per point, ``paths`` the paths, ``leaves`` each path's
depth, colour to move and last two moves, ``results`` 1.0 where Black won.
"""

from __future__ import annotations

import numpy as np

from miai._kernel.board import M_N, M_RNG
from miai._kernel.heavy import heavy_playout_in, playout_scratch
from miai._kernel.jit import allocating, kernel
from miai._kernel.playout import _restore
from miai._kernel.tree import (
    S_KOMI,
    T_V,
    Knowledge,
    Tree,
    _back_up,
    _black_win,
    descend,
)

L_DEPTH, L_COLOR, L_LAST, L_LAST2 = range(4)
NLEAF = 4


def batch_arrays(grid: np.ndarray, meta: np.ndarray, batch: int) -> tuple[np.ndarray, ...]:
    """One thread's arrays for batches of up to ``batch`` leaves on this board:
    ``(boards, metas, amafs, paths, leaves, results)``."""
    length = grid.shape[1]
    return (
        np.zeros((batch, *grid.shape), grid.dtype),
        np.zeros((batch, meta.shape[0]), meta.dtype),
        np.zeros((batch, length), np.int8),
        np.zeros((batch, 4 * length + 8), np.int32),
        np.zeros((batch, NLEAF), np.int64),
        np.zeros(batch, np.float64),
    )


@allocating(nogil=True)
def descend_batch(
    tree: Tree, root: int, grid: np.ndarray, meta: np.ndarray, to_move: int, last: int, last2: int, count: int,
    params: np.ndarray, knowledge: Knowledge, forbidden: np.ndarray, virtual_loss: float, boards: np.ndarray,
    metas: np.ndarray, amafs: np.ndarray, paths: np.ndarray, leaves: np.ndarray,
) -> None:
    """Descend ``count`` times from ``root`` (the position ``grid``, ``meta``), each on its
    own board of the batch, with ``virtual_loss`` on every path. Call with the lock held."""
    nothing_forbidden = np.zeros(grid.shape[1], np.bool_)
    for b in range(count):
        g = boards[b]
        m = metas[b]
        _restore(g, m, grid, meta)
        amafs[b, :] = 0
        depth, c, l1, l2 = descend(tree, root, g, m, to_move, last, last2, params, knowledge, forbidden,
                                   nothing_forbidden, amafs[b], paths[b], virtual_loss)
        leaves[b, L_DEPTH] = depth
        leaves[b, L_COLOR] = c
        leaves[b, L_LAST] = l1
        leaves[b, L_LAST2] = l2


@allocating(nogil=True)
def playout_batch(
    count: int, params: np.ndarray, policy_params: np.ndarray, pat3: np.ndarray, boards: np.ndarray,
    metas: np.ndarray, amafs: np.ndarray, leaves: np.ndarray, results: np.ndarray, owners_sum: np.ndarray,
    rng_state: np.ndarray,
) -> int:
    """Play out the batch's ``count`` leaves on their boards with the thread's random state
    ``rng_state[0]``, counting each into ``results`` and the thread's ``owners_sum``; no
    lock needed. Returns the turns played."""
    owners = np.zeros(boards.shape[2], np.int32)
    scratch = playout_scratch(boards[0], metas[0])
    turns = 0
    for b in range(count):
        g = boards[b]
        m = metas[b]
        m[M_RNG] = rng_state[0]
        n = m[M_N]
        c = leaves[b, L_COLOR]
        l1, l2 = leaves[b, L_LAST], leaves[b, L_LAST2]
        turns += heavy_playout_in(g, m, c, l1, l2, 3 * n * n, pat3, policy_params, amafs[b], scratch)
        results[b] = _black_win(g, m, params[S_KOMI], owners, owners_sum)
        rng_state[0] = m[M_RNG]
    return turns


@kernel(nogil=True)
def back_up_batch(
    tree: Tree, to_move: int, count: int, virtual_loss: float, amafs: np.ndarray, paths: np.ndarray,
    leaves: np.ndarray, results: np.ndarray,
) -> None:
    """Take the batch's virtual losses off its paths and back its results up, as the
    single-threaded search does. Call with the lock held."""
    ti, tf, _ = tree
    for b in range(count):
        depth = leaves[b, L_DEPTH]
        for i in range(1, depth):
            tf[T_V, paths[b, i]] -= virtual_loss
        _back_up(ti, tf, paths[b], depth, to_move, results[b], amafs[b])
