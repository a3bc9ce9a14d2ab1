"""The review endpoints (docs/SERVER.md §3.2): an uploaded record, and a game of this server,
both answered in the shape of :mod:`miai.server.records.review`.

``POST /api/reviews`` takes the record as the body (SGF, or Tygem GIB / WBaduk NGF, in any
charset the reader knows) or as JSON ``{"sgf": "..."}``; it is read in a worker process under
a time limit (:meth:`Workers.read_review <miai.server.compute.workers.Workers.read_review>`), one at
a time per address (with its analyses). A record that reads is kept (as SGF in UTF-8, with its
review): ``GET /api/reviews/{id}`` gives the review again, ``/review/{id}`` is its page.

Every review names where its page, record, diagram and analysis are (``links``), so the page
treats both kinds alike.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from miai.coords import Color
from miai.server.errors import BadRequest, NotFound
from miai.server.records.export import seat_names
from miai.server.records.review import build_review
from miai.server.rooms.room import GameRoom
from miai.server.storage.reviews import StoredReview
from miai.server.web.games import parse_json, read_body, server_of
from miai.server.web.ratelimit import client_address, limits_of
from miai.server.wire.fields import check_fields

__all__ = ["routes", "game_review", "stored_review", "upload_links"]

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
        review, sgf = await server.workers.read_review(
            record,
            max_moves=config.review_max_moves,
            max_seconds=config.review_max_seconds,
            wait_seconds=config.review_wait_seconds,
        )
    stored = StoredReview(secrets.token_urlsafe(9), server.registry.timekeeper.wall_ms(), sgf, review)
    await server.reviews.add(stored)
    return JSONResponse(stored_review(stored), headers={"Location": f"/review/{stored.id}"})


def upload_links(review_id: str) -> dict[str, str]:
    """Where an uploaded review's page, record, diagram and analysis are."""
    api = f"/api/reviews/{review_id}"
    return {"page": f"/review/{review_id}", "sgf": f"{api}/sgf", "diagram": f"{api}/diagram.svg", "analysis": f"{api}/analysis"}


def stored_review(stored: StoredReview) -> dict[str, Any]:
    """An uploaded review as answered: the review, its ``id`` and ``links``."""
    return {**stored.review, "id": stored.id, "kind": "upload", "links": upload_links(stored.id)}


def game_review(room: GameRoom) -> dict[str, Any]:
    """The review of a game of this server, live or finished, at its current version ``v``:
    the players' names as the record writes them (``PB``/``PW``, see
    :func:`~miai.server.records.export.seat_names`), the date it was created (UTC)."""
    date = time.strftime("%Y-%m-%d", time.gmtime(room.record.created_ms / 1000))
    names: dict[Color, str] = seat_names(room.record)
    review = build_review(room.game, players=names, date=date)
    review["result_text"] = review["result"]  # the server's own words are its Result's
    review["id"] = room.id
    review["kind"] = "game"
    review["v"] = room.v
    api = f"/api/games/{room.id}"
    review["links"] = {
        "page": f"/r/{room.id}", "sgf": f"{api}/sgf", "diagram": f"{api}/diagram.svg", "analysis": f"{api}/review/analysis",
    }
    return review


async def get_stored_review(request: Request) -> Response:
    return JSONResponse(stored_review(await _stored(request)))


async def get_stored_sgf(request: Request) -> Response:
    stored = await _stored(request)
    return Response(
        stored.sgf,
        media_type="application/x-go-sgf",
        headers={"Content-Disposition": f'attachment; filename="miai-review-{stored.id}.sgf"'},
    )


async def _stored(request: Request) -> StoredReview:
    """The uploaded review the path names, or a 404."""
    review_id = str(request.path_params["id"])
    stored = await server_of(request).reviews.get(review_id) if len(review_id) <= 32 else None
    if stored is None:
        raise NotFound(f"there is no review {review_id[:32]!r}")
    return stored


async def get_game_review(request: Request) -> Response:
    server = server_of(request)

    async def review(room: GameRoom) -> dict[str, Any]:
        return game_review(room)

    return JSONResponse(await server.registry.run(str(request.path_params["id"]), review))


def routes() -> list[Route]:
    return [
        Route("/api/reviews", post_review, methods=["POST"]),
        Route("/api/reviews/{id}", get_stored_review, methods=["GET"]),
        Route("/api/reviews/{id}/sgf", get_stored_sgf, methods=["GET"]),
        Route("/api/games/{id}/review", get_game_review, methods=["GET"]),
    ]
