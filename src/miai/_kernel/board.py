"""The compiled board: stones, chains, liberties, captures, ko and the Zobrist hash.

Reading guide. A board is two numpy arrays, so that it crosses the Python/numba boundary
cheaply and copies in two memcpy's:

``grid`` (int32, shape ``(NROWS, L)``), one row per per-point table, indexed by a point of a
padded 1-D board: stride ``W = N + 2``, ``L = W * W``, on-board point ``p = (row+1)*W + col+1``;
neighbours are ``p±1`` and ``p±W``, and the border is a ring of WALL points:

- ``COLOR``: EMPTY, BLACK, WHITE or WALL.
- ``HEAD``: the chain's head point for a stone (0 for empty and wall points: point 0 is a
  wall corner, so it is never a head); ``NEXT``: the next stone of the chain (a circular list).
- ``LIBS``, ``SIZE``: exact liberty count and stone count, valid at the head.
- ``NB``: how many neighbours of each colour a point has, packed one byte per colour (byte
  ``k`` counts colour ``k``: empty, black, white; walls make up the rest to 4), so that a
  stone placed or removed updates each neighbour with one addition. They make the eye test
  and the common "has an empty neighbour" legality test O(1).
- ``EMPTIES``: the first ``meta[M_NEMPTY]`` entries list the empty points, in no meaningful
  order; ``EMPTY_POS`` is its inverse. Random move choice is O(1).
- ``MARK``: scratch marks for flood fills (compared with a generation number in meta).

``meta`` (int64): board size, stride, simple-ko point and the colour it is forbidden to,
number of empty points, stones captured by each colour, the Zobrist hash, the random state
of playouts and the mark generation.

Every function here is plain Python over arrays, compiled by :mod:`miai._kernel.jit`; with
``NUMBA_DISABLE_JIT=1`` the very same code runs interpreted. There is no turn order and no
history here: the Game keeps those (and superko).
"""

from __future__ import annotations

import numpy as np

from miai._kernel.jit import allocating, kernel

EMPTY, BLACK, WHITE, WALL = 0, 1, 2, 3

COLOR, HEAD, NEXT, LIBS, SIZE, NB, EMPTIES, EMPTY_POS, MARK = range(9)
NROWS = 9

M_N, M_W, M_KO, M_KO_COLOR, M_NEMPTY, M_CAPT_B, M_CAPT_W, M_HASH, M_RNG, M_MARKGEN = range(10)
NMETA = 10

# legality codes (IllegalReason in Python terms)
LEGAL, OCCUPIED, SUICIDE, KO = 0, 1, 2, 3

MAX_N = 25
MAX_L = (MAX_N + 2) * (MAX_N + 2)

ZOBRIST = np.random.default_rng(0x6D69616921).integers(
    -(2**63), 2**63 - 1, size=(3, MAX_L), dtype=np.int64, endpoint=True
)
"""Fixed-seed Zobrist keys: ZOBRIST[colour, point]; a position's hash is the XOR over its stones."""

DEFAULT_SEED = 0x9E3779B97F4A7C15 & 0x7FFFFFFFFFFFFFFF


@allocating
def new_board(n: int) -> tuple[np.ndarray, np.ndarray]:
    """An empty n×n board: ``(grid, meta)``."""
    w = n + 2
    length = w * w
    grid = np.zeros((NROWS, length), np.int32)
    meta = np.zeros(NMETA, np.int64)
    meta[M_N] = n
    meta[M_W] = w
    k = 0
    for p in range(length):
        r = p // w
        c = p % w
        if r == 0 or r == w - 1 or c == 0 or c == w - 1:
            grid[COLOR, p] = WALL
        else:
            grid[EMPTIES, k] = p
            grid[EMPTY_POS, p] = k
            k += 1
    meta[M_NEMPTY] = k
    for p in range(length):
        if grid[COLOR, p] != WALL:
            for q in (p - w, p - 1, p + 1, p + w):
                if grid[COLOR, q] == EMPTY:
                    grid[NB, p] += 1
    meta[M_RNG] = DEFAULT_SEED
    return grid, meta


@kernel(inline="always")
def _put(grid: np.ndarray, meta: np.ndarray, p: int, c: int) -> None:
    """Colour an empty point: neighbour counts, empty list and hash follow."""
    w = meta[M_W]
    grid[COLOR, p] = c
    delta = (1 << (8 * c)) - 1  # one neighbour moves from the empty count to colour c's
    for q in (p - w, p - 1, p + 1, p + w):
        grid[NB, q] += delta
    # remove p from the empty list by moving the last entry into its slot
    last = meta[M_NEMPTY] - 1
    i = grid[EMPTY_POS, p]
    moved = grid[EMPTIES, last]
    grid[EMPTIES, i] = moved
    grid[EMPTY_POS, moved] = i
    meta[M_NEMPTY] = last
    meta[M_HASH] ^= ZOBRIST[c, p]


@kernel(inline="always")
def _clear(grid: np.ndarray, meta: np.ndarray, p: int) -> None:
    """Empty a point holding a stone: neighbour counts, empty list and hash follow."""
    w = meta[M_W]
    c = grid[COLOR, p]
    grid[COLOR, p] = EMPTY
    grid[HEAD, p] = 0
    delta = (1 << (8 * c)) - 1
    for q in (p - w, p - 1, p + 1, p + w):
        grid[NB, q] -= delta
    k = meta[M_NEMPTY]
    grid[EMPTIES, k] = p
    grid[EMPTY_POS, p] = k
    meta[M_NEMPTY] = k + 1
    meta[M_HASH] ^= ZOBRIST[c, p]


@kernel(inline="always")
def _touches_chain(grid: np.ndarray, w: int, e: int, head: int) -> bool:
    """Whether point ``e`` is adjacent to a stone of the chain whose head is ``head``."""
    return (
        grid[HEAD, e - w] == head or grid[HEAD, e - 1] == head or grid[HEAD, e + 1] == head or grid[HEAD, e + w] == head
    )


@kernel(inline="always")
def neighbour_chains(grid: np.ndarray, w: int, p: int) -> tuple[int, int, int, int]:
    """The heads of the chains next to point ``p``, each once: one entry per neighbour (up,
    left, right, down), 0 where the neighbour is empty or a wall or its chain came before.
    The loops over "every distinct chain next to p" (captures, liberty updates, hashes).
    (The zeros are int32 like the grid, so that numba can iterate over the tuple.)"""
    a = grid[HEAD, p - w]
    b = grid[HEAD, p - 1]
    if b == a:
        b = np.int32(0)
    c = grid[HEAD, p + 1]
    if c == a or c == b:
        c = np.int32(0)
    d = grid[HEAD, p + w]
    if d == a or d == b or d == c:
        d = np.int32(0)
    return a, b, c, d


@kernel
def _merge(grid: np.ndarray, w: int, ha: int, hb: int) -> int:
    """Join two chains of one colour; returns the head of the union.

    The smaller chain's stones are relabelled one by one; an empty neighbour of one of them
    is a new liberty unless a stone already carrying the big chain's head touches it, which
    also keeps liberties shared inside the small chain from being counted twice (KataGo).
    """
    if grid[SIZE, ha] < grid[SIZE, hb]:
        ha, hb = hb, ha
    new_libs = 0
    s = hb
    while True:
        for e in (s - w, s - 1, s + 1, s + w):
            if grid[COLOR, e] == EMPTY and not _touches_chain(grid, w, e, ha):
                new_libs += 1
        grid[HEAD, s] = ha
        s = grid[NEXT, s]
        if s == hb:
            break
    na = grid[NEXT, ha]
    grid[NEXT, ha] = grid[NEXT, hb]
    grid[NEXT, hb] = na
    grid[SIZE, ha] += grid[SIZE, hb]
    grid[LIBS, ha] += new_libs
    return ha


@kernel
def _remove_chain(grid: np.ndarray, meta: np.ndarray, head: int) -> int:
    """Take a chain off the board, giving its points back as liberties; returns its size."""
    w = meta[M_W]
    n = 0
    s = head
    while True:
        _clear(grid, meta, s)
        n += 1
        s = grid[NEXT, s]
        if s == head:
            break
    # each freed point is one new liberty of every distinct chain next to it
    s = head
    while True:
        for h in neighbour_chains(grid, w, s):
            if h != 0:
                grid[LIBS, h] += 1
        nxt = grid[NEXT, s]
        grid[NEXT, s] = 0
        s = nxt
        if s == head:
            break
    return n


@kernel
def play_stone(grid: np.ndarray, meta: np.ndarray, p: int, c: int) -> int:
    """Place a stone of colour ``c`` on the empty point ``p``, without any legality check.

    Captures opponent chains left without liberties; if the mover's own chain is then
    without liberties (suicide, where the rules allow it) it is removed and its stones
    credited to the opponent. Sets the simple-ko point. Returns the number of opponent
    stones captured.
    """
    w = meta[M_W]
    o = 3 - c
    _put(grid, meta, p, c)
    grid[HEAD, p] = p
    grid[NEXT, p] = p
    grid[SIZE, p] = 1
    grid[LIBS, p] = grid[NB, p] & 0xFF
    # p was a liberty of every chain next to it: one less each
    for h in neighbour_chains(grid, w, p):
        if h != 0 and h != p:
            grid[LIBS, h] -= 1
    for q in (p - w, p - 1, p + 1, p + w):
        if grid[COLOR, q] == c:
            hq = grid[HEAD, q]
            hp = grid[HEAD, p]
            if hq != hp:
                _merge(grid, w, hp, hq)
    captured = 0
    last_captured = 0
    for q in (p - w, p - 1, p + 1, p + w):
        if grid[COLOR, q] == o and grid[LIBS, grid[HEAD, q]] == 0:
            captured += _remove_chain(grid, meta, grid[HEAD, q])
            last_captured = q
    meta[M_CAPT_B + c - 1] += captured
    hp = grid[HEAD, p]
    if captured == 1 and grid[SIZE, hp] == 1 and grid[LIBS, hp] == 1:
        meta[M_KO] = last_captured
        meta[M_KO_COLOR] = o
    else:
        meta[M_KO] = 0
        meta[M_KO_COLOR] = 0
    if grid[LIBS, hp] == 0:
        meta[M_CAPT_B + o - 1] += _remove_chain(grid, meta, hp)
    return captured


@kernel
def pass_turn(meta: np.ndarray) -> None:
    """A pass: the position is unchanged, but a simple-ko ban is lifted."""
    meta[M_KO] = 0
    meta[M_KO_COLOR] = 0


@kernel(inline="always")
def legality(grid: np.ndarray, meta: np.ndarray, p: int, c: int, suicide_allowed: bool) -> int:
    """LEGAL, OCCUPIED, KO (simple ko) or SUICIDE for a stone of ``c`` on point ``p``.

    With ``suicide_allowed`` only a multi-stone suicide is legal: a lone stone's suicide
    would recreate the position and stays illegal under every ruleset.
    """
    if grid[COLOR, p] != EMPTY:
        return OCCUPIED
    if p == meta[M_KO] and c == meta[M_KO_COLOR]:
        return KO
    if grid[NB, p] & 0xFF:
        return LEGAL
    w = meta[M_W]
    o = 3 - c
    own_neighbour = False
    for q in (p - w, p - 1, p + 1, p + w):
        cq = grid[COLOR, q]
        if cq == c:
            if grid[LIBS, grid[HEAD, q]] > 1:
                return LEGAL
            own_neighbour = True
        elif cq == o:
            if grid[LIBS, grid[HEAD, q]] == 1:
                return LEGAL
    if suicide_allowed and own_neighbour:
        return LEGAL
    return SUICIDE


@kernel
def _xor_chain(grid: np.ndarray, h: int, head: int, c: int) -> int:
    s = head
    while True:
        h ^= ZOBRIST[c, s]
        s = grid[NEXT, s]
        if s == head:
            break
    return h


@kernel
def hash_after(grid: np.ndarray, meta: np.ndarray, p: int, c: int) -> int:
    """The Zobrist hash of the position a (legal) stone of ``c`` on ``p`` would leave,
    captures and suicide included, without changing the board."""
    w = meta[M_W]
    o = 3 - c
    h = meta[M_HASH] ^ ZOBRIST[c, p]
    heads = neighbour_chains(grid, w, p)
    captures = False
    own_safe = (grid[NB, p] & 0xFF) > 0
    for hq in heads:
        cq = grid[COLOR, hq]
        if cq == o and grid[LIBS, hq] == 1:
            h = _xor_chain(grid, h, hq, o)
            captures = True
        elif cq == c and grid[LIBS, hq] > 1:
            own_safe = True
    if captures or own_safe:
        return h
    # suicide: the new stone and every chain it joins leave the board
    h ^= ZOBRIST[c, p]
    for hq in heads:
        if grid[COLOR, hq] == c:
            h = _xor_chain(grid, h, hq, c)
    return h


@kernel(inline="always")
def is_own_eye(grid: np.ndarray, meta: np.ndarray, p: int, c: int) -> bool:
    """A single-point eye of ``c``: all neighbours ``c`` or wall, and fewer than two
    'bad' diagonals (opponent stones, plus one if the point is on the edge)."""
    nb = grid[NB, p]
    o = 3 - c
    if (nb & 0xFF) != 0 or ((nb >> (8 * o)) & 0xFF) != 0:
        return False
    w = meta[M_W]
    bad = 1 if ((nb >> (8 * c)) & 0xFF) < 4 else 0
    for d in (p - w - 1, p - w + 1, p + w - 1, p + w + 1):
        if grid[COLOR, d] == o:
            bad += 1
    return bad < 2


@allocating
def legal_mask(grid: np.ndarray, meta: np.ndarray, c: int, suicide_allowed: bool) -> np.ndarray:
    """A boolean n×n array (row 0 at the bottom): where a stone of ``c`` is legal by
    occupancy, suicide and simple ko (superko is the Game's business)."""
    n = meta[M_N]
    w = meta[M_W]
    out = np.zeros((n, n), np.bool_)
    for r in range(n):
        for col in range(n):
            out[r, col] = legality(grid, meta, (r + 1) * w + col + 1, c, suicide_allowed) == LEGAL
    return out


@kernel
def set_point(grid: np.ndarray, meta: np.ndarray, p: int, c: int) -> None:
    """Edit one point (setup stones, removing dead stones): make it ``c`` (EMPTY to clear)
    with no captures, then rebuild the chains around it. Clears the ko point."""
    if grid[COLOR, p] == c:
        return
    if grid[COLOR, p] != EMPTY:
        _clear(grid, meta, p)
    if c != EMPTY:
        _put(grid, meta, p, c)
    rebuild_chains(grid, meta)
    meta[M_KO] = 0
    meta[M_KO_COLOR] = 0


@allocating
def rebuild_chains(grid: np.ndarray, meta: np.ndarray) -> None:
    """Recompute every chain (head, next, size, liberties) from the colours alone."""
    n = meta[M_N]
    w = meta[M_W]
    length = w * w
    for p in range(length):
        grid[HEAD, p] = 0
        grid[NEXT, p] = 0
    gen = meta[M_MARKGEN] + 1
    meta[M_MARKGEN] = gen
    stack = np.empty(length, np.int32)
    for r in range(n):
        for col in range(n):
            p0 = (r + 1) * w + col + 1
            c = grid[COLOR, p0]
            if c == EMPTY or grid[HEAD, p0] != 0:
                continue
            # flood the chain from p0, linking stones as they are found
            grid[HEAD, p0] = p0
            grid[NEXT, p0] = p0
            size = 1
            top = 0
            stack[top] = p0
            top += 1
            libs = 0
            gen += 1
            while top > 0:
                top -= 1
                s = stack[top]
                for q in (s - w, s - 1, s + 1, s + w):
                    cq = grid[COLOR, q]
                    if cq == c and grid[HEAD, q] == 0:
                        grid[HEAD, q] = p0
                        grid[NEXT, q] = grid[NEXT, p0]
                        grid[NEXT, p0] = q
                        size += 1
                        stack[top] = q
                        top += 1
                    elif cq == EMPTY and grid[MARK, q] != gen:
                        grid[MARK, q] = gen
                        libs += 1
            grid[SIZE, p0] = size
            grid[LIBS, p0] = libs
    meta[M_MARKGEN] = gen + 1


@allocating
def region_owners(grid: np.ndarray, meta: np.ndarray, out: np.ndarray) -> None:
    """Fill ``out`` (length L) with each point's owner for area counting: a stone's colour;
    for an empty point, the colour of every stone bordering its empty region, or EMPTY
    when the region touches both colours or none (neutral)."""
    n = meta[M_N]
    w = meta[M_W]
    length = w * w
    gen = meta[M_MARKGEN] + 1
    meta[M_MARKGEN] = gen
    stack = np.empty(length, np.int32)
    region = np.empty(length, np.int32)
    for p in range(length):
        out[p] = 0
    for r in range(n):
        for col in range(n):
            p0 = (r + 1) * w + col + 1
            c = grid[COLOR, p0]
            if c != EMPTY:
                out[p0] = c
                continue
            if grid[MARK, p0] == gen:
                continue
            grid[MARK, p0] = gen
            top = 0
            stack[0] = p0
            top = 1
            size = 0
            border = 0
            while top > 0:
                top -= 1
                s = stack[top]
                region[size] = s
                size += 1
                for q in (s - w, s - 1, s + 1, s + w):
                    cq = grid[COLOR, q]
                    if cq == EMPTY:
                        if grid[MARK, q] != gen:
                            grid[MARK, q] = gen
                            stack[top] = q
                            top += 1
                    elif cq != WALL:
                        border |= cq
            owner = border if border == BLACK or border == WHITE else EMPTY
            for i in range(size):
                out[region[i]] = owner


@kernel
def add_owners(grid: np.ndarray, meta: np.ndarray, owners: np.ndarray, owners_sum: np.ndarray) -> int:
    """Add each point's owner (:func:`region_owners`, written into the scratch ``owners``)
    to ``owners_sum``, +1 Black and -1 White; returns Black's area minus White's."""
    region_owners(grid, meta, owners)
    d = 0
    for p in range(owners.shape[0]):
        o = owners[p]
        if o == BLACK:
            d += 1
            owners_sum[p] += 1
        elif o == WHITE:
            d -= 1
            owners_sum[p] -= 1
    return d


@allocating
def area_difference(grid: np.ndarray, meta: np.ndarray) -> int:
    """Black's area minus White's (stones plus single-coloured empty regions)."""
    w = meta[M_W]
    out = np.empty(w * w, np.int32)
    region_owners(grid, meta, out)
    d = 0
    for p in range(w * w):
        if out[p] == BLACK:
            d += 1
        elif out[p] == WHITE:
            d -= 1
    return d
