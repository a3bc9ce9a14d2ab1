"""A move predictor of Coulom's kind: a strength for each level of each feature of a move,
fitted to the moves of game records.

Each move a player may make is described by one level in each feature group of
:mod:`miai._kernel.movefeatures` (the chance of its learned spatial pattern, its 3×3
neighbourhood, captures, ataris, distances to the last two moves, ...). The model gives each
level a strength ``gamma``; a move's strength is the product of its levels', and the chance
that it is the move played is its strength over the sum of every possible move's (the
Bradley-Terry model of a move as the winner of a contest between all the moves). Strengths
are fitted by Coulom's minorization-maximization (Coulom, "Computing Elo Ratings of Move
Patterns in the Game of Go", 2007): one group at a time, each level's new strength is the
number of times it won over the sum, over the positions where it took part, of its
teammates' strength divided by the position's total; a virtual win and loss against a level
of strength 1 keep rarely seen levels near 1.

:func:`training_set` reads games into the levels of every possible move of every position
(18 bytes a move; a 19×19 game has about 50,000), :func:`fit` fits a :class:`MoveModel`,
:func:`prediction_ranks` tries one on other games. ``miai train movemodel`` runs
them over Tygem's archive or SGF records.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from miai._kernel import movefeatures as F
from miai._kernel.ladder import new_scratch
from miai.ai.patterns import PatternTable
from miai.coords import Move
from miai.game import Game

OFFSETS = F.OFFSETS
NLEVELS = int(F.LEVELS.sum())
DEFAULT_MODEL = Path(__file__).with_name("data") / "movemodel19.npz"
"""The predictor the engine ships, fitted on 19×19 games (BENCHMARKS.md says which)."""


@dataclass(frozen=True, eq=False)
class MoveModel:
    """The natural log of each level's strength, every group's levels one after the other
    (group ``g`` from :data:`OFFSETS` ``[g]``, :data:`miai._kernel.movefeatures.LEVELS` ``[g]`` of them)."""

    log_gammas: np.ndarray

    def __post_init__(self) -> None:
        if self.log_gammas.shape != (NLEVELS,) or not np.isfinite(self.log_gammas).all():
            raise ValueError(f"a move model holds {NLEVELS} finite log strengths, not {self.log_gammas.shape}")

    @classmethod
    def neutral(cls) -> MoveModel:
        """Every level of strength 1: every move as likely."""
        return cls(np.zeros(NLEVELS))

    def group(self, g: int) -> np.ndarray:
        """The log strengths of group ``g``'s levels (a view)."""
        return self.log_gammas[OFFSETS[g] : OFFSETS[g] + F.LEVELS[g]]

    @classmethod
    def load(cls, path: str | Path) -> MoveModel:
        with np.load(path) as data:
            return cls(data["log_gammas"].astype(np.float64))

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, log_gammas=self.log_gammas.astype(np.float32))


@cache
def default_model() -> MoveModel | None:
    """The shipped predictor (read once), or None where there is none."""
    return MoveModel.load(DEFAULT_MODEL) if DEFAULT_MODEL.exists() else None


@dataclass
class TrainingSet:
    """Every possible move of some positions: ``levels`` (a row per move, a column per
    group), the ``position`` each row belongs to (rows of one position are contiguous), and
    per position the row of the move played (``chosen``)."""

    levels: np.ndarray
    position: np.ndarray
    chosen: np.ndarray

    @property
    def positions(self) -> int:
        return int(self.chosen.shape[0])

    @classmethod
    def concatenate(cls, parts: Sequence[TrainingSet]) -> TrainingSet:
        """One set of the parts' positions, in order (parts read by several processes)."""
        rows = np.cumsum([0] + [p.levels.shape[0] for p in parts])
        positions = np.cumsum([0] + [p.positions for p in parts])
        return cls(
            np.concatenate([p.levels for p in parts]) if parts else np.zeros((0, F.NGROUPS), np.uint16),
            np.concatenate([p.position + positions[i] for i, p in enumerate(parts)]).astype(np.int32)
            if parts else np.zeros(0, np.int32),
            np.concatenate([p.chosen + rows[i] for i, p in enumerate(parts)]) if parts else np.zeros(0, np.int64),
        )


def positions_of(start: Game) -> Iterator[tuple[Game, int, int, int, int]]:
    """Each position of an even game before a move on the board: the game then, the kernel
    point played, its colour, and the kernel points of the last two moves (0 for a pass or
    none). Handicap games are left out, as by :mod:`miai.ai.patterns`."""
    if start.handicap:
        return
    game = Game(start.size, start.rules)
    last = last2 = 0
    for entry in start.history:
        if isinstance(entry, Move):
            point = game.board.index(entry.point) if entry.point is not None else 0
            if point:
                yield game, point, int(entry.color), last, last2
            last, last2 = point, last
        game.apply(entry)


class _Reader:
    """The features of every possible move of a position, with the scratch space reused."""

    def __init__(self, table: PatternTable):
        self.keys, self.values = table.slots
        self._scratch: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None

    def read(self, game: Game, color: int, last: int, last2: int) -> tuple[np.ndarray, np.ndarray]:
        board = game.board
        length = board.grid.shape[1]
        points = np.empty(length, np.int32)
        levels = np.empty((length, F.NGROUPS), np.int32)
        if self._scratch is None or self._scratch[0].shape[1:] != board.grid.shape:
            self._scratch = new_scratch(board.grid, board.meta)  # the ladder reader's
        gs, ms, work, budget = self._scratch
        n = F.position_features(board.grid, board.meta, color, last, last2, self.keys, self.values,
                                gs, ms, work, budget, points, levels)
        return points[:n], levels[:n]


def _read_positions(games: Iterable[Game], table: PatternTable) -> Iterator[tuple[np.ndarray, int]]:
    """Each position of the games where the move played was a possible one (not an own eye
    filled): the levels of every possible move (rows), and the row of the move played."""
    reader = _Reader(table)
    for start in games:
        for game, played, color, last, last2 in positions_of(start):
            points, levels = reader.read(game, color, last, last2)
            mine = np.flatnonzero(points == played)
            if mine.size:
                yield levels, int(mine[0])


def training_set(games: Iterable[Game], table: PatternTable) -> TrainingSet:
    """Read the games: the features of every possible move of every position where the
    move played was one of them (not an own eye filled)."""
    blocks: list[np.ndarray] = []
    sizes: list[int] = []
    chosen: list[int] = []
    rows = 0
    for levels, mine in _read_positions(games, table):
        blocks.append(levels.astype(np.uint16))
        sizes.append(len(levels))
        chosen.append(rows + mine)
        rows += len(levels)
    levels = np.concatenate(blocks) if blocks else np.zeros((0, F.NGROUPS), np.uint16)
    position = np.repeat(np.arange(len(sizes), dtype=np.int32), sizes)
    return TrainingSet(levels, position, np.array(chosen, np.int64))


def _row_log_strengths(ts: TrainingSet, log_gammas: np.ndarray) -> np.ndarray:
    total = np.zeros(ts.levels.shape[0])
    for g in range(F.NGROUPS):
        total += log_gammas[OFFSETS[g] + ts.levels[:, g]]
    return total


def log_likelihood(model: MoveModel, ts: TrainingSet) -> float:
    """The mean natural log of the chance the model gives the move played."""
    if ts.positions == 0:
        return 0.0
    s = _row_log_strengths(ts, model.log_gammas)
    top = s.max()
    totals = np.bincount(ts.position, weights=np.exp(s - top), minlength=ts.positions)
    return float(np.mean(s[ts.chosen] - top - np.log(totals)))


def fit(ts: TrainingSet, iterations: int = 30, progress: Callable[[int, float], None] | None = None) -> MoveModel:
    """Fit the strengths by minorization-maximization, ``iterations`` sweeps over the groups;
    ``progress(iteration, mean log-likelihood)`` after each sweep."""
    log_gammas = np.zeros(NLEVELS)
    wins = [np.bincount(ts.levels[ts.chosen, g], minlength=int(F.LEVELS[g])).astype(np.float64)
            for g in range(F.NGROUPS)]
    s = np.zeros(ts.levels.shape[0])  # each row's log strength, kept up to date group by group
    for iteration in range(1, iterations + 1):
        for g in range(F.NGROUPS):
            lo, n = int(OFFSETS[g]), int(F.LEVELS[g])
            own = log_gammas[lo : lo + n]
            level = ts.levels[:, g]
            top = s.max()
            strength = np.exp(s - top)  # every row scaled alike: the ratios below do not change
            totals = np.bincount(ts.position, weights=strength, minlength=ts.positions)
            teammates = strength * np.exp(-own[level]) / totals[ts.position]
            denominator = np.bincount(level, weights=teammates, minlength=n)
            # Coulom's prior: one virtual win and one virtual loss against a level of strength 1
            new = np.log((wins[g] + 1.0) / (denominator + 2.0 / (np.exp(own) + 1.0)))
            s += (new - own)[level]
            log_gammas[lo : lo + n] = new
        if progress is not None:
            progress(iteration, log_likelihood(MoveModel(log_gammas.copy()), ts))
    return MoveModel(log_gammas)


def move_strengths(
    game: Game, color: int, last: int, last2: int, model: MoveModel, table: PatternTable
) -> tuple[np.ndarray, np.ndarray]:
    """Every possible move of ``color`` in ``game`` after the moves at kernel points ``last``
    and ``last2`` (0: none): the kernel points, and each one's natural log strength."""
    points, levels = _Reader(table).read(game, color, last, last2)
    return points, model.log_gammas[OFFSETS + levels].sum(axis=1)


def prediction_ranks(model: MoveModel, table: PatternTable, games: Sequence[Game]) -> list[float]:
    """For each move of the games, its rank among the moves the player could make by the
    model's strength (1: the model's first choice; ties share the mean rank)."""
    ranks: list[float] = []
    for levels, mine in _read_positions(games, table):
        s = model.log_gammas[OFFSETS + levels].sum(axis=1)
        v = s[mine]
        ranks.append(int(np.count_nonzero(s > v)) + (int(np.count_nonzero(s == v)) + 1) / 2)
    return ranks
