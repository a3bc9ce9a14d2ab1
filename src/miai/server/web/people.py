"""The HTTP routes about people: accounts, logging in and out, who a session is.

| request | answer |
|---|---|
| ``POST /api/users`` ``{"username", "password", "language"?}`` | ``201 {"kind": "user", "name", "language"}``, signed in; 400 for a rule broken, 409 if taken (each with a ``reason``) |
| ``POST /api/session`` ``{"username", "password"}`` | ``200 {"kind": "user", "name", "language"}``; 401 ``wrong username or password`` |
| ``DELETE /api/session`` | ``200 {"kind": "guest", "name"}``: a new guest; the sign-in is revoked |
| ``GET /api/me`` | ``200 {"kind": "guest" \\| "user", "name"}`` (a user's with ``language``) |
| ``PATCH /api/me`` ``{"language"}`` | ``200`` as ``GET /api/me``: the account's page language changed; 401 for a guest |

Registration and login are limited per address, failed logins per account (ratelimit.py),
and, like every unsafe request that relies on the cookie, refused from another site's page
(origin.py). A sign-in is a row of the database (people/signins.py): signing out revokes it.
"""

from __future__ import annotations

import logging

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from miai.server.errors import ApiError, Unauthorized
from miai.server.people.accounts import Accounts, User, username_key
from miai.server.people.sessions import Who, new_guest, sign_in, sign_in_token, who
from miai.server.people.signins import SignIns
from miai.server.state import Server
from miai.server.storage.histories import Histories
from miai.server.web.games import read_json, server_of
from miai.server.web.ratelimit import client_address, limits_of
from miai.server.wire.fields import check_fields

__all__ = ["routes"]

log = logging.getLogger("miai.server")


def _accounts(server: Server) -> Accounts:
    return Accounts(server.engine, server.config, server.registry.timekeeper)


async def _credentials(request: Request, what: str, *, language: bool = False) -> dict[str, object]:
    body = await read_json(request, request.app.state.server.config.max_body_bytes)
    fields = {"username": True, "password": True} | ({"language": False} if language else {})
    return check_fields(body, fields, what)


def _user_json(session: Who, user: User) -> dict[str, object]:
    """A signed-in session as the API shows it: the identity and the account's page language."""
    return session.to_json() | {"language": user.language}


def _signins(request: Request) -> SignIns:
    signins: SignIns = request.app.state.signins
    return signins


async def _keep_guest_games(request: Request, user: User) -> None:
    """A guest who signs up or in keeps the games they played: their seats become the
    account's (and the rooms of those going on are told)."""
    guest = who(request)
    if guest is None or guest.is_user:
        return
    server = server_of(request)
    for game_id in await Histories(server.engine).adopt(guest.id, user.id, user.username):
        try:
            await server.router.call(game_id, "reseat", {})
        except ApiError as e:  # the room reads its seats from the database when it loads again
            log.warning("game %s: the seats handed to %s are not shown yet: %s", game_id, user.username, e.message)


async def register(request: Request) -> Response:
    await limits_of(request).check("accounts", client_address(request.scope))
    body = await _credentials(request, "registration", language=True)
    user = await _accounts(server_of(request)).register(body["username"], body["password"], body.get("language"))
    await _keep_guest_games(request, user)
    sid = await _signins(request).open(user.id)
    return JSONResponse(_user_json(sign_in(request, user.id, user.username, sid), user), status_code=201)


async def login(request: Request) -> Response:
    limits = limits_of(request)
    await limits.check("logins", client_address(request.scope))
    body = await _credentials(request, "login")
    name = body["username"]
    account = username_key(name) if isinstance(name, str) and len(name) <= 64 else None
    if account is not None:
        await limits.check_account(account)
    try:
        user = await _accounts(server_of(request)).login(name, body["password"])
    except Unauthorized:
        if account is not None:
            await limits.failed_login(account)
        raise
    await _keep_guest_games(request, user)
    sid = await _signins(request).open(user.id)
    return JSONResponse(_user_json(sign_in(request, user.id, user.username, sid), user))


async def logout(request: Request) -> Response:
    """Sign out: the sign-in is revoked (a copy of the cookie is worth nothing now), a new guest."""
    sid = sign_in_token(request)
    if sid is not None:
        await _signins(request).revoke(sid)
    return JSONResponse(new_guest(request).to_json())


async def me(request: Request) -> Response:
    session = who(request) or new_guest(request)
    user = await _accounts(server_of(request)).user(session.user_id) if session.user_id is not None else None
    return JSONResponse(_user_json(session, user) if user is not None else session.to_json())


async def change_me(request: Request) -> Response:
    """Change the signed-in account's settings (its page language)."""
    session = who(request)
    if session is None or session.user_id is None:
        raise Unauthorized("sign in to change an account's settings")
    body = check_fields(await read_json(request, server_of(request).config.max_body_bytes), {"language": True}, "settings")
    accounts = _accounts(server_of(request))
    await accounts.set_language(session.user_id, body["language"])
    user = await accounts.user(session.user_id)
    assert user is not None
    return JSONResponse(_user_json(session, user))


def routes() -> list[Route]:
    return [
        Route("/api/users", register, methods=["POST"]),
        Route("/api/session", login, methods=["POST"]),
        Route("/api/session", logout, methods=["DELETE"]),
        Route("/api/me", me, methods=["GET"]),
        Route("/api/me", change_me, methods=["PATCH"]),
    ]
