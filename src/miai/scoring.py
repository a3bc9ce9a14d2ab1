"""Counting a position (docs/RULES.md §6): area or territory, with a breakdown.

:func:`count` takes a position, the rules and the agreed dead stones and returns a
:class:`Score`: per colour, what each part of the count contributes, the result (a
:class:`~miai.result.Result`, written ``B+3.5``, ``W+0.5``, ``0``) and the owner of every
point (for drawing the territory map).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from miai.board import Board
from miai.coords import Color, Point, check_point, neighbors, point_to_gtp
from miai.errors import IllegalMoveError, IllegalReason
from miai.regions import regions
from miai.result import Result
from miai.rules import Rules, Scoring

if TYPE_CHECKING:
    import numpy as np  # the board's arrays; numpy itself loads with the kernel, on the first Board()


@dataclass(frozen=True, slots=True)
class ColorScore:
    """What one colour's score is made of. Parts a ruleset does not count are 0."""

    stones: int = 0
    """Area scoring: the colour's stones left on the board."""
    territory: int = 0
    prisoners: int = 0
    """Territory scoring: opponent stones captured during play."""
    dead: int = 0
    """Territory scoring: opponent stones removed as dead at the end."""
    compensation: int = 0
    """Territory scoring: stones the colour had to play inside its own territory to capture
    dead stones after a dispute (docs/RULES.md §5.8)."""
    komi: float = 0.0
    handicap_bonus: int = 0

    @property
    def total(self) -> float:
        return self.stones + self.territory + self.prisoners + self.dead + self.compensation + self.komi + self.handicap_bonus


@dataclass(frozen=True, slots=True)
class Score:
    """A counted position: both colours' breakdowns, the winner and the point map."""

    scoring: Scoring
    black: ColorScore
    white: ColorScore
    neutral: int
    """Empty points that belong to nobody (dame, and seki points when not counted)."""
    white_wins_ties: bool = False
    dead_stones: frozenset[Point] = frozenset()
    owners: tuple[tuple[int, ...], ...] = field(default=(), repr=False)
    """Per point, row 0 at the bottom: 1 if it counts for Black, 2 for White, 0 for nobody."""

    def of(self, color: Color) -> ColorScore:
        return self.black if color is Color.BLACK else self.white

    @property
    def margin(self) -> float:
        """Black's total minus White's."""
        return self.black.total - self.white.total

    @property
    def winner(self) -> Color | None:
        if self.margin > 0:
            return Color.BLACK
        if self.margin < 0:
            return Color.WHITE
        return Color.WHITE if self.white_wins_ties else None

    @property
    def result(self) -> Result:
        """The counted result: ``str()`` gives SGF's ``RE`` (``B+3.5``, ``W+1``, ``0`` for a
        draw; a tie won by White under a tie rule is ``W+0``)."""
        return Result.by_score(self.margin, white_wins_ties=self.white_wins_ties)

    def breakdown(self) -> str:
        """A small table of every part of the count, as shown to players."""
        rows: list[tuple[str, str, str]] = []

        def add(label: str, b: float, w: float, always: bool = False) -> None:
            if always or b or w:
                rows.append((label, f"{b:g}", f"{w:g}"))

        if self.scoring is Scoring.AREA:
            add("stones", self.black.stones, self.white.stones, True)
            add("territory", self.black.territory, self.white.territory, True)
        else:
            add("territory", self.black.territory, self.white.territory, True)
            add("prisoners", self.black.prisoners, self.white.prisoners, True)
            add("dead stones", self.black.dead, self.white.dead, True)
            add("compensation", self.black.compensation, self.white.compensation)
        add("komi", self.black.komi, self.white.komi, True)
        add("handicap bonus", self.black.handicap_bonus, self.white.handicap_bonus)
        rows.append(("total", f"{self.black.total:g}", f"{self.white.total:g}"))
        width = max(len(r[0]) for r in rows)
        lines = [f"{'':{width}}  {'Black':>7}  {'White':>7}"]
        lines += [f"{label:{width}}  {b:>7}  {w:>7}" for label, b, w in rows]
        lines.append(f"{self.scoring.value} scoring, {self.neutral} neutral point{'s' if self.neutral != 1 else ''}")
        lines.append(f"result: {self.result}" + (" (White wins ties)" if self.margin == 0 and self.white_wins_ties else ""))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.breakdown()


def count(
    board: Board,
    rules: Rules,
    *,
    dead: Iterable[Point] = (),
    seki: Iterable[Point] = (),
    prisoners: tuple[int, int] | None = None,
    handicap: int = 0,
    compensation: tuple[int, int] = (0, 0),
) -> Score:
    """Count ``board`` under ``rules`` with the stones on ``dead`` removed.

    ``seki`` lists stones known to live in seki: when ``rules.seki_points`` is false (Japanese,
    Korean) the empty points of any region they border count for nobody. ``prisoners``
    defaults to the captures recorded on the board (Black's, White's). ``handicap`` is the
    number of handicap stones (for White's bonus); ``compensation`` the §5.8 points of
    (Black, White). An empty point among ``dead`` raises :class:`IllegalMoveError`
    (``NOT_A_STONE``), as marking it in the game does.
    """
    size = board.size
    dead_set = frozenset(check_point(p, size) for p in dead)
    for p in sorted(dead_set):
        if board[p] is None:
            raise IllegalMoveError(IllegalReason.NOT_A_STONE, f"{point_to_gtp(p)} is empty: only stones can be marked dead")
    seki_set = frozenset(check_point(p, size) for p in seki)
    if prisoners is None:
        prisoners = (board.captures(Color.BLACK), board.captures(Color.WHITE))

    dead_of = {c: sum(1 for p in dead_set if board[p] is c) for c in (Color.BLACK, Color.WHITE)}
    counted = board.without(dead_set)
    owners = counted.owners()
    colours = counted.as_array()

    if not rules.seki_points and seki_set:
        _neutralise_seki_regions(colours, owners, seki_set)

    empty = colours == 0
    territory = {c: int((empty & (owners == c)).sum()) for c in (1, 2)}
    stones = {c: int((colours == c).sum()) for c in (1, 2)}
    neutral = int((empty & (owners == 0)).sum())

    bonus = rules.handicap_bonus.points(handicap)
    if rules.scoring is Scoring.AREA:
        black = ColorScore(stones=stones[1], territory=territory[1])
        white = ColorScore(stones=stones[2], territory=territory[2], komi=rules.komi, handicap_bonus=bonus)
    else:
        black = ColorScore(
            territory=territory[1], prisoners=prisoners[0], dead=dead_of[Color.WHITE], compensation=compensation[0]
        )
        white = ColorScore(
            territory=territory[2],
            prisoners=prisoners[1],
            dead=dead_of[Color.BLACK],
            compensation=compensation[1],
            komi=rules.komi,
            handicap_bonus=bonus,
        )
    return Score(
        scoring=rules.scoring,
        black=black,
        white=white,
        neutral=neutral,
        white_wins_ties=rules.white_wins_ties,
        dead_stones=dead_set,
        owners=tuple(tuple(int(v) for v in row) for row in owners),
    )


def _neutralise_seki_regions(colours: np.ndarray, owners: np.ndarray, seki: frozenset[Point]) -> None:
    """Make every empty region that borders a seki stone count for nobody."""
    size = colours.shape[0]
    empty = (colours == 0).nonzero()
    for region in regions(zip(empty[0].tolist(), empty[1].tolist()), size):
        if any(q in seki and colours[q] != 0 for p in region for q in neighbors(p, size)):
            for p in region:
                owners[p] = 0
