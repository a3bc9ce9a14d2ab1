"""Spatial patterns: the stones around a point, out to a distance, as one hash per size.

Reading guide. A *spatial pattern* (Pachi's ``patternsp.c``, after Stern, Herbrich and
Graepel's and Coulom's move predictors) is what surrounds an empty point: for every point
within a *gridcular* distance ``d`` of it — ``|dx| + |dy| + max(|dx|, |dy|)``, a rough
circle — whether it is empty, the mover's stone, the opponent's, or off the board. Size 3 is
the 3×3 square around the point (8 points), size 4 adds the four points two lines away (12),
and so on to size :data:`MAX_SIZE` (10: 72 points, about a 9×9 diamond).

:data:`OFFSETS` lists the points around by distance, so that the points of size ``d`` are a
prefix of the list (:data:`SIZE_END`); a pattern's hash is the XOR of a Zobrist key per (offset,
state), mixed with a key of the size so that no two sizes share a hash, and the hashes of
every size come out of one sweep. Colours are relative to the player to move, so a shape and
its colour swap for the other player are one pattern. A shape and its seven rotations and
reflections are one pattern too: :func:`oriented_hashes` gives the hash of each of the eight
orientations (:data:`SYMMETRY` maps each offset under each of them); a learner counts a
pattern under the least of them, and the table the search reads (:func:`build_slots`, open
addressing) holds all eight, so that matching hashes the board's shape once, as it is
(:func:`identity_hashes`, :func:`pattern_value`).

The table is learned from game records (:mod:`miai.ai.patterns`); the search's prior reads it
at each expansion (:func:`miai._kernel.tree.expand`).
Compiled by :mod:`miai._kernel.jit` and plain Python, like the rest of the kernel.
"""

from __future__ import annotations

import numpy as np

from miai._kernel.board import BLACK, COLOR, EMPTIES, LEGAL, M_N, M_NEMPTY, M_W, WHITE, is_own_eye, legality
from miai._kernel.jit import allocating, kernel

MIN_SIZE = 3
"""The smallest size hashed: the 3×3 square (the 3×3 patterns of the playouts' kind)."""
MAX_SIZE = 10
"""The largest: every point within gridcular distance 10 (72 points)."""
NSIZES = MAX_SIZE - MIN_SIZE + 1

S_EMPTY, S_OWN, S_OTHER, S_OFF = range(4)
"""The state of a point around: empty, the mover's stone, the opponent's, off the board."""


def gridcular(dx: int, dy: int) -> int:
    """Pachi's distance: ``|dx| + |dy| + max(|dx|, |dy|)`` (1 step straight is 2, diagonal 3)."""
    return abs(dx) + abs(dy) + max(abs(dx), abs(dy))


def _offsets() -> np.ndarray:
    reach = MAX_SIZE // 2
    around = [
        (dx, dy)
        for dx in range(-reach, reach + 1)
        for dy in range(-reach, reach + 1)
        if (dx, dy) != (0, 0) and gridcular(dx, dy) <= MAX_SIZE
    ]
    around.sort(key=lambda o: (gridcular(*o), o[1], o[0]))
    return np.array(around, np.int32)


OFFSETS = _offsets()
"""The ``(dx, dy)`` of every point around, nearest first (by gridcular distance)."""
NOFFSETS = len(OFFSETS)

SIZE_END = np.array([int(np.sum([gridcular(int(x), int(y)) <= d for x, y in OFFSETS])) for d in range(MAX_SIZE + 1)], np.int32)
"""``SIZE_END[d]``: how many of :data:`OFFSETS` a pattern of size ``d`` covers (a prefix)."""


def _transforms() -> list[tuple[int, int, int, int]]:
    """The eight rotations and reflections of the square, as matrices ``(a, b, c, d)``:
    ``(dx, dy) -> (a dx + b dy, c dx + d dy)``."""
    out = []
    for a, b, c, d in ((1, 0, 0, 1), (0, -1, 1, 0), (-1, 0, 0, -1), (0, 1, -1, 0)):
        out.append((a, b, c, d))
        out.append((-a, -b, c, d))  # and its mirror image
    return out


def _symmetry() -> np.ndarray:
    index = {(int(x), int(y)): k for k, (x, y) in enumerate(OFFSETS)}
    table = np.empty((8, NOFFSETS), np.int32)
    for t, (a, b, c, d) in enumerate(_transforms()):
        for k, (x, y) in enumerate(OFFSETS):
            table[t, k] = index[(a * int(x) + b * int(y), c * int(x) + d * int(y))]
    return table


SYMMETRY = _symmetry()
"""``SYMMETRY[t, k]``: the offset that offset ``k`` becomes under orientation ``t`` (0: as is)."""

_KEYS = np.random.default_rng(0x7370617469616C).integers(
    -(2**63), 2**63 - 1, size=(NOFFSETS + MAX_SIZE + 1, 4), dtype=np.int64, endpoint=True
)
ZOBRIST = _KEYS[:NOFFSETS].copy()
"""``ZOBRIST[k, state]``: the key of offset ``k`` holding ``state`` (fixed seed)."""
SIZE_KEY = _KEYS[NOFFSETS:, 0].copy()
"""``SIZE_KEY[d]``: mixed into the hashes of size ``d``."""


@kernel
def states_around(grid: np.ndarray, meta: np.ndarray, p: int, c: int, out: np.ndarray) -> None:
    """Write into ``out`` (one entry per offset) the state of each point around ``p``, with
    ``c`` the player to move (``S_OWN`` for its stones)."""
    n = meta[M_N]
    w = meta[M_W]
    row = p // w - 1
    col = p % w - 1
    for k in range(NOFFSETS):
        r = row + OFFSETS[k, 1]
        q = col + OFFSETS[k, 0]
        if r < 0 or r >= n or q < 0 or q >= n:
            out[k] = S_OFF
            continue
        colour = grid[COLOR, (r + 1) * w + q + 1]
        if colour == BLACK or colour == WHITE:
            out[k] = S_OWN if colour == c else S_OTHER
        else:
            out[k] = S_EMPTY


@kernel
def oriented_hashes(states: np.ndarray, out: np.ndarray) -> None:
    """``out[t, i]``: the hash of the shape ``states`` (from :func:`states_around`) turned by
    orientation ``t``, at size ``MIN_SIZE + i``, i.e. the hash :func:`identity_hashes` gives
    where the board shows the shape turned so. Row 0 is the shape as it is."""
    for t in range(8):
        h = np.int64(0)
        i = 0
        for k in range(NOFFSETS):
            h ^= ZOBRIST[SYMMETRY[t, k], states[k]]
            if k + 1 == SIZE_END[MIN_SIZE + i]:
                out[t, i] = h ^ SIZE_KEY[MIN_SIZE + i]
                i += 1
                if i == NSIZES:
                    break


@kernel
def identity_hashes(states: np.ndarray, out: np.ndarray) -> None:
    """``out[i]``: the hash of the shape ``states`` as it is, at size ``MIN_SIZE + i``."""
    h = np.int64(0)
    i = 0
    for k in range(NOFFSETS):
        h ^= ZOBRIST[k, states[k]]
        if k + 1 == SIZE_END[MIN_SIZE + i]:
            out[i] = h ^ SIZE_KEY[MIN_SIZE + i]
            i += 1
            if i == NSIZES:
                break


@allocating
def build_slots(hashes: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An open-addressing hash table of ``hashes`` and their ``values``: ``(keys, values)``
    arrays of a power of two at least twice as long, 0 marking a free slot (a hash of 0 is
    left out: one in 2**64). A hash given twice keeps its last value."""
    size = 1
    while size < 2 * hashes.shape[0]:
        size *= 2
    keys = np.zeros(size, np.int64)
    out = np.zeros(size, np.float64)
    mask = size - 1
    for j in range(hashes.shape[0]):
        h = hashes[j]
        if h == 0:
            continue
        i = h & mask
        while keys[i] != 0 and keys[i] != h:
            i = (i + 1) & mask
        keys[i] = h
        out[i] = values[j]
    return keys, out


@kernel
def lookup(keys: np.ndarray, values: np.ndarray, h: np.int64) -> float:
    """The value stored for hash ``h`` in the table of :func:`build_slots`, or -1."""
    mask = keys.shape[0] - 1
    i = h & mask
    while keys[i] != 0:
        if keys[i] == h:
            return values[i]
        i = (i + 1) & mask
    return -1.0


@kernel
def pattern_value(
    grid: np.ndarray, meta: np.ndarray, p: int, c: int, keys: np.ndarray, values: np.ndarray,
    states: np.ndarray, hashes: np.ndarray,
) -> float:
    """The value of the largest pattern around ``p`` (``c`` to move) that the table
    ``keys``/``values`` (:func:`build_slots`, every orientation of each shape) holds, or -1
    if it holds none. ``states`` and ``hashes`` are scratch (:data:`NOFFSETS` and
    :data:`NSIZES` entries)."""
    states_around(grid, meta, p, c, states)
    return shape_value(states, keys, values, hashes)


@kernel
def shape_value(states: np.ndarray, keys: np.ndarray, values: np.ndarray, hashes: np.ndarray) -> float:
    """The value of the largest pattern of the shape ``states`` (as it is) that the table
    ``keys``/``values`` holds, or -1; ``hashes`` is scratch (:data:`NSIZES` entries)."""
    identity_hashes(states, hashes)
    for i in range(NSIZES - 1, -1, -1):
        v = lookup(keys, values, hashes[i])
        if v >= 0.0:
            return v
    return -1.0


@kernel
def position_states(grid: np.ndarray, meta: np.ndarray, c: int, points: np.ndarray, states: np.ndarray) -> int:
    """The moves ``c`` may play here (legal, not filling an own eye): each point into
    ``points``, the states around it (:func:`states_around`) into the row of ``states`` at
    the same index; returns how many. What a learner counts as *seen*."""
    n = 0
    for i in range(meta[M_NEMPTY]):
        p = grid[EMPTIES, i]
        if legality(grid, meta, p, c, False) != LEGAL or is_own_eye(grid, meta, p, c):
            continue
        states_around(grid, meta, p, c, states[n])
        points[n] = p
        n += 1
    return n


@kernel
def all_oriented_hashes(states: np.ndarray, out: np.ndarray) -> None:
    """:func:`oriented_hashes` for each row of ``states`` (``out``: rows × 8 × sizes)."""
    for r in range(states.shape[0]):
        oriented_hashes(states[r], out[r])


@allocating
def sized_oriented_hashes(shapes: np.ndarray, sizes: np.ndarray, out: np.ndarray) -> None:
    """``out[r, t]``: the hash of shape ``r`` (a row of ``shapes``) turned by orientation
    ``t``, at its size ``sizes[r]`` only: what a table of shapes needs, at an eighth of
    the memory of every size's."""
    scratch = np.empty((8, NSIZES), np.int64)
    for r in range(shapes.shape[0]):
        oriented_hashes(shapes[r], scratch)
        for t in range(8):
            out[r, t] = scratch[t, sizes[r] - MIN_SIZE]


@kernel
def canonical_hashes(states: np.ndarray, out: np.ndarray, scratch: np.ndarray) -> None:
    """``out[i]``: the pattern hash of the shape ``states`` at size ``MIN_SIZE + i``, the same
    in every orientation (the least of :func:`oriented_hashes`' eight); what a learner counts
    a pattern under. ``scratch``: 8 × :data:`NSIZES`."""
    oriented_hashes(states, scratch)
    for i in range(NSIZES):
        least = scratch[0, i]
        for t in range(1, 8):
            if scratch[t, i] < least:
                least = scratch[t, i]
        out[i] = least


@allocating
def all_canonical_hashes(states: np.ndarray, out: np.ndarray) -> None:
    """:func:`canonical_hashes` for each row of ``states`` (``out``: rows × sizes)."""
    scratch = np.empty((8, NSIZES), np.int64)
    for r in range(states.shape[0]):
        canonical_hashes(states[r], out[r], scratch)


@allocating
def count_known(states: np.ndarray, keys: np.ndarray, index: np.ndarray, counts: np.ndarray) -> None:
    """For each shape (row of ``states``) and each size, add one to ``counts[k]`` where its
    canonical hash is in the table ``keys``/``index`` (:func:`build_slots` of canonical hashes
    with the value ``k`` each): how a learner counts the patterns it knows as seen."""
    canonical = np.empty(NSIZES, np.int64)
    scratch = np.empty((8, NSIZES), np.int64)
    for r in range(states.shape[0]):
        canonical_hashes(states[r], canonical, scratch)
        for i in range(NSIZES):
            k = lookup(keys, index, canonical[i])
            if k >= 0.0:
                counts[int(k)] += 1
