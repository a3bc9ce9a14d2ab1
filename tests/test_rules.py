"""Rules: presets as docs/RULES.md §8 tabulates them, single fields, the text round trip."""

from __future__ import annotations

import pytest

from miai.errors import RulesError
from miai.rules import MAX_KOMI, PRESETS, HandicapBonus, KoRule, Rules, Scoring

TABLE = """
simple       area      positional  no  yes 0   7   no
chinese      area      positional  no  yes N   7.5 yes
japanese     territory simple      no  no  0   6.5 yes
korean       territory simple      no  no  0   6.5 yes
aga          area      situational no  yes N-1 7.5 yes
new-zealand  area      situational yes yes 0   7   yes
tromp-taylor area      positional  yes yes 0   7.5 no
"""


@pytest.mark.parametrize("row", TABLE.strip().splitlines())
def test_presets_match_the_table(row):
    name, scoring, ko, suicide, seki, bonus, komi, dead = row.split()
    r = Rules.preset(name)
    assert r.scoring is Scoring(scoring)
    assert r.ko is KoRule(ko)
    assert r.suicide is (suicide == "yes")
    assert r.seki_points is (seki == "yes")
    assert r.handicap_bonus is HandicapBonus(bonus)
    assert r.komi == float(komi)
    assert r.remove_dead_stones is (dead == "yes")
    assert r.void_on_repetition is (name in ("japanese", "korean"))
    assert r.white_wins_ties is False


def test_all_seven_presets():
    assert list(PRESETS) == ["simple", "chinese", "japanese", "korean", "aga", "new-zealand", "tromp-taylor"]


@pytest.mark.parametrize(
    "change",
    [
        {"komi": 0.5},
        {"ko": KoRule.SITUATIONAL},
        {"void_on_repetition": False},
        {"suicide": True},
        {"white_wins_ties": True},
        {"handicap_bonus": HandicapBonus.N_MINUS_1},
        {"scoring": Scoring.AREA},
        {"seki_points": True},
        {"remove_dead_stones": False},
    ],
)
def test_every_field_settable_alone_and_round_trips(change):
    base = Rules.preset("japanese")
    r = base.replace(**change)
    for field, value in change.items():
        assert getattr(r, field) == value
    assert Rules.parse(str(r)) == r
    assert Rules.parse(r.to_text()) == r


@pytest.mark.parametrize("name", list(PRESETS))
def test_presets_round_trip_through_their_name(name):
    assert Rules.parse(str(Rules.preset(name))) == Rules.preset(name)
    assert PRESETS[Rules.preset(name).nearest_preset()] == Rules.preset(name)  # korean's values are japanese's


def test_the_nearest_preset_is_the_one_with_fewest_differences_and_leads_the_text():
    changed = Rules.preset("japanese").replace(komi=0.5, seki_points=True)
    assert changed.nearest_preset() == "japanese"
    assert changed.to_text() == "japanese seki_points=yes komi=0.5"
    assert Rules.preset("chinese").replace(komi=6.5).nearest_preset() == "chinese"


def test_aliases_and_text_values():
    assert Rules.preset("Japanese") == Rules.preset("jp") == PRESETS["japanese"]
    assert Rules.preset("NZ") == PRESETS["new-zealand"]
    assert Rules.preset("TrompTaylor") == PRESETS["tromp-taylor"]
    r = Rules.parse("aga komi=0.5 ko=positional suicide=yes white_wins_ties=yes")
    assert (r.komi, r.ko, r.suicide, r.white_wins_ties) == (0.5, KoRule.POSITIONAL, True, True)
    assert Rules.parse("komi=6") == PRESETS["chinese"].replace(komi=6)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("martian", "unknown ruleset 'martian'"),
        ("chinese ko=sometimes", "ko must be one of"),
        ("chinese komi=lots", "komi must be a number"),
        ("chinese colour=blue", "unknown rule 'colour'"),
        ("chinese suicide=maybe", "suicide must be yes or no"),
        ("chinese komi", "expected key=value"),
        ("chinese komi=20000", "komi must be from -1000 to 1000, not 20000"),
        ("komi=-1000.5", "komi must be from -1000 to 1000"),
    ],
)
def test_bad_text_says_what_is_wrong(text, message):
    with pytest.raises(RulesError, match=message):
        Rules.parse(text)


def test_rules_are_frozen_values_and_validate():
    r = Rules.preset("chinese")
    with pytest.raises(AttributeError):
        r.komi = 5  # type: ignore[misc]
    with pytest.raises(RulesError):
        Rules(komi=float("nan"))
    with pytest.raises(RulesError, match="from -1000 to 1000"):  # MAX_KOMI, however the value comes
        r.replace(komi=1000.5)
    assert r.replace(komi=-1000).komi == -MAX_KOMI
    with pytest.raises(RulesError):
        Rules(ko="eternal")  # type: ignore[arg-type]
    assert Rules(ko="simple").ko is KoRule.SIMPLE  # type: ignore[arg-type]
    assert hash(r) == hash(Rules.preset("chinese"))
