"""What a problem is: a position, who plays, the goal, and the solution tree (docs/PROBLEMS.md).

Values only, read from the SGF files by :mod:`miai.problems.loader` and walked by
:mod:`miai.problems.judge`; nothing here touches a board.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from miai.coords import Color, Move, Point


class Goal(str, Enum):
    """What the player must achieve; the value is the SGF text of the ``GO`` property."""

    KILL = "kill"
    """Kill the marked group (or the only group of the other colour in view)."""
    LIVE = "live"
    """Make the marked group live."""
    CAPTURE = "capture"
    """Capture the marked stones."""
    SAVE = "save"
    """Save the marked stones from capture."""

    @property
    def kind(self) -> Kind:
        return Kind.LIFE_AND_DEATH if self in (Goal.KILL, Goal.LIVE) else Kind.CAPTURING


class Kind(str, Enum):
    """The two families of problems."""

    LIFE_AND_DEATH = "life-and-death"
    CAPTURING = "capturing"


class Level(str, Enum):
    """How hard a problem is, from the first problems after the lessons up."""

    BEGINNER = "beginner"
    ELEMENTARY = "elementary"
    INTERMEDIATE = "intermediate"


class Theme(str, Enum):
    """The technique a problem teaches (the ``TH`` property)."""

    ATARI = "atari"
    """Capture in atari, or count liberties to capture first."""
    LADDER = "ladder"
    NET = "net"
    SNAPBACK = "snapback"
    RACE = "race"
    """A capturing race: who has more liberties."""
    ESCAPE = "escape"
    """Stones in danger: run, connect or capture to save them."""
    DOUBLE_ATARI = "double-atari"
    VITAL_POINT = "vital-point"
    """Take the point that decides between one eye and two."""
    EYE_SPACE = "eye-space"
    """Make the eye space smaller (to kill) or larger (to live)."""
    THROW_IN = "throw-in"


class Verdict(str, Enum):
    """A move of the player's, as the solution tree marks it (SGF ``TE`` or ``BM``)."""

    RIGHT = "right"
    WRONG = "wrong"


@dataclass(frozen=True, slots=True)
class Node:
    """One move of the solution tree and the moves that may follow it.

    A move of the player's carries a :class:`Verdict`; a move of the computer's carries
    None. After a player's move, ``replies[0]`` is what the computer plays (the refutation of a
    wrong move, the best resistance to a right one); the other replies are other answers the
    tree also covers. After a computer's move, ``replies`` are the player's moves the tree
    knows, right and wrong. A right move with no reply solves the problem.
    """

    move: Move
    verdict: Verdict | None
    replies: tuple[Node, ...] = ()

    def reply_at(self, point: Point | None) -> Node | None:
        """The child played at ``point`` (None for a pass), if the tree knows it."""
        for child in self.replies:
            if child.move.point == point:
                return child
        return None

    @property
    def right_replies(self) -> tuple[Node, ...]:
        return tuple(c for c in self.replies if c.verdict is Verdict.RIGHT)


@dataclass(frozen=True, slots=True)
class Problem:
    """A problem as its file states it: ``Problem.id`` is the file's name without ``.sgf``."""

    id: str
    size: int
    black: frozenset[Point]
    white: frozenset[Point]
    to_play: Color
    goal: Goal
    targets: frozenset[Point]
    """The marked stones (SGF ``MA``): the group to kill, to save, to capture or to make live."""
    level: Level
    theme: Theme | None
    view: tuple[Point, Point]
    """The corners ``(lowest row, lowest col), (highest row, highest col)`` of the part of the
    board to show (SGF ``VW``; the whole board when absent)."""
    source: str
    """Where the problem comes from (SGF ``SO``)."""
    start: Node
    """The position's root: its replies are the player's first moves, right and wrong; its
    move is a pass of the computer's colour and means nothing."""

    @property
    def kind(self) -> Kind:
        return self.goal.kind

    @property
    def right_first_moves(self) -> tuple[Point, ...]:
        """Every first move that solves the problem (the points of the right first moves)."""
        return tuple(c.move.point for c in self.start.right_replies if c.move.point is not None)

    def stones(self, color: Color) -> frozenset[Point]:
        """The stones of ``color`` in the position."""
        return self.black if color is Color.BLACK else self.white

    def in_view(self, point: Point) -> bool:
        (r0, c0), (r1, c1) = self.view
        return r0 <= point[0] <= r1 and c0 <= point[1] <= c1
