"""Spatial patterns learned from game records: how often each shape around a move is played.

The search's prior knows a few hand-written 3×3 shapes (michi's, after MoGo). This module
learns many more, of every size from the 3×3 square to about a 9×9 diamond
(:mod:`miai._kernel.spatial`), from games: at each position of a game, every move the
player could have made is a *seen* pattern, and the move played a *played* one. A pattern's
value is played / seen, the chance that a player facing this shape plays into it (Pachi's
``patterns.prob``, after Stern, Herbrich and Graepel). The search gives a move the value of
the largest pattern around it that the table knows (:func:`miai._kernel.spatial.pattern_value`),
as won prior visits (``prior_pattern``).

:func:`learn` reads the games twice. The first reading (:func:`count_played`) counts the
pattern of every move played under its canonical hash (the least of its eight orientations')
and keeps the shape where each was first played; the second (:func:`count_seen`) counts how
often those patterns, and only those, were among the moves a player could make, so that
memory grows with the moves played rather than with every shape on every board (the
readings of a large corpus can be split between processes and their counts added). A
:class:`PatternTable` holds the patterns seen often enough: the shapes themselves, point by
point, with their size and value (an ``.npz`` file); loading hashes each in its eight
orientations into the table the search reads (:meth:`PatternTable.slots`).
``miai train patterns`` runs it over SGF records, ``miai match`` runs or Tygem's
archive; the table the engine ships is :data:`DEFAULT_TABLE`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

import numpy as np

from miai._kernel import spatial as S
from miai._kernel.board import is_own_eye
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
        hashes = np.empty((len(self), 8), np.int64)
        S.sized_oriented_hashes(np.where(self.shapes == BEYOND, 0, self.shapes).astype(np.int8), self.sizes, hashes)
        keys, values = S.build_slots(hashes.ravel(), np.repeat(self.values, 8))
        return keys, values


@cache
def default_table() -> PatternTable:
    """The shipped table (read once), or an empty one where there is none."""
    return PatternTable.load(DEFAULT_TABLE) if DEFAULT_TABLE.exists() else PatternTable.empty()


def _replay(start: Game) -> Iterator[tuple[Game, int, int]]:
    """Each position of an even game (one read from a record: ``miai.sgf.game_from_record``)
    before a move on the board: the game then, the kernel point played and its colour.
    Handicap games are left out: their first moves are not even-game shapes."""
    if start.handicap:
        return
    game = Game(start.size, start.rules)
    for entry in start.history:
        if isinstance(entry, Move) and entry.point is not None:
            yield game, game.board.index(entry.point), int(entry.color)
        game.apply(entry)


def _seen(game: Game, color: int) -> tuple[np.ndarray, np.ndarray]:
    """The moves ``color`` could make (legal, not filling its own eye): their kernel points,
    and the states around each (rows)."""
    board = game.board
    length = board.grid.shape[1]
    points = np.empty(length, np.int32)
    states = np.empty((length, S.NOFFSETS), np.int8)
    n = S.position_states(board.grid, board.meta, color, points, states)
    return points[:n], states[:n]


@dataclass
class PlayedPatterns:
    """The patterns of the moves played in some games (the first reading of :func:`learn`):
    each one's canonical hash (``keys``, sorted), how often it was played, and where it was
    first played: a row of ``states`` (the shape around each move played, in order) and
    the pattern's size there."""

    keys: np.ndarray
    played: np.ndarray
    first_row: np.ndarray
    first_size: np.ndarray
    states: np.ndarray
    positions: int

    def table(self, which: np.ndarray, values: np.ndarray) -> PatternTable:
        """The table of the patterns ``which`` (indices into ``keys``), as first played, with
        their ``values``."""
        sizes = self.first_size[which].astype(np.int8)
        shapes = self.states[self.first_row[which]].copy()
        shapes[np.arange(S.NOFFSETS)[None, :] >= S.SIZE_END[sizes][:, None]] = BEYOND
        return PatternTable(shapes, sizes, values)


def count_played(games: Iterable[Game], min_played: int = 1) -> PlayedPatterns:
    """Read the games once: the pattern of every move played, at every size, counted under
    its canonical hash; those played fewer than ``min_played`` times are dropped. A move
    filling the player's own eye is not counted (it is never *seen* either)."""
    per_game: list[np.ndarray] = []
    positions = 0
    for start in games:
        rows = np.empty((len(start.history), S.NOFFSETS), np.int8)
        n = 0
        for game, point, color in _replay(start):
            positions += 1
            board = game.board
            if not is_own_eye(board.grid, board.meta, point, color):
                S.states_around(board.grid, board.meta, point, color, rows[n])
                n += 1
        per_game.append(rows[:n])
    states = np.concatenate(per_game) if per_game else np.zeros((0, S.NOFFSETS), np.int8)
    canonical = np.empty((len(states), S.NSIZES), np.int64)
    S.all_canonical_hashes(states, canonical)
    keys, first, played = np.unique(canonical.ravel(), return_index=True, return_counts=True)
    keep = played >= min_played
    keys, first, played = keys[keep], first[keep], played[keep]
    return PlayedPatterns(keys, played.astype(np.int64), first // S.NSIZES,
                          (S.MIN_SIZE + first % S.NSIZES).astype(np.int8), states, positions)


def count_seen(games: Iterable[Game], keys: np.ndarray) -> np.ndarray:
    """Read the games again: how often each pattern of ``keys`` (canonical hashes) was among
    the moves a player could make (one count per move whose shape has it)."""
    slot_keys, slot_index = S.build_slots(keys, np.arange(keys.size, dtype=np.float64))
    counts = np.zeros(keys.size, np.int64)
    for start in games:
        for game, _, color in _replay(start):
            _, states = _seen(game, color)
            S.count_known(states, slot_keys, slot_index, counts)
    return counts


@dataclass
class PatternCounts:
    """How often each pattern played in the games (canonical hash, ``keys``) was played and
    seen, over ``positions`` positions."""

    keys: np.ndarray
    played: np.ndarray
    seen: np.ndarray
    positions: int

    def kept(self, min_seen: int) -> np.ndarray:
        """The indices of the patterns seen at least ``min_seen`` times. (Patterns never
        played, most of them shapes of large empty areas, are not counted at all: they would
        add no prior and weigh thirty times more; without them a move there gets its smaller
        shape's small value, and held-out moves are predicted as well: BENCHMARKS.md.)"""
        return np.flatnonzero(self.seen >= min_seen)

    def value(self, which: np.ndarray) -> np.ndarray:
        """Played / seen of the patterns ``which``."""
        return self.played[which] / self.seen[which]


def table_of(played: PlayedPatterns, seen: np.ndarray, min_seen: int) -> tuple[PatternTable, PatternCounts]:
    """The table of the patterns seen at least ``min_seen`` times, from both readings' counts."""
    counts = PatternCounts(played.keys, played.played, seen, played.positions)
    which = counts.kept(min_seen)
    return played.table(which, counts.value(which)), counts


def learn(games: Sequence[Game], min_seen: int, min_played: int = 1) -> tuple[PatternTable, PatternCounts]:
    """Learn a table from the games, read twice (:func:`count_played`, :func:`count_seen`):
    the patterns played at least ``min_played`` times and seen at least ``min_seen`` times,
    each with played / seen; and the counts."""
    played = count_played(games, min_played)
    return table_of(played, count_seen(games, played.keys), min_seen)


def prediction_ranks(table: PatternTable, games: Sequence[Game]) -> list[float]:
    """For each move of the games, its rank among the moves the player could make, by the
    value of their largest known pattern as the search reads it (1: the table's first choice;
    ties share the mean rank; moves the table knows nothing of rank after every known one)."""
    keys, slot_values = table.slots
    scratch = np.empty(S.NSIZES, np.int64)
    ranks: list[float] = []
    for start in games:
        for game, played, color in _replay(start):
            points, states = _seen(game, color)
            values = np.full(points.size, -1.0)
            if keys.size:
                for j, shape in enumerate(states):
                    values[j] = S.shape_value(shape, keys, slot_values, scratch)
            mine = np.flatnonzero(points == played)
            if mine.size == 0:
                continue  # an own eye filled: not a move the learner counts
            v = values[mine[0]]
            ranks.append(int(np.count_nonzero(values > v)) + (int(np.count_nonzero(values == v)) + 1) / 2)
    return ranks
