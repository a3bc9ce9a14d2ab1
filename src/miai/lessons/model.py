"""Lessons and their steps as values, read from the course's TOML files (docs/LESSONS.md).

A step's position is a diagram (``X`` Black, ``O`` White, ``.`` empty, top row first), the
rules it is played under, an optional handicap and the history played from it (moves,
passes and the dead-stone agreement's steps, which make ko, superko and the marking phase
real). Its task names the judge (:class:`Task`); its texts are per language."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Any

from miai.coords import Color, Point, point_from_gtp
from miai.errors import MiaiError
from miai.i18n import LANGUAGES
from miai.rules import Rules

DATA = Path(__file__).resolve().parent / "data"


class LessonError(MiaiError, ValueError):
    """A lesson file that does not say what a lesson needs (the message names the file and step)."""


class Task(str, Enum):
    """What a step asks; each names the judge of :mod:`miai.lessons.judges`."""

    PLAY = "play"
    """Play any legal move (the rules say which are)."""
    LIBERTY = "liberty"
    """Point at a liberty of the target's chain."""
    ATARI = "atari"
    """Leave the target's chain with one liberty."""
    CAPTURE = "capture"
    """After the move, the target's chains are off the board."""
    FORBIDDEN = "forbidden"
    """Find a move the rules forbid, for the step's reason (suicide, ko, superko)."""
    END = "end"
    """A move (usually a pass) after which play is over."""
    DEAD = "dead"
    """Mark the dead stones: those inside the opponent's pass-alive territory (miai.life)."""
    AGREE = "agree"
    """Accept the proposal on the table if it names the dead stones, else refuse it."""
    COUNT = "count"
    """Black's and White's points, as miai.scoring counts them under the step's rules."""
    WINNER = "winner"
    """Who wins the counted position (komi and the tie rule included), or a draw."""
    FIRST = "first"
    """Who plays next in this position (after handicap stones: White)."""
    HANDICAP = "handicap"
    """Place the handicap stones where miai.handicap puts them."""
    REPLAY = "replay"
    """Replay a numbered record move by move."""


MULTI_POINT = {Task.HANDICAP, Task.REPLAY, Task.DEAD}
"""The tasks whose answer is several points (the others are one word or one point)."""


def texts(value: Any, where: str) -> dict[str, str]:
    """A text in every language (a table ``en = ..., es = ...``); English is required, and
    every language the course speaks."""
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise LessonError(f"{where}: a text must be a table of languages (en = \"...\", es = \"...\")")
    missing = [lang for lang in LANGUAGES if not value.get(lang, "").strip()]
    if missing:
        raise LessonError(f"{where}: no text in {', '.join(missing)}")
    return {lang: " ".join(value[lang].split()) for lang in LANGUAGES}


def parse_diagram(text: str, where: str) -> tuple[int, list[Point], list[Point]]:
    """``(size, black, white)`` of a diagram: one row a line, the top row first, ``X`` Black,
    ``O`` White, ``.`` or ``+`` empty, spaces ignored."""
    rows = [line.replace(" ", "") for line in text.strip().splitlines() if line.strip()]
    size = len(rows)
    if not 2 <= size <= 19 or any(len(r) != size for r in rows):
        raise LessonError(f"{where}: the board must be square, from 2 to 19 lines")
    black, white = [], []
    for i, row in enumerate(rows):
        for col, ch in enumerate(row):
            point = (size - 1 - i, col)
            if ch == "X":
                black.append(point)
            elif ch == "O":
                white.append(point)
            elif ch not in ".+":
                raise LessonError(f"{where}: {ch!r} is not a stone (X, O) nor an empty point (.)")
    return size, black, white


@dataclass(frozen=True)
class Step:
    """One position and one task."""

    lesson: str
    number: int
    size: int
    black: tuple[Point, ...]
    white: tuple[Point, ...]
    rules: Rules
    task: Task
    text: dict[str, str]
    done: dict[str, str] | None = None
    to_play: Color = Color.BLACK
    handicap: int = 0
    stones: int = 0
    """Handicap task: how many stones to place."""
    history: tuple[str, ...] = ()
    target: tuple[Point, ...] = ()
    reason: str | None = None
    seki: tuple[Point, ...] = ()
    record: tuple[str, ...] = ()
    right: tuple[str, ...] = ()
    wrong: tuple[str, ...] = ()

    @property
    def where(self) -> str:
        return f"{self.lesson} step {self.number}"


@dataclass(frozen=True)
class Lesson:
    """A titled list of steps; ``id`` is the file's name (``02-capture``), the course's order."""

    id: str
    title: dict[str, str]
    intro: dict[str, str]
    steps: tuple[Step, ...] = field(default=())


def _points(value: Any, size: int, where: str) -> tuple[Point, ...]:
    words = value.split() if isinstance(value, str) else list(value or [])
    try:
        points = tuple(point_from_gtp(str(w), size) for w in words)
    except MiaiError as e:
        raise LessonError(f"{where}: {e}") from None
    if any(p is None for p in points):
        raise LessonError(f"{where}: a pass is not a point")
    return tuple(p for p in points if p is not None)


def _words(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in (value or []))


def read_step(lesson: str, number: int, raw: dict[str, Any]) -> Step:
    """One ``[[step]]`` table as a :class:`Step` (a :class:`LessonError` says what is wrong)."""
    where = f"{lesson} step {number}"
    known = {"board", "rules", "task", "text", "done", "to_play", "handicap", "history", "target",
             "reason", "seki", "record", "right", "wrong", "stones"}  # fmt: skip
    unknown = sorted(set(raw) - known)
    if unknown:
        raise LessonError(f"{where}: unknown key {unknown[0]!r}")
    size, black, white = parse_diagram(str(raw.get("board", "")), where)
    try:
        task = Task(raw.get("task"))
        rules = Rules.parse(str(raw.get("rules", "japanese")))
        to_play = Color.parse(str(raw.get("to_play", "black")))
    except (ValueError, MiaiError) as e:
        raise LessonError(f"{where}: {e}") from None
    return Step(
        lesson, number, size, tuple(black), tuple(white), rules, task,
        texts(raw.get("text"), f"{where} text"),
        texts(raw["done"], f"{where} done") if "done" in raw else None,
        to_play, int(raw.get("handicap", 0)), int(raw.get("stones", 0)), _words(raw.get("history")),
        _points(raw.get("target"), size, where), raw.get("reason"), _points(raw.get("seki"), size, where),
        tuple(str(raw.get("record", "")).split()), _words(raw.get("right")), _words(raw.get("wrong")),
    )  # fmt: skip


def read_lesson(path: Path) -> Lesson:
    """The lesson in ``path`` (a TOML file: ``title``, ``intro`` and ``[[step]]`` tables)."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise LessonError(f"{path.name}: {e}") from None
    lesson = path.stem
    steps = tuple(read_step(lesson, i + 1, s) for i, s in enumerate(raw.get("step", [])))
    if not steps:
        raise LessonError(f"{lesson}: no step")
    return Lesson(lesson, texts(raw.get("title"), f"{lesson} title"), texts(raw.get("intro"), f"{lesson} intro"), steps)


def read_course(directory: Path = DATA) -> tuple[Lesson, ...]:
    """Every lesson of ``directory``, in the order of the files' names."""
    return tuple(read_lesson(p) for p in sorted(directory.glob("*.toml")))


@cache
def course() -> tuple[Lesson, ...]:
    """The course miai ships (read once)."""
    return read_course()


def find(lesson_id: str, number: int) -> Step | None:
    """Step ``number`` (from 1) of the shipped lesson ``lesson_id``, or None."""
    for lesson in course():
        if lesson.id == lesson_id and 1 <= number <= len(lesson.steps):
            return lesson.steps[number - 1]
    return None
