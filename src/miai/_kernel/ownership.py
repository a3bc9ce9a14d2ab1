"""Ownership: who ends up owning each point, averaged over many light playouts.

The playout policy is a little smarter than ``playout.py``'s uniform one, because ownership
is meant to judge finished or nearly finished positions, where uniform play is too silly
(it fills the last shared liberty of a seki, ignores ataris):

1. If the opponent's last move left one of its chains next to it in atari, capture it.
2. If it put one of our chains next to it in atari, extend it when that gives it at least two
   liberties.
3. Otherwise a uniformly random legal move that does not fill our own single-point eye and
   is not a self-atari of more than ``NAKADE_MAX`` stones: seki shapes stay seki (filling a
   shared liberty would put a whole group in atari), while the small sacrifices that kill
   an eye space from inside (nakade: a bent three, a throw-in) remain possible.

A playout ends after two passes (or ``3 N²`` turns) and is counted by area with
``region_owners``. :func:`ownership` adds each point's final owner into per-colour counts.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from miai._kernel.board import (
    BLACK,
    COLOR,
    EMPTIES,
    EMPTY,
    EMPTY_POS,
    HEAD,
    LEGAL,
    LIBS,
    M_N,
    M_NEMPTY,
    M_RNG,
    M_W,
    NEXT,
    SIZE,
    WHITE,
    is_own_eye,
    legality,
    pass_turn,
    play_stone,
    region_owners,
)
from miai._kernel.playout import _random_below

NAKADE_MAX = 3
"""The largest chain a playout may put in atari by its own move (a nakade sacrifice)."""


@njit(cache=True)
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


@njit(cache=True)
def liberties_after(grid: np.ndarray, meta: np.ndarray, p: int, c: int) -> tuple[int, int]:
    """``(liberties, stones)`` of the chain a stone of ``c`` on the empty point ``p`` would
    form, without playing it; liberties are counted up to 2 (2 means "two or more"), and
    capturing an opponent chain counts as two (the captured points become liberties)."""
    w = meta[M_W]
    o = 3 - c
    l0 = 0
    l1 = 0
    nlib = 0
    stones = 1
    h0 = -1
    h1 = -1
    h2 = -1
    for q in (p - w, p - 1, p + 1, p + w):
        cq = grid[COLOR, q]
        if cq == EMPTY:
            if nlib == 0:
                l0 = q
                nlib = 1
            elif nlib == 1 and q != l0:
                l1 = q
                nlib = 2
        elif cq == o:
            if grid[LIBS, grid[HEAD, q]] == 1:
                nlib = 2
        elif cq == c:
            h = grid[HEAD, q]
            if h != h0 and h != h1 and h != h2:
                stones += grid[SIZE, h]
                if h0 == -1:
                    h0 = h
                elif h1 == -1:
                    h1 = h
                else:
                    h2 = h
    if nlib >= 2:
        return 2, stones
    for h in (h0, h1, h2):
        if h == -1:
            continue
        if grid[LIBS, h] >= 3:
            return 2, stones
        s = h
        while True:
            for q in (s - w, s - 1, s + 1, s + w):
                if grid[COLOR, q] == EMPTY and q != p:
                    if nlib == 0:
                        l0 = q
                        nlib = 1
                    elif q != l0:
                        return 2, stones
            s = grid[NEXT, s]
            if s == h:
                break
    return nlib, stones


@njit(cache=True)
def _acceptable(grid: np.ndarray, meta: np.ndarray, p: int, c: int) -> bool:
    if legality(grid, meta, p, c, False) != LEGAL or is_own_eye(grid, meta, p, c):
        return False
    libs, stones = liberties_after(grid, meta, p, c)
    return libs >= 2 or stones <= NAKADE_MAX


@njit(cache=True)
def choose_policy_move(grid: np.ndarray, meta: np.ndarray, c: int, last: int) -> int:
    """The light policy's move for ``c`` after the opponent's move ``last`` (0: a pass or
    none): 0 means pass. See the module's reading guide."""
    w = meta[M_W]
    o = 3 - c
    if last != 0:
        # capture an opponent chain in atari next to the last move (or the last move's own chain)
        for q in (last, last - w, last - 1, last + 1, last + w):
            if grid[COLOR, q] == o and grid[LIBS, grid[HEAD, q]] == 1:
                lib = chain_liberty(grid, w, grid[HEAD, q], 0)
                if lib != 0 and legality(grid, meta, lib, c, False) == LEGAL:
                    return lib
        # save one of our chains the last move put in atari, if extending really helps
        for q in (last - w, last - 1, last + 1, last + w):
            if grid[COLOR, q] == c and grid[LIBS, grid[HEAD, q]] == 1:
                lib = chain_liberty(grid, w, grid[HEAD, q], 0)
                if lib != 0 and legality(grid, meta, lib, c, False) == LEGAL:
                    libs, _ = liberties_after(grid, meta, lib, c)
                    if libs >= 2:
                        return lib
    k = meta[M_NEMPTY]
    while k > 0:
        r = _random_below(meta, k)
        p = grid[EMPTIES, r]
        if _acceptable(grid, meta, p, c):
            return p
        k -= 1
        last_e = grid[EMPTIES, k]
        grid[EMPTIES, r] = last_e
        grid[EMPTY_POS, last_e] = r
        grid[EMPTIES, k] = p
        grid[EMPTY_POS, p] = k
    return 0


@njit(cache=True)
def policy_playout(grid: np.ndarray, meta: np.ndarray, to_move: int, max_turns: int) -> int:
    """Play the light policy to the end on this board (modified in place); returns the turns."""
    passes = 0
    turns = 0
    last = 0
    c = to_move
    while turns < max_turns and passes < 2:
        p = choose_policy_move(grid, meta, c, last)
        if p == 0:
            passes += 1
            pass_turn(meta)
        else:
            passes = 0
            play_stone(grid, meta, p, c)
        last = p
        turns += 1
        c = 3 - c
    return turns


@njit(cache=True)
def ownership(grid: np.ndarray, meta: np.ndarray, to_move: int, count: int, seed: int, owned: np.ndarray) -> int:
    """Run ``count`` light playouts from this position (left unchanged), alternating the
    first player between ``to_move`` and the other (a finished position has no one to move),
    and add into ``owned`` (int32, shape ``(3, L)``) how often each point ended up Black's
    (row 1), White's (row 2) or nobody's (row 0). Returns the total turns played."""
    g = grid.copy()
    m = meta.copy()
    m[M_RNG] = seed if seed != 0 else 1
    n = meta[M_N]
    length = grid.shape[1]
    max_turns = 3 * n * n
    owners = np.empty(length, np.int32)
    total = 0
    for i in range(count):
        g[:, :] = grid
        rng = m[M_RNG]
        m[:] = meta
        m[M_RNG] = rng
        first = to_move if i % 2 == 0 else 3 - to_move
        total += policy_playout(g, m, first, max_turns)
        region_owners(g, m, owners)
        for p in range(length):
            v = owners[p]
            if v == BLACK:
                owned[1, p] += 1
            elif v == WHITE:
                owned[2, p] += 1
            else:
                owned[0, p] += 1
    return total
