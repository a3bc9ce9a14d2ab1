"""The games' last versions in the database, for the relays of one process (docs/SERVER.md §2.1).

A relay (:mod:`miai.server.cluster.relay`) must notice when the bus dropped the last events of its game,
since no later event will show the gap. Each relay reading the database on its own every few
seconds costs a query per relayed connection (hundreds a second on a busy process); instead one
task per process reads the version of every game relayed here in one query every
``relay_poll_s`` seconds, and an idle relay reads the events only when its game has moved on.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence

__all__ = ["GameVersions"]

log = logging.getLogger("miai.server")

Reader = Callable[[Sequence[str]], Awaitable[dict[str, int]]]


class GameVersions:
    """The last committed ``v`` of the watched games, read together every ``interval`` s by
    ``read`` (:meth:`miai.server.storage.store.Store.versions`)."""

    def __init__(self, read: Reader, interval: float):
        self._read = read
        self.interval = interval
        self._watchers: Counter[str] = Counter()
        self._latest: dict[str, int] = {}
        self._task: asyncio.Task[None] | None = None

    def watch(self, game_id: str) -> Callable[[], None]:
        """Read ``game_id``'s version from now on, until the returned function is called."""
        self._watchers[game_id] += 1
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="miai game versions")

        def stop() -> None:
            self._watchers[game_id] -= 1
            if self._watchers[game_id] <= 0:
                del self._watchers[game_id]
                self._latest.pop(game_id, None)

        return stop

    def newer_than(self, game_id: str, v: int) -> bool:
        """Whether the database held a version of the game beyond ``v`` at the last reading."""
        return self._latest.get(game_id, 0) > v

    async def refresh(self) -> None:
        """Read the versions of every watched game now (the background task does it regularly)."""
        ids = list(self._watchers)
        if not ids:
            return
        try:
            found = await self._read(ids)
        except Exception as err:  # the next round tries again; meanwhile the bus goes on
            log.warning("the games' versions cannot be read: %s", err)
            return
        for game_id, v in found.items():
            if game_id in self._watchers:
                self._latest[game_id] = v

    async def _run(self) -> None:
        while self._watchers:
            await asyncio.sleep(self.interval)
            await self.refresh()

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
