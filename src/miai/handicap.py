"""Handicap stones: the fixed placements on the star points (RULES.md §7) and the checks
for a free placement.

The fixed placements are GTP's ``fixed_handicap`` as GNU Go plays it: on the 3rd lines on
boards up to 11×11 and on the 4th lines from 12×12; up to 9 stones on odd sizes from 9,
up to 4 on 7×7 and on even sizes from 8, none below 7×7.
"""

from __future__ import annotations

from collections.abc import Iterable

from miai.coords import Point, check_point, check_size, point_to_gtp
from miai.errors import HandicapError


def max_fixed_handicap(size: int) -> int:
    """The largest fixed handicap a ``size``×``size`` board has star points for."""
    if size % 2 == 1 and size >= 9:
        return 9
    if size >= 7:
        return 4
    return 0


def _star_lines(size: int) -> tuple[int, int, int]:
    line = 3 if size > 11 else 2
    return line, size - 1 - line, size // 2


def fixed_handicap_points(size: int, stones: int) -> list[Point]:
    """The points of a fixed handicap of ``stones`` stones, in the order of RULES.md §7.

    >>> [point_to_gtp(p) for p in fixed_handicap_points(19, 3)]
    ['D4', 'Q16', 'D16']
    """
    check_size(size)
    most = max_fixed_handicap(size)
    if most == 0:
        raise HandicapError(f"a {size}x{size} board has no fixed handicap placements (7x7 is the smallest)")
    if not 2 <= stones <= most:
        raise HandicapError(f"a fixed handicap on {size}x{size} is 2 to {most} stones, not {stones}")
    lo, hi, mid = _star_lines(size)
    corners = [(lo, lo), (hi, hi), (hi, lo), (lo, hi)]
    sides = [(mid, lo), (mid, hi)]
    ends = [(lo, mid), (hi, mid)]
    centre = [(mid, mid)]
    layouts = {
        2: corners[:2],
        3: corners[:3],
        4: corners,
        5: corners + centre,
        6: corners + sides,
        7: corners + sides + centre,
        8: corners + sides + ends,
        9: corners + sides + ends + centre,
    }
    return layouts[stones]


def check_free_handicap(size: int, points: Iterable[Point]) -> list[Point]:
    """Validate a free placement: 2 or more distinct points on the board, leaving at least
    one point empty. Returns the points as a list."""
    placed = [check_point(p, size) for p in points]
    if len(placed) < 2:
        raise HandicapError(f"a free handicap is at least 2 stones, not {len(placed)}")
    if len(set(placed)) != len(placed):
        repeated = sorted({point_to_gtp(p) for p in placed if placed.count(p) > 1})
        raise HandicapError(f"free handicap places a stone twice on {', '.join(repeated)}")
    if len(placed) >= size * size:
        raise HandicapError(f"a free handicap must leave the {size}x{size} board at least one empty point")
    return placed
