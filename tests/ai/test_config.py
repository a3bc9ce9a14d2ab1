"""The search's knobs: levels and ``NAME=VALUE`` settings (``miai gtp --set``)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from miai.ai.config import LEVEL_PLAYOUTS, MctsConfig


def test_settings_take_each_knobs_type():
    got = MctsConfig.parse_settings(
        ["prior_ladder=0", "playouts=3000", "early_stop=off", "prior_cfg=1,2,3", "max_seconds=none", "seed=7"]
    )
    assert got == {
        "prior_ladder": 0.0,
        "playouts": 3000,
        "early_stop": False,
        "prior_cfg": (1.0, 2.0, 3.0),
        "max_seconds": None,
        "seed": 7,
    }
    assert type(got["playouts"]) is int and type(got["prior_ladder"]) is float


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("prior_ladder", "is not NAME=VALUE"),
        ("=3", "is not NAME=VALUE"),
        ("no_such_knob=1", "no knob named 'no_such_knob'"),
        ("playouts=lots", "playouts='lots': not a valid int (default 1000000)"),
        ("prior_cfg=1,2", "prior_cfg='1,2': not a valid tuple"),
        ("early_stop=maybe", "early_stop='maybe': not a valid bool"),
        ("uct_c=none", "uct_c='none': not a valid float"),
    ],
)
def test_bad_settings_say_what_is_wrong(text, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        MctsConfig.parse_settings([text])


def test_a_playout_setting_overrides_the_level():
    assert MctsConfig.for_level(3).playouts == LEVEL_PLAYOUTS[2]
    assert MctsConfig.for_level(3, **MctsConfig.parse_settings(["playouts=77"])).playouts == 77


def test_gtp_command_line_sets_knobs_and_refuses_bad_ones():
    commands = "boardsize 9\ngenmove b\nquit\n"
    run = [sys.executable, "-m", "miai.cli.main", "gtp", "--no-warm-up"]
    ok = subprocess.run([*run, "--set", "playouts=40", "--set", "prior_ladder=0"], input=commands,
                        capture_output=True, text=True, timeout=120, check=False)
    assert ok.returncode == 0
    assert "40 playouts" in ok.stderr  # the search ran exactly the budget it was given
    bad = subprocess.run([*run, "--set", "prior_ladder=high"], input=commands, capture_output=True, text=True, timeout=60, check=False)
    assert bad.returncode == 2 and "--set prior_ladder='high': not a valid float" in bad.stderr
