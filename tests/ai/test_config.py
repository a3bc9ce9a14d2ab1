"""The search's knobs: levels, ``NAME=VALUE`` settings (``miai gtp --set``), and every knob's
type and range checked when a config is made."""

from __future__ import annotations

import subprocess
import sys

import pytest

from miai.ai.config import AS_MEASURED, LEVEL_PLAYOUTS, LIMITS, MctsConfig
from miai.coords import point_from_gtp
from miai.errors import ConfigError, MiaiError


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
        ("prior_even=none", "prior_even='none': not a valid float"),
    ],
)
def test_bad_settings_say_what_is_wrong(text, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        MctsConfig.parse_settings([text])


def test_a_playout_setting_overrides_the_level():
    assert MctsConfig.for_level(3).playouts == LEVEL_PLAYOUTS[2]
    assert MctsConfig.for_level(3, **MctsConfig.parse_settings(["playouts=77"])).playouts == 77


@pytest.mark.usefixtures("compiled_engine")
def test_gtp_command_line_sets_knobs_and_refuses_bad_ones():
    commands = "boardsize 9\ngenmove b\nquit\n"
    run = [sys.executable, "-m", "miai.cli.main", "gtp", "--no-warm-up"]
    ok = subprocess.run([*run, "--set", "playouts=40", "--set", "prior_ladder=0"], input=commands,
                        capture_output=True, text=True, timeout=120, check=False)
    assert ok.returncode == 0
    assert "40 playouts" in ok.stderr  # the search ran exactly the budget it was given
    bad = subprocess.run([*run, "--set", "prior_ladder=high"], input=commands, capture_output=True, text=True, timeout=60, check=False)
    assert bad.returncode == 2 and "--set prior_ladder='high': not a valid float" in bad.stderr


def test_every_knob_has_a_limit_and_the_defaults_keep_to_it():
    from dataclasses import fields

    assert {f.name for f in fields(MctsConfig)} == set(LIMITS)
    assert MctsConfig() == MctsConfig(**{f.name: getattr(MctsConfig(), f.name) for f in fields(MctsConfig)})
    for level in range(1, 11):
        MctsConfig.for_level(level)


def test_levels_below_ten_keep_the_engine_their_table_was_measured_with():
    assert MctsConfig().pattern_min_size == 9
    for level in range(1, 10):
        config = MctsConfig.for_level(level)
        assert {name: getattr(config, name) for name in AS_MEASURED} == AS_MEASURED
    assert MctsConfig.for_level(10) == MctsConfig(playouts=LEVEL_PLAYOUTS[9])
    assert MctsConfig.for_level(4, pattern_min_size=9).pattern_min_size == 9


@pytest.mark.parametrize(
    ("knob", "value", "message"),
    [
        # out of range, at both ends, and the values that broke the search
        ("rave_equiv", 0, "rave_equiv must be a number above 0 and at most 1e+09, not 0"),
        ("rave_equiv", 1e10, "rave_equiv must be a number above 0 and at most 1e+09, not 10000000000.0"),
        ("chunk", 0, "chunk must be a whole number from 1 to 100000, not 0"),
        ("playouts", -5, "playouts must be a whole number from 1 to 1000000000000, not -5"),
        ("p_capture", 1.5, "p_capture must be a number from 0 to 1, not 1.5"),
        ("prior_even", -1.0, "prior_even must be a number from 0 to 1e+06, not -1.0"),
        ("max_seconds", 0.0, "max_seconds must be a number above 0 and at most 1e+06, or none, not 0.0"),
        ("seed", -1, "seed must be a whole number from 0 to 9223372036854775807, or none, not -1"),
        # not a finite number
        ("prior_even", float("nan"), "prior_even must be a number from 0 to 1e+06, not nan"),
        ("min_seconds", float("inf"), "min_seconds must be a number from 0 to 3600, not inf"),
        # the wrong type
        ("playouts", 2.5, "playouts must be a whole number from 1 to 1000000000000, not 2.5"),
        ("playouts", True, "playouts must be a whole number from 1 to 1000000000000, not True"),
        ("playouts", "300", "playouts must be a whole number from 1 to 1000000000000, not '300'"),
        ("early_stop", 1, "early_stop must be true or false, not 1"),
        ("rave_equiv", None, "rave_equiv must be a number above 0 and at most 1e+09, not None"),
        ("prior_cfg", (1.0, 2.0), "prior_cfg must be 3 numbers from 0 to 1e+06, not (1.0, 2.0)"),
        ("prior_cfg", (1.0, -2.0, 3.0), "prior_cfg must be 3 numbers from 0 to 1e+06, not (1.0, -2.0, 3.0)"),
        ("prior_cfg", 3.0, "prior_cfg must be 3 numbers from 0 to 1e+06, not 3.0"),
    ],
)
def test_each_bad_knob_is_refused_by_name_with_its_range(knob, value, message):
    with pytest.raises(ConfigError) as caught:
        MctsConfig(**{knob: value})
    assert str(caught.value) == message
    assert isinstance(caught.value, MiaiError) and isinstance(caught.value, ValueError)


def test_a_number_too_long_to_print_is_refused_all_the_same():
    with pytest.raises(ConfigError, match="playouts must be a whole number .*, not a number too long to show"):
        MctsConfig(playouts=10**5000)
    with pytest.raises(ConfigError, match=r"^playouts='9{36}\.\.\.: not a valid int \(default 1000000\)$"):
        MctsConfig.parse_settings(["playouts=" + "9" * 5000])


def test_knobs_are_stored_in_their_own_type():
    config = MctsConfig(rave_equiv=3000, prior_cfg=[1, 2, 3], max_seconds=2)
    assert type(config.rave_equiv) is float and config.rave_equiv == 3000.0
    assert config.prior_cfg == (1.0, 2.0, 3.0) and type(config.prior_cfg) is tuple
    assert type(config.max_seconds) is float


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("rave_equiv=0", "rave_equiv must be a number above 0"),
        ("chunk=0", "chunk must be a whole number from 1 to 100000, not 0"),
        ("p_pattern=2", "p_pattern must be a number from 0 to 1, not 2.0"),
        ("p_ko=nan", "p_ko must be a number from 0 to 1, not nan"),
        ("rave_equiv=none", "rave_equiv='none': not a valid float"),
    ],
)
def test_settings_out_of_range_are_refused_at_the_door(text, message):
    with pytest.raises(ConfigError, match=message):
        MctsConfig.parse_settings([text])


@pytest.mark.parametrize("level", [0, 11, 2.5, True, "3"])
def test_a_level_outside_one_to_ten_is_refused(level):
    with pytest.raises(ConfigError, match="level must be a whole number from 1 to 10"):
        MctsConfig.for_level(level)


def test_a_level_with_an_unknown_or_bad_knob_is_refused():
    with pytest.raises(ConfigError, match="no knob named 'speed'"):
        MctsConfig.for_level(3, speed=2)
    with pytest.raises(ConfigError, match="max_seconds must be a number above 0"):
        MctsConfig.for_level(3, max_seconds=-1.0)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--set", "rave_equiv=0"], "miai gtp: --set rave_equiv must be a number above 0"),
        (["--set", "chunk=0"], "miai gtp: --set chunk must be a whole number from 1 to 100000, not 0"),
        (["--seconds", "-1"], "miai gtp: --seconds must be a number of seconds above 0"),
        (["--threads", "0"], "miai gtp: threads must be a whole number from 1 to 64, not 0"),
    ],
)
def test_gtp_command_line_refuses_knobs_out_of_range(args, message):
    """``--set rave_equiv=0`` once made every genmove an internal error and ``--set chunk=0``
    a genmove that never returned: now the engine does not start."""
    run = [sys.executable, "-m", "miai.cli.main", "gtp", "--no-warm-up", *args]
    out = subprocess.run(run, input="genmove b\nquit\n", capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 2 and message in out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.usefixtures("compiled_engine")
def test_gtp_searches_with_two_threads_when_asked():
    run = [sys.executable, "-m", "miai.cli.main", "gtp", "--size", "9", "--threads", "2", "--seconds", "0.5"]
    out = subprocess.run(run, input="genmove b\nquit\n", capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    reply = out.stdout.split("\n\n")[0]
    assert reply.startswith("= ") and point_from_gtp(reply[2:], 9) is not None


def test_the_terminal_game_refuses_a_time_out_of_range():
    run = [sys.executable, "-m", "miai.cli.main", "play", "--white", "ai", "--seconds", "1e7"]
    out = subprocess.run(run, input="quit\n", capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 2, out.stdout + out.stderr
    assert "max_seconds must be a number above 0 and at most" in out.stdout + out.stderr
    assert "Traceback" not in out.stderr


def test_the_policy_parameters_carry_each_playout_knob_to_its_place():
    from miai._kernel import heavy as H

    params = MctsConfig(
        p_capture=0.7, p_pattern=0.6, p_selfatari_heuristic=0.5, p_selfatari_random=0.4, p_twolib=0.3, p_nakade=0.1,
        p_ko=0.05, race_min_chain=5, p_race_reply=0.25,
    ).policy_params()
    assert params.shape == (H.NPARAMS,)
    indices = (
        H.P_CAPTURE, H.P_PATTERN, H.P_SELFATARI_HEURISTIC, H.P_SELFATARI_RANDOM, H.P_TWOLIB, H.P_NAKADE, H.P_KO,
        H.P_RACE_MIN_CHAIN, H.P_RACE_REPLY,
    )
    assert [params[i] for i in indices] == [0.7, 0.6, 0.5, 0.4, 0.3, 0.1, 0.05, 5.0, 0.25]


def test_the_default_knobs_give_the_kernels_default_policy():
    from miai._kernel import heavy as H

    assert MctsConfig().policy_params().tolist() == H.DEFAULT_PARAMS.tolist()


def test_the_playouts_answer_races_only_on_boards_as_large_as_asked():
    from miai._kernel import heavy as H

    assert MctsConfig().policy_params(19)[H.P_RACE_REPLY] == 1.0
    assert MctsConfig().policy_params(9)[H.P_RACE_REPLY] == 0.0
    assert MctsConfig(race_reply_min_size=9).policy_params(9)[H.P_RACE_REPLY] == 1.0
    assert MctsConfig(p_race_reply=0.5).policy_params(25)[H.P_RACE_REPLY] == 0.5
    # the rest of the policy does not depend on the board
    nine, nineteen = MctsConfig().policy_params(9), MctsConfig().policy_params(19)
    nine[H.P_RACE_REPLY] = nineteen[H.P_RACE_REPLY]
    assert nine.tolist() == nineteen.tolist()


def test_small_boards_weigh_the_predictors_prior_more():
    from miai._kernel import tree as T

    cfg = MctsConfig()
    assert (cfg.mm_weight(9), cfg.mm_weight(12), cfg.mm_weight(13), cfg.mm_weight(19)) == (120.0, 120.0, 40.0, 40.0)
    assert cfg.mm_weight() == 40.0  # no size: the knob as set
    assert cfg.tree_params(7.5, size=9)[T.S_PRIOR_MM] == 120.0
    assert cfg.tree_params(7.5, size=19)[T.S_PRIOR_MM] == 40.0
    assert MctsConfig(prior_mm=0.0).mm_weight(9) == 0.0
    assert MctsConfig(prior_mm_small=1.0).mm_weight(9) == 40.0
