"""Handicap stones and the star points they stand on: the one home of that geometry.

The star points (:func:`star_points`, drawn by :mod:`miai.render.text`) and the fixed
placements (docs/RULES.md §7; GTP's ``fixed_handicap`` as GNU Go plays it) stand on the same
lines (:func:`star_lines`): the 3rd lines on boards up to 11×11, the 4th from 12×12. A
fixed handicap is up to 9 stones on odd sizes from 9, up to 4 on 7×7 and on even sizes
from 8, none below 7×7. :func:`free_handicap_points` is where the GTP engine puts a free
handicap (``place_free_handicap``); :func:`check_free_handicap` checks one chosen by a
controller.
"""

from __future__ import annotations

from collections import Counter
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


def star_lines(size: int) -> tuple[int, int, int]:
    """The rows (and columns) of the star points, counted from 0: ``(low, high, middle)``.

    The 3rd lines on boards up to 11×11, the 4th lines from 12×12, and the middle line.

    >>> star_lines(19), star_lines(9)
    ((3, 15, 9), (2, 6, 4))
    """
    line = 3 if size > 11 else 2
    return line, size - 1 - line, size // 2


def star_points(size: int) -> frozenset[Point]:
    """The star points (hoshi) of an empty ``size``×``size`` board, as real boards and GNU
    Go's ``showboard`` mark them: the four corner points on even sizes from 8; also the
    centre on odd sizes up to 11, and the centre and side points on odd sizes from 13;
    none below 7×7. Every fixed handicap placement up to 4 stones stands on them (and
    from 13×13, up to 9).

    >>> sorted(point_to_gtp(p) for p in star_points(9))
    ['C3', 'C7', 'E5', 'G3', 'G7']
    """
    if size < 7:
        return frozenset()
    lo, hi, mid = star_lines(size)
    lines = [lo, hi]
    if size % 2 == 1 and size >= 13:
        lines.append(mid)
    points = {(r, c) for r in lines for c in lines}
    if size % 2 == 1:
        points.add((mid, mid))
    return frozenset(points)


def fixed_handicap_points(size: int, stones: int) -> list[Point]:
    """The points of a fixed handicap of ``stones`` stones, in the order of docs/RULES.md §7.

    >>> [point_to_gtp(p) for p in fixed_handicap_points(19, 3)]
    ['D4', 'Q16', 'D16']
    """
    check_size(size)
    most = max_fixed_handicap(size)
    if most == 0:
        raise HandicapError(f"a {size}x{size} board has no fixed handicap placements (7x7 is the smallest)")
    if not 2 <= stones <= most:
        raise HandicapError(f"a fixed handicap on {size}x{size} is 2 to {most} stones, not {stones}")
    lo, hi, mid = star_lines(size)
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
        counts = Counter(placed)
        repeated = sorted({point_to_gtp(p) for p, n in counts.items() if n > 1})
        raise HandicapError(f"free handicap places a stone twice on {', '.join(repeated[:10])}")
    if len(placed) >= size * size:
        raise HandicapError(f"a free handicap must leave the {size}x{size} board at least one empty point")
    return placed


def free_handicap_points(size: int, stones: int) -> list[Point]:
    """Where the engine puts ``stones`` free handicap stones (GTP's ``place_free_handicap``).

    The fixed placement when the board has one; otherwise the same scheme generalised:
    the star-point layout (on the 2nd line on 4×4–6×6, the centre of 3×3), then, one
    stone at a time, the point farthest from the stones already placed (ties: nearer the
    centre, then GTP order), keeping off the edge lines while that is possible. Raises
    :class:`HandicapError` unless 2 <= stones < size².

    >>> [point_to_gtp(p) for p in free_handicap_points(19, 2)]
    ['D4', 'Q16']
    """
    check_size(size)
    if not 2 <= stones < size * size:
        raise HandicapError(f"a free handicap on {size}x{size} is 2 to {size * size - 1} stones, not {stones}")
    most = max_fixed_handicap(size)
    if 2 <= stones <= most:
        return fixed_handicap_points(size, stones)
    if most >= 2:
        chosen = fixed_handicap_points(size, most)
        line = star_lines(size)[0]
    else:
        line = 0 if size <= 2 else 1
        lo, hi, mid = line, size - 1 - line, size // 2
        corners = [(lo, lo), (hi, hi), (hi, lo), (lo, hi)]
        layout = corners + [(mid, lo), (mid, hi), (lo, mid), (hi, mid), (mid, mid)]
        chosen = []
        for p in layout:
            if p not in chosen and len(chosen) < min(stones, 4):
                chosen.append(p)
    centre = (size - 1) / 2
    # squared distance from every free point to the nearest stone, kept up to date
    nearest = {
        (r, c): min((r - q[0]) ** 2 + (c - q[1]) ** 2 for q in chosen)
        for r in range(size)
        for c in range(size)
        if (r, c) not in chosen
    }
    while len(chosen) < stones:
        inner = [p for p in nearest if min(p[0], p[1], size - 1 - p[0], size - 1 - p[1]) >= line]
        best = min(
            inner or nearest,
            key=lambda p: (-nearest[p], (p[0] - centre) ** 2 + (p[1] - centre) ** 2, -p[0], p[1]),
        )
        chosen.append(best)
        del nearest[best]
        for p in nearest:
            d = (p[0] - best[0]) ** 2 + (p[1] - best[1]) ** 2
            if d < nearest[p]:
                nearest[p] = d
    return chosen
