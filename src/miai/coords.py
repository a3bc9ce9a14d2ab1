"""Colours, points and moves, and their GTP and SGF spellings.

A point is ``(row, col)`` counted from 0, row 0 being the bottom row as GTP shows it
(``A1`` is ``(0, 0)``, ``D4`` is ``(3, 3)``), as sgfmill does. SGF counts rows from the
top (``aa`` is the top-left corner), so SGF text needs the board size to convert.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from miai.errors import BoardSizeError, InvalidMoveError

GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # GTP skips I; 25 columns at most
MIN_SIZE = 2
MAX_SIZE = 25

Point = tuple[int, int]


class Color(IntEnum):
    """A player's colour; the values are the kernel's stone codes."""

    BLACK = 1
    WHITE = 2

    @property
    def opponent(self) -> Color:
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @property
    def letter(self) -> str:
        """``B`` or ``W``, as SGF and results write it."""
        return "B" if self is Color.BLACK else "W"

    @classmethod
    def parse(cls, text: str) -> Color:
        """Read ``b``, ``black``, ``W``, ``white`` (any case), as GTP and SGF write colours."""
        t = text.strip().lower()
        if t in ("b", "black"):
            return cls.BLACK
        if t in ("w", "white"):
            return cls.WHITE
        raise InvalidMoveError(f"not a colour: {text!r} (expected black or white)")

    def __str__(self) -> str:
        return self.name.lower()


def check_size(size: int) -> int:
    """Return ``size`` if miai supports an N×N board of it, else raise :class:`BoardSizeError`."""
    if isinstance(size, bool) or not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
        raise BoardSizeError(f"board size must be an integer from {MIN_SIZE} to {MAX_SIZE}, not {size!r}")
    return size


def check_color(color: object) -> Color:
    """Return ``color`` if it is a :class:`Color`, else raise :class:`InvalidMoveError`
    (a bare ``3`` would reach the kernel as a wall)."""
    if not isinstance(color, Color):
        raise InvalidMoveError(f"not a colour: {color!r} (expected Color.BLACK or Color.WHITE)")
    return color


def check_point(point: Point, size: int) -> Point:
    """Return ``point`` as a tuple if it lies on a ``size``×``size`` board, else raise."""
    try:
        row, col = point
    except (TypeError, ValueError):
        raise InvalidMoveError(f"not a point: {point!r} (expected (row, col))") from None
    if not (isinstance(row, int) and isinstance(col, int) and 0 <= row < size and 0 <= col < size):
        raise InvalidMoveError(f"point {point!r} is off the {size}x{size} board")
    return (row, col)


def neighbors(point: Point, size: int) -> list[Point]:
    """The points next to ``point`` on a ``size``×``size`` board (two to four of them)."""
    r, c = point
    return [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)) if 0 <= r + dr < size and 0 <= c + dc < size]


def point_to_gtp(point: Point | None) -> str:
    """``(3, 3)`` -> ``D4``; ``None`` (a pass) -> ``pass``."""
    if point is None:
        return "pass"
    row, col = point
    return f"{GTP_COLUMNS[col]}{row + 1}"


def point_from_gtp(text: str, size: int) -> Point | None:
    """``D4`` -> ``(3, 3)``; ``pass`` -> ``None``. Case-insensitive; raises on bad text.

    The row number is ASCII digits only: ``str.isdigit`` would also let through
    superscripts (``A²``) and other scripts' digits (``A١`` is not A1).
    """
    t = text.strip().upper()
    if t == "PASS":
        return None
    digits = t[1:]
    if len(t) < 2 or t[0] not in GTP_COLUMNS or not (digits.isascii() and digits.isdigit()):
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise InvalidMoveError(f"not a GTP vertex: {shown!r} (expected a letter A-Z without I, then a number, or pass)")
    col = GTP_COLUMNS.index(t[0])
    number = digits.lstrip("0")
    row = int(number) - 1 if 0 < len(number) <= 2 else -1  # no board has 100 rows; nor row 0
    if not (0 <= row < size and col < size):
        shown = text.strip() if len(text.strip()) <= 12 else text.strip()[:9] + "..."
        raise InvalidMoveError(f"vertex {shown} is off the {size}x{size} board")
    return (row, col)


def vertices(points: Iterable[Point]) -> str:
    """The GTP text of a set of points, in one order everywhere: by column (``A`` to ``T``),
    then by row from the bottom, separated by spaces (``A1 A2 B1``); ``""`` for none."""
    return " ".join(point_to_gtp(p) for p in sorted(set(points), key=lambda p: (p[1], p[0])))


def point_to_sgf(point: Point | None, size: int) -> str:
    """``(3, 3)`` on 19×19 -> ``dp``; a pass -> the empty string (FF[4])."""
    if point is None:
        return ""
    row, col = point
    return chr(ord("a") + col) + chr(ord("a") + size - 1 - row)


def point_from_sgf(text: str, size: int) -> Point | None:
    """``dp`` on 19×19 -> ``(3, 3)``; ``""`` or ``tt`` (on boards up to 19×19) -> ``None``."""
    t = text.strip()
    if t == "" or (t == "tt" and size <= 19):
        return None
    if len(t) != 2 or not all("a" <= ch <= "z" for ch in t):
        raise InvalidMoveError(f"not an SGF point: {text!r}")
    col = ord(t[0]) - ord("a")
    row = size - 1 - (ord(t[1]) - ord("a"))
    if not (0 <= row < size and 0 <= col < size):
        raise InvalidMoveError(f"SGF point {t!r} is off the {size}x{size} board")
    return (row, col)


def _as_point(value: Any) -> Point:
    """``value`` as a ``(row, col)`` tuple of ints (from a list, numpy integers...), or raise."""
    try:
        row, col = value
        if isinstance(row, bool) or isinstance(col, bool):
            raise TypeError
        return (operator.index(row), operator.index(col))
    except (TypeError, ValueError):
        raise InvalidMoveError(f"not a point: {value!r} (expected (row, col), or None for a pass)") from None


@dataclass(frozen=True, slots=True, init=False)
class Move:
    """A stone of ``color`` on ``point``, or a pass when ``point`` is None."""

    color: Color
    point: Point | None

    def __init__(self, color: Color, point: Point | None) -> None:
        """Check the colour (a stray ``3`` would be a wall on the board) and make the point a
        ``(row, col)`` tuple of ints; whether it lies on the board is the Game's question.
        (Written out rather than generated: ``Game.play`` makes one per move.)"""
        if type(color) is not Color:
            check_color(color)
        if point is not None and not (
            type(point) is tuple and len(point) == 2 and type(point[0]) is int and type(point[1]) is int
        ):
            point = _as_point(point)
        object.__setattr__(self, "color", color)
        object.__setattr__(self, "point", point)

    @property
    def is_pass(self) -> bool:
        return self.point is None

    @classmethod
    def from_gtp(cls, color: Color | str, vertex: str, size: int) -> Move:
        """``Move.from_gtp('b', 'D4', 19)``."""
        c = color if isinstance(color, Color) else Color.parse(color)
        return cls(c, point_from_gtp(vertex, size))

    def gtp(self) -> str:
        """The vertex in GTP form (``D4`` or ``pass``)."""
        return point_to_gtp(self.point)

    def sgf(self, size: int) -> str:
        """The move as an SGF property, e.g. ``B[dp]`` or ``W[]``."""
        return f"{self.color.letter}[{point_to_sgf(self.point, size)}]"

    def __str__(self) -> str:
        return f"{self.color.letter} {self.gtp()}"

    def __repr__(self) -> str:
        return f"Move(Color.{self.color.name}, {self.point!r})"
