"""The light playout policy, and ownership: who ends up owning each point, averaged over
many light playouts (the status estimate's evidence, :mod:`miai.ai.status`).

The search plays the heavy policy (:mod:`miai._kernel.heavy`, with 3×3 patterns); this one
has no patterns, but is smarter than ``playout.py``'s uniform one, because ownership judges
finished or nearly finished positions, where uniform play is too silly (it fills the last
shared liberty of a seki, ignores ataris). :func:`light_move` chooses a move:

1. If the opponent's last move left one of its chains next to it in atari, capture it.
2. If it put one of our chains next to it in atari, extend it when that gives it at least two
   liberties.
3. If it left a space of exactly three empty points next to it, enclosed by one colour (a
   capture of three stones does), play that space's middle point: the vital point, which
   makes two eyes for the owner or kills them for the other side.
4. Otherwise a uniformly random legal move that does not fill our own eye (a point whose
   neighbours are all ours, true eye or false, unless filling it saves a chain of ours in
   atari: the connection through a false eye) and
   is not a self-atari no one would make (:func:`useless_self_atari`): more than
   ``NAKADE_MAX`` stones, or a sacrifice whose capture kills nothing (the nakade test of
   :func:`useless_sacrifice`). Seki shapes stay seki (filling a shared liberty would put a
   whole group in atari, or give the opponent a second eye), while the small sacrifices
   that kill an eye space from inside (nakade: a bent three, a throw-in) remain possible.

A playout (:func:`light_playout`) ends after two passes (or ``3 N²`` turns) and is counted
by area with ``region_owners``. :func:`ownership` adds each point's final owner into per-colour counts.
"""

from __future__ import annotations

import numpy as np

from miai._kernel.board import (
    BLACK, COLOR, EMPTIES, EMPTY, HEAD, LEGAL, LIBS, M_N, M_NEMPTY, M_W, NB, NEXT, WALL, WHITE,
    legality, region_owners,
)
from miai._kernel.jit import allocating, kernel
from miai._kernel.nakade import NAKADE_MAX as NAKADE_AREA_MAX
from miai._kernel.nakade import dead_shape
from miai._kernel.playout import _restore, _scratch, discard_candidate, play_turn, random_below
from miai._kernel.tactics import captures_something, chain_liberty, liberties_after, stones_after

NAKADE_MAX = 3
"""The largest chain a playout may put in atari by its own move (a nakade sacrifice)."""


@kernel(inline="always")
def _in_sacrifice(grid: np.ndarray, q: int, p: int, h0: int, h1: int, h2: int) -> bool:
    """Whether ``q`` is a stone of the chain a stone on ``p`` would form with the chains
    whose heads are ``h0``, ``h1``, ``h2`` (-1: none)."""
    if q == p:
        return True
    h = grid[HEAD, q]
    return h != 0 and (h == h0 or h == h1 or h == h2)


@kernel
def _joined_heads(grid: np.ndarray, w: int, p: int, c: int) -> tuple[int, int, int]:
    """The heads of the (up to three) chains of ``c`` next to ``p``; -1 for none."""
    h0 = -1
    h1 = -1
    h2 = -1
    for q in (p - w, p - 1, p + 1, p + w):
        if grid[COLOR, q] == c:
            h = grid[HEAD, q]
            if h != h0 and h != h1 and h != h2:
                if h0 == -1:
                    h0 = h
                elif h1 == -1:
                    h1 = h
                else:
                    h2 = h
    return h0, h1, h2


@kernel
def _eye_after_capture(grid: np.ndarray, w: int, e: int, lib: int, c: int, p: int, h0: int, h1: int, h2: int) -> bool:
    """Whether the empty point ``e`` is an eye of the opponent of ``c`` once the sacrifice
    (``p`` with the chains ``h0``..``h2``) is captured at ``lib``: every neighbour the
    opponent's (``lib`` counts as the opponent's), fewer than two bad diagonals."""
    o = 3 - c
    bad = 0
    for f in (e - w, e - 1, e + 1, e + w):
        cf = grid[COLOR, f]
        if cf == WALL:
            bad = 1
        elif not (f == lib or cf == o):
            return False
    for d in (e - w - 1, e - w + 1, e + w - 1, e + w + 1):
        if grid[COLOR, d] == c and not _in_sacrifice(grid, d, p, h0, h1, h2):
            bad += 1
    return bad < 2


@kernel
def _next_sacrificed(grid: np.ndarray, k: int, t: int, h0: int, h1: int, h2: int) -> tuple[int, int]:
    """The stone after ``t`` in a walk over a sacrifice's stones, without allocating: the new
    stone first (part ``k`` 0), then each chain it joins (parts 1–3, heads ``h0``..``h2``; -1:
    none). Returns the next stone's part and point, the point -1 when the walk is over."""
    if k > 0:
        t = grid[NEXT, t]
        if t != (h0 if k == 1 else h1 if k == 2 else h2):
            return k, t
    while k < 3:
        k += 1
        h = h0 if k == 1 else h1 if k == 2 else h2
        if h != -1:
            return k, h
    return k, -1


@kernel
def _last_liberty(grid: np.ndarray, w: int, p: int, h0: int, h1: int, h2: int) -> int:
    """The last liberty of the chain a stone on ``p`` would form with the chains ``h0``..``h2``
    (heads; -1: none), which it leaves in atari: an empty neighbour of ``p`` or of a chain."""
    for q in (p - w, p - 1, p + 1, p + w):
        if grid[COLOR, q] == EMPTY:
            return q
    for h in (h0, h1, h2):
        if h != -1:
            lib = chain_liberty(grid, w, h, p)
            if lib != 0:
                return lib
    return 0


@kernel
def _chain_has_eye_after_capture(
    grid: np.ndarray, w: int, ho: int, lib: int, c: int, p: int, h0: int, h1: int, h2: int
) -> bool:
    """Whether the opponent chain whose head is ``ho`` has a liberty, other than ``p`` and the
    sacrifice's last liberty ``lib``, that is an eye once the sacrifice is captured."""
    t = ho
    while True:
        for e in (t - w, t - 1, t + 1, t + w):
            if (
                grid[COLOR, e] == EMPTY and e != p and e != lib
                and _eye_after_capture(grid, w, e, lib, c, p, h0, h1, h2)
            ):
                return True
        t = grid[NEXT, t]
        if t == ho:
            return False


@kernel
def sacrifice_leaves_an_eye(grid: np.ndarray, meta: np.ndarray, p: int, c: int) -> bool:
    """For a stone of ``c`` on ``p`` that leaves its chain S in atari: whether an opponent
    chain next to S keeps an eye of its own once S is captured, so that the eye the capture
    leaves where S stood is its second one and the sacrifice kills nothing, whatever the
    shape of S (the seki of one eye each)."""
    w = meta[M_W]
    h0, h1, h2 = _joined_heads(grid, w, p, c)
    return _eye_beside(grid, w, p, c, _last_liberty(grid, w, p, h0, h1, h2), h0, h1, h2)


@kernel
def _eye_beside(grid: np.ndarray, w: int, p: int, c: int, lib: int, h0: int, h1: int, h2: int) -> bool:
    """:func:`sacrifice_leaves_an_eye` for a sacrifice whose joined chains (``h0``..``h2``)
    and last liberty (``lib``) are known already."""
    o = 3 - c
    last_seen = -1
    k, t = 0, p
    while t != -1:
        for q in (t - w, t - 1, t + 1, t + w):
            ho = grid[HEAD, q]
            if grid[COLOR, q] == o and ho != last_seen:
                last_seen = ho  # not the chain just read again (one met later is, harmlessly)
                if _chain_has_eye_after_capture(grid, w, ho, lib, c, p, h0, h1, h2):
                    return True
        k, t = _next_sacrificed(grid, k, t, h0, h1, h2)
    return False


@kernel
def useless_sacrifice(grid: np.ndarray, meta: np.ndarray, p: int, c: int) -> bool:
    """For a stone of ``c`` on ``p`` that leaves its chain S in atari: whether the sacrifice
    kills nothing, judged by what the capture gives the opponent (the real nakade test,
    rather than the chain's size).

    A nakade is played inside the opponent's enclosure: S's last liberty L, where the
    capturing stone goes, must touch only opponent stones, S and the edge. Capturing S then
    leaves the opponent one eye where S stood; the sacrifice is still useless when an
    opponent chain next to S has, apart from S and L, a liberty that is an eye of its own
    once S is gone: every neighbour the opponent's (L counts as the opponent's; a point next
    to S does not, it joins the eye left by S), and fewer than two bad diagonals (stones of
    ``c`` outside S, plus one on the edge), as in :func:`~miai._kernel.board.is_own_eye`.
    This is what makes a seki a seki: a small chain sharing the last liberties of an eyeless
    group that has an eye elsewhere is not sacrificed, while the killing stones inside an
    eye space with no other eye still are."""
    w = meta[M_W]
    h0, h1, h2 = _joined_heads(grid, w, p, c)
    lib = _last_liberty(grid, w, p, h0, h1, h2)
    # a nakade is played inside the opponent's enclosure: its last liberty touches only
    # opponent stones, S and the edge (another empty point or another chain of ours there,
    # and the capture is no nakade)
    for f in (lib - w, lib - 1, lib + 1, lib + w):
        cf = grid[COLOR, f]
        if (cf == EMPTY and f != p) or (cf == c and not _in_sacrifice(grid, f, p, h0, h1, h2)):
            return True
    return _eye_beside(grid, w, p, c, lib, h0, h1, h2)


@kernel
def sacrifice_leaves_dead_shape(grid: np.ndarray, meta: np.ndarray, p: int, c: int) -> bool:
    """For a stone of ``c`` on ``p``: whether the points of the chain it would form, once
    captured, are an eye space the opponent cannot make two eyes in if ``c`` then takes
    its vital point (:func:`~miai._kernel.nakade.dead_shape`), so that sacrificing the
    chain may kill; never for more than six stones."""
    w = meta[M_W]
    h0, h1, h2 = _joined_heads(grid, w, p, c)
    n = ones = twos = threes = fours = 0
    k, t = 0, p
    while t != -1 and n <= NAKADE_AREA_MAX:
        inside = 0
        for q in (t - w, t - 1, t + 1, t + w):
            if (q == p or grid[COLOR, q] == c) and _in_sacrifice(grid, q, p, h0, h1, h2):
                inside += 1
        n += 1
        if inside == 1:
            ones += 1
        elif inside == 2:
            twos += 1
        elif inside == 3:
            threes += 1
        elif inside == 4:
            fours += 1
        k, t = _next_sacrificed(grid, k, t, h0, h1, h2)
    return n <= NAKADE_AREA_MAX and dead_shape(n, ones, twos, threes, fours)


@kernel
def useless_self_atari(grid: np.ndarray, meta: np.ndarray, p: int, c: int) -> bool:
    """Whether a stone of ``c`` on the empty point ``p`` is a self-atari no one would play:
    more than ``NAKADE_MAX`` stones, or a sacrifice of two or more stones that kills
    nothing (:func:`useless_sacrifice`). A lone stone's
    self-atari (a throw-in) is allowed. A suicide counts as bad too."""
    if captures_something(grid, meta, p, c) > 0:
        return False
    libs = liberties_after(grid, meta, p, c, 2)
    if libs >= 2:
        return False
    stones = stones_after(grid, meta, p, c)
    if libs == 0 or stones > NAKADE_MAX:
        return True
    return stones >= 2 and useless_sacrifice(grid, meta, p, c)


@kernel
def playable(grid: np.ndarray, meta: np.ndarray, p: int, c: int) -> bool:
    """Whether the light policy may play ``c`` on the empty point ``p``: legal, not a fill
    of an own eye unless it saves a chain in atari, and not a self-atari no one would make
    (:func:`useless_self_atari`)."""
    nb = grid[NB, p]
    if (nb & 0xFF) == 0 and ((nb >> (8 * (3 - c))) & 0xFF) == 0:
        # our own eye, true or false, is left alone, unless filling it saves one of our
        # chains in atari (connecting a cut stone through a false eye)
        return _saves_a_chain(grid, meta, p, c)
    if legality(grid, meta, p, c, False) != LEGAL:
        return False
    return not useless_self_atari(grid, meta, p, c)


@kernel
def _saves_a_chain(grid: np.ndarray, meta: np.ndarray, p: int, c: int) -> bool:
    """Whether a stone of ``c`` on ``p`` joins one of its chains in atari and leaves it with
    at least two liberties."""
    w = meta[M_W]
    for q in (p - w, p - 1, p + 1, p + w):
        if grid[COLOR, q] == c and grid[LIBS, grid[HEAD, q]] == 1:
            return captures_something(grid, meta, p, c) > 0 or liberties_after(grid, meta, p, c, 2) >= 2
    return False


@kernel
def vital_point_of_three(grid: np.ndarray, w: int, e: int) -> int:
    """If the empty point ``e`` lies in a region of exactly three empty points enclosed by
    stones of one colour (and the edge), the region's middle point (next to the other two);
    otherwise 0."""
    a = e
    b = 0
    d = 0
    enclosing = 0
    n = 1
    i = 0
    while i < n:
        s = a if i == 0 else b if i == 1 else d
        for q in (s - w, s - 1, s + 1, s + w):
            cq = grid[COLOR, q]
            if cq == EMPTY:
                if q == a or q == b or q == d:
                    continue
                if n == 3:
                    return 0
                if n == 1:
                    b = q
                else:
                    d = q
                n += 1
            elif cq != WALL:
                if enclosing == 0:
                    enclosing = cq
                elif cq != enclosing:
                    return 0
        i += 1
    if n != 3:
        return 0
    for m, x, y in ((a, b, d), (b, a, d), (d, a, b)):
        if (x == m - w or x == m - 1 or x == m + 1 or x == m + w) and (y == m - w or y == m - 1 or y == m + 1 or y == m + w):
            return m
    return 0


@kernel
def light_move(grid: np.ndarray, meta: np.ndarray, c: int, last: int) -> int:
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
                    if captures_something(grid, meta, lib, c) > 0 or liberties_after(grid, meta, lib, c, 2) >= 2:
                        return lib
        # the vital point of a three-point space next to the last move (a capture of three
        # stones leaves one): whoever encloses it, the middle point decides its eyes
        for e in (last - w, last - 1, last + 1, last + w):
            if grid[COLOR, e] == EMPTY:
                v = vital_point_of_three(grid, w, e)
                if v != 0 and playable(grid, meta, v, c):
                    return v
    k = meta[M_NEMPTY]
    while k > 0:
        r = random_below(meta, k)
        p = grid[EMPTIES, r]
        if playable(grid, meta, p, c):
            return p
        k -= 1
        discard_candidate(grid, r, k)
    return 0


@kernel
def light_playout(grid: np.ndarray, meta: np.ndarray, to_move: int, max_turns: int) -> int:
    """Play the light policy to the end on this board (modified in place); returns the turns."""
    passes = 0
    turns = 0
    last = 0
    c = to_move
    while turns < max_turns and passes < 2:
        p = light_move(grid, meta, c, last)
        passes = play_turn(grid, meta, p, c, passes)
        last = p
        turns += 1
        c = 3 - c
    return turns


@allocating
def ownership(grid: np.ndarray, meta: np.ndarray, to_move: int, count: int, seed: int, owned: np.ndarray) -> int:
    """Run ``count`` light playouts from this position (left unchanged), alternating the
    first player between ``to_move`` and the other (a finished position has no one to move),
    and add into ``owned`` (int32, shape ``(3, L)``) how often each point ended up Black's
    (row 1), White's (row 2) or nobody's (row 0). Returns the total turns played."""
    g, m = _scratch(grid, meta, seed)
    n = meta[M_N]
    length = grid.shape[1]
    max_turns = 3 * n * n
    owners = np.empty(length, np.int32)
    total = 0
    for i in range(count):
        _restore(g, m, grid, meta)
        first = to_move if i % 2 == 0 else 3 - to_move
        total += light_playout(g, m, first, max_turns)
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
