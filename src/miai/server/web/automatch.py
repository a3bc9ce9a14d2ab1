"""Automatch over HTTP (docs/SERVER.md §6.2): ask, wait (a long poll), cancel.

The long poll reads the player's request every 0.25 s until it is paired or ``wait`` seconds
have passed: the requests live in the database, so a pairing made by any process is seen.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from miai.clock import TimeControl
from miai.coords import MAX_SIZE, MIN_SIZE
from miai.errors import ClockError
from miai.server.errors import BadRequest, NotFound, Unauthorized
from miai.server.people.automatch import Automatch, Pairing
from miai.server.people.automatch import Request as Wish
from miai.server.people.sessions import Who, who
from miai.server.play.tokens import seat_credential
from miai.server.state import Server
from miai.server.web.games import read_json, server_of
from miai.server.wire.fields import check_fields, get_int, json_type

__all__ = ["routes", "parse_request"]

POLL_S = 0.25
MAX_WAIT_S = 30
DEFAULT_WAIT_S = 25
MAX_GAP = 30
_FIELDS = {"size": False, "time_control": False, "time": False, "rated": False, "rank_range": False}


def parse_request(body: Any) -> Wish:
    """The request's fields, or :class:`BadRequest` naming the bad one."""
    body = check_fields({} if body is None else body, _FIELDS, "automatch request")
    size = get_int(body, "size", low=MIN_SIZE, high=MAX_SIZE)
    if "time" in body and "time_control" in body:
        raise BadRequest("give the time control once: 'time_control' (or its synonym 'time')")
    text = body.get("time_control", body.get("time", "fischer:300:10"))
    if not isinstance(text, str) or len(text) > 64:
        raise BadRequest(f"'time_control' must be a time control's text, not {json_type(text)}")
    try:
        control = str(TimeControl.parse(text))
    except ClockError as e:
        raise BadRequest(f"time_control: {e}") from None
    rated = body.get("rated", True)
    if not isinstance(rated, bool):
        raise BadRequest(f"'rated' must be true or false, not {json_type(rated)}")
    gap = body.get("rank_range", [-3, 3])
    if (
        not isinstance(gap, list)
        or len(gap) != 2
        or not all(isinstance(g, int) and not isinstance(g, bool) and -MAX_GAP <= g <= MAX_GAP for g in gap)
        or gap[0] > gap[1]
    ):
        raise BadRequest(f"'rank_range' is [min, max]: whole ranks from -{MAX_GAP} to {MAX_GAP}, min not above max")
    return Wish(size if size is not None else 19, control, rated, gap[0], gap[1])


def _player(request: Request) -> Who:
    identity = who(request)
    if identity is None or identity.user_id is None:
        raise Unauthorized("automatch is for signed-in players: sign in first")
    return identity


def _automatch(request: Request) -> Automatch:
    return Automatch(server_of(request).engine, request.app.state.automatch_lock)


def _paired(server: Server, pairing: Pairing, user_id: int) -> dict[str, Any]:
    key = server.config.secret
    assert key is not None
    token = seat_credential(key, pairing.game_id, str(pairing.seat), user_id)
    return {"status": "paired", "game": pairing.game_id, "seat": str(pairing.seat), "token": token, "url": f"/g/{pairing.game_id}"}


async def ask(request: Request) -> Response:
    server = server_of(request)
    player = _player(request)
    wish = parse_request(await read_json(request, server.config.max_body_bytes))
    assert player.user_id is not None
    pairing = await _automatch(request).ask(player.user_id, player.name, wish, server.registry.timekeeper.wall_ms())
    if pairing is None:
        return JSONResponse({"status": "waiting"}, status_code=202)
    return JSONResponse(_paired(server, pairing, player.user_id))


async def wait(request: Request) -> Response:
    server = server_of(request)
    player = _player(request)
    assert player.user_id is not None
    unknown = sorted(set(request.query_params) - {"wait"})
    if unknown:
        raise BadRequest(f"unknown parameter {unknown[0]!r}: use wait=SECONDS")
    text = request.query_params.get("wait", str(DEFAULT_WAIT_S))
    if not (text.isascii() and text.isdigit()) or len(text) > 3 or int(text) > MAX_WAIT_S:
        raise BadRequest(f"wait must be a whole number of seconds from 0 to {MAX_WAIT_S}")
    automatch, clock = _automatch(request), server.registry.timekeeper
    deadline = asyncio.get_running_loop().time() + int(text)
    while True:
        found = await automatch.paired(player.user_id, clock.wall_ms())
        if found is False:
            raise NotFound("you have no automatch request: POST /api/automatch first", error="no-request")
        if isinstance(found, Pairing):
            return JSONResponse(_paired(server, found, player.user_id))
        if asyncio.get_running_loop().time() >= deadline:
            return JSONResponse({"status": "waiting"})
        await asyncio.sleep(POLL_S)


async def cancel(request: Request) -> Response:
    server = server_of(request)
    player = _player(request)
    assert player.user_id is not None
    pairing = await _automatch(request).cancel(player.user_id)
    if pairing is not None:
        return JSONResponse(_paired(server, pairing, player.user_id))
    return JSONResponse({"status": "cancelled"})


def routes() -> list[Route]:
    return [
        Route("/api/automatch", ask, methods=["POST"]),
        Route("/api/automatch", wait, methods=["GET"]),
        Route("/api/automatch", cancel, methods=["DELETE"]),
    ]
