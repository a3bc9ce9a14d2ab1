"""The course's API (docs/SERVER.md §4, docs/LESSONS.md): ``GET /api/learn`` (every lesson, its
steps' positions and texts in every language) and ``POST /api/learn/{lesson}/{step}`` with
``{"answer": ["C3"]}``, judged by the rules core (:mod:`miai.lessons.judges`); and the page
``/learn`` (drawn by static/learn.js). The answer is the verdict as values (the page words it):
``outcome`` (right, wrong, more), ``why``, the rule's ``reason`` as the WebSocket's refusals
name it, the position after the answer."""

from __future__ import annotations

from functools import cache
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from miai.coords import point_from_gtp, point_to_gtp
from miai.game import Game
from miai.lessons.judges import Verdict, judge
from miai.lessons.model import Lesson, Step, course, find
from miai.lessons.positions import start, stones
from miai.server.errors import BadRequest, NotFound, Unauthorized
from miai.server.people.progress import (
    read_progress,
    read_solved,
    record_progress,
    record_solved,
)
from miai.server.people.sessions import who
from miai.server.web.games import read_json, server_of
from miai.server.web.pages import page, page_title
from miai.server.web.problems import problems
from miai.server.wire.fields import check_fields, get_int, get_str, get_vertices

__all__ = ["routes"]


def position(game: Game) -> dict[str, Any]:
    """The board as the page draws it: stones, whose turn, the ko point, the last move."""
    last = game.last_move
    return {
        "stones": stones(game),
        "to_move": str(game.to_act or game.to_move).lower(),
        "ko": point_to_gtp(game.ko_point) if game.ko_point else None,
        "last": point_to_gtp(last.point) if last and last.point else None,
    }


def figure(step: Step) -> dict[str, Any] | None:
    """A record's moves as a numbered figure: ``{"stones": ..., "numbers": {"E5": 1, ...}}``."""
    if not step.record:
        return None
    shown: dict[str, str] = {}
    numbers: dict[str, int] = {}
    for n, word in enumerate(step.record, start=1):
        point = point_from_gtp(word, step.size)
        if point is not None:
            shown[point_to_gtp(point)] = "black" if n % 2 else "white"
            numbers[point_to_gtp(point)] = n
    return {"stones": shown, "numbers": numbers}


def proposal(game: Game) -> list[str]:
    """The dead stones of the proposal waiting for an answer in the marking phase, if any."""
    pending = game.marking.pending if game.marking else None
    return [point_to_gtp(p) for p in sorted(pending.dead)] if pending else []


def step_form(step: Step) -> dict[str, Any]:
    game = start(step)
    return {
        "task": step.task.value,
        "size": step.size,
        "rules": step.rules.to_text(),
        "text": step.text,
        "done": step.done,
        "stones_wanted": step.stones,
        "moves_wanted": len(step.record),
        "figure": figure(step),
        "proposal": proposal(game),
        **position(game),
    }


def lesson_form(lesson: Lesson) -> dict[str, Any]:
    return {"id": lesson.id, "title": lesson.title, "intro": lesson.intro, "steps": [step_form(s) for s in lesson.steps]}


@cache
def course_form() -> dict[str, Any]:
    return {"lessons": [lesson_form(lesson) for lesson in course()]}


def verdict_form(verdict: Verdict) -> dict[str, Any]:
    score = verdict.score
    return {
        "outcome": verdict.outcome.value,
        "why": verdict.why.value if verdict.why else None,
        "reason": verdict.reason.value.replace(" ", "-") if verdict.reason else None,
        "move": verdict.vertex,
        "repeats_move": verdict.repeats_move,
        "liberties": verdict.liberties,
        "number": verdict.number,
        "points": verdict.points,
        "missed": verdict.missed,
        "alive": verdict.alive,
        "colors": verdict.colors,
        "winner": verdict.winner,
        "score": None if score is None else {"black": score.black.total, "white": score.white.total, "result": str(score.result)},
        "dead": [point_to_gtp(p) for p in sorted(score.dead_stones)] if score else [],
        **position(verdict.game),
    }


async def get_course(request: Request) -> Response:
    return JSONResponse(course_form())


async def answer(request: Request) -> Response:
    lesson, number = str(request.path_params["lesson"]), int(request.path_params["step"])
    step = find(lesson, number)
    if step is None:
        raise NotFound(f"no step {number} in lesson {lesson!r}")
    body = check_fields(await read_json(request, server_of(request).config.max_body_bytes), {"answer": True}, "answer")
    return JSONResponse(verdict_form(judge(step, get_vertices(body, "answer"))))


def signed_in_user(request: Request) -> int | None:
    person = who(request)
    return person.user_id if person else None


async def progress_form(engine: AsyncEngine, user_id: int) -> dict[str, Any]:
    return {"signed_in": True, "progress": await read_progress(engine, user_id), "problems": await read_solved(engine, user_id)}


async def get_progress(request: Request) -> Response:
    """The signed-in user's progress (``{"signed_in": true, "progress": {lesson: steps},
    "problems": [solved ids]}``); a guest's is kept by the page in the browser (``"signed_in": false``)."""
    user_id = signed_in_user(request)
    if user_id is None:
        return JSONResponse({"signed_in": False, "progress": {}, "problems": []})
    return JSONResponse(await progress_form(server_of(request).engine, user_id))


async def record_lesson(engine: AsyncEngine, user_id: int, body: dict[str, Any], now_ms: int) -> None:
    """``{"lesson": "02-capture", "steps": 3}``: the user solved that many steps of the lesson."""
    lesson = next((l for l in course() if l.id == get_str(body, "lesson", 64)), None)
    if lesson is None:
        raise BadRequest(f"no lesson {body.get('lesson')!r}")
    steps = get_int(body, "steps", low=1, high=len(lesson.steps))
    if steps is None:
        raise BadRequest("progress: the field 'steps' is required with 'lesson'")
    await record_progress(engine, user_id, lesson.id, steps, now_ms)


async def put_progress(request: Request) -> Response:
    """``{"lesson": "02-capture", "steps": 3}`` or ``{"problem": "cap-atari-escape-19"}``: the
    signed-in user solved that many steps of a lesson, or that problem."""
    user_id = signed_in_user(request)
    if user_id is None:
        raise Unauthorized("only a signed-in user's progress is kept by the server")
    server = server_of(request)
    body = check_fields(await read_json(request, server.config.max_body_bytes), {"lesson": False, "steps": False, "problem": False}, "progress")
    now_ms = server.registry.timekeeper.wall_ms()
    if "problem" not in body:
        await record_lesson(server.engine, user_id, body, now_ms)
    elif "lesson" in body or "steps" in body:
        raise BadRequest("progress: either a lesson's steps or a problem, not both")
    elif (problem := get_str(body, "problem", 64)) in problems():
        await record_solved(server.engine, user_id, str(problem), now_ms)
    else:
        raise BadRequest(f"no problem {problem!r}")
    return JSONResponse(await progress_form(server.engine, user_id))


async def learn_page(request: Request) -> Response:
    return page(page_title(request, "Learn to play Go"))


def routes() -> list[Route]:
    return [
        Route("/learn", learn_page, methods=["GET"]),
        Route("/api/learn", get_course, methods=["GET"]),
        Route("/api/learn/progress", get_progress, methods=["GET"]),
        Route("/api/learn/progress", put_progress, methods=["PUT"]),
        Route("/api/learn/{lesson}/{step:int}", answer, methods=["POST"]),
    ]
