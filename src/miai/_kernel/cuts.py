"""Cuts and connections of chains short of liberties, for the heavy playouts.

The two-liberty tactics (:mod:`miai._kernel.twolib`) read a chain with two liberties. A chain
with three can still be lost, when one of its liberties is the only place where it joins
another chain of its colour: the opponent cuts there and takes a liberty in one move, and the
chain is alone and short. The playouts did not see it: in a game lost to Pachi 12.90
(BENCHMARKS.md, p2c 14) a dead group of 29 stones lived in the playouts because White's four
stones beside it could always join it, and the one cut that kept them apart was less than one
first reply in a hundred.

After the opponent's move, the chain it made and the chains next to it (of either colour) that
have exactly three liberties are looked at. Each of their liberties that touches another
chain of the same colour, itself with three liberties or fewer, is offered: a cut if the
chains are the opponent's, a connection if they are the mover's own. (Offered wherever a
short chain touches any other, the cuts made the playouts' ownership worse against KataGo's
in 150 positions of the games against Pachi 12.90: BENCHMARKS.md.) A point where the mover's
stone would be in atari (captures aside) is not offered. Compiled by :mod:`miai._kernel.jit`
and plain Python, like the rest of the kernel.
"""

from __future__ import annotations

import numpy as np

from miai._kernel.board import COLOR, EMPTY, HEAD, LIBS, M_W, NEXT, neighbour_chains
from miai._kernel.jit import kernel
from miai._kernel.twolib import safe_to_play

SHORT_LIBERTIES = 3
"""The liberties of the chains whose joining points are offered, and the most that the chain
they would join may have."""


@kernel(inline="always")
def _joins_another(grid: np.ndarray, w: int, p: int, head: int) -> bool:
    """Whether the empty point ``p`` touches a chain of ``head``'s colour other than ``head``
    with :data:`SHORT_LIBERTIES` liberties or fewer."""
    owner = grid[COLOR, head]
    for q in (p - w, p - 1, p + 1, p + w):
        if grid[COLOR, q] == owner and grid[HEAD, q] != head and grid[LIBS, grid[HEAD, q]] <= SHORT_LIBERTIES:
            return True
    return False


@kernel
def joining_points(grid: np.ndarray, meta: np.ndarray, head: int, c: int, out: np.ndarray, n: int) -> int:
    """Append to ``out`` (from index ``n``) the liberties of the chain ``head`` through which
    it would join another short chain of its colour and that ``c`` may play without being
    left in atari; returns the new count."""
    w = meta[M_W]
    seen0 = 0  # the liberties already looked at (a chain here has three)
    seen1 = 0
    seen2 = 0
    s = head
    while True:
        for q in (s - w, s - 1, s + 1, s + w):
            if grid[COLOR, q] != EMPTY or q == seen0 or q == seen1 or q == seen2:
                continue
            if seen0 == 0:
                seen0 = q
            elif seen1 == 0:
                seen1 = q
            else:
                seen2 = q
            if _joins_another(grid, w, q, head) and safe_to_play(grid, meta, q, c) and n < out.shape[0]:
                out[n] = q
                n += 1
        s = grid[NEXT, s]
        if s == head:
            return n


@kernel
def cut_moves(grid: np.ndarray, meta: np.ndarray, c: int, last: int, out: np.ndarray) -> int:
    """The cuts and connections for ``c`` after the opponent's move ``last`` (the module's
    guide), written to ``out``; returns how many (duplicates possible)."""
    if last <= 0 or grid[COLOR, last] != 3 - c:
        return 0
    w = meta[M_W]
    n = 0
    own = grid[HEAD, last]
    if grid[LIBS, own] == SHORT_LIBERTIES:
        n = joining_points(grid, meta, own, c, out, n)
    for h in neighbour_chains(grid, w, last):
        if h != 0 and h != own and grid[LIBS, h] == SHORT_LIBERTIES:
            n = joining_points(grid, meta, h, c, out, n)
    return n
