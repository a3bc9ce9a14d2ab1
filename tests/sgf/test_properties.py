"""Typed property values (:mod:`miai.sgf.properties`): rules text, komi text, Fox komi,
points and bounded numbers."""

from __future__ import annotations

import pytest

from miai.errors import InvalidMoveError
from miai.rules import PRESETS, KoRule
from miai.sgf import rules_from_text, rules_to_text
from miai.sgf.properties import fox_komi, komi_from_text, point_list, small_int


@pytest.mark.parametrize(
    "text, preset, warned",
    [
        ("Japanese", "japanese", False),
        ("chinese", "chinese", False),
        ("AGA", "aga", False),
        ("NZ", "new-zealand", False),
        ("Tromp-Taylor", "tromp-taylor", False),
        ("Japanese rules (1989)", "japanese", True),
        ("Chinese, with superko", "chinese", True),
        ("Korean rules", "korean", True),
        ("Ing", "chinese", True),
        ("whatever", "chinese", True),
        (None, "chinese", False),
    ],
)
def test_rules_from_text(text, preset, warned):
    rules, warning = rules_from_text(text)
    assert rules == PRESETS[preset]
    assert (warning is not None) == warned


@pytest.mark.parametrize("name", list(PRESETS))
def test_rules_round_trip_through_ru(name):
    rules = PRESETS[name].replace(komi=3.5)
    assert rules_from_text(rules_to_text(rules))[0].replace(komi=3.5) == rules
    odd = PRESETS[name].replace(ko=KoRule.SITUATIONAL if PRESETS[name].ko is not KoRule.SITUATIONAL else KoRule.SIMPLE)
    assert rules_from_text(rules_to_text(odd)) == (odd, None)




@pytest.mark.parametrize(
    "value, rules, komi",
    [
        (650, "japanese", 6.5), (750, "korean", 7.5), (375, "chinese", 7.5), (325, "chinese", 6.5),
        (275, "aga", 5.5), (325, "japanese", 6.5), (-650, "japanese", -6.5),
        (6.5, "japanese", None), (7, "chinese", None), (2500, "chinese", None), (333, "chinese", None),
    ],
)  # fmt: skip
def test_fox_komi(value, rules, komi):
    assert fox_komi(value, PRESETS[rules]) == komi


@pytest.mark.parametrize(
    "text, komi",
    [
        ("5 1/2", 5.5), ("-5 1/2", -5.5), ("6,5", 6.5), ("6.5目", 6.5), ("黒6目半", 6.5), ("七目半", 7.5),
        ("十目", 10), ("3집반", 3.5), ("none", None), ("1e400", 1.0), ("9" * 400, None), ("黒" + "9" * 400 + "目半", None),
    ],
)  # fmt: skip
def test_komi_from_text(text, komi):
    assert komi_from_text(text) == komi


def test_small_int_bounds_the_digits():
    assert small_int("0007") == 7 and small_int("0") == 0 and small_int("000") == 0
    assert small_int("9" * 6) == 999_999 and small_int("9" * 7) is None and small_int("9" * 5000) is None
    assert small_int("12", 1) is None and small_int("١٢") is None  # ASCII digits only


def test_points_and_point_lists():
    assert point_list(["aa", " cc ", "ab:bc"], 3) == [(2, 0), (0, 2), (1, 0), (1, 1), (0, 0), (0, 1)]
    for bad in ("", "tt", "zz", "a", "aaa", "AA", "a1"):
        with pytest.raises(InvalidMoveError):
            point_list([bad], 19 if bad == "tt" else 3)
