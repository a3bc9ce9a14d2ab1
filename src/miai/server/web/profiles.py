"""Players seen from outside: their pages and games, their own list, and a seat's credential
for a signed-in player in any browser (docs/SERVER.md §6).

| request | answer |
|---|---|
| ``GET /api/players/{name}`` | ``200 {"name", "rating", "deviation", "volatility", "rank", "rated_games", "games", "wins", "losses", "history": [{"game", "rating", "deviation", "rank", "ended"}]}`` |
| ``GET /api/players/{name}/games?before=ID&limit=N`` | ``200 {"games": [...], "next": ID \\| null}``, newest first |
| ``GET /api/me/games?status=ongoing\\|finished\\|all&before=ID&limit=N`` | the same, each with ``seat``, ``your_turn``, ``time_left_ms``; and ``your_turn`` (how many wait for you) |
| ``GET /api/games/{id}/seat`` | ``200 {"id", "seat", "token", "tokens", "url"}`` for a signed-in player who holds a seat of the game |
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from miai.coords import Color
from miai.server.errors import BadRequest, NotFound, Unauthorized
from miai.server.people.accounts import username_key
from miai.server.people.ratings import history, rating_of
from miai.server.people.sessions import Who, who
from miai.server.play.seats import GameRecord
from miai.server.play.tokens import GAME_ID, seat_credential
from miai.server.state import Server
from miai.server.storage.histories import FINISHED, ONGOING, Histories
from miai.server.storage.schema import users
from miai.server.web.games import server_of

__all__ = ["routes", "own_seat", "game_listing"]

DEFAULT_PAGE, MAX_PAGE = 20, 100
_STATUSES = {"ongoing": ONGOING, "finished": FINISHED, "all": ONGOING + FINISHED}


def _signed_in(conn: HTTPConnection) -> Who:
    identity = who(conn)
    if identity is None or identity.user_id is None:
        raise Unauthorized("sign in first: this is a signed-in player's own")
    return identity


def game_listing(record: GameRecord) -> dict[str, Any]:
    """A game in a player's list."""
    return {
        "id": record.id,
        "black": record.black_name,
        "white": record.white_name,
        "accounts": {c: record.user_id(Color.parse(c)) is not None for c in ("black", "white")},
        "result": record.result,
        "rated": record.rated,
        "size": record.size,
        "handicap": record.handicap,
        "komi": record.komi,
        "time": record.time_control,
        "status": record.status,
        "to_move": record.to_move,
        "deadline_ms": record.deadline_ms,
        "created": record.created_ms,
        "ended": record.ended_ms,
        "url": f"/g/{record.id}",
        "review": f"/r/{record.id}",
        "sgf": f"/api/games/{record.id}/sgf",
    }


def _mine(record: GameRecord, user_id: int, now_ms: int) -> dict[str, Any]:
    seat = record.seat_of_user(user_id)
    waiting = record.status != "finished" and record.to_move is not None and record.user_id(Color.parse(record.to_move)) == user_id
    left = max(0, record.deadline_ms - now_ms) if record.deadline_ms is not None and record.status != "finished" else None
    return {**game_listing(record), "seat": str(seat) if seat else None, "your_turn": waiting, "time_left_ms": left}


def _page_args(request: Request, allowed: set[str]) -> tuple[str | None, int]:
    unknown = sorted(set(request.query_params) - allowed)
    if unknown:
        raise BadRequest(f"unknown parameter {unknown[0]!r}: use {', '.join(sorted(allowed))}")
    before = request.query_params.get("before")
    if before is not None and not GAME_ID.fullmatch(before):
        raise BadRequest(f"before must be a game's id, not {before[:40]!r}")
    text = request.query_params.get("limit", str(DEFAULT_PAGE))
    if not (text.isascii() and text.isdigit()) or len(text) > 6 or not 1 <= int(text) <= MAX_PAGE:
        raise BadRequest(f"limit must be a whole number from 1 to {MAX_PAGE}, not {text[:20]!r}")
    return before, int(text)


async def _player(server: Server, name: str) -> tuple[int, str]:
    """The id and name of the account ``name`` (any case), or :class:`NotFound`."""
    if len(name) > 64:
        raise NotFound("no such player")
    async with server.engine.connect() as conn:
        query = sa.select(users.c.id, users.c.username).where(users.c.username_key == username_key(name))
        row = (await conn.execute(query)).first()
    if row is None:
        raise NotFound(f"no player {name!r}")
    return int(row.id), str(row.username)


async def player(request: Request) -> Response:
    server = server_of(request)
    user_id, name = await _player(server, str(request.path_params["name"]))
    rating = await rating_of(server.engine, user_id)
    counts = await Histories(server.engine).counts(user_id)
    steps = await history(server.engine, user_id)
    return JSONResponse(
        {
            "name": name,
            **rating.to_json(),
            "games": counts.games,
            "wins": counts.wins,
            "losses": counts.losses,
            "history": [s.to_json() for s in steps],
        }
    )


async def player_games(request: Request) -> Response:
    server = server_of(request)
    before, limit = _page_args(request, {"before", "limit"})
    user_id, _ = await _player(server, str(request.path_params["name"]))
    records, cursor = await Histories(server.engine).page(user_id, statuses=_STATUSES["all"], before=before, limit=limit)
    return JSONResponse({"games": [game_listing(r) for r in records], "next": cursor})


async def my_games(request: Request) -> Response:
    server = server_of(request)
    user_id = _signed_in(request).user_id
    assert user_id is not None
    before, limit = _page_args(request, {"before", "limit", "status"})
    status = request.query_params.get("status", "all")
    if status not in _STATUSES:
        raise BadRequest(f"status must be ongoing, finished or all, not {status[:20]!r}")
    histories = Histories(server.engine)
    records, cursor = await histories.page(user_id, statuses=_STATUSES[status], before=before, limit=limit)
    now = server.registry.timekeeper.wall_ms()
    return JSONResponse(
        {"games": [_mine(r, user_id, now) for r in records], "next": cursor, "your_turn": await histories.waiting(user_id)}
    )


async def own_seat(server: Server, conn: HTTPConnection, game_id: str) -> dict[Color, str]:
    """The credentials of the seats of ``game_id`` that the signed-in player of ``conn`` holds
    (none for a guest, or a game they do not play)."""
    identity = who(conn)
    key = server.config.secret
    if identity is None or identity.user_id is None or key is None or not GAME_ID.fullmatch(game_id):
        return {}
    record = await server.store.load_game(game_id)
    if record is None:
        return {}
    return {
        c: seat_credential(key, game_id, str(c), identity.user_id)
        for c in (Color.BLACK, Color.WHITE)
        if record.user_id(c) == identity.user_id
    }


async def seat(request: Request) -> Response:
    server = server_of(request)
    _signed_in(request)
    game_id = str(request.path_params["id"])
    tokens = await own_seat(server, request, game_id)
    if not tokens:
        raise NotFound("you hold no seat of this game (or there is no such game)", error="no-seat")
    first = min(tokens)
    return JSONResponse(
        {
            "id": game_id,
            "seat": str(first),
            "token": tokens[first],
            "tokens": {str(c): t for c, t in tokens.items()},
            "url": f"/g/{game_id}",
        }
    )


def routes() -> list[Route]:
    return [
        Route("/api/players/{name}", player, methods=["GET"]),
        Route("/api/players/{name}/games", player_games, methods=["GET"]),
        Route("/api/me/games", my_games, methods=["GET"]),
        Route("/api/games/{id}/seat", seat, methods=["GET"]),
    ]
