"""The features of a candidate move, for a move predictor of Coulom's kind ("Computing Elo
Ratings of Move Patterns in the Game of Go", 2007).

Reading guide. Every move a player may make here (legal, not filling an own eye) is
described by one *level* in each of :data:`NGROUPS` feature groups; a move predictor gives
each level of each group a strength (:mod:`miai.ai.movemodel`) and a move the product of its
levels' strengths. The groups:

- ``F_SPATIAL``: the chance that a player plays into the largest learned spatial pattern
  around the move (:mod:`miai._kernel.spatial`, :mod:`miai.ai.patterns`), in half-powers of
  two: 0 if the table knows none, 1 for a chance of 1 to 0.71, 2 for 0.71 to 0.5, and so on to
  :data:`SPATIAL_BINS` (the table's chances are learned from many more games than a predictor
  is fitted on; bins of them are what it can weigh);
- ``F_PAT3``: the 3×3 neighbourhood, colours relative to the mover (a 16-bit code, two bits a
  point: empty, the mover's, the opponent's, off the board), orientations apart;
- ``F_CAPTURE``: 0, or a capture of 1, 2–5 or 6 and more stones (1, 2, 3);
- ``F_EXTEND``: a stone added to an own chain in atari: 0 none, 1 it then has three liberties or
  more and was a single stone, 2 the same for a larger chain, 3 it then has two liberties;
- ``F_ATARI``: 0 none, 1 an atari whose chain then dies in a ladder, 2 another atari;
- ``F_SELFATARI``: 1 if the move leaves its own chain of two or more stones in atari;
- ``F_DIST1``/``F_DIST2``: the gridcular distance (:func:`miai._kernel.spatial.gridcular`) to
  the last move and to the move before it: 0 if there was none (or a pass), else the
  distance from 2 to 16, and 17 for anything farther;
- ``F_LINE``: the line the move is on, from the edge: 0 for the first line to 4 for the fifth
  and beyond.

Compiled by :mod:`miai._kernel.jit`, like the rest of the kernel.
"""

from __future__ import annotations

import numpy as np

from miai._kernel.board import COLOR, EMPTIES, HEAD, LEGAL, LIBS, M_N, M_NEMPTY, M_W, SIZE, is_own_eye, legality
from miai._kernel.heavy import env8, self_atari
from miai._kernel.jit import allocating, kernel
from miai._kernel.ladder import ladder_atari_works
from miai._kernel.spatial import NOFFSETS, NSIZES, pattern_value
from miai._kernel.tactics import captures_something, liberties_after

F_SPATIAL, F_PAT3, F_CAPTURE, F_EXTEND, F_ATARI, F_SELFATARI, F_DIST1, F_DIST2, F_LINE = range(9)
NGROUPS = 9
FAR = 17
"""The level of a gridcular distance of 17 or more."""
SPATIAL_BINS = 40
"""The spatial group's last level: a chance below 2**-19.5 (or 0)."""
LEVELS = np.array([SPATIAL_BINS + 1, 1 << 16, 4, 4, 3, 2, FAR + 1, FAR + 1, 5], np.int64)
"""How many levels each group has."""
OFFSETS = np.concatenate((np.zeros(1, np.int64), np.cumsum(LEVELS)[:-1]))
"""Where each group's levels start in a predictor's flat array of strengths."""


@kernel(inline="always")
def spatial_level(chance: float) -> int:
    """The ``F_SPATIAL`` level of a pattern's chance (-1: no pattern known)."""
    if chance < 0.0:
        return 0
    if chance <= 0.0:
        return SPATIAL_BINS
    return 1 + min(int(-np.log2(chance) * 2.0), SPATIAL_BINS - 1)


@kernel(inline="always")
def _relative_env8(code: int, c: int) -> int:
    """The 3×3 code with the mover's stones as 1 and the opponent's as 2."""
    if c == 1:
        return code
    out = 0
    for k in range(8):
        v = (code >> (2 * k)) & 3
        if v == 1 or v == 2:
            v = 3 - v
        out |= v << (2 * k)
    return out


@kernel(inline="always")
def _distance_level(w: int, p: int, q: int) -> int:
    if q <= 0:
        return 0
    dx = abs(p % w - q % w)
    dy = abs(p // w - q // w)
    d = dx + dy + max(dx, dy)
    return d if d < FAR else FAR


@kernel
def move_features(
    grid: np.ndarray, meta: np.ndarray, p: int, c: int, last: int, last2: int, chance: float,
    gs: np.ndarray, ms: np.ndarray, work: np.ndarray, budget: np.ndarray, out: np.ndarray,
) -> None:
    """The level of each group (``out``, :data:`NGROUPS` entries) for ``c`` playing the empty
    point ``p``; ``last``/``last2`` the points of the last two moves (0 for a pass or none).
    ``chance`` is the value of the largest learned pattern around ``p``
    (:func:`miai._kernel.spatial.pattern_value`, -1 for none: the caller has it already);
    ``gs``..``budget`` the ladder reader's (:func:`miai._kernel.ladder.new_scratch`; without
    that space, as when the search's ladder prior is off, every atari is ``F_ATARI`` 2)."""
    n = meta[M_N]
    w = meta[M_W]
    out[F_SPATIAL] = spatial_level(chance)
    out[F_PAT3] = _relative_env8(env8(grid, w, p), c)
    caught = captures_something(grid, meta, p, c)
    out[F_CAPTURE] = 0 if caught == 0 else (1 if caught == 1 else (2 if caught <= 5 else 3))
    extend = 0
    atari = False
    for q in (p - w, p - 1, p + 1, p + w):
        cq = grid[COLOR, q]
        if cq == c and grid[LIBS, grid[HEAD, q]] == 1 and extend == 0:
            libs = liberties_after(grid, meta, p, c, 3)
            if libs >= 3:
                extend = 1 if grid[SIZE, grid[HEAD, q]] == 1 else 2
            elif libs == 2:
                extend = 3
        elif cq == 3 - c and grid[LIBS, grid[HEAD, q]] == 2:
            atari = True
    out[F_EXTEND] = extend
    if atari:
        out[F_ATARI] = 1 if gs.shape[0] > 0 and ladder_atari_works(grid, meta, p, c, gs, ms, work, budget) else 2
    else:
        out[F_ATARI] = 0
    out[F_SELFATARI] = 1 if self_atari(grid, meta, p, c) else 0
    out[F_DIST1] = _distance_level(w, p, last)
    out[F_DIST2] = _distance_level(w, p, last2)
    r = p // w - 1
    col = p % w - 1
    line = min(min(r, col), min(n - 1 - r, n - 1 - col))
    out[F_LINE] = line if line < 4 else 4


@allocating
def position_features(
    grid: np.ndarray, meta: np.ndarray, c: int, last: int, last2: int,
    spatial_keys: np.ndarray, spatial_values: np.ndarray,
    gs: np.ndarray, ms: np.ndarray, work: np.ndarray, budget: np.ndarray,
    points: np.ndarray, features: np.ndarray,
) -> int:
    """:func:`move_features` of every move ``c`` may make here (legal, not filling an own
    eye): each point into ``points``, its levels into the row of ``features`` at the same
    index; returns how many."""
    states = np.empty(NOFFSETS, np.int8)
    hashes = np.empty(NSIZES, np.int64)
    known = spatial_keys.shape[0] > 0
    k = 0
    for i in range(meta[M_NEMPTY]):
        p = grid[EMPTIES, i]
        if legality(grid, meta, p, c, False) != LEGAL or is_own_eye(grid, meta, p, c):
            continue
        chance = pattern_value(grid, meta, p, c, spatial_keys, spatial_values, states, hashes) if known else -1.0
        move_features(grid, meta, p, c, last, last2, chance, gs, ms, work, budget, features[k])
        points[k] = p
        k += 1
    return k


@kernel(inline="always")
def log_strength(levels: np.ndarray, offsets: np.ndarray, log_gammas: np.ndarray) -> float:
    """A move's strength, as a natural log: the sum of its levels' (``log_gammas``, every
    group's levels one after the other, group ``g``'s from ``offsets[g]``)."""
    total = 0.0
    for g in range(NGROUPS):
        total += log_gammas[offsets[g] + levels[g]]
    return total
