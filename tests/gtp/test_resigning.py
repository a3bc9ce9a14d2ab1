"""When the computer resigns over GTP: in timed games by default (as KGS bots), or as told."""

from __future__ import annotations

import pytest

from miai.ai.config import MctsConfig
from miai.cli.main import main
from miai.errors import MiaiError
from miai.gtp.engine import GtpEngine
from miai.gtp.genmove import config_of
from miai.gtp.resigning import Resigning

HOPELESS = [  # White walls in the whole board but two points; Black, to move, has nothing
    "play white A2", "play white B2", "play white B1", "play white C3", "play white D3",
    "play white E3", "play white F3", "play white G3", "play white C2", "play white C1",
]


@pytest.mark.parametrize("policy", list(Resigning))
def test_the_policy_round_trips_through_its_text(policy: Resigning) -> None:
    assert Resigning.parse(str(policy)) is policy
    assert Resigning.parse(f" {str(policy).upper()} ") is policy


def test_an_unknown_policy_is_refused_by_name() -> None:
    with pytest.raises(MiaiError, match="resigning must be one of auto, always, never, not 'sometimes'"):
        Resigning.parse("sometimes")


@pytest.mark.parametrize(
    ("policy", "configured", "untimed", "timed"),
    [
        (Resigning.AUTO, False, False, True),
        (Resigning.AUTO, True, True, True),
        (Resigning.ALWAYS, False, True, True),
        (Resigning.NEVER, True, False, False),
    ],
)
def test_the_engine_resigns_in_timed_games_by_default(
    policy: Resigning, configured: bool, untimed: bool, timed: bool
) -> None:
    engine = GtpEngine(size=9, ai_config=MctsConfig(resign=configured), resigning=policy)
    assert config_of(engine).resign is untimed
    assert engine.handle("time_settings 300 30 1") == "= \n\n"
    assert config_of(engine).resign is timed
    assert engine.handle("time_settings 0 1 0") == "= \n\n"  # no time limit again
    assert config_of(engine).resign is untimed


def test_level_does_not_keep_the_resignation_a_clock_allowed() -> None:
    engine = GtpEngine(size=9)
    engine.handle("time_settings 300 30 1")
    engine.handle("level 2")
    engine.handle("time_settings 0 1 0")
    assert config_of(engine).resign is False


def test_a_hopeless_timed_game_is_resigned_and_an_untimed_one_played_on() -> None:
    config = MctsConfig(playouts=400, max_seconds=None, seed=3, resign_min_playouts=100)
    untimed = GtpEngine(size=5, ai_config=config)
    timed = GtpEngine(size=5, ai_config=config)
    timed.handle("time_settings 600 30 1")
    for engine in (untimed, timed):
        for command in HOPELESS[:6]:
            assert engine.handle(command) == "= \n\n", command
    assert untimed.handle("genmove black") != "= resign\n\n"
    assert timed.handle("genmove black") == "= resign\n\n"


def test_the_command_line_refuses_an_unknown_policy(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gtp", "--resign", "sometimes"]) == 2
    assert "--resign: resigning must be one of auto, always, never" in capsys.readouterr().err
