"""The ``Host`` a request names must be this server's: a defence against DNS rebinding.

A page of ``evil.example`` whose name the attacker then points at 127.0.0.1 is, to the
browser, still ``evil.example``: its requests reach a server on the visitor's own machine
with ``Host: evil.example`` and the server's answers are readable by that page. So a request
is served only when its ``Host`` (without the port) is

- an IP address (``127.0.0.1``, ``[::1]``, the address the server is reached at: no name,
  nothing to rebind);
- ``localhost`` or a name under ``.localhost`` (which browsers resolve to the machine itself);
- or one of ``ServerConfig.allowed_hosts``: a name, ``.example.org`` for it and every name
  under it, or ``*`` for any (a server that checks its names elsewhere). ``miai serve`` adds
  the machine's own name and the name it listens on.

A request without ``Host`` (HTTP/1.0, a program) is served: a browser always sends one. Any
other is a 400 ``{"error": "wrong-host"}``; a WebSocket handshake is refused (403).
"""

from __future__ import annotations

import ipaddress

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from miai.server.errors import BadRequest
from miai.server.web.ratelimit import send_json

__all__ = ["HostMiddleware", "WrongHost", "host_allowed", "normal_hosts"]


class WrongHost(BadRequest):
    """A request for a host name this server was not told it has."""

    code = "wrong-host"


def _name(host: str) -> str:
    """``host`` without its port and brackets, in lower case, without a final dot."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    name, sep, port = host.rpartition(":")
    if sep and port.isdigit() and ":" not in name:
        host = name
    return host.rstrip(".")


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def normal_hosts(allowed: tuple[str, ...]) -> tuple[str, ...]:
    """The configured host names as :func:`host_allowed` compares them: lower case, no final dot."""
    return tuple(entry.strip().lower().rstrip(".") for entry in allowed)


def host_allowed(host: str, allowed: tuple[str, ...]) -> bool:
    """Whether a request may name ``host`` (see the module's docstring); ``allowed`` as
    :func:`normal_hosts` gives it (done once, not at every request).

    >>> [host_allowed(h, ()) for h in ("127.0.0.1:8000", "[::1]:80", "localhost", "app.localhost", "evil.example")]
    [True, True, True, True, False]
    >>> allowed = ("go.example.org", ".example.net")
    >>> [host_allowed(h, allowed) for h in ("GO.example.org:443", "a.example.net", "example.net", "example.org")]
    [True, True, True, False]
    """
    name = _name(host)
    if not name:
        return False
    if _is_ip(name) or name == "localhost" or name.endswith(".localhost"):
        return True
    for entry in allowed:
        if entry == "*" or name == entry or (entry.startswith(".") and (name == entry[1:] or name.endswith(entry))):
            return True
    return False


class HostMiddleware:
    """ASGI middleware: requests and WebSocket handshakes that name another host are refused."""

    def __init__(self, app: ASGIApp, allowed: tuple[str, ...]):
        self.app = app
        self.allowed = normal_hosts(allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            host = Headers(scope=scope).get("host")
            if host is not None and not host_allowed(host, self.allowed):
                await self.refuse(scope, send, host)
                return
        await self.app(scope, receive, send)

    @staticmethod
    async def refuse(scope: Scope, send: Send, host: str) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": "wrong host"})
            return
        shown = host if len(host) <= 100 else host[:100] + "..."
        error = WrongHost(
            f"this server does not answer for the host {shown!r}: it answers for localhost, its IP "
            "addresses and the host names it is configured with (miai serve --allowed-host)"
        )
        await send_json(send, error.status, error.to_json())
