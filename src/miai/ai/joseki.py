"""The joseki book: what strong players played in each corner shape in their games' openings.

Pachi opens 19×19 games from a joseki dictionary; miai learns its own from game records.
Over the first moves of each game, every corner's square (:mod:`miai._kernel.corners`: the
10 × 10 points nearest the corner on 19×19, in the corner's own frame, both ways round, as
the player to move sees it) is a *seen* shape, and a move played inside the square is
counted as that shape's answer. A shape seen in enough games keeps each answer played often
enough with its chance: played / seen (so the moves played elsewhere on the board, tenuki,
lower the chances of all). The search gives the children of a node whose corner shape the
book holds won prior visits by those chances (``prior_joseki``,
:func:`miai._kernel.priors.joseki_prior`). ``miai train joseki`` learns a book; the one the
engine ships is :data:`DEFAULT_BOOK`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

from miai._kernel.corners import CORNERS, corner_key, corner_local, corner_point
from miai._kernel.tree import NO_BOOK, Book
from miai.ai.patterns import replay
from miai.coords import Point
from miai.game import Game

DEFAULT_BOOK = Path(__file__).with_name("data") / "joseki19.npz"
"""The book the engine ships, learnt from games on 19×19 (BENCHMARKS.md says which)."""

SIDE = 10
"""A corner square's side on 19×19: lines 1 to 10."""

ZOBRIST_SEED = 20161201
"""The seed of a new book's hash keys (a book keeps its own: any seed reads alike)."""


@dataclass(frozen=True, eq=False)
class JosekiBook:
    """Corner shapes (``keys``, sorted: :func:`miai._kernel.corners.corner_key` with this
    book's ``zobrist``) on a board of ``size`` lines, each with its answers: the entries
    ``starts[k]`` to ``starts[k + 1]`` of ``points`` (local points of the square) and
    ``chances`` (how often it was played, over how often the shape was seen)."""

    size: int
    zobrist: np.ndarray
    keys: np.ndarray
    starts: np.ndarray
    points: np.ndarray
    chances: np.ndarray

    def __post_init__(self) -> None:
        side = self.zobrist.shape[1] if self.zobrist.ndim == 3 else 0
        if self.zobrist.shape != (2, side, side) or not 0 < side <= max(self.size, 1):
            raise ValueError(f"a joseki book's zobrist keys are 2 × side × side, the side at most the board's "
                             f"{self.size} lines (got {self.zobrist.shape})")
        n, m = self.keys.shape[0], self.points.shape[0]
        if self.starts.shape != (n + 1,) or self.chances.shape != (m,) or self.starts[0] != 0 or self.starts[-1] != m:
            raise ValueError(f"a joseki book needs one start per shape and one more, and a chance per answer "
                             f"(keys {n}, starts {self.starts.shape}, points {m}, chances {self.chances.shape})")
        if (np.diff(self.keys) <= 0).any() or (np.diff(self.starts) < 0).any():
            raise ValueError("a joseki book's keys are sorted without repeats, and its starts never go back")
        if m and (self.points.min() < 0 or self.points.max() >= side * side):
            raise ValueError(f"a joseki book's answers are local points of its {side} × {side} square")
        if m and (self.chances.min() <= 0 or self.chances.max() > 1):
            raise ValueError("a joseki book's chances are above 0 and at most 1")

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    @property
    def side(self) -> int:
        return int(self.zobrist.shape[1])

    @classmethod
    def empty(cls) -> JosekiBook:
        return cls(19, NO_BOOK[0].copy(), *(a.copy() for a in NO_BOOK[1:]))

    @classmethod
    def load(cls, path: str | Path) -> JosekiBook:
        """Read a book written by :meth:`save`."""
        with np.load(path) as data:
            return cls(int(data["size"]), data["zobrist"].astype(np.int64), data["keys"].astype(np.int64),
                       data["starts"].astype(np.int64), data["points"].astype(np.int64),
                       data["chances"].astype(np.float64))

    def save(self, path: str | Path) -> None:
        # chances as float32 and points as int8: the book is shipped
        np.savez_compressed(path, size=self.size, zobrist=self.zobrist, keys=self.keys, starts=self.starts,
                            points=self.points.astype(np.int8), chances=self.chances.astype(np.float32))

    @property
    def arrays(self) -> Book:
        """The book as the search reads it (:data:`miai._kernel.tree.Book`)."""
        return self.zobrist, self.keys, self.starts, self.points, self.chances

    def entries(self, key: int) -> slice:
        """The entries (into ``points`` and ``chances``) of the shape ``key``: none when the
        book does not hold it."""
        k = int(np.searchsorted(self.keys, key))
        if k == len(self) or self.keys[k] != key:
            return slice(0, 0)
        return slice(int(self.starts[k]), int(self.starts[k + 1]))

    def answers(self, game: Game) -> dict[Point, float]:
        """The book's answers for the side to move in ``game``, in every corner whose shape it
        holds: each point with its chance (the larger where two corners' squares offer one
        point). Nothing on a board of another size."""
        board = game.board
        found: dict[Point, float] = {}
        if game.size != self.size or not len(self):
            return found
        for corner in range(CORNERS):
            key = corner_key(board.grid, board.meta, int(game.to_move), corner, False, self.zobrist)
            entries = self.entries(key)
            for local, chance in zip(self.points[entries], self.chances[entries]):
                point = board.point(corner_point(board.meta, corner, False, self.side, int(local)))
                found[point] = max(found.get(point, 0.0), float(chance))
        return found


@cache
def default_book() -> JosekiBook:
    """The shipped book (read once), or an empty one where there is none."""
    return JosekiBook.load(DEFAULT_BOOK) if DEFAULT_BOOK.exists() else JosekiBook.empty()


@dataclass
class _Shape:
    """What the learner knows of one corner shape: positions and games it was seen in, the
    last of those games, and how often each local point was played in it."""

    seen: int = 0
    games: int = 0
    last_game: int = -1
    played: dict[int, int] = field(default_factory=dict)


def _count(games: Iterable[Game], moves: int, zobrist: np.ndarray) -> dict[int, _Shape]:
    """Every corner shape (both ways round) of the positions before the first ``moves`` moves
    of each even game, with the answers played in it."""
    shapes: dict[int, _Shape] = {}
    side = zobrist.shape[1]
    for number, start in enumerate(games):
        for k, (game, point, color) in enumerate(replay(start)):
            if k >= moves:
                break
            board = game.board
            for corner in range(CORNERS):
                for transposed in (False, True):
                    key = corner_key(board.grid, board.meta, color, corner, transposed, zobrist)
                    shape = shapes.setdefault(key, _Shape())
                    shape.seen += 1
                    if shape.last_game != number:
                        shape.games, shape.last_game = shape.games + 1, number
                    local = corner_local(board.meta, corner, transposed, side, point)
                    if local >= 0:
                        shape.played[local] = shape.played.get(local, 0) + 1
    return shapes


def learn(games: Iterable[Game], size: int = 19, moves: int = 60, min_games: int = 5, min_played: int = 2,
          side: int = SIDE) -> JosekiBook:
    """A book from the first ``moves`` moves of the even games of ``size`` lines: the corner
    shapes seen in at least ``min_games`` games, each with the answers played at least
    ``min_played`` times in it."""
    zobrist = np.random.default_rng(ZOBRIST_SEED).integers(-(2**63), 2**63 - 1, (2, side, side), dtype=np.int64)
    shapes = _count((g for g in games if g.size == size), moves, zobrist)
    keys: list[int] = []
    starts, points, chances = [0], [], []
    for key in sorted(shapes):
        shape = shapes[key]
        answers = sorted((local, n) for local, n in shape.played.items() if n >= min_played)
        if shape.games < min_games or not answers:
            continue
        keys.append(key)
        points += [local for local, _ in answers]
        chances += [n / shape.seen for _, n in answers]
        starts.append(len(points))
    return JosekiBook(size, zobrist, np.array(keys, np.int64), np.array(starts, np.int64),
                      np.array(points, np.int64), np.array(chances, np.float64))


@dataclass
class Coverage:
    """How a book answers the first moves of some games: ``moves`` played on the board,
    ``known`` of them in a corner shape the book holds, ``first`` of those its first choice."""

    moves: int = 0
    known: int = 0
    first: int = 0


def coverage(book: JosekiBook, games: Iterable[Game], moves: int = 60) -> Coverage:
    """How often the first ``moves`` moves of the games were in a corner whose shape the
    book holds, and how often the move played was then the book's first choice there."""
    found = Coverage()
    for start in games:
        if start.size != book.size:
            continue
        for k, (game, point, color) in enumerate(replay(start)):
            if k >= moves:
                break
            found.moves += 1
            board = game.board
            for corner in range(CORNERS):
                local = corner_local(board.meta, corner, False, book.side, point)
                if local < 0:
                    continue  # not this corner's move: its shape is not read
                entries = book.entries(corner_key(board.grid, board.meta, color, corner, False, book.zobrist))
                if entries.stop == entries.start:
                    continue
                found.known += 1
                found.first += int(book.points[entries][np.argmax(book.chances[entries])] == local)
                break
    return found
