"""Ladder reading (shicho) for the search tree's priors.

Why. Playouts cannot see a ladder: whether a chain chased atari after atari across the board
dies depends on stones twenty points away, and a random continuation gets it wrong about
half the time. A Monte-Carlo player without this knowledge runs out ladders that do not
work and fails to start ladders that do, which a reader such as GNU Go punishes at once. So
when the tree expands a node it reads the ladders exactly (:mod:`miai._kernel.tree`'s
``expand``): a failing escape gets a penalty, a working ladder atari a bonus. The playouts
are untouched.

What is read. A chain of the *defender* with one liberty, the defender to move, is read as
an AND-OR tree of real moves on copies of the kernel's arrays (the kernel has no undo: one
scratch ``grid``/``meta`` pair per ply, allocated once per expansion by
:func:`new_scratch`, each branch a copy of its parent). Moves are played with the kernel's
own :func:`~miai._kernel.board.legality` (suicide not allowed, simple ko) and
:func:`~miai._kernel.board.play_stone`, so captures, ko and suicide are exact as the kernel
sees them; superko is not read.

- **Defender to move** (its chain has 1 liberty). Its options are: extend at the liberty;
  and capture, at its last liberty, any attacker chain in atari that touches the defender's
  chain. An illegal option is skipped: a suicide, and a retake the simple ko forbids (the
  attacker's atari has just taken a ko; a ko threat instead would leave the chain to be
  taken). After the option is played, the defender's chain has

  * 3 or more liberties: escaped;
  * 2 liberties: the attacker is to move (below), whether the option was the extension or a
    capture; the defender escapes if the attacker's reading fails;
  * 1 liberty: captured (the attacker takes it; that is always legal: the defender's move
    joined the chain, so it cannot have taken a ko with a lone stone).

  The chain is captured when every option fails (or there is none).
- **Attacker to move** (the chain has 2 liberties). It tries an atari at each of the two
  liberties, skipping one that is illegal (suicide, ko). The ladder works when the reading
  after one of those ataris captures the chain. An atari that is itself in atari is *not*
  skipped: its stone touches the defender's chain, so taking it is one of the defender's
  options above and is read exactly (taking it does not always save the chain; GNU Go's
  ``ladder_attack`` counts such ataris too).

Whoever is to move follows from the chain's liberties (1: the defender, 2: the attacker).
Shortcuts that give the same answers without copying a board: an atari that captures
nothing is not played when the defender's extension at the other liberty would have 4
liberties counting the atari's point (it escapes with 3); a defender's extension with 3
liberties before any capture is an escape; an own move whose chain has 3 liberties before
any capture is no failing escape.
Limits: :data:`MAX_PLIES` plies deep and :data:`NODE_BUDGET` positions per question; a
reading that reaches either limit counts as *not captured*, so a penalty and a bonus both
need a proof. Nets (geta) and ko fights are not read: a chain with 3 liberties has escaped
the ladder even if it dies otherwise.

Three questions are asked, all without changing the board they get:

- :func:`ladder_captures` (``p``'s chain in atari, the defender to move: does it die?);
- :func:`ladder_escape_fails` (``c`` on ``p`` extends an own chain in atari to exactly 2
  liberties, and the opponent captures it in a ladder);
- :func:`ladder_atari_works` (``c`` on ``p`` puts an opponent chain in atari, and it dies:
  a working ladder start, or an atari on a chain that cannot get out by extending).

After a failing escape, :func:`worth_running` says whether running it out may still serve
(the tree leaves the others out, as Pachi's ``prune_ladders`` does).

Each takes the working space from :func:`new_scratch`, so a caller asking many questions
(the tree: every move of an expansion) allocates once. Everything is compiled by
:mod:`miai._kernel.jit` and plain Python (it runs with ``NUMBA_DISABLE_JIT=1``).
"""

from __future__ import annotations

import numpy as np

from miai._kernel.board import (
    COLOR, HEAD, LEGAL, LIBS, M_KO, M_W, NEXT, SIZE, legality, neighbour_chains, play_stone,
)
from miai._kernel.jit import allocating, kernel
from miai._kernel.tactics import captures_something, chain_liberty, liberties_after

MAX_PLIES = 100
"""Deepest reading, in moves of either side; deeper counts as not captured."""
NODE_BUDGET = 1000
"""Most positions one question reads (a ladder across the 19×19 board takes about 60)."""
MAX_OPTIONS = 8
"""Most defender options per position (the extension and up to 7 counter-captures); a
position with more is not read (not captured)."""

SHORT_LADDER_NODES = 6
"""A failing escape read in at most this many positions is a short ladder (about three
ataris), which may still matter for life and death."""
SMALL_CHAIN = 5
"""Most stones of a chain in atari whose short ladder may still matter."""

# columns of a ply's row in the work array, after its moves to try
W_COUNT, W_NEXT, W_KIND = MAX_OPTIONS, MAX_OPTIONS + 1, MAX_OPTIONS + 2
NWORK = MAX_OPTIONS + 3


@allocating
def new_scratch(
    grid: np.ndarray, meta: np.ndarray, reading: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Working space for the three questions: one ``grid``/``meta`` pair per ply, the
    moves to try per ply (and where each ply stands), and the node budget (one int64).
    With ``reading`` False, empty arrays that cost nothing (for a caller that will not read)."""
    depth = MAX_PLIES + 2 if reading else 0
    gs = np.empty((depth, grid.shape[0], grid.shape[1]), grid.dtype)
    ms = np.empty((depth, meta.shape[0]), meta.dtype)
    work = np.empty((depth, NWORK), np.int32)
    budget = np.zeros(1, np.int64)
    return gs, ms, work, budget


@kernel
def _fill(g: np.ndarray, w: int, work: np.ndarray, d: int, p: int, attacker: int) -> bool:
    """Set up ply ``d``'s node: who is to move (``W_KIND``: the chain's liberties, 1 for the
    defender, 2 for the attacker) and the moves to try. False when the node is not read
    (another liberty count, or more defender options than room), i.e. not captured."""
    row = work[d]
    h = g[HEAD, p]
    libs = g[LIBS, h]
    row[W_KIND] = libs
    row[W_NEXT] = 0
    if libs == 2:
        row[0] = chain_liberty(g, w, h, 0)
        row[1] = chain_liberty(g, w, h, row[0])
        row[W_COUNT] = 2
        return True
    if libs != 1:
        return False
    # the defender's options: extend, or take an attacker chain in atari next to the chain
    n = 1
    row[0] = chain_liberty(g, w, h, 0)
    s = h
    while True:
        for e in (s - w, s - 1, s + 1, s + w):
            if g[COLOR, e] == attacker and g[LIBS, g[HEAD, e]] == 1:
                x = chain_liberty(g, w, g[HEAD, e], 0)
                seen = False
                for i in range(n):
                    if row[i] == x:
                        seen = True
                if not seen:
                    if n == MAX_OPTIONS:
                        return False  # more options than room: no proof
                    row[n] = x
                    n += 1
        s = g[NEXT, s]
        if s == h:
            break
    row[W_COUNT] = n
    return True


@kernel
def _extends_out(g: np.ndarray, m: np.ndarray, x: int, y: int, attacker: int) -> bool:
    """Whether, after an attacker's atari at ``x`` on a chain whose other liberty is ``y``,
    the defender surely gets 3 liberties by extending at ``y``: ``x`` captures nothing (so
    it takes away only itself) and the extension has 4 liberties counting ``x``. Saves a
    copy of the board for the many ataris that do not work."""
    return captures_something(g, m, x, attacker) == 0 and liberties_after(g, m, y, 3 - attacker, 4) >= 4


@allocating
def _read(
    gs: np.ndarray, ms: np.ndarray, work: np.ndarray, budget: np.ndarray, d0: int, p: int, attacker: int
) -> bool:
    """Whether the chain on ``p`` in ``gs[d0]``/``ms[d0]`` is captured in a ladder: with 1
    liberty the defender is to move, with 2 the attacker (the rules are the module's).

    A depth-first AND-OR search without recursion (numba's disk cache does not hold
    recursive functions): ply ``d`` keeps its moves and the next one to try in ``work[d]``;
    a node's value goes up as long as it decides its parent (an attacker node is decided by
    a captured child, a defender node by an escaped one). The stones of ``gs[d0]`` are never
    changed (only its flood-fill marks).
    """
    defender = 3 - attacker
    w = ms[d0, M_W]
    top = gs.shape[0] - 1
    if d0 >= top or not _fill(gs[d0], w, work, d0, p, attacker):
        return False
    d = d0
    while True:
        row = work[d]
        kind = row[W_KIND]
        if row[W_NEXT] == row[W_COUNT]:
            # every move tried: a defender node is captured, an attacker node is not
            value = kind == 1
        else:
            x = row[row[W_NEXT]]
            row[W_NEXT] += 1
            g = gs[d]
            m = ms[d]
            mover = attacker if kind == 2 else defender
            if legality(g, m, x, mover, False) != LEGAL:
                continue
            if kind == 2 and _extends_out(g, m, x, row[1] if x == row[0] else row[0], attacker):
                continue
            if kind == 1 and row[W_NEXT] == 1 and liberties_after(g, m, x, defender, 3) >= 3:
                value = False  # the extension (the first option) has 3 liberties already
            else:
                g2 = gs[d + 1]
                m2 = ms[d + 1]
                g2[:, :] = g
                m2[:] = m
                play_stone(g2, m2, x, mover)
                after = g2[LIBS, g2[HEAD, p]]
                if kind == 2:
                    if after != 1:
                        continue
                elif after >= 3:
                    value = False  # escaped
                elif after == 1:
                    continue  # the attacker takes the chain: try the defender's next move
                if kind == 2 or after == 2:
                    # read the child node at ply d + 1
                    if d + 2 <= top and budget[0] > 0:
                        budget[0] -= 1
                        if _fill(g2, w, work, d + 1, p, attacker):
                            d += 1
                            continue
                    value = False  # too deep or too long: not captured
                # value is now the child's: it decides node d, or node d tries its next move
                if (kind == 2) != value:
                    continue
        # node d's value is ``value``: pass it up while it decides the parent
        while True:
            if d == d0:
                return value
            d -= 1
            if (work[d, W_KIND] == 2) != value:
                break


@allocating
def ladder_captures(
    grid: np.ndarray, meta: np.ndarray, p: int, attacker: int,
    gs: np.ndarray, ms: np.ndarray, work: np.ndarray, budget: np.ndarray,
) -> bool:
    """Whether the chain on ``p`` (the defender's, the other colour than ``attacker``), in
    atari with the defender to move, dies in a ladder. False if it is not in atari."""
    defender = 3 - attacker
    if grid[COLOR, p] != defender or grid[LIBS, grid[HEAD, p]] != 1:
        return False
    gs[0, :, :] = grid
    ms[0, :] = meta
    budget[0] = NODE_BUDGET
    return _read(gs, ms, work, budget, 0, p, attacker)


@allocating
def ladder_escape_fails(
    grid: np.ndarray, meta: np.ndarray, p: int, c: int,
    gs: np.ndarray, ms: np.ndarray, work: np.ndarray, budget: np.ndarray,
) -> bool:
    """Whether ``c`` on ``p`` extends an own chain in atari (``p`` is its liberty) to a chain
    of exactly 2 liberties that the opponent, to move, captures in a ladder."""
    w = meta[M_W]
    saves = False
    for q in (p - w, p - 1, p + 1, p + w):
        if grid[COLOR, q] == c and grid[LIBS, grid[HEAD, q]] == 1:
            saves = True
    if not saves or legality(grid, meta, p, c, False) != LEGAL:
        return False
    if liberties_after(grid, meta, p, c, 3) >= 3:
        return False  # 3 liberties before any capture: not a ladder
    gs[0, :, :] = grid
    ms[0, :] = meta
    play_stone(gs[0], ms[0], p, c)
    if gs[0, LIBS, gs[0, HEAD, p]] != 2:
        return False
    budget[0] = NODE_BUDGET
    return _read(gs, ms, work, budget, 0, p, 3 - c)


@allocating
def ladder_atari_works(
    grid: np.ndarray, meta: np.ndarray, p: int, c: int,
    gs: np.ndarray, ms: np.ndarray, work: np.ndarray, budget: np.ndarray,
) -> bool:
    """Whether ``c`` on ``p`` puts an opponent chain in atari that then dies in a ladder
    (extending and counter-capturing both fail; an atari stone that is itself in atari is
    read like any other: the opponent's taking it is one of its options)."""
    w = meta[M_W]
    o = 3 - c
    ataris = False
    for q in (p - w, p - 1, p + 1, p + w):
        # an atari, unless the chain surely gets out by extending at its other liberty
        h = grid[HEAD, q]
        if grid[COLOR, q] == o and grid[LIBS, h] == 2:
            ataris = ataris or not _extends_out(grid, meta, p, chain_liberty(grid, w, h, p), c)
    if not ataris or legality(grid, meta, p, c, False) != LEGAL:
        return False
    gs[0, :, :] = grid
    ms[0, :] = meta
    play_stone(gs[0], ms[0], p, c)
    for h in neighbour_chains(gs[0], w, p):
        if gs[0, COLOR, h] == o and gs[0, LIBS, h] == 1:
            budget[0] = NODE_BUDGET
            if _read(gs, ms, work, budget, 0, h, c):  # reading leaves the stones of gs[0]
                return True
    return False


@kernel
def worth_running(grid: np.ndarray, meta: np.ndarray, p: int, c: int, budget: np.ndarray) -> bool:
    """Whether running out the failing escape ``c`` on ``p`` may still serve, asked right
    after :func:`ladder_escape_fails` said yes with this ``budget``: as a ko threat (a ko
    was just taken), or for life and death (a short ladder of a small chain, as Pachi's
    ``useful_ladder`` allows). Long ladders of any chain, and short ones of a large chain,
    only lose more stones."""
    if meta[M_KO] != 0:
        return True
    if NODE_BUDGET - budget[0] > SHORT_LADDER_NODES:
        return False
    w = meta[M_W]
    stones = 0
    for q in (p - w, p - 1, p + 1, p + w):
        h = grid[HEAD, q]
        if grid[COLOR, q] == c and grid[LIBS, h] == 1:
            stones = max(stones, int(grid[SIZE, h]))
    return stones <= SMALL_CHAIN
