"""The server's settings in one value, and where the embedded database lives by default."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ServerConfig", "default_database_url", "DATABASE_ENV"]

DATABASE_ENV = "MIAI_DATABASE_URL"
"""The environment variable that gives the database URL when ``--database`` is not given."""


def default_database_url() -> str:
    """A SQLite file under the user's data directory (created if missing): no set-up needed."""
    from platformdirs import user_data_dir

    directory = Path(user_data_dir("miai", appauthor=False))
    directory.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{directory / 'miai.db'}"


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """Everything the application needs to know; tuning knobs live here, not in module globals.

    ``database_url`` takes ``sqlite:///path``, a bare file path, or ``postgresql://...``;
    None means ``MIAI_DATABASE_URL`` if set, else :func:`default_database_url`.
    """

    database_url: str | None = None
    max_body_bytes: int = 16 * 1024
    """The largest HTTP request body accepted (a 413 beyond it)."""
    max_frame_bytes: int = 16 * 1024
    """The largest WebSocket frame accepted (an error frame beyond it)."""
    suggest_dead_stones: bool = True
    """Compute the dead-stone estimate (in a worker process) when a marking phase opens."""
    workers: int = 1
    """Worker processes for the computer's moves and the estimate (the event loop has its own core)."""
    computer_max_seconds: float = 5.0
    """Most seconds a computer seat thinks per move (its level may stop it sooner)."""
    max_idle_rooms: int = 1000
    """Rooms of games nobody watches kept in memory before the oldest are unloaded."""
    chat_max_chars: int = 500
    chat_burst: int = 5
    """Chat messages a connection may send in ``chat_window_ms``."""
    chat_window_ms: int = 10_000
    chat_history: int = 50
    """Chat lines a new connection receives (chat is not kept across restarts)."""
    abandon_ms: int = 60_000
    """How long the seat whose turn it is may be away (no connection, no request) before its
    opponent may claim the game (docs/SERVER.md §3.2)."""
    subscriber_queue: int = 1024
    """Frames waiting for a slow WebSocket client before it is disconnected (it reconnects with ``v``)."""

    def resolved_database_url(self) -> str:
        """The database URL to use: the one given, else the environment's, else the default file."""
        return self.database_url or os.environ.get(DATABASE_ENV) or default_database_url()
