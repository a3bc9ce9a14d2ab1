"""Helpers for the tests of sessions, accounts and limits: several browsers (cookie jars) on one
test client, and client addresses chosen per request."""

from __future__ import annotations

from typing import Any

import httpx
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

ADDRESS_HEADER = "x-test-address"


class Browser:
    """One browser: its own cookies, its own address, on a shared TestClient."""

    def __init__(self, client: Any, address: str | None = None, origin: str | None = None):
        self.client = client
        self.cookies = httpx.Cookies()
        self.headers: dict[str, str] = {}
        if address:
            self.headers[ADDRESS_HEADER] = address
        if origin:
            self.headers["origin"] = origin

    def request(self, method: str, url: str, **kw: Any) -> httpx.Response:
        kw["headers"] = {**self.headers, **kw.get("headers", {})}
        self.client.cookies = self.cookies
        try:
            return self.client.request(method, url, **kw)
        finally:
            self.cookies = httpx.Cookies(self.client.cookies)
            self.client.cookies = httpx.Cookies()

    def get(self, url: str, **kw: Any) -> httpx.Response:
        return self.request("GET", url, **kw)

    def post(self, url: str, **kw: Any) -> httpx.Response:
        return self.request("POST", url, **kw)

    def delete(self, url: str, **kw: Any) -> httpx.Response:
        return self.request("DELETE", url, **kw)

    def patch(self, url: str, **kw: Any) -> httpx.Response:
        return self.request("PATCH", url, **kw)

    def set_cookie(self, name: str, value: str) -> None:
        """Replace this browser's cookies by one (as if it were edited by hand)."""
        self.cookies = httpx.Cookies()
        self.cookies.set(name, value, domain="testserver.local")

    def websocket(self, url: str, **kw: Any) -> Any:
        """A WebSocket with this browser's cookies and headers (use it in a ``with``)."""
        headers = {**self.headers, **kw.pop("headers", {})}
        jar = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        if jar:
            headers["cookie"] = jar
        return self.client.websocket_connect(url, headers=headers, **kw)

    def me(self) -> dict[str, Any]:
        answer = self.get("/api/me")
        assert answer.status_code == 200, answer.text
        return answer.json()


def with_address(app: ASGIApp) -> ASGIApp:
    """``app`` where a request's ``x-test-address`` header becomes its client address (as a
    reverse proxy's forwarded address would)."""

    async def wrapped(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            address = Headers(scope=scope).get(ADDRESS_HEADER)
            if address:
                scope = {**scope, "client": (address, 40000)}
        await app(scope, receive, send)

    return wrapped
