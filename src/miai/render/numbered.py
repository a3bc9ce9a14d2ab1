"""Diagrams of record: a range of a game's moves drawn as a numbered figure, as Go books print games.

Each stone of the range carries the number of the move that placed it; the stones that stood
before the range are drawn plain. A move on a point that already holds a number of the figure
(a ko retaken, a stone played where a numbered stone was captured) cannot be drawn there: it is
listed below the board, ``12 at 7``; a pass of the range is listed too, ``17: pass``. A numbered
stone that is captured keeps its place and number (the figure shows every move, not the
position at its end); a plain stone that is captured gives its point to the first numbered stone
played there. That is the convention of printed figures and of sgf2dg (only a numbered stone
blocks a point). Books often start each figure at 1: ``first_number`` says which number the
first move of the range carries (by default its real number).

A figure starts from the position before its first move (moves 1 and 2 drawn plain here),
and books restart the numbers in each figure:

>>> from miai.game import Game
>>> game = Game(5)
>>> for vertex in "C3 C4 D4 B3 D3 B2 C2 pass".split():
...     _ = game.play(vertex)
>>> figure = move_diagram(game, 3, 8, first_number=1)
>>> print(figure.text())
   A  B  C  D  E
5  .  .  .  .  .  5
4  .  .  O  1  .  4
3  .  2  X  3  .  3
2  .  4  5  .  .  2
1  .  .  .  .  .  1
   A  B  C  D  E
Black: odd numbers, White: even.
6: pass

A ko fight: Black takes at C3 (1), White takes back at B3 (2); after an exchange of ko
threats Black retakes on the point of 1, and White on the point of 2:

>>> game = Game(5)
>>> for vertex in "B4 C4 A3 D3 B2 C2 C3 B3 E1 E2 C3 A1 B1 B3".split():
...     _ = game.play(vertex)
>>> print(move_diagram(game, 7, first_number=1, coordinates=False).text())
 .  .  .  .  .
 .  X  O  .  .
 X  2  1  O  .
 .  X  O  .  4
 6  7  .  .  3
Black: odd numbers, White: even.
5 at 1
8 at 2

:meth:`MoveDiagram.svg` draws the same figure as an SVG document.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape

from miai.board import Board
from miai.coords import GTP_COLUMNS, Color, Move, Point
from miai.errors import ArgumentError
from miai.game import Game, Setup
from miai.handicap import star_points
from miai.render.text import BLACK, EMPTY, STAR, WHITE

__all__ = ["AtNote", "MoveDiagram", "MoveRange", "NumberedStone", "PassNote", "move_diagram"]


@dataclass(frozen=True, slots=True)
class MoveRange:
    """Moves ``first`` to ``last`` of a game, both included, counted from 1 (passes count)."""

    first: int
    last: int

    @classmethod
    def parse(cls, text: str, moves: int) -> MoveRange:
        """Read ``"1-50"``, ``"51-"`` (to the end) or ``"7"`` (one move) for a game of ``moves``
        moves; raises :class:`ArgumentError` for other text and for a range outside the game.

        >>> MoveRange.parse("51-", 80), MoveRange.parse(" 3 - 9 ", 80)
        (MoveRange(first=51, last=80), MoveRange(first=3, last=9))
        """
        match = re.fullmatch(r"\s*(\d+)\s*(?:(-)\s*(\d*)\s*)?", text)
        if not match:
            raise ArgumentError(f"not a range of moves: {text!r} (expected FIRST-LAST, e.g. 1-50, or FIRST- or one number)")
        first = int(match.group(1))
        last = int(match.group(3)) if match.group(3) else moves if match.group(2) else first
        return cls.within(first, last, moves)

    @classmethod
    def within(cls, first: int, last: int, moves: int) -> MoveRange:
        """The range, checked against a game of ``moves`` moves."""
        if moves == 0:
            raise ArgumentError("the game has no moves to draw")
        if not 1 <= first <= last:
            raise ArgumentError(f"moves {first}-{last}: the first move must be at least 1 and not after the last")
        if last > moves:
            raise ArgumentError(f"moves {first}-{last}: the game has only {moves} moves (passes included)")
        return cls(first, last)


@dataclass(frozen=True, slots=True)
class NumberedStone:
    """A stone of the figure drawn with its number: ``number`` as printed, ``move`` the real one."""

    point: Point
    color: Color
    number: int
    move: int


@dataclass(frozen=True, slots=True)
class AtNote:
    """A move played on a point that already holds a number of the figure: ``12 at 7``."""

    point: Point
    color: Color
    number: int
    at: int
    move: int

    def __str__(self) -> str:
        return f"{self.number} at {self.at}"


@dataclass(frozen=True, slots=True)
class PassNote:
    """A pass within the figure's range: ``17: pass``."""

    color: Color
    number: int
    move: int

    def __str__(self) -> str:
        return f"{self.number}: pass"


Note = AtNote | PassNote


@dataclass(frozen=True)
class MoveDiagram:
    """A numbered figure of moves ``moves.first``..``moves.last`` of a game (see the module).

    ``plain`` are the stones drawn without a number (on the board before the range, or put
    there by a setup edit within it); ``numbered`` the stones drawn with one; ``notes`` the
    moves that could not be drawn (``at`` notes and passes), in the order they were played.
    """

    size: int
    moves: MoveRange
    first_number: int
    plain: Mapping[Point, Color]
    numbered: Mapping[Point, NumberedStone]
    notes: tuple[Note, ...]
    coordinates: bool = True

    @property
    def last_number(self) -> int:
        return self.first_number + self.moves.last - self.moves.first

    def colors(self) -> dict[Color, list[int]]:
        """The printed numbers of each colour's moves (stones, notes and passes), in order."""
        by_color: dict[Color, list[int]] = {Color.BLACK: [], Color.WHITE: []}
        items: list[NumberedStone | Note] = [*self.numbered.values(), *self.notes]
        for item in sorted(items, key=lambda item: item.move):
            by_color[item.color].append(item.number)
        return by_color

    def odd_color(self) -> Color | None:
        """The colour of the odd numbers when the colours alternate (the other has the even
        ones), else None (the legend lists every number)."""
        colors = self.colors()
        parities = {color: {n % 2 for n in numbers} for color, numbers in colors.items()}
        if all(len(p) <= 1 for p in parities.values()) and not parities[Color.BLACK] & parities[Color.WHITE]:
            return Color.BLACK if parities[Color.BLACK] == {1} or parities[Color.WHITE] == {0} else Color.WHITE
        return None

    def legend(self) -> str:
        """Whose move each number is, for the text figure (where stones have no colour):
        ``Black: odd numbers, White: even.`` when the colours alternate, else every number
        listed (``Black: 1, 2, 4. White: 3.``)."""
        colors = self.colors()
        odd = self.odd_color()
        if odd is not None:
            return f"{str(odd).capitalize()}: odd numbers, {str(odd.opponent).capitalize()}: even."
        parts = []
        for color, numbers in colors.items():
            if numbers:
                parts.append(f"{str(color).capitalize()}: {', '.join(map(str, numbers))}.")
        return " ".join(parts)

    # ------------------------------------------------------------------ text
    def text(self) -> str:
        """The figure as fixed-width text: :meth:`board_text`, then the legend and the notes
        (in English), one a line."""
        return "\n".join([self.board_text(), self.legend(), *(str(note) for note in self.notes)])

    def board_text(self) -> str:
        """The board of the figure as fixed-width text: numbers right-aligned in cells of 2 or 3
        characters, ``X``/``O`` for the plain stones, ``+`` for empty star points, GTP
        coordinates (no I) unless turned off. A translated figure puts its own legend under it."""
        width = max(2, len(str(self.last_number)))
        stars = star_points(self.size)
        label = len(str(self.size))
        lines = []
        letters = " ".join(c.rjust(width) for c in GTP_COLUMNS[: self.size])
        if self.coordinates:
            lines.append(" " * (label + 1) + letters)
        for row in range(self.size - 1, -1, -1):
            cells = []
            for col in range(self.size):
                point = (row, col)
                if point in self.numbered:
                    cell = str(self.numbered[point].number)
                elif point in self.plain:
                    cell = BLACK if self.plain[point] is Color.BLACK else WHITE
                else:
                    cell = STAR if point in stars else EMPTY
                cells.append(cell.rjust(width))
            body = " ".join(cells)
            if self.coordinates:
                body = f"{str(row + 1).rjust(label)} {body}  {row + 1}"
            lines.append(body.rstrip())
        if self.coordinates:
            lines.append(" " * (label + 1) + letters)
        return "\n".join(lines)

    # ------------------------------------------------------------------- SVG
    def svg(self, *, unit: int = 30) -> str:
        """The figure as a self-contained SVG document (no external font or style): the board,
        lines, star points, coordinates, stones, numbers centred on their stones in the
        contrasting colour, and the notes under the board as small numbered stones
        (``(12) at (7)``, ``(17) pass``)."""
        return _Svg(self, unit).document()


def _history_moves(game: Game) -> list[tuple[int, Move | Setup]]:
    """The game's moves and setup edits, each with the number of the moves played up to and
    including it (a setup shares the number of the move before it)."""
    out: list[tuple[int, Move | Setup]] = []
    number = 0
    for entry in game.history:
        if isinstance(entry, Move):
            number += 1
            out.append((number, entry))
        elif isinstance(entry, Setup):
            out.append((number, entry))
    return out


def move_diagram(
    game: Game,
    first: int = 1,
    last: int | None = None,
    *,
    first_number: int | None = None,
    coordinates: bool = True,
) -> MoveDiagram:
    """The numbered figure of moves ``first`` to ``last`` (default: to the end) of ``game``.

    Moves are counted from 1 with passes included, as SGF move numbers are. ``first_number``
    is the number printed on move ``first`` (default ``first``: the real numbers). Raises
    :class:`ArgumentError` for a range outside the game or a first number below 1. The
    position before the range is replayed with the core's captures (:meth:`Board.place`).
    """
    entries = _history_moves(game)
    total = sum(1 for _, e in entries if isinstance(e, Move))
    moves = MoveRange.within(first, total if last is None else last, total)
    shown_first = moves.first if first_number is None else first_number
    if shown_first < 1:
        raise ArgumentError(f"the first number must be at least 1, not {shown_first}")
    board = Board(game.size)
    for p in game.handicap_points:
        board.set(p, Color.BLACK)
    plain: dict[Point, Color] = {}
    numbered: dict[Point, NumberedStone] = {}
    notes: list[Note] = []
    started = False
    for number, entry in entries:
        if isinstance(entry, Move):
            if number > moves.last:
                break
            if number == moves.first:
                started = True
                plain = {p: c for p in board if (c := board[p]) is not None}
        elif number >= moves.last:
            break  # a setup edit after the range's last move
        if not started:
            if isinstance(entry, Setup):
                entry.apply_to(board)
            elif entry.point is None:
                board.clear_ko()
            else:
                board.place(entry.point, entry.color)
            continue
        if isinstance(entry, Setup):
            # Stones put on the board within the range are drawn plain where no number stands.
            for color, points in ((Color.BLACK, entry.black), (Color.WHITE, entry.white)):
                for p in points:
                    if p not in numbered:
                        plain[p] = color
            continue
        shown = number - moves.first + shown_first
        if entry.point is None:
            notes.append(PassNote(entry.color, shown, number))
        elif entry.point in numbered:
            notes.append(AtNote(entry.point, entry.color, shown, numbered[entry.point].number, number))
        else:
            plain.pop(entry.point, None)
            numbered[entry.point] = NumberedStone(entry.point, entry.color, shown, number)
    return MoveDiagram(game.size, moves, shown_first, plain, numbered, tuple(notes), coordinates)


# ====================================================================== SVG
BOARD_COLOR = "#dcb35c"
LINE_COLOR = "#000000"
COORD_COLOR = "#3a2a10"
FONT = "Helvetica, Arial, sans-serif"


class _Svg:
    """Lays out one figure: board coordinates in units of the grid spacing ``unit`` (pixels)."""

    def __init__(self, figure: MoveDiagram, unit: int):
        if unit < 8:
            raise ArgumentError(f"the grid unit must be at least 8 pixels, not {unit}")
        self.f = figure
        self.u = unit
        self.margin = unit * (1.3 if figure.coordinates else 0.7)
        self.board_px = (figure.size - 1) * unit + 2 * self.margin
        self.digits = max(2, len(str(figure.last_number)))
        self.note_w = unit * 3.9
        per_line = max(1, int((self.board_px - unit * 0.4) // self.note_w))
        self.note_lines = [figure.notes[i : i + per_line] for i in range(0, len(figure.notes), per_line)]
        self.height = self.board_px + (len(self.note_lines) * unit * 1.1 + unit * 0.5 if self.note_lines else 0)

    def xy(self, point: Point) -> tuple[float, float]:
        """The centre of ``point`` (row 0 at the bottom, as GTP counts)."""
        row, col = point
        return self.margin + col * self.u, self.margin + (self.f.size - 1 - row) * self.u

    def font(self, number: int, radius: float) -> float:
        """A size at which ``number`` fits inside a stone of ``radius`` (up to 4 digits)."""
        digits = len(str(number))
        return round(radius * (1.15, 1.05, 0.82, 0.62)[min(digits, 4) - 1], 2)

    def stone(self, x: float, y: float, radius: float, color: Color, number: int | None, cls: str) -> list[str]:
        fill, ink = ("#000000", "#ffffff") if color is Color.BLACK else ("#ffffff", "#000000")
        out = [
            f'<circle class="{cls} {color}" cx="{_n(x)}" cy="{_n(y)}" r="{_n(radius)}" fill="{fill}" '
            f'stroke="#000000" stroke-width="{_n(max(1.0, self.u / 30))}"/>'
        ]
        if number is not None:
            out.append(
                f'<text class="number {color}" x="{_n(x)}" y="{_n(y)}" dy="0.36em" text-anchor="middle" '
                f'font-size="{_n(self.font(number, radius))}" fill="{ink}">{number}</text>'
            )
        return out

    def document(self) -> str:
        f, u = self.f, self.u
        w, h = _n(self.board_px), _n(self.height)
        lo, hi = self.margin, self.margin + (f.size - 1) * u
        out = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
            f'font-family="{FONT}">',
            f"<title>{escape(self.title())}</title>",
            f'<rect width="{w}" height="{h}" fill="#ffffff"/>',
            f'<rect class="board" x="0" y="0" width="{w}" height="{_n(self.board_px)}" fill="{BOARD_COLOR}"/>',
        ]
        line = max(1.0, u / 30)
        for i in range(f.size):
            at = self.margin + i * u
            out.append(f'<line x1="{_n(lo)}" y1="{_n(at)}" x2="{_n(hi)}" y2="{_n(at)}" stroke="{LINE_COLOR}" stroke-width="{_n(line)}"/>')
            out.append(f'<line x1="{_n(at)}" y1="{_n(lo)}" x2="{_n(at)}" y2="{_n(hi)}" stroke="{LINE_COLOR}" stroke-width="{_n(line)}"/>')
        for p in sorted(star_points(f.size)):
            x, y = self.xy(p)
            out.append(f'<circle class="hoshi" cx="{_n(x)}" cy="{_n(y)}" r="{_n(u * 0.11)}" fill="{LINE_COLOR}"/>')
        if f.coordinates:
            out.extend(self.coordinates())
        radius = u * 0.48
        for p, color in sorted(f.plain.items()):
            out.extend(self.stone(*self.xy(p), radius, color, None, "stone plain"))
        for p, s in sorted(f.numbered.items()):
            out.extend(self.stone(*self.xy(p), radius, s.color, s.number, "stone numbered"))
        out.extend(self.notes())
        out.append("</svg>")
        return "\n".join(out) + "\n"

    def title(self) -> str:
        f = self.f
        shown = f"{f.first_number}-{f.last_number}"
        real = f"{f.moves.first}-{f.moves.last}"
        return f"Moves {real}" + ("" if shown == real else f" (numbered {shown})")

    def coordinates(self) -> list[str]:
        f, u = self.f, self.u
        size = _n(u * 0.42)
        out = [f'<g class="coordinates" font-size="{size}" fill="{COORD_COLOR}" text-anchor="middle">']
        near, far = self.margin - u * 0.85, self.margin + (f.size - 1) * u + u * 0.85
        for col in range(f.size):
            x, _ = self.xy((0, col))
            for y in (near, far):
                out.append(f'<text x="{_n(x)}" y="{_n(y)}" dy="0.36em">{GTP_COLUMNS[col]}</text>')
        for row in range(f.size):
            _, y = self.xy((row, 0))
            for x in (near, far):
                out.append(f'<text x="{_n(x)}" y="{_n(y)}" dy="0.36em">{row + 1}</text>')
        out.append("</g>")
        return out

    def notes(self) -> list[str]:
        """The notes as book figures print them: a small numbered stone, ``at``, another."""
        if not self.note_lines:
            return []
        u = self.u
        radius = u * 0.42
        out = ['<g class="notes">']
        for i, line in enumerate(self.note_lines):
            y = self.board_px + u * 0.55 + i * u * 1.1 + radius
            x = u * 0.4 + radius
            for note in line:
                out.extend(self.stone(x, y, radius, note.color, note.number, "note-stone"))
                words = "at" if isinstance(note, AtNote) else "pass"
                out.append(
                    f'<text class="note" x="{_n(x + radius + u * 0.2)}" y="{_n(y)}" dy="0.36em" '
                    f'font-size="{_n(u * 0.45)}" fill="#000000">{words}</text>'
                )
                if isinstance(note, AtNote):
                    target = self.f.numbered[note.point]
                    out.extend(self.stone(x + radius * 2 + u * 0.95, y, radius, target.color, note.at, "note-stone"))
                x += self.note_w
        out.append("</g>")
        return out


def _n(value: float) -> str:
    """A coordinate without float noise: ``12``, ``12.5``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text if text != "-0" else "0"
