"""The security headers every HTTP answer carries (docs/SERVER.md §5).

- ``Content-Security-Policy``: the page's own (:data:`PAGE_POLICY`, set by pages.py with the
  hashes of its inline scripts) on the page; on everything else :data:`STRICT_POLICY`, which
  lets nothing run or load (an SVG diagram or a JSON answer opened as a document);
- ``X-Frame-Options: DENY`` (and ``frame-ancestors 'none'``): no other site frames the board
  to trick a click;
- ``X-Content-Type-Options: nosniff``: an answer is only what its type says;
- ``Referrer-Policy: no-referrer``: the address of a page opened with ``?seat=TOKEN`` is never
  sent on, not even to this server's own files.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["SecurityHeadersMiddleware", "PAGE_POLICY", "STRICT_POLICY", "CSP"]

CSP = b"content-security-policy"
STRICT_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
"""For every answer but the page: nothing may run, load or frame it."""
PAGE_POLICY = (
    "default-src 'none'; script-src 'self'{scripts}; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""The page: its modules and stylesheet from /static (``{scripts}``: the hashes of its inline
scripts), the SVG diagrams and the ``data:`` icon, fetch and WebSocket to this server only."""
_ALWAYS = [
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class SecurityHeadersMiddleware:
    """ASGI middleware: the headers of the module's docstring on every HTTP answer."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in _ALWAYS if name not in names]
                if CSP not in names:
                    headers.append((CSP, STRICT_POLICY.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)
