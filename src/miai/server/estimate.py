"""The dead-stone estimate for a marking phase, computed in a worker process.

The estimate (:func:`miai.ai.status.estimate_status`) runs playouts: it must never run on the
event loop. :class:`Estimator` owns a small :class:`~concurrent.futures.ProcessPoolExecutor`
(started on first use, with the ``forkserver`` method so that no thread of the server is
forked); the worker rebuilds the game from its events (a few milliseconds) and returns the
dead and seki stones as vertices.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from miai.server.events import EventKind, GameSpec, rebuild, vertices

__all__ = ["Estimator", "Suggestion", "estimate_dead_stones"]


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The computer's estimate of the dead (and seki) stones, offered to the first passer as
    the starting proposal of the marking phase that opened at version ``v``."""

    v: int
    dead: tuple[str, ...]
    seki: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"v": self.v, "dead": list(self.dead), "seki": list(self.seki)}


def estimate_dead_stones(
    spec: tuple[int, str, int], events: list[tuple[str, dict[str, Any]]], seed: int = 0
) -> tuple[list[str], list[str]]:
    """In a worker: the game rebuilt from ``events``, and its estimated dead and seki stones."""
    from miai.ai.status import estimate_status

    game = rebuild(GameSpec.from_text(*spec), [(EventKind(k), p) for k, p in events])
    estimate = estimate_status(game, seed=seed)
    return vertices(estimate.dead), vertices(estimate.seki)


def _warm_up() -> None:
    """Load the compiled kernel once per worker (from numba's disk cache)."""
    import miai.ai.status  # noqa: F401


class Estimator:
    """The worker pool for estimates. ``executor`` replaces the pool (tests share one)."""

    def __init__(self, workers: int = 1, executor: Executor | None = None):
        self.workers = max(1, workers)
        self._executor = executor
        self._owned = executor is None

    def _pool(self) -> Executor:
        if self._executor is None:
            context = multiprocessing.get_context("forkserver")
            self._executor = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_warm_up)
        return self._executor

    async def dead_stones(
        self, spec: GameSpec, events: list[tuple[str, dict[str, Any]]]
    ) -> tuple[list[str], list[str]]:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool(), estimate_dead_stones, spec.to_text(), events)

    def close(self) -> None:
        if self._owned and self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
        self._executor = None
