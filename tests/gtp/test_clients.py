"""What real GTP clients send, and what they need back: Lizzie, Kigo, qgo, GoGui, Sabaki.

Each test is the client's conversation as a transcript (the commands it sends, in its
order) and checks what the client reads from the answers.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from tests.gtp.gtp_transcript import ask, check

from miai.ai.config import MctsConfig
from miai.gtp.engine import GtpEngine

FAST = MctsConfig(playouts=32, max_seconds=None, seed=1)


def lizzie_accepts(version_answer: str) -> bool:
    """Lizzie's check of ``version`` (its Leelaz.java): the second word of ``=id text``
    split at dots, the second part read as an integer, which must be 15 or more (Leela
    Zero 0.15 added the commands it uses); below that it opens a modal dialog, which
    deadlocks its GTP reader. Text that is not ``x.y...`` makes it throw."""
    params = version_answer.strip().split(" ")
    parts = params[1].split(".")
    return len(parts) > 1 and parts[1].isdigit() and int(parts[1]) >= 15


def test_lizzie_reads_miais_own_version_as_an_old_leela_zero() -> None:
    engine = GtpEngine()
    assert not lizzie_accepts(ask(engine, "2 version"))  # 0.1.0: Lizzie's dialog


def test_lizzie_starts_with_a_version_string_it_accepts() -> None:
    """``miai gtp --version-string 0.17``: Lizzie asks name, then version, then sets up
    the board, all with ids."""
    engine = GtpEngine(version="0.17", ai_config=FAST)
    check(
        engine,
        """
        > 1 name
        =1 miai
        > 2 version
        =2 0.17
        > 3 boardsize 19
        =3
        > 4 komi 7.5
        =4
        > 5 clear_board
        =5
        > 6 play B Q16
        =6
        > 7 known_command lz-analyze
        =7 true
        """,
    )
    assert lizzie_accepts(ask(engine, "8 version"))


@pytest.mark.parametrize("bad", ["", "   ", "0.17\nname", "0.17\x00", "x" * 101])
def test_a_version_string_is_one_short_line(bad: str) -> None:
    from miai.gtp.protocol import GtpError

    with pytest.raises(GtpError, match="one line of printable text"):
        GtpEngine(version=bad)


@pytest.mark.timeout(120)
def test_miai_gtp_version_string_option() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "miai", "gtp", "--no-warm-up", "--version-string", "0.17"],
        input=b"1 name\n2 version\n",
        capture_output=True,
        timeout=60,
    )
    assert out.returncode == 0 and out.stdout == b"=1 miai\n\n=2 0.17\n\n"
    bad = subprocess.run(
        [sys.executable, "-m", "miai", "gtp", "--version-string", ""], input=b"name\n", capture_output=True, timeout=60
    )
    assert bad.returncode == 2 and bad.stdout == b"" and b"--version-string" in bad.stderr


def test_kigo_draws_the_stones_it_asks_for() -> None:
    """Kigo (KDE) keeps no board of its own: after every move it asks ``list_stones``."""
    engine = GtpEngine(size=9, ai_config=FAST)
    check(
        engine,
        """
        > boardsize 9
        =
        > clear_board
        =
        > komi 4.5
        =
        > level 1
        =
        > fixed_handicap 2
        = G7 C3
        > list_stones black
        = G7 C3
        > list_stones white
        =
        > play white E5
        =
        > list_stones white
        = E5
        > captures white
        = 0
        > move_history
        = white E5
        """,
    )
    move = ask(engine, "genmove black")
    assert re.fullmatch(r"= ([A-HJ]\d|PASS|pass|resign)", move)
    if move != "= resign":
        assert len(ask(engine, "list_stones black")[2:].split()) == 3 - (move.lower() == "= pass")
    hint = ask(engine, "top_moves_white")
    assert re.fullmatch(r"= (?:[A-HJ]\d \d+\.\d\d(?: [A-HJ]\d \d+\.\d\d)*)?", hint)
    assert re.fullmatch(r"= [BW]\+\d+\.\d \(upper bound: -?\d+\.\d, lower: -?\d+\.\d\)", ask(engine, "estimate_score"))


def test_level_keeps_the_other_knobs() -> None:
    engine = GtpEngine(ai_config=MctsConfig(max_seconds=2.0, resign=True, seed=5))
    check(
        engine,
        """
        > level 3
        =
        > level 0
        ? syntax error: the level must be from 1 to 10, not '0'
        > level 11
        ? syntax error: the level must be from 1 to 10, not '11'
        > level x
        ? syntax error: the level must be an integer, not 'x'
        > level
        ? syntax error: expected level <1 to 10>
        """,
    )
    config = engine.ai_config
    assert config is not None and config.playouts == 100
    assert (config.max_seconds, config.resign, config.seed) == (2.0, True, 5)


def test_qgo_takes_back_one_move_with_undo_0(engine: GtpEngine) -> None:
    """qgo sends ``undo 0``; GNU Go (and KataGo, Leela Zero) take back one move whatever
    the number after ``undo``."""
    check(
        engine,
        """
        > play black E5
        =
        > play white C3
        =
        > play black G7
        =
        > undo 0
        =
        > move_history
        = white C3
        black E5
        > undo 5
        =
        > move_history
        = black E5
        > undo -1
        ? syntax error: the number of moves must be at least 0, not '-1'
        """,
    )


def test_gogui_takes_back_several_moves_with_gg_undo(engine: GtpEngine) -> None:
    check(
        engine,
        """
        > play b E5
        =
        > play w C3
        =
        > play b pass
        =
        > play w pass
        =
        > play b G7
        =
        > gg-undo 0
        =
        > gg-undo 2
        =
        > move_history
        = black PASS
        white C3
        black E5
        > gg-undo 4
        ? cannot undo
        > gg-undo
        =
        > gg-undo 2
        =
        > gg-undo 1
        ? cannot undo
        > gg-undo x
        ? syntax error: the number of moves must be an integer, not 'x'
        """,
    )


def test_undo_after_two_passes_and_a_resumption_takes_back_moves_only(engine: GtpEngine) -> None:
    """A move after two passes resumes the game (a resumption in the history, not a move):
    ``undo`` takes back the move, the next ``undo`` the pass before it."""
    for command in ("play b E5", "play w pass", "play b pass", "play w C3"):
        assert ask(engine, command) == "= "
    assert ask(engine, "undo") == "= "
    assert ask(engine, "move_history") == "= black PASS\nwhite PASS\nblack E5"
    assert ask(engine, "undo") == "= "
    assert ask(engine, "move_history") == "= white PASS\nblack E5"
    assert ask(engine, "play w C3") == "= "  # and play goes on from there


def test_sabaki_setup_and_analysis_commands(engine: GtpEngine) -> None:
    """Sabaki asks list_commands to decide what to offer (lz-analyze: its analysis mode)."""
    listed = ask(engine, "1 list_commands")[3:].split("\n")
    for name in ("lz-analyze", "genmove", "undo", "set_free_handicap", "loadsgf", "kata-set-rules"):
        assert name in listed
    check(
        engine,
        """
        > 2 boardsize 9
        =2
        > 3 clear_board
        =3
        > 4 komi 6.5
        =4
        > 5 set_free_handicap C3 G7
        =5
        > 6 play W E5
        =6
        > 7 list_stones black
        =7 G7 C3
        """,
    )
