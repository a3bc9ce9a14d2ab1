"""``GET /api/games/{id}/diagram.svg?moves=1-50``: the numbered figure of a range of a game's
moves (:func:`miai.render.numbered.move_diagram`), as the review page shows it. A range that is
not one, or lies outside the game, is a 400 that says so."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from miai.errors import ArgumentError
from miai.render.numbered import MoveRange, move_diagram
from miai.server.errors import BadRequest
from miai.server.rooms.room import GameRoom
from miai.server.web.games import server_of

__all__ = ["routes", "diagram_svg"]

MAX_RANGE_CHARS = 24


def diagram_svg(room: GameRoom, moves: str | None, first_number: str | None) -> str:
    """The SVG of ``moves`` (``FIRST-LAST``, ``FIRST-`` or one number; all moves without it)."""
    game = room.game
    total = len(game.moves)
    try:
        span = MoveRange.parse(moves, total) if moves is not None else MoveRange.within(1, total, total)
        number: int | None = None
        if first_number is not None:
            if not (first_number.isascii() and first_number.isdigit()) or len(first_number) > 6:
                raise ArgumentError(f"number must be a whole number from 1, not {first_number!r}")
            number = int(first_number)
        return move_diagram(game, span.first, span.last, first_number=number).svg()
    except ArgumentError as e:
        raise BadRequest(str(e)) from None


async def get_diagram(request: Request) -> Response:
    server = server_of(request)
    unknown = sorted(set(request.query_params) - {"moves", "number"})
    if unknown:
        raise BadRequest(f"unknown parameter {unknown[0]!r}: use moves=FIRST-LAST (and number=N, the first move's number)")
    moves = request.query_params.get("moves")
    if moves is not None and len(moves) > MAX_RANGE_CHARS:
        raise BadRequest("moves must be a range such as 1-50")
    number = request.query_params.get("number")

    async def draw(room: GameRoom) -> str:
        return diagram_svg(room, moves, number)

    svg = await server.registry.run(str(request.path_params["id"]), draw)
    return Response(svg, media_type="image/svg+xml")


def routes() -> list[Route]:
    return [Route("/api/games/{id}/diagram.svg", get_diagram, methods=["GET"])]
