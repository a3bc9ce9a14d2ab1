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


