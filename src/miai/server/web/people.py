"""The HTTP routes about people: accounts, logging in and out, who a session is.

| request | answer |
|---|---|
| ``POST /api/users`` ``{"username", "password"}`` | ``201 {"kind": "user", "name"}``, signed in; 400 for a rule broken, 409 if taken |
| ``POST /api/session`` ``{"username", "password"}`` | ``200 {"kind": "user", "name"}``; 401 ``wrong username or password`` |
| ``DELETE /api/session`` | ``200 {"kind": "guest", "name"}``: a new guest |
| ``GET /api/me`` | ``200 {"kind": "guest" \\| "user", "name"}`` |

Registration and login are limited per address (ratelimit.py) and, like every unsafe request
that relies on the cookie, refused from another site's page (origin.py).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from miai.server.people.accounts import Accounts
from miai.server.people.sessions import new_guest, sign_in, who
from miai.server.state import Server
from miai.server.web.games import read_json, server_of
from miai.server.web.ratelimit import client_address, limits_of
from miai.server.wire.fields import check_fields

__all__ = ["routes"]


def _accounts(server: Server) -> Accounts:
    return Accounts(server.engine, server.config, server.registry.timekeeper)


async def _credentials(request: Request, what: str) -> dict[str, object]:
    body = await read_json(request, request.app.state.server.config.max_body_bytes)
    return check_fields(body, {"username": True, "password": True}, what)


async def register(request: Request) -> Response:
    await limits_of(request).check("accounts", client_address(request.scope))
    body = await _credentials(request, "registration")
    user = await _accounts(server_of(request)).register(body["username"], body["password"])
    return JSONResponse(sign_in(request, user.id, user.username).to_json(), status_code=201)


async def login(request: Request) -> Response:
    await limits_of(request).check("logins", client_address(request.scope))
    body = await _credentials(request, "login")
    user = await _accounts(server_of(request)).login(body["username"], body["password"])
    return JSONResponse(sign_in(request, user.id, user.username).to_json())


async def logout(request: Request) -> Response:
    return JSONResponse(new_guest(request).to_json())


async def me(request: Request) -> Response:
    return JSONResponse((who(request) or new_guest(request)).to_json())


def routes() -> list[Route]:
    return [
        Route("/api/users", register, methods=["POST"]),
        Route("/api/session", login, methods=["POST"]),
        Route("/api/session", logout, methods=["DELETE"]),
        Route("/api/me", me, methods=["GET"]),
    ]
