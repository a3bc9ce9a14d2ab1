"""Helpers for the attack tests (test_fuzz_ws.py, test_fuzz_http.py, test_forgery.py): one
application for a whole test, the ERROR records the server logs, and a game's live state
compared with a replay of its stored events."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from starlette.testclient import TestClient

from miai.server.rooms.views import game_state
from miai.server.state import Server

# what can differ between a live room and one rebuilt from the events: who is connected, and
# the estimate the live room computed (not stored)
VOLATILE = ("presence",)


class ErrorRecords(logging.Handler):
    """The ERROR (and worse) records of the ``miai`` loggers while installed."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def describe(self) -> str:
        return "\n".join(f"{r.name}: {r.getMessage()} {r.exc_info!r}" for r in self.records)


@contextmanager
def server_errors() -> Iterator[ErrorRecords]:
    """Collect what the server logs at ERROR (``_crash`` in api.py and a failed WebSocket task
    in ws.py both log there, with the traceback)."""
    handler = ErrorRecords()
    logger = logging.getLogger("miai")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


def server_of(client: TestClient) -> Server:
    server: Server = client.app.state.server  # type: ignore[attr-defined]
    return server


def live_and_replayed(client: TestClient, game_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The game's state as its live room holds it, and as a room rebuilt from the database's
    events gives it (registry.replica): equal unless an action was half applied."""
    server = server_of(client)
    live = client.portal.call(server.router.local, game_id, "state", {})  # type: ignore[union-attr]
    replica = client.portal.call(server.registry.replica, game_id)  # type: ignore[union-attr]
    rebuilt = game_state(replica)
    for key in VOLATILE:
        live.pop(key, None)
        rebuilt.pop(key, None)
    return live, rebuilt
