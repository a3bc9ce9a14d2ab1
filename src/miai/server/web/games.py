"""The HTTP API for programs, exactly as docs/SERVER.md §3 gives it (JSON in, JSON out).

Every answer other than a success is JSON ``{"error": code, "message": ...}`` with a 4xx
status that says what was wrong (a 503 only when the database fails: the client then retries
the same request, which is never applied twice); no bad input gets a 5xx. Seats act with
``Authorization: Bearer TOKEN``.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import replace
from typing import Any

import sqlalchemy as sa
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from miai.server.cluster.router import action_json
from miai.server.errors import (
    ApiError,
    BadRequest,
    Forbidden,
    NotFound,
    PayloadTooLarge,
    database_down,
)
from miai.server.people.sessions import who
from miai.server.play.actions import ActionKind, parse_action
from miai.server.play.create import OPEN_FOR_MS, parse_new_game
from miai.server.state import Server
from miai.server.storage.db import is_outage, outage_kinds
from miai.server.web.players import creator_name, name_seat
from miai.server.web.ratelimit import client_address, limits_of

__all__ = ["routes", "exception_handlers", "read_body", "read_json", "bearer_token"]

log = logging.getLogger("miai.server")
MAX_EVENTS_PAGE = 1000


def server_of(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_text(value: Any) -> None:
    """Refuse a string (key or value, at any depth) holding a lone surrogate: JSON's
    ``"\\ud800"`` escape decodes to one, which is no Unicode text and cannot be encoded as
    UTF-8 (the database, the password hash and the answers would fail on it)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _LONE_SURROGATE.search(item):
                raise BadRequest("the JSON holds a lone surrogate escape such as \\ud800: text must be valid Unicode")
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def parse_json(data: bytes | str) -> Any:
    """Strict JSON (no NaN or Infinity, no lone surrogates); :class:`BadRequest` says where it
    went wrong."""
    try:
        value = json.loads(data, parse_constant=_no_constants)
    except UnicodeDecodeError:
        raise BadRequest("the body is not UTF-8 text") from None
    except RecursionError:
        raise BadRequest("the JSON is nested too deeply") from None
    except ValueError as e:
        raise BadRequest(f"the body is not valid JSON: {e}") from None
    _check_text(value)
    return value


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, read up to ``limit`` bytes (413 beyond, before reading it when
    ``Content-Length`` says so)."""
    length = request.headers.get("content-length")
    if length is not None:
        if not (length.isascii() and length.isdigit()):
            raise BadRequest("the Content-Length header is not a number")
        if int(length) > limit:
            raise PayloadTooLarge(f"the body has {length} bytes; the limit is {limit}")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise PayloadTooLarge(f"the body is over the limit of {limit} bytes")
    return bytes(body)


async def read_json(request: Request, limit: int) -> Any:
    """The request's JSON body (None when empty), read up to ``limit`` bytes (413 beyond)."""
    body = await read_body(request, limit)
    if not body.strip():
        return None
    return parse_json(body)


def bearer_token(request: Request) -> str | None:
    """The token of ``Authorization: Bearer TOKEN``, if any."""
    header = request.headers.get("authorization")
    if not header:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise BadRequest("the Authorization header must be: Bearer TOKEN")
    return token.strip()


def _get_token(request: Request) -> str | None:
    """The token a GET shows: it counts as that seat being present (docs/SERVER.md §3.4); a
    GET needs no token, so a malformed or foreign one is ignored, not refused."""
    try:
        return bearer_token(request)
    except BadRequest:
        return None


def _game_id(request: Request) -> str:
    return str(request.path_params["id"])


async def create_game(request: Request) -> Response:
    server = server_of(request)
    limits, address = limits_of(request), client_address(request.scope)
    await limits.check("games", address)
    identity = who(request)
    new = parse_new_game(await read_json(request, server.config.max_body_bytes))
    new = replace(new, creator=creator_name(request), person=identity.id if identity is not None else None)
    if new.rated and (identity is None or not identity.is_user):
        raise Forbidden("a rated game needs its creator signed in: sign in or make the game unrated", reason="sign-in")
    if new.open:
        await limits.open_game(address, server.registry.timekeeper.wall_ms(), OPEN_FOR_MS, server.store.still_open)
    record, tokens = await server.registry.create(new)
    if new.open:
        limits.opened(address, record.id, record.created_ms)
    answer: dict[str, Any] = {"id": record.id, "v": 0}
    for color, token in tokens.items():
        answer[f"{color}_token"] = token
    answer["url"] = f"/g/{record.id}"
    return JSONResponse(answer, status_code=201)


async def get_game(request: Request) -> Response:
    server = server_of(request)

    return JSONResponse(await server.router.call(_game_id(request), "state", {"token": _get_token(request)}))


async def act(request: Request) -> Response:
    server = server_of(request)
    name = str(request.path_params["action"])
    try:
        kind = ActionKind(name)
    except ValueError:
        raise NotFound(f"no action {name!r}: the actions are {', '.join(k.value for k in ActionKind)}") from None
    body = await read_json(request, server.config.max_body_bytes)
    token = bearer_token(request)
    action = parse_action(kind, body)
    await name_seat(server, request, _game_id(request), token)
    v = await server.router.call(_game_id(request), "act", {"token": token, "action": action_json(action)})
    return JSONResponse({"v": v})


def _query_int(request: Request, name: str, default: int, high: int) -> int:
    text = request.query_params.get(name)
    if text is None:
        return default
    if not (text.isascii() and text.isdigit()) or len(text) > 10:
        raise BadRequest(f"{name} must be a whole number from 0, not {text!r}")
    return min(int(text), high)


async def get_events(request: Request) -> Response:
    server = server_of(request)
    unknown = sorted(set(request.query_params) - {"after", "limit"})
    if unknown:
        raise BadRequest(f"unknown parameter {unknown[0]!r}: use after=N (and limit=N)")
    after = _query_int(request, "after", 0, 2**31 - 1)
    limit = max(1, _query_int(request, "limit", MAX_EVENTS_PAGE, MAX_EVENTS_PAGE))

    args = {"after": after, "limit": limit, "token": _get_token(request)}
    return JSONResponse(await server.router.call(_game_id(request), "events", args))


async def get_sgf(request: Request) -> Response:
    server = server_of(request)

    game_id = _game_id(request)
    text = await server.router.call(game_id, "sgf", {})
    return Response(
        text,
        media_type="application/x-go-sgf",
        headers={"Content-Disposition": f'attachment; filename="miai-{game_id}.sgf"'},
    )


def routes() -> list[Route]:
    return [
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/{id}", get_game, methods=["GET"]),
        Route("/api/games/{id}/events", get_events, methods=["GET"]),
        Route("/api/games/{id}/sgf", get_sgf, methods=["GET"]),
        Route("/api/games/{id}/{action}", act, methods=["POST"]),
    ]


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return JSONResponse(exc.to_json(), status_code=exc.status, headers=exc.headers())


_HTTP_CODES = {404: "not-found", 405: "method-not-allowed", 400: "bad-request", 413: "too-large"}


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    message = exc.detail if isinstance(exc.detail, str) else "error"
    if exc.status_code == 404:
        message = f"nothing at {request.url.path}"
    elif exc.status_code == 405:
        message = f"{request.method} is not allowed on {request.url.path}"
    return JSONResponse(
        {"error": _HTTP_CODES.get(exc.status_code, "error"), "message": message},
        status_code=exc.status_code,
        headers=exc.headers,
    )


async def _outage(request: Request, exc: Exception) -> Response:
    """A database error: 503 when the database cannot be reached (retry), else on to the 500."""
    if not is_outage(exc):
        raise exc
    log.warning("%s %s: the database is unreachable (%s): 503", request.method, request.url.path, exc)
    return await _api_error(request, database_down())


async def _gone(request: Request, exc: Exception) -> Response:
    """The client left (or its body was too slow, connections.py) before its request was read:
    nobody is left to answer, and it is no error of the server's."""
    log.info("%s %s: the client left before its request was read", request.method, request.url.path)
    return Response(status_code=400)


async def _crash(request: Request, exc: Exception) -> Response:
    log.exception("internal error on %s %s", request.method, request.url.path, exc_info=exc)
    return JSONResponse({"error": "internal", "message": "internal server error"}, status_code=500)


exception_handlers: dict[Any, Any] = {
    ApiError: _api_error,
    HTTPException: _http_error,
    ClientDisconnect: _gone,
    **{kind: _outage for kind in (*outage_kinds(), sa.exc.DBAPIError)},  # sorted by is_outage
    Exception: _crash,
}
