"""Typed values of SGF properties: points and point lists, numbers, komi, rules.

The layer between the grammar (text) and the record (facts): each function reads one kind
of value and raises ``ValueError`` (an :class:`~miai.errors.InvalidMoveError` for points)
or returns None when the text is not such a value; the record layer decides what to repair.
Numbers are read with a bound on their digits, so a 5,000-digit value is "too large" rather
than an error of Python's integer conversion.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from miai.coords import Point, point_from_sgf
from miai.errors import InvalidMoveError, RulesError
from miai.rules import PRESETS, Rules, Scoring
from miai.sgf.repairs import Repair, RepairKind

__all__ = [
    "fox_komi",
    "komi_from_text",
    "point_list",
    "rules_from_text",
    "rules_to_text",
    "sgf_point",
    "small_int",
]


# ---------------------------------------------------------------------------- points
def sgf_point(text: str, size: int) -> Point:
    """``"dp"`` -> ``(3, 3)`` on 19×19; raises :class:`InvalidMoveError` unless two letters
    on the board (a pass, ``""`` or ``tt``, is not a point here)."""
    if len(text) != 2:
        raise InvalidMoveError(f"not an SGF point: {text[:20]!r}")
    point = point_from_sgf(text, size)
    if point is None:
        raise InvalidMoveError(f"{text!r} is a pass, not a point")
    return point


def point_list(values: Iterable[str], size: int) -> list[Point]:
    """Expand SGF point lists (``dd``, compressed ``do:gq``); raises
    :class:`InvalidMoveError` on a value that is neither."""
    points: list[Point] = []
    for v in values:
        v = v.strip()
        if ":" in v:
            a, b = v.split(":", 1)
            (r1, c1), (r2, c2) = sgf_point(a.strip(), size), sgf_point(b.strip(), size)
            for r in range(max(r1, r2), min(r1, r2) - 1, -1):
                for c in range(min(c1, c2), max(c1, c2) + 1):
                    points.append((r, c))
        else:
            points.append(sgf_point(v, size))
    return points


# ---------------------------------------------------------------------------- numbers
def small_int(digits: str, max_digits: int = 6) -> int | None:
    """The value of a string of ASCII digits, or None when it has more than ``max_digits``
    (too large for anything a record counts)."""
    digits = digits.lstrip("0") or "0"
    if len(digits) > max_digits or not digits.isascii() or not digits.isdigit():
        return None
    return int(digits)


_CJK_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}


def komi_from_text(text: str) -> float | None:
    """``5 1/2``, ``6,5``, ``6.5目``, ``黒6目半``, ``七目半`` -> a number; None when the
    text holds no number, or one that is not finite (``1e400``, 400 nines)."""
    value = _komi_words(text[:1000])  # a bounded prefix: more than 309 digits is infinite anyway
    return value if value is not None and math.isfinite(value) else None


def _komi_words(text: str) -> float | None:
    t = text.strip().replace(",", ".")
    m = re.fullmatch(r"(-?)\s*(\d+)\s+1/2", t)
    if m:
        return (-1 if m.group(1) else 1) * (float(m.group(2)) + 0.5)
    m = re.search(r"(-?\d+(?:\.\d+)?)\s*(目|집|子)?\s*(半|반)?", t)
    if m:
        value = float(m.group(1))
        if m.group(3):
            value += 0.5 if value >= 0 else -0.5
        return value
    m = re.search(r"([〇零一二三四五六七八九十]+)\s*目\s*(半)?", t)
    if m:
        digits = m.group(1)
        value = sum(_CJK_DIGITS[d] for d in digits) if "十" not in digits else _cjk_number(digits)
        return value + (0.5 if m.group(2) else 0)
    return None


def _cjk_number(digits: str) -> int:
    tens, _, units = digits.partition("十")
    return (_CJK_DIGITS.get(tens, 1) if tens else 1) * 10 + (_CJK_DIGITS.get(units, 0) if units else 0)


def fox_komi(value: float, rules: Rules) -> float | None:
    """The komi a Fox (Yike) record means by ``KM[value]``, or None when ``value`` is not
    in Fox's scale (a whole number from 50 to 2499 that gives a multiple of half a point).

    Fox writes komi multiplied by 100: in points under Japanese and Korean rules
    (``KM[650]`` is 6.5), in stones under Chinese rules, where a stone is two points
    (``KM[375]`` is 3.75 stones, 7.5 points; ``KM[325]`` 6.5). The rules' scoring chooses
    the scale; when it gives no multiple of a half point, the other one does.
    """
    if not (50 <= abs(value) < 2500 and value == int(value)):
        return None
    points, stones = value / 100, value / 50
    first, second = (points, stones) if rules.scoring is Scoring.TERRITORY else (stones, points)
    for komi in (first, second):
        if komi * 2 == int(komi * 2):
            return komi
    return None


# ---------------------------------------------------------------------------- rules
_RULES_SPELLING = {
    "japanese": "Japanese",
    "chinese": "Chinese",
    "korean": "Korean",
    "aga": "AGA",
    "new-zealand": "NZ",
    "tromp-taylor": "Tromp-Taylor",
    "simple": "simple",
}
_RULES_WORDS = (
    (("jap", "日本", "nihon"), "japanese"),
    (("chin", "中国", "cn"), "chinese"),
    (("kor", "韩国", "韓国", "한국"), "korean"),
    (("aga", "american"), "aga"),
    (("zealand", "nz"), "new-zealand"),
    (("tromp",), "tromp-taylor"),
)


def rules_from_text(text: str | None) -> tuple[Rules, Repair | None]:
    """Map an SGF ``RU`` value to a ruleset: ``(rules, warning)``.

    A preset name or alias, or miai's own text form (``japanese ko=positional``), maps
    without a warning; else a name containing ``jap``, ``chin``, ``kor``… maps to that
    preset, and anything else to ``chinese``, with a warning naming the choice.
    """
    if text is None or not text.strip():
        return PRESETS["chinese"], None
    shown = text.strip()[:60]
    if len(text) <= 200:
        try:
            return Rules.parse(text), None
        except (RulesError, ValueError):
            pass
    low = text.strip().lower()
    for words, preset in _RULES_WORDS:
        if any(w in low for w in words):
            return PRESETS[preset], Repair(RepairKind.RULES_CLOSEST, value=shown, preset=preset)
    if "ing" in low or "goe" in low:
        return PRESETS["chinese"], Repair(RepairKind.RULES_ING, value=shown)
    return PRESETS["chinese"], Repair(RepairKind.RULES_UNKNOWN, value=shown)


def rules_to_text(rules: Rules) -> str:
    """The ``RU`` value for ``rules``: the usual SGF spelling of a preset (``Japanese``,
    ``AGA``, ``NZ``) when only komi differs, else miai's text form without komi (SGF has
    ``KM`` for it)."""
    for name, preset in PRESETS.items():
        if rules.replace(komi=preset.komi) == preset:
            return _RULES_SPELLING[name]
    words = [w for w in rules.to_text().split() if not w.startswith("komi=")]
    return " ".join(words)
