"""The connections ``miai serve`` accepts: uvicorn's HTTP protocol with the limits a server
facing the Internet needs (docs/SERVER.md §2.2), the way nginx and Apache's mod_reqtimeout set them.

- **Headers**: a request's line and headers may take :attr:`~ServerConfig.max_header_bytes`
  (a 431 beyond) and must arrive within :attr:`~ServerConfig.header_timeout_s` of the
  connection's start or the request's first byte (a 408 beyond). The parser (httptools)
  has no limit of its own: one 100 MB header made the server 450 MB larger.
- **Bodies** must arrive within :attr:`~ServerConfig.body_timeout_s` of the headers (the
  connection is closed beyond; the application reads a disconnect).
- **Connections**: at most :attr:`~ServerConfig.max_connections` open at once (HTTP and
  WebSocket; a 503 beyond), and :attr:`~ServerConfig.max_connections_per_address` HTTP ones
  from one address (a 429 beyond; a WebSocket stops counting once upgraded, the application
  counts those). A refused connection is answered and closed at once, before anything is read,
  so its file descriptor is free again; without these, 1,100 half-sent requests from one
  address took every descriptor and no other client was served.

:func:`guarded_http` makes the protocol class for ``uvicorn.Config(http=...)``;
:func:`raise_open_files_limit` gives the process all the descriptors it may have, and
:func:`connection_budget` shares them out.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import resource
from collections import Counter
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from miai.server.config import ServerConfig
from miai.server.web.ratelimit import address_key

__all__ = ["Admission", "connection_budget", "guarded_http", "raise_open_files_limit", "RESERVED_FILES"]

log = logging.getLogger("miai.server")

RESERVED_FILES = 128
"""Descriptors kept out of :attr:`~ServerConfig.max_connections`: the database, the workers'
pipes, the log, the listening sockets."""


def raise_open_files_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit (as far as the kernel
    lets it); the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 1 << 20
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            log.warning("the open-files limit stays at %d (could not raise it to %d)", soft, wanted)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def connection_budget(wanted: int, open_files: int) -> tuple[int, int]:
    """The connections a process may hold with ``open_files`` descriptors, and its listening
    backlog. asyncio accepts up to a backlog's worth of connections at once, each a descriptor
    before any refused one is closed, so two backlogs and :data:`RESERVED_FILES` stay free of
    the ``wanted`` connections; out of descriptors, it stops accepting for a second.

    >>> connection_budget(10_000, 1024), connection_budget(10_000, 4096), connection_budget(10_000, 65536)
    ((640, 128), (2944, 512), (10000, 2048))
    """
    backlog = max(64, min(2048, open_files // 8))
    return max(1, min(wanted, open_files - RESERVED_FILES - 2 * backlog)), backlog


def _networks(entries: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] | None:
    """The trusted proxies as networks; None when ``*`` trusts every peer."""
    if "*" in entries:
        return None
    return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in entries)


class Admission:
    """Who may open a connection now: the total, and the open HTTP connections per address."""

    def __init__(self, config: ServerConfig):
        self.config = config
        self.proxies = _networks(config.trusted_proxies)
        self.open_per_address: Counter[str] = Counter()

    def counted(self, host: str | None) -> str | None:
        """The key ``host`` is counted under, or None when it is not counted (no per-address
        limits, no address, or a trusted proxy: the proxy speaks for many clients)."""
        if not self.config.rate_limits or not host or self.proxies is None:  # None: every peer is trusted
            return None
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            return address_key(host)
        if any(ip in network for network in self.proxies):
            return None
        return address_key(host)

    def refusal(self, key: str | None, open_now: int) -> tuple[int, str] | None:
        """The status and text to refuse a new connection with (``open_now`` counts it), or
        None and it is counted under ``key``."""
        if open_now > self.config.max_connections:
            return 503, "the server has too many connections open: retry in a moment"
        if key is not None:
            if self.open_per_address[key] >= self.config.max_connections_per_address:
                most = self.config.max_connections_per_address
                return 429, f"too many connections from your address: at most {most} at once"
            self.open_per_address[key] += 1
        return None

    def release(self, key: str) -> None:
        self.open_per_address[key] -= 1
        if self.open_per_address[key] <= 0:
            del self.open_per_address[key]


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the limits of the module's docstring."""

    admission: ClassVar[Admission]

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.settings = self.admission.config
        self.counted_as: str | None = None
        self.deadline: asyncio.TimerHandle | None = None
        self.reading_headers = False
        self.header_bytes = 0

    # ------------------------------------------------------------------ the connection
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        key = self.admission.counted(self.client[0] if self.client else None)
        refused = self.admission.refusal(key, len(self.connections))
        if refused is not None:
            self.refuse(*refused)
            return
        self.counted_as = key
        self.arm(self.settings.header_timeout_s, self.headers_too_slow)

    def connection_lost(self, exc: Exception | None) -> None:
        self.disarm()
        self.uncount()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self) -> None:
        """A WebSocket from here on: no timer, and the application counts it (ratelimit.py)."""
        self.disarm()
        self.uncount()
        super().handle_websocket_upgrade()

    def uncount(self) -> None:
        if self.counted_as is not None:
            self.admission.release(self.counted_as)
            self.counted_as = None

    # ------------------------------------------------------------------ the request's parts
    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing():
            return
        if self.reading_headers:
            self.header_bytes += len(data)
            if self.header_bytes > self.settings.max_header_bytes:
                self.headers_too_large()
                return
        was_reading = self.reading_headers
        super().data_received(data)
        if self.reading_headers and not was_reading and not self.transport.is_closing():
            self.header_bytes = len(data)  # a request began in this read: its headers so far
            if self.header_bytes > self.settings.max_header_bytes:
                self.headers_too_large()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.reading_headers = True
        self.header_bytes = 0
        if self.deadline is None:  # the first request's deadline runs from the connection's start
            self.arm(self.settings.header_timeout_s, self.headers_too_slow)

    def on_headers_complete(self) -> None:
        self.reading_headers = False
        self.disarm()
        super().on_headers_complete()
        upgrading = self.parser.should_upgrade() and self._should_upgrade()
        if not upgrading and not self.transport.is_closing():
            self.arm(self.settings.body_timeout_s, self.body_too_slow)

    def on_message_complete(self) -> None:
        self.disarm()
        super().on_message_complete()

    # ------------------------------------------------------------------ limits reached
    def headers_too_large(self) -> None:
        log.info("%s: request headers over %d bytes: 431", self.peer(), self.settings.max_header_bytes)
        self.refuse(431, f"the request's headers are over {self.settings.max_header_bytes} bytes")

    def headers_too_slow(self) -> None:
        self.deadline = None
        log.info("%s: no complete request headers within %g s: 408", self.peer(), self.settings.header_timeout_s)
        self.refuse(408, f"the request's headers did not arrive within {self.settings.header_timeout_s:g} s")

    def body_too_slow(self) -> None:
        """The body is late: the application reads a disconnect, the client a 408 if no answer began."""
        self.deadline = None
        cycle = self.cycle
        if cycle is None or not cycle.more_body or cycle.response_complete:
            return
        log.info("%s: the request's body did not arrive within %g s", self.peer(), self.settings.body_timeout_s)
        started = cycle.response_started
        cycle.disconnected = True
        cycle.message_event.set()
        if started:
            self.transport.close()
        else:
            self.refuse(408, f"the request's body did not arrive within {self.settings.body_timeout_s:g} s")

    def refuse(self, status: int, text: str) -> None:
        """Answer ``status`` with ``text`` and close the connection, whatever was read of it."""
        self.disarm()
        self.reading_headers = False
        body = text.encode()
        head = [
            f"HTTP/1.1 {status} {REASONS[status]}",
            "content-type: text/plain; charset=utf-8",
            f"content-length: {len(body)}",
            "connection: close",
        ]
        if status in (429, 503):
            head.append("retry-after: 10")
        self.transport.write("\r\n".join(head).encode() + b"\r\n\r\n" + body)
        self.transport.close()

    # ------------------------------------------------------------------ the timer
    def arm(self, seconds: float, then: Any) -> None:
        self.disarm()
        self.deadline = self.loop.call_later(seconds, then)

    def disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def peer(self) -> str:
        return "%s:%d" % self.client if self.client else "unknown peer"


REASONS = {
    408: "Request Timeout",
    429: "Too Many Requests",
    431: "Request Header Fields Too Large",
    503: "Service Unavailable",
}


def guarded_http(config: ServerConfig) -> type[asyncio.Protocol]:
    """The HTTP protocol class for ``uvicorn.Config(http=...)``, with ``config``'s limits and
    one count of connections per address for this server."""
    return type("MiaiHttpProtocol", (GuardedHttpProtocol,), {"admission": Admission(config)})
