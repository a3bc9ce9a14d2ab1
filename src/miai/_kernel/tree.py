"""The search tree in flat arrays, and the search loop (descend, playout, update) in numba.

Reading guide. A tree is three arrays, so the whole search loop runs compiled; the kernel's
functions take them together as one tuple, ``tree = (ti, tf, tmeta)``:

- ``ti`` (int32, shape ``(NTI, capacity)``): per node its ``T_MOVE`` (the kernel point of the
  move that leads to it, 0 for a pass), ``T_FIRST`` (index of its first child: a node's
  children are contiguous), ``T_NCHILD`` (0 while it is a leaf) and ``T_NET`` (1 once its
  children have the policy network's prior, given outside the kernel: :mod:`miai.ai.netprior`).
- ``tf`` (float64, shape ``(NTF, capacity)``): ``T_V``/``T_W`` visits and wins of the node's
  move for the player who made it; ``T_PV``/``T_PW`` prior visits and wins (heuristic
  knowledge given at expansion: :mod:`miai._kernel.priors`); ``T_AV``/``T_AW`` the AMAF
  ("all moves as first", RAVE) visits and wins.
- ``tmeta`` (int64): ``TM_USED`` nodes in use, ``TM_FULL`` set once an expansion did not fit.

What the priors and the playouts know beyond the board comes as one tuple too,
``knowledge = (pat3, pattern_keys, pattern_values, mm_gammas)``: the playouts' 3×3 pattern
table (:data:`miai._kernel.heavy.PAT3`), the learned spatial patterns
(:mod:`miai._kernel.spatial`; empty: not read) and the move predictor's log strengths
(:mod:`miai._kernel.movefeatures`; empty: not read).

One iteration (:func:`search`): **descend** from the root, at each node choosing the child of
highest RAVE urgency (michi's formula: the node's win rate with its priors, blended with its
AMAF win rate by ``beta = av / (av + v + v*av/RAVE_EQUIV)``), expanding a leaf once it has
``EXPAND_VISITS`` visits (:func:`expand`, the priors by :func:`add_priors`); **playout** with
the heavy policy of :mod:`miai._kernel.heavy`; **update** every node on the path with the
result, and the AMAF statistics of their children with the moves played later in the
iteration by the same player.

Superko is not checked here: the Python player expands the root with the moves the game's
rules allow, and passes a ``forbidden`` mask of points for a kept root whose children include
moves the game no longer allows (the descent never picks those); inside the tree and the
playouts, simple ko is the rule. :func:`compact` copies the
subtree under a node into fresh arrays: the tree kept from one move to the next.
"""

from __future__ import annotations

import numpy as np

from miai._kernel.board import (
    BLACK, EMPTIES, LEGAL, M_N, M_NEMPTY, M_RNG, add_owners, is_own_eye, legality, pass_turn, play_stone,
)
from miai._kernel.heavy import heavy_playout_in, hopeless_self_atari, playout_scratch
from miai._kernel.jit import allocating, kernel
from miai._kernel.ladder import new_scratch
from miai._kernel.playout import _restore, _scratch
from miai._kernel.priors import (
    capture_prior, cfg_prior, empty_area_prior, even_prior, ladder_prior, mm_prior, pat3_prior, pattern_prior,
    predicted_strengths, race_prior, self_atari_prior, shape_chances,
)

T_MOVE, T_FIRST, T_NCHILD, T_NET = range(4)
NTI = 4
T_V, T_W, T_PV, T_PW, T_AV, T_AW = range(6)
NTF = 6
TM_USED, TM_FULL = range(2)
NTM = 2

# indices into the search's parameter array (see miai.ai.config.MctsConfig.tree_params)
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
    S_PRUNE_LADDERS,
) = range(17)
NSPARAMS = 17

Tree = tuple[np.ndarray, np.ndarray, np.ndarray]
"""A search tree: its ``ti``, ``tf`` and ``tmeta`` arrays."""
Knowledge = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""The 3×3 patterns, the learned patterns' keys and values, and the move predictor's log strengths."""


def new_tree(capacity: int) -> Tree:
    """An empty tree with room for ``capacity`` nodes, holding only its root (node 0)."""
    ti = np.zeros((NTI, capacity), np.int32)
    tf = np.zeros((NTF, capacity), np.float64)
    tmeta = np.zeros(NTM, np.int64)
    tmeta[TM_USED] = 1
    return ti, tf, tmeta


@allocating
def add_priors(
    grid: np.ndarray, meta: np.ndarray, c: int, last: int, last2: int, moves: np.ndarray, pv: np.ndarray,
    pw: np.ndarray, params: np.ndarray, knowledge: Knowledge, hopeless: np.ndarray,
) -> None:
    """Give the children ``moves`` of a node (``c`` to move on this board, after the moves
    ``last`` and ``last2``) their prior visits ``pv`` and wins ``pw``: each prior of
    :mod:`miai._kernel.priors` in turn, with its weight from ``params`` (``S_PRIOR_*``; the
    race, ladder and learned priors are not read at weight 0, nor the learned ones without
    their tables). Marks in ``hopeless`` the escapes the ladder prior finds hopeless."""
    pat3, pattern_keys, pattern_values, mm_gammas = knowledge
    even_prior(pv, pw, params[S_PRIOR_EVEN])
    capture_prior(grid, meta, c, moves, pv, pw, params[S_PRIOR_CAPTURE_ONE], params[S_PRIOR_CAPTURE_MANY])
    pat3_prior(grid, meta, moves, pv, pw, pat3, params[S_PRIOR_PAT3])
    cfg_prior(grid, meta, last, moves, pv, pw, params[S_PRIOR_CFG1], params[S_PRIOR_CFG2], params[S_PRIOR_CFG3])
    empty_area_prior(grid, meta, moves, pv, pw, params[S_PRIOR_EMPTYAREA])
    self_atari_prior(grid, meta, c, moves, pv, params[S_PRIOR_SELFATARI])
    if params[S_PRIOR_RACE] > 0:
        race_prior(grid, meta, c, moves, pv, pw, params[S_PRIOR_RACE])
    learned = pattern_keys.shape[0] > 0
    patterns = params[S_PRIOR_PATTERN] if learned else 0.0
    mm = params[S_PRIOR_MM] if mm_gammas.shape[0] > 0 else 0.0
    ladder = params[S_PRIOR_LADDER]
    n = moves.shape[0]
    chances = np.full(n, -1.0)  # the chance of each move's largest known shape, read once for both
    if (patterns > 0 or mm > 0) and learned:
        shape_chances(grid, meta, c, moves, pattern_keys, pattern_values, chances)
    if patterns > 0:
        pattern_prior(pv, pw, chances, patterns)
    space = new_scratch(grid, meta, ladder > 0)  # the ladder reader's, for the predictor too
    strengths = np.empty(n if mm > 0 else 0, np.float64)
    ataris = np.empty(n if mm > 0 else 0, np.int64)  # the predictor's ladder ataris, not read twice
    if mm > 0:
        predicted_strengths(grid, meta, c, last, last2, moves, chances, mm_gammas, space, strengths, ataris)
    if ladder > 0:
        ladder_prior(grid, meta, c, moves, pv, pw, ladder, space, ataris, hopeless)
    if mm > 0:
        mm_prior(pv, pw, strengths, mm)


@kernel
def _add_children(
    ti: np.ndarray, tf: np.ndarray, k: int, grid: np.ndarray, meta: np.ndarray, c: int, forbidden: np.ndarray
) -> int:
    """Write from node ``k`` on a leaf child for every legal move of ``c`` that fills no own
    eye, is no hopeless self-atari (:func:`~miai._kernel.heavy.hopeless_self_atari`) and is
    not ``forbidden``, with no statistics; returns the index after the last."""
    for i in range(meta[M_NEMPTY]):
        p = grid[EMPTIES, i]
        if forbidden[p]:
            continue
        if legality(grid, meta, p, c, False) != LEGAL or is_own_eye(grid, meta, p, c):
            continue
        if hopeless_self_atari(grid, meta, p, c):
            continue
        ti[T_MOVE, k] = p
        ti[T_FIRST, k] = 0
        ti[T_NCHILD, k] = 0
        ti[T_NET, k] = 0
        for f in range(NTF):
            tf[f, k] = 0.0
        k += 1
    return k


@kernel
def _drop_children(ti: np.ndarray, tf: np.ndarray, first: int, end: int, drop: np.ndarray) -> int:
    """Close up the children ``first``..``end`` of a node, leaving out those whose ``drop``
    (one boolean per child, in order) is set; returns the index after the last kept."""
    k = first
    for j in range(end - first):
        if drop[j]:
            continue
        if k != first + j:
            for f in range(NTI):
                ti[f, k] = ti[f, first + j]
            for f in range(NTF):
                tf[f, k] = tf[f, first + j]
        k += 1
    return k


@allocating
def expand(
    tree: Tree, node: int, grid: np.ndarray, meta: np.ndarray, c: int, last: int, last2: int, params: np.ndarray,
    knowledge: Knowledge, forbidden: np.ndarray,
) -> bool:
    """Give ``node`` (a leaf, ``c`` to move on this board) a child for every legal move of
    ``c`` that does not fill an own eye, is no hopeless self-atari and is not ``forbidden``
    (a boolean per point), with
    its priors (:func:`add_priors`), leaving out with ``params[S_PRUNE_LADDERS]`` the
    hopeless ladder escapes (as Pachi does); and a pass child, with the even prior only,
    when there is none (so a side whose only moves would break a seki passes).
    ``last``/``last2``: the last two moves' points (0 for a pass or none). False if the
    tree has no room."""
    ti, tf, tmeta = tree
    first = tmeta[TM_USED]
    if first + meta[M_NEMPTY] + 1 > ti.shape[1]:
        tmeta[TM_FULL] = 1
        return False
    end = _add_children(ti, tf, first, grid, meta, c, forbidden)
    if end > first:
        hopeless = np.zeros(end - first, np.bool_)
        add_priors(grid, meta, c, last, last2, ti[T_MOVE, first:end], tf[T_PV, first:end], tf[T_PW, first:end],
                   params, knowledge, hopeless)
        if params[S_PRUNE_LADDERS] > 0:
            end = _drop_children(ti, tf, first, end, hopeless)
    if end == first:
        ti[T_MOVE, end] = 0
        ti[T_FIRST, end] = 0
        ti[T_NCHILD, end] = 0
        ti[T_NET, end] = 0
        for f in range(NTF):
            tf[f, end] = 0.0
        even_prior(tf[T_PV, end : end + 1], tf[T_PW, end : end + 1], params[S_PRIOR_EVEN])
        end += 1
    ti[T_FIRST, node] = first
    ti[T_NCHILD, node] = end - first
    tmeta[TM_USED] = end
    return True


@kernel(inline="always")
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


@kernel
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


@kernel
def _black_win(g: np.ndarray, m: np.ndarray, komi: float, owners: np.ndarray, owners_sum: np.ndarray) -> float:
    """Count a finished playout by area against ``komi``: 1.0 if Black wins, 0.5 on a tie,
    0.0 if White wins; each point's owner is added to ``owners_sum`` (+1 Black, -1 White).
    ``owners``: scratch."""
    diff = add_owners(g, m, owners, owners_sum)
    margin = diff - komi
    return 1.0 if margin > 0 else (0.5 if margin == 0 else 0.0)


@kernel
def _back_up(
    ti: np.ndarray, tf: np.ndarray, path: np.ndarray, depth: int, to_move: int, black_win: float, amaf: np.ndarray
) -> None:
    """Add one iteration's result to the ``depth`` nodes of ``path`` (the root first,
    ``to_move`` to move there), and to the AMAF statistics of their children whose move
    the same player played later in the iteration (``amaf``: each point's first player)."""
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


@kernel
def descend(
    tree: Tree, root: int, g: np.ndarray, m: np.ndarray, to_move: int, last: int, last2: int, params: np.ndarray,
    knowledge: Knowledge, forbidden: np.ndarray, nothing_forbidden: np.ndarray, amaf: np.ndarray, path: np.ndarray,
    virtual_loss: float,
) -> tuple[int, int, int, int]:
    """One descent from ``root`` on the board ``g``, ``m`` (the root's position, played on):
    at each node the child of highest urgency, expanding a leaf once it has enough visits.
    The path goes into ``path``, each point's first player into ``amaf`` (all zero before);
    every chosen child gains ``virtual_loss`` visits without a win, so that another thread
    descending before this result is backed up prefers other paths. A leaf's own virtual
    loss does not count towards its expansion, which comes after as many real visits as
    without threads. Returns the path's depth, the colour to move at its end and the last
    two moves' points."""
    ti, tf, tmeta = tree
    expand_visits = params[S_EXPAND_VISITS]
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
        if virtual_loss > 0:
            tf[T_V, child] += virtual_loss
        path[depth] = child
        depth += 1
        l2 = l1
        l1 = mv
        c = 3 - c
        node = child
        if ti[T_NCHILD, node] == 0 and tf[T_V, node] - virtual_loss >= expand_visits and tmeta[TM_FULL] == 0:
            if not (l1 == 0 and l2 == 0):
                expand(tree, node, g, m, c, l1, l2, params, knowledge, nothing_forbidden)
    return depth, c, l1, l2


@allocating
def search(
    tree: Tree, root: int, grid: np.ndarray, meta: np.ndarray, to_move: int, last: int, last2: int, count: int,
    params: np.ndarray, policy_params: np.ndarray, knowledge: Knowledge, owners_sum: np.ndarray,
    rng_state: np.ndarray, forbidden: np.ndarray,
) -> int:
    """Run ``count`` iterations (descend, playout, update) from ``root`` (already expanded)
    on this position (left unchanged). ``owners_sum`` gains +1 per playout a point ends
    Black's and -1 White's; ``rng_state[0]`` is the random state (advanced); ``forbidden``
    (a boolean per point) marks the root's moves the game's rules forbid now. Returns the
    number of turns the playouts played."""
    ti, tf, _ = tree
    length = grid.shape[1]
    g, m = _scratch(grid, meta, rng_state[0])
    nothing_forbidden = np.zeros(length, np.bool_)  # below the root
    amaf = np.zeros(length, np.int8)
    owners = np.zeros(length, np.int32)
    path = np.zeros(4 * length + 8, np.int32)
    scratch = playout_scratch(grid, meta)
    n = meta[M_N]
    max_turns = 3 * n * n
    turns_total = 0
    for _ in range(count):
        _restore(g, m, grid, meta)
        amaf[:] = 0
        depth, c, l1, l2 = descend(tree, root, g, m, to_move, last, last2, params, knowledge, forbidden,
                                   nothing_forbidden, amaf, path, 0.0)
        turns_total += heavy_playout_in(g, m, c, l1, l2, max_turns, knowledge[0], policy_params, amaf, scratch)
        black_win = _black_win(g, m, params[S_KOMI], owners, owners_sum)
        _back_up(ti, tf, path, depth, to_move, black_win, amaf)
    rng_state[0] = m[M_RNG]
    return turns_total


@kernel
def well_visited(ti: np.ndarray, tf: np.ndarray, visits: float, nodes: np.ndarray, parents: np.ndarray) -> int:
    """The root and every node reached from it through moves (not passes) of ``visits``
    visits or more, breadth first: each node into ``nodes``, the index in ``nodes`` of its
    parent into ``parents`` (-1 for the root); returns how many, or -1 if they do not fit."""
    cap = nodes.shape[0]
    nodes[0] = 0
    parents[0] = -1
    used = 1
    head = 0
    while head < used:
        node = nodes[head]
        first = ti[T_FIRST, node]
        for k in range(first, first + ti[T_NCHILD, node]):
            if tf[T_V, k] >= visits and ti[T_MOVE, k] > 0:
                if used == cap:
                    return -1
                nodes[used] = k
                parents[used] = head
                used += 1
        head += 1
    return used


@allocating
def compact(tree: Tree, new_root: int, into: Tree) -> None:
    """Copy the subtree under ``new_root`` into the tree ``into`` (breadth first), where it
    becomes node 0; nodes that do not fit are left as leaves."""
    ti, tf, _ = tree
    ti2, tf2, tmeta2 = into
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
            ti2[T_NET, head] = 0
            full = 1
        head += 1
    tmeta2[TM_USED] = used
    tmeta2[TM_FULL] = full
