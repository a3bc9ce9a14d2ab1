"""Rate limits: per client address (the ``limits`` package) and per WebSocket connection.

Per address, moving windows kept in a ``limits`` storage (``async+memory://`` by default; an
``async+redis://...`` URI shares them between processes, with no change here):

- ``requests``: every HTTP request (a generous cap, checked by :class:`RequestLimitMiddleware`);
- ``games``, ``accounts``, ``logins``, ``analysis``: game creation, account creation, login
  attempts and positions analysed, checked by their handlers through :meth:`AddressLimits.check`.

Per account name, whatever the address: ``account-logins``, the failed logins
(:meth:`AddressLimits.check_account`).

Over a limit: :class:`~miai.server.errors.TooManyRequests`, a 429 with ``Retry-After`` and a
message that names the limit. If the storage fails, the request goes through (a limit is a
guard, not a reason to be down) and the failure is logged.

Per address as well, the WebSocket connections open at once, the open games waiting in the
lobby for a joiner and the uploads or analyses under way (one at a time), all counted in this
process; each handshake also counts as a request.

Per connection, the frames a client sends: a :class:`~miai.server.rooms.window.Window` on the
connection's own clock (a seat's chat lines are counted by the game's room, whatever
connection they come through: rooms/audience.py).

An IPv6 client is counted by its /64 network (one host often holds a whole /64).
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import logging
import math
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

from limits import RateLimitItem, parse
from limits.aio.storage import memory as limits_memory
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from miai.server.config import ServerConfig
from miai.server.errors import TooManyRequests

__all__ = ["AddressLimits", "RequestLimitMiddleware", "address_key", "client_address", "limits_of", "LIMIT_NAMES"]

log = logging.getLogger("miai.server")

LIMIT_NAMES = {
    "requests": "requests",
    "games": "games created",
    "accounts": "accounts created",
    "logins": "login attempts",
    "analysis": "positions analysed",
    "account-logins": "failed logins",
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
            "account-logins": parse(config.limit_login_failures),
        }
        for name in ("ws_max_per_address", "ws_frames_per_second", "ws_flood_refusals"):
            if getattr(config, name) < 1:
                raise ValueError(f"ServerConfig.{name} must be at least 1")
        uri = config.rate_limit_storage
        self.storage = MemoryStorage() if uri.startswith("async+memory://") else storage_from_string(uri)
        self.limiter = MovingWindowRateLimiter(self.storage)
        self.connections: Counter[str] = Counter()
        self.jobs: set[str] = set()
        """The addresses with an upload or analysis under way (:meth:`one_job`)."""
        self.open_games: dict[str, dict[str, int]] = {}
        """Each address's open games in this process: id -> when it was made (ms)."""

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

    async def check_account(self, username: str) -> None:
        """Before a login: raises :class:`TooManyRequests` when the account named ``username``
        has had its limit of failed logins, from whatever addresses (60 wrong passwords from 6
        addresses in 2 s went through the per-address limit). The right password is refused too
        then, or guessing would go on."""
        if not self.config.rate_limits:
            return
        item = self.items["account-logins"]
        try:
            if await self.limiter.test(item, "account-logins", username):
                return
            stats = await self.limiter.get_window_stats(item, "account-logins", username)
        except Exception:
            log.exception("the rate-limit storage failed; a login to %r let through", username)
            return
        retry = max(1, math.ceil(stats.reset_time - time.time()))
        raise TooManyRequests(
            f"too many failed logins for this account: at most {item}; retry in {retry} s",
            limit="account-logins",
            retry_after=retry,
        )

    async def failed_login(self, username: str) -> None:
        """Count a failed login to the account named ``username``."""
        if not self.config.rate_limits:
            return
        try:
            await self.limiter.hit(self.items["account-logins"], "account-logins", username)
        except Exception:
            log.exception("the rate-limit storage failed; a failed login to %r not counted", username)

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

    async def open_game(
        self,
        address: str,
        now_ms: int,
        open_for_ms: int,
        still_open: Callable[[Sequence[str], int], Awaitable[set[str]]],
    ) -> None:
        """Before ``address`` opens one more game for the lobby: raises :class:`TooManyRequests`
        when it has ``open_games_per_address`` still waiting (``still_open``: which of its games
        nobody joined yet, listed for ``open_for_ms``). Call :meth:`opened` once it is made."""
        most = self.config.open_games_per_address
        if not self.config.rate_limits:
            return
        since = now_ms - open_for_ms
        mine = {g: t for g, t in self.open_games.get(address, {}).items() if t >= since}
        if len(mine) >= most:
            waiting = await still_open(list(mine), since)
            mine = {g: t for g, t in mine.items() if g in waiting}
        if mine:
            self.open_games[address] = mine
        else:
            self.open_games.pop(address, None)
        if len(mine) >= most:
            retry = max(1, math.ceil((min(mine.values()) + open_for_ms - now_ms) / 1000))
            raise TooManyRequests(
                f"too many open games from your address: at most {most} waiting for an opponent at once; "
                f"wait until someone joins one, or until the oldest closes in {retry} s",
                limit="open-games",
                retry_after=retry,
            )

    def opened(self, address: str, game_id: str, now_ms: int) -> None:
        """``address`` opened ``game_id`` for the lobby at ``now_ms``."""
        if self.config.rate_limits:
            self.open_games.setdefault(address, {})[game_id] = now_ms

    @contextlib.asynccontextmanager
    async def one_job(self, address: str) -> AsyncIterator[None]:
        """One upload or analysis at a time per address, in the reviews' workers: a second one
        while the first runs is a :class:`TooManyRequests` (the worker time one address takes
        is bounded; three parallel analyses from one address took another's turn before)."""
        if self.config.rate_limits and address in self.jobs:
            raise TooManyRequests(
                "one upload or analysis at a time from your address: send the next one when this one is answered",
                limit="worker-jobs",
                retry_after=1,
            )
        self.jobs.add(address)
        try:
            yield
        finally:
            self.jobs.discard(address)

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
