"""Capturing races (semeai), read by playing them out: who wins a race between two enclosed
chains short of liberties, with either side to move first.

Why. Random playouts find a race's few right moves by chance: each side must fill three or
four particular points among a hundred, in the right order, approach moves first. In a lost
game against Pachi (BENCHMARKS.md, "What miai misjudged") White won a race whoever started,
and miai's playouts still gave it to Black more often than not, until the black group was
in atari. This module reads such races the way a player counts them, so that the playouts
(:func:`race_reply`, knob ``p_race_reply``) play them in the right order and the tree's
priors (``prior_race``) know the result.

Reading guide.

- A **race** (:func:`find_races`) is two adjacent chains of opposite colours, each of at
  least :data:`MIN_CHAIN` stones with at most :data:`MAX_LIBS` liberties, together at least
  :data:`MIN_STONES` stones, both **enclosed** (:func:`enclosed`): no move on one of a chain's own
  liberties gives it more liberties than it has (it can neither run out nor join a stronger
  chain), and no other opponent chain beside it is in atari (it cannot capture its way out).
- :func:`play_race` plays it out, the sides alternating, each with :func:`race_move`:
  1. capture the opponent's race chain when it is in atari;
  2. when its own chain is in atari, capture an opponent chain in atari beside it;
  3. fill a liberty of the opponent's chain, its outside liberties before the shared ones;
     a fill that would leave the filling stones in atari, capturing nothing, is not one
     (the opponent would take it back), except a **throw-in** into the opponent's eye
     (:func:`_eye_fill`): when its chain has two liberties left and the filling stones'
     one liberty is its other one, taking them fills its own last liberty;
  4. where every fill is such a self-atari, an **approach move**: on an empty neighbour of
     the liberty, or on the other liberty of an own chain beside it, after which the fill
     stands (A13 before A12);
  5. otherwise nothing: the side passes, and two passes in a row end the reading undecided
     (a seki, a big eye, or a race beyond this reader).
  The side that captures wins. A one-point eye needs no rule of its own: a stone on it is
  suicide until it is the chain's last liberty, and then rule 1 takes it. A larger eye is
  filled from inside: stones that stand (rule 3) and then throw-ins, each taken back.
- :func:`race_winner` plays it on a scratch board.
- :func:`race_reply` uses only the reader's moves, not its verdict: in a playout, a move near
  a race that stood on the board when the playout began is answered with the other side's
  race move. The playout's random moves start the race, with either side; the answers then
  play it in the right order (approach moves first), where random moves would leave it to
  chance.

The reading is a player's count, not a proof: a chain that could make a second eye, or a
race that turns on a ko, comes out undecided or wrong. Compiled by
:mod:`miai._kernel.jit`, plain Python.
"""

from __future__ import annotations

import numpy as np

from miai._kernel.board import (
    BLACK, COLOR, EMPTY, HEAD, LEGAL, LIBS, M_MARKGEN, M_N, M_W, MARK, NEXT, SIZE, WHITE,
    _touches_chain, legality, pass_turn, play_stone,
)
from miai._kernel.jit import allocating, kernel
from miai._kernel.tactics import captures_something, chain_liberty, liberties_after

MAX_LIBS = 5
"""A race chain has at most this many liberties."""
MIN_CHAIN = 2
"""A race chain has at least this many stones (single stones are the atari heuristics' job)."""
MIN_STONES = 6
"""The two chains of a race have at least this many stones together."""
MAX_RACES = 8
"""At most this many races are read in one position."""
MAX_TURNS = 40
"""A race not over after this many turns is left undecided."""
LIB_ROOM = 64
"""Room for one chain's liberties in :func:`chain_liberties`."""


@kernel
def chain_liberties(grid: np.ndarray, meta: np.ndarray, head: int, out: np.ndarray) -> int:
    """Write the liberties of the chain whose head is ``head`` into ``out`` (as many as fit);
    returns how many were written."""
    w = meta[M_W]
    gen = meta[M_MARKGEN] + 1
    meta[M_MARKGEN] = gen
    n = 0
    s = head
    while True:
        for e in (s - w, s - 1, s + 1, s + w):
            if grid[COLOR, e] == EMPTY and grid[MARK, e] != gen:
                grid[MARK, e] = gen
                if n < out.shape[0]:
                    out[n] = e
                    n += 1
        s = grid[NEXT, s]
        if s == head:
            return n


@kernel
def stands(grid: np.ndarray, meta: np.ndarray, p: int, c: int) -> bool:
    """Whether ``c`` may play ``p`` and keep the stone: legal, and it captures something or
    leaves its chain at least two liberties."""
    if legality(grid, meta, p, c, False) != LEGAL:
        return False
    return captures_something(grid, meta, p, c) > 0 or liberties_after(grid, meta, p, c, 2) >= 2


@kernel
def _atari_neighbour_liberty(grid: np.ndarray, meta: np.ndarray, head: int, other: int) -> int:
    """The liberty of an opponent chain in atari beside the chain ``head`` other than the
    chain ``other`` (a head; 0 for none), where the chain's owner may play; 0 if none."""
    w = meta[M_W]
    c = grid[COLOR, head]
    s = head
    while True:
        for e in (s - w, s - 1, s + 1, s + w):
            if grid[COLOR, e] == 3 - c:
                h = grid[HEAD, e]
                if h != other and grid[LIBS, h] == 1:
                    lib = chain_liberty(grid, w, h, 0)
                    if legality(grid, meta, lib, c, False) == LEGAL:
                        return lib
        s = grid[NEXT, s]
        if s == head:
            return 0


@kernel
def enclosed(grid: np.ndarray, meta: np.ndarray, head: int, other: int, libs: np.ndarray) -> bool:
    """Whether the chain ``head`` is shut in for a race against the chain ``other``: no
    move of its owner on its liberties gives it more liberties than it has, and no
    opponent chain beside it but ``other`` is in atari. ``libs`` is scratch space."""
    c = grid[COLOR, head]
    have = grid[LIBS, head]
    if _atari_neighbour_liberty(grid, meta, head, other) > 0:
        return False
    n = chain_liberties(grid, meta, head, libs)
    for i in range(n):
        lib = libs[i]
        if legality(grid, meta, lib, c, False) == LEGAL and liberties_after(grid, meta, lib, c, have + 1) > have:
            return False
    return True


@allocating
def _approach(
    g: np.ndarray, m: np.ndarray, c: int, lib: int, own: int, g2: np.ndarray, m2: np.ndarray
) -> int:
    """A move of ``c`` after which filling ``lib`` (a liberty of the opponent's race chain
    that ``c`` cannot fill yet) stands: an empty neighbour of ``lib``, or the other liberty
    of a chain of ``c`` beside it, that is not a liberty of ``c``'s race chain ``own`` (a
    head) and stands itself. 0 if there is none. ``g2``/``m2``: scratch board."""
    w = m[M_W]
    for q in (lib - w, lib - 1, lib + 1, lib + w):
        cq = g[COLOR, q]
        if cq == EMPTY:
            a = q
        elif cq == c:
            a = chain_liberty(g, w, g[HEAD, q], lib)
        else:
            continue
        if a == 0 or a == lib or _touches_chain(g, w, a, own) or not stands(g, m, a, c):
            continue
        g2[:, :] = g
        m2[:] = m
        play_stone(g2, m2, a, c)
        if stands(g2, m2, lib, c):
            return a
    return 0


@allocating
def _eye_fill(
    g: np.ndarray, m: np.ndarray, c: int, lib: int, th: int, oh: int, g2: np.ndarray, m2: np.ndarray
) -> bool:
    """Whether ``c`` filling ``lib``, one of the two liberties of the opponent's race chain
    ``th`` (a head), is a fill though its stones are left in atari: a throw-in inside the
    opponent's eye. After it the filling stones' one liberty is the opponent chain's last,
    so the opponent can only take them by filling that liberty itself, and is left with the
    captured points as its liberties (one stone: in atari again). A stone that touches
    ``c``'s own race chain ``oh`` is not one: that is a shared liberty, whose fill puts the
    own chain in atari (a seki's). ``g2``/``m2``: scratch board."""
    w = m[M_W]
    if _touches_chain(g, w, lib, oh) or legality(g, m, lib, c, False) != LEGAL:
        return False
    if captures_something(g, m, lib, c) > 0 or liberties_after(g, m, lib, c, 2) != 1:
        return False
    g2[:, :] = g
    m2[:] = m
    play_stone(g2, m2, lib, c)
    return g2[LIBS, th] == 1 and chain_liberty(g2, w, g2[HEAD, lib], 0) == chain_liberty(g2, w, th, 0)


@kernel
def race_move(
    g: np.ndarray, m: np.ndarray, c: int, target: int, own: int, libs: np.ndarray, g2: np.ndarray, m2: np.ndarray
) -> int:
    """``c``'s move in the race of its chain through the stone ``own`` against the
    opponent's chain through the stone ``target`` (the rules of the module's reading
    guide); 0 when it has none. ``libs``, ``g2``/``m2``: scratch space."""
    w = m[M_W]
    th = g[HEAD, target]
    oh = g[HEAD, own]
    if g[LIBS, th] == 1:
        lib = chain_liberty(g, w, th, 0)
        if legality(g, m, lib, c, False) == LEGAL:
            return lib
    if g[LIBS, oh] == 1:
        escape = _atari_neighbour_liberty(g, m, oh, th)
        if escape > 0:
            return escape
    n = chain_liberties(g, m, th, libs)
    for shared in (False, True):
        for i in range(n):
            lib = libs[i]
            if _touches_chain(g, w, lib, oh) == shared and stands(g, m, lib, c):
                return lib
    if n == 2:
        for i in range(2):
            if _eye_fill(g, m, c, libs[i], th, oh, g2, m2):
                return libs[i]
    for i in range(n):
        a = _approach(g, m, c, libs[i], oh, g2, m2)
        if a > 0:
            return a
    return 0


@kernel
def play_race(
    g: np.ndarray, m: np.ndarray, a: int, b: int, first: int, libs: np.ndarray, g2: np.ndarray, m2: np.ndarray
) -> tuple[int, int]:
    """Play the race between the chains through the stones ``a`` and ``b`` on this board
    (changed in place), ``first`` moving first. Returns ``(winner, first move)``: the
    winner's colour, or 0 when the reading ends undecided, and the first mover's first move
    (0: none)."""
    c = first
    passes = 0
    first_move = 0
    for turn in range(MAX_TURNS):
        if g[COLOR, a] == c:
            own, target = a, b
        else:
            own, target = b, a
        mv = race_move(g, m, c, target, own, libs, g2, m2)
        if turn == 0:
            first_move = mv
        if mv == 0:
            passes += 1
            pass_turn(m)
            if passes == 2:
                return 0, first_move
        else:
            passes = 0
            play_stone(g, m, mv, c)
            if g[COLOR, target] != 3 - c:
                return c, first_move
        c = 3 - c
    return 0, first_move


@allocating
def new_race_scratch(grid: np.ndarray, meta: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Scratch space for the readings on a board like this one: two boards and a liberty list."""
    return grid.copy(), meta.copy(), grid.copy(), meta.copy(), np.empty(LIB_ROOM, np.int32)


@allocating
def race_winner(
    grid: np.ndarray, meta: np.ndarray, a: int, b: int, first: int, g: np.ndarray, m: np.ndarray, g2: np.ndarray,
    m2: np.ndarray, libs: np.ndarray,
) -> tuple[int, int]:
    """Who wins the race between the chains through the stones ``a`` and ``b`` when
    ``first`` moves first (0: undecided), and ``first``'s first move in it, read on the
    scratch board ``g``/``m`` (the position is left unchanged)."""
    g[:, :] = grid
    m[:] = meta
    return play_race(g, m, a, b, first, libs, g2, m2)


@kernel
def _races_with(grid: np.ndarray, meta: np.ndarray, head: int, other: int, min_chain: int, libs: np.ndarray) -> bool:
    """Whether the chain ``head`` (short of liberties, at least ``min_chain`` stones) and the
    opponent chain ``other`` beside it make a race: ``other`` as short of liberties and as
    large, the two together at least :data:`MIN_STONES` stones, both shut in."""
    if grid[LIBS, other] > MAX_LIBS or grid[SIZE, other] < min_chain:
        return False
    if grid[SIZE, head] + grid[SIZE, other] < MIN_STONES:
        return False
    return enclosed(grid, meta, head, other, libs) and enclosed(grid, meta, other, head, libs)


@kernel
def find_races(
    grid: np.ndarray, meta: np.ndarray, out: np.ndarray, libs: np.ndarray, min_chain: int = MIN_CHAIN
) -> int:
    """Write the races on the board between chains of at least ``min_chain`` stones each
    (and :data:`MIN_CHAIN`) into ``out`` (rows of a black and a white chain's head, at most
    :data:`MAX_RACES` and as many as fit); returns how many. ``libs``: scratch."""
    min_chain = max(min_chain, MIN_CHAIN)
    n = meta[M_N]
    w = meta[M_W]
    count = 0
    room = min(out.shape[0], MAX_RACES)
    for r in range(n):
        for col in range(n):
            p = (r + 1) * w + col + 1
            if grid[COLOR, p] != BLACK or grid[HEAD, p] != p:
                continue
            if grid[LIBS, p] > MAX_LIBS or grid[SIZE, p] < min_chain:
                continue
            s = p
            while True:
                for e in (s - w, s - 1, s + 1, s + w):
                    if grid[COLOR, e] != WHITE:
                        continue
                    h = grid[HEAD, e]
                    seen = False
                    for i in range(count):
                        if out[i, 1] == h and out[i, 0] == p:
                            seen = True
                    if seen or not _races_with(grid, meta, p, h, min_chain, libs):
                        continue
                    out[count, 0] = p
                    out[count, 1] = h
                    count += 1
                    if count == room:
                        return count
                s = grid[NEXT, s]
                if s == p:
                    break
    return count


REPLY_REACH = 3
""":func:`race_reply` answers a move this close (steps along the lines) to a stone of either
chain of a race: a fill is 1 away, an approach on a neighbour of a liberty 2, an approach
that gives an own chain beside the liberty a second liberty 3."""


@kernel
def _near(grid: np.ndarray, meta: np.ndarray, p: int, a: int, b: int) -> bool:
    """Whether a stone of the chain ``a`` or ``b`` (heads) is at most :data:`REPLY_REACH`
    steps from ``p``."""
    w = meta[M_W]
    n = meta[M_N]
    row = p // w
    col = p % w
    for dr in range(-REPLY_REACH, REPLY_REACH + 1):
        r = row + dr
        if r < 1 or r > n:
            continue
        span = REPLY_REACH - abs(dr)
        for dc in range(-span, span + 1):
            k = col + dc
            if 1 <= k <= n:
                q = r * w + k
                if grid[COLOR, q] != EMPTY and (grid[HEAD, q] == a or grid[HEAD, q] == b):
                    return True
    return False


@kernel
def race_reply(
    grid: np.ndarray, meta: np.ndarray, c: int, last: int, races: np.ndarray, k: int, libs: np.ndarray,
    g2: np.ndarray, m2: np.ndarray,
) -> int:
    """``c``'s move (:func:`race_move`) in the first of the races ``races[:k]`` (rows of a
    black and a white stone, as :func:`find_races` writes them) whose two chains still stand
    and one of which is near (:data:`REPLY_REACH`) the opponent's move ``last``; 0 when there
    is none, or ``c`` has no race move. ``libs``, ``g2``/``m2``: scratch space.

    The playouts' answer to a move in a race that stood on the board when the playout
    began (knob ``p_race_reply``), as the two-liberty check answers an atari: each side
    fills the other's liberties in the reader's order, approach moves first, instead of
    leaving the race to random moves. It decides nothing by reading: a playout's race starts
    where its moves happen to start it, with either side, and goes on one answer at a time."""
    if last <= 0:
        return 0
    for i in range(k):
        own = races[i, c - 1]
        target = races[i, 2 - c]
        if grid[COLOR, own] != c or grid[COLOR, target] != 3 - c:
            continue  # captured
        if _near(grid, meta, last, grid[HEAD, own], grid[HEAD, target]):
            mv = race_move(grid, meta, c, target, own, libs, g2, m2)
            if mv > 0:
                return mv
    return 0


@allocating
def urgent_race_moves(grid: np.ndarray, meta: np.ndarray, c: int, mask: np.ndarray) -> int:
    """Set ``mask`` (a boolean per point) at ``c``'s first move in each race that ``c`` wins
    if it moves first and loses if the opponent does; returns how many were set."""
    found = np.empty((MAX_RACES, 2), np.int32)
    libs = np.empty(LIB_ROOM, np.int32)
    k = find_races(grid, meta, found, libs)
    if k == 0:
        return 0
    g, m, g2, m2, libs = new_race_scratch(grid, meta)
    marked = 0
    for i in range(k):
        mine, move = race_winner(grid, meta, found[i, 0], found[i, 1], c, g, m, g2, m2, libs)
        if mine != c or move == 0:
            continue
        theirs, _ = race_winner(grid, meta, found[i, 0], found[i, 1], 3 - c, g, m, g2, m2, libs)
        if theirs == 3 - c and not mask[move]:
            mask[move] = True
            marked += 1
    return marked
