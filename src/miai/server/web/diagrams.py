"""``GET /api/games/{id}/diagram.svg?moves=1-50`` (and ``/api/reviews/{id}/diagram.svg`` for an
uploaded review): the numbered figure of a range of a game's moves (:func:`miai.render.numbered.move_diagram`), as the review page shows it. A range that is
not one, or lies outside the game, is a 400 that says so."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from miai.errors import ArgumentError
from miai.server.compute.analysis import review_position
from miai.server.compute.diagram import diagram_svg, review_diagram
from miai.server.errors import BadRequest, NotFound
from miai.server.rooms.room import GameRoom
from miai.server.web.games import server_of
from miai.server.web.ratelimit import client_address, limits_of

__all__ = ["routes"]

MAX_RANGE_CHARS = 24


def _svg(room: GameRoom, moves: str | None, first_number: str | None) -> str:
    try:
        return diagram_svg(room.game, moves, first_number)
    except ArgumentError as e:
        raise BadRequest(str(e)) from None


def _query(request: Request) -> tuple[str | None, str | None]:
    """The request's ``moves`` and ``number``: a 400 for any other parameter or a range too long."""
    unknown = sorted(set(request.query_params) - {"moves", "number"})
    if unknown:
        raise BadRequest(f"unknown parameter {unknown[0]!r}: use moves=FIRST-LAST (and number=N, the first move's number)")
    moves = request.query_params.get("moves")
    if moves is not None and len(moves) > MAX_RANGE_CHARS:
        raise BadRequest("moves must be a range such as 1-50")
    return moves, request.query_params.get("number")


async def get_diagram(request: Request) -> Response:
    server = server_of(request)
    moves, number = _query(request)

    async def draw(room: GameRoom) -> str:
        return _svg(room, moves, number)

    svg = await server.registry.run(str(request.path_params["id"]), draw)
    return Response(svg, media_type="image/svg+xml")


async def get_review_diagram(request: Request) -> Response:
    """An uploaded review's figure: the record replayed and drawn in a worker of the reviews'
    pool, one job at a time per address as the other work of that pool."""
    server = server_of(request)
    moves, number = _query(request)
    review_id = str(request.path_params["id"])
    stored = await server.reviews.get(review_id) if len(review_id) <= 32 else None
    if stored is None:
        raise NotFound(f"there is no review {review_id[:32]!r}")
    async with limits_of(request).one_job(client_address(request.scope)):
        kind, text = await server.workers.review_job(
            review_diagram, review_position(stored.review), moves, number,
            wait_seconds=server.config.review_wait_seconds, what="draw the diagram",
        )
    if kind == "error":
        raise BadRequest(text)
    return Response(text, media_type="image/svg+xml")


def routes() -> list[Route]:
    return [
        Route("/api/games/{id}/diagram.svg", get_diagram, methods=["GET"]),
        Route("/api/reviews/{id}/diagram.svg", get_review_diagram, methods=["GET"]),
    ]
