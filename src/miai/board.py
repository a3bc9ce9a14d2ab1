"""A position on the board: the one Python face of the compiled kernel.

:class:`Board` is what users read (``board[(3, 3)]`` is a :class:`Color` or None) and what
the Game changes; it keeps no history and knows no turn order. Copying is two array
copies, so search code can take as many as it likes.

Every question the rules ask of the kernel goes through a method here (legality of a
stone, the hash a stone would leave, the legal points, the owner of every point, the
chains, a copy without some stones), so the modules above speak of points and colours,
never of the kernel's arrays. The AI, which reads the kernel by design, may still use
:attr:`Board.grid` and :attr:`Board.meta`.

The kernel (numba and numpy, about a second to load) is imported on the first ``Board()``
(:func:`kernel`), not when this module is imported: ``import miai.game`` stays cheap, so a
GTP engine can answer ``name`` at once. The arrays a board hands out are numpy arrays, but
this module needs numpy only through them, never by importing it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple

from miai.coords import GTP_COLUMNS, Color, Point, check_point, check_size
from miai.errors import IllegalReason

if TYPE_CHECKING:
    import numpy as np

_K: Any = None
"""The kernel package once :func:`kernel` has loaded it (its functions)."""
_KB: Any = None
"""The kernel's board module once loaded (the layout of its arrays: ``COLOR``, ``M_HASH``...)."""

_REASONS: dict[int, IllegalReason] = {}
"""The kernel's legality codes as reasons (filled when the kernel loads)."""


def kernel() -> ModuleType:
    """The compiled kernel (:mod:`miai._kernel`), imported on first use and kept.

    The one place of the core that loads numba: the first ``Board()`` calls it, so every
    method of a board can rely on the kernel being there."""
    global _K, _KB
    if _K is None:
        from miai import _kernel

        _REASONS.update(
            {_kernel.OCCUPIED: IllegalReason.OCCUPIED, _kernel.SUICIDE: IllegalReason.SUICIDE, _kernel.KO: IllegalReason.KO}
        )
        _KB = _kernel.board
        _K = _kernel
    module: ModuleType = _K
    return module


class Chain(NamedTuple):
    """A chain of stones: its colour and its stones."""

    color: Color
    stones: frozenset[Point]


class Board:
    """An N×N position: stones, chains, captures so far, the simple-ko point and its hash."""

    __slots__ = ("size", "grid", "meta", "_w")

    def __init__(self, size: int = 19):
        self.size = check_size(size)
        self.grid, self.meta = kernel().new_board(size)
        self._w = size + 2

    # ---------------------------------------------------------------- indices
    def index(self, point: Point) -> int:
        """The kernel's index of an on-board point (unchecked)."""
        return (point[0] + 1) * self._w + point[1] + 1

    def _checked_index(self, point: Point) -> int:
        """The kernel's index of ``point``, raising :class:`InvalidMoveError` if it is not a
        point of this board (a quick path first: the rules ask this once or twice a move)."""
        if type(point) is tuple and len(point) == 2:
            row, col = point
            if type(row) is int and type(col) is int and 0 <= row < self.size and 0 <= col < self.size:
                return (row + 1) * self._w + col + 1
        row, col = check_point(point, self.size)
        return (row + 1) * self._w + col + 1

    def point(self, index: int) -> Point:
        """The point of a kernel index."""
        r, c = divmod(index, self._w)
        return (r - 1, c - 1)

    def rows_and_columns(self, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The rows and the columns of an array of on-board kernel indices: :meth:`point` for
        many at once, to index an N×N array."""
        return indices // self._w - 1, indices % self._w - 1

    # ------------------------------------------------------------------ reads
    def __getitem__(self, point: Point) -> Color | None:
        v = int(self.grid[_KB.COLOR, self._checked_index(point)])
        return Color(v) if v else None

    def __iter__(self) -> Iterator[Point]:
        """Every point, row by row from the bottom."""
        return ((r, c) for r in range(self.size) for c in range(self.size))

    def stones(self, color: Color) -> list[Point]:
        """The points holding stones of ``color``, row by row from the bottom."""
        rows, cols = (self.as_array() == int(color)).nonzero()
        return [(int(r), int(c)) for r, c in zip(rows, cols)]

    def as_array(self) -> np.ndarray:
        """An N×N int8 array of kernel colours (0 empty, 1 black, 2 white), row 0 at the bottom."""
        return self.grid[_KB.COLOR].reshape(self._w, self._w)[1:-1, 1:-1].astype("int8")

    def _is_stone(self, index: int) -> bool:
        return int(self.grid[_KB.COLOR, index]) in (Color.BLACK, Color.WHITE)

    def chain(self, point: Point) -> list[Point]:
        """The stones of the chain through ``point`` (empty list for an empty point)."""
        p = self._checked_index(point)
        return self._chain_at(p) if self._is_stone(p) else []

    def _chain_at(self, p: int) -> list[Point]:
        """The stones of the chain through the stone at index ``p``, following the kernel's
        circular NEXT list from the chain's head."""
        head = int(self.grid[_KB.HEAD, p])
        following = self.grid[_KB.NEXT]
        out, s = [], head
        while True:
            out.append(self.point(s))
            s = int(following[s])
            if s == head:
                return out

    def chains(self) -> list[Chain]:
        """Every chain on the board, in the order of its first stone row by row from the
        bottom (the kernel keeps chains as it plays: nothing is flooded here)."""
        heads = self.grid[_KB.HEAD]
        colors = self.grid[_KB.COLOR]
        seen: set[int] = set()
        out = []
        for p in self:
            i = self.index(p)
            head = int(heads[i])
            if head == 0 or head in seen:
                continue
            seen.add(head)
            out.append(Chain(Color(int(colors[i])), frozenset(self._chain_at(i))))
        return out

    def liberties(self, point: Point) -> int:
        """The number of liberties of the chain through ``point`` (0 for an empty point)."""
        p = self._checked_index(point)
        if not self._is_stone(p):
            return 0
        return int(self.grid[_KB.LIBS, self.grid[_KB.HEAD, p]])

    def liberty_counts(self) -> np.ndarray:
        """An N×N array of each stone's chain's liberties (0 on an empty point), row 0 at the bottom."""
        heads = self.grid[_KB.HEAD].reshape(self._w, self._w)[1:-1, 1:-1]
        counts = self.grid[_KB.LIBS][heads].astype("int16")
        counts[self.as_array() == 0] = 0
        return counts

    def chain_size(self, point: Point) -> int:
        """The number of stones of the chain through ``point`` (0 for an empty point)."""
        p = self._checked_index(point)
        if not self._is_stone(p):
            return 0
        return int(self.grid[_KB.SIZE, self.grid[_KB.HEAD, p]])

    @property
    def hash(self) -> int:
        """The Zobrist hash of the stones (equal positions have equal hashes)."""
        return int(self.meta[_KB.M_HASH])

    def captures(self, color: Color) -> int:
        """Stones of the opponent that ``color`` has captured on this board (suicided stones
        count for the opponent of the player who suicided)."""
        return int(self.meta[_KB.M_CAPT_B + int(color) - 1])

    @property
    def ko(self) -> tuple[Point, Color] | None:
        """The simple-ko point and the colour it is forbidden to, if any."""
        p = int(self.meta[_KB.M_KO])
        return (self.point(p), Color(int(self.meta[_KB.M_KO_COLOR]))) if p else None

    # --------------------------------------------------------- rule questions
    def legality(self, point: Point, color: Color, suicide: bool) -> IllegalReason | None:
        """Why a stone of ``color`` may not go on ``point`` by the rules a board knows
        (occupied, suicide, retaking a simple ko), or None. ``suicide``: whether the rules
        allow a multi-stone suicide (a single stone's never is). Superko is the Game's."""
        return _REASONS.get(_K.legality(self.grid, self.meta, self._checked_index(point), int(color), suicide))

    def hash_after(self, point: Point, color: Color) -> int:
        """The hash of the position a (legal) stone of ``color`` on ``point`` would leave,
        captures included, without changing the board (for superko)."""
        return int(_K.hash_after(self.grid, self.meta, self._checked_index(point), int(color)))

    def legal_points(self, color: Color, suicide: bool) -> list[Point]:
        """Every point where :meth:`legality` allows a stone of ``color``, row by row from the bottom."""
        mask = _K.legal_mask(self.grid, self.meta, int(color), suicide)
        rows, cols = mask.nonzero()
        return [(int(r), int(c)) for r, c in zip(rows, cols)]

    def owners(self) -> np.ndarray:
        """An N×N int8 array, row 0 at the bottom, of who owns each point for area counting:
        a stone's colour; for an empty point, the colour of every stone bordering its empty
        region, or 0 when the region borders both colours or none."""
        flat = self.grid[_KB.COLOR].copy()  # a scratch row of the kernel's type and length
        _K.region_owners(self.grid, self.meta, flat)
        return flat.reshape(self._w, self._w)[1:-1, 1:-1].astype("int8")

    # ------------------------------------------------------------------ copies
    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.size, other._w = self.size, self._w
        other.grid, other.meta = self.grid.copy(), self.meta.copy()
        return other

    def without(self, points: Iterable[Point]) -> Board:
        """A copy with the stones on ``points`` removed (dead stones taken off to count or to
        judge the rest); empty points are left as they are."""
        other = self.copy()
        for p in points:
            other.set(p, None)
        return other

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.size == other.size and bool((self.as_array() == other.as_array()).all())

    __hash__ = None  # type: ignore[assignment]  # mutable

    # ----------------------------------------------------------------- writes
    def place(self, point: Point, color: Color) -> int:
        """Play a stone with captures but no legality check (the fast door, for search and
        replay); returns the number of stones captured."""
        return int(_K.play_stone(self.grid, self.meta, (point[0] + 1) * self._w + point[1] + 1, int(color)))

    def set(self, point: Point, color: Color | None) -> None:
        """Edit a point (setup stones, removing dead stones): no captures; clears the ko point."""
        _K.set_point(self.grid, self.meta, self._checked_index(point), int(color) if color else 0)

    def clear_ko(self) -> None:
        """A pass: the position stands, but the simple-ko ban is lifted."""
        _K.pass_turn(self.meta)

    def check_consistency(self) -> None:
        """Raise if the kernel's incremental data disagree with the stones (for tests)."""
        _K.check_consistency(self.grid, self.meta)

    # ------------------------------------------------------------------- text
    def __str__(self) -> str:
        """A plain diagram: ``X`` black, ``O`` white, ``.`` empty, GTP coordinates."""
        cols = GTP_COLUMNS[: self.size]
        colors = self.as_array()
        lines = ["   " + " ".join(cols)]
        for r in range(self.size - 1, -1, -1):
            row = " ".join(".XO"[int(v)] for v in colors[r])
            lines.append(f"{r + 1:2d} {row}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Board {self.size}x{self.size} hash={self.hash:#x}>"
