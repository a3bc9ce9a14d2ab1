"""Tactical questions about one move, asked without playing it: what it captures, how many
liberties and stones the mover's chain would have, where a chain's liberties are.

Both playout policies (``heavy.py`` for the search, ``light.py`` for the status
estimate) and the search tree's priors ask these; they live here once. Compiled by
:mod:`miai._kernel.jit` and plain Python, like the rest of the kernel.
"""

from __future__ import annotations

import numpy as np

from miai._kernel.board import COLOR, EMPTY, HEAD, LIBS, M_MARKGEN, M_W, MARK, NEXT, SIZE, neighbour_chains
from miai._kernel.jit import kernel


@kernel
def chain_liberty(grid: np.ndarray, w: int, head: int, exclude: int) -> int:
    """A liberty of the chain whose head is ``head`` other than ``exclude`` (0 if none)."""
    s = head
    while True:
        for q in (s - w, s - 1, s + 1, s + w):
            if grid[COLOR, q] == EMPTY and q != exclude:
                return q
        s = grid[NEXT, s]
        if s == head:
            return 0


@kernel
def captures_something(grid: np.ndarray, meta: np.ndarray, p: int, c: int) -> int:
    """The number of opponent stones a stone of ``c`` on ``p`` would capture."""
    w = meta[M_W]
    o = 3 - c
    total = 0
    for h in neighbour_chains(grid, w, p):
        if grid[COLOR, h] == o and grid[LIBS, h] == 1:
            total += grid[SIZE, h]
    return total


@kernel(inline="always")
def _mark_liberties(grid: np.ndarray, w: int, s: int, gen: int, libs: int, cap: int) -> int:
    """``libs`` plus the empty neighbours of ``s`` not yet marked ``gen`` (marking them),
    counted up to ``cap``: one stone's step of :func:`liberties_after`'s flood fill."""
    for e in (s - w, s - 1, s + 1, s + w):
        if grid[COLOR, e] == EMPTY and grid[MARK, e] != gen:
            grid[MARK, e] = gen
            libs += 1
            if libs >= cap:
                return libs
    return libs


@kernel
def liberties_after(grid: np.ndarray, meta: np.ndarray, p: int, c: int, cap: int) -> int:
    """How many liberties (counted up to ``cap``) the chain of a stone of ``c`` on the empty
    point ``p`` would have, captures left aside (the caller checks those)."""
    w = meta[M_W]
    gen = meta[M_MARKGEN] + 1
    meta[M_MARKGEN] = gen
    grid[MARK, p] = gen
    libs = _mark_liberties(grid, w, p, gen, 0, cap)
    if libs >= cap:
        return libs
    for head in neighbour_chains(grid, w, p):
        if grid[COLOR, head] == c:
            s = head
            while True:
                libs = _mark_liberties(grid, w, s, gen, libs, cap)
                if libs >= cap:
                    return libs
                s = grid[NEXT, s]
                if s == head:
                    break
    return libs


@kernel
def stones_after(grid: np.ndarray, meta: np.ndarray, p: int, c: int) -> int:
    """How many stones the chain of a stone of ``c`` on ``p`` would have."""
    w = meta[M_W]
    stones = 1
    for h in neighbour_chains(grid, w, p):
        if grid[COLOR, h] == c:
            stones += grid[SIZE, h]
    return stones


@kernel
def atari_replies(grid: np.ndarray, meta: np.ndarray, c: int, head: int, out: np.ndarray, n: int) -> int:
    """Append to ``out`` (from index ``n``) what ``c`` plays about the chain ``head``, which
    is in atari: its capture if it is the opponent's; if it is ``c``'s own, the capture of
    an opponent chain in atari next to it, and the extension on its liberty when that gives
    it two liberties or more. Returns the new count (duplicates possible)."""
    w = meta[M_W]
    lib = chain_liberty(grid, w, head, 0)
    if grid[COLOR, head] != c:
        if n < out.shape[0]:
            out[n] = lib
            n += 1
        return n
    o = 3 - c
    s = head
    while True:
        for e in (s - w, s - 1, s + 1, s + w):
            if grid[COLOR, e] == o and grid[LIBS, grid[HEAD, e]] == 1 and n < out.shape[0]:
                out[n] = chain_liberty(grid, w, grid[HEAD, e], 0)
                n += 1
        s = grid[NEXT, s]
        if s == head:
            break
    if liberties_after(grid, meta, lib, c, 2) >= 2 and n < out.shape[0]:
        out[n] = lib
        n += 1
    return n
