"""Board diagrams for tests: text in, Game or Board out, and back.

A diagram is rows of ``X`` (black), ``O`` (white) and ``.`` (empty), the top row first, as a
player draws a board; spaces are ignored.
"""

from __future__ import annotations

from miai.coords import Color, Point
from miai.game import Game
from miai.rules import Rules


def parse(diagram: str) -> tuple[int, list[Point], list[Point]]:
    """``(size, black points, white points)`` of a diagram."""
    rows = [line.replace(" ", "") for line in diagram.strip().splitlines()]
    size = len(rows)
    assert all(len(r) == size for r in rows), f"diagram is not square: {rows}"
    black, white = [], []
    for i, line in enumerate(rows):
        for col, ch in enumerate(line):
            point = (size - 1 - i, col)
            if ch == "X":
                black.append(point)
            elif ch == "O":
                white.append(point)
            else:
                assert ch in ".+", f"bad diagram character {ch!r}"
    return size, black, white


def game_from(diagram: str, rules: Rules | None = None, to_move: Color = Color.BLACK) -> Game:
    size, black, white = parse(diagram)
    game = Game(size, rules or Rules.preset("chinese"))
    game.setup(black=black, white=white, to_move=to_move)
    return game


def draw(game_or_board) -> str:
    """The diagram of a position, in the same format (rows joined by newlines, no spaces)."""
    board = getattr(game_or_board, "board", game_or_board)
    rows = []
    for r in range(board.size - 1, -1, -1):
        rows.append("".join({None: ".", Color.BLACK: "X", Color.WHITE: "O"}[board[(r, c)]] for c in range(board.size)))
    return "\n".join(rows)


def same(a: str, b: str) -> bool:
    norm = lambda d: [line.replace(" ", "") for line in d.strip().splitlines()]  # noqa: E731
    return norm(a) == norm(b)
