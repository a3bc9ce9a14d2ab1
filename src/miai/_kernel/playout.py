"""Uniformly random playouts, the benchmark's workload and the simplest Monte-Carlo policy.

The rule (the same one the C baseline in ``benchmarks/baseline`` follows): the side to move
plays a move chosen uniformly among its legal moves (suicide forbidden, simple ko) that do
not fill its own single-point eye; it passes only when no such move is left; the playout
stops after two consecutive passes or ``max_turns`` turns and is counted by area.

It also holds what every playout loop shares: the random number generator
(:func:`random_below`), rejection without replacement (:func:`discard_candidate`), one turn
played or passed, counting the consecutive passes that end a playout (:func:`play_turn`),
and the scratch board that is set back to the position before each playout while the
random state runs on (:func:`_scratch`, :func:`_restore`), used by :func:`run_playouts`,
the light policy's ``ownership``, the heavy policy's ``run_heavy_playouts`` and the search.
"""

from __future__ import annotations

import numpy as np

from miai._kernel.board import (
    EMPTIES,
    EMPTY_POS,
    LEGAL,
    M_N,
    M_NEMPTY,
    M_RNG,
    area_difference,
    is_own_eye,
    legality,
    pass_turn,
    play_stone,
)
from miai._kernel.jit import allocating, kernel


@kernel(inline="always")
def random_below(meta: np.ndarray, k: int) -> int:
    """A random integer in [0, k): xorshift64 (shifts only, so that the same code runs
    interpreted without overflow warnings), then Lemire's multiply-shift reduction."""
    x = meta[M_RNG]
    x ^= x << 13
    x ^= (x >> 7) & 0x01FFFFFFFFFFFFFF  # a logical shift of the signed state
    x ^= x << 17
    meta[M_RNG] = x
    hi = (x >> 32) & 0xFFFFFFFF
    return (hi * k) >> 32


@kernel(inline="always")
def discard_candidate(grid: np.ndarray, r: int, k: int) -> None:
    """Swap the empty point at index ``r`` of the empty list with the one at ``k`` (the
    first one past the candidates still to try): rejection without replacement, which
    keeps a random choice among the remaining candidates uniform. The list's order carries
    no meaning, so the board is unchanged."""
    p = grid[EMPTIES, r]
    last = grid[EMPTIES, k]
    grid[EMPTIES, r] = last
    grid[EMPTY_POS, last] = r
    grid[EMPTIES, k] = p
    grid[EMPTY_POS, p] = k


@kernel(inline="always")
def play_turn(grid: np.ndarray, meta: np.ndarray, p: int, c: int, passes: int) -> int:
    """Play ``c``'s chosen move ``p`` (0: a pass) and return the consecutive passes so far
    (``passes`` plus one after a pass, 0 after a stone): a playout ends at two."""
    if p == 0:
        pass_turn(meta)
        return passes + 1
    play_stone(grid, meta, p, c)
    return 0


@allocating
def _scratch(grid: np.ndarray, meta: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A copy of the board to play playouts on, its random state seeded with ``seed``
    (xorshift has no zero state: 0 becomes 1)."""
    g = grid.copy()
    m = meta.copy()
    m[M_RNG] = seed if seed != 0 else 1
    return g, m


@allocating(inline="always")
def _restore(g: np.ndarray, m: np.ndarray, grid: np.ndarray, meta: np.ndarray) -> None:
    """Set the scratch board ``g``, ``m`` back to the position ``grid``, ``meta`` for the next
    playout, keeping the scratch's random state (so that successive playouts differ)."""
    g[:, :] = grid
    rng = m[M_RNG]
    m[:] = meta
    m[M_RNG] = rng


@kernel
def choose_random_move(grid: np.ndarray, meta: np.ndarray, c: int) -> int:
    """A point chosen uniformly among ``c``'s legal moves that do not fill its own eye,
    or 0 if there is none (pass). Candidates found wanting are swapped to the end of the
    empty list, which changes nothing but its order."""
    k = meta[M_NEMPTY]
    while k > 0:
        r = random_below(meta, k)
        p = grid[EMPTIES, r]
        if legality(grid, meta, p, c, False) == LEGAL and not is_own_eye(grid, meta, p, c):
            return p
        k -= 1
        discard_candidate(grid, r, k)
    return 0


@kernel
def playout(grid: np.ndarray, meta: np.ndarray, to_move: int, max_turns: int) -> tuple[int, int, int]:
    """Play a random game to the end on this board (modified in place).

    Returns ``(turns, passes, area difference)``: the number of turns played (passes
    included), how many of them were passes, and Black's area minus White's at the end,
    before komi.
    """
    total_passes = 0
    passes = 0
    turns = 0
    c = to_move
    while turns < max_turns and passes < 2:
        p = choose_random_move(grid, meta, c)
        passes = play_turn(grid, meta, p, c, passes)
        if p == 0:
            total_passes += 1
        turns += 1
        c = 3 - c
    return turns, total_passes, area_difference(grid, meta)


@allocating
def run_playouts(
    grid: np.ndarray, meta: np.ndarray, to_move: int, count: int, komi: float, seed: int
) -> tuple[int, int, int]:
    """Run ``count`` playouts from this position (left unchanged). Returns
    ``(total turns, total passes, black wins)``."""
    g, m = _scratch(grid, meta, seed)
    n = meta[M_N]
    max_turns = 3 * n * n
    total = 0
    passes = 0
    wins = 0
    for _ in range(count):
        _restore(g, m, grid, meta)
        turns, npass, diff = playout(g, m, to_move, max_turns)
        total += turns
        passes += npass
        if diff - komi > 0:
            wins += 1
    return total, passes, wins
