"""The words of GTP commands: reading arguments at the door, writing lists of vertices.

Every handler reads its arguments through these functions, so that every bad argument
gets the same kind of answer: a :class:`~miai.gtp.protocol.GtpError` whose text starts
with ``syntax error`` (as the specification and GNU Go word it) and says what was
expected. Numbers are ASCII only and bounded before Python converts them: ``int()`` and
``float()`` would accept other scripts' digits (``٩``), underscores (``1_0``) and words
(``infinity``), and ``int()`` refuses more than 4,300 digits with a ``ValueError`` that
would otherwise surface as an internal error.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence

from miai.coords import Color, Point, point_from_gtp, point_to_gtp
from miai.errors import InvalidMoveError
from miai.gtp.protocol import GtpError

_INTEGER = re.compile(r"[+-]?[0-9]{1,18}")
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]{1,4})?")
_MAX_NUMBER_CHARS = 64


def shown(word: str, limit: int = 40) -> str:
    """``word`` quoted for an error message, cut short if it is long."""
    return repr(word if len(word) <= limit else word[: limit - 3] + "...")


def expect(args: Sequence[str], count: int, usage: str) -> None:
    """Exactly ``count`` arguments, else ``syntax error: expected <usage>``."""
    if len(args) != count:
        raise GtpError(f"syntax error: expected {usage}")


def integer(word: str, what: str, *, low: int | None = None, high: int | None = None) -> int:
    """An integer argument (ASCII digits, an optional sign), within ``low``..``high`` when
    given; ``what`` names it in the error (``the board size``)."""
    if not _INTEGER.fullmatch(word):
        if re.fullmatch(r"[+-]?[0-9]+", word):
            raise GtpError(f"syntax error: {what} is out of range: {shown(word)}")
        raise GtpError(f"syntax error: {what} must be an integer, not {shown(word)}")
    value = int(word)
    _check_range(value, word, what, low, high)
    return value


def number(word: str, what: str, *, low: float | None = None, high: float | None = None) -> float:
    """A finite decimal number (``6.5``, ``-3``, ``1e1``), within ``low``..``high`` when given."""
    if len(word) > _MAX_NUMBER_CHARS or not _NUMBER.fullmatch(word):
        if word.strip("+-").lower() in ("inf", "infinity", "nan"):
            raise GtpError(f"syntax error: {what} must be a finite number, not {shown(word)}")
        raise GtpError(f"syntax error: {what} must be a number, not {shown(word)}")
    value = float(word)
    if not math.isfinite(value):
        raise GtpError(f"syntax error: {what} must be a finite number, not {shown(word)}")
    _check_range(value, word, what, low, high)
    return value


def _check_range(value: float, word: str, what: str, low: float | None, high: float | None) -> None:
    if (low is None or value >= low) and (high is None or value <= high):
        return
    if low is not None and high is not None:
        bounds = f"from {low:g} to {high:g}"
    else:
        bounds = f"at least {low:g}" if low is not None else f"at most {high:g}"
    raise GtpError(f"syntax error: {what} must be {bounds}, not {shown(word)}")


def color(word: str) -> Color:
    """``b``, ``black``, ``w``, ``white`` (any case)."""
    try:
        return Color.parse(word)
    except InvalidMoveError:
        raise GtpError(f"syntax error: invalid color {shown(word)} (expected black or white)") from None


def vertex(word: str, size: int) -> Point | None:
    """A vertex on a ``size``×``size`` board (``D4``), or None for ``pass``."""
    try:
        return point_from_gtp(word, size)
    except InvalidMoveError as exc:
        raise GtpError(f"syntax error: {exc}") from None


def board_vertex(word: str, size: int) -> Point:
    """A vertex that is a point of the board (``pass`` is refused)."""
    point = vertex(word, size)
    if point is None:
        raise GtpError("syntax error: expected a point of the board, not pass")
    return point


DEFAULT_SEED = 1
"""The seed of miai's estimates when the controller gives none: the same position gets the
same answer."""


def optional_seed(args: Sequence[str], usage: str) -> int:
    """GNU Go's optional random seed after a command's arguments (``final_score 3``,
    ``final_status_list dead 3``): ``args`` is what follows the required arguments."""
    if len(args) > 1:
        raise GtpError(f"syntax error: expected {usage}")
    return integer(args[0], "the random seed", low=0) if args else DEFAULT_SEED


def gtp_vertices(points: Iterable[Point]) -> str:
    """Vertices as GNU Go lists them: top row first, left to right (``D16 Q16 D4``)."""
    return " ".join(point_to_gtp(p) for p in sorted(points, key=lambda p: (-p[0], p[1])))
