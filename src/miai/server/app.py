"""The Starlette application: routes, error answers, the middleware (security headers, host
check, per-address request limit, origin check, session cookie, guests: outermost first), and
the start-up and shutdown of the database, the rooms and the estimate's worker pool."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from dataclasses import replace

from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.applications import Starlette
from starlette.middleware import Middleware

from miai.game import Game
from miai.server.cluster.bus import Bus, LocalBus, RedisBus
from miai.server.cluster.router import Router
from miai.server.cluster.shards import AdvisoryLocks, Everything, Ownership
from miai.server.cluster.versions import GameVersions
from miai.server.compute.gameanalysis import GameAnalyses
from miai.server.compute.workers import Workers
from miai.server.config import ServerConfig
from miai.server.people import sessions
from miai.server.people.signins import SignIns
from miai.server.rooms.registry import Registry
from miai.server.state import Server
from miai.server.storage.db import DatabaseUrlError, migrate, open_engine
from miai.server.storage.reviews import ReviewStore
from miai.server.storage.store import Store
from miai.server.timekeeper import Timekeeper
from miai.server.web.headers import SecurityHeadersMiddleware
from miai.server.web.hosts import HostMiddleware
from miai.server.web.origin import OriginMiddleware
from miai.server.web.ratelimit import AddressLimits, RequestLimitMiddleware
from miai.server.web.routes import exception_handlers, routes

__all__ = ["create_app"]

log = logging.getLogger("miai.server")


def warm_up() -> None:
    """Load the compiled kernel (from numba's disk cache) before the first request needs it."""
    game = Game(9)
    game.play("E5")
    game.copy().legality("D4")


SLOW_START_S = 10.0
"""A start of the workers longer than this is worth a warning: the kernel was compiled (the
first start after an install), or the machine is very busy."""


async def start_workers(workers: Workers) -> None:
    """Start the worker pools in the background, the port already open (:meth:`Workers.start`:
    each worker loads the compiled kernel, or compiles it on the first start after an install),
    and say in the log when they are ready."""
    began = time.monotonic()
    try:
        await asyncio.to_thread(workers.start)
    except Exception:
        log.exception("the worker processes could not be started: they start with the first job")
        return
    took = time.monotonic() - began
    level = logging.WARNING if took > SLOW_START_S else logging.INFO
    log.log(level, "the computer is ready: its worker processes started, kernel loaded, in %.1f s", took)


def distribution(config: ServerConfig, engine: AsyncEngine) -> tuple[Bus, Ownership]:
    """The bus and the shards' ownership: with a Redis URL (and PostgreSQL), Redis and advisory
    locks (several processes, docs/SERVER.md §2.1); without, one process that owns everything."""
    redis_url = config.resolved_redis_url()
    if redis_url is None:
        return LocalBus(), Everything(config.shards)
    if engine.url.get_backend_name() != "postgresql":
        raise DatabaseUrlError("--redis (several processes) needs a PostgreSQL database: postgresql://...")
    return RedisBus(redis_url), AdvisoryLocks(engine.url, config.shards, config.shard_claim_interval_s)


def create_app(
    config: ServerConfig | None = None,
    *,
    executor: Executor | None = None,
    timekeeper: Timekeeper | None = None,
) -> Starlette:
    """The ASGI application. At start-up it opens the database (see
    :meth:`ServerConfig.resolved_database_url`), brings its schema up to date and loads every
    unfinished timed game (so that its clock flags); ``executor`` replaces the estimate's own
    worker pool (tests share one); ``timekeeper`` (the games' clocks, timers and event times,
    ``miai.testing.manualtime.ManualTime`` in tests) replaces the system's time."""
    config = config or ServerConfig()
    if config.secret is None:  # one secret for the cookies and the seats' players' credentials
        config = replace(config, secret=sessions.resolve_secret(config))

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        engine = open_engine(config.resolved_database_url(), config.database_pool)
        await migrate(engine)
        await asyncio.to_thread(warm_up)
        store = Store(engine)
        workers = Workers(
            config.workers, executor, review_workers=config.review_workers, max_rss_mb=config.worker_max_rss_mb
        )
        starting = asyncio.create_task(start_workers(workers)) if config.start_workers else None
        registry = Registry(store, config, workers, timekeeper=timekeeper)
        signins.bind(engine, registry.timekeeper)
        bus, ownership = distribution(config, engine)
        router = Router(registry, ownership, bus, config)
        registry.owns = ownership.owns
        registry.publish = bus.publish
        versions = GameVersions(store.versions, config.relay_poll_s)
        reviews = ReviewStore(engine)
        analyses = GameAnalyses(
            workers, reviews, registry.timekeeper.wall_ms, wait_seconds=config.review_wait_seconds,
            max_moves=config.game_analysis_max_moves, max_runs=config.game_analysis_runs, per_address=config.rate_limits,
        )
        server = Server(config, engine, store, registry, workers, router, ownership, bus, versions, reviews, analyses)
        app.state.server = server

        async def gained(shard: int) -> None:
            await bus.serve(shard, router.answer)
            loaded = await registry.load_timed(lambda game_id: ownership.shard(game_id) == shard)
            if loaded:
                log.info("shard %d: %d unfinished timed games loaded", shard, loaded)

        async def lost(shard: int) -> None:
            await bus.unserve(shard)
            await registry.drop(lambda game_id: ownership.shard(game_id) == shard)

        try:
            await bus.start()
            await ownership.start(gained, lost)
            if isinstance(ownership, Everything):
                loaded = await registry.load_timed()
                if loaded:
                    log.info("%d unfinished timed games loaded", loaded)
            yield
        finally:
            if starting is not None:
                starting.cancel()
            await server.close()

    limits = AddressLimits(config)
    signins = SignIns(config.session_max_age_s)
    app = Starlette(
        routes=routes(),
        exception_handlers=exception_handlers,
        lifespan=lifespan,
        middleware=[
            Middleware(SecurityHeadersMiddleware),
            Middleware(HostMiddleware, allowed=config.allowed_hosts),
            Middleware(RequestLimitMiddleware, limits=limits),
            Middleware(OriginMiddleware, allowed=config.allowed_origins),
            *sessions.middleware(config, signins),
        ],
    )
    app.state.limits = limits
    app.state.automatch_lock = asyncio.Lock()  # pairings take turns (SQLite: one process)
    app.state.signins = signins
    return app
