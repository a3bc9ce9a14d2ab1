"""Nakade for the heavy playouts: the vital point of a small eye space, taken at once.

A chain whose only eye space is three points in a row, a bent three, a "tetris" four, a
bulky or cross five or a "rabbity" six is dead if the attacker plays the space's vital point
first, and lives if the owner does. Random playouts find that point by chance, so a group
with such a space counted as alive about half the time, whatever the position's truth; the
playouts misjudged exactly the groups whose life was in question. Pachi's playouts answer
the owner's move next to such a space with the vital point (``nakade_check`` in
``playout/moggy.c``, ``nakade_point`` in ``tactics/nakade.c``); this is the same check:

- after the opponent's move, the empty points next to it must be one, or two diagonal to
  each other (else it is not the edge of a small enclosed space, and the check stops there:
  the cheap common case);
- the empty area from there (:func:`nakade_area`), flooded through empty points, must hold
  at most six points and touch no stone of the player to move: a space enclosed by the
  opponent's stones and the board's edges;
- its shape gives the vital point (:func:`vital_point`, by how many neighbours inside the
  area each point has): the middle of three, the centre of a tetris four, of a bulky or
  cross five, of a rabbity six; a space of one or two points, or a straight four, an L, a
  square, has none.

Compiled by :mod:`miai._kernel.jit` and plain Python, like the rest of the kernel.
"""

from __future__ import annotations

import numpy as np

from miai._kernel.board import COLOR, EMPTY, M_W
from miai._kernel.jit import kernel

NAKADE_MAX = 6
"""The largest eye space read: Pachi's bound."""


@kernel
def nakade_area(grid: np.ndarray, w: int, around: int, owner: int, area: np.ndarray) -> int:
    """The empty points connected to the empty point ``around`` written to ``area``; their
    number, or -1 if there are more than :data:`NAKADE_MAX` or the area touches a stone of
    the other colour than ``owner``."""
    other = 3 - owner
    area[0] = around
    n = 1
    i = 0
    while i < n:
        p = area[i]
        for q in (p - w, p - 1, p + 1, p + w):
            cq = grid[COLOR, q]
            if cq == other:
                return -1
            if cq != EMPTY:
                continue
            known = False
            for j in range(n):
                if area[j] == q:
                    known = True
                    break
            if known:
                continue
            if n >= NAKADE_MAX:
                return -1
            area[n] = q
            n += 1
        i += 1
    return n


@kernel(inline="always")
def _neighbours_inside(w: int, area: np.ndarray, n: int, i: int) -> int:
    """How many of the first ``n`` points of ``area`` are next to ``area[i]``."""
    k = 0
    for j in range(n):
        d = area[i] - area[j]
        if d == 1 or d == -1 or d == w or d == -w:
            k += 1
    return k


@kernel
def vital_point(w: int, area: np.ndarray, n: int) -> int:
    """The point of the first ``n`` of ``area`` that kills the space if the attacker takes
    it, or 0 when the shape has none (see the module's guide): the point with the most
    neighbours inside a :func:`dead_shape` of three points or more, other than the square.
    It counts, for each number of neighbours inside the area, the points with that many and
    the last of them (plain numbers, not arrays: this runs in the playouts' inner loop)."""
    ones = twos = threes = fours = 0
    two = three = four = 0
    for i in range(n):
        k = _neighbours_inside(w, area, n, i)
        if k == 1:
            ones += 1
        elif k == 2:
            twos += 1
            two = area[i]
        elif k == 3:
            threes += 1
            three = area[i]
        elif k == 4:
            fours += 1
            four = area[i]
    if n < 3 or (n == 4 and twos == 4) or not dead_shape(n, ones, twos, threes, fours):
        return 0
    return four if fours > 0 else three if threes > 0 else two


@kernel(inline="always")
def dead_shape(n: int, ones: int, twos: int, threes: int, fours: int) -> bool:
    """Whether an eye space of ``n`` connected points, of which ``ones`` .. ``fours`` have
    one to four neighbours inside it, gives its owner one eye at most once the attacker
    takes its vital point: any space of up to three points, a square or "tetris" four, a
    bulky or cross five, a "rabbity" six."""
    if n <= 3:
        return True
    if n == 4:
        return twos == 4 or threes == 1
    if n == 5:
        return (threes == 1 and ones == 1) or fours == 1
    return n == 6 and fours == 1 and twos == 3


@kernel
def nakade_move(grid: np.ndarray, meta: np.ndarray, c: int, last: int, area: np.ndarray) -> int:
    """The vital point of the small eye space the opponent's move ``last`` borders, for ``c``
    to take; 0 if there is none. ``area`` is scratch space for :data:`NAKADE_MAX` points."""
    if last <= 0 or grid[COLOR, last] != 3 - c:
        return 0
    w = meta[M_W]
    empty = 0
    for q in (last - w, last - 1, last + 1, last + w):
        if grid[COLOR, q] != EMPTY:
            continue
        if empty == 0:
            empty = q
            continue
        d = q - empty
        if d != w - 1 and d != w + 1 and d != -w - 1 and d != -w + 1:
            return 0  # two empty neighbours on opposite sides: not a small space's edge
    if empty == 0:
        return 0
    n = nakade_area(grid, w, empty, 3 - c, area)
    if n < 3:
        return 0
    return vital_point(w, area, n)
