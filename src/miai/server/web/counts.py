"""A game's count as the page shows it (docs/SERVER.md §3.7): ``GET /api/games/{id}/count?dead=C3,D4``
counts the position with those stones marked dead (the marking phase's live count, and any
marking a page shows), and ``POST /api/games/{id}/estimate`` asks the computer for the score
during play. Both are counted on the game's owner by the game's rules; nothing is stored.

An estimate holds a worker of the reviews' pool for about a second: it counts against its
address's ``analysis`` limit, one at a time per address, and is refused at once (``503 busy``)
when every such worker is taken, so it never waits nor delays a game.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from miai.server.errors import BadRequest
from miai.server.web.games import server_of
from miai.server.web.ratelimit import client_address, limits_of
from miai.server.wire.fields import MAX_POINTS

__all__ = ["routes"]


def _vertex_list(request: Request, name: str) -> list[str]:
    """A query parameter's vertices, comma-separated (none when it is absent or empty)."""
    text = request.query_params.get(name, "")
    items = [t for t in text.split(",") if t]
    if len(items) > MAX_POINTS or any(len(t) > 8 or not t.isascii() for t in items):
        raise BadRequest(f"{name} must be vertices such as C3,D4 (at most {MAX_POINTS})")
    return items


async def get_count(request: Request) -> Response:
    unknown = sorted(set(request.query_params) - {"dead", "seki"})
    if unknown:
        raise BadRequest(f"unknown parameter {unknown[0]!r}: use dead=C3,D4 (and seki=...)")
    args = {"dead": _vertex_list(request, "dead"), "seki": _vertex_list(request, "seki")}
    game_id = str(request.path_params["id"])
    return JSONResponse(await server_of(request).router.call(game_id, "count", args))


async def post_estimate(request: Request) -> Response:
    server = server_of(request)
    limits, address = limits_of(request), client_address(request.scope)
    await limits.check("analysis", address)
    async with limits.one_job(address):
        answer = await server.router.call(str(request.path_params["id"]), "estimate", {})
    return JSONResponse(answer)


def routes() -> list[Route]:
    return [
        Route("/api/games/{id}/count", get_count, methods=["GET"]),
        Route("/api/games/{id}/estimate", post_estimate, methods=["POST"]),
    ]
