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
   whose every opponent neighbour is dead is alive (:func:`alive_inside_dead_groups`: the stone
   in a dead group's eye).
3. **Seki** (docs/RULES.md §6), explicitly: with the dead stones removed, an empty point next to
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

Every argument of :func:`estimate_status` is checked at the door (an
:class:`~miai.errors.ArgumentError` naming it), the number of playouts is bounded by
:data:`MAX_PLAYOUTS`, and the playouts run in chunks, so a long estimate can be interrupted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum

import numpy as np

from miai.board import Board
from miai.coords import Color, Point, neighbors
from miai.errors import ArgumentError
from miai.game import Game
from miai.life import Life, unconditional_life
from miai.rules import Rules
from miai.scoring import Score, count


class Status(StrEnum):
    """A chain's status. The values are the words GTP's ``final_status_list`` uses, and a
    status compares equal to its word (``Status.DEAD == "dead"``)."""

    ALIVE = "alive"
    DEAD = "dead"
    SEKI = "seki"


MAX_PLAYOUTS = 100_000
"""The most playouts an estimate may ask for (a few seconds to a minute, by board size)."""

CHUNK = 1000
"""Playouts per call of the compiled kernel: between chunks Python runs again, so a long
estimate can be interrupted (Ctrl-C, an alarm)."""

UNSETTLED = 0.7
"""A chain judged by the playouts with less confidence than this is judged again once the
dead stones are off the board (:func:`_second_pass`)."""


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
        return frozenset(p for ch in self.chains if ch.status is status for p in ch.stones)

    @property
    def dead(self) -> frozenset[Point]:
        return self._points(Status.DEAD)

    @property
    def seki(self) -> frozenset[Point]:
        return self._points(Status.SEKI)

    @property
    def alive(self) -> frozenset[Point]:
        return self._points(Status.ALIVE)

    def status(self, point: Point) -> Status | None:
        """The status of the stone on ``point`` (None for an empty point)."""
        chain = self.chain(point)
        return chain.status if chain else None

    def confidence(self, point: Point) -> float:
        """How sure the status of the stone on ``point`` is (0.0 for an empty point)."""
        chain = self.chain(point)
        return chain.confidence if chain else 0.0

    def chain(self, point: Point) -> ChainStatus | None:
        """The verdict on the chain through ``point`` (None for an empty point)."""
        return self._by_point.get((point[0], point[1]))

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

    def chains_of(self, status: Status | str) -> list[ChainStatus]:
        """The chains with this status (a :class:`Status` or its word), in a stable order
        (by their lowest point)."""
        wanted = _status(status)
        return sorted((ch for ch in self.chains if ch.status is wanted), key=lambda ch: min(ch.stones))


def _status(word: Status | str) -> Status:
    try:
        return Status(word)
    except ValueError:
        raise ArgumentError(f"status must be one of {', '.join(Status)}, not {word!r}") from None


# ------------------------------------------------------------------ the kernel's playouts
# The compiled playouts are the AI's own (miai.board is the core's face of the kernel): these
# two functions are the only places here that hand the kernel a board's arrays.


def _playout_ownership(board: Board, to_move: Color, n: int, seed: int) -> np.ndarray:
    """N×N floats in [-1, 1]: the mean owner of every point over ``n`` light playouts from
    ``board`` (+1 Black's, -1 White's), played in chunks of :data:`CHUNK` so that a signal
    can stop a long estimate. The first chunk uses ``seed`` itself, so an estimate of up to
    ``CHUNK`` playouts is the kernel's single run."""
    from miai._kernel.light import ownership

    owned = np.zeros((3, board.grid.shape[1]), np.int32)
    for i, start in enumerate(range(0, n, CHUNK)):
        chunk_seed = (seed + i * 0x9E3779B97F4A7C15) & 0x7FFFFFFFFFFFFFFF
        ownership(board.grid, board.meta, int(to_move), min(CHUNK, n - start), chunk_seed, owned)
    w = board.size + 2
    return ((owned[1] - owned[2]).astype(np.float64) / n).reshape(w, w)[1:-1, 1:-1].copy()


def _no_one_fills(board: Board, point: Point) -> bool:
    """Whether neither colour would play on the empty ``point``: for both, a suicide or a
    self-atari no one would make (:func:`~miai._kernel.light.useless_self_atari`: more than
    a nakade sacrifice, or a sacrifice whose capture gives the opponent a second eye)."""
    from miai._kernel.light import useless_self_atari

    index = board.index(point)
    return all(useless_self_atari(board.grid, board.meta, index, int(c)) for c in (Color.BLACK, Color.WHITE))


# ------------------------------------------------------------------------- verdicts
def _judge(color: Color, stones: frozenset[Point], ownership: np.ndarray) -> ChainStatus:
    """A chain's verdict from the playouts' ownership: dead when its points end up the
    opponent's in more than half of them; the confidence is the share that agrees."""
    sign = 1.0 if color is Color.BLACK else -1.0
    alive_share = (1.0 + sign * float(np.mean([ownership[p] for p in stones]))) / 2.0
    if alive_share < 0.5:
        return ChainStatus(color, stones, Status.DEAD, 1.0 - alive_share)
    return ChainStatus(color, stones, Status.ALIVE, alive_share)


def _dead(chains: list[ChainStatus]) -> set[Point]:
    return {p for ch in chains if ch.status is Status.DEAD for p in ch.stones}


def _seki_points(board: Board, dead: set[Point]) -> set[Point]:
    """Stones in seki, on the board without ``dead``.

    First, chains of both colours sharing an empty point that neither colour can fill
    (:func:`_no_one_fills`). Then, repeatedly, a chain not proven alive whose every liberty
    touches a chain already in seki, or is a point neither side can fill: it lives only by
    the seki (the lone stone next to the shared liberties of a seki in the corner, say)."""
    clean = board.without(dead)
    size = board.size
    unfillable: set[Point] = set()
    seki: set[Point] = set()
    for p in clean:
        if clean[p] is not None:
            continue
        near = {clean[q] for q in neighbors(p, size)} - {None}
        if near != {Color.BLACK, Color.WHITE}:
            continue
        if _no_one_fills(clean, p):
            unfillable.add(p)
            for q in neighbors(p, size):
                if clean[q] is not None:
                    seki |= set(clean.chain(q))
    if not seki:
        return seki
    proven = unconditional_life(clean)
    chains = [(colour, stones) for colour, stones in clean.chains() if not stones & seki]
    grown = True
    while grown:
        grown = False
        for colour, stones in chains:
            if stones & seki or stones <= proven.alive[colour]:
                continue
            libs = {q for p in stones for q in neighbors(p, size) if clean[q] is None}
            if libs and all(q in unfillable or any(r in seki for r in neighbors(q, size)) for q in libs):
                seki |= stones
                grown = True
    return seki


def _second_pass(
    board: Board, chains: list[ChainStatus], dead: set[Point], to_move: Color, n: int, seed: int
) -> list[ChainStatus]:
    """Judge the unsettled chains again on the board without the stones found dead.

    Dead stones left on the board muddle the playouts around them: the light policy
    sometimes rescues them, and then they cut or make eyes they never could. So, as players
    do when they count, the dead stones are taken off (their status stands) and the chains
    the first playouts were unsure of (less than ``UNSETTLED`` confidence) are played out
    again from the cleaned position: an unsettled group inside the opponent's sphere comes
    out as dead as the dead stones around it made it."""
    ownership = _playout_ownership(board.without(dead), to_move, n, seed + 1)
    return [
        ch if ch.proven or ch.status is Status.DEAD or ch.confidence >= UNSETTLED else _judge(ch.color, ch.stones, ownership)
        for ch in chains
    ]


def alive_inside_dead_groups(board: Board, chains: list[ChainStatus], dead: set[Point]) -> list[ChainStatus]:
    """A chain found dead (not proven) whose every opponent neighbour is dead is alive: the
    stone inside a dead group's eye, which the playouts often see captured before the group
    dies."""
    size = board.size
    out = []
    for ch in chains:
        if ch.status is Status.DEAD and not ch.proven:
            foes = {q for p in ch.stones for q in neighbors(p, size) if board[q] is not None and board[q] is not ch.color}
            if foes and foes <= dead:
                ch = replace(ch, status=Status.ALIVE)
        out.append(ch)
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
    Chinese). ``playouts``: how many light playouts to average (default by board size, at
    most :data:`MAX_PLAYOUTS`); ``seed`` (an integer) makes the estimate reproducible.
    Raises :class:`~miai.errors.ArgumentError` naming an argument of the wrong kind or out
    of range.
    """
    if isinstance(game_or_board, Game):
        board = game_or_board.board
        rules = rules or game_or_board.rules
        handicap = game_or_board.handicap
        to_move = to_move or game_or_board.to_move
    elif isinstance(game_or_board, Board):
        board = game_or_board
        rules = rules or Rules.preset("chinese")
        handicap = 0
        to_move = to_move or Color.BLACK
    else:
        raise ArgumentError(f"game_or_board must be a Game or a Board, not {game_or_board!r}")
    if not isinstance(rules, Rules):
        raise ArgumentError(f"rules must be a Rules value, not {rules!r}")
    if not isinstance(to_move, Color):
        raise ArgumentError(f"to_move must be Color.BLACK or Color.WHITE, not {to_move!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ArgumentError(f"seed must be an integer, not {seed!r}")
    size = board.size
    n = playouts if playouts is not None else default_playouts(size)
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_PLAYOUTS:
        raise ArgumentError(f"playouts must be an integer from 1 to {MAX_PLAYOUTS}, not {n!r}")

    life = unconditional_life(board)
    own = _playout_ownership(board, to_move, n, seed)
    chains: list[ChainStatus] = []
    for colour, stones in board.chains():
        if stones <= life.alive[colour]:
            chains.append(ChainStatus(colour, stones, Status.ALIVE, 1.0, proven=True))
        elif stones <= life.dead:
            chains.append(ChainStatus(colour, stones, Status.DEAD, 1.0, proven=True))
        else:
            chains.append(_judge(colour, stones, own))
    dead = _dead(chains)
    if dead and any(not ch.proven and ch.confidence < UNSETTLED for ch in chains):
        chains = _second_pass(board, chains, dead, to_move, n, seed)
        dead = _dead(chains)
    if dead:
        chains = alive_inside_dead_groups(board, chains, dead)
        dead = _dead(chains)
    seki = _seki_points(board, dead)
    final = tuple(
        replace(ch, status=Status.SEKI) if ch.status is Status.ALIVE and ch.stones <= seki else ch for ch in chains
    )
    seki_stones = frozenset(p for ch in final if ch.status is Status.SEKI for p in ch.stones)
    score = count(board, rules, dead=dead, seki=seki_stones, handicap=handicap)
    return StatusEstimate(size, final, score, own, life, n)
