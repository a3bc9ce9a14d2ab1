"""What the handlers share: the settings, the database, the store and the rooms."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine

from miai.server.config import ServerConfig
from miai.server.workers import Workers
from miai.server.registry import Registry
from miai.server.store import Store

__all__ = ["Server"]


@dataclass(slots=True)
class Server:
    config: ServerConfig
    engine: AsyncEngine
    store: Store
    registry: Registry
    workers: Workers

    async def close(self) -> None:
        await self.registry.close()
        self.workers.close()
        await self.engine.dispose()
