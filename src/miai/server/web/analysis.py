"""``POST /api/analysis`` (docs/SERVER.md §3.6): the computer's analysis of one position of a
review, searched in a worker process (:meth:`Workers.analyse
<miai.server.compute.workers.Workers.analyse>`); the request's shape is :mod:`miai.server.compute.analysis`'s.

``/api/reviews/{id}/analysis`` and ``/api/games/{id}/review/analysis``: the analysis of every
position of a review (:mod:`miai.server.compute.gameanalysis`), started by a ``POST`` and read
as it grows by ``GET`` (the page polls it: its graph fills as the positions are searched).

Each request counts against its address's ``analysis`` limit as well as the ``requests`` one
(a win-rate graph asks one position per move), and one address has one upload or analysis
under way at a time. A single position's analysis is not stored; a game's is.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from miai.server.compute.analysis import Position, parse_position, review_position
from miai.server.errors import NotFound
from miai.server.rooms.room import GameRoom
from miai.server.web.games import read_json, server_of
from miai.server.web.ratelimit import client_address, limits_of
from miai.server.web.reviews import game_review

__all__ = ["routes"]


async def post_analysis(request: Request) -> Response:
    server = server_of(request)
    config = server.config
    position = parse_position(await read_json(request, config.max_review_bytes), max_moves=config.review_max_moves)
    limits, address = limits_of(request), client_address(request.scope)
    await limits.check("analysis", address)
    seconds = min(position.seconds or config.analysis_default_seconds, config.analysis_max_seconds)
    async with limits.one_job(address):
        answer = await server.workers.analyse(
            position, seconds=seconds, playouts=config.analysis_playouts, wait_seconds=config.review_wait_seconds
        )
    return JSONResponse(answer)


async def _subject(request: Request) -> tuple[str, Position]:
    """The review the path names, as the analyses know it: ``review:ID`` for an upload,
    ``game:ID@V`` for a game of this server at its version V (a game that moves on is another)."""
    server = server_of(request)
    key = str(request.path_params["id"])
    if request.url.path.startswith("/api/reviews/"):
        stored = await server.reviews.get(key) if len(key) <= 32 else None
        if stored is None:
            raise NotFound(f"there is no review {key[:32]!r}")
        return f"review:{stored.id}", review_position(stored.review)

    async def review(room: GameRoom) -> dict[str, Any]:
        return game_review(room)

    facts = await server.registry.run(key, review)
    return f"game:{facts['id']}@{facts['v']}", review_position(facts)


async def get_game_analysis(request: Request) -> Response:
    subject, position = await _subject(request)
    return JSONResponse(await server_of(request).analyses.state(subject, position))


async def start_game_analysis(request: Request) -> Response:
    """Start the analysis of every position (unless it is done or under way); answers its state.
    One per address at a time; it counts once against the ``analysis`` limit."""
    subject, position = await _subject(request)
    limits, address = limits_of(request), client_address(request.scope)
    await limits.check("analysis", address)
    return JSONResponse(await server_of(request).analyses.start(subject, position, address), status_code=202)


def routes() -> list[Route]:
    return [
        Route("/api/analysis", post_analysis, methods=["POST"]),
        Route("/api/reviews/{id}/analysis", get_game_analysis, methods=["GET"]),
        Route("/api/reviews/{id}/analysis", start_game_analysis, methods=["POST"]),
        Route("/api/games/{id}/review/analysis", get_game_analysis, methods=["GET"]),
        Route("/api/games/{id}/review/analysis", start_game_analysis, methods=["POST"]),
    ]
