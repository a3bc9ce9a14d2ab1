"""miai Rules <-> KataGo's rules dictionary."""

from __future__ import annotations

import itertools
import json

import pytest

from miai.errors import RulesError
from miai.gtp.katago_rules import KATAGO_FIELDS, from_katago, from_kgs, set_katago_rule, to_katago, to_katago_json
from miai.rules import PRESETS, Rules


@pytest.mark.parametrize("name", list(PRESETS))
def test_presets_round_trip_through_katago_json(name: str) -> None:
    rules = PRESETS[name]
    text = to_katago_json(rules)
    assert list(json.loads(text)) == list(KATAGO_FIELDS)  # sorted keys, as KataGo prints them
    assert " " not in text
    assert from_katago(text, rules) == rules
    assert from_katago(name, rules.replace(komi=0.5)) == rules.replace(komi=0.5)


ALL_DICTS = [
    dict(zip(("ko", "scoring", "tax", "suicide", "whiteHandicapBonus", "friendlyPassOk"), values))
    for values in itertools.product(
        ("SIMPLE", "POSITIONAL", "SITUATIONAL"),
        ("AREA", "TERRITORY"),
        ("NONE", "SEKI"),
        (True, False),
        ("0", "N", "N-1"),
        (True, False),
    )
]


@pytest.mark.parametrize("data", ALL_DICTS, ids=lambda d: ",".join(str(v) for v in d.values()))
def test_every_supported_katago_dict(data: dict) -> None:
    current = Rules.preset("chinese").replace(komi=3.0, white_wins_ties=True)
    rules = from_katago(json.dumps(data), current)
    assert rules.komi == 3.0 and rules.white_wins_ties is True
    back = to_katago(rules)
    expected = dict(data, hasButton=False)
    if data["scoring"] == "TERRITORY":
        expected["friendlyPassOk"] = False  # miai always settles dead stones under territory scoring
        assert rules.remove_dead_stones
    assert back == expected
    assert rules.void_on_repetition == (data["ko"] == "SIMPLE" and data["scoring"] == "TERRITORY")


def test_json_defaults_are_katagos() -> None:
    current = Rules.preset("japanese")
    assert to_katago(from_katago("{}", current)) == to_katago(Rules.preset("tromp-taylor"))
    territory = from_katago('{"scoring":"TERRITORY"}', current)
    assert territory.seki_points is False  # tax SEKI unless told otherwise
    assert from_katago('{"score":"territory","tax":"none"}', current).seki_points is True
    assert from_katago('{"komi":5.5}', current).komi == 5.5
    assert from_katago('{"suicide":"false"}', current).suicide is False


@pytest.mark.parametrize(
    "text",
    [
        "", "   ", "{", "[]", "42", '{"ko":1.5}', '{"ko":null}', '{"suicide":3}', '{"komi":"x"}', '{"komi":true}',
        '{"tax":"ALL"}', '{"hasButton":true}', '{"ko":"SPIGHT"}', '{"x":1}', "stone scoring", "aga-button",
        "ancient territory", "martian", "japanese ko", "japanese colour=red",
    ],
)  # fmt: skip
def test_bad_rules_raise_rules_error(text: str) -> None:
    with pytest.raises(RulesError):
        from_katago(text, Rules.preset("chinese"))


def test_set_one_rule() -> None:
    japanese = Rules.preset("japanese")
    assert set_katago_rule(japanese, "ko", "positional").void_on_repetition is False
    assert set_katago_rule(japanese, "ko", "simple") == japanese
    area = set_katago_rule(japanese, "scoring", "AREA")
    assert area.scoring.value == "area" and area.remove_dead_stones
    tt = Rules.preset("tromp-taylor")
    assert set_katago_rule(tt, "scoring", "TERRITORY").remove_dead_stones is True
    assert set_katago_rule(tt, "friendlyPassOk", "true").remove_dead_stones is True
    assert set_katago_rule(japanese, "friendlyPassOk", "true") == japanese
    assert set_katago_rule(japanese, "hasButton", "false") == japanese
    assert set_katago_rule(japanese, "tax", "NONE").seki_points is True
    assert set_katago_rule(japanese, "whiteHandicapBonus", "n-1").handicap_bonus.value == "N-1"
    assert set_katago_rule(japanese, "multiStoneSuicideLegal", "1").suicide is True
    for key, value in (("ko", "spight"), ("tax", "all"), ("hasButton", "true"), ("suicide", "2"), ("komi", "7")):
        with pytest.raises(RulesError):
            set_katago_rule(japanese, key, value)


def test_kgs_rules() -> None:
    current = Rules.preset("tromp-taylor").replace(komi=0.5)
    assert from_kgs("new_zealand", current) == Rules.preset("new-zealand").replace(komi=0.5)
    assert from_kgs("Japanese", current) == Rules.preset("japanese").replace(komi=0.5)
    with pytest.raises(RulesError):
        from_kgs("new-zealand", current)  # kgsGtp spells it new_zealand


@pytest.mark.parametrize(
    "text",
    [
        '{"komi": ' + "9" * 425 + "}",  # an int too large for a float: OverflowError
        '{"komi": ' + "9" * 5000 + "}",  # more digits than int() takes: ValueError
        '{"komi": 1e999}',  # JSON's infinity
        '{"ko": ' + "[" * 100_000 + "]" * 100_000 + "}",  # RecursionError in the JSON reader
        "[" * 100_000 + "]" * 100_000,
        '{"' + "k" * 10_000 + '": 1}',
    ],
    ids=lambda text: text[:20],
)
def test_hostile_json_is_a_rules_error(text: str) -> None:
    with pytest.raises(RulesError) as err:
        from_katago(text, Rules.preset("chinese"))
    assert len(str(err.value)) < 200  # the message names the problem without echoing the input


def test_a_long_unknown_name_is_shortened_in_the_message() -> None:
    with pytest.raises(RulesError, match=r"unknown rules 'x{37}\.\.\.'$"):
        from_katago("x" * 10_000, Rules.preset("chinese"))
