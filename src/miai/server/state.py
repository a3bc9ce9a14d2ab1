"""What the handlers share: the settings, the database, the store, the rooms, the reviews, and the shards
and bus of the distributed mode."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine

from miai.server.cluster.bus import Bus
from miai.server.cluster.router import Router
from miai.server.cluster.shards import Ownership
from miai.server.cluster.versions import GameVersions
from miai.server.compute.gameanalysis import GameAnalyses
from miai.server.compute.workers import Workers
from miai.server.config import ServerConfig
from miai.server.rooms.registry import Registry
from miai.server.storage.reviews import ReviewStore
from miai.server.storage.store import Store

__all__ = ["Server"]


@dataclass(slots=True)
class Server:
    config: ServerConfig
    engine: AsyncEngine
    store: Store
    registry: Registry
    workers: Workers
    router: Router
    ownership: Ownership
    bus: Bus
    versions: GameVersions
    """The versions of the games relayed here from other processes (relay.py)."""
    reviews: ReviewStore
    """Uploaded reviews and the analyses of reviews."""
    analyses: GameAnalyses
    """The analyses of whole reviews under way here."""

    async def close(self) -> None:
        await self.ownership.close()  # the locks go first: another process may take the games
        await self.analyses.close()
        await self.registry.close()
        await self.versions.close()
        await self.bus.close()
        self.workers.close()
        await self.engine.dispose()
