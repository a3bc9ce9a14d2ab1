"""The result of a game as a value: who won, how the game ended, and by how much.

python-chess's ``Outcome(termination, winner)`` is the model. Everything that reports or
reads a result (the game, the count, the referee, the terminal, GTP, SGF, the server) holds
a :class:`Result` and reads its fields; its text form is SGF's ``RE`` value and
round-trips:

>>> r = Result.parse("W+6.5")
>>> r.winner, r.by, r.margin
(<Color.WHITE: 2>, <Termination.SCORE: 'score'>, 6.5)
>>> str(Result.resignation(Color.WHITE))  # White resigned
'B+R'
>>> str(Result.parse("0")), Result.parse("0").winner is None
('0', True)

:meth:`Result.read` is the lenient reader for records written by other programs (server
words, Chinese, Japanese and Korean results, NGF and GIB lines); it keeps what it cannot
read fully verbatim, so a record's own result is never lost:

>>> str(Result.read("白认输")), str(Result.read("Black wins by 3.5 points"))
('B+R', 'B+3.5')
>>> Result.read("B+V").winner, str(Result.read("B+V"))
(<Color.BLACK: 1>, 'B+V')
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import Enum

from miai.coords import Color
from miai.errors import ResultError

__all__ = ["EndReason", "Result", "Termination"]


class Termination(str, Enum):
    """How a game ended."""

    SCORE = "score"
    """Counted: ``margin`` is the difference (0 with no winner is a draw by count, jigo)."""
    RESIGNATION = "resignation"
    TIME = "time"
    """A player's clock ran out."""
    FORFEIT = "forfeit"
    """Lost for another reason: an illegal move by a program, a crash, a rule breach."""
    VOID = "void"
    """No result (a long cycle under rules that void such a game, a cancelled game)."""
    DRAW = "draw"
    """A draw not reached by counting (agreement, a tournament's decision)."""
    UNKNOWN = "unknown"
    """The winner may be known but not how (``B+``), or the result text was not understood."""


class EndReason(str, Enum):
    """Why a game ended: finer than the result's :class:`Termination` (three ways of counting,
    a void by repetition, a seat claimed from a player who had gone), and what an app shows
    the players (:attr:`miai.game.Game.end_reason`). The value is the text form
    (``EndReason("agreement")``, :meth:`parse`); :meth:`describe` says it in English words.
    A referee's finer reasons (which way an engine failed) are
    :class:`miai.match.results.Reason`."""

    RESIGNATION = "resignation"
    TIME = "time"
    """A player's clock ran out."""
    AGREEMENT = "agreement"
    """Both players passed and agreed on the dead stones (docs/RULES.md §5.4)."""
    PASSES = "passes"
    """Both players passed under rules that count the stones as they stand."""
    ALL_ALIVE = "all-alive"
    """A dispute, then both players passed at once: all stones count as alive (§5.6)."""
    REPETITION = "repetition"
    """Void: the same position stood for the third time with the same player to move."""
    ABANDONED = "abandoned"
    """A seat claimed the game of an opponent who had gone (a forfeit, or void before the
    second move)."""
    FORFEIT = "forfeit"
    """A player forfeited for breaking a rule outside play (a referee's ruling)."""
    RECORD = "record"
    """The result a game record gives."""
    GIVEN = "given"
    """A result decided elsewhere (an arbiter, a referee's move cap)."""

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: str) -> EndReason:
        """Read the text form (``str()``); raises :class:`~miai.errors.ResultError` on anything else."""
        try:
            return cls(text)
        except ValueError:
            words = ", ".join(r.value for r in cls)
            raise ResultError(f"not a reason for the end of a game: {text[:40]!r} (expected one of {words})") from None

    def describe(self, loser: Color | None = None) -> str:
        """The reason in English words for the players; ``loser`` names who resigned or ran out
        of time."""
        if self in (EndReason.RESIGNATION, EndReason.TIME) and loser is not None:
            return f"{loser} resigned" if self is EndReason.RESIGNATION else f"{loser} ran out of time"
        return _WORDS[self]


_WORDS = {
    EndReason.RESIGNATION: "a player resigned",
    EndReason.TIME: "a player ran out of time",
    EndReason.AGREEMENT: "both players passed and agreed on the dead stones",
    EndReason.PASSES: "both players passed; stones count as they stand",
    EndReason.ALL_ALIVE: (
        "the players did not agree on the dead stones and both passed at once when play resumed; "
        "all stones count as alive"
    ),
    EndReason.REPETITION: (
        "no result: the same position occurred for the third time with the same player to move "
        "(a long cycle such as a triple ko)"
    ),
    EndReason.ABANDONED: "abandoned",
    EndReason.FORFEIT: "a player forfeited",
    EndReason.RECORD: "result given in the record",
    EndReason.GIVEN: "result given",
}


_LETTER = {Termination.RESIGNATION: "R", Termination.TIME: "T", Termination.FORFEIT: "F"}
_BY_LETTER = {v: k for k, v in _LETTER.items()}
_MAX_MARGIN = 10_000.0
"""No board has more points than this (25×25 plus any komi miai accepts)."""


@dataclass(frozen=True, slots=True)
class Result:
    """The result of a game. ``str()`` gives SGF's ``RE`` text; :meth:`parse` reads it back.

    ``winner`` is None for a draw, a void game and an unknown result. ``margin`` is the
    winner's lead in points for a counted game (None otherwise). ``text`` holds a record's
    own words when they say more than the fields can (``B+V``, free text no reader
    understands); it is then what ``str()`` writes, so the record's result survives a
    load and a save.
    """

    winner: Color | None
    by: Termination
    margin: float | None = None
    text: str | None = None

    def __post_init__(self) -> None:
        if self.margin is not None:
            if self.by is not Termination.SCORE:
                raise ResultError(f"a game ended by {self.by.value} has no margin")
            if not math.isfinite(self.margin) or not 0 <= self.margin <= _MAX_MARGIN:
                raise ResultError(f"a margin must be a number of points from 0 to {_MAX_MARGIN:g}, not {self.margin}")
            if self.margin == 0 and self.winner is Color.BLACK:
                raise ResultError("a tie can be won only by White (white_wins_ties)")
            if self.margin > 0 and self.winner is None:
                raise ResultError("a counted game with a margin has a winner")
        elif self.by is Termination.SCORE:
            raise ResultError("a counted result needs a margin")
        if self.by in (Termination.VOID, Termination.DRAW) and self.winner is not None:
            raise ResultError(f"a {self.by.value} result has no winner")
        if self.by in _LETTER and self.winner is None:
            raise ResultError(f"a game ended by {self.by.value} has a winner")

    # ------------------------------------------------------------------ constructors
    @classmethod
    def by_score(cls, margin: float, *, white_wins_ties: bool = False) -> Result:
        """A counted result from Black's total minus White's (negative: White leads)."""
        if margin > 0:
            return cls(Color.BLACK, Termination.SCORE, float(margin))
        if margin < 0:
            return cls(Color.WHITE, Termination.SCORE, float(-margin))
        return cls(Color.WHITE if white_wins_ties else None, Termination.SCORE, 0.0)

    @classmethod
    def resignation(cls, loser: Color) -> Result:
        return cls(loser.opponent, Termination.RESIGNATION)

    @classmethod
    def time(cls, loser: Color) -> Result:
        return cls(loser.opponent, Termination.TIME)

    @classmethod
    def forfeit(cls, loser: Color) -> Result:
        return cls(loser.opponent, Termination.FORFEIT)

    @classmethod
    def void(cls) -> Result:
        return cls(None, Termination.VOID)

    @classmethod
    def draw(cls) -> Result:
        return cls(None, Termination.DRAW)

    # ------------------------------------------------------------------ reading
    @property
    def loser(self) -> Color | None:
        return self.winner.opponent if self.winner is not None else None

    @property
    def is_draw(self) -> bool:
        """A draw by count (jigo) or by decision."""
        return self.winner is None and self.by in (Termination.SCORE, Termination.DRAW)

    def signed_margin(self) -> float | None:
        """Black's lead in points (negative when White leads), for a counted game."""
        if self.margin is None:
            return None
        return -self.margin if self.winner is Color.WHITE else self.margin

    def __str__(self) -> str:
        if self.text is not None:
            return self.text
        if self.by is Termination.VOID:
            return "Void"
        if self.by is Termination.DRAW:
            return "Draw"
        if self.winner is None:
            return "0" if self.by is Termination.SCORE else "?"
        if self.by is Termination.SCORE:
            return f"{self.winner.letter}+{self.margin:g}"
        return f"{self.winner.letter}+{_LETTER.get(self.by, '')}"

    def describe(self) -> str:
        """The result in words: ``White wins by 6.5 points.``, ``Black wins by resignation.``"""
        if self.by is Termination.VOID:
            return "No result."
        if self.is_draw:
            return "Draw (jigo)." if self.by is Termination.SCORE else "Draw."
        if self.winner is None:
            return f"Result: {self.text}." if self.text else "Result unknown."
        who = self.winner.name.capitalize()
        if self.by is Termination.SCORE:
            if self.margin == 0:
                return f"{who} wins the tie (tie rule)."
            return f"{who} wins by {self.margin:g} point{'s' if self.margin != 1 else ''}."
        if self.by is Termination.TIME:
            return f"{who} wins on time."
        if self.by is Termination.UNKNOWN:
            return f"{who} wins." + (f" ({self.text})" if self.text else "")
        return f"{who} wins by {self.by.value}."

    # ------------------------------------------------------------------ parsing
    @classmethod
    def parse(cls, text: str) -> Result:
        """Read SGF's canonical ``RE`` forms (``B+3.5``, ``W+R``, ``B+T``, ``W+F``, ``B+``,
        ``0``, ``Draw``, ``Void``, ``?``): the inverse of ``str()``. Raises
        :class:`~miai.errors.ResultError` on anything else; records use :meth:`read`."""
        t = text.strip()
        if len(t) > 40:
            raise ResultError(f"not a result: {t[:40]!r}... (too long)")
        if t in ("0", "0.0"):
            return cls.by_score(0)
        if t == "Draw":
            return cls.draw()
        if t == "Void":
            return cls.void()
        if t == "?":
            return cls(None, Termination.UNKNOWN)
        m = re.fullmatch(r"([BW])\+(R|T|F|[0-9]+(?:\.[0-9]+)?)?", t)
        if not m:
            raise ResultError(f"not a result: {t!r} (expected B+3.5, W+R, B+T, W+F, 0, Draw, Void or ?)")
        winner = Color.BLACK if m.group(1) == "B" else Color.WHITE
        how = m.group(2)
        if how is None:
            return cls(winner, Termination.UNKNOWN)
        if how in _BY_LETTER:
            return cls(winner, _BY_LETTER[how])
        return cls(winner, Termination.SCORE, float(how))

    @classmethod
    def read(cls, text: str) -> Result | None:
        """Read a result as other programs write it; None when the text says the result is
        unknown (empty, ``?``, "unfinished"). What cannot be read fully is kept verbatim in
        ``text`` (with the winner when that much is clear)."""
        t = " ".join(text.split())[:200]
        if not t:
            return None
        r: Result | None
        try:
            r = cls.parse(t)
        except ResultError:
            r = _read_words(t)
        if r is not None:
            return r if r.by is not Termination.UNKNOWN or r.winner is not None else None
        winner = _winner_only(t)
        return cls(winner, Termination.UNKNOWN, text=t)


# ---------------------------------------------------------------------- lenient reading
_BLACK_WORDS = ("黒", "黑", "흑")
_WHITE_WORDS = ("白", "백")
_RESIGN_WORDS = ("中押", "中盘", "中盤", "불계", "认输", "認輸", "投了")
_TIME_WORDS = ("時間", "时间", "시간", "超时", "超時")
_UNKNOWN = ("?", "unknown", "unfinished", "none")
_DRAWS = ("draw", "jigo", "d", "d+j", "d+", "持碁", "和棋", "和局", "무승부")
_VOIDS = ("void", "no result", "无胜负", "無勝負")


def _margin(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) and 0 <= value <= _MAX_MARGIN else None


def _score(winner: Color, margin: float) -> Result:
    return Result(winner, Termination.SCORE, margin) if margin else Result.by_score(0)


def _read_words(t: str) -> Result | None:
    """A result in a server's or a person's words, or None when not understood."""
    low = t.lower()
    if low in _UNKNOWN:
        return Result(None, Termination.UNKNOWN)
    if low in _DRAWS:
        return Result.by_score(0) if low in ("jigo", "持碁") else Result.draw()
    if low in _VOIDS:
        return Result.void()
    m = re.fullmatch(r"([bw])\s*\+\s*(.*)", low)
    if m:
        winner = Color.BLACK if m.group(1) == "b" else Color.WHITE
        how = m.group(2).strip()
        if how in ("r", "res", "resign", "resignation"):
            return Result.resignation(winner.opponent)
        if how in ("t", "time"):
            return Result.time(winner.opponent)
        if how in ("f", "forfeit"):
            return Result.forfeit(winner.opponent)
        if how == "":
            return Result(winner, Termination.UNKNOWN)
        margin = _margin(how)
        return _score(winner, margin) if margin is not None else None
    # English words: "White resigns", "black wins by time", NGF's "White wins by 3.5 points"
    m = re.match(r"(white|black)\s+(resigns|resigned|loses|lost|lose)\b(.*)", low)
    if m:
        loser = Color.WHITE if m.group(1) == "white" else Color.BLACK
        rest = m.group(3)
        if "time" in rest:
            return Result.time(loser)
        if "resign" in m.group(2) or "resign" in rest:
            return Result.resignation(loser)
        return _after_winner(loser.opponent, rest)
    m = re.match(r"(white|black)\s+(wins|won|win)\b(.*)", low)
    if m:
        return _after_winner(Color.WHITE if m.group(1) == "white" else Color.BLACK, m.group(3))
    black = any(w in t for w in _BLACK_WORDS)
    white = any(w in t for w in _WHITE_WORDS)
    if black != white:
        named = Color.BLACK if black else Color.WHITE
        if "认输" in t or "認輸" in t or "投了" in t:
            return Result.resignation(named)  # "白认输": White resigns
        if any(w in t for w in _RESIGN_WORDS):
            return Result.resignation(named.opponent)
        if any(w in t for w in _TIME_WORDS):
            return Result.time(named.opponent)
        m = re.search(r"(\d+(?:\.\d+)?)\s*(目|子|집)\s*(半|반)?", t)
        if m:
            margin = _margin(m.group(1))
            if margin is not None:
                return _score(named, margin + (0.5 if m.group(3) else 0))
        if any(w in t for w in ("胜", "勝", "승")):
            return Result(named, Termination.UNKNOWN)
    return None


def _after_winner(winner: Color, rest: str) -> Result:
    if "resign" in rest:
        return Result.resignation(winner.opponent)
    if "time" in rest:
        return Result.time(winner.opponent)
    if "forfeit" in rest:
        return Result.forfeit(winner.opponent)
    num = re.search(r"\d+(?:\.\d+)?", rest)
    margin = _margin(num.group()) if num else None
    return _score(winner, margin) if margin is not None else Result(winner, Termination.UNKNOWN)


def _winner_only(t: str) -> Color | None:
    """The winner of a result that is otherwise not understood (``B+V``), if clear."""
    m = re.match(r"\s*([BbWw])\s*\+", t)
    if m:
        return Color.BLACK if m.group(1) in "Bb" else Color.WHITE
    return None
