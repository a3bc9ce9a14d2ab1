"""A position on the board: a thin Python face over the compiled kernel's arrays.

:class:`Board` is what users read (``board[(3, 3)]`` is a :class:`Color` or None) and what
the Game changes through the kernel; it keeps no history and knows no turn order. Copying
is two array copies, so search code can take as many as it likes.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from miai import _kernel as K
from miai._kernel.board import COLOR, HEAD, LIBS, M_CAPT_B, M_HASH, M_KO, M_KO_COLOR, NEXT, SIZE
from miai.coords import GTP_COLUMNS, Color, Point, check_point, check_size


class Board:
    """An N×N position: stones, chains, captures so far, the simple-ko point and its hash."""

    __slots__ = ("size", "grid", "meta", "_w")

    def __init__(self, size: int = 19):
        self.size = check_size(size)
        self.grid, self.meta = K.new_board(size)
        self._w = size + 2

    # ---------------------------------------------------------------- indices
    def index(self, point: Point) -> int:
        """The kernel's index of an on-board point (unchecked)."""
        return (point[0] + 1) * self._w + point[1] + 1

    def point(self, index: int) -> Point:
        """The point of a kernel index."""
        r, c = divmod(index, self._w)
        return (r - 1, c - 1)

    # ------------------------------------------------------------------ reads
    def __getitem__(self, point: Point) -> Color | None:
        row, col = check_point(point, self.size)
        v = int(self.grid[COLOR, (row + 1) * self._w + col + 1])
        return Color(v) if v else None

    def __iter__(self) -> Iterator[Point]:
        """Every point, row by row from the bottom."""
        return ((r, c) for r in range(self.size) for c in range(self.size))

    def stones(self, color: Color) -> list[Point]:
        """The points holding stones of ``color``."""
        return [p for p in self if self.grid[COLOR, self.index(p)] == color]

    def as_array(self) -> np.ndarray:
        """An N×N int8 array of kernel colours (0 empty, 1 black, 2 white), row 0 at the bottom."""
        return self.grid[COLOR].reshape(self._w, self._w)[1:-1, 1:-1].astype(np.int8)

    def chain(self, point: Point) -> list[Point]:
        """The stones of the chain through ``point`` (empty list for an empty point)."""
        p = self.index(check_point(point, self.size))
        if self.grid[COLOR, p] not in (K.BLACK, K.WHITE):
            return []
        head = int(self.grid[HEAD, p])
        out, s = [], head
        while True:
            out.append(self.point(s))
            s = int(self.grid[NEXT, s])
            if s == head:
                return out

    def liberties(self, point: Point) -> int:
        """The number of liberties of the chain through ``point`` (0 for an empty point)."""
        p = self.index(check_point(point, self.size))
        if self.grid[COLOR, p] not in (K.BLACK, K.WHITE):
            return 0
        return int(self.grid[LIBS, self.grid[HEAD, p]])

    def chain_size(self, point: Point) -> int:
        p = self.index(check_point(point, self.size))
        return int(self.grid[SIZE, self.grid[HEAD, p]]) if self.grid[COLOR, p] in (K.BLACK, K.WHITE) else 0

    @property
    def hash(self) -> int:
        """The Zobrist hash of the stones (equal positions have equal hashes)."""
        return int(self.meta[M_HASH])

    def captures(self, color: Color) -> int:
        """Stones of the opponent that ``color`` has captured on this board (suicided stones
        count for the opponent of the player who suicided)."""
        return int(self.meta[M_CAPT_B + int(color) - 1])

    @property
    def ko(self) -> tuple[Point, Color] | None:
        """The simple-ko point and the colour it is forbidden to, if any."""
        p = int(self.meta[M_KO])
        return (self.point(p), Color(int(self.meta[M_KO_COLOR]))) if p else None

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.size, other._w = self.size, self._w
        other.grid, other.meta = self.grid.copy(), self.meta.copy()
        return other

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.size == other.size and np.array_equal(self.as_array(), other.as_array())

    __hash__ = None  # type: ignore[assignment]  # mutable

    # ----------------------------------------------------------------- writes
    def place(self, point: Point, color: Color) -> int:
        """Play a stone with captures but no legality check (the fast door, for search and
        replay); returns the number of stones captured."""
        return int(K.play_stone(self.grid, self.meta, self.index(point), int(color)))

    def set(self, point: Point, color: Color | None) -> None:
        """Edit a point (setup stones, removing dead stones): no captures; clears the ko point."""
        K.set_point(self.grid, self.meta, self.index(check_point(point, self.size)), int(color) if color else 0)

    def clear_ko(self) -> None:
        K.pass_turn(self.meta)

    def check_consistency(self) -> None:
        """Raise if the kernel's incremental data disagree with the stones (for tests)."""
        K.check_consistency(self.grid, self.meta)

    # ------------------------------------------------------------------- text
    def __str__(self) -> str:
        """A plain diagram: ``X`` black, ``O`` white, ``.`` empty, GTP coordinates."""
        cols = GTP_COLUMNS[: self.size]
        lines = ["   " + " ".join(cols)]
        for r in range(self.size - 1, -1, -1):
            row = " ".join(".XO"[int(self.grid[COLOR, self.index((r, c))])] for c in range(self.size))
            lines.append(f"{r + 1:2d} {row}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Board {self.size}x{self.size} hash={self.hash:#x}>"
