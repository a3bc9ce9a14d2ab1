"""The tree's priors: what a new node's children are worth before any playout has tried them.

Reading guide. A prior is heuristic knowledge given as virtual playouts: *prior visits*
(``pv``) and *prior wins* (``pw``) that the descent adds to a child's own statistics (michi's
priors; Pachi's ``uct/prior.c``). As in Pachi, each source of knowledge is one function that
adds its visits and wins to every child of one node:

- :func:`even_prior`: every move starts at an even chance (michi's ``PRIOR_EVEN``);
- :func:`capture_prior`: captures of one stone and of more, and escapes from atari that
  reach three liberties;
- :func:`pat3_prior`: moves whose 3×3 neighbourhood is one of the playouts' patterns
  (:data:`miai._kernel.heavy.PAT3`);
- :func:`cfg_prior`: moves near the last one, by common-fate-graph distance
  (:func:`cfg_distances`: stepping along a chain is free);
- :func:`empty_area_prior`: moves on the lowest three lines with no stone near (visits, and
  wins on the third line only);
- :func:`self_atari_prior`: self-ataris (visits without wins);
- :func:`race_prior`: the move that wins a capturing race only if played now
  (:mod:`miai._kernel.semeai`);
- :func:`pattern_prior`: the chance of the largest learned spatial pattern around a move
  (:func:`shape_chances`, :mod:`miai._kernel.spatial`);
- :func:`ladder_prior`: escapes that die in a ladder (visits without wins; the hopeless
  ones are marked, for the tree to leave out) and ladder ataris that work (won visits),
  read by :mod:`miai._kernel.ladder`;
- :func:`mm_prior`: the move predictor's chance of each move, normalised over the children
  (:func:`predicted_strengths`, :mod:`miai._kernel.movefeatures`).

The children are three aligned arrays (views into the tree): their ``moves`` (kernel
points, never a pass), and their ``pv`` and ``pw``. The search's
:func:`miai._kernel.tree.add_priors` applies the priors in the order above, each with its
weight from the search's parameters. Compiled by :mod:`miai._kernel.jit` and plain Python.
"""

from __future__ import annotations

import math

import numpy as np

from miai._kernel.board import BLACK, COLOR, EMPTY, HEAD, LIBS, M_N, M_W, NEXT, WHITE
from miai._kernel.heavy import env8, self_atari
from miai._kernel.jit import allocating, kernel
from miai._kernel.ladder import ladder_atari_works, ladder_escape_fails, worth_running
from miai._kernel.movefeatures import (
    F_ATARI,
    NGROUPS,
    OFFSETS,
    log_strength,
    move_features,
)
from miai._kernel.semeai import urgent_race_moves
from miai._kernel.spatial import NOFFSETS, NSIZES, pattern_value
from miai._kernel.tactics import captures_something, liberties_after


@kernel
def even_prior(pv: np.ndarray, pw: np.ndarray, weight: float) -> None:
    """Start every child at ``weight`` visits, half of them won."""
    for j in range(pv.shape[0]):
        pv[j] = weight
        pw[j] = weight / 2


@kernel
def capture_prior(
    grid: np.ndarray, meta: np.ndarray, c: int, moves: np.ndarray, pv: np.ndarray, pw: np.ndarray,
    one: float, many: float,
) -> None:
    """Won visits for ``c``'s captures (``one`` for a single stone, ``many`` for more) and,
    ``one``, for extending an own chain in atari to three liberties or more."""
    w = meta[M_W]
    for j in range(moves.shape[0]):
        p = moves[j]
        caught = captures_something(grid, meta, p, c)
        if caught > 1:
            pv[j] += many
            pw[j] += many
        elif caught == 1:
            pv[j] += one
            pw[j] += one
        else:
            for q in (p - w, p - 1, p + 1, p + w):
                if grid[COLOR, q] == c and grid[LIBS, grid[HEAD, q]] == 1:
                    if liberties_after(grid, meta, p, c, 3) >= 3:
                        pv[j] += one
                        pw[j] += one
                    break


@kernel
def pat3_prior(
    grid: np.ndarray, meta: np.ndarray, moves: np.ndarray, pv: np.ndarray, pw: np.ndarray, pat3: np.ndarray,
    weight: float,
) -> None:
    """Won visits for the moves whose 3×3 neighbourhood matches a pattern of ``pat3``."""
    w = meta[M_W]
    for j in range(moves.shape[0]):
        if pat3[env8(grid, w, moves[j])] > 0:
            pv[j] += weight
            pw[j] += weight


@kernel
def cfg_distances(grid: np.ndarray, meta: np.ndarray, last: int, dist: np.ndarray) -> None:
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
                        dist[s] = min(dist[s], d)
                        s = grid[NEXT, s]
                        if s == hq:
                            break


@allocating
def cfg_prior(
    grid: np.ndarray, meta: np.ndarray, last: int, moves: np.ndarray, pv: np.ndarray, pw: np.ndarray,
    near1: float, near2: float, near3: float,
) -> None:
    """Won visits for the moves at common-fate-graph distance 1, 2 or 3 from the last move
    (``near1``, ``near2``, ``near3``): answers to it."""
    w = meta[M_W]
    dist = np.empty(w * w, np.int32)
    cfg_distances(grid, meta, last, dist)
    for j in range(moves.shape[0]):
        d = dist[moves[j]]
        if d == 1:
            pv[j] += near1
            pw[j] += near1
        elif d == 2:
            pv[j] += near2
            pw[j] += near2
        elif d == 3:
            pv[j] += near3
            pw[j] += near3


@kernel
def empty_area(grid: np.ndarray, meta: np.ndarray, p: int, radius: int) -> bool:
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


@kernel
def empty_area_prior(
    grid: np.ndarray, meta: np.ndarray, moves: np.ndarray, pv: np.ndarray, pw: np.ndarray, weight: float
) -> None:
    """For the moves on the lowest three lines with no stone within three points: ``weight``
    visits, won on the third line only (the first two are too low in an empty area)."""
    n = meta[M_N]
    w = meta[M_W]
    for j in range(moves.shape[0]):
        p = moves[j]
        r = p // w - 1
        col = p % w - 1
        height = min(min(r, col), min(n - 1 - r, n - 1 - col))
        if height <= 2 and empty_area(grid, meta, p, 3):
            pv[j] += weight
            if height == 2:
                pw[j] += weight


@kernel
def self_atari_prior(
    grid: np.ndarray, meta: np.ndarray, c: int, moves: np.ndarray, pv: np.ndarray, weight: float
) -> None:
    """Visits without wins for ``c``'s self-ataris (:func:`miai._kernel.heavy.self_atari`)."""
    for j in range(moves.shape[0]):
        if self_atari(grid, meta, moves[j], c):
            pv[j] += weight


@allocating
def race_prior(
    grid: np.ndarray, meta: np.ndarray, c: int, moves: np.ndarray, pv: np.ndarray, pw: np.ndarray, weight: float
) -> None:
    """Won visits for ``c``'s first move in each capturing race ``c`` wins by moving first and
    loses if the opponent does (:func:`miai._kernel.semeai.urgent_race_moves`)."""
    racing = np.zeros(grid.shape[1], np.bool_)
    urgent_race_moves(grid, meta, c, racing)
    for j in range(moves.shape[0]):
        if racing[moves[j]]:
            pv[j] += weight
            pw[j] += weight


@allocating
def shape_chances(
    grid: np.ndarray, meta: np.ndarray, c: int, moves: np.ndarray, keys: np.ndarray, values: np.ndarray,
    out: np.ndarray,
) -> None:
    """Into ``out``, for each move, the chance of the largest learned spatial pattern around
    it that the table ``keys``/``values`` holds (-1: none)."""
    states = np.empty(NOFFSETS, np.int8)
    hashes = np.empty(NSIZES, np.int64)
    for j in range(moves.shape[0]):
        out[j] = pattern_value(grid, meta, moves[j], c, keys, values, states, hashes)


@kernel
def pattern_prior(pv: np.ndarray, pw: np.ndarray, chances: np.ndarray, weight: float) -> None:
    """Won visits, ``weight`` times the square root of each move's shape chance (Pachi's
    ``pattern_eqex``), for the moves whose shape the table knows."""
    for j in range(pv.shape[0]):
        if chances[j] > 0.0:
            bonus = weight * math.sqrt(chances[j])
            pv[j] += bonus
            pw[j] += bonus


@allocating
def predicted_strengths(
    grid: np.ndarray, meta: np.ndarray, c: int, last: int, last2: int, moves: np.ndarray, chances: np.ndarray,
    log_gammas: np.ndarray, space: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    strengths: np.ndarray, ataris: np.ndarray,
) -> None:
    """Each move's log strength by the move predictor (:func:`~miai._kernel.movefeatures.move_features`
    weighed by ``log_gammas``) into ``strengths``, and its ``F_ATARI`` level into
    ``ataris`` (1: an atari whose ladder works, read with the ladder space ``space``)."""
    gs, ms, work, budget = space
    levels = np.empty(NGROUPS, np.int64)
    for j in range(moves.shape[0]):
        move_features(grid, meta, moves[j], c, last, last2, chances[j], gs, ms, work, budget, levels)
        strengths[j] = log_strength(levels, OFFSETS, log_gammas)
        ataris[j] = levels[F_ATARI]


@kernel
def ladder_prior(
    grid: np.ndarray, meta: np.ndarray, c: int, moves: np.ndarray, pv: np.ndarray, pw: np.ndarray, weight: float,
    space: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], ataris: np.ndarray, hopeless: np.ndarray,
) -> None:
    """Visits without wins for ``c``'s escapes that die in a ladder, won visits for its
    ladder ataris that work; only next to a chain with one liberty (``c``'s) or two (the
    opponent's). ``ataris``: the predictor's ``F_ATARI`` levels, the same reading done
    already (empty: the ladders are read here, in the space ``space``). Sets ``hopeless``
    (a boolean per move) for the failing escapes not :func:`~miai._kernel.ladder.worth_running`."""
    gs, ms, work, budget = space
    w = meta[M_W]
    known = ataris.shape[0] > 0
    for j in range(moves.shape[0]):
        p = moves[j]
        escape = False
        atari = False
        for q in (p - w, p - 1, p + 1, p + w):
            cq = grid[COLOR, q]
            if cq == c and grid[LIBS, grid[HEAD, q]] == 1:
                escape = True
            elif cq == 3 - c and grid[LIBS, grid[HEAD, q]] == 2:
                atari = True
        if escape and ladder_escape_fails(grid, meta, p, c, gs, ms, work, budget):
            pv[j] += weight
            hopeless[j] = not worth_running(grid, meta, p, c, budget)
        if atari:
            works = ataris[j] == 1 if known else ladder_atari_works(grid, meta, p, c, gs, ms, work, budget)
            if works:
                pv[j] += weight
                pw[j] += weight


@allocating
def mm_prior(pv: np.ndarray, pw: np.ndarray, strengths: np.ndarray, weight: float) -> None:
    """Won visits, ``weight`` times the square root of each move's chance by the predictor:
    its strength over the sum of every child's (``strengths`` are logs)."""
    top = strengths.max()
    total = 0.0
    for j in range(strengths.shape[0]):
        total += math.exp(strengths[j] - top)
    for j in range(strengths.shape[0]):
        bonus = weight * math.sqrt(math.exp(strengths[j] - top) / total)
        pv[j] += bonus
        pw[j] += bonus
