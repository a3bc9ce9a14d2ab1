"""Group commit: the writes of many games' actions in one transaction, one fsync for all.

On SQLite every commit waits for its own fsync (a few milliseconds with ``synchronous=FULL``)
and commits happen one at a time (SQLite has one writer), so under load the actions of
different games queue behind each other's fsyncs (BENCHMARKS.md, *miai serve under load*:
it matters most on a busy machine or a slow disk). :class:`GroupCommit` lets the
writes that arrive while a commit is running wait together, and commits them in the next
transaction at once: the same durability (nobody is answered before the transaction holding
their write has committed), one fsync per batch instead of one per action.

A write is a function of the open connection. One write that fails must not fail the others
of its batch, and SQLite's SAVEPOINTs are unreliable through the Python driver, so a batch
whose transaction fails (it is rolled back whole) is retried one write per transaction: each
write then gets its own outcome, exactly as without batching.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from sqlalchemy.ext.asyncio import AsyncConnection

__all__ = ["GroupCommit", "Write"]

log = logging.getLogger("miai.server")

Write = Callable[[AsyncConnection], Awaitable[None]]
"""One write: statements on the open transaction's connection."""
Item = tuple[Write, "asyncio.Future[None]"]


class GroupCommit:
    """Runs writes in shared transactions (see the module's docstring).

    ``begin`` opens a transaction (committed when its context exits without an error);
    ``max_batch`` bounds how many writes share one.
    """

    def __init__(
        self,
        begin: Callable[[], contextlib.AbstractAsyncContextManager[AsyncConnection]],
        max_batch: int = 128,
    ):
        self._begin = begin
        self.max_batch = max_batch
        self._queue: list[Item] = []
        self._writer: asyncio.Task[None] | None = None
        self.batches = 0
        """How many transactions committed two writes or more (for tests and benchmarks)."""

    async def run(self, write: Write) -> None:
        """Run ``write`` in a transaction and return once that transaction has committed;
        ``write``'s own error is raised here (and nothing of it is committed)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append((write, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_all(), name="miai group commit")
        await future

    async def _write_all(self) -> None:
        while self._queue:
            batch, self._queue = self._queue[: self.max_batch], self._queue[self.max_batch :]
            batch = [item for item in batch if not item[1].cancelled()]
            if len(batch) == 1:
                await self._alone(batch[0])
            elif batch:
                try:
                    await self._transaction(batch)
                except Exception:
                    log.info("a batch of %d writes failed: retrying them one by one", len(batch))
                    for item in batch:
                        await self._alone(item)
                else:
                    self.batches += 1
                    for _, future in batch:
                        _settle(future, None)

    async def _transaction(self, batch: list[Item]) -> None:
        async with self._begin() as conn:
            for write, _ in batch:
                await write(conn)

    async def _alone(self, item: Item) -> None:
        """One write in its own transaction; its outcome goes to its future."""
        try:
            await self._transaction([item])
        except Exception as e:
            _settle(item[1], e)
        else:
            _settle(item[1], None)


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)
