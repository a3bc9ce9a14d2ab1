"""Eye fixes for the heavy playouts: the point that would make an eye false, filled first.

An eye in a corner or on the edge, or one with an opponent's stone already on a diagonal,
becomes false when the opponent takes one more of its diagonal points. Random playouts let
that happen half the time: the owner does not see the approach, and a group with two eyes
dies in the playouts while every player sees it live (the lower-right corner of p19n-a game
1 at move 195 died in a third of them: BENCHMARKS.md). Pachi's playouts answer the approach
(``eye_fix_check`` in ``playout/moggy.c``); this is the same check, after the opponent's move
``last``:

- beside ``last`` stands an opponent's stone flanked, on the two diagonals of ``last`` that
  touch it, by the mover's stones or the edge (the opponent is creeping along the mover's
  wall);
- an empty neighbour ``f`` of that stone is diagonal to an empty point ``e`` that is an eye
  of the mover's (its four neighbours are the mover's stones or the edge);
- if the opponent's stone on ``f`` would make ``e`` false (the opponent then holds two of its
  diagonal points, or one where ``e`` is on the edge), the mover fills ``f``; an opponent's
  stone in atari on a diagonal of ``e`` is captured instead.

Compiled by :mod:`miai._kernel.jit` and plain Python, like the rest of the kernel.
"""

from __future__ import annotations

import numpy as np

from miai._kernel.board import COLOR, EMPTY, HEAD, LIBS, M_W, WALL
from miai._kernel.jit import kernel
from miai._kernel.tactics import chain_liberty


@kernel(inline="always")
def _mine_or_edge(grid: np.ndarray, p: int, c: int) -> bool:
    """Whether ``p`` holds a stone of ``c`` or is off the board."""
    return grid[COLOR, p] == c or grid[COLOR, p] == WALL


@kernel(inline="always")
def _eyelike(grid: np.ndarray, w: int, p: int, c: int) -> bool:
    """Whether the empty point ``p`` has only stones of ``c`` and the edge around it."""
    for q in (p - w, p - 1, p + 1, p + w):
        if not _mine_or_edge(grid, q, c):
            return False
    return True


@kernel(inline="always")
def _append(out: np.ndarray, n: int, p: int) -> int:
    """Write ``p`` at ``out[n]`` if there is room; the new count."""
    if n < out.shape[0]:
        out[n] = p
        return n + 1
    return n


@kernel
def guard_eyes(grid: np.ndarray, w: int, f: int, c: int, out: np.ndarray, n: int) -> int:
    """Append to ``out`` (from ``n``) ``f`` if an opponent's stone there would make an eye of
    ``c`` diagonal to it false, and the capture of any opponent's stone in atari already
    spoiling such an eye; returns the new count."""
    other = 3 - c
    for e in (f - w - 1, f - w + 1, f + w - 1, f + w + 1):
        if grid[COLOR, e] != EMPTY or not _eyelike(grid, w, e, c):
            continue
        spoilers = 0
        walls = 0
        for d in (e - w - 1, e - w + 1, e + w - 1, e + w + 1):
            cd = grid[COLOR, d]
            if cd == other and grid[LIBS, grid[HEAD, d]] == 1:
                n = _append(out, n, chain_liberty(grid, w, grid[HEAD, d], 0))
            elif cd == other:
                spoilers += 1
            elif cd == WALL:
                walls += 1
        if spoilers == 1 or (spoilers == 0 and walls == 2):
            n = _append(out, n, f)
    return n


@kernel
def eye_fix_moves(grid: np.ndarray, meta: np.ndarray, c: int, last: int, out: np.ndarray) -> int:
    """The eye fixes for ``c`` after the opponent's move ``last`` (the module's guide), written
    to ``out``; returns how many (duplicates possible)."""
    if last <= 0 or grid[COLOR, last] != 3 - c:
        return 0
    w = meta[M_W]
    n = 0
    for side, across in ((-w, 1), (1, w), (w, 1), (-1, w)):
        stone = last + side
        if grid[COLOR, stone] != 3 - c:
            continue
        if not (_mine_or_edge(grid, stone - across, c) and _mine_or_edge(grid, stone + across, c)):
            continue
        for f in (stone - w, stone - 1, stone + 1, stone + w):
            if f != last and grid[COLOR, f] == EMPTY:
                n = guard_eyes(grid, w, f, c, out, n)
    return n
