"""The heavy playout policy of the pre-neural MCTS engines: the search's playouts.

(The status estimate plays the light policy of :mod:`miai._kernel.light`; the benchmark the
uniform one of :mod:`miai._kernel.playout`.)

Reading guide. A playout move (:func:`heavy_move`) is chosen by trying a few heuristics in
order, each with a probability, as MoGo, Fuego, Pachi and michi did, then falling back on a
random move:

0. **Ko fight** (:func:`ko_fight_move`, with probability ``P_KO``, 0.4 by default; asked
   by :func:`heavy_playout`, which remembers the ko): within :data:`KO_AGE` turns of a ko
   capture, once the ban is lifted, the ko point: the ko retaken after a threat, or
   connected by the player who took it, as Pachi's playouts fight kos.
1. **Atari** (:func:`atari_moves`): look at the chains on and around the last move. An opponent
   chain in atari is captured at its last liberty; an own chain in atari is saved, by capturing
   an opponent chain in atari that touches it or by extending on its liberty when that gives
   it at least two liberties.
2. **Two liberties** (:mod:`miai._kernel.twolib`, with probability ``P_TWOLIB``): ataris
   and escapes of the chains with two liberties on and around the last move, as Pachi's
   playouts read capturing races.
3. **Nakade** (:mod:`miai._kernel.nakade`, with probability ``P_NAKADE``, 0.6 by default):
   the vital point of a small eye space that the last move borders.
4. **3×3 patterns** (``PAT3``): the empty points next to the last two moves whose 3×3
   neighbourhood matches one of MoGo's patterns (hane, cuts, edge moves), as michi lists them;
   one of them drawn uniformly.
5. **Random** (:func:`heavy_random_move`): uniformly among the legal moves that do not fill
   an own eye.

A move near a capturing race (chains of at least ``P_RACE_MIN_CHAIN`` stones) that stood on
the board when the playout began is answered, with probability ``P_RACE_REPLY``, by the
other side's move in that race (:func:`miai._kernel.semeai.race_reply`: a fill, or the
approach a fill needs), after the ko fight (0) and before the other heuristics; the races
are found once, before the first move, so a playout without one pays nothing more. The
search turns this off below 19×19 (``race_reply_min_size``).

Any candidate that is a **self-atari** (:func:`self_atari`: the mover's chain of two or more
stones would be left with one liberty, capturing nothing) is rejected: always if it is
hopeless (:func:`hopeless_self_atari`: four stones or more whose capture leaves no dead
shape, or leaves the opponent an eye elsewhere, such as a seki's shared liberty filled by
a large group or by one whose opponent keeps an eye of its own, as Pachi refuses its
"really bad" self-ataris), else with a probability (``P_SELFATARI_*``): the heuristics' or
the random moves' rate. :func:`heavy_playout` plays one game to its end.

The pattern table is built once in Python: the 8 neighbours of a point, each EMPTY, BLACK,
WHITE or WALL (two bits), index a 65,536-entry table that holds every rotation,
reflection and colour swap of the patterns, so matching is one table look-up: 0 where no
pattern matches, else one more than the index in :data:`PAT3_SOURCE` of the last pattern
that does (as Pachi's table keeps them: michi's "side: cut" is a reflection and colour swap
of its "block side cut", and takes its place).

``params`` is a float64 array of the probabilities (indices ``P_*``); the search builds it
from :class:`miai.ai.config.MctsConfig`. Everything is compiled by :mod:`miai._kernel.jit`
and plain Python.
"""

from __future__ import annotations

import numpy as np

from miai._kernel.board import (
    COLOR, EMPTIES, EMPTY, HEAD, LEGAL, LIBS, M_KO, M_N, M_NEMPTY, M_W, NB, WALL,
    add_owners, area_difference, is_own_eye, legality,
)
from miai._kernel.jit import allocating, kernel
from miai._kernel.light import sacrifice_leaves_an_eye, sacrifice_leaves_dead_shape
from miai._kernel.nakade import NAKADE_MAX, nakade_move
from miai._kernel.playout import _restore, _scratch, discard_candidate, play_turn, random_below
from miai._kernel.semeai import LIB_ROOM, MAX_RACES, find_races, race_reply
from miai._kernel.tactics import atari_replies, captures_something, liberties_after, stones_after
from miai._kernel.twolib import two_liberty_moves

# indices into the policy's parameter array
P_CAPTURE, P_PATTERN, P_SELFATARI_HEURISTIC, P_SELFATARI_RANDOM, P_TWOLIB, P_NAKADE, P_KO = range(7)
P_RACE_MIN_CHAIN = 7
"""The stones each chain of a race the playouts answer has at least."""
P_RACE_REPLY = 8
"""How often a playout answers a move in a capturing race that stood on the board when it
began with the reader's move there (:func:`miai._kernel.semeai.race_reply`; chains of at
least ``P_RACE_MIN_CHAIN`` stones)."""
NPARAMS = 9

DEFAULT_PARAMS = np.array([0.9, 0.95, 0.9, 0.5, 0.9, 0.6, 0.4, 8.0, 1.0], np.float64)
"""michi's PROB_HEURISTIC (capture, pat3) and PROB_SSAREJECT / PROB_RSAREJECT; the
two-liberty tactics as often as the captures (BENCHMARKS.md: +49 Elo at equal time); nakade
and ko fights at Pachi's rates (together +45 Elo at equal playouts); the races between chains
of eight stones or more answered (the search turns that off below 19×19:
``race_reply_min_size``)."""

KO_AGE = 4
"""The playouts fight a ko for the turns fewer than this after its capture (Pachi's ``koage``)."""

# ---------------------------------------------------------------------- 3x3 patterns
PAT3_SOURCE = [
    # michi's pat3src (after MoGo): X, O are colours, x = not X, o = not O, . empty,
    # ? anything, # edge; the centre is the move.
    ["XOX", "...", "???"],  # hane: enclosing hane
    ["XO.", "...", "?.?"],  # hane: non-cutting hane
    ["XO?", "X..", "x.?"],  # hane: magari
    [".O.", "X..", "..."],  # katatsuke or diagonal attachment
    ["XO?", "O.o", "?o?"],  # cut1: unprotected cut
    ["XO?", "O.X", "???"],  # cut1: peeped cut
    ["?X?", "O.O", "ooo"],  # cut2 (de)
    ["OX?", "o.O", "???"],  # cut keima
    ["X.?", "O.?", "##?"],  # side: chase
    ["OX?", "X.O", "###"],  # side: block side cut
    ["?X?", "x.O", "###"],  # side: block side connection
    ["?XO", "x.x", "###"],  # side: sagari
    ["?OX", "X.O", "###"],  # side: cut
]

_SYMBOL_VALUES = {
    ".": (EMPTY,),
    "X": (1,),
    "O": (2,),
    "#": (WALL,),
    "?": (EMPTY, 1, 2, WALL),
    "x": (EMPTY, 2, WALL),
    "o": (EMPTY, 1, WALL),
}


def _pattern_variants(rows: list[str]) -> list[list[str]]:
    def rot90(p: list[str]) -> list[str]:
        return ["".join(p[2 - j][i] for j in range(3)) for i in range(3)]

    def flip(p: list[str]) -> list[str]:
        return [r[::-1] for r in p]

    def swap(p: list[str]) -> list[str]:
        table = str.maketrans("XOxo", "OXox")
        return [r.translate(table) for r in p]

    out = []
    p = rows
    for _ in range(4):
        for q in (p, flip(p)):
            out.append(q)
            out.append(swap(q))
        p = rot90(p)
    return out


def env8_order() -> list[tuple[int, int]]:
    """The (row, col) offsets in the 3×3 diagram (row 0 at the top) of the eight neighbours
    in the order ``_env8`` packs them: NW, N, NE, W, E, SW, S, SE as a diagram shows them."""
    return [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)]


def build_pat3_table() -> np.ndarray:
    """The table of neighbourhoods: for each, 0 if no pattern matches, else one more than
    the index of the last pattern of :data:`PAT3_SOURCE` that does (see the module's guide)."""
    table = np.zeros(1 << 16, np.uint8)
    order = env8_order()
    for k_pattern in range(len(PAT3_SOURCE)):
        for variant in _pattern_variants(PAT3_SOURCE[k_pattern]):
            choices = [_SYMBOL_VALUES[variant[r][c]] for r, c in order]
            indices = [0]
            for k, values in enumerate(choices):
                indices = [i | (v << (2 * k)) for i in indices for v in values]
            table[indices] = k_pattern + 1
    return table


PAT3 = build_pat3_table()


@kernel(inline="always")
def env8(grid: np.ndarray, w: int, p: int) -> int:
    """The 16-bit code of the 8 neighbours of ``p`` (diagram order: the row above first)."""
    # the diagram's top row is the board row above p, i.e. p + w in the padded layout
    return (
        grid[COLOR, p + w - 1]
        | (grid[COLOR, p + w] << 2)
        | (grid[COLOR, p + w + 1] << 4)
        | (grid[COLOR, p - 1] << 6)
        | (grid[COLOR, p + 1] << 8)
        | (grid[COLOR, p - w - 1] << 10)
        | (grid[COLOR, p - w] << 12)
        | (grid[COLOR, p - w + 1] << 14)
    )


# ---------------------------------------------------------------------- chain helpers
@kernel
def self_atari(grid: np.ndarray, meta: np.ndarray, p: int, c: int) -> bool:
    """Whether a stone of ``c`` on ``p`` leaves a chain of two or more stones with a single
    liberty while capturing nothing (a lone stone's self-atari is allowed: throw-ins)."""
    if (grid[NB, p] & 0xFF) >= 2:
        return False
    if captures_something(grid, meta, p, c) > 0:
        return False
    w = meta[M_W]
    own = False
    for q in (p - w, p - 1, p + 1, p + w):
        if grid[COLOR, q] == c:
            own = True
            if grid[LIBS, grid[HEAD, q]] >= 3:
                return False
    if not own:
        return False
    return liberties_after(grid, meta, p, c, 2) < 2


@kernel
def hopeless_self_atari(grid: np.ndarray, meta: np.ndarray, p: int, c: int) -> bool:
    """Whether a stone of ``c`` on ``p`` is a self-atari (:func:`self_atari`) of four
    stones or more whose capture leaves the opponent no dead shape
    (:func:`~miai._kernel.light.sacrifice_leaves_dead_shape`; never above six stones) or
    leaves it an eye elsewhere (:func:`~miai._kernel.light.sacrifice_leaves_an_eye`): a
    sacrifice that cannot kill, such as filling a seki's shared liberty (Pachi's "really
    bad" self-atari). Neither the tree nor the playouts ever play one."""
    return self_atari(grid, meta, p, c) and _cannot_kill(grid, meta, p, c)


@kernel(inline="always")
def _cannot_kill(grid: np.ndarray, meta: np.ndarray, p: int, c: int) -> bool:
    """For a self-atari of ``c`` on ``p``: whether it is hopeless (:func:`hopeless_self_atari`)."""
    if stones_after(grid, meta, p, c) < 4:
        return False
    return not sacrifice_leaves_dead_shape(grid, meta, p, c) or sacrifice_leaves_an_eye(grid, meta, p, c)


# ---------------------------------------------------------------------- heuristics
@kernel
def atari_moves(grid: np.ndarray, meta: np.ndarray, c: int, last: int, out: np.ndarray) -> int:
    """Capture and escape moves for ``c`` around the last move (its chain and the chains of
    its 8 neighbours); written to ``out``, returns how many (duplicates possible)."""
    n = 0
    if last <= 0:
        return 0
    w = meta[M_W]
    for q in (last, last - w - 1, last - w, last - w + 1, last - 1, last + 1, last + w - 1, last + w, last + w + 1):
        cq = grid[COLOR, q]
        if (cq == 1 or cq == 2) and grid[LIBS, grid[HEAD, q]] == 1:
            n = atari_replies(grid, meta, c, grid[HEAD, q], out, n)
    return n


@kernel
def pattern_moves(grid: np.ndarray, meta: np.ndarray, last: int, pat3: np.ndarray, out: np.ndarray, n: int) -> int:
    """Append to ``out`` (from index ``n``) the empty neighbours of ``last`` (8-neighbourhood)
    whose 3×3 neighbourhood matches a pattern; returns the new count."""
    if last <= 0:
        return n
    w = meta[M_W]
    for q in (last - w - 1, last - w, last - w + 1, last - 1, last + 1, last + w - 1, last + w, last + w + 1):
        if grid[COLOR, q] == EMPTY and pat3[env8(grid, w, q)] > 0 and n < out.shape[0]:
            out[n] = q
            n += 1
    return n


@kernel(inline="always")
def _chance(meta: np.ndarray, prob: float) -> bool:
    """True with probability ``prob``; a certainty (``prob`` 1 or more) draws no random number."""
    return prob >= 1.0 or random_below(meta, 1 << 20) < prob * (1 << 20)


@kernel(inline="always")
def _refused_self_atari(grid: np.ndarray, meta: np.ndarray, p: int, c: int, reject_self_atari: float) -> bool:
    """Whether ``c`` on ``p`` is turned down as a self-atari (:func:`self_atari`): always
    if it is hopeless (:func:`hopeless_self_atari`: a sacrifice of four stones or more that
    cannot kill), else with probability ``reject_self_atari``."""
    if not self_atari(grid, meta, p, c):
        return False
    if _cannot_kill(grid, meta, p, c):
        return True
    return reject_self_atari > 0.0 and _chance(meta, reject_self_atari)


@kernel(inline="always")
def _acceptable(grid: np.ndarray, meta: np.ndarray, p: int, c: int, reject_self_atari: float) -> bool:
    """Whether a candidate move stands: legal, filling no own eye, and not a refused
    self-atari (:func:`_refused_self_atari`)."""
    if legality(grid, meta, p, c, False) != LEGAL or is_own_eye(grid, meta, p, c):
        return False
    return not _refused_self_atari(grid, meta, p, c, reject_self_atari)


@kernel
def _pick_candidate(
    grid: np.ndarray, meta: np.ndarray, c: int, cand: np.ndarray, n: int, params: np.ndarray
) -> int:
    """A random acceptable move among the first ``n`` candidates (self-ataris refused at
    the heuristics' rates of ``params``), or 0."""
    while n > 0:
        i = random_below(meta, n)
        p = cand[i]
        n -= 1
        cand[i] = cand[n]
        if _acceptable(grid, meta, p, c, params[P_SELFATARI_HEURISTIC]):
            return p
    return 0


@kernel
def heavy_random_move(grid: np.ndarray, meta: np.ndarray, c: int, params: np.ndarray) -> int:
    """Uniformly among ``c``'s legal moves that fill no own eye, with self-ataris refused
    at the random moves' rates of ``params``; 0 (pass) if none is left. The empty list's
    order changes, as in :func:`miai._kernel.playout.choose_random_move`."""
    k = meta[M_NEMPTY]
    reject = params[P_SELFATARI_RANDOM]
    while k > 0:
        r = random_below(meta, k)
        p = grid[EMPTIES, r]
        if (legality(grid, meta, p, c, False) == LEGAL and not is_own_eye(grid, meta, p, c)
                and not _refused_self_atari(grid, meta, p, c, reject)):
            return p
        k -= 1
        discard_candidate(grid, r, k)
    return 0


@kernel
def heavy_move(
    grid: np.ndarray, meta: np.ndarray, c: int, last: int, last2: int, pat3: np.ndarray, params: np.ndarray,
    cand: np.ndarray,
) -> int:
    """The heavy policy's move for ``c`` (0 for a pass) after the moves ``last`` and ``last2``
    (0: a pass or none); ``cand`` is scratch space (64 points; nakade's area is read into
    its last :data:`~miai._kernel.nakade.NAKADE_MAX`)."""
    if last > 0 and _chance(meta, params[P_CAPTURE]):
        n = atari_moves(grid, meta, c, last, cand)
        p = _pick_candidate(grid, meta, c, cand, n, params)
        if p > 0:
            return p
    if last > 0 and params[P_TWOLIB] > 0.0 and _chance(meta, params[P_TWOLIB]):
        p = _pick_candidate(grid, meta, c, cand, two_liberty_moves(grid, meta, c, last, cand), params)
        if p > 0:
            return p
    if last > 0 and params[P_NAKADE] > 0.0 and _chance(meta, params[P_NAKADE]):
        cand[0] = nakade_move(grid, meta, c, last, cand[cand.shape[0] - NAKADE_MAX :])
        if cand[0] > 0:
            p = _pick_candidate(grid, meta, c, cand, 1, params)
            if p > 0:
                return p
    if last > 0 and _chance(meta, params[P_PATTERN]):
        n = pattern_moves(grid, meta, last, pat3, cand, 0)
        n = pattern_moves(grid, meta, last2, pat3, cand, n)
        p = _pick_candidate(grid, meta, c, cand, n, params)
        if p > 0:
            return p
    return heavy_random_move(grid, meta, c, params)


@kernel
def ko_fight_move(grid: np.ndarray, meta: np.ndarray, c: int, ko_point: int) -> int:
    """``ko_point`` (where a ko was last captured) if ``c`` may play it there and the stone
    is not a self-atari; else 0."""
    if legality(grid, meta, ko_point, c, False) != LEGAL or self_atari(grid, meta, ko_point, c):
        return 0
    return ko_point


PlayoutScratch = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""A heavy playout's working space: the races it answers, liberties, a board and its meta
to read race moves on, and the heuristics' candidates (:func:`playout_scratch`)."""


@allocating
def playout_scratch(grid: np.ndarray, meta: np.ndarray) -> PlayoutScratch:
    """Working space for heavy playouts on boards like ``grid``/``meta``, made once for many
    (:func:`heavy_playout_in`)."""
    return (np.empty((MAX_RACES, 2), np.int32), np.empty(LIB_ROOM, np.int32), np.empty_like(grid),
            np.empty_like(meta), np.empty(64, np.int32))


@allocating
def heavy_playout(
    grid: np.ndarray, meta: np.ndarray, to_move: int, last: int, last2: int, max_turns: int,
    pat3: np.ndarray, params: np.ndarray, amaf: np.ndarray,
) -> int:
    """Play a game to the end with the heavy policy (the board is modified in place; the
    caller counts it).

    ``last`` and ``last2`` are the two moves before (0 for a pass or none). Each point's
    first player is written into ``amaf`` where it is still 0. Returns the number of turns
    played (passes included). A loop of playouts makes its working space once and calls
    :func:`heavy_playout_in`.
    """
    scratch = playout_scratch(grid, meta)
    return heavy_playout_in(grid, meta, to_move, last, last2, max_turns, pat3, params, amaf, scratch)


@kernel
def heavy_playout_in(
    grid: np.ndarray, meta: np.ndarray, to_move: int, last: int, last2: int, max_turns: int,
    pat3: np.ndarray, params: np.ndarray, amaf: np.ndarray, scratch: PlayoutScratch,
) -> int:
    """:func:`heavy_playout` in the working space ``scratch`` (:func:`playout_scratch`)."""
    races, libs, g2, m2, cand = scratch
    c = to_move
    nraces = 0
    if params[P_RACE_REPLY] > 0.0:
        nraces = find_races(grid, meta, races, libs, int(params[P_RACE_MIN_CHAIN]))
    ko_point = meta[M_KO]  # the last ko captured, and when
    ko_turn = 0
    passes = 0
    turns = 0
    while turns < max_turns and passes < 2:
        p = 0
        if ko_point > 0 and meta[M_KO] == 0 and turns - ko_turn < KO_AGE and params[P_KO] > 0.0:
            if _chance(meta, params[P_KO]):
                p = ko_fight_move(grid, meta, c, ko_point)
        if p == 0 and nraces > 0 and _chance(meta, params[P_RACE_REPLY]):
            p = race_reply(grid, meta, c, last, races, nraces, libs, g2, m2)
        if p == 0:
            p = heavy_move(grid, meta, c, last, last2, pat3, params, cand)
        passes = play_turn(grid, meta, p, c, passes)
        if meta[M_KO] > 0:
            ko_point = meta[M_KO]
            ko_turn = turns + 1
        if p != 0 and amaf[p] == 0:
            amaf[p] = c
        last2 = last
        last = p
        turns += 1
        c = 3 - c
    return turns


@allocating
def run_heavy_playouts(
    grid: np.ndarray, meta: np.ndarray, to_move: int, count: int, komi: float, seed: int,
    pat3: np.ndarray, params: np.ndarray,
) -> tuple[int, int]:
    """Run ``count`` heavy playouts from this position (left unchanged); returns
    ``(total turns, black wins)``. The benchmark's and the tests' entry point."""
    g, m = _scratch(grid, meta, seed)
    n = meta[M_N]
    amaf = np.zeros(grid.shape[1], np.int8)
    scratch = playout_scratch(grid, meta)
    total = 0
    wins = 0
    for _ in range(count):
        _restore(g, m, grid, meta)
        amaf[:] = 0
        total += heavy_playout_in(g, m, to_move, 0, 0, 3 * n * n, pat3, params, amaf, scratch)
        if area_difference(g, m) - komi > 0:
            wins += 1
    return total, wins


@allocating
def heavy_ownership(
    grid: np.ndarray, meta: np.ndarray, to_move: int, last: int, last2: int, count: int, seed: int,
    pat3: np.ndarray, params: np.ndarray, owners_sum: np.ndarray,
) -> int:
    """Run ``count`` heavy playouts from this position (left unchanged), after the moves
    ``last`` and ``last2`` as the search's do, adding each point's owner at the end to
    ``owners_sum`` (+1 Black, -1 White, 0 neutral); returns the sum of the playouts' area
    differences (Black's less White's, before komi). What the playouts make of a position,
    without a tree: ``tools/playout_bias.py`` sets it beside a judge's ownership."""
    g, m = _scratch(grid, meta, seed)
    n = meta[M_N]
    amaf = np.zeros(grid.shape[1], np.int8)
    owners = np.zeros(grid.shape[1], np.int32)
    scratch = playout_scratch(grid, meta)
    total = 0
    for _ in range(count):
        _restore(g, m, grid, meta)
        amaf[:] = 0
        heavy_playout_in(g, m, to_move, last, last2, 3 * n * n, pat3, params, amaf, scratch)
        total += add_owners(g, m, owners, owners_sum)
    return total
