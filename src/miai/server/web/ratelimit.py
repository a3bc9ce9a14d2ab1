"""Rate limits: per client address (the ``limits`` package) and per WebSocket connection.

Per address, moving windows kept in a ``limits`` storage (``async+memory://`` by default; an
``async+redis://...`` URI shares them between processes, with no change here):

- ``requests``: every HTTP request (a generous cap, checked by :class:`RequestLimitMiddleware`);
- ``games``, ``accounts``, ``logins``, ``analysis``: game creation, account creation, login
  attempts and positions analysed, checked by their handlers through :meth:`AddressLimits.check`.

Over a limit: :class:`~miai.server.errors.TooManyRequests`, a 429 with ``Retry-After`` and a
message that names the limit. If the storage fails, the request goes through (a limit is a
guard, not a reason to be down) and the failure is logged.

Per address as well, the WebSocket connections open at once (counted in this process); each
handshake also counts as a request.

Per connection, the frames a client sends and its chat lines: :class:`Window`, a moving window
on the connection's own clock. These counters belong to one connection in one process, so they
stay in memory, cost no storage round trip per frame and are tested with a fake clock.

An IPv6 client is counted by its /64 network (one host often holds a whole /64).
"""

from __future__ import annotations

import ipaddress
import json
import logging
import math
import time
from collections import Counter, deque
from typing import Any

from limits import RateLimitItem, parse
from limits.aio.storage import memory as limits_memory
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from miai.server.config import ServerConfig
from miai.server.errors import TooManyRequests

__all__ = ["AddressLimits", "RequestLimitMiddleware", "Window", "address_key", "client_address", "limits_of", "LIMIT_NAMES"]

log = logging.getLogger("miai.server")

LIMIT_NAMES = {
    "requests": "requests",
    "games": "games created",
    "accounts": "accounts created",
    "logins": "login attempts",
    "analysis": "positions analysed",
}
"""The per-address limits, and what each counts (for the 429's message)."""


def client_address(scope: Scope) -> str:
    """The key of the client's address (:func:`address_key`). Behind a reverse proxy that
    ``miai serve --trusted-proxy`` names, uvicorn has put the forwarded client's address in the
    scope; from any other peer the forwarded headers are ignored (docs/SERVER.md §2.2)."""
    client = scope.get("client")
    return address_key(str(client[0]) if client else "")


def address_key(host: str) -> str:
    """The key an address is counted by: the IP (IPv4, also when mapped into IPv6), its /64
    network (IPv6), the text itself when it is no IP, or ``unknown``.

    >>> address_key("2001:db8::1"), address_key("::ffff:10.0.0.1"), address_key("")
    ('2001:db8::/64', '10.0.0.1', 'unknown')
    """
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host or "unknown"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class MemoryStorage(limits_memory.MemoryStorage):
    """``limits``' in-process storage, cleaning expired entries at most every few seconds.

    The library's own starts a cleaning pass (one thread hop per key) after every hit once the
    previous pass is done: with thousands of addresses that is most of a core, all the time. A
    moving window stays exact without the cleaning (a hit looks at the entries' own times);
    the cleaning only returns memory, so every few seconds is enough.
    """

    CLEAN_EVERY_S = 5.0

    def __init__(self, uri: str | None = None, **options: Any):
        super().__init__(uri, **options)
        self._cleaned = time.monotonic()

    async def _MemoryStorage__schedule_expiry(self) -> None:  # the library's private hook
        now = time.monotonic()
        if now - self._cleaned >= self.CLEAN_EVERY_S:
            self._cleaned = now
            await getattr(super(), "_MemoryStorage__schedule_expiry")()


class AddressLimits:
    """The per-address limits of one server (see the module's docstring)."""

    def __init__(self, config: ServerConfig):
        self.config = config
        self.items: dict[str, RateLimitItem] = {
            "requests": parse(config.limit_requests),
            "games": parse(config.limit_games),
            "accounts": parse(config.limit_accounts),
            "logins": parse(config.limit_logins),
            "analysis": parse(config.limit_analysis),
        }
        for name in ("ws_max_per_address", "ws_frames_per_second", "ws_flood_refusals"):
            if getattr(config, name) < 1:
                raise ValueError(f"ServerConfig.{name} must be at least 1")
        uri = config.rate_limit_storage
        self.storage = MemoryStorage() if uri.startswith("async+memory://") else storage_from_string(uri)
        self.limiter = MovingWindowRateLimiter(self.storage)
        self.connections: Counter[str] = Counter()

    async def check(self, name: str, address: str) -> None:
        """Count one ``name`` from ``address``; raises :class:`TooManyRequests` over the limit."""
        if not self.config.rate_limits:
            return
        item = self.items[name]
        try:
            if await self.limiter.hit(item, name, address):
                return
            stats = await self.limiter.get_window_stats(item, name, address)
        except Exception:
            log.exception("the rate-limit storage failed; %s from %s let through", name, address)
            return
        retry = max(1, math.ceil(stats.reset_time - time.time()))
        raise TooManyRequests(
            f"too many {LIMIT_NAMES[name]} from your address: at most {item}; retry in {retry} s",
            limit=name,
            retry_after=retry,
        )

    async def open_connection(self, address: str) -> TooManyRequests | None:
        """Count a new WebSocket connection from ``address`` (a request, and one more open
        connection); the refusal if it is over either limit. Call :meth:`close_connection`
        when it ends."""
        try:
            await self.check("requests", address)
        except TooManyRequests as e:
            return e
        most = self.config.ws_max_per_address
        if self.config.rate_limits and self.connections[address] >= most:
            return TooManyRequests(
                f"too many connections from your address: at most {most} at once",
                limit="connections",
                retry_after=10,
            )
        self.connections[address] += 1
        return None

    def close_connection(self, address: str) -> None:
        self.connections[address] -= 1
        if self.connections[address] <= 0:
            del self.connections[address]


def limits_of(conn: HTTPConnection) -> AddressLimits:
    """The per-address limits of the application (``app.state.limits``, set by ``create_app``)."""
    limits: AddressLimits = conn.app.state.limits
    return limits


class RequestLimitMiddleware:
    """ASGI middleware: every HTTP request counts against its address's ``requests`` limit."""

    def __init__(self, app: ASGIApp, limits: AddressLimits):
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            try:
                await self.limits.check("requests", client_address(scope))
            except TooManyRequests as e:
                await send_json(send, e.status, e.to_json(), e.headers())
                return
        await self.app(scope, receive, send)


async def send_json(send: Send, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
    """Answer an HTTP request with JSON straight from a middleware."""
    data = json.dumps(body).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
    raw += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": data})


class Window:
    """At most ``limit`` hits in any ``window_ms`` milliseconds (a moving window), on a clock
    the caller gives: one connection's frames or chat lines.

    >>> w = Window(2, 1000)
    >>> [w.hit(0), w.hit(10), w.hit(20), w.hit(1001), w.hit(1011)]
    [True, True, False, True, True]
    >>> w.retry_after_ms(1011)
    990
    """

    def __init__(self, limit: int, window_ms: int):
        if limit < 1 or window_ms < 1:
            raise ValueError("a window needs a limit and a length of at least 1")
        self.limit = limit
        self.window_ms = window_ms
        self.times: deque[float] = deque()

    def _drop_old(self, now_ms: float) -> None:
        while self.times and now_ms - self.times[0] >= self.window_ms:
            self.times.popleft()

    def hit(self, now_ms: float) -> bool:
        """Count a hit at ``now_ms`` if the window has room; False (nothing counted) if not."""
        self._drop_old(now_ms)
        if len(self.times) >= self.limit:
            return False
        self.times.append(now_ms)
        return True

    def retry_after_ms(self, now_ms: float) -> int:
        """Milliseconds until the window has room again (0 if it has now)."""
        self._drop_old(now_ms)
        if len(self.times) < self.limit:
            return 0
        return max(0, math.ceil(self.times[0] + self.window_ms - now_ms))
