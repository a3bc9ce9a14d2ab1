"""Chains in atari anywhere on the board, for the heavy playouts' global check.

The heavy policy (:mod:`miai._kernel.heavy`) answers ataris next to the last move. A chain
left in atari elsewhere (an atari the playout did not answer at once, or one made in the
tree before the playout began) stayed capturable until a random move happened to take it,
so a playout could count as alive a chain that any player would capture. Pachi's playouts
look for such chains over the whole board (``global_atari_check`` in ``playout/moggy.c``,
90% of moves on small boards), after the local checks.

A scan of the whole board at every playout move would cost more than the move itself, so the
playout keeps a **watch list** of stones whose chain was in atari when last looked at: every
chain in atari at the playout's start (:func:`watch_board`, one scan), and after each move the
chains on and next to it (:func:`watch_move`: a chain can only fall into atari through a
stone played on one of its liberties, or as the mover's own chain). :func:`watched_atari_moves`
drops the entries no longer in atari and gives the captures and escapes of the rest
(:func:`miai._kernel.tactics.atari_replies`).

The list is an int32 array: ``watch[0]`` entries follow from index 1; when it is full, new
chains are not added (they are found again once the list has shrunk, if a move touches
them). ``@njit(cache=True)`` and plain Python, like the rest of the kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from miai._kernel.board import BLACK, COLOR, HEAD, LIBS, M_W, WHITE
from miai._kernel.tactics import atari_replies

WATCH_SIZE = 33
"""Room for 32 watched stones and the count."""


@njit(cache=True)
def new_watch() -> np.ndarray:
    """An empty watch list."""
    return np.zeros(WATCH_SIZE, np.int32)


@njit(cache=True, inline="always")
def _in_atari(grid: np.ndarray, p: int) -> bool:
    c = grid[COLOR, p]
    return (c == BLACK or c == WHITE) and grid[LIBS, grid[HEAD, p]] == 1


@njit(cache=True, inline="always")
def _add(watch: np.ndarray, p: int) -> None:
    k = watch[0]
    if k + 1 < watch.shape[0]:
        watch[k + 1] = p
        watch[0] = k + 1


@njit(cache=True)
def watch_board(grid: np.ndarray, watch: np.ndarray) -> None:
    """Start the list afresh with every chain in atari on the board (one stone each)."""
    watch[0] = 0
    for p in range(grid.shape[1]):
        c = grid[COLOR, p]
        if (c == BLACK or c == WHITE) and grid[HEAD, p] == p and grid[LIBS, p] == 1:
            _add(watch, p)


@njit(cache=True, inline="always")
def watch_move(grid: np.ndarray, meta: np.ndarray, p: int, watch: np.ndarray) -> None:
    """Add the chains in atari on and next to ``p``, the point just played (0: a pass)."""
    if p <= 0:
        return
    w = meta[M_W]
    for q in (p, p - w, p - 1, p + 1, p + w):
        if _in_atari(grid, q):
            _add(watch, q)


@njit(cache=True)
def watched_atari_moves(grid: np.ndarray, meta: np.ndarray, c: int, watch: np.ndarray, out: np.ndarray) -> int:
    """Forget the watched stones whose chain is no longer in atari, and write to ``out`` the
    captures (the opponent's chains) and escapes (``c``'s own) of the rest, each chain once;
    returns how many."""
    kept = 0
    n = 0
    for i in range(1, watch[0] + 1):
        p = watch[i]
        if not _in_atari(grid, p):
            continue
        head = grid[HEAD, p]
        seen = False
        for j in range(1, kept + 1):
            if grid[HEAD, watch[j]] == head:
                seen = True
                break
        if seen:
            continue
        kept += 1
        watch[kept] = p
        n = atari_replies(grid, meta, c, head, out, n)
    watch[0] = kept
    return n
