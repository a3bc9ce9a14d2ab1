"""Several threads growing one search tree (tree parallelism with virtual loss).

Each thread repeats: under the tree's lock, descend to a batch of leaves, putting a virtual
loss on each path; without the lock (and without the GIL: the kernel's calls release it),
play their playouts on its own boards; under the lock again, back the results up and take
the virtual losses off (:mod:`miai._kernel.shared`). The playouts are most of an iteration,
so the threads rarely wait for each other, and every playout deepens the same tree, unlike
root parallelism, where separate trees of half the depth were nearly worthless
(BENCHMARKS.md). The calling thread is one of the workers: every ``chunk`` iterations it asks
its ``keep_going`` callback, with the lock held, whether the search goes on, and then calls its
``between`` callback without the lock (work that is slow beside a batch, such as the network's
evaluations, which take the lock, :attr:`SharedTreeSearch.lock`, only to read and write the tree).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np

from miai._kernel import shared as S
from miai._kernel import tree as T
from miai.ai.config import MctsConfig

_GOLDEN = 0x9E3779B97F4A7C15
_MASK = 0x7FFFFFFFFFFFFFFF


def thread_seed(seed: int, index: int) -> int:
    """A random state for thread ``index`` from the player's ``seed``: different per thread,
    never 0 (xorshift has no zero state)."""
    x = (seed + (index + 1) * _GOLDEN) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return (x ^ (x >> 31)) & _MASK or 1


class SharedTreeSearch:
    """One search of ``config.threads`` threads on ``tree`` from its node ``root`` (already
    expanded; node 0 unless said) in the position ``grid``, ``meta`` with ``to_move`` to play
    after the moves ``last`` and ``last2``."""

    def __init__(
        self, tree: T.Tree, grid: np.ndarray, meta: np.ndarray, to_move: int, last: int, last2: int,
        config: MctsConfig, params: np.ndarray, policy_params: np.ndarray, knowledge: T.Knowledge,
        forbidden: np.ndarray, root: int = 0,
    ) -> None:
        self._tree = tree
        self._root = root
        self._position = (grid, meta, to_move, last, last2)
        self._config = config
        self._params = params
        self._policy_params = policy_params
        self._knowledge = knowledge
        self._forbidden = forbidden
        self._lock = threading.Lock()
        self._claimed = 0
        self._done = 0
        self._budget = 0
        self._halt = False
        self._failure: BaseException | None = None

    @property
    def lock(self) -> threading.Lock:
        """The tree's lock: held by a thread that reads or writes the tree while others search."""
        return self._lock

    def run(
        self, budget: int, seed: int, keep_going: Callable[[int], bool], between: Callable[[], object] | None = None,
    ) -> tuple[int, np.ndarray]:
        """Run up to ``budget`` iterations, the threads seeded from ``seed``, until
        ``keep_going(done)`` says no (asked in this thread every ``chunk`` iterations, and
        ``between()`` called after each yes). Returns the iterations done and the points' owner
        sums (+1 per playout ending Black's, -1 White's)."""
        grid = self._position[0]
        self._budget = budget
        sums = [np.zeros(grid.shape[1], np.int64) for _ in range(self._config.threads)]
        helpers = [
            threading.Thread(target=self._guarded, args=(sums[i], thread_seed(seed, i), None), daemon=True)
            for i in range(1, self._config.threads)
        ]
        for helper in helpers:
            helper.start()
        try:
            self._work(sums[0], thread_seed(seed, 0), keep_going, between)
        finally:
            self._halt = True
            for helper in helpers:
                helper.join()
        if self._failure is not None:
            raise self._failure
        return self._done, np.sum(sums, axis=0)

    def _guarded(self, owners_sum: np.ndarray, seed: int, keep_going: Callable[[int], bool] | None) -> None:
        """A helper thread's work; an exception stops every thread and is raised by :meth:`run`."""
        try:
            self._work(owners_sum, seed, keep_going)
        except BaseException as exc:  # noqa: BLE001 - handed to the calling thread
            self._failure = exc
            self._halt = True

    def _work(
        self, owners_sum: np.ndarray, seed: int, keep_going: Callable[[int], bool] | None,
        between: Callable[[], object] | None = None,
    ) -> None:
        """One thread's batches until the budget is claimed, the search halted or
        ``keep_going`` says no; ``between()`` after each yes, without the lock."""
        grid, meta, to_move, last, last2 = self._position
        cfg = self._config
        boards, metas, amafs, paths, leaves, results = S.batch_arrays(grid, meta, cfg.thread_batch)
        rng = np.array([seed], np.int64)
        loss = cfg.virtual_loss
        next_check = cfg.chunk  # keep_going is asked every chunk of iterations, as one thread asks it
        while True:
            with self._lock:
                count = min(cfg.thread_batch, self._budget - self._claimed)
                if self._halt or count <= 0:
                    return
                self._claimed += count
                S.descend_batch(self._tree, self._root, grid, meta, to_move, last, last2, count, self._params,
                                self._knowledge, self._forbidden, loss, boards, metas, amafs, paths, leaves)
            S.playout_batch(count, self._params, self._policy_params, self._knowledge[0], boards, metas, amafs,
                            leaves, results, owners_sum, rng)
            with self._lock:
                S.back_up_batch(self._tree, to_move, count, loss, amafs, paths, leaves, results)
                self._done += count
                asked = False
                if keep_going is not None and self._done >= next_check:
                    asked = True
                    next_check = self._done + cfg.chunk
                    if not keep_going(self._done):
                        self._halt = True
                        return
            if asked and between is not None:
                between()
