"""The corners' squares, as the joseki book reads them (:mod:`miai.ai.joseki`).

A corner's square is the ``side`` × ``side`` points nearest one corner of the board (lines 1
to 10 on 19×19), read in the corner's own frame: local point ``i * side + j`` is ``i`` lines
from the corner's edge along one side and ``j`` along the other, so the four corners read
alike; *transposed* swaps the two sides (the square's mirror in its diagonal). A square's key
is a Zobrist hash of its stones as the player to move sees them (its own, the opponent's),
so the book holds each shape once for both colours. Corners are numbered 0 to 3: with bit 0
set the square's lines are counted from the top edge (row ``n - 1``) rather than the bottom,
with bit 1 from the right edge rather than the left. Compiled by
:mod:`miai._kernel.jit` and plain Python.
"""

from __future__ import annotations

import numpy as np

from miai._kernel.board import COLOR, M_N, M_W
from miai._kernel.jit import kernel

CORNERS = 4
"""The corners of a board, 0 to 3."""


@kernel
def corner_point(meta: np.ndarray, corner: int, transposed: bool, side: int, local: int) -> int:
    """The kernel point of local point ``local`` of ``corner``'s square (as read
    ``transposed`` or not)."""
    i = local // side
    j = local % side
    if transposed:
        i, j = j, i
    n = meta[M_N]
    row = n - 1 - i if corner & 1 else i
    col = n - 1 - j if corner & 2 else j
    return (row + 1) * meta[M_W] + col + 1


@kernel
def corner_local(meta: np.ndarray, corner: int, transposed: bool, side: int, p: int) -> int:
    """The local point of kernel point ``p`` in ``corner``'s square (read ``transposed`` or
    not), or -1 outside the square."""
    n = meta[M_N]
    w = meta[M_W]
    row = p // w - 1
    col = p % w - 1
    i = n - 1 - row if corner & 1 else row
    j = n - 1 - col if corner & 2 else col
    if transposed:
        i, j = j, i
    if i < 0 or j < 0 or i >= side or j >= side:
        return -1
    return i * side + j


@kernel
def corner_key(grid: np.ndarray, meta: np.ndarray, c: int, corner: int, transposed: bool, zobrist: np.ndarray) -> int:
    """The key of ``corner``'s square with ``c`` to move: the XOR of ``zobrist[0, i, j]`` for
    each of ``c``'s stones and ``zobrist[1, i, j]`` for each of the opponent's (the empty
    square's key is 0). The square's side is ``zobrist.shape[1]``."""
    side = zobrist.shape[1]
    h = 0
    for local in range(side * side):
        s = grid[COLOR, corner_point(meta, corner, transposed, side, local)]
        if s == c:
            h ^= zobrist[0, local // side, local % side]
        elif s == 3 - c:
            h ^= zobrist[1, local // side, local % side]
    return h
