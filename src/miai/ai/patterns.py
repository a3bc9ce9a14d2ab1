"""Spatial patterns learned from game records: how often each shape around a move is played.

The search's prior knows a few hand-written 3×3 shapes (michi's, after MoGo). This module
learns many more, of every size from the 3×3 square to about a 9×9 diamond
(:mod:`miai._kernel.spatial`), from games: at each position of a record, every move the
player could have made is a *seen* pattern, and the move played a *played* one. A pattern's
value is played / seen, the chance that a player facing this shape plays into it (Pachi's
``patterns.prob``, after Stern, Herbrich and Graepel). The search gives a move the value of
the largest pattern around it that the table knows (:func:`miai._kernel.spatial.pattern_value`),
as won prior visits (``prior_pattern``).

:class:`PatternCounter` counts records, :meth:`PatternCounter.table` keeps the patterns seen
often enough to trust, and :class:`PatternTable` saves and loads them (an ``.npz`` file of
sorted hashes and their values). ``benchmarks/learn_patterns.py`` runs it over ``miai
match`` runs; the table the engine ships is :data:`DEFAULT_TABLE`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from miai.game import Game
from miai.coords import Move
from miai.sgf.game import game_from_record
from miai.sgf.record import SgfRecord

DEFAULT_TABLE = Path(__file__).with_name("data") / "patterns19.npz"
"""The table the engine ships, learned from games on 19×19 (BENCHMARKS.md says which)."""


@dataclass(frozen=True, eq=False)
class PatternTable:
    """Pattern hashes (int64, sorted, each once) and each one's value (float64, 0–1)."""

    keys: np.ndarray
    values: np.ndarray

    def __post_init__(self) -> None:
        if self.keys.shape != self.values.shape or self.keys.ndim != 1:
            raise ValueError(f"a pattern table needs as many values as keys ({self.keys.shape} and {self.values.shape})")
        if self.keys.size > 1 and not bool(np.all(self.keys[1:] > self.keys[:-1])):
            raise ValueError("a pattern table's keys must be sorted and distinct")

    def __len__(self) -> int:
        return int(self.keys.size)

    @classmethod
    def empty(cls) -> PatternTable:
        return cls(np.zeros(0, np.int64), np.zeros(0, np.float64))

    @classmethod
    def load(cls, path: str | Path) -> PatternTable:
        """Read a table written by :meth:`save`."""
        with np.load(path) as data:
            return cls(data["keys"].astype(np.int64), data["values"].astype(np.float64))

    def save(self, path: str | Path) -> None:
        # values as float32: the table is shipped, and 7 digits are more than the counts give
        np.savez_compressed(path, keys=self.keys, values=self.values.astype(np.float32))


@cache
def default_table() -> PatternTable:
    """The shipped table (read once), or an empty one where there is none."""
    return PatternTable.load(DEFAULT_TABLE) if DEFAULT_TABLE.exists() else PatternTable.empty()


class PatternCounter:
    """How often each pattern was seen and played over the positions of the records added."""

    def __init__(self) -> None:
        self.keys = np.zeros(0, np.int64)
        self.seen = np.zeros(0, np.int64)
        self.played = np.zeros(0, np.int64)
        self.positions = 0
        self._pending: list[tuple[np.ndarray, np.ndarray]] = []
        self._pending_size = 0

    def add_record(self, record: SgfRecord) -> int:
        """Count every move of the record's main line (after any added stones); returns how
        many. Handicap games are left out (0): their first moves are not even-game shapes."""
        counted = 0
        for game, color, played in _replay(record):
            self.add_position(game, color, played)
            counted += 1
        return counted

    def add_position(self, game: Game, color: int, played: int) -> None:
        """Count the patterns of the moves ``color`` could make here, ``played`` the one made."""
        points, hashes = _patterns_here(game, color)
        self.positions += 1
        self._pending.append((hashes.ravel(), np.repeat(points == played, hashes.shape[1]).astype(np.int64)))
        self._pending_size += hashes.size
        if self._pending_size > 5_000_000:
            self._merge()

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

    def table(self, min_seen: int) -> PatternTable:
        """The patterns seen at least ``min_seen`` times and played at least once, each with
        played / seen. (Those never played, most of them shapes of large empty areas, would
        add no prior and weigh thirty times more; without them a move there gets its smaller
        shape's small value, and the held-out moves are predicted as well: BENCHMARKS.md.)"""
        self._merge()
        keep = (self.seen >= min_seen) & (self.played > 0)
        return PatternTable(self.keys[keep], self.played[keep] / self.seen[keep])


def _patterns_here(game: Game, color: int) -> tuple[np.ndarray, np.ndarray]:
    """The moves ``color`` could make in the game's position (kernel points) and their
    patterns' hashes, a row of one per size each (:func:`miai._kernel.spatial.position_hashes`)."""
    from miai._kernel import spatial as S

    board = game.board
    points = np.empty(board.grid.shape[1], np.int32)
    hashes = np.empty((board.grid.shape[1], S.NSIZES), np.int64)
    n = S.position_hashes(board.grid, board.meta, color, points, hashes)
    return points[:n], hashes[:n]


def _replay(record: SgfRecord) -> Iterator[tuple[Game, int, int]]:
    """Each position of an even game's main line before a move on the board: ``(game, colour,
    kernel point played)`` (the game is the one being replayed: read it before the next)."""
    start = game_from_record(record, strict=False)
    if start.handicap:
        return
    game = Game(start.size, start.rules)
    for entry in start.history:
        if isinstance(entry, Move) and entry.point is not None:
            yield game, int(entry.color), game.board.index(entry.point)
        game.apply(entry)


def prediction_ranks(table: PatternTable, records: Iterable[SgfRecord]) -> list[float]:
    """For each move of the records, its rank among the moves the player could make, by the
    value of their largest known pattern (1: the table's first choice; ties share the mean
    rank; moves the table knows nothing of rank after every known one)."""
    ranks: list[float] = []
    for record in records:
        for game, color, played in _replay(record):
            points, hashes = _patterns_here(game, color)
            values = np.array([_value(table, row) for row in hashes])
            mine = np.flatnonzero(points == played)
            if mine.size == 0:
                continue  # an own eye filled: not a move the learner counts
            v = values[mine[0]]
            above = int(np.count_nonzero(values > v))
            tied = int(np.count_nonzero(values == v))
            ranks.append(above + (tied + 1) / 2)
    return ranks


def _value(table: PatternTable, hashes: np.ndarray) -> float:
    """The value of the largest of these hashes (one per size) the table holds, or -1."""
    for h in hashes[::-1]:
        i = int(np.searchsorted(table.keys, h))
        if i < len(table) and table.keys[i] == h:
            return float(table.values[i])
    return -1.0


def learn(records: Iterable[SgfRecord], min_seen: int) -> tuple[PatternTable, PatternCounter]:
    """Count the records and keep the patterns seen at least ``min_seen`` times."""
    counter = PatternCounter()
    for record in records:
        counter.add_record(record)
    return counter.table(min_seen), counter
