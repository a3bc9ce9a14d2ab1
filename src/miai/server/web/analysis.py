"""``POST /api/analysis`` (docs/SERVER.md §3.6): the computer's analysis of one position of a
review, searched in a worker process (:meth:`Workers.analyse
<miai.server.compute.workers.Workers.analyse>`); the request's shape is :mod:`miai.server.compute.analysis`'s.

Each request counts against its address's ``analysis`` limit as well as the ``requests`` one
(a win-rate graph asks one position per move), and one address has one upload or analysis
under way at a time. Nothing is stored.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from miai.server.compute.analysis import parse_position
from miai.server.web.games import read_json, server_of
from miai.server.web.ratelimit import client_address, limits_of

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


def routes() -> list[Route]:
    return [Route("/api/analysis", post_analysis, methods=["POST"])]
