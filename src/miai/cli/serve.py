"""``miai serve``: the online server (docs/SERVER.md), one process on SQLite by default.

    miai serve                                   # http://127.0.0.1:8000, SQLite in the user data dir
    miai serve --host 0.0.0.0 --port 8123 --database sqlite:///path/to/miai.db
    miai serve --database postgresql://miai@db/miai --redis redis://cache:6379/0   # one of several

``--database`` (or ``MIAI_DATABASE_URL``) takes ``sqlite:///FILE``, a file path or
``postgresql://...``. The server prints the URL it listens on once it accepts connections
(``--port 0`` picks a free port), opens it in a web browser when started from a terminal where a
desktop session has one (``--no-browser`` not to), and stops cleanly on SIGTERM or Ctrl-C: the requests under
way finish (within 10 s), the rooms stop, the database is closed.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import logging
import os
import signal
import socket
import sys
import webbrowser
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from miai.errors import MiaiError

if TYPE_CHECKING:
    from miai.server.config import ServerConfig


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register ``miai serve`` on the ``miai`` command's subparsers."""
    p = subparsers.add_parser(
        "serve",
        help="run the online server: play Go in the browser or through the HTTP API",
        description="Run the miai server (HTTP API and WebSockets). Games are kept in a database: "
        "a SQLite file in the user's data directory unless --database or MIAI_DATABASE_URL says otherwise.",
    )
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="the port (default: 8000; 0 picks a free one)")
    p.add_argument(
        "--database",
        metavar="URL",
        help="sqlite:///FILE, a file path, or postgresql://USER@HOST/DB (default: MIAI_DATABASE_URL, "
        "else miai.db in the user data directory)",
    )
    p.add_argument(
        "--no-browser",
        dest="browser",
        action="store_false",
        help="do not open the page in a web browser (it opens only where a desktop session runs one)",
    )
    p.add_argument(
        "--no-rate-limits",
        action="store_true",
        help="do not limit requests, games, logins and connections per address (for load tests, or "
        "behind a front end that limits them; the per-connection frame limit stays)",
    )
    p.add_argument(
        "--redis",
        metavar="URL",
        help="redis://HOST:6379/0: run as one of several processes sharing a PostgreSQL database "
        "(default: MIAI_REDIS_URL, else none: one process)",
    )
    connections = p.add_argument_group("connections (docs/SERVER.md §2.2)")
    connections.add_argument(
        "--trusted-proxy",
        metavar="ADDRESS",
        action="append",
        default=[],
        help="a reverse proxy (IP address or network, e.g. 127.0.0.1) whose X-Forwarded-For and "
        "X-Forwarded-Proto are believed; may be repeated (default: none, the headers are ignored)",
    )
    connections.add_argument(
        "--allowed-host",
        metavar="NAME",
        action="append",
        default=[],
        help="a host name the server answers for besides localhost and IP addresses (go.example.org; "
        ".example.org for it and its subdomains); may be repeated",
    )
    connections.add_argument(
        "--https",
        action="store_true",
        help="the server is reached over HTTPS (a proxy ends TLS): session cookies are marked Secure",
    )
    connections.add_argument(
        "--header-timeout", type=float, metavar="S", default=10.0,
        help="seconds a client has to send a request's headers (default: 10)",
    )  # fmt: skip
    connections.add_argument(
        "--body-timeout", type=float, metavar="S", default=30.0,
        help="seconds a client has to send a request's body after its headers (default: 30)",
    )  # fmt: skip
    connections.add_argument(
        "--max-connections", type=int, metavar="N", default=10_000,
        help="connections open at once (default: 10000, fewer if the open-files limit needs it)",
    )  # fmt: skip
    connections.add_argument(
        "--max-connections-per-address", type=int, metavar="N", default=64,
        help="HTTP connections open at once from one address (default: 64; WebSockets have their own limit)",
    )  # fmt: skip
    p.add_argument(
        "--log-level",
        default="warning",
        choices=["critical", "error", "warning", "info", "debug"],
        help="how much the server logs (default: warning)",
    )
    p.set_defaults(func=run)
    return p


def can_open_browser(environ: Mapping[str, str] | None = None, platform: str | None = None) -> bool:
    """Whether opening a web browser would show the page to the person who started the server:
    on macOS and Windows, or under a graphical session (X11 or Wayland) elsewhere; never in CI,
    over SSH without a display, or when a terminal browser would take over the terminal."""
    env = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    if env.get("CI"):
        return False
    if platform == "darwin" or platform.startswith("win"):
        return True
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))


GRACEFUL_SHUTDOWN_S = 10
"""On SIGTERM the requests under way get this long to finish; connections still open then (a
client that never answers a close) are cut, and the rooms and the database are closed."""


class _Stop(Exception):
    """SIGTERM: stop the server (after its graceful shutdown)."""


def _stop(signum: int, frame: object) -> None:
    raise _Stop


def settings(args: argparse.Namespace, database: str, redis_url: str | None) -> ServerConfig:
    """The server's settings from the command line, its connections fitted to the open-files
    limit (raised to the hard limit first)."""
    from miai.server.config import ServerConfig
    from miai.server.web.connections import connection_budget, raise_open_files_limit

    config = ServerConfig(
        database_url=database,
        redis_url=redis_url,
        rate_limits=not args.no_rate_limits,
        https_only=args.https,
        trusted_proxies=listed(args.trusted_proxy),
        allowed_hosts=own_names(args.host) + listed(args.allowed_host),
        header_timeout_s=args.header_timeout,
        body_timeout_s=args.body_timeout,
        max_connections=args.max_connections,
        max_connections_per_address=args.max_connections_per_address,
    )
    open_files = raise_open_files_limit()
    usable, backlog = connection_budget(config.max_connections, open_files)
    if usable < config.max_connections:
        limit = f"the open-files limit is {open_files}"
        print(f"miai serve: at most {usable} connections at once ({limit})", file=sys.stderr)
    return replace(config, max_connections=usable, backlog=backlog)


def listed(arguments: list[str]) -> tuple[str, ...]:
    """The values of a repeatable option, each of which may also be a comma-separated list."""
    return tuple(value.strip() for argument in arguments for value in argument.split(",") if value.strip())


def own_names(host: str) -> tuple[str, ...]:
    """The host names that are this server's own besides ``localhost`` and IP addresses: the
    name it listens on (``--host``, when a name) and the machine's (``box``, ``box.local``),
    which no other site's page can be rebound to."""
    names = {socket.gethostname().lower()}
    names.add(f"{socket.gethostname().split('.')[0].lower()}.local")
    try:
        ipaddress.ip_address(host)
    except ValueError:
        if host:
            names.add(host.lower())
    return tuple(sorted(n for n in names if n and n != ".local"))


def uvicorn_config(app: Any, http: type, args: argparse.Namespace, config: ServerConfig) -> Any:
    """uvicorn's settings: ``http``, the guarded HTTP protocol (connections.py); no ``server``
    header; forwarded addresses believed from the trusted proxies only; tokens redacted from the logs."""
    import uvicorn

    from miai.server.web.redaction import redact_logs

    settings = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        access_log=args.log_level in ("info", "debug"),
        http=http,
        ws_max_size=1024 * 1024,  # frames over 16 KiB get an error frame; over 1 MiB, close 1009
        lifespan="on",
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_S,
        timeout_keep_alive=config.keep_alive_s,
        limit_concurrency=config.max_connections,
        backlog=config.backlog,
        server_header=False,
        proxy_headers=bool(config.trusted_proxies),
        forwarded_allow_ips=list(config.trusted_proxies) or None,
    )
    redact_logs()  # after uvicorn.Config, which sets its loggers up
    log_server_messages(args.log_level)
    return settings


def log_server_messages(level: str) -> None:
    """The server's own log (``miai.server``: games loaded, the computer ready, failures) on
    stderr at ``--log-level``, written as uvicorn writes its lines; without it only warnings
    reached stderr, through Python's last-resort handler."""
    from uvicorn.logging import DefaultFormatter

    logger = logging.getLogger("miai")
    if any(getattr(h, "miai_serve", False) for h in logger.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(DefaultFormatter("%(levelprefix)s %(message)s", use_colors=False))
    handler.miai_serve = True  # type: ignore[attr-defined]
    logger.addHandler(handler)
    logger.setLevel(level.upper())


def check_arguments(args: argparse.Namespace) -> str | None:
    """What is wrong with the command line's numbers, or None."""
    if not 0 <= args.port <= 65535:
        return f"--port must be from 0 to 65535, not {args.port}"
    for name in ("header_timeout", "body_timeout"):
        if not getattr(args, name) > 0:
            return f"--{name.replace('_', '-')} must be above 0 seconds"
    for name in ("max_connections", "max_connections_per_address"):
        if getattr(args, name) < 1:
            return f"--{name.replace('_', '-')} must be at least 1"
    return None


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from miai.server import ServerConfig, create_app, gcpause
    from miai.server.storage.db import async_url, sqlite_file
    from miai.server.storage.sqlitefile import check_file
    from miai.server.web.connections import guarded_http

    wrong = check_arguments(args)
    if wrong is not None:
        print(f"miai serve: {wrong}", file=sys.stderr)
        return 2
    try:
        database = ServerConfig(database_url=args.database).resolved_database_url()
        redis_url = ServerConfig(redis_url=args.redis).resolved_redis_url()
        if redis_url is not None and async_url(database).get_backend_name() != "postgresql":
            print("miai serve: --redis (several processes) needs --database postgresql://...", file=sys.stderr)
            return 2
        path = sqlite_file(database)
        if path is not None:
            check_file(path)  # no database, or damaged: say so and stop
        config = settings(args, database, redis_url)
        app = create_app(config)  # a bad MIAI_SECRET is refused here
        http = guarded_http(config)  # a --trusted-proxy that is no address is refused here
    except (MiaiError, ValueError) as e:
        print(f"miai serve: {e}", file=sys.stderr)
        return 2
    server = uvicorn.Server(uvicorn_config(app, http, args, config))

    async def serve() -> None:
        task = asyncio.create_task(server.serve())
        while not server.started and not task.done():
            await asyncio.sleep(0.02)
        if server.started:
            gcpause.settle()  # start-up is done: shorter collector pauses from here on
            host, port = server.servers[0].sockets[0].getsockname()[:2]
            shown = f"[{host}]" if ":" in host else host
            url = f"http://{shown}:{port}/"
            print(f"miai serve: {url} (database {_safe(database)})", flush=True)
            if args.browser and sys.stdout.isatty() and can_open_browser():  # a person started it
                await asyncio.to_thread(webbrowser.open, url)
        await task

    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        asyncio.run(serve())
    except (KeyboardInterrupt, _Stop):
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
    if not server.started:
        print("miai serve: the server could not start (see the messages above)", file=sys.stderr)
        return 1
    print("miai serve: stopped", flush=True)
    return 0


def _safe(url: str) -> str:
    """The database URL without its password, for printing."""
    from miai.server.storage.db import async_url

    try:
        return async_url(url).render_as_string(hide_password=True)
    except Exception:
        return "(unreadable URL)"
