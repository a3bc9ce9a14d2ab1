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

SPECS += [
    Spec("ld-bulky-five", 9, B, KILL, ELEMENTARY, Theme.VITAL_POINT, """
        X X X X . .
        o O O X X .
        . . O O X .
        . . . O X .
    """),
    Spec("ld-bent-three-live", 9, W, LIVE, BEGINNER, Theme.VITAL_POINT, """
        X X X . . .
        o O X X . .
        . O O X . .
        . . O X . .
    """),
    Spec("ld-second-line-four", 9, B, KILL, BEGINNER, Theme.EYE_SPACE, """
        X X X X X X .
        . o O O O X .
        . . . . O X .
    """),
    Spec("ld-second-line-five", 9, B, KILL, ELEMENTARY, Theme.EYE_SPACE, """
        X X X X X X X .
        . o O O O O X .
        . . . . . O X .
    """),
    Spec("ld-second-line-five-live", 9, W, LIVE, ELEMENTARY, Theme.EYE_SPACE, """
        X X X X X X X .
        . o O O O O X .
        . . . . . O X .
    """),
    Spec("ld-pyramid-four", 9, B, KILL, ELEMENTARY, Theme.VITAL_POINT, """
        X X X X X .
        o O O O X .
        O . O O X .
        . . . O X .
    """),
    Spec("ld-pyramid-four-live", 9, W, LIVE, ELEMENTARY, Theme.VITAL_POINT, """
        X X X X X .
        o O O O X .
        O . O O X .
        . . . O X .
    """),
    Spec("ld-corner-six-live", 9, W, LIVE, INTERMEDIATE, Theme.EYE_SPACE, """
        X X X X X .
        o O O O X .
        . . . O X .
        . . . O X .
    """),
    Spec("ld-corner-six-kill", 9, B, KILL, INTERMEDIATE, Theme.EYE_SPACE, """
        X X X X X .
        o O O O X .
        . . . O X .
        . . . O X .
    """),
]

SPECS += [
    Spec("cap-atari-escape", 9, B, CAPTURE, BEGINNER, Theme.ATARI, """
        . . . . . . .
        . . . X . . .
        . . X o X . .
        . . . . . . .
        . . . O . . .
        . . . . . . .
        . . . . . . .
    """),
    Spec("cap-two-in-atari", 9, B, CAPTURE, BEGINNER, Theme.ATARI, """
        . . . . . . .
        . . X X . . .
        . X o O . O .
        . . X X . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """),
    Spec("cap-ladder", 9, B, CAPTURE, BEGINNER, Theme.LADDER, """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . X o . . . .
        . . . . X X . . .
        . . . . . . . . .
        . . . . . . . . .
    """, max_plies=9),
    Spec("cap-ladder-left", 9, B, CAPTURE, BEGINNER, Theme.LADDER, """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . o X . . .
        . . . X X . . . .
        . . . . . . . . .
        . . . . . . . . .
    """, max_plies=9),
    Spec("cap-ladder-to-edge", 9, B, CAPTURE, ELEMENTARY, Theme.LADDER, """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . X o . . . . .
        . . . X X . . . .
        . . . . . . . . .
    """, max_plies=9),
    Spec("save-connect", 9, B, SAVE, BEGINNER, Theme.ESCAPE, """
        . . . . . . .
        . . . O . . .
        . . O x O . .
        . . O X . . .
        . . . . . . .
    """),
    Spec("save-extend", 9, B, SAVE, BEGINNER, Theme.ESCAPE, """
        . . . . . . .
        . . . . . . .
        . . . O . . .
        . . O x . . .
        . . . O . . .
        . . . . . . .
    """),
]

SPECS += [
    Spec("ld-bent-three-19", 19, B, KILL, BEGINNER, Theme.VITAL_POINT, """
        X X X . . . .
        o O X X . . .
        . O O X . . .
        . . O X . . .
    """),
    Spec("ld-second-line-four-live", 9, W, LIVE, BEGINNER, Theme.EYE_SPACE, """
        X X X X X X .
        . o O O O X .
        . . . . O X .
    """),
    Spec("ld-bent-four-corner", 9, B, KILL, INTERMEDIATE, Theme.VITAL_POINT, """
        X X X X . .
        O O O X . .
        o . O X . .
        . . O X . .
    """),
    Spec("ld-big-eye-kill", 19, B, KILL, INTERMEDIATE, Theme.EYE_SPACE, """
        X X X X X X .
        O O o O X . .
        O . . O X . .
        . . . O X . .
    """),
    Spec("ld-big-eye-live", 19, W, LIVE, INTERMEDIATE, Theme.EYE_SPACE, """
        X X X X X X .
        O O o O X . .
        O . . O X . .
        . . . O X . .
    """),
    Spec("ld-white-to-kill-bent-three", 9, W, KILL, BEGINNER, Theme.VITAL_POINT, """
        O O O . . .
        x X O O . .
        . X X O . .
        . . X O . .
    """),
    Spec("ld-black-to-live-straight-three", 9, B, LIVE, BEGINNER, Theme.VITAL_POINT, """
        O O O O O .
        x X X X O .
        . . . X O .
    """),
    Spec("ld-white-to-kill-bulky", 19, W, KILL, ELEMENTARY, Theme.VITAL_POINT, """
        O O O O . .
        x X X O O .
        . . X X O .
        . . . X O .
    """),
    Spec("ld-black-to-live-pyramid", 9, B, LIVE, ELEMENTARY, Theme.VITAL_POINT, """
        O O O O O .
        x X X X O .
        X . X X O .
        . . . X O .
    """),
    Spec("ld-white-to-kill-pyramid", 9, W, KILL, ELEMENTARY, Theme.VITAL_POINT, """
        O O O O O .
        x X X X O .
        X . X X O .
        . . . X O .
    """),
    Spec("ld-black-to-live-second-line", 19, B, LIVE, ELEMENTARY, Theme.EYE_SPACE, """
        O O O O O O O .
        . x X X X X O .
        . . . . . X O .
    """),
    Spec("ld-white-to-kill-second-line", 19, W, KILL, ELEMENTARY, Theme.EYE_SPACE, """
        O O O O O O O .
        . x X X X X O .
        . . . . . X O .
    """),
    Spec("cap-ladder-19", 19, B, CAPTURE, ELEMENTARY, Theme.LADDER, """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . X o . . . . .
        . . . X X . . . .
        . . . . . . . . .
        . . . . . . . . .
    """, max_plies=9),
    Spec("save-extend-2", 9, W, SAVE, BEGINNER, Theme.ESCAPE, """
        . . . . . . .
        . . . . . . .
        . . . X . . .
        . . X o . . .
        . . . X . . .
        . . . . . . .
    """),
    Spec("save-connect-2", 9, W, SAVE, BEGINNER, Theme.ESCAPE, """
        . . . . . . .
        . . . X . . .
        . . X o X . .
        . . X O . . .
        . . . . . . .
    """),
]

SPECS += [
    Spec("ld-straight-three-kill-19", 19, B, KILL, BEGINNER, Theme.VITAL_POINT, """
        X X X X X .
        o O O O X .
        . . . O X .
    """),
    Spec("ld-bulky-five-19", 19, B, KILL, ELEMENTARY, Theme.VITAL_POINT, """
        X X X X . .
        o O O X X .
        . . O O X .
        . . . O X .
    """),
    Spec("ld-pyramid-four-19", 19, W, LIVE, ELEMENTARY, Theme.VITAL_POINT, """
        X X X X X .
        o O O O X .
        O . O O X .
        . . . O X .
    """),
    Spec("ld-corner-six-kill-19", 19, B, KILL, INTERMEDIATE, Theme.EYE_SPACE, """
        X X X X X .
        o O O O X .
        . . . O X .
        . . . O X .
    """),
    Spec("ld-bent-four-corner-19", 19, B, KILL, INTERMEDIATE, Theme.VITAL_POINT, """
        X X X X . .
        O O O X . .
        o . O X . .
        . . O X . .
    """),
    Spec("ld-big-eye-kill-9", 9, B, KILL, INTERMEDIATE, Theme.EYE_SPACE, """
        X X X X X X .
        O O o O X . .
        O . . O X . .
        . . . O X . .
    """),
    Spec("ld-second-line-four-19", 19, B, KILL, BEGINNER, Theme.EYE_SPACE, """
        X X X X X X .
        . o O O O X .
        . . . . O X .
    """),
    Spec("ld-white-to-kill-straight-three", 9, W, KILL, BEGINNER, Theme.VITAL_POINT, """
        O O O O O .
        x X X X O .
        . . . X O .
    """),
    Spec("ld-black-to-live-bent-three", 9, B, LIVE, BEGINNER, Theme.VITAL_POINT, """
        O O O . . .
        x X O O . .
        . X X O . .
        . . X O . .
    """),
    Spec("ld-black-to-live-big-eye", 19, B, LIVE, INTERMEDIATE, Theme.EYE_SPACE, """
        O O O O O O .
        X X x X O . .
        X . . X O . .
        . . . X O . .
    """),
    Spec("ld-white-to-kill-big-eye", 19, W, KILL, INTERMEDIATE, Theme.EYE_SPACE, """
        O O O O O O .
        X X x X O . .
        X . . X O . .
        . . . X O . .
    """),
    Spec("cap-ladder-white-19", 19, W, CAPTURE, BEGINNER, Theme.LADDER, """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . O x . . .
        . . . O O . .
        . . . . . . .
        . . . . . . .
    """, max_plies=9),
    Spec("save-extend-19", 19, B, SAVE, BEGINNER, Theme.ESCAPE, """
        . . . . . . .
        . . . . . . .
        . . . O . . .
        . . O x . . .
        . . . O . . .
        . . . . . . .
    """),
    Spec("save-connect-19", 19, W, SAVE, BEGINNER, Theme.ESCAPE, """
        . . . . . . .
        . . . X . . .
        . . X o X . .
        . . X O . . .
        . . . . . . .
    """),
    Spec("cap-atari-escape-19", 19, W, CAPTURE, BEGINNER, Theme.ATARI, """
        . . . . . . .
        . . . O . . .
        . . O x O . .
        . . . . . . .
        . . . X . . .
        . . . . . . .
        . . . . . . .
    """),
    Spec("cap-two-in-atari-19", 19, W, CAPTURE, BEGINNER, Theme.ATARI, """
        . . . . . . .
        . . O O . . .
        . O x X . X .
        . . O O . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """),
]

SPECS += [
    Spec("race-three-liberties", 9, B, CAPTURE, ELEMENTARY, Theme.RACE, """
        . . . . . . . .
        O O O X X X X .
        O O O X X X X .
        O . X o . X X .
        O . X O . X X .
        O . X O . X X .
    """),
    Spec("race-three-liberties-white", 9, W, CAPTURE, ELEMENTARY, Theme.RACE, """
        . . . . . . . .
        X X X O O O O .
        X X X O O O O .
        X . O x . O O .
        X . O X . O O .
        X . O X . O O .
    """),
    Spec("race-outside-liberties", 9, B, CAPTURE, INTERMEDIATE, Theme.RACE, """
        . . . . . . . . .
        O O O X X X X X .
        O O O X X X X X .
        O . X o . . X X .
        O . X O . . X X .
        O . X O O . X X .
    """),
    Spec("race-corner", 9, B, CAPTURE, INTERMEDIATE, Theme.RACE, """
        . . . . . . . .
        O O O O X X X .
        O . . X o O X .
        O . . X O . X .
        O O O X O . X .
    """),
    Spec("snapback", 9, B, CAPTURE, ELEMENTARY, Theme.SNAPBACK, """
        . . . . . . .
        O O O . . . .
        O O O O . . .
        O . X X X X .
        O X X X X X .
        X O o O X . .
        . O . X X . .
    """),
    Spec("snapback-white", 19, W, CAPTURE, ELEMENTARY, Theme.SNAPBACK, """
        . . . . . . .
        X X X . . . .
        X . O O O O .
        X O O O O O .
        O X x X O . .
        . X . O O . .
    """),
    Spec("net-or-ladder", 9, B, CAPTURE, ELEMENTARY, Theme.NET, """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . X o . . . . .
        . . X X X . . . .
        . . . . . . . . .
    """),
    Spec("ladder-broken-atari", 9, B, CAPTURE, ELEMENTARY, Theme.LADDER, """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . O . .
        . . . . . . . . .
        . . . . . . . . .
        . . . X o . . . .
        . . . . X X . . .
        . . . . . . . . .
    """),
    Spec("save-by-capturing", 9, B, SAVE, BEGINNER, Theme.ESCAPE, """
        . . . . . . .
        X X X . . . .
        O O X X . . .
        x O . O X . .
        . X O . O X .
    """),
]

SPECS += [
    Spec("ld-third-line-four", 19, B, KILL, INTERMEDIATE, Theme.VITAL_POINT, """
        X X X X X X .
        o O O O X . .
        . . . O X . .
        . . . O X . .
    """),
    Spec("ld-third-line-four-live", 19, W, LIVE, INTERMEDIATE, Theme.EYE_SPACE, """
        X X X X X X .
        o O O O X . .
        . . . O X . .
        . . . O X . .
    """),
    Spec("ld-white-to-kill-third-line-four", 9, W, KILL, INTERMEDIATE, Theme.VITAL_POINT, """
        O O O O O O .
        x X X X O . .
        . . . X O . .
        . . . X O . .
    """),
    Spec("ld-black-to-live-third-line-four", 9, B, LIVE, INTERMEDIATE, Theme.EYE_SPACE, """
        O O O O O O .
        x X X X O . .
        . . . X O . .
        . . . X O . .
    """),
]

SPECS += [
    Spec("cap-second-line", 9, B, CAPTURE, BEGINNER, None, """
        . . . . . . .
        . . . . . . .
        . . X . . . .
        . X o . . . .
        . . . . . . .
    """),
]

SPECS += [
    Spec("save-by-capturing-white", 19, W, SAVE, BEGINNER, Theme.ESCAPE, """
        . . . . . . .
        O O O . . . .
        X X O O . . .
        o X . X O . .
        . O X . X O .
    """),
    Spec("cap-second-line-white", 19, W, CAPTURE, BEGINNER, None, """
        . . . . . . .
        . . . . . . .
        . . O . . . .
        . O x . . . .
        . . . . . . .
    """),
    Spec("snapback-19", 19, B, CAPTURE, INTERMEDIATE, Theme.SNAPBACK, """
        . . . . . . .
        O O O . . . .
        O O O O . . .
        O . X X X X .
        O X X X X X .
        X O o O X . .
        . O . X X . .
    """),
]
