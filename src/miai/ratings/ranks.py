"""Kyu and dan ranks from ratings, OGS's way, and the handicap a gap between two calls for.

OGS's conversion since its 2021 rating adjustment (forums.online-go.com, "2021 rating and rank
adjustments"; goban's ``rank_utils.ts``: ``rating_to_rank``, ``rankString``, ``bounded_rank``):
the rank number is ``ln(rating / 525) × 23.15``, 30 being 1 dan; below 30 the rank is
``ceil(30 − r)`` kyu, from 30 on ``floor(r − 29)`` dan, shown within 25 kyu and 9 dan. A new
player's 1500 is 6 kyu.

A game between players of different ranks gives one handicap stone per rank of difference,
as OGS does: none for one rank (the weaker takes Black with a komi of 0.5), N stones for N
ranks (at most 9, and at most what the board has star points for), White playing first after
them with a komi of 0.5; the ruleset adds its own compensation when the game is counted
(:class:`miai.rules.HandicapBonus`: N points under Chinese rules, N−1 under AGA's, none under
Japanese). Players of one rank play even, with the ruleset's komi.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from miai.handicap import max_fixed_handicap

__all__ = ["Rank", "Handicap", "even_or_handicap", "rank_number", "rank_of", "rating_of", "MAX_STONES"]

_A, _C = 525.0, 23.15
LOWEST, HIGHEST = 5, 38
"""The rank numbers shown: 25 kyu and 9 dan (OGS's ``MinRank``, ``MaxRank``)."""
MAX_STONES = 9
HANDICAP_KOMI = 0.5
_TEXT = re.compile(r"([1-9]|[12][0-9]|30)\s*([kd])", re.IGNORECASE)


def rank_number(rating: float) -> float:
    """OGS's rank number of ``rating`` (30 is 1 dan, 29 is 1 kyu)."""
    return math.log(max(rating, 1.0) / _A) * _C


@dataclass(frozen=True, slots=True, order=True)
class Rank:
    """A whole rank: ``number`` 5 (25 kyu) to 38 (9 dan); its text is ``25k`` ... ``1k``,
    ``1d`` ... ``9d`` (:meth:`parse` reads it back)."""

    number: int

    def __post_init__(self) -> None:
        if not LOWEST <= self.number <= HIGHEST:
            raise ValueError(f"a rank is from 25k to 9d, not number {self.number}")

    def __str__(self) -> str:
        return f"{30 - self.number}k" if self.number < 30 else f"{self.number - 29}d"

    @classmethod
    def parse(cls, text: str) -> Rank:
        """The rank of ``3k`` or ``1d`` (ValueError for anything else)."""
        m = _TEXT.fullmatch(text.strip())
        if m is None:
            raise ValueError(f"a rank is written like 3k or 1d, not {text!r}")
        n = int(m.group(1))
        return cls(30 - n if m.group(2).lower() == "k" else 29 + n)


def rank_of(rating: float) -> Rank:
    """The rank shown for ``rating`` (within 25k and 9d)."""
    return Rank(min(HIGHEST, max(LOWEST, math.floor(rank_number(rating) + 1e-9))))


def rating_of(rank: Rank) -> float:
    """The lowest rating of ``rank``."""
    return _A * math.exp(rank.number / _C)


@dataclass(frozen=True, slots=True)
class Handicap:
    """What a game between two players is: ``stones`` (0 or 2 to 9), ``komi``, and whether
    the first player given takes Black (``first_black``; the weaker does in a handicap game)."""

    stones: int
    komi: float
    first_black: bool
    even: bool


def even_or_handicap(first: float, second: float, size: int, komi: float) -> Handicap:
    """The game between players rated ``first`` and ``second`` on a ``size`` board whose
    rules give ``komi`` for an even game (the module's docstring has the rule)."""
    gap = rank_of(first).number - rank_of(second).number
    if gap == 0:
        return Handicap(0, komi, True, True)
    stones = min(abs(gap), MAX_STONES, max_fixed_handicap(size))
    if stones < 2:
        stones = 0
    return Handicap(stones, HANDICAP_KOMI, gap < 0, False)
