"""``miai serve``: Go online, where nothing acknowledged is ever lost (docs/SERVER.md is the contract).

An apps-layer package: nothing in the core, the AI, GTP or SGF imports it. Its parts, from the
bottom up (each imports only from the parts below it; ``tests/test_layers.py`` checks it):

- :mod:`~miai.server.errors`, :mod:`~miai.server.config`, :mod:`~miai.server.timekeeper`: the
  API's errors, the settings, the time the rooms read;
- :mod:`~miai.server.wire`: the JSON forms of the core's values and the frames sent to clients;
- :mod:`~miai.server.play`: game flow on the rules core (events, actions, undo, claims, clocks,
  seats, new games);
- :mod:`~miai.server.storage`: the tables, migrations and the store (one transaction per action);
- :mod:`~miai.server.people` (sessions, accounts) and :mod:`~miai.server.records` (SGF export, review);
- :mod:`~miai.server.compute`: the worker processes (the computer, the estimate, analysis);
- :mod:`~miai.server.rooms`: one owner per live game (an actor, as Lichess's round), its timers
  and audience, and the registry;
- :mod:`~miai.server.cluster`: several processes over one PostgreSQL (shards, bus, router, relay);
- :mod:`~miai.server.state` (what the handlers share), :mod:`~miai.server.web` (HTTP routes by
  resource, the WebSocket, middleware, the page) and :mod:`~miai.server.app` (the Starlette app).
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
