"""The search tree in flat arrays, and the search loop (descend, playout, update) in numba.

Reading guide. A tree is three arrays, so the whole search loop runs compiled:

- ``ti`` (int32, shape ``(NTI, capacity)``): per node its ``T_MOVE`` (the kernel point of the
  move that leads to it, 0 for a pass), ``T_FIRST`` (index of its first child: a node's
  children are contiguous) and ``T_NCHILD`` (0 while it is a leaf).
- ``tf`` (float64, shape ``(NTF, capacity)``): ``T_V``/``T_W`` visits and wins of the node's
  move for the player who made it; ``T_PV``/``T_PW`` prior visits and wins (heuristic
  knowledge given at expansion, michi's priors); ``T_AV``/``T_AW`` the AMAF ("all moves as
  first", RAVE) visits and wins.
- ``tmeta`` (int64): ``TM_USED`` nodes in use, ``TM_FULL`` set once an expansion did not fit.

One iteration (:func:`search`): **descend** from the root, at each node choosing the child of
highest RAVE urgency (michi's formula: the node's win rate with its priors, blended with its
AMAF win rate by ``beta = av / (av + v + v*av/RAVE_EQUIV)``), expanding a leaf once it has ``EXPAND_VISITS`` visits; **playout** with the heavy policy of
:mod:`miai._kernel.heavy`; **update** every node on the path with the result, and the AMAF
statistics of their children with the moves played later in the iteration by the same player.

Superko is not checked here: the Python player expands the root with the moves the game's
rules allow, and passes a ``forbidden`` mask of points for a kept root whose children include
moves the game no longer allows (the descent never picks those); inside the tree and the
playouts, simple ko is the rule. :func:`compact` copies the
subtree under a node into fresh arrays: the tree kept from one move to the next.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from miai._kernel.board import (
    BLACK, COLOR, EMPTIES, EMPTY, HEAD, LEGAL, LIBS, M_N, M_NEMPTY, M_RNG, M_W, NEXT, WHITE,
    is_own_eye, legality, pass_turn, play_stone, region_owners,
)
from miai._kernel.ladder import ladder_atari_works, ladder_escape_fails, new_scratch
from miai._kernel.heavy import env8, heavy_playout, self_atari
from miai._kernel.playout import _restore, _scratch
from miai._kernel.semeai import urgent_race_moves
from miai._kernel.movefeatures import F_ATARI, NGROUPS, OFFSETS, log_strength, move_features
from miai._kernel.spatial import NOFFSETS, NSIZES, pattern_value
from miai._kernel.tactics import captures_something, liberties_after

T_MOVE, T_FIRST, T_NCHILD = range(3)
NTI = 3
T_V, T_W, T_PV, T_PW, T_AV, T_AW = range(6)
NTF = 6
TM_USED, TM_FULL = range(2)
NTM = 2

# indices into the search's parameter array (see miai.ai.mcts.MctsConfig)
(
    S_EXPAND_VISITS,
    S_RAVE_EQUIV,
    S_PRIOR_EVEN,
    S_PRIOR_SELFATARI,
    S_PRIOR_CAPTURE_ONE,
    S_PRIOR_CAPTURE_MANY,
    S_PRIOR_PAT3,
    S_PRIOR_CFG1,
    S_PRIOR_CFG2,
    S_PRIOR_CFG3,
    S_PRIOR_EMPTYAREA,
    S_KOMI,
    S_PRIOR_LADDER,
    S_PRIOR_PATTERN,
    S_PRIOR_MM,
    S_PRIOR_RACE,
) = range(16)
NSPARAMS = 16


def new_tree(capacity: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An empty tree with room for ``capacity`` nodes, holding only its root (node 0)."""
    ti = np.zeros((NTI, capacity), np.int32)
    tf = np.zeros((NTF, capacity), np.float64)
    tmeta = np.zeros(NTM, np.int64)
    tmeta[TM_USED] = 1
    return ti, tf, tmeta


@njit(cache=True)
def _cfg_distances(grid: np.ndarray, meta: np.ndarray, last: int, dist: np.ndarray) -> None:
    """Common-fate-graph distances (up to 3) from the last move: stepping between stones of
    one chain is free. ``dist`` gets 99 beyond 3 (and everywhere if ``last`` is 0)."""
    w = meta[M_W]
    length = w * w
    for p in range(length):
        dist[p] = 99
    if last <= 0 or grid[COLOR, last] == EMPTY:
        return
    h = grid[HEAD, last]
    s = h
    while True:
        dist[s] = 0
        s = grid[NEXT, s]
        if s == h:
            break
    for d in range(1, 4):
        for p in range(length):
            if dist[p] != d - 1:
                continue
            for q in (p - w, p - 1, p + 1, p + w):
                cq = grid[COLOR, q]
                if dist[q] <= d or cq > 2:
                    continue
                if cq == EMPTY:
                    dist[q] = d
                else:
                    hq = grid[HEAD, q]
                    s = hq
                    while True:
                        if dist[s] > d:
                            dist[s] = d
                        s = grid[NEXT, s]
                        if s == hq:
                            break


@njit(cache=True)
def _empty_area(grid: np.ndarray, meta: np.ndarray, p: int, radius: int) -> bool:
    """No stone within Manhattan distance ``radius`` of ``p``."""
    n = meta[M_N]
    w = meta[M_W]
    r0 = p // w - 1
    c0 = p % w - 1
    for dr in range(-radius, radius + 1):
        r = r0 + dr
        if r < 0 or r >= n:
            continue
        span = radius - abs(dr)
        for dc in range(-span, span + 1):
            c = c0 + dc
            if 0 <= c < n:
                col = grid[COLOR, (r + 1) * w + c + 1]
                if col == BLACK or col == WHITE:
                    return False
    return True


@njit(cache=True)
def expand(
    ti: np.ndarray, tf: np.ndarray, tmeta: np.ndarray, node: int, grid: np.ndarray, meta: np.ndarray, c: int,
    last: int, last2: int, params: np.ndarray, pat3: np.ndarray, pat_keys: np.ndarray, pat_values: np.ndarray,
    mm_gammas: np.ndarray, forbidden: np.ndarray,
) -> bool:
    """Give ``node`` (a leaf, ``c`` to move on this board) a child for every legal move of
    ``c`` that does not fill an own eye and is not ``forbidden`` (a boolean per point), with
    priors (michi's, ladders read by :mod:`miai._kernel.ladder` unless ``S_PRIOR_LADDER``
    is 0, and the learned spatial patterns of :mod:`miai._kernel.spatial`, ``pat_keys`` and
    ``pat_values``, unless ``S_PRIOR_PATTERN`` is 0, and the move predictor of
    :mod:`miai._kernel.movefeatures`, whose log strengths are ``mm_gammas``, unless
    ``S_PRIOR_MM`` is 0: each move gets ``S_PRIOR_MM`` times the square root of its predicted
    chance as won visits, and the capturing races of :mod:`miai._kernel.semeai` unless
    ``S_PRIOR_RACE`` is 0: the move that wins a race only if played now gets ``S_PRIOR_RACE``
    won visits); a single pass child when there is none. ``last``/``last2``: the
    last two moves' points (0 for a pass or none). False if the tree has no room."""
    n = meta[M_N]
    w = meta[M_W]
    nempty = meta[M_NEMPTY]
    used = tmeta[TM_USED]
    if used + nempty + 1 > ti.shape[1]:
        tmeta[TM_FULL] = 1
        return False
    dist = np.empty(w * w, np.int32)
    _cfg_distances(grid, meta, last, dist)
    first = used
    k = used
    even = params[S_PRIOR_EVEN]
    ladder = params[S_PRIOR_LADDER]
    gs, ms, work, budget = new_scratch(grid, meta, ladder > 0)  # the ladder reader's space
    patterns = params[S_PRIOR_PATTERN] if pat_keys.shape[0] > 0 else 0.0
    mm = params[S_PRIOR_MM] if mm_gammas.shape[0] > 0 else 0.0
    mm_strength = np.empty(nempty if mm > 0 else 0, np.float64)  # each child's log strength
    levels = np.empty(NGROUPS, np.int64)
    states = np.empty(NOFFSETS, np.int8)  # the spatial patterns' scratch
    hashes = np.empty(NSIZES, np.int64)
    race = params[S_PRIOR_RACE]
    racing = np.zeros(grid.shape[1] if race > 0 else 0, np.bool_)  # c's moves that win a race
    if race > 0:
        urgent_race_moves(grid, meta, c, racing)
    for i in range(nempty):
        p = grid[EMPTIES, i]
        if forbidden[p]:
            continue
        if legality(grid, meta, p, c, False) != LEGAL or is_own_eye(grid, meta, p, c):
            continue
        pv = even
        pw = even / 2
        caught = captures_something(grid, meta, p, c)
        if caught > 1:
            pv += params[S_PRIOR_CAPTURE_MANY]
            pw += params[S_PRIOR_CAPTURE_MANY]
        elif caught == 1:
            pv += params[S_PRIOR_CAPTURE_ONE]
            pw += params[S_PRIOR_CAPTURE_ONE]
        else:
            # saving an own chain in atari by extending
            for q in (p - w, p - 1, p + 1, p + w):
                if grid[COLOR, q] == c and grid[LIBS, grid[HEAD, q]] == 1:
                    if liberties_after(grid, meta, p, c, 3) >= 3:
                        pv += params[S_PRIOR_CAPTURE_ONE]
                        pw += params[S_PRIOR_CAPTURE_ONE]
                    break
        if pat3[env8(grid, w, p)] > 0:
            pv += params[S_PRIOR_PAT3]
            pw += params[S_PRIOR_PAT3]
        d = dist[p]
        if d == 1:
            pv += params[S_PRIOR_CFG1]
            pw += params[S_PRIOR_CFG1]
        elif d == 2:
            pv += params[S_PRIOR_CFG2]
            pw += params[S_PRIOR_CFG2]
        elif d == 3:
            pv += params[S_PRIOR_CFG3]
            pw += params[S_PRIOR_CFG3]
        r = p // w - 1
        col = p % w - 1
        height = min(min(r, col), min(n - 1 - r, n - 1 - col))
        if height <= 2 and _empty_area(grid, meta, p, 3):
            pv += params[S_PRIOR_EMPTYAREA]
            if height == 2:
                pw += params[S_PRIOR_EMPTYAREA]
        if self_atari(grid, meta, p, c):
            pv += params[S_PRIOR_SELFATARI]
        if race > 0 and racing[p]:
            pv += race
            pw += race
        v = -1.0  # the chance of the largest known shape, read once for both learned priors
        if (patterns > 0 or mm > 0) and pat_keys.shape[0] > 0:
            v = pattern_value(grid, meta, p, c, pat_keys, pat_values, states, hashes)
        if patterns > 0:
            # Pachi's pattern prior: sqrt(chance played) of the largest known shape, as wins
            if v > 0.0:
                bonus = patterns * math.sqrt(v)
                pv += bonus
                pw += bonus
        if mm > 0:
            move_features(grid, meta, p, c, last, last2, v, gs, ms, work, budget, levels)
            mm_strength[k - first] = log_strength(levels, OFFSETS, mm_gammas)
        if ladder > 0:
            # read ladders only next to a chain with 1 (own) or 2 (opponent's) liberties
            escape = False
            atari = False
            for q in (p - w, p - 1, p + 1, p + w):
                cq = grid[COLOR, q]
                if cq == c and grid[LIBS, grid[HEAD, q]] == 1:
                    escape = True
                elif cq == 3 - c and grid[LIBS, grid[HEAD, q]] == 2:
                    atari = True
            if escape and ladder_escape_fails(grid, meta, p, c, gs, ms, work, budget):
                pv += ladder
            if atari:
                # the predictor has read this ladder already (F_ATARI 1: the chain dies in it)
                works = levels[F_ATARI] == 1 if mm > 0 else ladder_atari_works(grid, meta, p, c, gs, ms, work, budget)
                if works:
                    pv += ladder
                    pw += ladder
        ti[T_MOVE, k] = p
        ti[T_FIRST, k] = 0
        ti[T_NCHILD, k] = 0
        tf[T_V, k] = 0.0
        tf[T_W, k] = 0.0
        tf[T_PV, k] = pv
        tf[T_PW, k] = pw
        tf[T_AV, k] = 0.0
        tf[T_AW, k] = 0.0
        k += 1
    if mm > 0 and k > first:
        # the predictor's chance of each move, over every child's strength
        top = mm_strength[: k - first].max()
        total = 0.0
        for j in range(k - first):
            total += math.exp(mm_strength[j] - top)
        for j in range(k - first):
            bonus = mm * math.sqrt(math.exp(mm_strength[j] - top) / total)
            tf[T_PV, first + j] += bonus
            tf[T_PW, first + j] += bonus
    if k == first:
        ti[T_MOVE, k] = 0
        ti[T_FIRST, k] = 0
        ti[T_NCHILD, k] = 0
        for f in range(NTF):
            tf[f, k] = 0.0
        tf[T_PV, k] = even
        tf[T_PW, k] = even / 2
        k += 1
    ti[T_FIRST, node] = first
    ti[T_NCHILD, node] = k - first
    tmeta[TM_USED] = k
    return True


@njit(cache=True, inline="always")
def urgency(tf: np.ndarray, k: int, rave_equiv: float) -> float:
    """michi's RAVE urgency of child ``k``: its win rate with its priors, blended with its
    AMAF win rate by ``beta``."""
    v = tf[T_V, k] + tf[T_PV, k]
    expectation = (tf[T_W, k] + tf[T_PW, k]) / v if v > 0 else 0.5
    av = tf[T_AV, k]
    aw = tf[T_AW, k]
    if av > 0:
        beta = av / (av + v + v * av / rave_equiv)
        expectation = beta * aw / av + (1.0 - beta) * expectation
    return expectation


@njit(cache=True)
def select_child(
    ti: np.ndarray, tf: np.ndarray, node: int, params: np.ndarray, forbidden: np.ndarray, masked: bool
) -> int:
    """The child of ``node`` with the highest urgency (the first one on ties), leaving out,
    when ``masked``, the children whose move is ``forbidden`` (a boolean per point); -1 if
    every one is."""
    first = ti[T_FIRST, node]
    rave_equiv = params[S_RAVE_EQUIV]
    best = -1
    best_u = -1e300
    for k in range(first, first + ti[T_NCHILD, node]):
        if masked and forbidden[ti[T_MOVE, k]]:
            continue
        u = urgency(tf, k, rave_equiv)
        if u > best_u:
            best_u = u
            best = k
    return best


@njit(cache=True)
def search(
    ti: np.ndarray, tf: np.ndarray, tmeta: np.ndarray, root: int, grid: np.ndarray, meta: np.ndarray,
    to_move: int, last: int, last2: int, count: int, params: np.ndarray, policy_params: np.ndarray,
    pat3: np.ndarray, pat_keys: np.ndarray, pat_values: np.ndarray, mm_gammas: np.ndarray, owners_sum: np.ndarray,
    rng_state: np.ndarray, forbidden: np.ndarray,
) -> int:
    """Run ``count`` iterations (descend, playout, update) from ``root`` (already expanded)
    on this position (left unchanged). ``owners_sum`` gains +1 per playout a point ends
    Black's and -1 White's; ``rng_state[0]`` is the random state (advanced); ``forbidden``
    (a boolean per point) marks the root's moves the game's rules forbid now. Returns the
    number of turns the playouts played."""
    length = grid.shape[1]
    g, m = _scratch(grid, meta, rng_state[0])
    nothing_forbidden = np.zeros(length, np.bool_)  # below the root
    amaf = np.zeros(length, np.int8)
    owners = np.zeros(length, np.int32)
    path = np.zeros(4 * length + 8, np.int32)
    n = meta[M_N]
    max_turns = 3 * n * n
    komi = params[S_KOMI]
    expand_visits = params[S_EXPAND_VISITS]
    turns_total = 0
    for _ in range(count):
        _restore(g, m, grid, meta)
        amaf[:] = 0
        # descend
        node = root
        path[0] = root
        depth = 1
        c = to_move
        l1 = last
        l2 = last2
        while ti[T_NCHILD, node] > 0 and depth < path.shape[0] - 1:
            child = select_child(ti, tf, node, params, forbidden, node == root)
            if child < 0:
                break
            mv = ti[T_MOVE, child]
            if mv == 0:
                pass_turn(m)
            else:
                play_stone(g, m, mv, c)
                if amaf[mv] == 0:
                    amaf[mv] = c
            path[depth] = child
            depth += 1
            l2 = l1
            l1 = mv
            c = 3 - c
            node = child
            if ti[T_NCHILD, node] == 0 and tf[T_V, node] >= expand_visits and tmeta[TM_FULL] == 0:
                if not (l1 == 0 and l2 == 0):
                    expand(ti, tf, tmeta, node, g, m, c, l1, l2, params, pat3, pat_keys, pat_values, mm_gammas,
                           nothing_forbidden)
        # playout (none after two passes in the tree: the game is over)
        if not (l1 == 0 and l2 == 0 and depth > 2):
            turns_total += heavy_playout(g, m, c, l1, l2, max_turns, pat3, policy_params, amaf)
        region_owners(g, m, owners)
        diff = 0
        for p in range(length):
            o = owners[p]
            if o == BLACK:
                diff += 1
                owners_sum[p] += 1
            elif o == WHITE:
                diff -= 1
                owners_sum[p] -= 1
        margin = diff - komi
        black_win = 1.0 if margin > 0 else (0.5 if margin == 0 else 0.0)
        # update
        for i in range(depth - 1, -1, -1):
            nd = path[i]
            mover = to_move if i % 2 == 1 else 3 - to_move
            win = black_win if mover == BLACK else 1.0 - black_win
            tf[T_V, nd] += 1.0
            tf[T_W, nd] += win
            nc = ti[T_NCHILD, nd]
            if nc > 0:
                player = 3 - mover
                pwin = 1.0 - win
                first = ti[T_FIRST, nd]
                for k in range(first, first + nc):
                    mv = ti[T_MOVE, k]
                    if mv > 0 and amaf[mv] == player:
                        tf[T_AV, k] += 1.0
                        tf[T_AW, k] += pwin
    rng_state[0] = m[M_RNG]
    return turns_total


@njit(cache=True)
def compact(
    ti: np.ndarray, tf: np.ndarray, new_root: int, ti2: np.ndarray, tf2: np.ndarray, tmeta2: np.ndarray
) -> None:
    """Copy the subtree under ``new_root`` into ``ti2``/``tf2`` (breadth first), where it
    becomes node 0; nodes that do not fit are left as leaves."""
    cap = ti2.shape[1]
    src = np.empty(cap, np.int32)
    for f in range(NTI):
        ti2[f, 0] = ti[f, new_root]
    for f in range(NTF):
        tf2[f, 0] = tf[f, new_root]
    src[0] = new_root
    used = 1
    head = 0
    full = 0
    while head < used:
        s = src[head]
        nc = ti[T_NCHILD, s]
        if nc > 0 and used + nc <= cap:
            first = ti[T_FIRST, s]
            ti2[T_FIRST, head] = used
            for j in range(nc):
                for f in range(NTI):
                    ti2[f, used + j] = ti[f, first + j]
                for f in range(NTF):
                    tf2[f, used + j] = tf[f, first + j]
                src[used + j] = first + j
            used += nc
        elif nc > 0:
            ti2[T_NCHILD, head] = 0
            ti2[T_FIRST, head] = 0
            full = 1
        head += 1
    tmeta2[TM_USED] = used
    tmeta2[TM_FULL] = full
