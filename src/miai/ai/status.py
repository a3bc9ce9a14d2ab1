"""The status of every chain (alive, dead, seki) with a confidence, and the score it gives.

How a chain's status is decided, most certain first:

1. **Proven** (:mod:`miai.life`): a chain Benson's algorithm finds unconditionally alive is
   alive, and opponent stones inside pass-alive territory are dead, with confidence 1.
2. **Playouts** (:func:`miai._kernel.light.ownership`): many light playouts from the
   position (captures and escapes answered, no self-atari of two or more stones, no filling of
   one's own eyes) are played out and counted; a chain whose points end up the opponent's in
   more than half of them is dead. The confidence is the share of playouts that agree.
   Chains the playouts are unsure of (confidence below ``UNSETTLED``) are played out again
   on the board without the stones found dead (:func:`_second_pass`), and a chain found dead
   whose every opponent neighbour is dead is alive (:func:`_inside_dead_groups`: the stone
   in a dead group's eye).
3. **Seki** (RULES.md §6), explicitly: with the dead stones removed, an empty point next to
   living chains of both colours where neither colour can play without a suicide or a
   self-atari no one would make is a liberty neither side can fill; the chains of both
   colours next to it are in seki, and so is a chain that lives only by them (every liberty
   next to a seki chain). A self-atari no one would make is one of more than ``NAKADE_MAX``
   stones, or a sacrifice of two or more whose capture would give the opponent a second
   eye (:func:`miai._kernel.light.useless_self_atari`: the real nakade test). Playouts never
   play such moves either, so these chains also come out alive there; a useful sacrifice
   (the killing stone in a bent three) is played out instead.

The estimate then counts the position (:func:`miai.scoring.count`) with those dead stones
removed and those seki stones given, under the game's rules: seki points count for nobody
under territory scoring, dead stones are prisoners.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from miai.board import Board
from miai.coords import Color, Point, neighbours
from miai.game import Game
from miai.life import Life, unconditional_life
from miai.rules import Rules
from miai.scoring import Score, count

Status = Literal["alive", "dead", "seki"]


def default_playouts(size: int) -> int:
    """Playouts used when none are asked for: more on small boards, where they are cheap."""
    return 1000 if size <= 9 else 600 if size <= 13 else 400


@dataclass(frozen=True, slots=True)
class ChainStatus:
    """One chain's verdict."""

    color: Color
    stones: frozenset[Point]
    status: Status
    confidence: float
    """How sure: 1.0 when proven; otherwise the share of playouts that agree with the status."""
    proven: bool = False


@dataclass(frozen=True)
class StatusEstimate:
    """The estimated status of every chain of a position, its territory map and its score."""

    size: int
    chains: tuple[ChainStatus, ...]
    score: Score
    """The count with :attr:`dead` removed and :attr:`seki` given, under the rules."""
    ownership: np.ndarray = field(repr=False)
    """N×N floats in [-1, 1], row 0 at the bottom: +1 where every playout ended Black's, -1
    where every one ended White's."""
    life: Life = field(repr=False)
    playouts: int = 0
    _by_point: dict[Point, ChainStatus] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for chain in self.chains:
            for p in chain.stones:
                self._by_point[p] = chain

    def _points(self, status: Status) -> frozenset[Point]:
        return frozenset(p for ch in self.chains if ch.status == status for p in ch.stones)

    @property
    def dead(self) -> frozenset[Point]:
        return self._points("dead")

    @property
    def seki(self) -> frozenset[Point]:
        return self._points("seki")

    @property
    def alive(self) -> frozenset[Point]:
        return self._points("alive")

    def status(self, point: Point) -> Status | None:
        """The status of the stone on ``point`` (None for an empty point)."""
        chain = self._by_point.get(tuple(point))  # type: ignore[arg-type]
        return chain.status if chain else None

    def confidence(self, point: Point) -> float:
        """How sure the status of the stone on ``point`` is (0.0 for an empty point)."""
        chain = self._by_point.get(tuple(point))  # type: ignore[arg-type]
        return chain.confidence if chain else 0.0

    def chain(self, point: Point) -> ChainStatus | None:
        return self._by_point.get(tuple(point))  # type: ignore[arg-type]

    @property
    def territory(self) -> Mapping[Point, Color | None]:
        """Every point's territory owner once the dead stones are removed: a colour for a
        point that counts as that colour's territory, None for stones, dame and seki points."""
        out: dict[Point, Color | None] = {}
        dead = self.dead
        for r, row in enumerate(self.score.owners):
            for c, v in enumerate(row):
                p = (r, c)
                empty = p in dead or p not in self._by_point
                out[p] = Color(v) if v and empty else None
        return out

    def chains_of(self, status: Status) -> list[ChainStatus]:
        """The chains with this status, in a stable order (by their lowest point)."""
        return sorted((ch for ch in self.chains if ch.status == status), key=lambda ch: min(ch.stones))


def _chains(board: Board) -> list[tuple[Color, frozenset[Point]]]:
    seen: set[Point] = set()
    out = []
    for p in board:
        colour = board[p]
        if colour is None or p in seen:
            continue
        stones = frozenset(board.chain(p))
        seen |= stones
        out.append((colour, stones))
    return out


def _seki_points(board: Board, dead: set[Point]) -> set[Point]:
    """Stones in seki, on the board without ``dead``.

    First, chains of both colours sharing an empty point that neither colour can fill: a
    suicide, or a self-atari no one would play (:func:`~miai._kernel.light.useless_self_atari`:
    more than a nakade sacrifice, or a sacrifice whose capture gives the opponent a second
    eye). Then, repeatedly, a chain not proven alive whose every liberty touches a chain
    already in seki, or is a point neither side can fill: it lives only by the seki (the lone
    stone next to the shared liberties of a seki in the corner, say)."""
    from miai._kernel.light import useless_self_atari

    clean = board.copy()
    for p in dead:
        clean.set(p, None)
    size = board.size
    unfillable: set[Point] = set()
    seki: set[Point] = set()
    for p in clean:
        if clean[p] is not None:
            continue
        near = {clean[q] for q in neighbours(p, size)} - {None}
        if near != {Color.BLACK, Color.WHITE}:
            continue
        index = clean.index(p)
        if all(useless_self_atari(clean.grid, clean.meta, index, int(c)) for c in (Color.BLACK, Color.WHITE)):
            unfillable.add(p)
            for q in neighbours(p, size):
                if clean[q] is not None:
                    seki |= set(clean.chain(q))
    if not seki:
        return seki
    proven = unconditional_life(clean)
    chains = [(colour, stones) for colour, stones in _chains(clean) if not stones & seki]
    grown = True
    while grown:
        grown = False
        for colour, stones in chains:
            if stones & seki or stones <= proven.alive[colour]:
                continue
            libs = {q for p in stones for q in neighbours(p, size) if clean[q] is None}
            if libs and all(q in unfillable or any(r in seki for r in neighbours(q, size)) for q in libs):
                seki |= stones
                grown = True
    return seki


UNSETTLED = 0.7
"""A chain judged by the playouts with less confidence than this is judged again once the
dead stones are off the board (:func:`_second_pass`)."""

Verdict = tuple[Color, frozenset[Point], Status, float, bool]


def _second_pass(board: Board, verdicts: list[Verdict], dead: set[Point], to_move: int, n: int, seed: int) -> list[Verdict]:
    """Judge the unsettled chains again on the board without the stones found dead.

    Dead stones left on the board muddle the playouts around them: the light policy
    sometimes rescues them, and then they cut or make eyes they never could. So, as players
    do when they count, the dead stones are taken off (their status stands) and the chains
    the first playouts were unsure of (less than ``UNSETTLED`` confidence) are played out
    again from the cleaned position: an unsettled group inside the opponent's sphere comes
    out as dead as the dead stones around it made it (GNU Go seed 49: three White stones
    in an open corner, a coin toss among dead stones, dead without them)."""
    from miai._kernel.light import ownership

    clean = board.copy()
    for p in dead:
        clean.set(p, None)
    owned = np.zeros((3, clean.grid.shape[1]), np.int32)
    ownership(clean.grid, clean.meta, to_move, n, (seed + 1) & 0x7FFFFFFFFFFFFFFF, owned)
    w = board.size + 2
    own = ((owned[1] - owned[2]).astype(np.float64) / n).reshape(w, w)[1:-1, 1:-1]
    out: list[Verdict] = []
    for colour, stones, status, conf, proven in verdicts:
        if proven or status == "dead" or conf >= UNSETTLED:
            out.append((colour, stones, status, conf, proven))
            continue
        sign = 1.0 if colour is Color.BLACK else -1.0
        alive_share = (1.0 + sign * float(np.mean([own[p] for p in stones]))) / 2.0
        if alive_share < 0.5:
            out.append((colour, stones, "dead", 1.0 - alive_share, False))
        else:
            out.append((colour, stones, "alive", alive_share, False))
    return out


def _inside_dead_groups(board: Board, verdicts: list[Verdict], dead: set[Point]) -> list[Verdict]:
    """A chain found dead (not proven) whose every opponent neighbour is dead is alive: the
    stone inside a dead group's eye, which the playouts often see captured before the group
    dies (GNU Go seed 2 on 19×19, Black E18 in White's dead top-left group)."""
    size = board.size
    out: list[Verdict] = []
    for colour, stones, status, conf, proven in verdicts:
        if status == "dead" and not proven:
            foes = {q for p in stones for q in neighbours(p, size) if board[q] is not None and board[q] is not colour}
            if foes and foes <= dead:
                out.append((colour, stones, "alive", conf, False))
                continue
        out.append((colour, stones, status, conf, proven))
    return out


def estimate_status(
    game_or_board: Game | Board,
    rules: Rules | None = None,
    *,
    playouts: int | None = None,
    seed: int = 0,
    to_move: Color | None = None,
) -> StatusEstimate:
    """Estimate every chain's status in a position and count it.

    ``game_or_board``: a :class:`~miai.game.Game` (its rules, handicap and player to move are
    used) or a :class:`~miai.board.Board`. ``rules`` overrides the game's (default for a board:
    Chinese). ``playouts``: how many light playouts to average (default by board size);
    ``seed`` makes the estimate reproducible.
    """
    from miai import _kernel as K
    from miai._kernel.light import ownership

    if isinstance(game_or_board, Game):
        board = game_or_board.board
        rules = rules or game_or_board.rules
        handicap = game_or_board.handicap
        to_move = to_move or game_or_board.to_move
    else:
        board = game_or_board
        rules = rules or Rules.preset("chinese")
        handicap = 0
        to_move = to_move or Color.BLACK
    size = board.size
    n = playouts if playouts is not None else default_playouts(size)
    if n < 1:
        raise ValueError(f"playouts must be at least 1, not {n}")

    life = unconditional_life(board)
    owned = np.zeros((3, board.grid.shape[1]), np.int32)
    ownership(board.grid, board.meta, int(to_move), n, seed & 0x7FFFFFFFFFFFFFFF, owned)
    w = size + 2
    own = ((owned[1] - owned[2]).astype(np.float64) / n).reshape(w, w)[1:-1, 1:-1]

    verdicts: list[tuple[Color, frozenset[Point], Status, float, bool]] = []
    for colour, stones in _chains(board):
        sign = 1.0 if colour is Color.BLACK else -1.0
        if stones <= life.alive[colour]:
            verdicts.append((colour, stones, "alive", 1.0, True))
        elif stones <= life.dead:
            verdicts.append((colour, stones, "dead", 1.0, True))
        else:
            s = sign * float(np.mean([own[p] for p in stones]))
            alive_share = (1.0 + s) / 2.0
            if alive_share < 0.5:
                verdicts.append((colour, stones, "dead", 1.0 - alive_share, False))
            else:
                verdicts.append((colour, stones, "alive", alive_share, False))
    dead = {p for _, stones, st, _, _ in verdicts if st == "dead" for p in stones}
    if dead and any(not proven and conf < UNSETTLED for _, _, _, conf, proven in verdicts):
        verdicts = _second_pass(board, verdicts, dead, int(to_move), n, seed)
        dead = {p for _, stones, st, _, _ in verdicts if st == "dead" for p in stones}
    if dead:
        verdicts = _inside_dead_groups(board, verdicts, dead)
        dead = {p for _, stones, st, _, _ in verdicts if st == "dead" for p in stones}
    seki = _seki_points(board, dead)
    chains = tuple(
        ChainStatus(colour, stones, "seki" if (st == "alive" and stones <= seki) else st, conf, proven)
        for colour, stones, st, conf, proven in verdicts
    )
    seki_stones = frozenset(p for ch in chains if ch.status == "seki" for p in ch.stones)
    score = count(board, rules, dead=dead, seki=seki_stones, handicap=handicap)
    _ = K  # the kernel package is imported first so that its cache check runs
    return StatusEstimate(size, chains, score, own.copy(), life, n)
