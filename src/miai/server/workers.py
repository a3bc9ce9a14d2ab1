"""The worker processes: the computer's moves and the dead-stone estimate never run on the
event loop.

:class:`Workers` owns a small :class:`~concurrent.futures.ProcessPoolExecutor`, started on first
use with the ``forkserver`` method (so that no thread of the server is forked); each worker
loads the compiled kernel once, rebuilds a game from its events (a few milliseconds) and
answers with plain values.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from miai.server.computer import computer_action
from miai.server.estimate import estimate_dead_stones
from miai.server.events import GameSpec

__all__ = ["Workers"]

Events = list[tuple[str, dict[str, Any]]]


def _warm_up() -> None:
    """Load the compiled kernel once per worker (from numba's disk cache)."""
    import miai.ai.mcts  # noqa: F401
    import miai.ai.status  # noqa: F401


class Workers:
    """The worker pool. ``executor`` replaces it (tests share one, or drive a fake)."""

    def __init__(self, workers: int = 1, executor: Executor | None = None):
        self.workers = max(1, workers)
        self._executor = executor
        self._owned = executor is None

    def _pool(self) -> Executor:
        if self._executor is None:
            context = multiprocessing.get_context("forkserver")
            self._executor = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_warm_up)
        return self._executor

    async def _run(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._pool(), fn, *args)

    async def dead_stones(self, spec: GameSpec, events: Events) -> tuple[list[str], list[str]]:
        """The estimated dead and seki stones of the game after ``events``."""
        result: tuple[list[str], list[str]] = await self._run(estimate_dead_stones, spec.to_text(), events)
        return result

    async def computer_action(
        self, spec: GameSpec, events: Events, level: int, max_seconds: float
    ) -> tuple[str, dict[str, Any]]:
        """What the computer seat whose turn it is does after ``events``."""
        result: tuple[str, dict[str, Any]] = await self._run(
            computer_action, spec.to_text(), events, level, max_seconds
        )
        return result

    def close(self) -> None:
        if self._owned and self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
        self._executor = None
