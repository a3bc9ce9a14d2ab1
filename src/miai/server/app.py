"""The Starlette application: routes, error answers, and the start-up and shutdown of the
database, the rooms and the estimate's worker pool."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor
from contextlib import asynccontextmanager

from starlette.applications import Starlette

from miai.server import api, pages, ws
from miai.server.config import ServerConfig
from miai.server.db import migrate, open_engine
from miai.server.workers import Workers
from miai.server.registry import Registry, now_ms
from miai.server.state import Server
from miai.server.store import Store

__all__ = ["create_app"]

log = logging.getLogger("miai.server")


def warm_up() -> None:
    """Load the compiled kernel (from numba's disk cache) before the first request needs it."""
    from miai.game import Game

    game = Game(9)
    game.play("E5")
    game.copy().legality("D4")


def create_app(
    config: ServerConfig | None = None,
    *,
    executor: Executor | None = None,
    clock: Callable[[], int] | None = None,
) -> Starlette:
    """The ASGI application. At start-up it opens the database (see
    :meth:`ServerConfig.resolved_database_url`) and brings its schema up to date; ``executor``
    replaces the estimate's own worker pool (tests share one); ``clock`` replaces the wall
    clock in integer milliseconds (tests move time by hand)."""
    config = config or ServerConfig()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        engine = open_engine(config.resolved_database_url())
        await migrate(engine)
        await asyncio.to_thread(warm_up)
        store = Store(engine)
        workers = Workers(config.workers, executor)
        server = Server(config, engine, store, Registry(store, config, workers, clock or now_ms), workers)
        app.state.server = server
        try:
            yield
        finally:
            await server.close()

    return Starlette(
        routes=[*pages.routes(), *api.routes(), *ws.routes()],
        exception_handlers=api.exception_handlers,
        lifespan=lifespan,
    )
