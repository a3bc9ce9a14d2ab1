"""The server's settings in one value, and where the embedded database lives by default."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from miai.clock import LagAllowance

__all__ = ["ServerConfig", "default_database_url", "DATABASE_ENV", "REDIS_ENV", "SECRET_ENV"]

DATABASE_ENV = "MIAI_DATABASE_URL"
"""The environment variable that gives the database URL when ``--database`` is not given."""
REDIS_ENV = "MIAI_REDIS_URL"
"""The environment variable that gives the Redis URL when ``--redis`` is not given."""
SECRET_ENV = "MIAI_SECRET"
"""The environment variable that gives the session cookies' signing secret (see :mod:`miai.server.people.sessions`)."""


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
    review_workers: int = 1
    """Worker processes for uploaded records and analyses, apart from the game's: no upload or analysis
    ever delays a computer's move or an estimate (docs/SERVER.md §1.8)."""
    worker_max_rss_mb: int | None = 640
    """A worker process holding more memory than this after a job is replaced (a heap never shrinks
    back: upload bombs took one from 267 to 815 MB for good); None: never."""
    start_workers: bool = True
    """Start the worker processes with the server, not at the first game's end (workers.py:
    :meth:`~miai.server.compute.workers.Workers.start`). Tests that never use them turn it off."""
    computer_max_seconds: float = 5.0
    """Most seconds a computer seat thinks per move (its level may stop it sooner)."""
    max_idle_rooms: int = 1000
    """Rooms of games nobody watches kept in memory before the oldest are unloaded."""
    chat_max_chars: int = 500
    chat_burst: int = 5
    """Chat lines a seat may send in ``chat_window_ms``, counted by the game's room whatever connection
    they come through (spectators do not chat)."""
    chat_window_ms: int = 10_000
    chat_history: int = 50
    """Chat lines a new connection receives (chat is not kept across restarts)."""
    max_review_bytes: int = 1024 * 1024
    """The largest game record accepted for review (``POST /api/reviews``; a 413 beyond it)."""
    review_max_seconds: float = 5.0
    """Most seconds a worker spends reading an uploaded record (a 422 beyond: a real record takes milliseconds)."""
    review_max_moves: int = 10_000
    """Most moves in the main line of an uploaded record (a 422 beyond: real games have a few hundred)."""
    review_wait_seconds: float = 30.0
    """Most seconds an upload waits for a worker, queueing included (a 503 beyond: all busy, retry)."""
    analysis_max_seconds: float = 2.0
    """Most seconds a worker searches one position for ``POST /api/analysis`` (a request asking more gets this)."""
    analysis_default_seconds: float = 1.0
    """Seconds searched when the request names none."""
    analysis_playouts: int = 1_000_000
    """Most playouts per analysed position (tests fix a small number; the time is the limit otherwise)."""
    game_analysis_max_moves: int = 1_000
    """Most moves of a review whose every position is analysed (a 422 beyond: a long record would hold
    a worker for minutes)."""
    game_analysis_runs: int = 4
    """Whole-review analyses under way at once in one process (a 503 beyond, retry): each one delays
    another reader's single analysis by one job."""
    abandon_ms: int = 60_000
    """How long the seat whose turn it is may be away (no connection, no request) before its
    opponent may claim the game (docs/SERVER.md §3.4)."""
    presence_interval_ms: int = 1_000
    """At most one presence frame per game in this time: joins and leaves in between are announced
    together at its end (docs/SERVER.md §3.5)."""
    subscriber_queue: int = 1024
    """Frames waiting for a slow WebSocket client before it is disconnected (it reconnects with ``v``)."""
    marking_timer_ms: int = 180_000
    """How long a marking phase (of any game, timed or not) may stall (no marking event) before the pending
    proposal counts as accepted (docs/SERVER.md §1.5)."""
    lag_allowance: LagAllowance = LagAllowance()
    """Each player's lag bank in timed games: how much of the lag clients report is excused."""

    # ---------------------------------------------------------------- people (sessions.py, accounts.py)
    secret: str | None = None
    """Signs the session cookies. None: ``MIAI_SECRET`` if set, else a random secret made once and
    kept in a file next to the SQLite database (or in the user data directory)."""
    https_only: bool = False
    """Mark the session cookie ``Secure`` (set it when the server is reached over HTTPS)."""
    session_max_age_s: int = 30 * 24 * 3600
    """How long a session cookie stays valid after it was last set."""
    allowed_origins: tuple[str, ...] = ()
    """Origins (``https://example.org``) besides the server's own that may open WebSockets and
    send cookie-authenticated requests (origin.py)."""
    password_time_cost: int = 2
    """argon2id passes for a new password hash (OWASP's recommended minimum: 2 passes, 19 MiB,
    one lane — about 0.1 s of one core; hashes made with other costs are redone at login)."""
    password_memory_kib: int = 19 * 1024
    """argon2id memory for a new password hash, in KiB."""

    # ---------------------------------------------------------------- limits (ratelimit.py)
    rate_limits: bool = True
    """Limit what one address may do (below). Off (``miai serve --no-rate-limits``) only where every
    client comes from one address that is not a proxy passing the real one on: a load test, or a
    front end that limits rates itself. The per-connection frame limit stays."""
    rate_limit_storage: str = "async+memory://"
    """Where the per-address counters live (a ``limits`` storage URI, e.g. ``async+redis://host:6379``)."""
    limit_requests: str = "600/minute"
    """All HTTP requests from one address."""
    limit_games: str = "10/minute"
    """Games created from one address."""
    limit_analysis: str = "120/minute"
    """Positions analysed for one address (``POST /api/analysis``; a win-rate graph asks one per move)."""
    limit_accounts: str = "10/minute"
    """Accounts created from one address."""
    limit_logins: str = "10/minute"
    """Login attempts from one address."""
    limit_login_failures: str = "10 per 10 minutes"
    """Failed logins to one account, from any addresses; beyond, every login to it waits (429)."""
    open_games_per_address: int = 5
    """Open games (waiting in the lobby for someone to join) one address may have at once, counted
    in this process: 3,000 open games from 300 addresses filled the lobby's list."""
    ws_max_per_address: int = 32
    """WebSocket connections open at once from one address (in this process)."""
    ws_frames_per_second: int = 20
    """Frames a WebSocket connection may send per second; beyond, each gets an error frame."""
    ws_flood_refusals: int = 100
    """Refused frames within 10 seconds after which the connection is closed (a sustained flood)."""

    # ---------------------------------------------------------------- connections (connections.py, hosts.py)
    max_header_bytes: int = 32 * 1024
    """The largest request line and headers of one HTTP request (a 431, and the connection
    closed, beyond)."""
    header_timeout_s: float = 10.0
    """Seconds a client has to send a request's line and headers, from the connection's start
    or the request's first byte (a 408, and the connection closed, beyond: Slowloris)."""
    body_timeout_s: float = 30.0
    """Seconds a client has to send a request's body once its headers are in (the connection
    closed beyond; 1 MiB, the largest body, needs 35 KB/s)."""
    keep_alive_s: int = 5
    """Seconds an idle connection stays open after an answer, waiting for another request."""
    max_connections: int = 10_000
    """Connections open at once in this process, HTTP and WebSocket (a new one beyond is closed
    with a 503); ``miai serve`` lowers it to fit the open-files limit."""
    backlog: int = 2048
    """Connections waiting to be accepted; asyncio also accepts up to this many at once.
    ``miai serve`` lowers it with the open-files limit (connections.py)."""
    max_connections_per_address: int = 64
    """HTTP connections open at once from one address, WebSockets not counted (a new one beyond
    is closed with a 429). Off with the other per-address limits, and for a trusted proxy."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or networks (``127.0.0.1``, ``10.0.0.0/8``) of reverse proxies whose
    ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed; from anyone else they are ignored."""
    allowed_hosts: tuple[str, ...] = ()
    """Host names (``go.example.org``; ``.example.org`` for it and its subdomains; ``*`` for any)
    a request's ``Host`` may name besides ``localhost`` and IP addresses (hosts.py: DNS rebinding)."""

    # ---------------------------------------------------------------- several processes (shards.py, bus.py)
    redis_url: str | None = None
    """``redis://host:6379/0``: the bus between processes sharing one PostgreSQL database. None
    means ``MIAI_REDIS_URL`` if set, else none (one process, nothing to forward)."""
    shards: int = 16
    """How many shards the games' ids hash to; a process owns a shard while it holds its
    PostgreSQL advisory lock. Every process of a deployment must use the same number."""
    shard_claim_interval_s: float = 1.0
    """How often a process checks its locks' connection and tries to take free shards."""
    forward_timeout_s: float = 5.0
    """How long a request forwarded to a game's owner waits for its answer (a 503, retry, beyond)."""
    relay_poll_s: float = 2.0
    """How often a process reads the versions of the games it relays from other processes, and
    how long a relayed connection waits on a quiet bus before it reads the events the bus may
    have dropped (only when the database holds a later version: versions.py)."""
    database_pool: tuple[int, int] = (20, 10)
    """PostgreSQL: the connections a process keeps open, and how many more it may open at a
    peak. Each process also holds one for its shards' locks: N processes need PostgreSQL's
    ``max_connections`` (100 by default) above N x 31. Under load the default pool of 5 + 10
    made actions wait for a connection (BENCHMARKS.md, *several processes*)."""
    visit_every_s: float = 10.0
    """How often a connection relayed from another process's game tells the owner it is still
    there (visitors.py)."""
    visit_ttl_s: float = 30.0
    """How long the owner counts such a connection after it last said so."""

    def resolved_redis_url(self) -> str | None:
        """The Redis URL to use: the one given, else the environment's, else None."""
        return self.redis_url or os.environ.get(REDIS_ENV) or None

    def resolved_database_url(self) -> str:
        """The database URL to use: the one given, else the environment's, else the default file."""
        return self.database_url or os.environ.get(DATABASE_ENV) or default_database_url()
