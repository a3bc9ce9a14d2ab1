"""Board diagrams for tests: text in, Game or Board out, and back.

A diagram is rows of ``X`` (black), ``O`` (white) and ``.`` (empty), the top row first, as a
player draws a board; spaces are ignored.
"""

from __future__ import annotations

from miai.board import Board
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


def board_from(diagram: str) -> Board:
    """A bare board with the diagram's stones (no game, no history)."""
    size, black, white = parse(diagram)
    board = Board(size)
    for p in black:
        board.set(p, Color.BLACK)
    for p in white:
        board.set(p, Color.WHITE)
    return board


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


SEKI_GNUGO_43 = """
. X . X O O . O .
X X X X O O O X X
. X . X X X O . O
X X X X . X O O O
. X . X X X X X X
X X X X X X X X X
O O O O O O O O O
. O . O . O . O .
O O O O O O O O O
"""
"""GNU Go self-play seed 43 (9×9), cut out: White's eyeless group (E8 … J7) has G9 and H7;
Black H8 J8 has H7 and J9; White H9 has G9 and J9. Black H7 or J9 puts three stones in atari
whose capture leaves White G9 as a second eye; White H7 puts the big group in atari; White
J9 gives H9 J9 to Black G9. A seki, with the lone H9 living by it."""


SEKI_FROM_A_GAME = """
    .X.XXX.X.
    OXXX.XXXX
    .XX.XXOXO
    XXXXOXOOO
    OXOXOOOOX
    OOOOOOXXX
    OOOOOXXOX
    OO.OXXOOX
    .OOOX.OO.
"""
"""Move 86 of a 9×9 game against Pachi 12.90, Black (miai) to move: Black's eleven stones in
the lower right and White's five inside them share their last two liberties, F1 and J1, a
seki. Whoever fills one is captured, so neither does, and White wins the count (by 4.5 as
the board stands, Chinese rules, komi 7.5). miai counted it won and lost."""


ONE_EYE_SEKI_FROM_A_GAME = """
    O.OOOOOXO
    .OOOXOO.O
    OOOXXO.OO
    OXXXOOOXX
    XX.XOOOX.
    XXXXOXX.X
    .OXOOX.X.
    OOOXOXXOO
    .OXXXXX..
"""
"""Move 80 of a 9×9 game against Pachi 12.90, Black (miai) to move. White's five stones in the
lower left (B3, A2–C2, B1) have an eye at A1; Black's eleven beside them, an eye at C5; both
share A3, a seki of one eye each. Filling A3 leaves six White stones in a rabbity six, a dead
shape, yet their capture kills nothing, for Black keeps C5. White wins the count (by 9.5,
Chinese rules, komi 7.5). miai read it as won, 0.96 or more, to the end."""

LARGE_SEKI_FROM_A_GAME = """
    .X.X.XXX.XOOO.OO.OO
    X.X.XXXXXXXOOOOOOOO
    XXXXXX.XXXOOOOOOXOX
    XXXOOXXXOOOOOXOXXXX
    .XXOOXOOXXXXXXXXX.X
    XXOO.OOOOXXXXX.XXXX
    OOOOOOO.OXOXXXXX.XX
    .OOO.OOOOOOXX.X.XOX
    OOO.OOOOOOOOXXOXXOO
    XOOOO.OOOOXOOOOOO.O
    XOXOOOOOOXXXXO.OOOO
    XXXXXXOOOOXXXXOOOOO
    XOXX.XXXXOXXXXXOOO.
    OOOXXX.OOXX.XOO.OOO
    .OOXXOOOXXXXXOOOOO.
    O.OXXXXOXXX.XXXOOOO
    OOOXXX.XOXXXXXXXOXO
    OOOOXXXXOXOOOOOOXXX
    OOOOOOOXOOOO.O.X.X.
"""
"""Move 400 of a 19×19 game against Pachi 12.90 (p19n-a game 16), Black (miai) to move.
White's thirteen stones along the bottom (J1–Q2) have an eye at N1 and share P1 with Black's
stones in the corner; once Black connects at R1 (:data:`LARGE_SEKI_CONTINUATION`), Black's
seven corner stones have an eye at T1 and share P1 too. Whoever fills P1 puts a large group
in atari and loses it: a seki, and with it White wins the count. miai read the game as won
to the end, filled P1 itself and lost."""

LARGE_SEKI_CONTINUATION = "G6 T7 F5 Q6 H4 S10 R1 D11 H6 T5 H5 A12".split()
"""The game's next twelve moves from :data:`LARGE_SEKI_FROM_A_GAME`, Black first: after them
Black's only move that fills no eye of its own is P1."""
