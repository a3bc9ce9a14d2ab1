"""The problems' API (docs/PROBLEMS.md): ``GET /api/problems`` lists every problem (position,
who plays, goal, level, source) and ``POST /api/problems/{id}`` with ``{"played": [...], "move":
"C3"}`` judges a move after the attempt's moves so far (:func:`miai.problems.judge`: stateless,
the page keeps the attempt): ``outcome`` (right, solved, wrong, illegal), the computer's
``reply`` (its answer or its refutation) and for an illegal move the rule's ``reason``."""

from __future__ import annotations

from functools import cache
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from miai.coords import Move, Point, point_from_gtp, point_to_gtp
from miai.errors import MiaiError
from miai.lessons.positions import stones
from miai.problems import Outcome, Problem, judge, load_problems, start_game
from miai.server.errors import BadRequest, NotFound
from miai.server.web.games import read_json, server_of
from miai.server.wire.fields import check_fields, get_str, get_vertices

__all__ = ["routes"]


def problem_form(problem: Problem) -> dict[str, Any]:
    (r0, c0), (r1, c1) = problem.view
    return {
        "id": problem.id,
        "size": problem.size,
        "stones": {**{point_to_gtp(p): "black" for p in problem.black}, **{point_to_gtp(p): "white" for p in problem.white}},
        "to_play": str(problem.to_play).lower(),
        "goal": problem.goal.value,
        "level": problem.level.value,
        "theme": problem.theme.value if problem.theme else None,
        "targets": sorted(point_to_gtp(p) for p in problem.targets),
        "view": [point_to_gtp((r0, c0)), point_to_gtp((r1, c1))],
        "source": problem.source,
    }


@cache
def problems() -> dict[str, Problem]:
    return {p.id: p for p in load_problems()}


async def list_problems(request: Request) -> Response:
    return JSONResponse({"problems": [problem_form(p) for p in problems().values()]})


def _point(problem: Problem, vertex: str) -> Point:
    try:
        point = point_from_gtp(vertex, problem.size)
    except MiaiError as e:
        raise BadRequest(str(e)) from None
    if point is None:
        raise BadRequest("a pass is no answer to a problem")
    return point


def after(problem: Problem, played: list[Point], move: Point | None, reply: Point | None) -> dict[str, str]:
    """The stones once the attempt's moves, the new move and the computer's reply are played
    (captures taken off by the game)."""
    game = start_game(problem)
    for point in [*played, move, reply]:
        if point is not None:
            game.play(Move(game.to_move, point))
    return stones(game)


async def answer(request: Request) -> Response:
    problem = problems().get(str(request.path_params["id"]))
    if problem is None:
        raise NotFound(f"no problem {request.path_params['id']!r}")
    body = check_fields(await read_json(request, server_of(request).config.max_body_bytes), {"played": False, "move": True}, "move")
    played = [_point(problem, v) for v in get_vertices(body, "played")]
    move = _point(problem, get_str(body, "move", 8) or "")
    try:
        verdict = judge(problem, played, move)
    except ValueError as e:  # the moves played leave the right path: the attempt was over
        raise BadRequest(str(e)) from None
    reply = verdict.reply.point if verdict.reply else None
    return JSONResponse({
        "outcome": verdict.outcome.value,
        "reply": point_to_gtp(reply) if reply else None,
        "reason": verdict.reason.value.replace(" ", "-") if verdict.reason else None,
        "stones": after(problem, played, None if verdict.outcome is Outcome.ILLEGAL else move, reply),
    })


def routes() -> list[Route]:
    return [
        Route("/api/problems", list_problems, methods=["GET"]),
        Route("/api/problems/{id}", answer, methods=["POST"]),
    ]
