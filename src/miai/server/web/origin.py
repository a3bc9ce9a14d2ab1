"""Origin checks: another web site's page must not act with a visitor's session cookie.

A browser sends ``Origin`` with every WebSocket handshake and every cross-site ``POST``; a
program (a bot, ``curl``) usually sends none. So:

- a WebSocket handshake whose ``Origin`` is present and is neither this server (the ``Host``
  the client asked for) nor in ``ServerConfig.allowed_origins`` is refused: an ``error`` frame,
  then close code :data:`CLOSE_CROSS_SITE` with the reason;
- an unsafe HTTP request (``POST``, ``PUT``, ``PATCH``, ``DELETE``) that relies on the session
  cookie (it has no ``Authorization`` header) is refused the same way with a 403
  ``{"error": "cross-site"}``: login, logout, registration, creating a game. A request that
  carries ``Authorization: Bearer TOKEN`` proves itself with the token and is not checked.

No ``Origin`` at all is allowed: the session cookie is ``SameSite=Lax``, so a browser never sends
it with another site's ``POST`` in the first place; this check is the second lock.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from miai.server.errors import Forbidden
from miai.server.web.ratelimit import send_json

__all__ = ["CrossSite", "OriginMiddleware", "cross_site", "CLOSE_CROSS_SITE"]

CLOSE_CROSS_SITE = 4403
"""The WebSocket close code for a handshake from another site."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_DEFAULT_PORTS = {"http": "80", "ws": "80", "https": "443", "wss": "443"}


class CrossSite(Forbidden):
    """A request from another web site's page, refused."""

    code = "cross-site"


def _netloc(scheme: str, netloc: str) -> str:
    """``host[:port]`` in lower case, without the scheme's default port."""
    netloc = netloc.strip().lower()
    host, sep, port = netloc.rpartition(":")
    if sep and "]" not in port and port == _DEFAULT_PORTS.get(scheme, ""):
        return host
    return netloc


def normal_origin(origin: str) -> str:
    """``scheme://host[:port]`` in lower case, without the default port (``null`` stays ``null``)."""
    parts = urlsplit(origin.strip())
    if not parts.scheme or not parts.netloc:
        return origin.strip().lower()
    return f"{parts.scheme.lower()}://{_netloc(parts.scheme.lower(), parts.netloc)}"


def cross_site(scope: Scope, allowed: tuple[str, ...]) -> CrossSite | None:
    """The refusal for a request whose ``Origin`` is another site's, or None (no ``Origin``,
    this server's own, or an allowed one)."""
    headers = Headers(scope=scope)
    origin = headers.get("origin")
    if origin is None:
        return None
    normal = normal_origin(origin)
    if normal in {normal_origin(a) for a in allowed}:
        return None
    host = headers.get("host", "")
    parts = urlsplit(normal)
    if parts.scheme and host and _netloc(parts.scheme, parts.netloc) == _netloc(parts.scheme, host):
        return None
    shown = origin if len(origin) <= 100 else origin[:100] + "..."
    return CrossSite(
        f"refused: the request comes from a page of {shown!r}, not of this server ({host or 'unknown host'}); "
        "only this server's own pages (and the origins it is configured to allow) may use its session cookie"
    )


class OriginMiddleware:
    """ASGI middleware: unsafe HTTP requests without ``Authorization`` from another site get a 403."""

    def __init__(self, app: ASGIApp, allowed: tuple[str, ...]):
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            if "authorization" not in Headers(scope=scope):
                refusal = cross_site(scope, self.allowed)
                if refusal is not None:
                    await send_json(send, refusal.status, refusal.to_json())
                    return
        await self.app(scope, receive, send)
