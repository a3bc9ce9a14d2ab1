"""Text diagrams of a position, with GTP coordinates on all four sides.

Pure functions with keyword-only options (as python-chess draws SVG)::

    >>> class Board:                      # anything with .size and [point] -> Color | None
    ...     size = 5
    ...     def __getitem__(self, point):
    ...         return {(2, 2): Color.BLACK, (3, 2): Color.WHITE}.get(point)
    >>> print(diagram(Board(), last_move=(3, 2)))
      A B C D E
    5 . . . . . 5
    4 . .(O). . 4
    3 . . X . . 3
    2 . . . . . 2
    1 . . . . . 1
      A B C D E

``X`` is Black, ``O`` White, ``.`` an empty point, ``+`` an empty star point (hoshi). The
last move stands between parentheses, as GNU Go draws it; dead stones are lower-case
(``x``, ``o``). :func:`diagram` gives plain text, :func:`rich_diagram` the same characters
as a styled :class:`rich.text.Text` for the terminal (``rich_diagram(...).plain ==
diagram(...)``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from itertools import groupby
from typing import Protocol

from rich.style import Style
from rich.text import Text

from miai.coords import GTP_COLUMNS, Color, Move, Point
from miai.handicap import star_points  # the one home of the star-point geometry

__all__ = ["BoardLike", "diagram", "rich_diagram", "star_points"]


class BoardLike(Protocol):
    """What the renderer reads: a size and the colour of each point (``game.board`` is one)."""

    @property
    def size(self) -> int: ...

    def __getitem__(self, point: Point, /) -> Color | None: ...


BLACK, WHITE, EMPTY, STAR = "X", "O", ".", "+"
DEAD = {Color.BLACK: "x", Color.WHITE: "o"}
STONE = {Color.BLACK: BLACK, Color.WHITE: WHITE}

# Styles of the terminal variant, by the role of each character.
STYLES: dict[str, Style] = {
    "coord": Style(color="bright_black"),
    "wood": Style(color="#5c4020", bgcolor="#dcb35c"),
    "black": Style(color="#000000", bgcolor="#dcb35c", bold=True),
    "white": Style(color="#ffffff", bgcolor="#dcb35c", bold=True),
    "dead": Style(color="#7a5a30", bgcolor="#dcb35c", strike=True),
    "last": Style(color="#c00000", bgcolor="#dcb35c", bold=True),
    "mark": Style(color="#0000c0", bgcolor="#dcb35c", bold=True),
}


def _cells(
    board: BoardLike,
    last_move: Point | Move | None,
    dead: Collection[Point],
    marks: Mapping[Point, str] | None,
) -> list[list[tuple[str, str]]]:
    """The diagram as rows of (text, role) pieces, top row first, coordinates included."""
    size = board.size
    if isinstance(last_move, Move):
        last_move = last_move.point
    dead = frozenset(dead)
    marks = dict(marks or {})
    for point, mark in marks.items():
        if len(mark) != 1:
            raise ValueError(f"a mark is one character, not {mark!r} (at {point!r})")
    stars = star_points(size)
    width = len(str(size))
    letters = [("".rjust(width) + " " + " ".join(GTP_COLUMNS[:size]), "coord")]
    rows: list[list[tuple[str, str]]] = [letters]
    for row in range(size - 1, -1, -1):
        label = str(row + 1)
        pieces: list[tuple[str, str]] = [(label.rjust(width), "coord")]
        for col in range(size):
            point = (row, col)
            left = "(" if point == last_move else ")" if col > 0 and (row, col - 1) == last_move else " "
            pieces.append((left, "last" if left != " " else "wood"))
            color = board[point]
            if point in marks:
                pieces.append((marks[point], "mark"))
            elif color is None:
                pieces.append((STAR if point in stars else EMPTY, "wood"))
            elif point in dead:
                pieces.append((DEAD[color], "dead"))
            else:
                pieces.append((STONE[color], str(color)))
        right = ")" if (row, size - 1) == last_move else " "
        pieces.append((right, "last" if right != " " else "wood"))
        pieces.append((label, "coord"))
        rows.append(pieces)
    rows.append(letters)
    return rows


def diagram(
    board: BoardLike,
    *,
    last_move: Point | Move | None = None,
    dead: Collection[Point] = (),
    marks: Mapping[Point, str] | None = None,
) -> str:
    """The position as plain text (no trailing newline).

    ``last_move`` (a point, or a :class:`Move`; a pass marks nothing) is drawn between
    parentheses; stones in ``dead`` are drawn lower-case; ``marks`` maps points to a single
    character drawn instead of whatever is there (labels, territory).
    """
    rows = _cells(board, last_move, dead, marks)
    return "\n".join("".join(text for text, _ in row).rstrip() for row in rows)


def rich_diagram(
    board: BoardLike,
    *,
    last_move: Point | Move | None = None,
    dead: Collection[Point] = (),
    marks: Mapping[Point, str] | None = None,
) -> Text:
    """The same diagram as :func:`diagram`, coloured for a terminal (a rich renderable)."""
    text = Text(no_wrap=True, overflow="ignore")
    rows = _cells(board, last_move, dead, marks)
    for i, row in enumerate(rows):
        if i:
            text.append("\n")
        if i == 0 or i == len(rows) - 1:
            text.append(row[0][0].rstrip(), STYLES["coord"])
            continue
        for role, pieces in groupby(row, key=lambda piece: piece[1]):
            text.append("".join(t for t, _ in pieces), STYLES[role])
    return text
