"""The review endpoints (docs/SERVER.md §3.2): an uploaded record, and a game of this server,
both answered in the shape of :mod:`miai.server.records.review`.

``POST /api/reviews`` takes the record as the body (SGF, or Tygem GIB / WBaduk NGF, in any
charset the reader knows) or as JSON ``{"sgf": "..."}``; it is read in a worker process under
a time limit (:meth:`Workers.read_review <miai.server.compute.workers.Workers.read_review>`), one at
a time per address (with its analyses). Nothing is stored: the page keeps the review it gets.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from miai.server.errors import BadRequest
from miai.server.records.review import build_review
from miai.server.rooms.room import GameRoom
from miai.server.web.games import parse_json, read_body, server_of
from miai.server.web.ratelimit import client_address, limits_of
from miai.server.wire.fields import check_fields

__all__ = ["routes"]

_JSON_FIELDS = {"sgf": False}
"""A JSON body's one field (a missing one is refused as not a string)."""


def _record_of(body: bytes, content_type: str) -> bytes | str:
    """The record in a request body: the body itself, or the ``sgf`` field of a JSON body."""
    media = content_type.split(";", 1)[0].strip().lower()
    if media.startswith("multipart/"):
        raise BadRequest("send the record's file as the body itself (Content-Type: application/x-go-sgf), not as a form")
    if media != "application/json":
        if not body.strip():
            raise BadRequest("the body is empty: send the record (SGF) as the body, or JSON {\"sgf\": \"...\"}")
        return body
    value = parse_json(body)
    text = check_fields(value, _JSON_FIELDS, "review").get("sgf")
    if not isinstance(text, str):
        raise BadRequest("\"sgf\" must be the record's text (a string)")
    if not text.strip():
        raise BadRequest("\"sgf\" is empty: it must hold the record's text")
    return text


async def post_review(request: Request) -> Response:
    server = server_of(request)
    config = server.config
    body = await read_body(request, config.max_review_bytes)
    record = _record_of(body, request.headers.get("content-type", ""))
    async with limits_of(request).one_job(client_address(request.scope)):
        review = await server.workers.read_review(
            record,
            max_moves=config.review_max_moves,
            max_seconds=config.review_max_seconds,
            wait_seconds=config.review_wait_seconds,
        )
    return JSONResponse(review)


def game_review(room: GameRoom) -> dict[str, Any]:
    """The review of a game of this server, live or finished, at its current version ``v``:
    no player names (the seats have none yet), the date it was created (UTC)."""
    date = time.strftime("%Y-%m-%d", time.gmtime(room.record.created_ms / 1000))
    review = build_review(room.game, date=date)
    review["result_text"] = review["result"]  # the server's own words are its Result's
    review["id"] = room.id
    review["v"] = room.v
    return review


async def get_game_review(request: Request) -> Response:
    server = server_of(request)

    async def review(room: GameRoom) -> dict[str, Any]:
        return game_review(room)

    return JSONResponse(await server.registry.run(str(request.path_params["id"]), review))


def routes() -> list[Route]:
    return [
        Route("/api/reviews", post_review, methods=["POST"]),
        Route("/api/games/{id}/review", get_game_review, methods=["GET"]),
    ]
