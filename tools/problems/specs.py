"""The problems as diagrams, read by ``tools/problems/make.py`` (docs/PROBLEMS.md).

A diagram is the bottom-left corner of the board, top row first, row 1 last: ``X`` black,
``O`` white, ``x``/``o`` the marked stones, ``.`` empty (spaces are ignored). The view shown is
the diagram's rectangle.
"""

from __future__ import annotations

from dataclasses import dataclass

from miai.coords import Color
from miai.problems.model import Goal, Level, Theme

B, W = Color.BLACK, Color.WHITE
KILL, LIVE, CAPTURE, SAVE = Goal.KILL, Goal.LIVE, Goal.CAPTURE, Goal.SAVE
BEGINNER, ELEMENTARY, INTERMEDIATE = Level.BEGINNER, Level.ELEMENTARY, Level.INTERMEDIATE


@dataclass(frozen=True)
class Spec:
    id: str
    size: int
    to_play: Color
    goal: Goal
    level: Level
    theme: Theme | None
    diagram: str
    max_plies: int = 7
    source: str | None = None


SPECS: list[Spec] = [
    Spec("ld-straight-three", 9, B, KILL, BEGINNER, Theme.VITAL_POINT, """
        X X X X X .
        o O O O X .
        . . . O X .
    """),
    Spec("ld-straight-three-live", 9, W, LIVE, BEGINNER, Theme.VITAL_POINT, """
        X X X X X .
        o O O O X .
        . . . O X .
    """),
    Spec("ld-bent-three", 9, B, KILL, BEGINNER, Theme.VITAL_POINT, """
        X X X . . .
        o O X X . .
        . O O X . .
        . . O X . .
    """),
]
