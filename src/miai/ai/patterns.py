"""Spatial patterns learned from game records: how often each shape around a move is played.

The search's prior knows a few hand-written 3×3 shapes (michi's, after MoGo). This module
learns many more, of every size from the 3×3 square to about a 9×9 diamond
(:mod:`miai._kernel.spatial`), from games: at each position of a game, every move the
player could have made is a *seen* pattern, and the move played a *played* one. A pattern's
value is played / seen, the chance that a player facing this shape plays into it (Pachi's
``patterns.prob``, after Stern, Herbrich and Graepel). The search gives a move the value of
the largest pattern around it that the table knows (:func:`miai._kernel.spatial.pattern_value`),
as won prior visits (``prior_pattern``).

:func:`learn` reads the games (records read with ``miai.sgf.game_from_record``) twice: :class:`PatternCounter` counts every pattern under its
canonical hash (the least of its eight orientations'), then the patterns kept (seen often
enough, played at least once) are looked for again to write down one occurrence of each.
A :class:`PatternTable` holds those shapes themselves, point by point, with their size and
value (an ``.npz`` file); loading hashes each in its eight orientations into the table the
search reads (:meth:`PatternTable.slots`). ``benchmarks/learn_patterns.py`` runs it over
``miai match`` runs; the table the engine ships is :data:`DEFAULT_TABLE`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

import numpy as np

from miai._kernel import spatial as S
from miai.coords import Move
from miai.game import Game

DEFAULT_TABLE = Path(__file__).with_name("data") / "patterns19.npz"
"""The table the engine ships, learned from games on 19×19 (BENCHMARKS.md says which)."""

BEYOND = -1
"""The state written for the points of a stored shape beyond its size."""


@dataclass(frozen=True, eq=False)
class PatternTable:
    """Shapes, one per row of ``shapes`` (the state of each point around, in the order of
    :data:`miai._kernel.spatial.OFFSETS`: 0 empty, 1 the mover's, 2 the opponent's, 3 off
    the board, :data:`BEYOND` past the shape's size), each with its ``sizes`` and its value
    (0–1) in ``values``."""

    shapes: np.ndarray
    sizes: np.ndarray
    values: np.ndarray

    def __post_init__(self) -> None:
        n = self.values.shape[0]
        if self.shapes.shape != (n, S.NOFFSETS) or self.sizes.shape != (n,) or self.values.ndim != 1:
            raise ValueError(f"a pattern table needs {S.NOFFSETS} states, a size and a value per shape "
                             f"(shapes {self.shapes.shape}, sizes {self.sizes.shape}, values {self.values.shape})")
        if n and (self.sizes.min() < S.MIN_SIZE or self.sizes.max() > S.MAX_SIZE):
            raise ValueError(f"a pattern's size is from {S.MIN_SIZE} to {S.MAX_SIZE}")
        if n and (self.values.min() < 0 or self.values.max() > 1):
            raise ValueError("a pattern's value is a chance, from 0 to 1")
        inside = np.arange(S.NOFFSETS)[None, :] < S.SIZE_END[self.sizes][:, None]
        if not (((self.shapes >= 0) & (self.shapes <= 3)) == inside).all() or (self.shapes[~inside] != BEYOND).any():
            raise ValueError("a shape's points within its size are 0 to 3, and those beyond it -1")

    def __len__(self) -> int:
        return int(self.values.shape[0])

    @classmethod
    def empty(cls) -> PatternTable:
        return cls(np.zeros((0, S.NOFFSETS), np.int8), np.zeros(0, np.int8), np.zeros(0, np.float64))

    @classmethod
    def load(cls, path: str | Path) -> PatternTable:
        """Read a table written by :meth:`save`."""
        with np.load(path) as data:
            return cls(data["shapes"].astype(np.int8), data["sizes"].astype(np.int8), data["values"].astype(np.float64))

    def save(self, path: str | Path) -> None:
        # values as float32: the table is shipped, and 7 digits are more than the counts give
        np.savez_compressed(path, shapes=self.shapes, sizes=self.sizes, values=self.values.astype(np.float32))

    @cached_property
    def slots(self) -> tuple[np.ndarray, np.ndarray]:
        """The table the search reads: every orientation of every shape, hashed at its size
        (:func:`miai._kernel.spatial.build_slots`); two empty arrays for an empty table."""
        if not len(self):
            return np.zeros(0, np.int64), np.zeros(0, np.float64)
        hashes = np.empty((len(self), 8, S.NSIZES), np.int64)
        S.all_oriented_hashes(np.where(self.shapes == BEYOND, 0, self.shapes).astype(np.int8), hashes)
        mine = hashes[np.arange(len(self)), :, self.sizes - S.MIN_SIZE]  # (shapes, 8)
        keys, values = S.build_slots(mine.ravel(), np.repeat(self.values, 8))
        return keys, values


@cache
def default_table() -> PatternTable:
    """The shipped table (read once), or an empty one where there is none."""
    return PatternTable.load(DEFAULT_TABLE) if DEFAULT_TABLE.exists() else PatternTable.empty()


@dataclass
class _Position:
    """The moves one player could make in a position: kernel points, the states around
    each (rows) and each one's hashes (rows × 8 orientations × sizes)."""

    points: np.ndarray
    states: np.ndarray
    hashes: np.ndarray

    @property
    def canonical(self) -> np.ndarray:
        """Each move's pattern hash per size, the least of its orientations' (rows × sizes)."""
        return self.hashes.min(axis=1)


def _position(game: Game, color: int) -> _Position:
    board = game.board
    length = board.grid.shape[1]
    points = np.empty(length, np.int32)
    states = np.empty((length, S.NOFFSETS), np.int8)
    n = S.position_states(board.grid, board.meta, color, points, states)
    hashes = np.empty((n, 8, S.NSIZES), np.int64)
    S.all_oriented_hashes(states[:n], hashes)
    return _Position(points[:n], states[:n], hashes)


def _replay(start: Game) -> Iterator[tuple[_Position, int]]:
    """Each position of an even game (one read from a record: ``miai.sgf.game_from_record``)
    before a move on the board: the moves the player could make and the kernel point of the
    one made. Handicap games are left out: their first moves are not even-game shapes."""
    if start.handicap:
        return
    game = Game(start.size, start.rules)
    for entry in start.history:
        if isinstance(entry, Move) and entry.point is not None:
            yield _position(game, int(entry.color)), game.board.index(entry.point)
        game.apply(entry)


class PatternCounter:
    """How often each pattern (canonical hash) was seen and played over the positions of
    the games added."""

    def __init__(self) -> None:
        self.keys = np.zeros(0, np.int64)
        self.seen = np.zeros(0, np.int64)
        self.played = np.zeros(0, np.int64)
        self.positions = 0
        self._pending: list[tuple[np.ndarray, np.ndarray]] = []
        self._pending_size = 0

    def add_game(self, game: Game) -> int:
        """Count every move of the game; returns how many (0 for a handicap game)."""
        counted = 0
        for position, played in _replay(game):
            canonical = position.canonical
            self.positions += 1
            mine = np.repeat(position.points == played, canonical.shape[1]).astype(np.int64)
            self._pending.append((canonical.ravel(), mine))
            self._pending_size += canonical.size
            if self._pending_size > 5_000_000:
                self._merge()
            counted += 1
        return counted

    def _merge(self) -> None:
        if not self._pending:
            return
        keys = np.concatenate([self.keys] + [k for k, _ in self._pending])
        seen = np.concatenate([self.seen] + [np.ones(k.size, np.int64) for k, _ in self._pending])
        played = np.concatenate([self.played] + [p for _, p in self._pending])
        self.keys, inverse = np.unique(keys, return_inverse=True)
        self.seen = np.bincount(inverse, weights=seen).astype(np.int64)
        self.played = np.bincount(inverse, weights=played).astype(np.int64)
        self._pending, self._pending_size = [], 0

    def kept(self, min_seen: int) -> tuple[np.ndarray, np.ndarray]:
        """The canonical hashes seen at least ``min_seen`` times and played at least once,
        and each one's played / seen. (Those never played, most of them shapes of large empty
        areas, would add no prior and weigh thirty times more; without them a move there
        gets its smaller shape's small value, and held-out moves are predicted as well:
        BENCHMARKS.md.)"""
        self._merge()
        keep = (self.seen >= min_seen) & (self.played > 0)
        return self.keys[keep], self.played[keep] / self.seen[keep]


def learn(games: Sequence[Game], min_seen: int) -> tuple[PatternTable, PatternCounter]:
    """Count the games, keep the patterns seen at least ``min_seen`` times and played, and
    find one occurrence of each in a second reading: the table, and the counts."""
    counter = PatternCounter()
    for game in games:
        counter.add_game(game)
    keys, values = counter.kept(min_seen)
    shapes = np.full((keys.size, S.NOFFSETS), BEYOND, np.int8)
    sizes = np.zeros(keys.size, np.int8)
    found = np.zeros(keys.size, np.bool_)
    for game in games:
        if found.all():  # (at once for an empty table)
            break
        for position, _ in _replay(game):
            canonical = position.canonical
            at = np.searchsorted(keys, canonical).clip(0, keys.size - 1)
            hit = (keys[at] == canonical) & ~found[at]
            for row, i in zip(*np.nonzero(hit)):
                k = at[row, i]
                if found[k]:  # the same pattern twice in this position
                    continue
                size = S.MIN_SIZE + i
                shapes[k, : S.SIZE_END[size]] = position.states[row, : S.SIZE_END[size]]
                sizes[k] = size
                found[k] = True
    return PatternTable(shapes[found], sizes[found], values[found]), counter


def prediction_ranks(table: PatternTable, games: Sequence[Game]) -> list[float]:
    """For each move of the games, its rank among the moves the player could make, by the
    value of their largest known pattern as the search reads it (1: the table's first choice;
    ties share the mean rank; moves the table knows nothing of rank after every known one)."""
    keys, slot_values = table.slots
    scratch = np.empty(S.NSIZES, np.int64)
    ranks: list[float] = []
    for game in games:
        for position, played in _replay(game):
            values = np.full(position.points.size, -1.0)
            if keys.size:
                for j, states in enumerate(position.states):
                    values[j] = S.shape_value(states, keys, slot_values, scratch)
            mine = np.flatnonzero(position.points == played)
            if mine.size == 0:
                continue  # an own eye filled: not a move the learner counts
            v = values[mine[0]]
            ranks.append(int(np.count_nonzero(values > v)) + (int(np.count_nonzero(values == v)) + 1) / 2)
    return ranks
