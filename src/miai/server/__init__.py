"""``miai serve``: Go online, where nothing acknowledged is ever lost (docs/SERVER.md is the contract).

An apps-layer package: nothing in the core, the AI, GTP or SGF imports it. Its parts, each
with one concern:

- :mod:`~miai.server.schema`, :mod:`~miai.server.migrations` and :mod:`~miai.server.db`: the
  tables (games and their numbered events), created by Alembic migrations at start-up, on
  SQLite (the embedded default) or PostgreSQL through SQLAlchemy's async engine.
- :mod:`~miai.server.store`: reading and writing games and events; one transaction per action.
- :mod:`~miai.server.events` and :mod:`~miai.server.actions`: what an event is, how a game is
  rebuilt from them (through :class:`miai.Game`'s public API only), and how a request becomes
  an action checked against a seat.
- :mod:`~miai.server.room`: one owner per live game (an asyncio task with an inbox, as
  Lichess's round actor), which applies one action at a time and acknowledges only after the
  commit; :mod:`~miai.server.registry` loads and keeps the rooms.
- :mod:`~miai.server.workers`: the worker processes that run the computer seats
  (:mod:`~miai.server.computer`) and the dead-stone estimate for the marking phase
  (:mod:`~miai.server.estimate`), never on the event loop.
- :mod:`~miai.server.api`, :mod:`~miai.server.ws` and :mod:`~miai.server.app`: the HTTP API of
  docs/SERVER.md §3, the WebSocket per game, and the Starlette application that ties them together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from miai.server.app import create_app as create_app
    from miai.server.config import ServerConfig as ServerConfig

__all__ = ["ServerConfig", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from miai.server.app import create_app

        return create_app
    if name == "ServerConfig":
        from miai.server.config import ServerConfig

        return ServerConfig
    raise AttributeError(f"module 'miai.server' has no attribute {name!r}")
