"""The lobby's lists and joining an open game (docs/SERVER.md §4.1).

``GET /api/games?status=open|live&limit=N`` lists the games a visitor can join (``open``: created
in the last hour with ``"open": true`` and White's seat still free) or watch (``live``: going on,
with both seats taken). ``POST /api/games/{id}/join`` gives the free seat to the first session
that asks: the server mints the seat's token at that moment and stores its hash in place of the
free-seat marker (:func:`miai.server.play.tokens.free_seat_marker`) with a conditional update, so
exactly one joiner gets it, whichever process answers; the token is shown once, to that joiner.
No invitation secret has to be kept anywhere before someone joins: until then no token for the
seat exists at all.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from miai.clock import TimeControl
from miai.coords import Color
from miai.errors import ClockError
from miai.ratings import rank_of
from miai.server.errors import BadRequest
from miai.server.people.ratings import ratings_of
from miai.server.people.sessions import who
from miai.server.play.create import OPEN_FOR_MS
from miai.server.play.seats import GameRecord
from miai.server.play.tokens import FREE_SEAT
from miai.server.web.games import server_of

__all__ = ["routes", "listing"]

MAX_LIST = 100
DEFAULT_LIST = 20


def _describe(time_control: str) -> str:
    try:
        return TimeControl.parse(time_control).describe()
    except ClockError:  # pragma: no cover - stored controls are canonical
        return time_control


def listing(record: GameRecord, ranks: dict[int, str] | None = None) -> dict[str, Any]:
    """One game as the lobby lists it (with its signed-in players' ``ranks`` by user id)."""
    free = (record.white_token_hash or "").startswith(FREE_SEAT)
    ranks = ranks or {}
    seat_ranks = {c: ranks.get(u) if (u := record.user_id(c)) is not None else None for c in (Color.BLACK, Color.WHITE)}
    return {
        "id": record.id,
        "size": record.size,
        "rules": record.rules,
        "komi": record.komi,
        "handicap": record.handicap,
        "time": record.time_control,
        "time_describe": _describe(record.time_control),
        "black": record.black_kind,
        "white": record.white_kind,
        "players": {"black": record.black_name, "white": None if free else record.white_name},
        "status": record.status,
        "v": record.v,
        "created_ms": record.created_ms,
        "open": free,
        "rated": record.rated,
        "ranks": {str(c): rank for c, rank in seat_ranks.items()},
        "url": f"/g/{record.id}",
    }


async def list_games(request: Request) -> Response:
    server = server_of(request)
    unknown = sorted(set(request.query_params) - {"status", "limit"})
    if unknown:
        raise BadRequest(f"unknown parameter {unknown[0]!r}: use status=open|live and limit=N")
    status = request.query_params.get("status", "live")
    text = request.query_params.get("limit", str(DEFAULT_LIST))
    if not (text.isascii() and text.isdigit()) or len(text) > 6 or not 1 <= int(text) <= MAX_LIST:
        raise BadRequest(f"limit must be a whole number from 1 to {MAX_LIST}, not {text!r}")
    limit = int(text)
    if status == "open":
        records = await server.store.open_games(server.registry.timekeeper.wall_ms() - OPEN_FOR_MS, limit)
    elif status == "live":
        records = await server.store.live_games(limit)
    else:
        raise BadRequest(f"status must be open or live, not {status!r}")
    users = sorted({u for r in records for u in (r.black_user_id, r.white_user_id) if u is not None})
    ranks = {u: str(rank_of(p.rating.rating)) for u, p in (await ratings_of(server.engine, users)).items()}
    return JSONResponse({"status": status, "games": [listing(r, ranks) for r in records]})


async def join(request: Request) -> Response:
    server = server_of(request)
    identity = who(request)
    name = identity.name if identity is not None else None
    game_id = str(request.path_params["id"])
    person = identity.id if identity is not None else None
    token = await server.router.call(game_id, "take-seat", {"name": name, "person": person})  # on the game's owner
    return JSONResponse({"id": game_id, "seat": "white", "white_token": token, "url": f"/g/{game_id}"})


def routes() -> list[Route]:
    """Before :func:`miai.server.web.games.routes`: its ``POST /api/games/{id}/{action}`` would take ``join``."""
    return [
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games/{id}/join", join, methods=["POST"]),
    ]
