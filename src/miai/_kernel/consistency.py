"""Recompute a board's derived data from its colours alone and compare (KataGo's
``checkConsistency``). Plain Python: it is the independent second opinion that tests call
after every move of many random games."""

from __future__ import annotations

import numpy as np

from miai._kernel.board import (
    COLOR, EMPTIES, EMPTY, EMPTY_POS, HEAD, LIBS, M_HASH, M_N, M_NEMPTY, M_W, NB, NEXT, SIZE, WALL, ZOBRIST,
)


class KernelInconsistency(AssertionError):
    """The board's incremental data disagree with what its colours imply."""


def check_consistency(grid: np.ndarray, meta: np.ndarray) -> None:
    """Raise :class:`KernelInconsistency` describing the first disagreement found."""
    n = int(meta[M_N])
    w = int(meta[M_W])
    color = grid[COLOR]

    def fail(msg: str) -> None:
        raise KernelInconsistency(msg)

    on_board = [(r + 1) * w + c + 1 for r in range(n) for c in range(n)]
    for p in range(w * w):
        r, c = divmod(p, w)
        border = r in (0, w - 1) or c in (0, w - 1)
        if border != (color[p] == WALL):
            fail(f"point {p}: wall/board mismatch (colour {color[p]})")

    h = 0
    for p in on_board:
        if color[p] not in (EMPTY, 1, 2):
            fail(f"point {p}: bad colour {color[p]}")
        if color[p] != EMPTY:
            h ^= int(ZOBRIST[color[p], p])
        for k in range(3):
            expect = sum(1 for q in (p - w, p - 1, p + 1, p + w) if color[q] == k)
            counted = (int(grid[NB, p]) >> (8 * k)) & 0xFF
            if counted != expect:
                fail(f"point {p}: {counted} neighbours of colour {k}, expected {expect}")
    if np.int64(h) != meta[M_HASH]:
        fail(f"hash {meta[M_HASH]} differs from the recomputed {np.int64(h)}")

    empties = [p for p in on_board if color[p] == EMPTY]
    k = int(meta[M_NEMPTY])
    listed = [int(x) for x in grid[EMPTIES, :k]]
    if sorted(listed) != empties:
        fail(f"empty list {sorted(listed)} differs from the empty points {empties}")
    for i, p in enumerate(listed):
        if grid[EMPTY_POS, p] != i:
            fail(f"empty point {p} listed at {i} but indexed at {grid[EMPTY_POS, p]}")

    seen: set[int] = set()
    for p in on_board:
        if color[p] == EMPTY:
            if grid[HEAD, p] != 0:
                fail(f"empty point {p} has head {grid[HEAD, p]}")
            continue
        if p in seen:
            continue
        chain = {p}
        stack = [p]
        while stack:
            s = stack.pop()
            for q in (s - w, s - 1, s + 1, s + w):
                if color[q] == color[p] and q not in chain:
                    chain.add(q)
                    stack.append(q)
        seen |= chain
        heads = {int(grid[HEAD, s]) for s in chain}
        if len(heads) != 1 or heads.pop() not in chain:
            fail(f"chain at {p}: heads {sorted({int(grid[HEAD, s]) for s in chain})} for stones {sorted(chain)}")
        head = int(grid[HEAD, p])
        cycle = [head]
        s = int(grid[NEXT, head])
        while s != head and len(cycle) <= len(chain):
            cycle.append(s)
            s = int(grid[NEXT, s])
        if set(cycle) != chain or len(cycle) != len(chain):
            fail(f"chain at {p}: next-list {cycle} is not the chain {sorted(chain)}")
        if grid[SIZE, head] != len(chain):
            fail(f"chain at {p}: size {grid[SIZE, head]}, expected {len(chain)}")
        libs = {q for s in chain for q in (s - w, s - 1, s + 1, s + w) if color[q] == EMPTY}
        if grid[LIBS, head] != len(libs):
            fail(f"chain at {p}: {grid[LIBS, head]} liberties, expected {len(libs)}")
        if not libs:
            fail(f"chain at {p} has no liberties but is on the board")
