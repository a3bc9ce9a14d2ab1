"""Two-liberty tactics for the heavy playouts: capturing races read move by move.

The heavy policy (:mod:`miai._kernel.heavy`) already captures a chain in atari and saves its
own. It did not see a chain with **two** liberties: the attacker let it out, the defender let
it be put in atari when it could still get out, and a capturing race fought out in the
playouts was won by whoever happened to play there first. The search's collapses were of
that kind (groups in running fights and races left to die: BENCHMARKS.md). These are the
checks of Pachi's playouts (``tactics/2lib.c``, ``local_2lib_check`` in ``playout/moggy.c``),
asked after each move, around it:

- the chain the last move made, if it has two liberties: put it in atari;
- every chain next to the last move with two liberties: the opponent's is put in atari, one's
  own gets out (it extends on a liberty) or takes a liberty from, or captures, an opponent
  chain next to it that is as short of them.

A chain is left alone when it cannot be harmed (:func:`two_safe_ways`: it connects to a
chain with liberties to spare on one liberty, and on the other connects as well or runs out). A
liberty is not played when the stone there would be in atari itself (captures aside), nor,
for the defender, when stepping out gains nothing (:func:`hopeless_escape`). Where one of
the two liberties would make a clump (three or more of the mover's stones and edges around
it), the other is preferred. Compiled by :mod:`miai._kernel.jit` and plain Python, like
the rest of the kernel.
"""

from __future__ import annotations

import numpy as np

from miai._kernel.board import COLOR, EMPTY, HEAD, LEGAL, LIBS, M_W, NEXT, WALL, legality, neighbour_chains
from miai._kernel.jit import kernel
from miai._kernel.tactics import captures_something, chain_liberty, liberties_after


@kernel(inline="always")
def _around(grid: np.ndarray, w: int, p: int, what: int) -> int:
    """How many of the four neighbours of ``p`` are ``what`` (a colour, EMPTY or WALL)."""
    n = 0
    for q in (p - w, p - 1, p + 1, p + w):
        if grid[COLOR, q] == what:
            n += 1
    return n


@kernel
def _joins_a_safe_chain(grid: np.ndarray, w: int, p: int, owner: int, head: int) -> bool:
    """Whether ``p`` touches a chain of ``owner`` other than ``head``'s with two liberties
    or more (a stone there would connect the chain to it)."""
    for q in (p - w, p - 1, p + 1, p + w):
        if grid[COLOR, q] == owner:
            h = grid[HEAD, q]
            if h != head and grid[LIBS, h] > 1:
                return True
    return False


@kernel(inline="always")
def _has_room(grid: np.ndarray, w: int, p: int, other: int) -> bool:
    """Whether ``p`` has an empty neighbour besides ``other``."""
    for q in (p - w, p - 1, p + 1, p + w):
        if q != other and grid[COLOR, q] == EMPTY:
            return True
    return False


@kernel
def two_safe_ways(grid: np.ndarray, w: int, head: int, lib0: int, lib1: int) -> bool:
    """Whether the chain ``head`` (two liberties, ``lib0`` and ``lib1``) cannot be harmed by
    an atari: on one liberty it connects to a chain with liberties to spare, and on the
    other it connects as well or has room to run (an empty neighbour besides the first).
    Pachi's ``miai_2lib``, made symmetric; two ways out by running alone are not safe."""
    owner = grid[COLOR, head]
    joins0 = _joins_a_safe_chain(grid, w, lib0, owner, head)
    joins1 = _joins_a_safe_chain(grid, w, lib1, owner, head)
    if joins0 and joins1:
        return True
    if joins0:
        return _has_room(grid, w, lib1, lib0)
    return joins1 and _has_room(grid, w, lib0, lib1)


@kernel(inline="always")
def hopeless_escape(grid: np.ndarray, w: int, lib: int, other: int, owner: int) -> bool:
    """Whether the owner's stepping out on ``lib`` gains nothing: the stone joins only this
    chain and has one empty neighbour, or two of which one is the chain's other liberty."""
    if _around(grid, w, lib, owner) != 1:
        return False
    empty = _around(grid, w, lib, EMPTY)
    if empty == 1:
        return True
    return empty == 2 and (other == lib - w or other == lib - 1 or other == lib + 1 or other == lib + w)


@kernel
def safe_to_play(grid: np.ndarray, meta: np.ndarray, p: int, c: int) -> bool:
    """Whether a stone of ``c`` on ``p`` is legal and not left in atari (it captures, or its
    chain keeps two liberties or more)."""
    if legality(grid, meta, p, c, False) != LEGAL:
        return False
    return captures_something(grid, meta, p, c) > 0 or liberties_after(grid, meta, p, c, 2) >= 2


@kernel
def atari_or_escape(grid: np.ndarray, meta: np.ndarray, head: int, c: int, out: np.ndarray, n: int) -> int:
    """Append to ``out`` (from index ``n``) the liberties of the two-liberty chain ``head``
    that ``c`` may play: ataris if the chain is the opponent's, escapes if it is ``c``'s
    own (see the module's guide); returns the new count."""
    w = meta[M_W]
    owner = grid[COLOR, head]
    lib0 = chain_liberty(grid, w, head, 0)
    lib1 = chain_liberty(grid, w, head, lib0)
    start = n
    preferred = 0
    for i in range(2):
        lib = lib0 if i == 0 else lib1
        other = lib1 if i == 0 else lib0
        if owner == c and hopeless_escape(grid, w, lib, other, owner):
            continue
        if not safe_to_play(grid, meta, lib, c):
            continue
        if _around(grid, w, lib, c) + _around(grid, w, lib, WALL) < 3:
            preferred += 1 << i
        if n < out.shape[0]:
            out[n] = lib
            n += 1
    if n - start == 2 and (preferred == 1 or preferred == 2):  # keep the one without a clump
        out[start] = lib0 if preferred == 1 else lib1
        n = start + 1
    return n


@kernel
def two_liberty_check(grid: np.ndarray, meta: np.ndarray, head: int, c: int, out: np.ndarray, n: int) -> int:
    """Append to ``out`` what ``c`` may play about the two-liberty chain ``head``: an atari
    or an escape (:func:`atari_or_escape`) unless it is safe either way, and for its own
    chain also a capture or an atari of an opponent chain next to it; returns the count."""
    w = meta[M_W]
    lib0 = chain_liberty(grid, w, head, 0)
    lib1 = chain_liberty(grid, w, head, lib0)
    if two_safe_ways(grid, w, head, lib0, lib1):
        return n
    n = atari_or_escape(grid, meta, head, c, out, n)
    if grid[COLOR, head] != c:
        return n
    o = 3 - c
    s = head
    while True:
        for q in (s - w, s - 1, s + 1, s + w):
            if grid[COLOR, q] == o:
                h = grid[HEAD, q]
                if grid[LIBS, h] == 1:
                    if n < out.shape[0]:
                        out[n] = chain_liberty(grid, w, h, 0)
                        n += 1
                elif grid[LIBS, h] == 2:
                    n = atari_or_escape(grid, meta, h, c, out, n)
        s = grid[NEXT, s]
        if s == head:
            return n


@kernel
def two_liberty_moves(grid: np.ndarray, meta: np.ndarray, c: int, last: int, out: np.ndarray) -> int:
    """The two-liberty tactics for ``c`` after the opponent's move ``last`` (the module's
    guide), written to ``out``; returns how many (duplicates possible)."""
    if last <= 0 or grid[COLOR, last] != 3 - c:
        return 0
    w = meta[M_W]
    n = 0
    own = grid[HEAD, last]
    if grid[LIBS, own] == 2:
        n = two_liberty_check(grid, meta, own, c, out, n)
    for h in neighbour_chains(grid, w, last):
        if h != 0 and h != own and grid[LIBS, h] == 2:
            n = two_liberty_check(grid, meta, h, c, out, n)
    return n
